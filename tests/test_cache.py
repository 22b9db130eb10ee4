"""The last-known-value cache: quality judged at read time, atomic snapshots, no fake values."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd.cache import FUTURE_TOLERANCE, ValueCache
from hermesd.core.statefiles import write_atomic


def _cache(tmp_path: Path) -> ValueCache:
    return ValueCache(tmp_path / "lkv.json", {"temp": 30.0, "level": None},
                      {"temp": "plc1", "level": "plc1"})


def test_fresh_old_and_offline(tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    assert cache.judge("temp") is None  # nothing known: no value, never a zero
    cache.update("temp", 523.4, ts=1000.0)
    j = cache.judge("temp", now=1010.0)
    assert j is not None and not j.stale and j.age == 10.0
    j = cache.judge("temp", now=1031.0)
    assert j is not None and j.stale and j.why == "older than its max age of 30 s"
    cache.update("temp", 523.4, ts=1031.0)  # same value, fresh poll: fresh again
    assert not cache.judge("temp", now=1032.0).stale  # type: ignore[union-attr]
    cache.set_device("plc1", False, "connection refused", ts=1033.0)
    j = cache.judge("temp", now=1034.0)
    assert j is not None and j.stale and j.why.startswith("plc1 offline since ")
    assert "(connection refused)" in j.why
    assert j.reading.value == 523.4  # the last known value, kept


def test_a_refresh_confirms_a_value_read_since_the_start_and_only_moves_forward(
        tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    heard: list[object] = []
    cache.subscribe(heard.append)
    assert not cache.refresh("temp", 1000.0)  # no value: nothing to confirm, none made up
    assert cache.judge("temp") is None
    cache.update("temp", 523.4, ts=1000.0)
    assert cache.refresh("temp", 1031.0)  # a poll read it unchanged
    j = cache.judge("temp", now=1032.0)
    assert j is not None and not j.stale and j.reading.value == 523.4 and j.age == 1.0
    assert not cache.refresh("temp", 1020.0)  # never back in time
    assert cache.get("temp").ts == 1031.0  # type: ignore[union-attr]
    assert len(heard) == 1  # a refresh is no change
    cache.persist()
    restored = _cache(tmp_path)
    restored.load()
    assert not restored.refresh("temp", 2000.0)  # from before the restart: a value must come
    assert restored.get("temp").ts == 1031.0  # type: ignore[union-attr]
    judged = restored.judge("temp", now=1032.0)
    assert judged is not None and judged.why == "from before the restart, not confirmed since"


def test_no_max_age_is_only_stale_when_offline(tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    cache.update("level", 73.4, ts=0.0)
    assert not cache.judge("level", now=1e9).stale  # type: ignore[union-attr]


def test_late_and_bad_readings_do_not_replace_newer_ones(tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    cache.update("temp", 2.0, ts=200.0)
    assert not cache.update("temp", 1.0, ts=100.0)
    assert not cache.update("temp", math.nan, ts=300.0)
    assert not cache.update("unknown_point", 1.0)
    assert cache.get("temp").value == 2.0  # type: ignore[union-attr]


def test_listeners_hear_changes_only(tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    heard: list[object] = []
    cache.subscribe(lambda r: heard.append(r.value))
    cache.update("temp", 1.0, ts=1.0)
    cache.update("temp", 1.0, ts=2.0)
    cache.update("temp", 2.0, ts=3.0)
    assert heard == [1.0, 2.0]
    states: list[bool] = []
    cache.subscribe_devices(lambda dev, s: states.append(s.online))
    cache.set_device("plc1", False)
    cache.set_device("plc1", False)  # no change, no noise
    cache.set_device("plc1", True)
    assert states == [False, True]


def test_a_retained_copy_is_stale_until_a_live_reading_and_never_replaces_one(
        tmp_path: Path) -> None:
    """A broker's stored copy of a state is of unknown age: stale however young its arrival,
    not passed to listeners, never confirmed by a refresh; a copy of the value kept says
    nothing newer (the live reading stays, and ages); a live reading confirms it."""
    cache = _cache(tmp_path)
    heard: list[object] = []
    cache.subscribe(lambda r: heard.append(r.value))
    assert cache.update("temp", 4.2, ts=1000.0, retained=True)
    j = cache.judge("temp", now=1000.5)
    assert j is not None and j.stale and j.age == 0.5 and j.quality == "stale"
    assert j.why.startswith("retained by the broker, age unknown")
    assert not cache.fresh("temp", 1000.5) and cache.not_fresh(["temp"], 1000.5) == ["temp"]
    assert not cache.refresh("temp", 1001.0) and cache.refresh_many(["temp"], 1001.0) == 0
    assert heard == []
    cache.update("temp", 4.2, ts=1002.0)  # live: the same value, confirmed
    j = cache.judge("temp", now=1002.5)
    assert j is not None and not j.stale and heard == [4.2]
    assert not cache.update("temp", 4.2, ts=1010.0, retained=True)  # a reconnect's copy
    j = cache.judge("temp", now=1040.0)
    assert j is not None and j.stale and j.reading.ts == 1002.0 and not j.reading.retained
    assert j.why == "older than its max age of 30 s"
    assert cache.update("temp", 5.0, ts=1041.0, retained=True)  # one never seen live
    j = cache.judge("temp", now=1041.0)
    assert j is not None and j.stale and j.reading.value == 5.0 and heard == [4.2]


def test_snapshot_round_trip_marks_restored_values(tmp_path: Path) -> None:
    cache = _cache(tmp_path)
    cache.update("temp", 523.4, ts=1000.0)
    cache.persist()
    again = _cache(tmp_path)
    again.load()
    j = again.judge("temp", now=1001.0)
    assert j is not None and j.stale and j.reading.value == 523.4
    assert j.why == "from before the restart, not confirmed since"
    again.update("temp", 523.5, ts=1002.0)
    assert not again.judge("temp", now=1003.0).stale  # type: ignore[union-attr]


def test_corrupt_snapshot_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / "lkv.json").write_text('{"version": 1, "values": {"temp": {"v": 1, "ts"')
    cache = _cache(tmp_path)
    cache.load()
    assert cache.get("temp") is None
    assert (tmp_path / "lkv.corrupt").exists()


def test_snapshot_drops_points_no_longer_configured(tmp_path: Path) -> None:
    (tmp_path / "lkv.json").write_text(json.dumps(
        {"version": 1, "values": {"gone": {"v": 1, "ts": 1.0}, "temp": {"v": 2, "ts": 1.0}}}))
    cache = _cache(tmp_path)
    cache.load()
    assert cache.get("gone") is None
    assert cache.get("temp") is not None


def test_atomic_write_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert os.listdir(tmp_path) == ["f.json"]


# -- readings stamped in the future (a clock stepped back, a device with its own clock) -------

NOW = 1_800_000_000.0
AHEAD = st.floats(FUTURE_TOLERANCE + 0.001, 20 * 365 * 86400.0)  # beyond the tolerance
LATER = st.floats(0.0, 7 * 86400.0)  # how long after the future reading we look


@given(ahead=AHEAD, later=LATER, max_age=st.sampled_from([0.05, 30.0, 3600.0, None]))
def test_a_reading_from_the_future_is_never_fresh(tmp_path_factory: pytest.TempPathFactory,
                                                   ahead: float, later: float,
                                                   max_age: float | None) -> None:
    """With max_age 30 s, a value stamped an hour ahead stayed "good, age 0" for the hour."""
    cache = ValueCache(tmp_path_factory.mktemp("c") / "lkv.json", {"temp": max_age},
                       {"temp": "plc1"})
    cache.update("temp", 523.4, ts=NOW + ahead, now=NOW)
    j = cache.judge("temp", now=NOW + later)
    assert j is not None and j.reading.value == 523.4
    if NOW + ahead > NOW + later + FUTURE_TOLERANCE:
        assert j.stale and j.why.startswith("timestamped in the future (")
        assert j.quality == "stale"
    else:  # the clock has caught up with it: judged by its age as any other
        assert not j.why.startswith("timestamped in the future")


@given(ahead=st.floats(FUTURE_TOLERANCE + 25.001, 20 * 365 * 86400.0),
       back=st.floats(0.0, 10 * 365 * 86400.0), later=st.floats(0.0, 25.0))
def test_a_newer_reading_replaces_one_stamped_in_the_future(
        tmp_path_factory: pytest.TempPathFactory, ahead: float, back: float,
        later: float) -> None:
    """Whatever its own stamp: it came later, and its stamp is no further off than the
    reading it replaces (before, one stamped ahead froze the value until the clock caught up)."""
    cache = ValueCache(tmp_path_factory.mktemp("c") / "lkv.json", {"temp": 30.0},
                       {"temp": "plc1"})
    cache.update("temp", 1.0, ts=NOW + ahead, now=NOW)
    assert cache.update("temp", 2.0, ts=NOW - back, now=NOW + later)
    assert cache.get("temp").value == 2.0  # type: ignore[union-attr]
    j = cache.judge("temp", now=NOW + later)
    assert j is not None and not j.why.startswith("timestamped in the future")
    assert j.stale == (NOW + later - (NOW - back) > 30.0)


@given(skew=st.floats(0.0, FUTURE_TOLERANCE))
def test_a_reading_within_the_tolerance_is_fresh_and_not_replaced_by_an_older_one(
        tmp_path_factory: pytest.TempPathFactory, skew: float) -> None:
    cache = ValueCache(tmp_path_factory.mktemp("c") / "lkv.json", {"temp": 30.0},
                       {"temp": "plc1"})
    cache.update("temp", 1.0, ts=NOW + skew, now=NOW)
    assert not cache.judge("temp", now=NOW).stale  # type: ignore[union-attr]
    assert not cache.update("temp", 2.0, ts=NOW - 1.0, now=NOW)  # late, and older: kept out


@given(ahead=st.floats(FUTURE_TOLERANCE + 60.0, 20 * 365 * 86400.0))
def test_a_restored_value_stamped_in_the_future_is_stale_until_read_again(
        tmp_path_factory: pytest.TempPathFactory, ahead: float) -> None:
    path = tmp_path_factory.mktemp("c") / "lkv.json"
    now = time.time()
    write_atomic(path, json.dumps({"version": 1, "saved": now, "values": {
        "temp": {"v": 523.4, "ts": now + ahead}, "level": {"v": 7, "ts": now + ahead}}}).encode())
    cache = ValueCache(path, {"temp": 30.0, "level": None}, {"temp": "plc1", "level": "plc1"})
    cache.load()
    for point in ("temp", "level"):  # with a max age or without
        j = cache.judge(point)
        assert j is not None and j.stale and j.why.startswith("timestamped in the future")
    assert cache.update("temp", 500.0, ts=now)
    assert not cache.judge("temp").stale  # type: ignore[union-attr]


@pytest.mark.parametrize("ts", [NOW + 11 * 365 * 86400.0, 2.5e11])
def test_how_far_ahead_a_reading_is_stamped_is_said_in_a_few_words(tmp_path: Path,
                                                                   ts: float) -> None:
    # a stamp of year 9000 once made a stale reason of many digits, in every answer
    cache = ValueCache(tmp_path / "lkv.json", {"temp": 30.0}, {"temp": "plc1"})
    cache.update("temp", 523.4, ts=ts, now=NOW)
    j = cache.judge("temp", now=NOW)
    assert j is not None and j.stale
    assert j.why == "timestamped in the future (more than 10 years ahead of this clock)"


@pytest.mark.parametrize("ts", [1e308, 1e17, 2.6e11, -1e17, float("inf")])
def test_a_stamp_no_answer_could_say_is_no_time_at_all(tmp_path: Path, ts: float) -> None:
    # after year 9999 (or before year 1) an answer cannot say the time: every read of the
    # point failed formatting it
    cache = ValueCache(tmp_path / "lkv.json", {"temp": 30.0}, {"temp": "plc1"})
    assert not cache.update("temp", 523.4, ts=ts, now=NOW)
    assert cache.get("temp") is None
    cache.update("temp", 523.4, ts=NOW, now=NOW)
    assert not cache.refresh("temp", ts)
    reading = cache.get("temp")
    assert reading is not None and reading.ts == NOW


@pytest.mark.parametrize("value", [1.7e308, -1.7e308, 3.0e300])
def test_a_floats_largest_values_are_no_measurement(tmp_path: Path, value: float) -> None:
    # a float64 register's "no value" (1.8e308) made history's means over its period infinite
    cache = ValueCache(tmp_path / "lkv.json", {"temp": 30.0}, {"temp": "plc1"})
    assert not cache.update("temp", value, ts=NOW, now=NOW)
    assert cache.get("temp") is None
    assert cache.update("temp", 3.4e38, ts=NOW, now=NOW)  # a float32's largest is a number


@given(ts=st.floats(NOW - 7200.0, NOW + 60.0), later=st.floats(0.0, 7200.0),
       max_age=st.sampled_from([0.0, 0.05, 30.0, 3600.0, None]),
       device=st.sampled_from(["unknown", "online", "offline"]),
       restored=st.booleans(), read=st.booleans())
def test_fresh_is_what_judge_says_of_a_value_that_is_not_stale(
        tmp_path_factory: pytest.TempPathFactory, ts: float, later: float,
        max_age: float | None, device: str, restored: bool, read: bool) -> None:
    """The MQTT bridge asks `fresh` of every point every second instead of `judge`: they must
    never disagree (no value, restored, from the future, device offline, too old, good)."""
    path = tmp_path_factory.mktemp("c") / "lkv.json"
    cache = ValueCache(path, {"temp": max_age}, {"temp": "plc1"})
    if read:
        cache.update("temp", 523.4, ts=ts, now=NOW)
        if restored:
            cache.persist()
            cache = ValueCache(path, {"temp": max_age}, {"temp": "plc1"})
            cache.load()
    if device != "unknown":
        cache.set_device("plc1", device == "online", "gone", ts=NOW)
    now = NOW + later
    judged = cache.judge("temp", now=now)
    assert cache.fresh("temp", now) == (judged is not None and not judged.stale)
    assert not cache.fresh("elsewhere", now)  # a point the cache does not keep: no value
    # the bridge's pass over every point says the same of each, in the order asked
    expected = [p for p in ("elsewhere", "temp", "elsewhere") if not cache.fresh(p, now)]
    assert cache.not_fresh(["elsewhere", "temp", "elsewhere"], now) == expected


@given(first=st.sampled_from([None, 1000.0]), restored=st.booleans(),
       ts=st.sampled_from([999.0, 1000.0, 1031.0, 1e17, float("nan")]))
def test_refresh_many_is_refresh_of_each(tmp_path_factory: pytest.TempPathFactory,
                                         first: float | None, restored: bool, ts: float) -> None:
    """A poll's points read unchanged are refreshed in one pass: as one refresh each."""
    def cache_of(path: Path) -> ValueCache:
        cache = ValueCache(path, {"temp": 30.0, "level": None},
                           {"temp": "plc1", "level": "plc1"})
        if first is not None:
            cache.update("temp", 523.4, ts=first, now=first)
            if restored:
                cache.persist()
                cache = ValueCache(path, {"temp": 30.0, "level": None},
                                   {"temp": "plc1", "level": "plc1"})
                cache.load()
        return cache

    one, many = (cache_of(tmp_path_factory.mktemp("c") / "lkv.json") for _ in range(2))
    moved = sum(one.refresh(p, ts) for p in ("temp", "level", "elsewhere"))
    assert many.refresh_many(["temp", "level", "elsewhere"], ts) == moved
    assert list(one.readings()) == list(many.readings())


