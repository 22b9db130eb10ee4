"""A crash (a power cut, SIGKILL) writes no final batch: the next start rebuilds the minute and
hour it fell in from what was written (hermesd/history/mend.py), on a real store file."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from hermesd.audit import AuditLog
from hermesd.cache import ValueCache
from hermesd.engine import Engine
from hermesd.events import EventTable
from hermesd.history.component import HistoryComponent
from hermesd.history.mend import crash_batch
from hermesd.history.query import Reader
from hermesd.history.recorder import Batch, Recorder, Track
from hermesd.history.series import Rollup
from hermesd.history.store import Store
from hermesd.metrics import Metrics
from hermesd.services import Services
from hermesd.supervisor import Supervisor
from tests.support.daemon import fake_device
from tests.support.plants import config_of

T0 = 1_800_000_000.0 - 1_800_000_000 % 3600  # an hour boundary


def _start(path: Path, now: float) -> tuple[Store, Recorder]:
    """A run begins as HistoryComponent._open begins it: the time hermesd was not running is
    a gap, the final batch a crash did not write is rebuilt, the open hour resumes."""
    rec = Recorder({"temp": Track(True)}, now)
    store, unwritten = _reopen(path, rec, now)
    store.write(unwritten)
    return store, rec


def _reopen(path: Path, rec: Recorder, until: float) -> tuple[Store, list[Batch]]:
    """The store opened for `rec`'s run, hermesd not running until `until`: the batches to
    write first (what a crash left, rebuilt), `rec` resumed from them and the store."""
    store = Store(path)
    seen = store.open()
    unwritten: list[Batch] = []
    if seen is not None:
        store.record_stop(seen, until)
        batch = crash_batch(store, seen)
        if batch is not None:
            unwritten.append(batch)  # the first of the batches to write
    minute, hour = rec.resume_span()
    rec.resume(store.minutes(hour, minute), unwritten)
    return store, unwritten


def _run(path: Path, start: int, end: int, values: dict[int, float | str | None], *,
         clean: bool) -> None:
    """A run from T0 + start to T0 + end: temp's `values` by second (None: its device goes
    offline, "back": it is back), a batch every 10 s and at `end`, where it stops cleanly (a
    final batch) or crashes (nothing more: what it saw after its last batch is lost)."""
    store, rec = _start(path, T0 + start)
    for t in range(start, end + 1):
        if t in values:
            value = values[t]
            if value is None:
                rec.set_gap("temp", "plc1 offline", T0 + t)
            elif value == "back":
                rec.set_gap("temp", None, T0 + t)
            else:
                rec.value("temp", value, T0 + t, T0 + t)
        if t > start and (t % 10 == 0 or t == end):
            store.write([rec.take_batch(T0 + t, final=clean and t == end)])
    if not clean:
        rec.value("temp", 900.0, T0 + end + 1, T0 + end + 1)  # never written
    store.close()


def _hours(store: Store) -> list[Rollup]:
    return list(store.rollups("h1", "temp", [int(T0) + h * 3600 for h in range(4)]).values())


@pytest.mark.parametrize(("crash", "restart", "asked"), [
    (100, 105, 106),  # restarted in the minute of the crash, asked at once
    (100, 105, 200),  # ... asked once that minute has closed
    (118, 121, 122),  # restarted in the next minute
    (62, 65, 200),  # no sample in the minute of the crash: the value held then
    (100, 300, 3700),  # restarted in the same hour, asked once it has closed
    (3590, 3605, 3606),  # restarted in the next hour
    (1000, 3 * 3600 + 5, 3 * 3600 + 6),  # restarted hours later
])
def test_a_crash_keeps_the_minute_and_hour_it_fell_in(
        tmp_path: Path, crash: int, restart: int, asked: int) -> None:
    """A power cut writes no final batch: the minute it fell in had samples but no m1 row, its
    hour no h1 row, and once they closed the values recorded in them were in no answer."""
    path = tmp_path / "h.db"
    _run(path, 30, crash, {30: 500.0, crash - 5: 540.0}, clean=False)
    store, rec = _start(path, T0 + restart)
    rec.value("temp", 500.0, T0 + restart, T0 + restart)
    for t in range(restart + 10, asked, 10):
        store.write([rec.take_batch(T0 + t)])
    got = Reader(store, rec, []).summary("temp", T0, T0 + 4 * 3600, T0 + asked)
    good = (crash - 30) + (asked - restart)
    integral = 500.0 * (crash - 35) + 540.0 * 5 + 500.0 * (asked - restart)
    assert (got.rollup.min, got.rollup.max) == (500.0, 540.0)
    assert got.rollup.good == pytest.approx(good)
    assert got.rollup.mean == pytest.approx(integral / good)
    assert (T0 + crash, T0 + restart, "hermesd was not running") in got.gaps
    # the minute of the crash alone, as far as it went
    minute = T0 + crash // 60 * 60
    alone = Reader(store, rec, []).summary("temp", minute, minute + 60, T0 + asked)
    assert alone.rollup.max == 540.0
    assert alone.rollup.good == pytest.approx(crash - max(minute - T0, 30) +
                                              max(0, min(asked, crash // 60 * 60 + 60) - restart))
    # the rows, once this run writes the minute and hour it began in: nothing counted twice
    end = (restart // 3600 + 1) * 3600
    store.write([rec.take_batch(T0 + end)])
    hours = _hours(store)
    assert max(h.max for h in hours if h.max is not None) == 540.0
    assert sum(h.good for h in hours) == pytest.approx(good + end - asked)
    store.close()


@pytest.mark.parametrize("first_clean", [False, True])
@pytest.mark.parametrize("third", [200, 3700])
def test_a_run_that_began_in_the_minute_of_a_stop_and_crashed_in_it(
        tmp_path: Path, first_clean: bool, third: int) -> None:
    """A stops (cleanly or not) at 100, B begins at 105 (knowing no value until 107) and
    crashes at 112, a run is killed before its first batch, C begins at `third`: the minute
    holds A's part and B's, each once."""
    path = tmp_path / "h.db"
    _run(path, 30, 100, {30: 500.0, 95: 540.0}, clean=first_clean)
    _run(path, 105, 112, {107: 520.0}, clean=False)
    _start(path, T0 + 150)[0].close()  # killed before its first batch
    store, rec = _start(path, T0 + third)
    rec.value("temp", 500.0, T0 + third, T0 + third)
    asked = third + 1
    got = Reader(store, rec, []).summary("temp", T0, T0 + 7200, T0 + asked)
    good = 70 + 5 + 1
    integral = 500.0 * 65 + 540.0 * 5 + 520.0 * 5 + 500.0 * 1
    assert (got.rollup.min, got.rollup.max) == (500.0, 540.0)
    assert got.rollup.good == pytest.approx(good)
    assert got.rollup.mean == pytest.approx(integral / good)
    store.write([rec.take_batch(T0 + 7200)])
    assert sum(h.good for h in _hours(store)) == pytest.approx(good + 7200 - asked)
    store.close()


@pytest.mark.parametrize("known", [57, 70])
def test_a_run_that_began_the_minute_before_its_crash_held_only_what_it_saw(
        tmp_path: Path, known: int) -> None:
    """B begins at 55 and first sees a value at `known`: the minute of its crash (60..80)
    holds that value from then, not the last value A recorded before B began."""
    path = tmp_path / "h.db"
    _run(path, 30, 50, {30: 500.0}, clean=False)
    _run(path, 55, 80, {known: 520.0}, clean=False)
    store, rec = _start(path, T0 + 3700)
    got = Reader(store, rec, []).summary("temp", T0, T0 + 3600, T0 + 3700)
    assert (got.rollup.min, got.rollup.max) == (500.0, 520.0)
    assert got.rollup.good == pytest.approx(20 + 80 - known)
    assert got.rollup.integral == pytest.approx(500.0 * 20 + 520.0 * (80 - known))
    store.close()


def test_a_crash_in_a_gap_counts_the_time_before_it_only(tmp_path: Path) -> None:
    """The gap the crash left open ends where the record ends; the minute's good time is
    that before the gap."""
    path = tmp_path / "h.db"
    _run(path, 30, 100, {30: 500.0, 75: 540.0, 80: None}, clean=False)
    store, rec = _start(path, T0 + 3700)
    got = Reader(store, rec, []).summary("temp", T0, T0 + 3600, T0 + 3700)
    assert (got.rollup.max, got.rollup.good) == (540.0, 50.0)
    assert got.rollup.integral == pytest.approx(500.0 * 45 + 540.0 * 5)
    assert got.gaps == [(T0 + 80, T0 + 3600, "plc1 offline")]  # the stop's gap joined to it
    minute = Reader(store, rec, []).summary("temp", T0 + 60, T0 + 120, T0 + 3700)
    assert (minute.rollup.first, minute.rollup.good) == (500.0, 20.0)
    store.close()


def test_a_crash_just_before_an_hours_end_keeps_that_hour_when_a_value_comes_first(
        tmp_path: Path) -> None:
    """Restarted seconds before the hour's end, with a value after it before the store is
    read (the cache feeds the recorder from the start): the rebuilt hour is not replaced by
    this run's few seconds."""
    path = tmp_path / "h.db"
    _run(path, 30, 3590, {30: 500.0, 3585: 540.0}, clean=False)
    rec = Recorder({"temp": Track(True)}, T0 + 3595)
    rec.value("temp", 500.0, T0 + 3596, T0 + 3596)
    rec.value("temp", 501.0, T0 + 3601, T0 + 3601)  # the hour T0 closes in the recorder
    store, unwritten = _reopen(path, rec, T0 + 3603)
    assert len(unwritten) == 1  # the crash's minute and hour, rebuilt
    store.write([*unwritten, rec.take_batch(T0 + 3610)])
    whole = store.rollups("h1", "temp", [int(T0)])[int(T0)]
    assert whole.max == 540.0
    assert whole.good == pytest.approx((3590 - 30) + (3600 - 3596))
    last = store.rollups("m1", "temp", [int(T0) + 3540])[int(T0) + 3540]
    assert last.max == 540.0
    assert last.good == pytest.approx(50 + 4)
    store.close()


