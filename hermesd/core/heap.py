"""Handing back to the system the memory a process's start-up used and freed.

Start-up allocates far more than a running process keeps: a config parsed and validated, tool
schemas compiled, Home Assistant's discovery configs built and sent. Python frees those objects,
but glibc keeps the freed pages of its heap for later allocations that never come (a pinned
object above them is enough to stop the heap shrinking), so they stay resident — 0.5 to 1.5 MiB
per process, measured on the bridge benchmark's daemon and tools. `release` asks glibc to
return every free page (`malloc_trim(0)`, a fraction of a millisecond; a garbage collection
before it gave back nothing more there and cost ten); `eventloop.run` calls it a few seconds
after start, once the start-up work is done, and once more later. Nothing here frees memory in
use or changes what a process does; on a C library without `malloc_trim` (musl) it does nothing.
"""

from __future__ import annotations

import contextlib

#: seconds after a process's start when it hands back what start-up freed: once the usual
#: start-up (tools configured, the broker connected, the first announcement sent) is over, and
#: once more for a slow one (a broker that answers late, a Pi that imports slowly)
AFTER_START = (10.0, 60.0)


def release() -> bool:
    """Return free heap pages to the system; whether glibc was asked to."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    with contextlib.suppress(OSError):
        trim(0)
    return True
