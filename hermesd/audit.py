"""The audit log: one JSON line per action (who, what, route, result, trace id), in two files.

`audit.jsonl` (rotated by size, hermesd/audit_files.py) has every action; the trail
(`audit-trail-YYYY-MM.jsonl`, one file per month, kept by time: `audit.retention`) has every
write intent and outcome and every other action that may touch a device, so that no flood of
reads can push them out. Reads, refusals and other attempts are bounded per peer
(hermesd/audit_records.py): past a peer's budget they are counted into aggregate records instead
of written one by one.

Records are appended and fsynced in batches by one writer task (group commit): a record that
must be durable (a write's intent) is flushed at once, others at most `flush_delay` later, so a
stream of reads costs a few fsyncs a second, not one each. A write is held until its record is
on disk in both files — the intent before the device is touched, the outcome after — and if
either cannot be written, writes are refused while reads go on. The writer never dies of a
record: each is encoded on its own, and one that is not valid JSON is written escaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hermesd.audit_files import ActivityLog, Trail
from hermesd.audit_records import (
    TEXT_LIMIT,
    TRAIL_TEXT_LIMIT,
    Budgets,
    Kind,
    PeerBudget,
    bound,
    classify,
    encode,
    encode_plain,
    iso,
    printable,
    within_bounds,
)

log = logging.getLogger(__name__)

DEFAULT_RETENTION = 400 * 86400.0
MAX_OPEN_INTENTS = 4096  # trace ids of intents whose outcome is still to come
STOP_TIMEOUT = 2.0  # seconds the last records may take to reach the disk when stopping
#: outcomes of writes a full or failing disk did not take, kept to be written again (the
#: oldest dropped past this many), and how often they are tried again with nothing new
MAX_HELD = 10_000
#: of those, the most logged one by one when hermesd stops with the trail still failing
MAX_LOGGED_AT_STOP = 1000
LOGGED_RECORD_LIMIT = 16384  # characters of each (the journal takes lines of 48 KiB)
HELD_RETRY = 5.0


class AuditUnavailable(Exception):
    """The audit log cannot be written: actions that must be audited are refused."""


@dataclass(slots=True)
class _Entry:
    ts: float
    seq: int
    record: Any
    kind: Kind
    future: asyncio.Future[None] | None = None
    trail_only: bool = False  # held for the trail, already in audit.jsonl


class AuditLog:
    def __init__(self, path: Path, *, max_bytes: int = 10 * 1024 * 1024, keep: int = 5,
                 retention: float = DEFAULT_RETENTION, flush_delay: float = 0.2,
                 executor: Executor | None = None, budgets: Budgets | None = None) -> None:
        self.path = path
        self._executor = executor  # the thread that does the blocking write and fsync
        self.flush_delay = flush_delay
        self.activity = ActivityLog(path, max_bytes, keep)
        self.trail = Trail(path.parent, f"{path.name.split('.')[0]}-trail", retention)
        self.budget = PeerBudget(budgets, trusted=frozenset({0, os.geteuid()}))
        self._urgent = asyncio.Event()
        self._queue: list[_Entry] = []
        #: trail records of write outcomes a batch could not write: written again, first
        self._held: list[_Entry] = []
        self._wake = asyncio.Event()
        self._intents: OrderedDict[str, None] = OrderedDict()
        self._seq = 0
        self.trail_failing: str | None = None  # why the trail cannot be written, while it cannot
        self.activity_failing: str | None = None
        self.records = 0  # lines written to audit.jsonl
        self.trail_records = 0
        self.escaped = 0  # records written escaped (they were not valid JSON)

    # -- settings ------------------------------------------------------------------------------

    @property
    def max_bytes(self) -> int:
        return self.activity.max_bytes

    @property
    def keep(self) -> int:
        return self.activity.keep

    def reconfigure(self, *, max_bytes: int, keep: int, retention: float) -> None:
        self.activity.max_bytes = max_bytes
        self.activity.keep = keep
        self.trail.retention = retention

    @property
    def failing(self) -> str | None:
        """Why the audit log cannot be written (writes are refused), None while it can."""
        return self.trail_failing or self.activity_failing

    def status(self) -> dict[str, Any]:
        current = self.trail.current
        return {"records": self.records, "failing": self.failing,
                "trail": {"records": self.trail_records,
                          "file": current.name if current is not None else None,
                          "retention_days": round(self.trail.retention / 86400, 1)},
                "counted": self.budget.counted, "escaped": self.escaped}

    # -- files ---------------------------------------------------------------------------------

    def open(self) -> None:
        """Open both files; one that cannot be opened is logged and refuses writes until it can."""
        try:
            self.activity.open()
        except OSError as exc:
            self._failed("activity", exc)
        try:
            self.trail.open()
        except OSError as exc:
            self._failed("trail", exc)

    def close(self) -> None:
        self.activity.close()
        self.trail.close()

    # -- appending -----------------------------------------------------------------------------

    def append(self, record: dict[str, Any]) -> None:
        """Queue a record; it reaches the disk within one batch (or is counted, past a budget)."""
        now = time.time()
        try:
            after_intent = False
            if self._intents:  # (none open: no record is the outcome of one)
                trace = record.get("trace_id") if isinstance(record, dict) else None
                if isinstance(trace, str) and trace in self._intents:  # an intent's outcome
                    del self._intents[trace]
                    after_intent = True
            kind = classify(record, after_intent=after_intent)
            if not self.budget.admit(kind, record, now):
                return
        except Exception:  # an odd record is still written (escaped), as an attempt
            log.exception("cannot classify an audit record; it is kept as an attempt")
            kind = Kind.ATTEMPT
        self._seq = seq = self._seq + 1
        self._queue.append(_Entry(now, seq, record, kind))
        self._wake.set()

    async def append_durable(self, record: dict[str, Any]) -> None:
        """Queue a record for the trail and wait until it is fsynced; raises AuditUnavailable if
        it cannot be. While a file cannot be opened, each durable record tries it again."""
        trace = record.get("trace_id") if isinstance(record, dict) else None
        if isinstance(trace, str):  # its outcome belongs to the trail too
            self._intents[trace] = None
            while len(self._intents) > MAX_OPEN_INTENTS:
                self._intents.popitem(last=False)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Entry(time.time(), self._next_seq(), record, Kind.TRAIL, fut))
        self._wake.set()
        self._urgent.set()
        try:
            await fut
        except AuditUnavailable:
            if isinstance(trace, str):  # refused, nothing sent: its answer is no outcome
                self._intents.pop(trace, None)
            raise

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    # -- the writer ----------------------------------------------------------------------------

    async def run(self) -> None:
        """The writer: drains the queue in batches, one write and one fsync per file and batch."""
        try:
            while True:
                await self._wait()
                self._wake.clear()
                self._urgent.clear()
                now = time.time()
                for kind, aggregate in self.budget.due(now):
                    self._queue.append(_Entry(now, self._next_seq(), aggregate, kind))
                batch, self._queue, self._held = self._held + self._queue, [], []
                if batch:
                    await self._commit(batch)
        finally:
            for kind, aggregate in self.budget.drain():
                self._queue.append(_Entry(time.time(), self._next_seq(), aggregate, kind))
            if self._queue or self._held:
                batch, self._queue, self._held = self._held + self._queue, [], []
                trail, activity, _ = self._lines(batch)
                # in the disk thread when there is one: after a batch still being written
                errors: tuple[BaseException | None, ...] = (None, None)
                try:
                    if self._executor is not None:
                        errors = self._executor.submit(self._write, trail, activity,
                                                       time.time()).result(timeout=STOP_TIMEOUT)
                    else:
                        errors = self._write(trail, activity, time.time())
                except Exception as exc:  # stopping: said below, never raised
                    errors = (exc, exc)
                if trail and errors[0] is not None:
                    self._lost_at_stop(batch, errors[0])
                for entry in batch:
                    if entry.future is not None and not entry.future.done():
                        entry.future.cancel()

    async def _wait(self) -> None:
        """Until there is something to write (and then a little more, unless it is urgent),
        or an aggregate falls due."""
        due = self.budget.next_due(time.time())
        if self._held:  # outcomes to write again, when the disk has room
            due = HELD_RETRY if due is None else min(due, HELD_RETRY)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(due):
                await self._wake.wait()
        if self._wake.is_set() and not self._urgent.is_set():
            with contextlib.suppress(TimeoutError):  # gather more records
                async with asyncio.timeout(self.flush_delay):
                    await self._urgent.wait()

    async def _commit(self, batch: list[_Entry]) -> None:
        trail = b""
        trail_count = 0
        errors: tuple[BaseException | None, BaseException | None]
        try:
            trail, activity, trail_count = self._lines(batch)
            errors = await asyncio.get_running_loop().run_in_executor(
                self._executor, self._write, trail, activity, time.time())
        except asyncio.CancelledError:
            for entry in batch:  # stopping: nobody is left waiting on a batch in flight
                if entry.future is not None and not entry.future.done():
                    entry.future.cancel()
            raise
        except Exception as exc:  # the writer must outlive anything a batch does
            log.exception("audit batch of %d records failed unexpectedly", len(batch))
            errors = (exc, exc)
        trail_error, activity_error = errors
        for name, error, written in (("trail", trail_error, bool(trail)),
                                     ("activity", activity_error, True)):
            if error is not None:
                self._failed(name, error)
            elif written:
                self._recovered(name)
        if trail_error is None and trail:
            self.trail_records += trail_count
        if activity_error is None:
            self.records += len(batch)
        if trail_error is not None:
            self._hold([e if activity_error is not None else replace(e, trail_only=True)
                        for e in batch if e.kind is Kind.TRAIL and e.future is None])
        for entry in batch:
            fut = entry.future
            if fut is None or fut.done():
                continue
            if trail_error is None and activity_error is None:
                fut.set_result(None)
            else:
                fut.set_exception(AuditUnavailable(self.failing or "audit log cannot be written"))

    def _lost_at_stop(self, batch: list[_Entry], error: BaseException) -> None:
        """hermesd stops and the trail still takes nothing: the outcomes of writes it held are
        written to the log (the journal), each as its record, rather than lost without a word
        (review atk24s, #5)."""
        outcomes = [e for e in batch if e.kind is Kind.TRAIL and e.future is None]
        if not outcomes:
            return
        log.error("stopping: the audit trail cannot be written (%s); %d write outcome(s) it "
                  "holds are logged here instead", error, len(outcomes))
        for entry in outcomes[:MAX_LOGGED_AT_STOP]:
            with contextlib.suppress(Exception):
                text, cut = printable(json.dumps(entry.record, ensure_ascii=False, default=str),
                                      LOGGED_RECORD_LIMIT)
                log.error("audit outcome not written: %s%s", text, " (cut)" if cut else "")
        if len(outcomes) > MAX_LOGGED_AT_STOP:
            log.error("%d more write outcome(s) not written and not logged",
                      len(outcomes) - MAX_LOGGED_AT_STOP)

    def _hold(self, outcomes: list[_Entry]) -> None:
        """Keep the outcomes of writes the trail could not take, to be written again: a write
        that reached its device must not leave an intent with no outcome (review atk20s, #4)."""
        self._held.extend(outcomes)
        if len(self._held) > MAX_HELD:
            lost = len(self._held) - MAX_HELD
            del self._held[:lost]
            log.error("the audit trail has held %d write outcomes it cannot write; the "
                      "oldest %d are dropped", MAX_HELD, lost)

    def _lines(self, batch: list[_Entry]) -> tuple[bytes, bytes, int]:
        """The batch as lines: (for the trail, for audit.jsonl, how many for the trail). Never
        raises."""
        plain = None if any(e.trail_only for e in batch) else \
            encode_plain([{"ts": iso(e.ts), "seq": e.seq} for e in batch],
                         [e.record for e in batch])
        if plain is not None:  # (most batches: reads, with nothing to cut or escape)
            kept = [i for i, e in enumerate(batch) if e.kind is Kind.TRAIL
                    or e.kind is Kind.ATTEMPT]
            if not kept:
                return b"", plain, 0
            lines = plain.split(b"\n")
            return b"".join(lines[i] + b"\n" for i in kept), plain, len(kept)
        trail, activity = [], []
        encode = self._encode
        for entry in batch:
            line = encode(entry)
            if not entry.trail_only:
                activity.append(line)
            if entry.kind is Kind.TRAIL or entry.kind is Kind.ATTEMPT:
                trail.append(line)
        return b"".join(trail), b"".join(activity), len(trail)

    def _encode(self, entry: _Entry) -> bytes:
        head = {"ts": iso(entry.ts), "seq": entry.seq}
        limit = TRAIL_TEXT_LIMIT if entry.kind is Kind.TRAIL else TEXT_LIMIT
        line, escaped = encode(head, entry.record)
        if not escaped and within_bounds(line, limit):
            return line  # what bounding it first would have written: nothing to cut
        try:
            record, truncated = bound(entry.record, limit)
            if truncated and isinstance(record, dict):
                record["truncated"] = True
        except Exception:  # encode() below copes with whatever it is
            record = entry.record
        line, escaped = encode(head, record)
        if escaped:
            self.escaped += 1
        return line

    def _write(self, trail: bytes, activity: bytes,
               now: float) -> tuple[OSError | None, OSError | None]:
        """Blocking: the trail's lines, then audit.jsonl's; each file fails on its own."""
        trail_error = activity_error = None
        if trail:
            try:
                self.trail.append(trail, now)
            except OSError as exc:
                trail_error = exc
        if activity:
            try:
                self.activity.append(activity)
            except OSError as exc:
                activity_error = exc
        return trail_error, activity_error

    def _failed(self, name: str, exc: BaseException) -> None:
        what = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        where = getattr(exc, "filename", None) or (self.path if name == "activity"
                                                   else self.trail.current or self.path.parent)
        reason = f"audit log cannot be written: {where}: {what}"
        attr = f"{name}_failing"
        if getattr(self, attr) is None:
            log.error("audit %s %s cannot be written: %s; writes are refused until it can",
                      "log" if name == "activity" else "trail", where, what)
        setattr(self, attr, reason)

    def _recovered(self, name: str) -> None:
        attr = f"{name}_failing"
        if getattr(self, attr) is not None:
            log.info("audit %s is writable again", "log" if name == "activity" else "trail")
            setattr(self, attr, None)