def test_a_value_read_under_another_definition_is_dropped(tmp_path: Path) -> None:
    """A reload or restart that redefines a point (its register, scale, unit: its fingerprint)
    drops the value read under the old definition, never answers it in the new unit; values
    of points whose definition stayed are kept (restored: stale until confirmed)."""
    path = tmp_path / "lkv.json"
    ages: dict[str, float | None] = {"temp": 30.0, "level": None}
    devices = {"temp": "plc1", "level": "plc1"}
    cache = ValueCache(path, ages, devices, fingerprints={"temp": "c-at-1", "level": "m"})
    cache.update("temp", 21.5, ts=time.time())
    cache.update("level", 3.0, ts=time.time())
    cache.persist()
    assert {k: v["f"] for k, v in json.loads(path.read_bytes())["values"].items()} == \
        {"temp": "c-at-1", "level": "m"}

    restarted = ValueCache(path, ages, devices, fingerprints={"temp": "f-at-5", "level": "m"})
    restarted.load()
    assert restarted.judge("temp") is None  # not 21.5 "°F"
    level = restarted.judge("level")
    assert level is not None and level.reading.value == 3.0 and level.stale

    cache.reconfigure(ages, devices, {"temp": "f-at-5", "level": "m"})  # a reload
    assert cache.get("temp") is None and cache.get("level") is not None
    cache.update("temp", 70.7, ts=time.time())  # read under the new definition: kept
    cache.reconfigure(ages, devices, {"temp": "f-at-5", "level": "m"})
    assert cache.get("temp") is not None

    # a snapshot from before fingerprints: restored by id, as ever (stale until confirmed)
    path.write_text(json.dumps({"version": 1, "saved": 1.0,
                                "values": {"temp": {"v": 21.5, "ts": time.time()}}}))
    older = ValueCache(path, ages, devices, fingerprints={"temp": "f-at-5"})
    older.load()
    judged = older.judge("temp")
    assert judged is not None and judged.stale and judged.reading.restored


def test_a_read_the_cache_did_not_keep_is_judged_all_the_same(tmp_path: Path) -> None:
    """A tool's answer older than the reading kept (a write's echo came first) answers the
    kept reading, judged now: stale past its max age or with its device offline, never a
    fresh-looking value by default."""
    cache = _cache(tmp_path)
    now = time.time()
    cache.update("temp", 80.0, ts=now - 40)  # the kept reading, e.g. a write's echo
    assert cache.take("temp", 79.0, now - 41) is None  # older: not kept
    j = cache.judge_unkept("temp", 79.0, now - 41)
    assert j.reading.value == 80.0 and j.stale and j.why == "older than its max age of 30 s"
    cache.update("temp", 81.0, ts=time.time())
    cache.set_device("plc1", False, "connection refused")
    j = cache.judge_unkept("temp", 80.5, now - 1)
    assert j.stale and j.why.startswith("plc1 offline since ")
    # a value of no time one can read is stale, whatever else
    j = cache.judge_unkept("level", 5.0, 1e300)
    assert j.stale and "no time" in j.why
