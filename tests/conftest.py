"""Shared fixtures: leak checks on every test, and real daemons, tools and sockets.

The autouse fixtures fail a test that leaves asyncio tasks, threads or child processes behind
(after giving them a moment to finish, by waiting for the condition, not by sleeping).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator, Generator, Iterator
from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner
from tests.support.mosquitto import Mosquitto

GRACE = 5.0  # seconds leftover threads and processes get to finish on their own
_BEFORE = pytest.StashKey[tuple[set[threading.Thread], set[int]]]()


def _children() -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            out.update(int(p) for p in (task / "children").read_text().split())
        except OSError:
            continue
    return out


def _wait_until(condition, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    # taken after fixtures are set up: module-scoped daemons are not the test's to stop
    result = yield
    item.stash[_BEFORE] = (set(threading.enumerate()), _children())
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    """After every fixture is finalised (event loops closed), nothing the test started lives on."""
    outcome = yield
    threads_before, children_before = item.stash.get(_BEFORE, (set(), set()))

    def leaked_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]

    def leaked_children() -> set[int]:
        return _children() - children_before

    threads_ok = _wait_until(lambda: not leaked_threads(), GRACE)
    children_ok = _wait_until(lambda: not leaked_children(), GRACE)
    problems = []
    if not threads_ok:
        problems.append(f"leaked threads: {[t.name for t in leaked_threads()]}")
    if not children_ok:
        pids = leaked_children()
        cmds = []
        for pid in pids:
            try:
                cmds.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                            .decode()[:120])
            except OSError:
                cmds.append(str(pid))
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        problems.append(f"leaked child processes: {cmds}")
    if problems:
        pytest.fail(f"{item.nodeid}: " + "; ".join(problems))
    return outcome


@pytest.fixture(autouse=True)
async def _no_leaked_tasks() -> AsyncIterator[None]:
    yield
    current = asyncio.current_task()
    leaked = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    if leaked:
        for task in leaked:
            task.cancel()
        await asyncio.gather(*leaked, return_exceptions=True)
        pytest.fail(f"leaked asyncio tasks: {[t.get_name() for t in leaked]}")



@pytest.fixture
def daemon_runner(tmp_path: Path) -> Iterator[DaemonRunner]:
    runner = DaemonRunner(tmp_path)
    yield runner
    runner.cleanup()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A real Mosquitto on a free loopback port, for this test only."""
    with Mosquitto(tmp_path / "broker") as running:
        yield running
