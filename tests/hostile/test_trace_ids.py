"""Trace ids of a forked process are its own, never its parent's next ones.

Trace ids come from a generator seeded once (`hermesd.context`); a process forked from hermesd
(a helper that forks without exec, a test's child) holds a copy of its state. Were it not
seeded again, parent and child would hand out the same ids from then on, and records of two
different requests would share one (the audit log pairs an intent with its outcome by it).
"""

from __future__ import annotations

import os

from hermesd.context import new_trace_id


def test_a_forked_process_draws_trace_ids_of_its_own() -> None:
    new_trace_id()  # the generator has been used before the fork, as in a running hermesd
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next ids, and out
        try:
            os.write(write_end, " ".join(new_trace_id() for _ in range(8)).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as pipe:
            theirs = pipe.read().decode().split()
    finally:
        _, status = os.waitpid(pid, 0)
    ours = [new_trace_id() for _ in range(8)]
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(theirs) == 8 and all(len(t) == 16 for t in theirs)
    assert not set(theirs) & set(ours), (theirs, ours)
