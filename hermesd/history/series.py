"""Statistics of one point over a stretch of time, from piecewise-constant values.

A point's value holds from one sample to the next. Time counts only while the point is *good*:
known, and not in a gap (device offline, value stale, hermesd not running). A `Rollup` is what
a stretch boils down to: min, max, the time integral (mean = integral / good seconds; for a
bool it is the seconds it was on), the first and last value, how many samples were stored and
when the last was. Rollups of adjacent stretches combine, so a month is read from hour rows.
Pure functions only: no I/O, no clock.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Gap = tuple[float, float, str]  # start, end, reason
NOT_RUNNING = "hermesd was not running"  # the reason of the gap between two runs
#: ...and of a point's time from this run's start (or its addition) to its first value: what
#: it held before is not known to hold still (a device offline across a restart)
NO_VALUE_YET = "no value since hermesd started"
#: ...and of a point's time out of the config, and back in it until its first value
REMOVED = "removed from the config"


@dataclass(slots=True)
class Rollup:
    first: Any = None  # the value at the stretch's start (None: unknown or not good there)
    last: Any = None  # the last good value in the stretch
    min: float | None = None
    max: float | None = None
    integral: float = 0.0  # value x seconds over good time (numbers; bools as 0/1)
    good: float = 0.0  # seconds of good time
    changes: int = 0  # samples stored in the stretch
    last_change: float | None = None  # time of the last sample in it

    def hold(self, value: Any, seconds: float) -> None:
        """The value held, good, for `seconds` (> 0)."""
        number = numeric(value)
        self.good += seconds
        self.last = value
        if number is not None:
            self.integral += number * seconds
            self._extend(number)

    def sample(self, value: Any, t: float) -> None:
        """A sample stored at `t` while good."""
        self.changes += 1
        self.last_change = t
        self.last = value
        number = numeric(value)
        if number is not None:
            self._extend(number)

    def _extend(self, number: float) -> None:
        if self.min is None or number < self.min:
            self.min = number
        if self.max is None or number > self.max:
            self.max = number

    def then(self, later: Rollup) -> Rollup:
        """This stretch followed by `later`."""
        lo = [x for x in (self.min, later.min) if x is not None]
        hi = [x for x in (self.max, later.max) if x is not None]
        return Rollup(first=self.first, last=later.last if later.last is not None else self.last,
                      min=min(lo) if lo else None, max=max(hi) if hi else None,
                      integral=self.integral + later.integral, good=self.good + later.good,
                      changes=self.changes + later.changes,
                      last_change=later.last_change if later.last_change is not None
                      else self.last_change)

    @property
    def mean(self) -> float | None:
        return self.integral / self.good if self.good > 0 and self.min is not None else None

    def row(self) -> tuple[Any, ...]:
        return (self.first, self.last, self.min, self.max, self.integral, self.good,
                self.changes, self.last_change)

    @classmethod
    def of_row(cls, row: Sequence[Any]) -> Rollup:
        return cls(*row)


def numeric(value: Any) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    return None


def merge_gaps(gaps: Iterable[Gap], start: float, end: float) -> list[Gap]:
    """Gaps clipped to [start, end), sorted, overlapping ones joined (the first reason kept)."""
    clipped = sorted((max(a, start), min(b, end), why) for a, b, why in gaps
                     if a < end and b > start)
    out: list[Gap] = []
    for a, b, why in clipped:
        if out and a <= out[-1][1]:
            last = out[-1]
            out[-1] = (last[0], max(last[1], b), last[2])
        else:
            out.append((a, b, why))
    return out


def stretch(first: Any, origin: float, samples: Sequence[tuple[float, Any]],
            gaps: Sequence[Gap], start: float, end: float) -> Rollup:
    """The rollup of [start, end) for a point whose value was `first` at `origin` (<= start;
    None: unknown) and then the `samples` (sorted by time), outside the merged `gaps`."""
    times = [t for t, _ in samples]
    i = bisect_left(times, start)  # a sample at `start` belongs to this stretch
    value = samples[i - 1][1] if i else first
    if i == 0 and first is None:
        value = None
    gap_list = merge_gaps(gaps, start, end)

    def good_at(t: float) -> bool:
        return not any(a <= t < b for a, b, _ in gap_list)

    out = Rollup(first=value if value is not None and good_at(start) else None)
    # a sample where a point's gap ends is its value held again (or the one that ended the
    # gap), which the recorder stores and never counts as a change (a run's first value, at
    # the end of the time hermesd was not running or had no value yet, it counts; so does a
    # point's first value once back in the config)
    ends = {b for _, b, why in gap_list if why not in (NOT_RUNNING, NO_VALUE_YET, REMOVED)}
    edges = sorted({start, end, *(t for t in times[i:] if t < end),
                    *(x for a, b, _ in gap_list for x in (a, b) if start < x < end)})
    j = i
    for k in range(len(edges) - 1):
        t0, t1 = edges[k], edges[k + 1]
        while j < len(samples) and samples[j][0] <= t0:
            if samples[j][0] >= start and good_at(samples[j][0]) and samples[j][0] not in ends:
                out.sample(samples[j][1], samples[j][0])
            value = samples[j][1]
            j += 1
        if value is not None and t1 > t0 and good_at(t0):
            out.hold(value, t1 - t0)
    return out


def value_at(first: Any, samples: Sequence[tuple[float, Any]], t: float) -> Any:
    times = [s for s, _ in samples]
    i = bisect_right(times, t)
    return samples[i - 1][1] if i else first
