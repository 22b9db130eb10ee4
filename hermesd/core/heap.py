"""Handing back to the system the memory a process's start-up used and freed.

Start-up allocates far more than a running process keeps: a config parsed and validated, tool
schemas compiled, Home Assistant's discovery configs built and sent. Python frees those objects,
but glibc keeps the freed pages of its heap for later allocations that never come (a pinned
object above them is enough to stop the heap shrinking), so they stay resident — 1 to 2 MiB
per process, measured on the bridge benchmark's daemon and tools. `release` collects garbage
cycles and asks glibc to return every free page (`malloc_trim(0)`); `eventloop.run` calls it
a few seconds after start, once the start-up work is done, and once more later. Nothing here
frees memory in use or changes what a process does; on a C library without `malloc_trim`
(musl) only the garbage is collected.
"""

from __future__ import annotations

import contextlib
import gc

#: seconds after a process's start when it hands back what start-up freed: once the usual
#: start-up (tools configured, the broker connected, the first announcement sent) is over, and
#: once more for a slow one (a broker that answers late, a Pi that imports slowly)
AFTER_START = (10.0, 60.0)


def release() -> bool:
    """Collect garbage and return free heap pages to the system; whether glibc was asked."""
    gc.collect()
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    with contextlib.suppress(OSError):
        trim(0)
    return True
