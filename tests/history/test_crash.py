"""A power cut in the middle of writes: the store opens, answers, and lost at most the batch
being written. SIGKILL of a real writer process on a real file (the page cache survives a
SIGKILL, so this proves atomic commits, not fsync; synchronous=FULL is what covers a power cut)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from hermesd.history.query import Reader
from hermesd.history.recorder import Recorder, Track
from hermesd.history.store import Store
from tests.history.crash_writer import POINTS

WRITER = Path(__file__).with_name("crash_writer.py")


def _run_and_kill(path: Path, after: int) -> int:
    """Start the writer, SIGKILL it once it has committed `after` batches (while it writes
    more); the last batch it reported committed."""
    root = Path(__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": f"{root}:{root / 'tools'}"}
    proc = subprocess.Popen([sys.executable, str(WRITER), str(path)], stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    last = 0
    try:
        for line in proc.stdout:
            last = int(line)
            if last >= after:
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    return last


def test_sigkill_mid_write_loses_at_most_the_last_batch(tmp_path: Path) -> None:
    path = tmp_path / "history.db"
    for round_ in range(3):  # killed again and again, on the same file
        reported = _run_and_kill(path, after=20 * (round_ + 1))
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        db.close()
        store = Store(path)
        seen = store.open()
        assert seen is not None
        # every batch reported committed is there; at most the one being written is lost
        # (or it made it: the kill can land after its commit and before the print)
        assert reported <= seen - 1_800_000_000.0 <= reported + 1
        now = seen
        # the next run begins after the crash (its recorder holds no value of p0 yet)
        reader = Reader(store, Recorder({"p0": Track(True)}, now + 0.5), [])
        summary = reader.summary("p0", 1_800_000_000.0, now + 1, now + 1)
        assert summary.rollup.max == seen - 1_800_000_000.0
        samples = store.query("SELECT count(*) FROM points")[0][0]
        assert samples == POINTS
        store.close()
        # the next writer starts anew on the same file (a restart after the power cut)
        time.sleep(0)
