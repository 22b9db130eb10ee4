"""`llm.threads: auto`: one thread per physical core, less one left to the daemon and machine."""

from __future__ import annotations

import os

from hermes_tools.llm.cores import auto_threads, physical_cores


def test_auto_threads_leave_a_core_and_never_exceed_the_cores() -> None:
    cpus = len(os.sched_getaffinity(0))
    assert 1 <= physical_cores() <= cpus
    assert auto_threads() == max(1, physical_cores() - 1)
