"""Start-up memory handed back: pages freed but kept by glibc return to the system."""

from __future__ import annotations

import os

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