def _forget_stops(path: Path, value: float | None) -> None:
    """The store as a hermesd that does not mark its clean stops leaves it: no 'stopped'
    (None), or one from before that hermesd ran."""
    db = sqlite3.connect(path)
    try:
        if value is None:
            db.execute("DELETE FROM meta WHERE key = 'stopped'")
        else:
            db.execute("UPDATE meta SET value = ? WHERE key = 'stopped'", (value,))
        db.commit()
    finally:
        db.close()


@pytest.mark.parametrize("stopped", [None, 0.0])
def test_a_clean_stop_of_a_hermesd_that_did_not_mark_it_is_not_counted_twice(
        tmp_path: Path, stopped: float | None) -> None:
    """A stops at 100, B begins at 105 in that minute and stops cleanly at 112, both by a
    hermesd that wrote final batches but no 'stopped' mark (an upgrade; or a downgrade and
    back, which leaves an old mark). B's minute row is whole: rebuilding it as a crash would
    add B's part again."""
    path = tmp_path / "h.db"
    _run(path, 30, 100, {30: 500.0, 95: 540.0}, clean=True)
    _run(path, 105, 112, {107: 520.0}, clean=True)
    _forget_stops(path, stopped)
    store, rec = _start(path, T0 + 3700)
    got = Reader(store, rec, []).summary("temp", T0, T0 + 3600, T0 + 3700)
    assert got.rollup.good == pytest.approx(70 + 5)
    assert got.rollup.integral == pytest.approx(500.0 * 65 + 540.0 * 5 + 520.0 * 5)
    assert got.rollup.changes == 3
    store.close()


