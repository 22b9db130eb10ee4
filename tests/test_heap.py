"""Start-up memory handed back: pages freed but kept by glibc return to the system."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

from hermesd.core import heap
from tests.support import procfs

MIB = 1024 * 1024


def test_release_returns_freed_heap_pages_that_free_alone_keeps() -> None:
    """What start-up leaves: a lot freed below something still in use (here: the last block),
    which glibc's free keeps resident; `release` gives it back."""
    blocks = [os.urandom(1024) for _ in range(48 * 1024)]  # 48 MiB of malloc'd 1 KiB blocks
    pinned = blocks[-1]  # keeps the top of the heap in use: free alone cannot shrink it
    del blocks
    before = procfs.rss_bytes(os.getpid())
    assert heap.release()  # glibc: asked to trim
    after = procfs.rss_bytes(os.getpid())
    assert before is not None and after is not None
    assert before - after > 32 * MIB, f"RSS {before / MIB:.1f} -> {after / MIB:.1f} MiB"
    assert len(pinned) == 1024  # still there: nothing in use was touched


SETTLE_CHILD = """
import gc, sys, weakref
from hermesd.core import heap

class Node:
    pass

def cycle():
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)

started = [cycle() for _ in range(100)]  # start-up's garbage: collected by settle
assert heap.settle() is False and gc.get_freeze_count() == 0  # not ours yet: gc untouched
heap.own_process()
kept = Node()  # start-up's live objects: frozen
assert heap.settle() is True
print(gc.get_threshold(), gc.get_freeze_count(), sum(r() is not None for r in started))
gc.collect()  # frozen objects stay; a full collection still runs
refs = [cycle() for _ in range(100_000)]  # cycles a running process makes, never collected here
print(sum(r() is not None for r in refs), gc.isenabled())
"""


def test_settle_freezes_start_up_and_cycles_made_later_are_still_collected() -> None:
    """In a process of its own: start-up's garbage is collected, what lives is frozen, the
    young generation is larger, and the cycles made afterwards are collected automatically
    (no gc.collect call): memory does not grow with requests."""
    out = subprocess.run([sys.executable, "-c", SETTLE_CHILD], capture_output=True, text=True,
                         check=True, timeout=60).stdout.splitlines()
    threshold, frozen, start_up_left = out[0].rsplit(" ", 2)
    assert threshold == str(heap.SETTLED_THRESHOLD)
    assert int(frozen) > 1000  # the interpreter's and hermesd's objects alive at start-up
    assert start_up_left == "0"
    alive, enabled = out[1].split()
    assert int(alive) <= heap.SETTLED_THRESHOLD[0] * 2  # at most what the last collections left
    assert enabled == "True"


def test_settle_leaves_a_host_process_alone() -> None:
    """A daemon or tool run inside another program (these tests) does not tune its gc."""
    before = gc.get_threshold(), gc.get_freeze_count()
    assert heap.settle() is False
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
