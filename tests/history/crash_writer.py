"""A child process that writes history batches as fast as it can and says which it committed.

Run by tests/history/test_crash.py, which SIGKILLs it in the middle of writing. Each batch holds
one sample of every point with value = the batch number; after a commit it prints the number.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hermesd.history.recorder import Recorder, Track
from hermesd.history.store import Store

POINTS = 200


def main() -> None:
    path = Path(sys.argv[1])
    store = Store(path)
    store.open()
    t0 = 1_800_000_000.0
    rec = Recorder({f"p{i}": Track(True) for i in range(POINTS)}, t0)
    n = 0
    while True:
        n += 1
        t = t0 + n
        for i in range(POINTS):
            rec.value(f"p{i}", float(n), t, t)
        store.write([rec.take_batch(t)])
        print(n, flush=True)


if __name__ == "__main__":
    main()