def test_a_point_removed_by_a_reload_in_a_run_that_crashed_is_counted_once(
        tmp_path: Path) -> None:
    """B begins in the minute A stopped in, a reload removes x (its row of the minute is
    written then, B's part in it), and B crashes before the minute ends."""
    path = tmp_path / "h.db"
    store = Store(path)
    store.open()
    rec = Recorder({"temp": Track(True), "x": Track(True)}, T0 + 30)
    rec.value("x", 10.0, T0 + 30, T0 + 30)
    for t in range(40, 100, 10):
        store.write([rec.take_batch(T0 + t)])
    store.write([rec.take_batch(T0 + 100, final=True)])
    store.close()
    store = Store(path)
    seen = store.open()
    assert seen is not None
    store.record_stop(seen, T0 + 102)
    rec = Recorder({"temp": Track(True), "x": Track(True)}, T0 + 102)
    minute, hour = rec.resume_span()
    rec.resume(store.minutes(hour, minute))
    rec.value("x", 20.0, T0 + 103, T0 + 103)
    rec.retrack({"temp": Track(True)}, T0 + 105)  # x removed
    store.write([rec.take_batch(T0 + 110)])
    store.close()  # B crashes here
    store, rec = _start(path, T0 + 3700)
    rows = store.rollups("m1", "x", [int(T0) + 60])
    x = rows[int(T0) + 60]
    assert x.good == pytest.approx(40 + 2)  # A's 60..100, B's 103..105
    assert x.integral == pytest.approx(10.0 * 40 + 20.0 * 2)
    hour_row = store.rollups("h1", "x", [int(T0)])[int(T0)]
    assert hour_row.good == pytest.approx(70 + 2)
    store.close()


