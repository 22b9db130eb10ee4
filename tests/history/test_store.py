"""The history store on a real file: a known simulated series in, exact answers out."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermesd.config.model import Deadband
from hermesd.history.query import Reader
from hermesd.history.recorder import Recorder, Track
from hermesd.history.store import Store, StoreError

T0 = 1_800_000_000.0 - 1_800_000_000 % 3600  # an hour boundary


def _record(store: Store, seconds: int, *, flush_every: int = 60,
            start: float = T0) -> Recorder:
    """temp: i % 100 every second; pump on for the second hour; temp offline 5000..5300 s."""
    rec = Recorder({"temp": Track(True), "pump": Track(True), "name": Track(False)}, start)
    for i in range(seconds):
        t = start + i
        rec.value("temp", float(i % 100), t, t)
        if i == 3600:
            rec.value("pump", True, t, t)
        if i == 7200:
            rec.value("pump", False, t, t)
        if i == 10:
            rec.value("name", "batch-7", t, t)
        if i == 5000:
            rec.set_gap("temp", "plc1 offline", t, t)
        if i == 5300:
            rec.set_gap("temp", None, t, t)
        if i % flush_every == flush_every - 1:
            store.write([rec.take_batch(t)])
    return rec


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "history.db")
    assert s.open() is None  # a new store
    yield s
    s.close()


def test_a_known_series_answers_exactly(store: Store) -> None:
    rec = _record(store, 3 * 3600)
    now = T0 + 3 * 3600 - 1
    reader = Reader(store, rec, [])
    whole = reader.summary("temp", T0, now, now)
    assert (whole.rollup.min, whole.rollup.max) == (0.0, 99.0)
    assert whole.rollup.good == pytest.approx(3 * 3600 - 1 - 300)
    assert whole.gaps == [(T0 + 5000, T0 + 5300, "plc1 offline")]
    assert whole.coverage == pytest.approx((3 * 3600 - 1 - 300) / (3 * 3600 - 1))
    # a period that starts and ends inside minutes: rebuilt from the samples there
    part = reader.summary("temp", T0 + 10.5, T0 + 100.25, now)
    assert (part.rollup.min, part.rollup.max) == (0.0, 99.0)
    assert part.rollup.good == pytest.approx(89.75)
    expected = (10 * 0.5 + sum(range(11, 100)) + 0 * 0.25) / 89.75
    assert part.rollup.mean == pytest.approx(expected)
    pump = reader.summary("pump", T0, now, now)
    assert pump.rollup.integral == pytest.approx(3600.0)  # on for the second hour
    assert pump.rollup.last_change == T0 + 7200
    assert reader.last_change_to("pump", False, T0, now, now) == T0 + 7200
    assert reader.last_change_to("pump", True, T0, now, now) == T0 + 3600
    assert reader.last_change_to("pump", True, T0 + 3601, now, now) is None
    assert reader.value_at("temp", T0 + 777.5, now) == (77.0, True)
    assert reader.value_at("temp", T0 + 5123, now) == (23.0, False)  # in the gap: not good
    assert reader.value_at("name", T0 + 9000, now) == ("batch-7", True)


def test_the_last_seconds_come_from_memory(store: Store) -> None:
    rec = _record(store, 3600 + 90, flush_every=10_000)  # nothing written since the start
    now = T0 + 3600 + 89
    reader = Reader(store, rec.view("temp", now), [])
    last_minute = reader.summary("temp", now - 30, now, now)
    assert last_minute.rollup.max == 89.0  # i % 100 for i = 3659..3689 (now: the last value)
    assert reader.summary("temp", T0, now, now).rollup.good == pytest.approx(3600 + 89)


def test_a_month_is_read_from_hour_rows(store: Store) -> None:
    start = T0 - 30 * 86400
    rec = Recorder({"temp": Track(True)}, start)
    for h in range(30 * 24):  # one value an hour for 30 days, written hourly
        t = start + h * 3600
        rec.value("temp", float(h % 24), t, t)
        store.write([rec.take_batch(t + 1)])
    now = start + 30 * 86400
    reader = Reader(store, rec.view("temp", now), [])
    month = reader.summary("temp", start, now, now)
    assert month.rollup.mean == pytest.approx(11.5)
    assert (month.rollup.min, month.rollup.max) == (0.0, 23.0)
    assert month.rollup.changes == 30 * 24


def test_deadband_thins_samples_but_not_the_max(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.db")
    store.open()
    rec = Recorder({"t": Track(True, deadband=Deadband(0.5))}, T0 - 0.5)  # saw all of minute T0
    values = [20.0, 20.1, 20.2, 20.3, 20.9, 21.0, 25.0, 25.4]
    for i, v in enumerate(values):
        rec.value("t", v, T0 + i, T0 + i)
    store.write([rec.take_batch(T0 + 59)])
    stored = store.samples("t", int(T0))
    assert [v for _, v in stored] == [20.0, 20.9, 25.0]  # moved more than 0.5 from the last
    now = T0 + 59
    assert Reader(store, rec.view("t", now), []).summary("t", T0, now, now).rollup.max == 25.4
    store.close()


def test_a_restart_is_a_gap_of_every_point(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    store = Store(path)
    store.open()
    rec = _record(store, 600)
    store.close()
    again = Store(path)
    seen = again.open()
    assert seen == T0 + 599  # the last batch's time
    again.record_stop(seen, T0 + 900)
    reader = Reader(again, Recorder({"temp": Track(True)}, T0 + 900), [])
    summary = reader.summary("temp", T0, T0 + 900, T0 + 900)
    assert summary.gaps == [(T0 + 599, T0 + 900, "hermesd was not running")]
    assert summary.rollup.max == 99.0
    del rec
    again.close()


@pytest.mark.parametrize(("stop", "restart", "asked"), [
    (100, 105, 106),  # restarted in the minute of the stop, asked at once
    (100, 105, 200),  # ... asked once that minute has closed
    (118, 121, 122),  # restarted in the next minute (a loaded machine)
    (100, 300, 3700),  # restarted in the same hour, asked once it has closed
    (3590, 3605, 3606),  # restarted in the next hour
])
def test_a_stop_and_restart_keep_the_minute_and_hour_of_the_stop(
        tmp_path: Path, stop: int, restart: int, asked: int) -> None:
    """As HistoryComponent does it: the last batch at a stop is `final`, and the next run
    resumes the open hour from the store. The stop's minute and hour were in no rollup (only
    their samples were written), so once a restart was past that minute the values before the
    stop were not answered."""
    path = tmp_path / "h.db"
    store = Store(path)
    store.open()
    rec = Recorder({"temp": Track(True)}, T0 + 30)
    rec.value("temp", 500.0, T0 + 30, T0 + 30)
    for t in range(40, stop, 10):
        store.write([rec.take_batch(T0 + t)])
    rec.value("temp", 540.0, T0 + stop - 5, T0 + stop - 5)
    store.write([rec.take_batch(T0 + stop, final=True)])
    store.close()
    store = Store(path)
    seen = store.open()
    assert seen == T0 + stop
    store.record_stop(seen, T0 + restart)
    rec = Recorder({"temp": Track(True)}, T0 + restart)
    minute, hour = rec.resume_span()
    rec.resume(store.minutes(hour, minute))
    rec.value("temp", 500.0, T0 + restart, T0 + restart)
    for t in range(restart + 10, asked, 10):
        store.write([rec.take_batch(T0 + t)])
    now = T0 + asked
    got = Reader(store, rec, []).summary("temp", T0, T0 + 7200, now)
    good = (stop - 30) + (asked - restart)
    integral = 500.0 * (stop - 35) + 540.0 * 5 + 500.0 * (asked - restart)
    assert got.rollup.max == 540.0
    assert got.rollup.good == pytest.approx(good)
    assert got.rollup.mean == pytest.approx(integral / good)
    assert (T0 + stop, T0 + restart, "hermesd was not running") in got.gaps
    # what the rows say once this run too writes the minute and the hour it began in
    store.write([rec.take_batch(T0 + 7200)])
    hours = store.rollups("h1", "temp", [int(T0), int(T0) + 3600])
    assert max(h.max for h in hours.values() if h.max is not None) == 540.0
    assert sum(h.good for h in hours.values()) == pytest.approx(good + 7200 - asked)
    store.close()


@pytest.mark.parametrize("unwritten", [False, True])
def test_an_hour_that_ends_before_the_store_is_read_keeps_the_earlier_runs_part(
        tmp_path: Path, unwritten: bool) -> None:
    """A restart seconds before an hour's end: a value after the end closes the hour in the
    recorder before the store has been read back (HistoryComponent opens it after the cache
    already feeds the recorder). The hour's row this run writes must still hold what the
    earlier run recorded, not replace it with this run's few seconds. `unwritten`: the store
    could not be opened at first, so the closed hour was already taken in a batch."""
    path = tmp_path / "h.db"
    store = Store(path)
    store.open()
    rec = Recorder({"temp": Track(True)}, T0 + 30)
    rec.value("temp", 500.0, T0 + 30, T0 + 30)
    for t in range(40, 3590, 10):
        store.write([rec.take_batch(T0 + t)])
    rec.value("temp", 540.0, T0 + 3585, T0 + 3585)
    store.write([rec.take_batch(T0 + 3590, final=True)])
    store.close()
    rec = Recorder({"temp": Track(True)}, T0 + 3595)  # built; the cache feeds it at once
    rec.value("temp", 500.0, T0 + 3596, T0 + 3596)
    rec.value("temp", 501.0, T0 + 3601, T0 + 3601)  # the hour T0 closes here
    taken = [rec.take_batch(T0 + 3605)] if unwritten else []
    store = Store(path)
    seen = store.open()
    assert seen == T0 + 3590
    store.record_stop(seen, T0 + 3603)
    minute, hour = rec.resume_span()
    assert (minute, hour) == (int(T0) + 3540, int(T0))
    rec.resume(store.minutes(hour, minute), taken)
    store.write([*taken, rec.take_batch(T0 + 3610)])
    rows = store.rollups("h1", "temp", [int(T0)])
    whole = rows[int(T0)]
    assert whole.max == 540.0
    assert whole.good == pytest.approx((3590 - 30) + (3600 - 3596))
    assert whole.integral == pytest.approx(500.0 * (3585 - 30) + 540.0 * 5 + 500.0 * 4)
    last = store.rollups("m1", "temp", [int(T0) + 3540])[int(T0) + 3540]
    assert last.max == 540.0
    assert last.good == pytest.approx(50 + 4)
    got = Reader(store, rec, []).summary("temp", T0, T0 + 3600, T0 + 3610)
    assert got.rollup.max == 540.0
    assert got.rollup.good == pytest.approx(3564)
    store.close()


def test_retention_by_age_and_by_size(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.db")
    store.open()
    rec = Recorder({f"p{i}": Track(True) for i in range(50)}, T0)
    for s in range(2 * 3600):
        t = T0 + s
        for i in range(50):
            rec.value(f"p{i}", float((s + i) % 97), t, t)
        if s % 60 == 59:
            store.write([rec.take_batch(t)])
    store.write([rec.take_batch(T0 + 2 * 3600)])  # the second hour closes
    before = store.size()
    assert store.retain(T0 + 2 * 3600, keep=3600, max_size=1 << 40) > 0
    assert store.query("SELECT min(minute) FROM m1")[0][0] >= T0 + 3600
    assert store.query("SELECT min(hour) FROM h1")[0][0] >= T0 + 3600
    budget = before // 4
    store.retain(T0 + 2 * 3600, keep=86400, max_size=budget)
    assert store.size() <= budget
    assert store.query("SELECT count(*) FROM h1")[0][0] > 0  # the hours go last
    store.close()
    assert sqlite3.connect(tmp_path / "h.db").execute("PRAGMA integrity_check").fetchone() == \
        ("ok",)


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError):
        Store(path).open()
    link = tmp_path / "link.db"
    link.symlink_to(tmp_path / "elsewhere.db")
    with pytest.raises(StoreError, match="symbolic link"):
        Store(link).open()
    assert not (tmp_path / "elsewhere.db").exists()


def test_a_quiet_point_holds_its_value_past_the_recorders_last_minute(store: Store) -> None:
    rec = Recorder({"level": Track(True)}, T0 - 0.5)
    rec.value("level", 71.5, T0 + 5, T0 + 5)
    store.write([rec.take_batch(T0 + 10)])
    now = T0 + 600  # nothing since: the recorder's open minute is still the first one
    reader = Reader(store, rec.view("level", now), [])
    last = reader.summary("level", now - 300, now, now)
    assert (last.rollup.min, last.rollup.max, last.rollup.good) == (71.5, 71.5, 300.0)
    assert reader.value_at("level", now - 1, now) == (71.5, True)
