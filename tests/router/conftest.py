"""Daemons with the real embedded model, started once per test session (loading takes seconds).

Tests that disturb the worker (kill it, stop it, reload the config) start their own daemon;
tests that only ask share these. They run the model with one thread: this machine's cores are
shared with other jobs, and llama.cpp's threads spin at every barrier, so two threads on two
busy cores run several times slower than one (scripts/bench/routing.py measures both).
The model must have been prepared (`scripts/setup --all` or `scripts/models llm`); a missing
model fails loudly with that advice.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hermesd.core.model_files import find_model
from hermesd.models.gguf import MODEL_FILE
from tests.support.daemon import DaemonRunner, RunningDaemon
from tests.support.plants import cold_store, dev_plant

LLM_READY_TIMEOUT = 50.0
THREADS = 1


def require_model() -> None:
    if find_model(MODEL_FILE) is None:
        pytest.fail(f"the embedded model {MODEL_FILE} is not prepared: run scripts/setup --all "
                    "(or scripts/models llm)")


def wait_llm_ready(d: RunningDaemon, timeout: float = LLM_READY_TIMEOUT,
                   not_pid: int | None = None) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        llm = dict(d.status()["llm"])
        if llm["state"] == "failed":
            raise RuntimeError(f"the LLM worker failed: {llm['error']}")
        if llm["state"] == "ready" and llm["pid"] != not_pid:
            return llm
        return None
    return dict(d.wait_until(ready, timeout=timeout, what="the LLM worker to be ready"))


def _start(tmp: Any, config: dict[str, Any]) -> Iterator[RunningDaemon]:
    require_model()
    runner = DaemonRunner(tmp)
    try:
        d = runner.start(config)
        wait_llm_ready(d)
        yield d
    finally:
        runner.cleanup()


@pytest.fixture(scope="session")
def dev_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    """The dev plant (fake devices with its point names) with the model ready."""
    yield from _start(tmp_path_factory.mktemp("dev"), dev_plant(threads=THREADS))


@pytest.fixture(scope="session")
def cold_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    """The second plant, whose names share nothing with the dev plant's."""
    yield from _start(tmp_path_factory.mktemp("cold"), cold_store(threads=THREADS))


def ask(d: RunningDaemon, text: str, *, role: str = "engineer", dry_run: bool = True
        ) -> tuple[int, dict[str, Any]]:
    args = ["ask", "--role", role, *(["--dry-run"] if dry_run else []), text]
    return d.ctl_json(*args)


def matches(answer: dict[str, Any], expect: dict[str, Any]) -> bool:
    action = answer["action"] or {}
    if action.get("name") != expect["action"]:
        return False
    if expect["action"] == "respond":
        return True
    args = action.get("args", {})
    return bool(args.get("point") == expect["point"]
                and ("value" not in expect or args.get("value") == expect["value"]))
