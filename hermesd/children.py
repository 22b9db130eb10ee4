"""Stopping a child process the one way hermesd does it: terminate, a bounded wait, then kill.

Used for tool processes and for helpers such as `arecord`. It always reaps the child and closes
its pipes, so nothing outlives the stop: no zombie, no transport left open.
"""

from __future__ import annotations

import asyncio
import contextlib


async def stop_child(proc: asyncio.subprocess.Process, grace: float) -> None:
    """SIGTERM, wait up to `grace` seconds, SIGKILL if still there; reap; close the pipes."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        try:
            async with asyncio.timeout(grace):
                await proc.wait()
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    transport = getattr(proc, "_transport", None)  # its pipes may not have been read to the end
    if transport is not None:
        transport.close()
