"""The `history` section and the per-point `alarms` key: what the plant remembers.

    history:                # off unless this section is given (enabled: false turns it off)
      flush: 60s            # samples are written in one batch this often (a power cut loses
                            # at most the last batch); alarms are written at once
      keep: 90d             # samples, rollups, gaps and alarms older than this are removed
      max_size: 200M        # and the oldest samples go first when the store grows past this

    points:
      boiler3_temp:
        deadband: 0.5       # (config/drivers) a sample is stored when it moved more than this
        alarms: {high: 540, low: 20, hysteresis: 5, delay: 30s}
      feed_pump1_run:
        alarms: {state: false, delay: 10s}   # a bool point alarms while it is in this state

Never fixes a bad entry: every problem is reported with its dotted path (hermesd/config/reader.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from hermesd.config.operations import MIB, read_size
from hermesd.config.reader import Section, describe


@dataclass(frozen=True, slots=True)
class History:
    enabled: bool = False
    flush: float = 60.0  # seconds between batches written to the store
    keep: float = 90 * 86400.0  # seconds anything is kept
    max_size: int = 200 * MIB  # bytes of the store (the oldest samples are removed past it)


@dataclass(frozen=True, slots=True)
class PointAlarms:
    """A point's alarm limits. A numeric point alarms above `high` or below `low`; it clears
    once back by `hysteresis`. A bool point alarms while its value equals `state`. A condition
    must hold for `delay` seconds before the alarm is raised."""

    high: float | None = None
    low: float | None = None
    state: bool | None = None
    hysteresis: float = 0.0
    delay: float = 0.0


def read_history(s: Section, present: bool) -> History:
    defaults = History()
    enabled = s.flag("enabled", present)
    flush = s.duration("flush", defaults.flush, min=1.0, max=3600.0)
    keep = s.duration("keep", defaults.keep, min=3600.0)
    max_size = defaults.max_size
    given = read_size(s, "max_size", "200M or 2G")
    if given is not None:
        if given[1] >= MIB:
            max_size = given[1]
        else:
            s.problem("max_size", f"{given[0]} is too small for a store (at least 1M)")
    s.finish()
    return History(enabled=enabled, flush=flush, keep=keep, max_size=max_size)


def read_alarms(s: Section, kind: str) -> PointAlarms | None:
    """`alarms:` of a point of value kind `kind` (bool, int, float, string)."""
    if s.raw("alarms", None) is None:
        return None
    a = s.section("alarms")
    high = a.number("high", None)
    low = a.number("low", None)
    state = a.raw("state", None)
    hysteresis = a.number("hysteresis", 0.0, min=0.0)
    delay = a.duration("delay", 0.0, max=86400.0)
    a.finish()
    if kind == "bool":
        if high is not None or low is not None:
            a.problem("high" if high is not None else "low",
                      "a bool point alarms on a state (state: true or false), not on limits")
        if not isinstance(state, bool):
            a.problem("state", f"a bool point alarms on a state: true or false, got "
                               f"{describe(state)}")
            return None
        if hysteresis:
            a.problem("hysteresis", "a bool point takes no hysteresis (use delay)")
        return PointAlarms(state=state, delay=delay)
    if kind not in ("int", "float"):
        a.problem(None, f"a {kind} point takes no alarms")
        return None
    if state is not None:
        a.problem("state", "a numeric point alarms on limits (high, low), not on a state")
    if high is None and low is None:
        a.problem(None, "give high, low or both")
        return None
    if high is not None and low is not None and low >= high:
        a.problem("low", f"low {low:g} must be below high {high:g}")
    elif high is not None and low is not None and hysteresis and hysteresis >= high - low:
        # a high alarm would clear only below the low limit, a low one only above the high
        a.problem("hysteresis", f"{hysteresis:g} must be less than high - low "
                                f"({high - low:g})")
    return PointAlarms(high=None if high is None else float(high),
                       low=None if low is None else float(low),
                       hysteresis=float(hysteresis or 0.0), delay=float(delay or 0.0))
