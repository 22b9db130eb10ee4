"""Shared fixtures: leak checks on every test, and real daemons, tools and sockets.

The autouse fixtures fail a test that leaves asyncio tasks, threads or child processes behind
(after giving them a moment to finish, by waiting for the condition, not by sleeping).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path

import pytest

from tests.support import procfs
from tests.support.daemon import DaemonRunner
from tests.support.mosquitto import Mosquitto
from tests.support.until import until_sync

GRACE = 5.0  # seconds leftover threads and processes get to finish on their own
_BEFORE = pytest.StashKey[tuple[set[threading.Thread], set[int]]]()


def _children() -> set[int]:
    return procfs.children(os.getpid())


def _settles(condition: Callable[[], bool], timeout: float) -> bool:
    try:
        until_sync(condition, timeout, "leftovers to finish")
    except TimeoutError:
        return False
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

    threads_ok = _settles(lambda: not leaked_threads(), GRACE)
    children_ok = _settles(lambda: not leaked_children(), GRACE)
    problems = []
    if not threads_ok:
        problems.append(f"leaked threads: {[t.name for t in leaked_threads()]}")
    if not children_ok:
        pids = leaked_children()
        cmds = []
        for pid in pids:
            cmds.append(procfs.cmdline(pid)[:120] or str(pid))
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
