"""Stopping a child process the one way hermesd does it: terminate, a bounded wait, then kill.

Used for tool processes (through the supervisor, also when the LLM worker must die at once),
and for helpers such as `arecord`, `espeak-ng` and `aplay`. It always reaps the child and closes
its pipes, so nothing outlives the stop: no zombie, no transport left open.
"""

from __future__ import annotations

import asyncio
import contextlib
import os


async def stop_child(proc: asyncio.subprocess.Process, grace: float) -> None:
    """SIGTERM, wait up to `grace` seconds, SIGKILL if still there; reap; close the pipes.

    A `grace` of 0 is SIGKILL at once: for a child that must not run one moment longer (a
    runaway generation, a helper past its deadline)."""
    if proc.returncode is None and grace > 0:
        if not _exited(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                await proc.wait()
    if proc.returncode is None:
        if not _exited(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        await proc.wait()
    transport = getattr(proc, "_transport", None)  # its pipes may not have been read to the end
    if transport is not None:
        transport.close()


def _exited(pid: int) -> bool:
    """Whether the child has exited and waits to be reaped, without reaping it.

    Popen.send_signal (behind `terminate`) polls first, and that poll would reap a child that
    has just exited behind the back of asyncio's child watcher, which then reports exit code
    255 (and a warning) instead of the real one."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True
