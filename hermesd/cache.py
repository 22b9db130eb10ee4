"""The last-known-value (LKV) cache: every point's latest value with its timestamp, persisted.

Values come from tool events and from reads. Quality is judged when a value is looked at, never
stored: a value is `stale` when it is older than its point's max age, when its device is offline,
or when it was restored from disk and not yet confirmed since the restart. The file is written
atomically (temp file, fsync, rename, fsync of the directory), so a power cut leaves either the
old or the new snapshot, never a torn one; a link planted in place of the file is refused, never
written through (hermesd/core/statefiles.py). To spare an SD card, a snapshot is written at most
every `persist_interval` when values change, and every `refresh_interval` when only their
timestamps moved (polls that confirm an unchanged value). A value is never invented: no value
means no value.

A reading stamped in the future (more than `FUTURE_TOLERANCE` ahead of this clock: the clock was
stepped back, or a device keeps its own) is never fresh: it is judged stale, "timestamped in
the future", however young it looks, and any later reading replaces it, even one stamped
before it. Otherwise a value stamped an hour ahead would stay "good, age 0" for that hour.

Each point's definition has a fingerprint (registry.fingerprint: its device, register, type,
scale, unit, topic ...), kept with its value in the snapshot. A reload or restart that
redefines a point drops the value read under the old definition: 21.5 read as °C at one
register is no value of the point that now reads °F at another. (A snapshot entry without
one, from before fingerprints, is restored as ever: stale until confirmed.)

A reading `retained` is an MQTT broker's stored copy of a state, sent at every (re)subscribe: of
unknown age (the device that sent it may be long gone), so it is shown, stamped when it
arrived, but always stale until a live message confirms a value. One equal to the value kept
says nothing new and leaves that reading as it is; it is not passed to listeners (history, the
MQTT bridge), which would take it for a value of the moment it arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, NamedTuple

from hermesd.core.registers import MAX_MAGNITUDE
from hermesd.core.statefiles import read_state, remove_stale_temps, write_atomic

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
#: seconds a timestamp may be ahead of this clock before the reading counts as from the future
FUTURE_TOLERANCE = 5.0
#: the times a reading may carry: what an answer can say in ISO 8601 (UTC years 1 to 9999).
#: A stamp beyond (a tool's 1e17) is no time at all, like NaN: every answer about the point
#: once failed on it
EARLIEST_TS = -62135596800.0
LATEST_TS = 253402300799.0


# Reading, DeviceState and Judgement are named tuples, immutable like frozen dataclasses but
# made in a third of the bytecodes (a frozen dataclass sets each field through
# object.__setattr__): every read makes a Reading and a Judgement


#: a named tuple made from all its fields, without its Python __new__ (the reading and the
#: judgement of every read)
_new_tuple = tuple.__new__


class Reading(NamedTuple):
    point: str
    value: Any
    ts: float  # wall-clock seconds (epoch) when the device gave this value
    restored: bool = False  # loaded from disk at start, not confirmed since
    retained: bool = False  # a broker's stored copy of unknown age, not confirmed live since


class DeviceState(NamedTuple):
    online: bool
    since: float  # epoch seconds of the last change
    reason: str = ""


class Judgement(NamedTuple):
    """A reading as a user should see it now."""

    reading: Reading
    age: float
    stale: bool
    why: str = ""  # "" when good; else why it is stale, in words

    @property
    def quality(self) -> str:
        return "stale" if self.stale else "good"


Listener = Callable[[Reading], None]
DeviceListener = Callable[[str, DeviceState], None]


class ValueCache:
    """Readings by point id and online state by device id, with an atomic snapshot on disk."""

    def __init__(self, path: Path, max_ages: Mapping[str, float | None],
                 devices_of: Mapping[str, str], *, persist_interval: float = 10.0,
                 refresh_interval: float = 60.0, executor: Executor | None = None,
                 fingerprints: Mapping[str, str] | None = None) -> None:
        self.path = path
        #: each point's definition's fingerprint (none given: values are kept by id alone)
        self._fingerprints = dict(fingerprints or {})
        self._executor = executor  # the thread that does the blocking write and fsync
        self.persist_interval = persist_interval
        self.refresh_interval = refresh_interval
        self._refreshed = False  # only timestamps changed since the last snapshot
        self._max_ages = dict(max_ages)
        self._device_of = dict(devices_of)
        self._readings: dict[str, Reading] = {}
        self._devices: dict[str, DeviceState] = {}
        self._dirty = asyncio.Event()
        self._listeners: list[Listener] = []
        self._device_listeners: list[DeviceListener] = []
        self.persist_failures = 0

    # -- configuration ---------------------------------------------------------------------

    def reconfigure(self, max_ages: Mapping[str, float | None], devices_of: Mapping[str, str],
                    fingerprints: Mapping[str, str] | None = None) -> None:
        """Adopt a new point set; readings of points that no longer exist are dropped, and
        those of points whose definition changed (their fingerprint, when given)."""
        self._max_ages = dict(max_ages)
        self._device_of = dict(devices_of)
        old, self._fingerprints = self._fingerprints, dict(fingerprints or {})
        redefined = [p for p in self._readings if p in self._max_ages and p in old
                     and self._fingerprints.get(p, old[p]) != old[p]]
        if redefined:
            log.info("dropped the last value of %d redefined point(s) (a value read under "
                     "the old definition is not theirs), e.g. %s", len(redefined),
                     ", ".join(redefined[:3]))
        for pid in [p for p in self._readings if p not in self._max_ages] + redefined:
            del self._readings[pid]
        for dev in [d for d in self._devices if d not in set(self._device_of.values())]:
            del self._devices[dev]
        self._dirty.set()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def subscribe_devices(self, listener: DeviceListener) -> None:
        self._device_listeners.append(listener)

    # -- updates ---------------------------------------------------------------------------

    def update(self, point: str, value: Any, ts: float | None = None,
               now: float | None = None, *, retained: bool = False) -> bool:
        """Record a value read from the device (`retained`: a broker's stored copy of it, of
        unknown age). Returns whether the value changed."""
        now = time.time() if now is None else now
        return self._keep(point, value, now if ts is None else ts, now, retained)[1]

    def take(self, point: str, value: Any, ts: float, *, retained: bool = False
             ) -> Judgement | None:
        """`update(point, value, ts)` and then `judge(point)`, as one call (a read's answer):
        the kept reading judged now, or None when the value was not kept (not a measurement,
        no time, or older than the reading kept)."""
        now = time.time()
        reading = self._keep(point, value, ts, now, retained)[0]
        return None if reading is None else self._judged(reading, now)

    def _keep(self, point: str, value: Any, ts: float, now: float, retained: bool = False
              ) -> tuple[Reading | None, bool]:
        """Keep a value read from the device: (the reading kept or None, whether it changed)."""
        if point not in self._max_ages:
            return _NOT_KEPT
        if isinstance(value, float) and not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
            return _NOT_KEPT  # a NaN (no comparison holds for it) is not a measurement, nor
            # is a float's largest value (nor infinity)
        if not EARLIEST_TS <= ts <= LATEST_TS:  # _a_time(ts), on every reading
            return _NOT_KEPT  # no time at all is not a time
        old = self._readings.get(point)
        if old is not None and not old.restored and ts < old.ts and \
                not _ahead(old.ts, now):
            # an older reading arriving late does not replace a newer one; but one stamped in
            # the future is newer than nothing that comes after it
            return _NOT_KEPT
        if retained:
            return self._keep_retained(old, point, value, ts)
        reading = self._readings[point] = _new_tuple(Reading, (point, value, ts, False, False))
        if old is not None and old.value == value and not old.restored and not old.retained:
            self._refreshed = True
            return reading, False
        self._dirty.set()
        for listener in self._listeners:
            listener(reading)
        return reading, True

    def _keep_retained(self, old: Reading | None, point: str, value: Any, ts: float
                       ) -> tuple[Reading | None, bool]:
        """A broker's stored copy of a state: the reading kept as it is if it holds that value
        already (the copy says nothing newer), else the copy, stale until confirmed live."""
        if old is not None and old.value == value and type(old.value) is type(value):
            return old, False
        self._readings[point] = reading = Reading(point, value, ts, False, True)
        self._dirty.set()
        return reading, True

    def refresh(self, point: str, ts: float) -> bool:
        """A poll read the point's value unchanged at `ts`: its reading takes that time.
        Only a value read since the start is confirmed this way (not one restored from disk,
        nor none at all), and never back in time. Returns whether the reading moved."""
        old = self._readings.get(point)
        if old is None or old.restored or old.retained or not _a_time(ts) or ts <= old.ts:
            return False
        self._readings[point] = Reading(point, old.value, ts)
        self._refreshed = True
        return True

    def refresh_many(self, points: Iterable[str], ts: float) -> int:
        """`refresh(point, ts)` of each of `points` (a poll's points read unchanged), in one
        pass; returns how many readings moved."""
        if not _a_time(ts):
            return 0
        readings = self._readings
        moved = 0
        for point in points:
            old = readings.get(point)
            if old is None or old.restored or old.retained or ts <= old.ts:
                continue
            readings[point] = _new_tuple(Reading, (point, old.value, ts, False, False))
            moved += 1
        if moved:
            self._refreshed = True
        return moved

    def restate(self, say: Callable[[Reading], Any]) -> int:
        """Say every kept reading anew as `say` gives it (a raw value as its point's name once
        the point has a value map); its time, and whether it was restored, stay. Returns how
        many changed."""
        changed = 0
        for pid, reading in list(self._readings.items()):
            value = say(reading)
            if value != reading.value or type(value) is not type(reading.value):
                self._readings[pid] = reading._replace(value=value)
                changed += 1
        if changed:
            self._dirty.set()
        return changed

    def set_device(self, device: str, online: bool, reason: str = "",
                   ts: float | None = None) -> bool:
        """Record a device going online or offline. Returns whether its state changed."""
        old = self._devices.get(device)
        if old is not None and old.online == online:
            return False
        state = DeviceState(online, time.time() if ts is None else ts, reason)
        self._devices[device] = state
        self._dirty.set()
        for listener in self._device_listeners:
            listener(device, state)
        return True

    # -- queries ---------------------------------------------------------------------------

    def get(self, point: str) -> Reading | None:
        return self._readings.get(point)

    def device(self, device: str) -> DeviceState | None:
        return self._devices.get(device)

    def devices(self) -> dict[str, DeviceState]:
        return dict(self._devices)

    def readings(self) -> Iterator[Reading]:
        return iter(list(self._readings.values()))

    def judge(self, point: str, now: float | None = None) -> Judgement | None:
        reading = self._readings.get(point)
        if reading is None:
            return None
        return self._judged(reading, time.time() if now is None else now)

    def _judged(self, reading: Reading, now: float) -> Judgement:
        age = max(0.0, now - reading.ts)
        device = self._device_of.get(reading.point)
        state = self._devices.get(device) if device else None
        if state is not None and not state.online:
            since = time.strftime("%H:%M:%S", time.localtime(state.since))
            why = f"{device} offline since {since}"
            if state.reason:
                why += f" ({state.reason})"
            return Judgement(reading, age, True, why)
        if reading.ts > now + FUTURE_TOLERANCE:  # _ahead(reading.ts, now), on every read
            return Judgement(reading, age, True, "timestamped in the future "
                                                 f"({_span(reading.ts - now)} ahead of this "
                                                 "clock)")
        max_age = self._max_ages.get(reading.point)
        if max_age is not None and age > max_age:
            return Judgement(reading, age, True, f"older than its max age of {max_age:g} s")
        if reading.restored:
            return Judgement(reading, age, True, "from before the restart, not confirmed since")
        if reading.retained:
            return Judgement(reading, age, True, "retained by the broker, age unknown: no live "
                                                 "message has confirmed it")
        return _new_tuple(Judgement, (reading, age, False, ""))  # Judgement(reading, age, False)

    def judge_unkept(self, point: str, value: Any, ts: float) -> Judgement:
        """A read's answer when `take` did not keep the tool's value: the newer reading the
        cache keeps, judged now; else the tool's, judged by the same rules (its device
        offline, its max age), and stale when its time is no time. Never fresh by default."""
        now = time.time()
        kept = self._readings.get(point)
        if kept is not None and (not EARLIEST_TS <= ts <= LATEST_TS or kept.ts >= ts):
            return self._judged(kept, now)
        if not EARLIEST_TS <= ts <= LATEST_TS:
            return Judgement(Reading(point, value, now), 0.0, True,
                             "the device gave it no time one can read")
        return self._judged(Reading(point, value, ts), now)

    def fresh(self, point: str, now: float) -> bool:
        """Whether `judge(point, now)` would find a value that is not stale, without making the
        judgement (a check of every point every second costs a tenth of it this way)."""
        reading = self._readings.get(point)
        if reading is None or reading.restored or reading.retained or _ahead(reading.ts, now):
            return False
        device = self._device_of.get(point)
        state = self._devices.get(device) if device else None
        if state is not None and not state.online:
            return False
        max_age = self._max_ages.get(point)
        return max_age is None or max(0.0, now - reading.ts) <= max_age

    def not_fresh(self, points: Iterable[str], now: float) -> list[str]:
        """Those of `points` that `fresh(point, now)` finds not fresh, in order: one pass for
        a check of every point every second (the MQTT bridge's), not a call per point."""
        readings, device_of, max_ages = self._readings, self._device_of, self._max_ages
        offline = {d for d, state in self._devices.items() if d and not state.online}
        ahead = now + FUTURE_TOLERANCE  # _ahead(ts, now): ts > ahead
        out = []
        for point in points:
            reading = readings.get(point)
            if reading is None or reading.restored or reading.retained or reading.ts > ahead or \
                    (offline and device_of.get(point) in offline):
                out.append(point)
                continue
            max_age = max_ages.get(point)
            # (`max(0.0, now - ts) > max_age`, without a call per point)
            if max_age is not None and (now - reading.ts > max_age or max_age < 0.0):
                out.append(point)
        return out

    # -- persistence -----------------------------------------------------------------------

    def load(self) -> None:
        """Restore the snapshot; a missing file is a first start, a corrupt one is set aside."""
        for name in remove_stale_temps(self.path):
            log.info("removed %s, a snapshot a stopped hermesd did not finish", name)
        try:
            raw = read_state(self.path)
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("cannot read value cache %s: %s; starting empty", self.path, exc)
            return
        try:
            data = json.loads(raw)
            if data.get("version") != FORMAT_VERSION:
                raise ValueError(f"unknown version {data.get('version')!r}")
            values = data["values"]
            if not isinstance(values, dict):
                raise TypeError("values is not an object")
            redefined = []
            for pid, entry in values.items():
                if pid in self._max_ages and isinstance(entry, dict) \
                        and isinstance(entry.get("ts"), int | float) and "v" in entry \
                        and not isinstance(entry["ts"], bool) and _a_time(entry["ts"]):
                    saved = entry.get("f")
                    if isinstance(saved, str) and saved != self._fingerprints.get(pid, saved):
                        redefined.append(pid)  # read under another definition: not its value
                        continue
                    self._readings[pid] = Reading(pid, entry["v"], float(entry["ts"]), True)
            if redefined:
                log.info("did not restore the last value of %d point(s) redefined since it "
                         "was saved, e.g. %s", len(redefined), ", ".join(redefined[:3]))
            now = time.time()
            ahead = [r.point for r in self._readings.values() if _ahead(r.ts, now)]
            if ahead:  # judged stale, and replaced by the first reading after the restart
                log.warning("%d restored values are stamped in the future (was the clock "
                            "stepped back?), e.g. %s; they are stale until read again",
                            len(ahead), ", ".join(ahead[:3]))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            aside = self.path.with_suffix(".corrupt")
            log.error("value cache %s is unreadable (%s); moved to %s, starting empty",
                      self.path, exc, aside)
            with contextlib.suppress(OSError):
                self.path.replace(aside)
            self._readings.clear()

    def snapshot(self) -> bytes:
        marks = self._fingerprints
        values = {r.point: {"v": r.value, "ts": r.ts, "f": marks[r.point]} if r.point in marks
                  else {"v": r.value, "ts": r.ts} for r in self._readings.values()}
        data = {"version": FORMAT_VERSION, "saved": time.time(), "values": values}
        try:
            return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        except UnicodeEncodeError:  # a text value with a lone surrogate: escaped, still JSON
            return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode()

    def persist(self) -> None:
        """Write the snapshot atomically (blocking: call from a thread or at shutdown)."""
        write_atomic(self.path, self.snapshot())

    async def run(self) -> None:
        """Persist whenever something changed, at most every `persist_interval` seconds."""
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.refresh_interval):
                        await self._dirty.wait()
                if not self._dirty.is_set() and not self._refreshed:
                    continue
                self._dirty.clear()
                self._refreshed = False
                try:
                    data = self.snapshot()
                    await asyncio.get_running_loop().run_in_executor(
                        self._executor, write_atomic, self.path, data)
                except (OSError, ValueError, TypeError) as exc:
                    self.persist_failures += 1
                    if self.persist_failures == 1:
                        log.error("cannot persist value cache to %s: %s (values stay in memory)",
                                  self.path, exc)
                else:
                    if self.persist_failures:
                        log.info("value cache persisted again to %s", self.path)
                    self.persist_failures = 0
                await asyncio.sleep(self.persist_interval)
        finally:
            with contextlib.suppress(OSError, ValueError, TypeError):
                self.persist()


_NOT_KEPT: tuple[None, bool] = (None, False)


def _a_time(ts: float) -> bool:
    return EARLIEST_TS <= ts <= LATEST_TS  # False for NaN too


def _ahead(ts: float, now: float) -> bool:
    """Whether `ts` is in the future of `now`, beyond what clocks and delivery explain."""
    return ts > now + FUTURE_TOLERANCE


def _span(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    if seconds < 3650 * 86400:
        return f"{seconds / 86400:.0f} days"
    return "more than 10 years"  # a stamp of 1e308 is not worth 300 digits
