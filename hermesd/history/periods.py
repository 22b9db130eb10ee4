"""Periods of the past: from `history` arguments (ISO 8601 times, durations like `2h`) to
epoch seconds. Times without an offset are local times of this gateway (what people on the
floor mean by "8:00"). Bad input raises BadRequest naming what was wrong.
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime, timedelta

from hermesd.core.errors import BadRequest

_SINCE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h|d|w)\s*$", re.IGNORECASE)
_UNIT = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
#: the longest period one question may cover
MAX_SPAN = 400 * 86400.0
#: the times a period may name: what an ISO 8601 answer can say (UTC years 1970..9999);
#: history began long after 1970
_EARLIEST = 0.0
_LATEST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()
STATS = ("min", "max", "mean", "last", "changed_at", "on_time", "at")


def duration(text: str) -> float:
    match = _SINCE.match(text)
    if not match:
        raise BadRequest(f"{text[:40]!r} is not a duration like 30m, 2h or 7d")
    seconds = float(match.group(1)) * _UNIT[match.group(2).lower()]
    if not 0 < seconds <= MAX_SPAN:
        raise BadRequest(f"{text[:40]!r} is out of range (up to {MAX_SPAN / 86400:g} days)")
    return seconds


def instant(text: str, now: float) -> float:
    """An ISO 8601 time (`2026-11-30T08:00:00Z`, `2026-11-30 08:00`, local if it names no
    offset), `now`, or a duration before now (`2h`)."""
    text = text.strip()
    if text == "now":
        return now
    if _SINCE.match(text):
        return now - duration(text)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise BadRequest(f"{text[:40]!r} is not a time like 2026-11-30T08:00:00Z, "
                         "a duration like 2h, or now") from None
    try:
        ts = parsed.timestamp()  # a naive time is local time
    except (ValueError, OverflowError, OSError):  # year 1 local is before year 1 in UTC
        raise BadRequest(f"{text[:40]!r} is not a usable time") from None
    if not (math.isfinite(ts) and _EARLIEST <= ts <= _LATEST):
        raise BadRequest(f"{text[:40]!r} is not a usable time (years 1970 to 9999)")
    return ts


def period(start: str | None, end: str | None, since: str | None, now: float,
           default: float = 86400.0) -> tuple[float, float]:
    """[from, to) from the arguments: `since` (a duration back from now) or `from`/`to`."""
    if since is not None and start is not None:
        raise BadRequest("give since or from, not both")
    to = instant(end, now) if end is not None else now
    if since is not None:
        frm = to - duration(since)
    elif start is not None:
        frm = instant(start, now)
    else:
        frm = to - default
    if frm > to:
        raise BadRequest("from is after to")
    if frm > now:
        raise BadRequest(f"the period begins at {iso(frm)}, in the future: "
                         "history holds only the past")
    if to - frm > MAX_SPAN:
        raise BadRequest(f"a period may cover at most {MAX_SPAN / 86400:g} days")
    return frm, to


def iso(ts: float) -> str:
    """UTC, millisecond, with Z: the shape of every time in an answer."""
    tm = time.gmtime(ts)  # %Y would not pad a year below 1000
    return f"{tm.tm_year:04d}" + time.strftime("-%m-%dT%H:%M:%S", tm) + \
        f".{int(ts % 1 * 1000):03d}Z"


def local_midnight(now: float, days_back: int = 0) -> float:
    day = datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return (day - timedelta(days=days_back)).timestamp()
