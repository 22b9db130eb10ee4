"""A point a reload adds back (taken out for maintenance, then returned; or absent from the
config this hermesd started with) may have rows of the hour already. The rows written when its
minute and hour close begin with them, as HistoryComponent.reconfigure reads them: the row of
its seconds since it came back replaced them (review h55, finding 6). On a real store file."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hermesd.audit import AuditLog
from hermesd.cache import Reading, ValueCache
from hermesd.config.model import Config
from hermesd.engine import Engine
from hermesd.events import EventTable
from hermesd.history.component import HistoryComponent
from hermesd.history.mend import crash_batch
from hermesd.history.query import Reader
from hermesd.history.recorder import Batch, Recorder, Track
from hermesd.history.series import NO_VALUE_YET, REMOVED
from hermesd.history.store import Store
from hermesd.metrics import Metrics
from hermesd.services import Services
from hermesd.supervisor import Supervisor
from tests.support.daemon import fake_device
from tests.support.plants import config_of

T0 = 1_800_000_000.0 - 1_800_000_000 % 3600  # an hour boundary
X = {"x": Track(True)}


def _open(path: Path, rec: Recorder) -> Store:
    """The store opened for a run (as `HistoryComponent._open`: the time hermesd was not
    running recorded, the open hour resumed)."""
    store = Store(path)
    seen = store.open()
    if seen is not None:
        store.record_stop(seen, rec.started)
    minute, hour = rec.resume_span()
    rec.resume(store.minutes(hour, minute))
    return store


def _reload(store: Store, rec: Recorder, tracks: dict[str, Track], now: float,
            unwritten: list[Batch]) -> None:
    """A reload, as `HistoryComponent.reconfigure` does it."""
    added = [pid for pid in tracks if pid not in rec.points()]
    rows = store.minutes_of(added, int(now // 3600 * 3600), int(now // 60 * 60))
    rec.retrack(tracks, now, rows, unwritten)


def _run(path: Path, start: int, end: int, tracks: dict[str, Track],
         events: dict[int, float | dict[str, Track]], *, every: int = 10) -> None:
    """A run from T0 + start to a clean stop at T0 + end: at a second of `events` x takes a
    value, or a reload sets the points recorded; a batch every `every` s (0: none until the
    stop)."""
    rec = Recorder(tracks, T0 + start)
    store = _open(path, rec)
    unwritten: list[Batch] = []
    for t in range(start, end + 1):
        event = events.get(t)
        if isinstance(event, dict):
            _reload(store, rec, event, T0 + t, unwritten)
        elif event is not None:
            rec.value("x", event, T0 + t, T0 + t)
        if every and t > start and t % every == 0:
            unwritten.append(rec.take_batch(T0 + t))
            if t % (every * 3) == 0:  # now and then the store is slow: batches wait
                store.write(unwritten)
                unwritten.clear()
    store.write([*unwritten, rec.take_batch(T0 + end, final=True)])
    store.close()


def _row(path: Path, table: str, start: float) -> tuple[float, float]:
    store = Store(path)
    store.open()
    try:
        row = store.rollups(table, "x", [int(start)])[int(start)]
        return row.good, row.integral
    finally:
        store.close()


@pytest.mark.parametrize("every", [10, 0])
def test_a_point_taken_out_and_back_in_one_hour_keeps_the_hour(tmp_path: Path,
                                                               every: int) -> None:
    path = tmp_path / "history.db"
    _run(path, 30, 3610, X, {30: 10.0, 1000: {}, 1100: X, 1110: 20.0}, every=every)
    good, integral = _row(path, "h1", T0)
    assert good == pytest.approx(970.0 + 2490.0)
    assert integral == pytest.approx(10.0 * 970 + 20.0 * 2490)


def test_a_point_taken_out_and_back_in_one_minute_keeps_the_minute(tmp_path: Path) -> None:
    path = tmp_path / "history.db"
    _run(path, 30, 3610, X, {30: 10.0, 1000: {}, 1010: X, 1015: 20.0})
    good, integral = _row(path, "m1", T0 + 960)
    assert good == pytest.approx(40.0 + 5.0)
    assert integral == pytest.approx(10.0 * 40 + 20.0 * 5)
    hour_good, _ = _row(path, "h1", T0)
    assert hour_good == pytest.approx(970.0 + (3600.0 - 1015.0))


def test_a_point_added_back_after_a_restart_keeps_what_the_last_run_recorded(
        tmp_path: Path) -> None:
    """A records x; B starts without it (a point out for maintenance) and a reload brings it
    back in the same hour."""
    path = tmp_path / "history.db"
    _run(path, 30, 100, X, {30: 10.0})
    _run(path, 200, 3610, {}, {300: X, 310: 20.0})
    good, integral = _row(path, "h1", T0)
    assert good == pytest.approx(70.0 + 3290.0)
    assert integral == pytest.approx(10.0 * 70 + 20.0 * 3290)


def test_a_point_added_in_a_new_hour_begins_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "history.db"
    _run(path, 30, 7210, X, {30: 10.0, 1000: {}, 3700: X, 3710: 20.0})
    assert _row(path, "h1", T0)[0] == pytest.approx(970.0)
    assert _row(path, "h1", T0 + 3600)[0] == pytest.approx(3490.0)


async def test_a_reload_of_the_history_component_adds_a_point_back_with_its_hour(
        tmp_path: Path) -> None:
    """The daemon's component: an earlier run recorded x; this one starts without it, and a
    reload brings it back; its value since and the earlier run's are in the hour's row."""
    into = time.time() % 3600
    if into < 5:  # the earlier run's seconds must be of this hour: wait for the hour to begin
        await asyncio.sleep(5 - into)
    now = time.time()
    hour = int(now // 3600 * 3600)
    a_start = max(hour + 1.0, now - 40)
    store = Store(tmp_path / "history.db")
    store.open()
    rec = Recorder(X, a_start)
    rec.value("x", 540.0, a_start, a_start)
    store.write([rec.take_batch(now - 0.5, final=True)])  # a clean stop
    store.close()

    def config(points: dict[str, Any]) -> Config:
        return config_of({
            "node": {"id": "n"},
            "paths": {"state_dir": str(tmp_path), "runtime_dir": str(tmp_path / "run")},
            "history": {"enabled": True, "flush": "5s"},
            "devices": {"plc": fake_device(points)}})

    temp = {"temp": {"type": "float", "params": {"value": 20.0}}}
    metrics = Metrics()
    events = EventTable(metrics)
    supervisor = Supervisor(tmp_path / "run", events.dispatch)
    cache = ValueCache(tmp_path / "lkv.json", {}, {})
    without = config(temp)
    engine = Engine(without, supervisor, cache, AuditLog(tmp_path / "audit.jsonl"), metrics)
    history = HistoryComponent(Services(without, engine, cache, supervisor, metrics, events))
    task = asyncio.create_task(history.run())
    try:
        await asyncio.wait_for(history._opened.wait(), 30)
        await history.reconfigure(config({**temp, "x": {"type": "float"}}))
        history._on_value(Reading("x", 100.0, time.time()))
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    store = Store(tmp_path / "history.db")
    store.open()
    row = store.rollups("h1", "x", [hour])[hour]
    store.close()
    assert (row.min, row.max) == (100.0, 540.0)


def test_a_point_added_while_the_store_opens_is_counted_once(tmp_path: Path) -> None:
    """A reload while the store opens (HistoryComponent.reconfigure before the opening is
    done) reads nothing: the opening's resume begins the added point's rows with the earlier
    run's, once (review atk64h: read at the reload too, they were counted twice)."""
    path = tmp_path / "history.db"
    _run(path, 30, 95, X, {30: 10.0})
    rec = Recorder({}, T0 + 100)
    store = Store(path)
    seen = store.open()
    assert seen is not None
    rec.retrack(X, T0 + 101)  # the reload, while the opening goes on
    store.record_stop(seen, rec.started)
    minute, hour = rec.resume_span()
    rec.resume(store.minutes(hour, minute))
    rec.value("x", 20.0, T0 + 102, T0 + 102)
    store.write([rec.take_batch(T0 + 3610, final=True)])
    store.close()
    assert _row(path, "m1", T0 + 60)[0] == pytest.approx(35.0 + 18.0)
    assert _row(path, "h1", T0)[0] == pytest.approx(65.0 + 3498.0)


