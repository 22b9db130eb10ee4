"""The one way hermesd stops a child: SIGTERM and a bounded wait, then SIGKILL; or SIGKILL at
once with a grace of 0. Always reaped, pipes closed."""

from __future__ import annotations

import asyncio
import signal
import sys

from hermesd.children import stop_child

#: a child that says it is ready, then sleeps; with "ignore", it ignores SIGTERM
CHILD = ("import signal, sys, time\n"
         "if sys.argv[1] == 'ignore': signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
         "print('ready', flush=True)\n"
         "time.sleep(60)\n")


async def _child(mode: str) -> asyncio.subprocess.Process:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", CHILD, mode,
                                                stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b"ready\n"  # its SIGTERM handler is in place
    return proc


async def test_a_child_that_stops_on_sigterm_is_terminated() -> None:
    proc = await _child("obey")
    await stop_child(proc, 10.0)
    assert proc.returncode == -signal.SIGTERM


async def test_a_child_that_ignores_sigterm_is_killed_after_the_grace() -> None:
    proc = await _child("ignore")
    await stop_child(proc, 0.2)
    assert proc.returncode == -signal.SIGKILL


async def test_a_grace_of_zero_kills_at_once_without_asking() -> None:
    proc = await _child("obey")  # it would stop on SIGTERM; a grace of 0 does not send it
    await stop_child(proc, 0)
    assert proc.returncode == -signal.SIGKILL


async def test_stopping_a_child_that_has_exited_reaps_it() -> None:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await proc.wait()
    await stop_child(proc, 1.0)
    assert proc.returncode == 0
