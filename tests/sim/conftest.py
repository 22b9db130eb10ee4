"""Fixtures of these tests: a real `hermes-sim` process per test."""

from tests.support.sim import sim_runner

__all__ = ["sim_runner"]
