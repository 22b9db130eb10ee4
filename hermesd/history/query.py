"""A point's statistics over a period, read from the store and from what is still in memory.

A period is cut into whole hours (read from `h1`), whole minutes (`m1`) and the minutes it
only partly covers (rebuilt from their samples); the open minute and the batches not yet
written come from memory, so an answer includes the last seconds. Only whole closed hours
and minutes are read from rollups: a month is ~720 hour rows, found by key. Blocking (the
store reads): call from a thread.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hermesd.history.recorder import HOUR, MINUTE, Batch, Recorder, RecorderView
from hermesd.history.series import Gap, Rollup, merge_gaps, stretch, value_at
from hermesd.history.store import Store


@dataclass(frozen=True, slots=True)
class Summary:
    rollup: Rollup
    gaps: list[Gap]  # merged, clipped to the period
    start: float
    end: float  # the period's end, no later than now

    @property
    def span(self) -> float:
        return max(0.0, self.end - self.start)

    @property
    def coverage(self) -> float:
        return 1.0 if self.span == 0 else min(1.0, self.rollup.good / self.span)


class Reader:
    """Queries over a store, a recorder and the batches taken but not yet written."""

    def __init__(self, store: Store, recorder: Recorder | RecorderView, unwritten: Sequence[Batch]) -> None:
        self.store = store
        self.recorder = recorder
        self.unwritten = list(unwritten)

    def summary(self, pid: str, start: float, end: float, now: float) -> Summary:
        end = min(end, now)
        gaps = self.gaps(pid, start, max(end, start), now)
        plan = self._plan(start, end)
        hours = [s for kind, s, _ in plan if kind == "h"]
        h_rows = self._rollups("h1", pid, hours)
        minute_runs = _runs([s for kind, s, _ in plan if kind == "m"], MINUTE)
        m_rows: dict[int, Rollup] = {}
        for run in minute_runs:
            m_rows.update(self._rollups("m1", pid, run))
        total = Rollup()
        started = False
        for kind, s, e in plan:
            if kind == "h":
                part = h_rows.get(int(s), Rollup())
            elif kind == "m":
                part = m_rows.get(int(s), Rollup())
            elif s == self.recorder.minute_start and e == now and \
                    self.recorder.started < s and \
                    (live := self.recorder.live_minute(pid, now)) is not None:
                part = live  # the open minute so far, from every value seen
            else:
                minute = int(s // MINUTE * MINUTE)
                first, samples = self._minute(pid, minute)
                part = stretch(first, minute, samples, gaps, s, e)
            total = part if not started else total.then(part)
            started = True
        return Summary(total, merge_gaps(gaps, start, end), start, end)

    def value_at(self, pid: str, t: float, now: float) -> tuple[Any, bool]:
        """The value at `t` and whether it was good then."""
        t = min(t, now)
        minute = int(t // MINUTE * MINUTE)
        first, samples = self._minute(pid, minute)
        value = value_at(first, samples, t)
        good = value is not None and not any(a <= t < b for a, b, _ in self.gaps(pid, t, t, now))
        return value, good

    def last_change_to(self, pid: str, value: Any, start: float, end: float, now: float
                       ) -> float | None:
        """When the point last changed to `value` within [start, end] (None: not then).
        Hours and minutes without samples are skipped by their rollups."""
        end = min(end, now)
        hour = int(end // HOUR * HOUR)
        first_hour = int(start // HOUR * HOUR)
        hours = self._rollups("h1", pid, [float(h) for h in range(first_hour, hour + 1, HOUR)])
        while hour >= first_hour:
            if hour >= self.recorder.hour_start or hours.get(hour, Rollup()).changes:
                found = self._last_change_in_hour(pid, value, hour, start, end)
                if found is not None:
                    return found
            hour -= HOUR
        return None

    def _last_change_in_hour(self, pid: str, value: Any, hour: int, start: float,
                             end: float) -> float | None:
        minutes = [float(m) for m in range(hour, hour + HOUR, MINUTE) if m <= end]
        rows = self._rollups("m1", pid, minutes)
        for minute in reversed([int(m) for m in minutes]):
            if minute + MINUTE <= start:
                break
            if minute < self.recorder.minute_start and not rows.get(minute, Rollup()).changes:
                continue
            first, samples = self._minute(pid, minute)
            previous = [first] + [v for _, v in samples]
            for i in range(len(samples) - 1, -1, -1):
                t, v = samples[i]
                if start <= t <= end and v == value and previous[i] != value:
                    return t
        return None

    def gaps(self, pid: str, start: float, end: float, now: float) -> list[Gap]:
        # by whose and when it began: the point's own gap and hermesd's not running may begin
        # at the same instant (a device gone at the last batch before a power cut)
        found: dict[tuple[str, float], Gap] = {}
        for p, a, b, why in self.store.gaps_of(pid, start, end + 1e-9):
            found[(p, a)] = (a, b, why)
        for batch in self.unwritten:
            opened = {(p, a): why for p, a, why in batch.gaps_opened}
            for (p, a), why in opened.items():
                if p in (pid, "*"):
                    found[(p, a)] = (a, now, why)
            for p, a, b in batch.gaps_closed:
                if p in (pid, "*"):
                    old = found.get((p, a))
                    found[(p, a)] = (a, b, old[2] if old else "gap")
        for p, a, b, why in self.recorder.open_gaps(now):
            if p in (pid, "*"):
                old = found.get((p, a))  # (a gap closed since the batch: its reason is here)
                found[(p, a)] = (a, b, old[2] if why == "gap" and old else why)
        return [g for g in found.values() if g[0] <= end and g[1] >= start]

    # -- inside ----------------------------------------------------------------------------

    def _plan(self, start: float, end: float) -> list[tuple[str, float, float]]:
        """The period as ("h", hour) whole closed hours, ("m", minute) whole closed minutes,
        and ("p", from, to) pieces rebuilt from samples."""
        open_minute = self.recorder.minute_start
        open_hour = self.recorder.hour_start
        plan: list[tuple[str, float, float]] = []
        t = start
        while t < end:
            if t % HOUR == 0 and t + HOUR <= min(end, open_hour):
                # whole hours at once
                n = int((min(end, open_hour) - t) // HOUR)
                plan += [("h", t + i * HOUR, t + (i + 1) * HOUR) for i in range(n)]
                t += n * HOUR
            elif t % MINUTE == 0 and t + MINUTE <= min(end, open_minute):
                plan.append(("m", t, t + MINUTE))
                t += MINUTE
            else:
                e = min(end, (t // MINUTE + 1) * MINUTE)
                plan.append(("p", t, e))
                t = e
        return plan

    def _rollups(self, table: str, pid: str, starts: list[float]) -> dict[int, Rollup]:
        if not starts:
            return {}
        keys = [int(s) for s in starts]
        rows = self.store.rollups(table, pid, keys)
        wanted = set(keys)
        for batch in self.unwritten:
            for s, p, r in (batch.minutes if table == "m1" else batch.hours):
                if p == pid and s in wanted:
                    rows[s] = r
        for s, r in self.recorder.pending_rollups(pid, table):
            if s in wanted:
                rows[s] = r
        return rows

    def _minute(self, pid: str, minute: int) -> tuple[Any, list[tuple[float, Any]]]:
        """The value at a minute's start and the samples stored in it, in the order they came
        (two at one time: the later holds, as the recorder's does)."""
        def inside(samples: Iterable[tuple[float, Any]]) -> list[tuple[float, Any]]:
            return [s for s in samples if minute <= s[0] < minute + MINUTE]

        stored = self.store.samples(pid, minute)
        taken = [s for batch in self.unwritten for s in inside(batch.samples.get(pid, ()))]
        if minute > self.recorder.minute_start:
            # after the open minute (nothing happened since): the value it holds now
            current = self.recorder.current(pid)
            return (current[0] if current and current[1] else None), _in_order(stored, taken)
        if minute == self.recorder.minute_start:
            # the open minute: what the recorder saw, and what earlier batches (or a hermesd
            # before a restart) wrote of the same minute
            first, recent = self.recorder.open_minute(pid) or (None, [])
            return first, _in_order(stored, taken, recent)
        row = self._rollups("m1", pid, [minute]).get(minute)
        return (row.first if row is not None else None), \
            _in_order(stored, taken, inside(self.recorder.pending_samples(pid)))


def _in_order(stored: list[tuple[float, Any]], taken: list[tuple[float, Any]],
              held: Iterable[tuple[float, Any]] = ()) -> list[tuple[float, Any]]:
    """The samples of the store, of the batches not yet written and of the recorder, each
    once, in the order they came, by time. A batch being written is in the store and among
    the unwritten alike: of those two, a sample counts as often as in the one that has it
    more; the batches are apart from each other and from what the recorder holds (a device
    may send a, b, a at one time: three samples; review atk64h, atk64f)."""
    out = list(stored)
    have = Counter(stored)
    mine: Counter[tuple[float, Any]] = Counter()
    for sample in taken:
        mine[sample] += 1
        if mine[sample] > have[sample]:
            have[sample] += 1
            out.append(sample)
    out.extend(held)
    return sorted(out, key=lambda s: s[0])


def _runs(starts: list[float], step: int) -> list[list[float]]:
    """Contiguous runs of starts (each run is read with one keyed query)."""
    runs: list[list[float]] = []
    for s in starts:
        if runs and s - runs[-1][-1] == step:
            runs[-1].append(s)
        else:
            runs.append([s])
    return runs