def test_a_point_re_added_while_the_store_cannot_be_read_keeps_this_runs_hour(
        tmp_path: Path) -> None:
    """The store refuses (a full disk): batches wait among the unwritten, and a reload takes x
    out and puts it back. What this run holds of x in memory begins its rows again (review
    atk64f: with nothing read, the hour kept only the time since it came back)."""
    path = tmp_path / "history.db"
    rec = Recorder(X, T0 + 30)
    store = _open(path, rec)
    unwritten: list[Batch] = []
    rec.value("x", 10.0, T0 + 30, T0 + 30)
    for t in range(40, 3611, 10):
        if t == 1000:
            rec.retrack({}, T0 + t)
        if t == 1100:
            rec.retrack(X, T0 + t, {}, unwritten)  # the store is not read: nothing of it
        if t == 1110:
            rec.value("x", 20.0, T0 + t, T0 + t)
        unwritten.append(rec.take_batch(T0 + t, final=t == 3610))
    store.write(unwritten)  # the store takes them at last
    store.close()
    good, integral = _row(path, "h1", T0)
    assert good == pytest.approx(970.0 + 2490.0)
    assert integral == pytest.approx(10.0 * 970 + 20.0 * 2490)


def _rebuilt(path: Path, later: float) -> Store:
    """The store opened by the next start at `later` after a kill: what the crash left
    rebuilt and written (as `HistoryComponent._open`); left open to be read."""
    store = Store(path)
    seen = store.open()
    assert seen is not None
    store.record_stop(seen, later)
    batch = crash_batch(store, seen)
    assert batch is not None
    store.write([batch])
    return store


