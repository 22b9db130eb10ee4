"""What a crash (a power cut, SIGKILL) left unwritten, rebuilt when the store opens again.

A clean stop's final batch holds the minute and hour it fell in, as far as they went
(`Recorder.take_batch(final=True)`). A crash writes nothing after its last batch: the minute it
fell in has samples but no m1 row, its hour no h1 row, and a closed minute or hour is answered
from its rollup alone, so what was recorded in them was in no answer once they closed (after a
power cut, the last values before it are the ones asked about). `crash_batch` is that final
batch, rebuilt as of the last batch's time (`seen`): the minute from its samples as the
recorder accounts it (time-weighted, good only outside the gaps; to within the deadband, as any
part of a minute is answered), the hour from its minute rows. The next run goes on from them as
after a clean stop (`Recorder.resume`), and the rows it writes when the minute and hour close
replace these. Blocking (the store reads): call from a thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hermesd.history.recorder import HOUR, MINUTE, Batch
from hermesd.history.series import REMOVED, Rollup, stretch
from hermesd.history.store import Store


def crash_batch(store: Store, seen: float) -> Batch | None:
    """The final batch of the run that wrote the batch of `seen`, if it never wrote one
    (None: it stopped cleanly). Written, it marks that run stopped, so it is built once."""
    if store.stopped() == seen:
        return None
    minute, hour = int(seen // MINUTE * MINUTE), int(seen // HOUR * HOUR)
    began = store.began(seen)
    batch = Batch(taken=seen, final=True, rebuilt=True)
    rows = store.minutes(hour, minute)
    for name in store.names():
        row = _last_minute(store, name, minute, seen, began)
        if row is not None:
            batch.minutes.append((minute, name, row))
            rows[name] = [r for r in rows.get(name, []) if r[0] != minute] + [(minute, row)]
    for name, minutes in rows.items():
        h = _hour(hour, minutes)
        if h.good or h.changes:
            batch.hours.append((hour, name, h))
    return batch


def _last_minute(store: Store, name: str, minute: int, seen: float,
                 began: float | None) -> Rollup | None:
    """A point's minute of the crash, up to `seen` (None: nothing in it, or a row of it that
    is whole already)."""
    rows = store.rollups("m1", name, [minute - MINUTE, minute])
    written = rows.get(minute)
    samples = store.samples(name, minute)
    if not samples and not rows:
        return None  # a point quiet and not good since the minute before (or long removed)
    gaps = store.gaps(name, minute, seen)
    removed = [(start, end) for start, end, why in gaps
               if why == REMOVED and end > minute and (began is None or start >= began)]
    if removed:
        # removed by a reload: the run wrote its row of the minute then (if removed in it);
        # added back, the point knew no value until its first sample since
        start, back = max(removed)
        if back >= seen:
            return None
        part = stretch(None, minute, [s for s in samples if s[0] >= back], gaps, back, seen)
        if written is not None and _holds(written, part):
            return None  # (a later removal wrote a row that holds it: review atk65h)
        whole = written.then(part) if written is not None and start >= minute else part
    elif began is not None and began >= minute:
        # the run began in this minute and knew no value before its first sample; what an
        # earlier run had of the minute is its row (written at its stop, or rebuilt so)
        part = stretch(None, minute, [s for s in samples if s[0] >= began], gaps, began, seen)
        if written is not None and _holds(written, part):
            return None
        whole = part if written is None else written.then(part)
    elif written is not None:
        return None  # written by the run itself, whole (no removal in it: that is above)
    else:
        first = _held(store, name, minute, began, rows.get(minute - MINUTE))
        whole = stretch(first, minute, samples, gaps, minute, seen)
    return whole if whole.good or whole.changes else None


def _holds(written: Rollup, part: Rollup) -> bool:
    """The minute's row already holds the crashed run's part: the run wrote it itself (a point
    it stopped recording, removed by a reload), or a hermesd that did not mark its clean stops
    wrote it at its stop."""
    return part.last_change is not None and written.last_change is not None and \
        written.last_change >= part.last_change


def _held(store: Store, name: str, minute: int, began: float | None,
          before: Rollup | None) -> Any:
    """The value the run held at `minute` (None: it knew none): the last good one of the
    minute before, or, if it began in that minute, its own last sample there."""
    if began is not None and began >= minute - MINUTE:
        own = [v for t, v in store.samples(name, minute - MINUTE) if t >= began]
        return own[-1] if own else None
    return before.last if before is not None else None


def _hour(hour: int, minutes: Sequence[tuple[int, Rollup]]) -> Rollup:
    """An hour's rollup from its minute rows, chained as the recorder chains its minutes
    (a minute with no row had nothing)."""
    rows = sorted(minutes, key=lambda m: m[0])
    total = Rollup(first=rows[0][1].first if rows and rows[0][0] == hour else None)
    for _, row in rows:
        total = total.then(row)
    return total
