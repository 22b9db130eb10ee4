"""Hostile inputs, generated: the settings every generator in this package runs with, and the
fixtures its tests share.

The suite in `scripts/test` runs a modest number of examples per property, so it stays quick;
`HERMESD_HOSTILE_EXAMPLES` raises it for a longer run (the soak's hostile mix uses the same
generators). No example database is kept: every run draws afresh.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from tests.support.sim import sim_runner  # a fixture: a real hermes-sim per test

__all__ = ["sim_runner"]

settings.register_profile(
    "hostile", max_examples=int(os.environ.get("HERMESD_HOSTILE_EXAMPLES", "60")),
    deadline=None, database=None, derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile("hostile")
