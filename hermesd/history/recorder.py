"""What the history keeps in memory between batches: every point's state, the rollups of the
open minute and hour, the samples not yet written, and the gaps opened and closed.

Values come in as the value cache sees them change; the rollups take every value (a max is
the real max), while samples are stored only when they moved more than the point's deadband
(within the deadband of the last one stored, a value is not stored: the deadband is what
the config allows the samples to be off by). A point is
*good* while it has a value and no gap (device offline, value stale). `take_batch` closes
every minute and hour that has ended, and hands over what is to be written. Pure state: no
I/O, and the clock is always passed in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hermesd.config.model import Deadband
from hermesd.history.series import NO_VALUE_YET, REMOVED, Rollup, numeric

MINUTE = 60
HOUR = 3600
#: minutes closed one by one after a pause; a longer jump (a suspended machine, the clock
#: stepped) is recorded as a gap instead of as rows of nothing
MAX_ROLL = 180
#: samples held before a batch is written early (a busy plant: ~2 MiB of them in memory)
EARLY_BATCH = 20_000


@dataclass(frozen=True, slots=True)
class Track:
    """How one point is recorded."""

    numeric: bool
    deadband: Deadband | None = None  # the point's (the one MQTT publishing uses too)


@dataclass
class Batch:
    """One batch for the store, written in one transaction."""

    taken: float
    samples: dict[str, list[tuple[float, Any]]] = field(default_factory=dict)
    minutes: list[tuple[int, str, Rollup]] = field(default_factory=list)
    hours: list[tuple[int, str, Rollup]] = field(default_factory=list)
    gaps_opened: list[tuple[str, float, str]] = field(default_factory=list)  # point, start, why
    gaps_closed: list[tuple[str, float, float]] = field(default_factory=list)  # point, start, end
    final: bool = False  # the last of a run: its open minute and hour are in it
    rebuilt: bool = False  # the last of a run that crashed, rebuilt at the next start (mend.py)

    def size(self) -> int:
        return sum(len(s) for s in self.samples.values()) + len(self.minutes) + len(self.hours)


@dataclass
class _State:
    track: Track
    value: Any = None
    known: bool = False
    gap: tuple[float, str] | None = None  # start and reason of the gap it is in
    cursor: float = 0.0  # time up to which its rollups are accumulated
    minute: Rollup = field(default_factory=Rollup)
    hour: Rollup = field(default_factory=Rollup)
    stored: Any = None  # the last sample stored (the deadband is measured from it)
    began: float = 0.0  # when this run began recording it
    first_at: float | None = None  # when this run had its first value
    back: float | None = None  # start of the "removed" gap it is back from (until a value)
    pending: list[tuple[float, Any]] = field(default_factory=list)  # samples not yet written

    @property
    def good(self) -> bool:
        return self.known and self.gap is None


class Recorder:
    def __init__(self, tracks: Mapping[str, Track], now: float) -> None:
        self.started = now  # what came before (in the store) is not in these rollups
        self.minute_start = int(now // MINUTE * MINUTE)
        self.hour_start = int(now // HOUR * HOUR)
        self._states = {pid: _State(track, cursor=now, began=now)
                        for pid, track in tracks.items()}
        self._opened: list[tuple[str, float, str]] = []
        self._closed: list[tuple[str, float, float]] = []
        self._minutes: list[tuple[int, str, Rollup]] = []
        self._hours: list[tuple[int, str, Rollup]] = []
        self._orphans: dict[str, list[tuple[float, Any]]] = {}  # samples of removed points
        self._removed: dict[str, float] = {}  # when points removed by a reload were removed
        self.pending = 0  # samples not yet taken in a batch

    # -- configuration ---------------------------------------------------------------------

    def retrack(self, tracks: Mapping[str, Track], now: float,
                rows: Mapping[str, Sequence[tuple[int, Rollup]]] | None = None,
                taken: Sequence[Batch] = ()) -> None:
        """A reloaded point set: new points start unknown, removed ones are closed (their
        rows stay in the store until retention removes them).

        A point added may have rows of this hour already: an earlier hermesd's, or its own
        before a reload took it out. They begin its rows of this minute and hour, as `resume`
        begins those of every point at the start, so the rows written when these close hold
        them (the row of its few seconds since would replace them). `rows`: the store's minute
        rows of this hour so far, by point (None: not read, added points begin empty);
        `taken`: batches not yet written."""
        self._roll(now)
        for pid in [p for p in self._states if p not in tracks]:
            self._remove(pid, now)
        for pid, track in tracks.items():
            state = self._states.get(pid)
            if state is None:
                state = self._states[pid] = _State(track, cursor=now, began=now)
                removed = self._removed.pop(pid, None)
                if removed is not None:
                    # back: its "removed" gap ends with its first value since (`value`); the
                    # value it held before is none of it (left open until the next start, the
                    # gap covered all the point recorded since: review atk64h)
                    state.back = removed
                if rows is not None:
                    self._begin_again(pid, state, rows.get(pid, ()), taken)
            else:
                state.track = track

    def _remove(self, pid: str, now: float) -> None:
        """A point a reload removed: the gap it is in ends (a device offline: the point is no
        longer recorded at all), a "removed" gap begins, and what it has is handed over. A
        point back with no value since is in its "removed" gap still; a gap begun this very
        instant is the removal's (a point's gaps are known by their start: a second one of
        the same start would be lost)."""
        state = self._states[pid]
        t = self._clamp(state, now, now)
        self._advance(state, t)
        gap, state.gap = state.gap, None
        if state.back is not None:
            removed = state.back
        elif gap is not None and gap[0] >= t:
            removed, gap = gap[0], None
        else:
            removed = t
            self._opened.append((pid, t, REMOVED))
        if gap is not None:
            self._closed.append((pid, gap[0], t))
        self._removed[pid] = removed
        self._finish(pid, t)

    def _begin_again(self, pid: str, state: _State, rows: Sequence[tuple[int, Rollup]],
                     taken: Sequence[Batch]) -> None:
        """An added point's rows of the open minute and hour begin with those it has of them
        (the store's, then the batches' not yet written, then those closed since: later ones
        are the same rows, grown)."""
        own = dict(rows)
        own.update({start: row for start, p, row in (*(m for b in taken for m in b.minutes),
                                                      *self._minutes) if p == pid})
        at = own.get(self.minute_start)
        before: Rollup | None = None
        for start in sorted(own):
            if self.hour_start <= start < self.minute_start:
                before = own[start] if before is None else before.then(own[start])
        if at is not None:
            state.minute = at.then(state.minute)
        if before is not None:
            state.hour = before.then(state.hour)

    def _finish(self, pid: str, now: float) -> None:
        """A removed point: what it has is handed over with the next batch, then it is gone."""
        state = self._states.pop(pid)
        self._advance(state, now)
        if state.minute.good or state.minute.changes:
            self._minutes.append((self.minute_start, pid, state.minute))
        hour = state.hour.then(state.minute)
        if hour.good or hour.changes:
            self._hours.append((self.hour_start, pid, hour))
        self._orphans.setdefault(pid, []).extend(state.pending)

    def resume(self, rows: Mapping[str, Sequence[tuple[int, Rollup]]],
               taken: Sequence[Batch] = ()) -> None:
        """What an earlier hermesd wrote of the hour this one started in: its minute rows (by
        point, the one it stopped in cut short there; `resume_span`). They begin this run's
        rows of that minute and that hour, so the rows written when these close hold all of
        them (not only the time since the start). Those rows may be still open, closed and not
        yet taken, or in batches taken but not yet written (`taken`: the store could not be
        opened at first): a value after an hour's end closes the hour before the store is read,
        and its row, this run's seconds alone, would replace the earlier run's whole hour.
        A rebuilt batch of `taken` (what a crash left: mend.py) holds rows the store does not
        have yet: they are read as the store's."""
        first_minute, first_hour = self.resume_span()
        rows = {pid: list(minutes) for pid, minutes in rows.items()}
        for batch in taken:
            if batch.rebuilt:
                for start, pid, row in batch.minutes:
                    if first_hour <= start <= first_minute:
                        rows[pid] = [m for m in rows.get(pid, []) if m[0] != start] + \
                            [(start, row)]
        taken = [b for b in taken if not b.rebuilt]
        for pid, minutes in rows.items():
            before: Rollup | None = None  # the earlier run's, before the minute this one began
            at: Rollup | None = None  # its row of the minute this one began in
            for start, row in sorted(minutes, key=lambda m: m[0]):
                if start == first_minute:
                    at = row
                elif first_hour <= start < first_minute:
                    before = row if before is None else before.then(row)
            state = self._states.get(pid)
            if at is not None and not self._merge(self._minutes, "minutes", taken,
                                                  (first_minute, pid), at) \
                    and state is not None and self.minute_start == first_minute:
                state.minute = at.then(state.minute)
            # the hour: what this run holds of it begins with the earlier run's minutes (and
            # the minute this run began in once that has closed into the hour)
            whole = before if at is None else at if before is None else before.then(at)
            if whole is None or self._merge(self._hours, "hours", taken, (first_hour, pid),
                                            whole):
                continue
            if state is not None and self.hour_start == first_hour:
                prefix = whole if self.minute_start > first_minute else before
                if prefix is not None:
                    state.hour = prefix.then(state.hour)

    def resume_span(self) -> tuple[int, int]:
        """The minute and the hour this recorder began in: the earlier hermesd's rows that
        `resume` takes lie from the hour's start to the minute's (it stopped before this
        began)."""
        return int(self.started // MINUTE * MINUTE), int(self.started // HOUR * HOUR)

    @staticmethod
    def _merge(rows: list[tuple[int, str, Rollup]], kind: str, taken: Sequence[Batch],
               key: tuple[int, str], earlier: Rollup) -> bool:
        """`earlier` put before the row of `key` this run has closed, if it has one."""
        for held in (*(getattr(b, kind) for b in taken), rows):
            for i, (start, pid, row) in enumerate(held):
                if (start, pid) == key:
                    held[i] = (start, pid, earlier.then(row))
                    return True
        return False

    # -- what happens ----------------------------------------------------------------------

    def value(self, pid: str, value: Any, ts: float, now: float) -> None:
        state = self._states.get(pid)
        if state is None:
            return
        t = self._clamp(state, ts, now)
        self._roll(t)
        self._advance(state, t)
        if not state.known:
            state.first_at = t
            if state.back is not None:  # back in the config: its "removed" gap ends (but
                # a gap of its device begun as it came back is that one in the store, by its
                # start: it goes on; review atk65h)
                if state.gap is None or state.gap[0] != state.back:
                    self._closed.append((pid, state.back, t))
                state.back = None
        state.value = value
        state.known = True
        if state.good:
            state.minute.sample(value, t)
        self._store(state, value, t)

    def set_gap(self, pid: str, reason: str | None, ts: float, now: float | None = None) -> None:
        """Open a gap (`reason`) or close the one the point is in (None)."""
        state = self._states.get(pid)
        if state is None:
            return
        t = self._clamp(state, ts, ts if now is None else now)
        self._roll(t)
        self._advance(state, t)
        if reason is not None and state.gap is None:
            state.gap = (t, reason)
            self._opened.append((pid, t, reason))
        elif reason is None and state.gap is not None:
            self._closed.append((pid, state.gap[0], t))
            state.gap = None
            if state.known:  # its held value counts again from here
                self._store(state, state.value, t, force=True)

    def take_batch(self, now: float, *, final: bool = False) -> Batch:
        """Close the minutes and hours that have ended by `now`; what is to be written.
        `final` (hermesd stops): the open minute and hour too, as far as they go; the next
        hermesd goes on from them (`resume`). Without their rows, the values of the stop's
        minute (and the hour's until then) were in no rollup, and a closed minute or hour is
        answered from its rollup alone."""
        self._roll(now)
        if final:
            for pid, state in self._states.items():
                self._advance(state, now)
                m = state.minute
                if m.good or m.changes:
                    self._minutes.append((self.minute_start, pid, m))
                h = state.hour.then(m)
                if h.good or h.changes:
                    self._hours.append((self.hour_start, pid, h))
        batch = Batch(taken=now, final=final)
        for pid, state in self._states.items():
            if state.pending:
                batch.samples[pid] = state.pending
                state.pending = []
        for pid, samples in self._orphans.items():
            batch.samples.setdefault(pid, []).extend(samples)
        self._orphans.clear()
        self.pending = 0
        batch.minutes, self._minutes = self._minutes, []
        batch.hours, self._hours = self._hours, []
        batch.gaps_opened, self._opened = self._opened, []
        batch.gaps_closed, self._closed = self._closed, []
        return batch

    # -- what queries see of the open minute ------------------------------------------------

    def points(self) -> list[str]:
        return list(self._states)

    def open_minute(self, pid: str) -> tuple[Any, list[tuple[float, Any]]] | None:
        """The value at the open minute's start (None: not good then) and the samples since."""
        state = self._states.get(pid)
        if state is None:
            return None
        first = state.minute.first
        # the samples written by earlier batches of this minute are the store's (a query
        # reads them there): only those not yet taken are here
        return first, [s for s in state.pending if s[0] >= self.minute_start]

    def open_gaps(self, now: float) -> list[tuple[str, float, float, str]]:
        """Gaps not yet in the store: open ones (to `now`) and those closed since the batch."""
        opened = {(pid, start): why for pid, start, why in self._opened}
        out = [(pid, start, end, opened.get((pid, start), "gap"))
               for pid, start, end in self._closed]
        out += [(pid, s.gap[0], now, s.gap[1]) for pid, s in self._states.items()
                if s.gap is not None]
        out += [(pid, s.back, now, REMOVED) for pid, s in self._states.items()
                if s.back is not None]
        # a point removed since the batch: its gap is only here until the next one (atk65h)
        closed = {(pid, start) for pid, start, _ in self._closed}
        out += [(pid, start, now, why) for pid, start, why in self._opened
                if pid not in self._states and (pid, start) not in closed]
        # until a point's first value, what it held before this run is no value of it: the
        # rows count none, and neither does an answer (review h55, finding 7)
        out += [(pid, s.began, now if s.first_at is None else s.first_at, NO_VALUE_YET)
                for pid, s in self._states.items()
                if s.first_at is None or s.first_at > s.began]
        return out

    def pending_rollups(self, pid: str, table: str) -> list[tuple[int, Rollup]]:
        """Closed minutes (`m1`) or hours (`h1`) of a point not yet taken in a batch."""
        rows = self._minutes if table == "m1" else self._hours
        return [(s, r) for s, p, r in rows if p == pid]

    def pending_samples(self, pid: str) -> list[tuple[float, Any]]:
        state = self._states.get(pid)
        return list(state.pending) if state is not None else list(self._orphans.get(pid, ()))

    def view(self, pid: str, now: float) -> RecorderView:
        """What a query about `pid` needs from memory, copied: queries run in a thread while
        the recorder goes on in the event loop."""
        return RecorderView(
            started=self.started, minute_start=self.minute_start, hour_start=self.hour_start,
            opened={pid: o} if (o := self.open_minute(pid)) is not None else {},
            live=self.live_minute(pid, now),
            now_value=self.current(pid),
            rollups={"m1": self.pending_rollups(pid, "m1"), "h1": self.pending_rollups(pid, "h1")},
            samples=self.pending_samples(pid),
            gaps=[g for g in self.open_gaps(now) if g[0] in (pid, "*")])

    def live_minute(self, pid: str, now: float) -> Rollup | None:
        """The open minute's rollup up to `now` (every value, not only the stored samples)."""
        state = self._states.get(pid)
        if state is None:
            return None
        m = state.minute
        live = Rollup(m.first, m.last, m.min, m.max, m.integral, m.good, m.changes,
                      m.last_change)
        if state.good and now > state.cursor:
            live.hold(state.value, now - state.cursor)
        return live

    def current(self, pid: str) -> tuple[Any, bool] | None:
        state = self._states.get(pid)
        return None if state is None or not state.known else (state.value, state.good)

    # -- inside ----------------------------------------------------------------------------

    def _clamp(self, state: _State, ts: float, now: float) -> float:
        """A time we can account to: not before what is already accumulated, not in the
        future (a device's own clock, a stepped clock)."""
        if not math.isfinite(ts):
            ts = now
        return max(state.cursor, min(ts, now), float(self.minute_start))

    def _advance(self, state: _State, t: float) -> None:
        if t > state.cursor:
            if state.good:
                state.minute.hold(state.value, t - state.cursor)
            state.cursor = t

    def _store(self, state: _State, value: Any, t: float, *, force: bool = False) -> None:
        """A sample for the store, unless it is within the deadband of the last one stored."""
        band = state.track.deadband
        if not force and band is not None and state.stored is not None:
            new, old = numeric(value), numeric(state.stored)
            if new is not None and old is not None and not band.exceeded(old, new):
                return
        state.stored = value
        state.pending.append((t, value))
        self.pending += 1

    def _roll(self, t: float) -> None:
        """Close every minute (and hour) that ends at or before `t`."""
        if t < self.minute_start + MINUTE:
            return
        target = int(t // MINUTE * MINUTE)
        if (target - self.minute_start) // MINUTE > MAX_ROLL:
            self._jump(target)
            return
        while self.minute_start + MINUTE <= t:
            self._close_minute(self.minute_start + MINUTE)

    def _close_minute(self, end: int) -> None:
        hour_ends = end % HOUR == 0
        for pid, state in self._states.items():
            self._advance(state, float(end))
            m = state.minute
            if m.good or m.changes:
                self._minutes.append((self.minute_start, pid, m))
            state.hour = state.hour.then(m)
            if hour_ends:
                h = state.hour
                if h.good or h.changes:
                    self._hours.append((self.hour_start, pid, h))
            first = state.value if state.good else None
            state.minute = Rollup(first=first)
            if hour_ends:
                state.hour = Rollup(first=first)
        self.minute_start = end
        if hour_ends:
            self.hour_start = end

    def _jump(self, target: int) -> None:
        """Close the open minute and hour where they are and start again at `target`, with
        the time between recorded as a gap of every point."""
        end = self.minute_start + MINUTE
        self._close_minute(end)
        if end % HOUR:
            for pid, state in self._states.items():
                h = state.hour
                if h.good or h.changes:
                    self._hours.append((self.hour_start, pid, h))
        for pid, state in self._states.items():
            state.cursor = float(target)
            state.hour = Rollup(first=state.minute.first)
            self._opened.append((pid, float(end), "no record (the clock jumped or hermesd "
                                                  "was paused)"))
            self._closed.append((pid, float(end), float(target)))
        self.minute_start = target
        self.hour_start = target // HOUR * HOUR


@dataclass(frozen=True)
class RecorderView:
    """A copy of what the recorder holds about one point (see `Recorder.view`)."""

    started: float
    minute_start: int
    hour_start: int
    opened: dict[str, tuple[Any, list[tuple[float, Any]]]]
    live: Rollup | None
    now_value: tuple[Any, bool] | None
    rollups: dict[str, list[tuple[int, Rollup]]]
    samples: list[tuple[float, Any]]
    gaps: list[tuple[str, float, float, str]]

    def open_minute(self, pid: str) -> tuple[Any, list[tuple[float, Any]]] | None:
        return self.opened.get(pid)

    def pending_rollups(self, pid: str, table: str) -> list[tuple[int, Rollup]]:
        return self.rollups[table]

    def live_minute(self, pid: str, now: float) -> Rollup | None:
        return self.live

    def current(self, pid: str) -> tuple[Any, bool] | None:
        return self.now_value

    def pending_samples(self, pid: str) -> list[tuple[float, Any]]:
        return self.samples

    def open_gaps(self, now: float) -> list[tuple[str, float, float, str]]:
        return self.gaps