def test_what_a_crash_left_is_read_before_the_store_takes_it(tmp_path: Path) -> None:
    """The rebuilt batch is the first of those not yet written: while the store refuses it
    (a full disk), a question is answered from it, and it lands with the next batch."""
    path = tmp_path / "h.db"
    _run(path, 30, 100, {30: 500.0, 95: 540.0}, clean=False)
    rec = Recorder({"temp": Track(True)}, T0 + 3700)
    store, unwritten = _reopen(path, rec, T0 + 3700)
    assert len(unwritten) == 1  # the crash's minute and hour, rebuilt
    seen = unwritten[0].taken
    got = Reader(store, rec, unwritten).summary("temp", T0, T0 + 3600, T0 + 3710)
    assert got.rollup.max == 540.0
    assert got.rollup.good == pytest.approx(70)
    unwritten.append(rec.take_batch(T0 + 3710))
    store.write(unwritten)
    assert store.stopped() == seen  # not rebuilt again at the next start
    assert store.rollups("h1", "temp", [int(T0)])[int(T0)].max == 540.0
    store.close()


def test_a_crash_then_a_clock_behind_it_keeps_the_rebuilt_rows(tmp_path: Path) -> None:
    """After a power cut a board with no clock of its own may start with a time before the
    last batch (restored from a file, no time server on a plant network): the rebuilt batch
    is still what the crash left, never a batch of this run's."""
    path = tmp_path / "h.db"
    _run(path, 30, 100, {30: 500.0, 95: 540.0}, clean=False)
    store, rec = _start(path, T0 + 97)  # 3 s before the last batch
    rec.value("temp", 520.0, T0 + 97, T0 + 97)
    store.write([rec.take_batch(T0 + 3600)])
    whole = store.rollups("h1", "temp", [int(T0)])[int(T0)]
    assert whole.max == 540.0
    assert whole.good == pytest.approx(70 + 3503)  # the 3 s both runs claim, twice
    store.close()


def test_a_sample_where_a_gap_ends_is_no_change(tmp_path: Path) -> None:
    """The recorder stores the held value again where a point's gap ends and never counts it
    as a change: a minute rebuilt after a crash does not either (a clean stop's row and the
    rebuilt one agree, and "when did it last change" is not when the device came back)."""
    rows = []
    for clean in (True, False):
        path = tmp_path / f"{clean}.db"
        _run(path, 30, 90, {30: 500.0, 65: None, 80: "back"}, clean=clean)
        store, _ = _start(path, T0 + 3700)
        rows.append(store.rollups("m1", "temp", [int(T0) + 60])[int(T0) + 60])
        store.close()
    stopped, rebuilt = rows
    assert (rebuilt.good, rebuilt.changes, rebuilt.last_change) == \
        (stopped.good, stopped.changes, stopped.last_change)
    assert rebuilt.changes == 0