def _killed(path: Path, last: int, step: Callable[[Store, Recorder, int], None]) -> None:
    """x = 10 from 30, `step` each second from 31 to `last`, a batch written every 5 s, and
    then hermesd is killed (no final batch)."""
    rec = Recorder(X, T0 + 30)
    store = _open(path, rec)
    rec.value("x", 10.0, T0 + 30, T0 + 30)
    for t in range(31, last + 1):
        step(store, rec, t)
        if t % 5 == 0:
            store.write([rec.take_batch(T0 + t)])
    store.close()


def _back_in_one_run(path: Path, *, offline_at: int | None = None,
                     until: int = 1520) -> tuple[Store, Recorder, list[Batch]]:
    """x = 10 from 30; a reload takes it out at 1000 and puts it back at 1100; x = 20 from
    1110; a batch written every 10 s up to `until` (the store left open: the run goes on, or
    is killed there). `offline_at`: its device goes offline then, before the removal."""
    rec = Recorder(X, T0 + 30)
    store = _open(path, rec)
    unwritten: list[Batch] = []
    rec.value("x", 10.0, T0 + 30, T0 + 30)
    for t in range(40, until + 1, 10):
        if t == offline_at:
            rec.set_gap("x", "plc1 offline", T0 + t, T0 + t)
        if t == 1000:
            _reload(store, rec, {}, T0 + t, unwritten)
        if t == 1100:
            _reload(store, rec, X, T0 + t, unwritten)
        if t == 1110:
            rec.value("x", 20.0, T0 + t, T0 + t)
        store.write([rec.take_batch(T0 + t)])
    return store, rec, unwritten


def test_a_point_back_in_the_config_is_out_of_its_removed_gap(tmp_path: Path) -> None:
    """Review atk64h: the "removed from the config" gap stayed open after the point came back,
    so an answer about any part of a minute since said it had no value, until a restart
    closed the gap at the stop (and then it covered all of the time since)."""
    path = tmp_path / "history.db"
    store, rec, unwritten = _back_in_one_run(path)
    reader = Reader(store, rec.view("x", T0 + 1500), unwritten)
    summary = reader.summary("x", T0 + 1200.5, T0 + 1260.5, T0 + 1500)
    assert summary.rollup.good == pytest.approx(60.0)
    assert summary.rollup.integral == pytest.approx(20.0 * 60)
    assert summary.gaps == []
    removed = reader.gaps("x", T0 + 990, T0 + 1200, T0 + 1500)
    assert sorted((a - T0, b - T0, why) for a, b, why in removed) == [
        (1000.0, 1110.0, REMOVED), (1100.0, 1110.0, NO_VALUE_YET)]
    store.write([rec.take_batch(T0 + 1530, final=True)])
    store.close()
    later = Store(path)
    seen = later.open()
    assert seen is not None
    later.record_stop(seen, T0 + 5000)
    summary = Reader(later, Recorder(X, T0 + 5000), []).summary(
        "x", T0 + 1110, T0 + 1530, T0 + 5000)
    later.close()
    assert summary.rollup.good == pytest.approx(420.0)
    assert summary.gaps == []


