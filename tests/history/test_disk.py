"""A full and a read-only state disk under the history store (a tmpfs of its own, as the soak
mounts: needs root): writes fail loudly and change nothing, the store keeps answering, and
the batches kept meanwhile are written once the disk takes them again."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermesd.history.query import Reader
from hermesd.history.recorder import Batch, Recorder, Track
from hermesd.history.store import Store, StoreError
from tests.support.soak.disk import StateDisk

T0 = 1_800_000_000.0 - 1_800_000_000 % 3600
POINTS = [f"p{i}" for i in range(100)]

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[StateDisk]:
    d = StateDisk(tmp_path / "state", 4)
    why = d.mount()
    assert why is None, why
    yield d
    d.unmount()


def _minutes(rec: Recorder, start: float, minutes: int) -> list[Batch]:
    batches = []
    for m in range(minutes):
        for s in range(60):
            t = start + m * 60 + s
            for i, p in enumerate(POINTS):
                rec.value(p, float((s + i) % 50), t, t)
        batches.append(rec.take_batch(start + m * 60 + 59))
    return batches


def test_full_disk_then_space_again(disk: StateDisk) -> None:
    store = Store(disk.path / "history.db")
    store.open()
    rec = Recorder({p: Track(True) for p in POINTS}, T0 - 0.5)
    store.write(_minutes(rec, T0, 2))
    disk.fill()
    kept: list[Batch] = []
    refusals: list[str] = []
    for batch in _minutes(rec, T0 + 120, 10):
        kept.append(batch)
        try:
            store.write(kept)
        except StoreError as exc:
            refusals.append(str(exc))
        else:
            kept.clear()
    assert refusals  # the disk was full for it, and said so
    assert all("full" in said for said in refusals), refusals
    now = T0 + 12 * 60
    reader = Reader(store, rec.view("p0", now), kept)
    assert reader.summary("p0", T0, now, now).rollup.max == 49.0  # it answers meanwhile
    disk.unfill()
    store.write(kept)
    store.close()
    db = sqlite3.connect(disk.path / "history.db")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    minutes = db.execute("SELECT count(DISTINCT minute) FROM m1").fetchone()[0]
    db.close()
    assert minutes == 11  # every closed minute, none lost to the full disk


def test_a_read_only_state_disk_is_refused_at_open_and_changes_nothing(
        disk: StateDisk) -> None:
    path = disk.path / "history.db"
    store = Store(path)
    store.open()
    rec = Recorder({p: Track(True) for p in POINTS}, T0 - 0.5)
    store.write(_minutes(rec, T0, 2))
    store.close()
    before = {f.name: f.read_bytes() for f in disk.path.iterdir()}
    disk.read_only()
    try:
        with pytest.raises(StoreError, match=r"(?i)read-only"):
            Store(path).open()
        assert {f.name: f.read_bytes() for f in disk.path.iterdir()} == before
    finally:
        disk.writable()
    again = Store(path)
    assert again.open() == T0 + 119
    now = T0 + 120
    reader = Reader(again, Recorder({"p5": Track(True)}, now), [])
    assert reader.summary("p5", T0, now, now).rollup.max == 49.0
    again.close()