def test_a_damaged_block_of_samples_is_skipped(tmp_path: Path) -> None:
    """A block of samples the disk damaged (SQLite keeps no checksum of a blob's bytes) is
    skipped with a warning; the rebuild, and the daemon, go on."""
    path = tmp_path / "h.db"
    _run(path, 30, 100, {30: 500.0, 95: 540.0}, clean=False)
    db = sqlite3.connect(path)
    try:
        db.execute("UPDATE raw SET data = x'789c0102030405' WHERE minute = ?", (int(T0) + 60,))
        db.commit()
    finally:
        db.close()
    store, _ = _start(path, T0 + 3700)
    assert store.samples("temp", int(T0) + 60) == []
    assert store.rollups("h1", "temp", [int(T0)])[int(T0)].max == 500.0
    store.close()


async def test_a_stop_while_the_store_opens_lets_the_opening_finish(tmp_path: Path) -> None:
    """SIGTERM as hermesd starts, while the store is being opened: the opening (what the crash
    left rebuilt, the hour resumed) ends before the last batch is written. Cut short, the
    last batch wrote this run's seconds over the crash's hour and marked the crash mended."""
    now = time.time()
    a_start, a_seen = now - 60, now - 2
    store = Store(tmp_path / "history.db")
    store.open()
    rec = Recorder({"temp": Track(True)}, a_start)
    rec.value("temp", 540.0, a_start, a_start)
    store.write([rec.take_batch(a_seen)])  # a crash after this batch
    store.close()
    config = config_of({
        "node": {"id": "n"},
        "paths": {"state_dir": str(tmp_path), "runtime_dir": str(tmp_path / "run")},
        "history": {"enabled": True, "flush": "5s"},
        "devices": {"plc": fake_device({"temp": {"type": "float",
                                                 "params": {"value": 500.0}}})}})
    metrics = Metrics()
    events = EventTable(metrics)
    supervisor = Supervisor(tmp_path / "run", events.dispatch)
    cache = ValueCache(tmp_path / "lkv.json", {}, {})
    engine = Engine(config, supervisor, cache, AuditLog(tmp_path / "audit.jsonl"), metrics)
    history = HistoryComponent(Services(config, engine, cache, supervisor, metrics, events))
    task = asyncio.create_task(history.run())
    await asyncio.sleep(0)  # the opening has begun
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    store = Store(tmp_path / "history.db")
    store.open()
    hour = int(a_seen // 3600 * 3600)
    row = store.rollups("h1", "temp", [hour])[hour]
    assert row.max == 540.0
    assert row.good >= a_seen - max(a_start, hour) - 1e-6
    store.close()


def test_a_gap_that_begins_as_hermesd_stops_hides_neither(tmp_path: Path) -> None:
    """temp's device goes offline at the last batch before a power cut, the instant the time
    hermesd was not running begins: both are gaps of the answer, and the value before is not
    held as good across them (review h55, finding 9: the reader kept one gap per start)."""
    path = tmp_path / "history.db"
    _run(path, 30, 100, {30: 500.0, 100: None}, clean=False)
    rec = Recorder({"temp": Track(True)}, T0 + 110)
    store, unwritten = _reopen(path, rec, T0 + 110)
    rec.value("temp", 500.0, T0 + 110, T0 + 110)
    got = Reader(store, rec.view("temp", T0 + 115), unwritten).summary(
        "temp", T0 + 60, T0 + 120, T0 + 115)
    store.close()
    assert got.rollup.good == pytest.approx(40.0 + 5.0)


@pytest.mark.parametrize(("first", "then"), [(500.0, 600.0), (600.0, 500.0), (10.5, 3.25)])
def test_of_two_values_at_one_time_the_later_holds_in_a_partial_minute(
        tmp_path: Path, first: float, then: float) -> None:
    """A device that stamps in whole seconds sends two values at one time: the later is the
    value held, in a part of a minute as in its row (review h55, finding 10)."""
    rec = Recorder({"x": Track(True)}, T0 + 30)
    store, unwritten = _reopen(tmp_path / "history.db", rec, T0 + 30)
    rec.value("x", first, T0 + 65, T0 + 65)
    rec.value("x", then, T0 + 65, T0 + 65)
    store.write([*unwritten, rec.take_batch(T0 + 130)])
    got = Reader(store, rec.view("x", T0 + 131), []).summary("x", T0 + 90, T0 + 100, T0 + 131)
    store.close()
    assert got.rollup.mean == then


def test_a_device_offline_across_a_restart_is_no_good_value_until_it_gives_one(
        tmp_path: Path) -> None:
    """temp's device goes offline at 80, a power cut at 100, hermesd is back at 105 with the
    device still away: until its first value, the value it held before is not counted good,
    as the minute's row does not count it (review h55, finding 7)."""
    path = tmp_path / "history.db"
    _run(path, 30, 100, {30: 500.0, 80: None}, clean=False)
    rec = Recorder({"temp": Track(True)}, T0 + 105)
    store, unwritten = _reopen(path, rec, T0 + 105)
    now = T0 + 115
    got = Reader(store, rec.view("temp", now), unwritten).summary("temp", T0 + 60, T0 + 120, now)
    _, good = Reader(store, rec.view("temp", now), unwritten).value_at("temp", T0 + 110, now)
    assert (got.rollup.good, good) == (20.0, False)
    store.write([*unwritten, rec.take_batch(T0 + 200)])
    assert store.rollups("m1", "temp", [int(T0) + 60])[int(T0) + 60].good == 20.0
    later = Reader(store, rec.view("temp", T0 + 201), []).summary("temp", T0 + 90, T0 + 120,
                                                                  T0 + 201)
    rec.value("temp", 510.0, T0 + 230, T0 + 230)  # back: good from its first value on
    back = Reader(store, rec.view("temp", T0 + 240), []).summary("temp", T0 + 225, T0 + 240,
                                                                 T0 + 240)
    store.close()
    assert later.rollup.good == 0.0
    assert back.rollup.good == 10.0


def test_of_three_values_at_one_time_the_last_holds_though_it_came_before(
        tmp_path: Path) -> None:
    """a, b, a at one time (a device's clock stepped back: the recorder clamps them to one
    time): a holds, as in the minute's row; each sample counts once though a batch being
    written is in the store and among the unwritten alike (review atk64h)."""
    rec = Recorder({"x": Track(True)}, T0 + 30)
    store, unwritten = _reopen(tmp_path / "history.db", rec, T0 + 30)
    for value in (1.0, 2.0, 1.0):
        rec.value("x", value, T0 + 65, T0 + 65)
    batch = rec.take_batch(T0 + 130)
    store.write([*unwritten, batch])
    got = Reader(store, rec.view("x", T0 + 131), [batch]).summary("x", T0 + 90, T0 + 100,
                                                                  T0 + 131)
    row = store.rollups("m1", "x", [int(T0) + 60])[int(T0) + 60]
    store.close()
    assert got.rollup.mean == row.last == 1.0


def test_a_value_repeated_at_one_time_across_two_unwritten_batches_counts_twice(
        tmp_path: Path) -> None:
    """a in one batch, then b and a again at the same (clamped) time in the next, neither
    written yet (the store refuses): a holds (review atk64f)."""
    rec = Recorder({"x": Track(True)}, T0 + 30)
    store, unwritten = _reopen(tmp_path / "history.db", rec, T0 + 30)
    rec.value("x", 1.0, T0 + 65, T0 + 65)
    first = rec.take_batch(T0 + 66)
    rec.value("x", 2.0, T0 + 65, T0 + 66)
    rec.value("x", 1.0, T0 + 65, T0 + 66)
    later = rec.take_batch(T0 + 130)
    value, good = Reader(store, rec.view("x", T0 + 131), [*unwritten, first, later]).value_at(
        "x", T0 + 100, T0 + 131)
    store.close()
    assert (value, good) == (1.0, True)
