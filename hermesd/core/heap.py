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

What start-up leaves alive (modules, classes, the config, compiled schemas: 20,000 to 30,000
objects) lives as long as the process, and the collector would walk it again on every full
collection; and with the default thresholds the objects a request keeps for a while set off a
young collection every couple of hundred reads (the core benchmark's daemon: 26 collections
of 0.2 to 0.8 ms in 6,000 reads, each finding nothing to free: pauses in the last percent of
latencies). `settle` is called once start-up is over (the daemon right after READY=1 and after
a reload, a tool once configured): one full collection of what start-up left (10 to 20 ms,
once), then `gc.freeze` of the rest, and a youngest generation of 10,000 objects instead of
700 (none ran in those 6,000 reads). Cycles made later are still collected, by every
generation as before; a frozen object dropped later in a cycle (a tool's old link after a
restart) waits for the next settle (a reload, or the memory watch past its soft limit), so at
most what start-up had resident stays. Only a process of our own is settled (`own_process`).
"""

from __future__ import annotations

import contextlib
import gc

#: seconds after a process's start when it hands back what start-up freed: once the usual
#: start-up (tools configured, the broker connected, the first announcement sent) is over, and
#: once more for a slow one (a broker that answers late, a Pi that imports slowly)
AFTER_START = (10.0, 60.0)
#: gc thresholds once settled: (700, 10, 10) by default. A larger youngest generation means
#: fewer collections for the cycles each request leaves (asyncio futures, tasks, frames)
SETTLED_THRESHOLD = (10_000, 10, 10)


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


#: whether this process is ours to settle: set by `eventloop.run` (the daemon's and each tool's
#: main). A daemon or tool run inside another program (a test) leaves that program's collector
#: as it is
_OWN_PROCESS = False


def own_process() -> None:
    """This process runs hermesd or one tool and nothing else: `settle` may tune its gc."""
    global _OWN_PROCESS
    _OWN_PROCESS = True


def settle() -> bool:
    """Start-up (or a reload) is over: collect what it left, freeze what is still alive, so
    later collections skip it; see the module's doc. Called again, it first unfreezes, so what
    the previous start-up kept and has since dropped is collected then. Whether it did (only
    in a process of our own)."""
    if not _OWN_PROCESS:
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SETTLED_THRESHOLD)
    return True