def test_a_crash_after_a_point_came_back_keeps_its_minute(tmp_path: Path) -> None:
    """Killed after the batch of 1520: the rebuilt minute of the crash holds x's 20 s in it,
    and the hour all x recorded (the open gap had it not good; review atk64h)."""
    path = tmp_path / "history.db"
    store, _, _ = _back_in_one_run(path)
    store.close()  # killed: no final batch
    _rebuilt(path, T0 + 5000).close()
    assert _row(path, "m1", T0 + 1500) == pytest.approx((20.0, 20.0 * 20))
    assert _row(path, "h1", T0)[0] == pytest.approx(970.0 + (1520.0 - 1110.0))


def test_a_crash_in_the_minute_a_point_came_back_keeps_both_parts(tmp_path: Path) -> None:
    """Out at 1000 and back at 1005, in the minute of the crash (after the batch of 1015):
    the row the removal wrote holds the minute up to it, and the rebuilt one adds the part
    since x's first value at 1008 (as the recorder would have at the minute's close; it took
    the removal's row for the whole minute)."""
    path = tmp_path / "history.db"

    def step(store: Store, rec: Recorder, t: int) -> None:
        if t in (1000, 1005):
            _reload(store, rec, {} if t == 1000 else X, T0 + t, [])
        if t == 1008:
            rec.value("x", 20.0, T0 + t, T0 + t)

    _killed(path, 1018, step)  # after the batch of 1015
    _rebuilt(path, T0 + 5000).close()
    assert _row(path, "m1", T0 + 960) == pytest.approx((40.0 + 7.0, 10.0 * 40 + 20.0 * 7))


def test_a_point_removed_while_offline_ends_its_offline_gap_there(tmp_path: Path) -> None:
    """The gap a point is in when a reload removes it (its device offline) ends at the
    removal: left open, it covered the point after it came back too."""
    path = tmp_path / "history.db"
    store, rec, unwritten = _back_in_one_run(path, offline_at=900)
    reader = Reader(store, rec.view("x", T0 + 1500), unwritten)
    gaps = reader.gaps("x", T0 + 800, T0 + 1500, T0 + 1500)
    summary = reader.summary("x", T0 + 800, T0 + 1500, T0 + 1500)
    store.close()
    assert sorted((a - T0, b - T0, why) for a, b, why in gaps) == [
        (900.0, 1000.0, "plc1 offline"), (1000.0, 1110.0, REMOVED),
        (1100.0, 1110.0, NO_VALUE_YET)]
    assert summary.rollup.good == pytest.approx(100.0 + 390.0)


def test_a_point_back_holds_no_value_until_its_first_one(tmp_path: Path) -> None:
    """Back at 1100 with its first value at 1200: what it held at its removal is no value of
    it in between, in this run's answers or a later one's (with its "removed" gap ended at the
    reload, the value held before counted again from there)."""
    path = tmp_path / "history.db"
    _run(path, 30, 1530, X, {30: 10.0, 1000: {}, 1100: X, 1200: 20.0})
    store = Store(path)
    seen = store.open()
    assert seen is not None
    store.record_stop(seen, T0 + 5000)
    reader = Reader(store, Recorder(X, T0 + 5000), [])
    between = reader.summary("x", T0 + 1100.5, T0 + 1199.5, T0 + 5000)
    after = reader.summary("x", T0 + 1190.5, T0 + 1230.5, T0 + 5000)
    store.close()
    assert between.rollup.good == 0.0
    assert after.rollup.good == pytest.approx(30.5)
    assert after.rollup.changes == 1  # its first value since it came back


def test_a_point_removed_as_its_device_goes_offline_is_in_a_gap_after(tmp_path: Path) -> None:
    """Offline and removed at the same instant (the device's loss and a reload at once), then
    killed: the rebuilt minute holds nothing of x after it (its two gaps, by one start, were
    one in the store: the second was lost and the value held counted as good; sweep
    atk64h seed 491)."""
    path = tmp_path / "history.db"

    def step(store: Store, rec: Recorder, t: int) -> None:
        if t == 1000:
            rec.set_gap("x", "plc1 offline", T0 + t, T0 + t)
            _reload(store, rec, {}, T0 + t, [])

    _killed(path, 1015, step)
    again = _rebuilt(path, T0 + 5000)
    reader = Reader(again, Recorder(X, T0 + 5000), [])
    summary = reader.summary("x", T0 + 990, T0 + 1015, T0 + 5000)
    again.close()
    assert summary.rollup.good == pytest.approx(10.0)
    assert _row(path, "m1", T0 + 960)[0] == pytest.approx(40.0)
