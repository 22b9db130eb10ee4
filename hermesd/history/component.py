"""The history component: records every point's changes and gaps, writes them in batches, and
answers the `history` action (and, with hermesd/history/alarms.py, `alarms` and `ack`).

Values and device states come from the value cache's listeners; every few seconds each point
is judged as a user would see it (stale by age, its device offline), and a point that is not
good is in a gap until it is again. Every `history.flush` the recorder's batch is written in
one transaction on a thread of its own; a batch the store refuses (disk full, read-only)
is kept and written with the next (bounded: past `MAX_UNWRITTEN` items the oldest is dropped
and its time becomes a gap). Retention runs at start and hourly. Queries run on a thread of
their own, so a slow disk write never holds an answer. Never blocks the event loop on disk;
never lets a store failure stop the daemon (history is then `unavailable`, and says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hermesd import value_maps
from hermesd.answer import Action, Answer, Route
from hermesd.cache import DeviceState, Reading
from hermesd.config.model import Config, Point
from hermesd.context import RequestContext
from hermesd.core.errors import BadRequest, ErrorCode, HermesError, UnknownPoint
from hermesd.history import asking, periods
from hermesd.history.alarm_desk import RECENT_SQL, AlarmDesk
from hermesd.history.alarms import AlarmEvent
from hermesd.history.mend import crash_batch
from hermesd.history.query import Reader, Summary
from hermesd.history.recorder import EARLY_BATCH, Batch, Recorder, Track
from hermesd.history.replies import history_reply
from hermesd.history.series import Rollup
from hermesd.history.store import Store, StoreError
from hermesd.router.rules import Placement

if TYPE_CHECKING:
    from hermesd.services import Services

log = logging.getLogger(__name__)

JUDGE_INTERVAL = 5.0  # seconds between judging every point for gaps (stale by age)
RETAIN_INTERVAL = 3600.0
MAX_UNWRITTEN = 500_000  # samples and rows kept while the store refuses batches
MAX_SERIES = 1440  # buckets of one series (a sparkline, a CSV export)
MAX_GAPS_SHOWN = 20


def tracks_of(config: Config) -> dict[str, Track]:
    return {pid: Track(p.kind in ("int", "float", "bool"), p.deadband)
            for pid, p in config.points.items()}


class HistoryComponent:
    name = "history"

    def __init__(self, services: Services) -> None:
        self.services = services
        self.engine = services.engine
        self.cache = services.cache
        self.config = services.config
        self.store = Store(services.config.paths.state_dir / "history.db")
        self.recorder = Recorder(tracks_of(services.config), time.time())
        self.unwritten: list[Batch] = []
        self.state = "starting"
        self.problem: str | None = None
        self.written = 0  # batches written
        self.dropped = 0  # batches dropped while the store refused them
        # one thread writes (its fsyncs may be slow on an SD card), one answers queries
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hermesd-history-w")
        self._queries = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hermesd-history")
        self._wake = asyncio.Event()
        self._flush_now = False  # a batch is due now (an alarm changed, many samples held)
        # clear while the store is being opened: a query waits for what the opening rebuilds
        # and resumes (answered before, it would miss the minute and hour of a crash)
        self._opened = asyncio.Event()
        self._opening: asyncio.Future[None] | None = None
        # the value cache's snapshot need not be more frequent than the history's batches: a
        # power cut loses at most one batch of either (and the disk is spared a snapshot every
        # 10 s)
        cache = services.cache
        cache.persist_interval = max(cache.persist_interval, services.config.history.flush)
        cache.refresh_interval = max(cache.refresh_interval, services.config.history.flush)
        cache.subscribe(self._on_value)
        cache.subscribe_devices(self._on_device)
        engine = services.engine
        engine.actions["history"] = self.answer
        self.desk = AlarmDesk(services.config, lambda: engine.policy, self._urgent)
        engine.actions["alarms"] = self._alarms
        engine.actions["ack"] = self.desk.ack
        # questions about the past and about alarms, placed before the point rules
        engine.router.pre_rules.append(self._placed)
        self.desk.book.listeners.append(self._tell)
        services.alarms.provide_states(self.desk.book.states)

    # -- lifecycle -------------------------------------------------------------------------

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            await self._open(loop)
            next_flush = time.monotonic() + self.config.history.flush
            next_retain = time.monotonic()
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self._sleep()):
                        await self._wake.wait()
                self._wake.clear()
                now = time.time()
                self._judge_all(now)
                self.desk.book.tick(now)
                if time.monotonic() >= next_flush or self._flush_now:
                    next_flush = time.monotonic() + self.config.history.flush
                    self._flush_now = False
                    if not self.store.is_open:  # tried again at every batch
                        await self._open(loop)
                    await self._flush(loop)
                if self.store.is_open and time.monotonic() >= next_retain:
                    next_retain = time.monotonic() + RETAIN_INTERVAL
                    await self._retain(loop)
        finally:
            try:
                if self._opening is not None and not self._opening.done():
                    # a stop while the store opens: the opening (what a crash left rebuilt,
                    # the hour resumed) ends first, or the last batch would write this run's
                    # few seconds over the hour and mark the crash as mended
                    await asyncio.wait({self._opening})
            finally:
                self._queries.shutdown(wait=True)
                self._writer.shutdown(wait=True)  # a batch in flight lands first
                self._final_flush()

    async def _open(self, loop: asyncio.AbstractEventLoop) -> None:
        """Open the store; queries wait until what a crash left is rebuilt and the hour
        resumed (or the store is found unavailable). A stop does not cut it short (`run`)."""
        self._opened.clear()
        self._opening = asyncio.ensure_future(self._open_store(loop))
        self._opening.add_done_callback(lambda _: self._opened.set())
        await asyncio.shield(self._opening)

    async def _open_store(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            seen = await loop.run_in_executor(self._writer, self.store.open)
            if seen is not None and seen > self.recorder.started:
                log.warning("history: the clock is %.0f s behind the last record; the time "
                            "both runs claim is recorded twice", seen - self.recorder.started)
            if seen is not None:
                # not running until this run's recorder began (values since are its own)
                await loop.run_in_executor(self._writer, self.store.record_stop, seen,
                                           self.recorder.started)
                await self._mend(loop, seen)
        except StoreError as exc:
            self.store.close()
            if self.problem != str(exc):
                log.error("history store unavailable: %s (values are kept in memory, "
                          "up to a bound, until it can be written)", exc)
            self.problem = str(exc)
            self.state = "unavailable"
            return
        try:
            await self._resume(loop)
        except StoreError as exc:
            log.warning("history: what the last run recorded of this hour could not be read "
                        "back: %s", exc)
        try:
            await loop.run_in_executor(self._queries, self.desk.restore, self.store)
        except StoreError as exc:
            log.warning("alarms could not be read back from the history store: %s", exc)
        self.state = "running"
        self.problem = None
        log.info("history store %s open", self.store.path)

    async def _mend(self, loop: asyncio.AbstractEventLoop, seen: float) -> None:
        """After a crash, the final batch it did not write (the minute and hour it fell in,
        rebuilt from what was written), first of the batches to write: this run resumes from
        it, a query reads it, and a store that refuses it now is asked again with every batch.
        """
        try:
            batch = await loop.run_in_executor(self._queries, crash_batch, self.store, seen)
        except (StoreError, ValueError, TypeError, ArithmeticError) as exc:
            # (a row the disk damaged): this run goes on without them
            log.warning("history: the minute and hour a crash fell in could not be rebuilt: "
                        "%s", exc)
            return
        if batch is not None:
            self.unwritten.insert(0, batch)
            log.info("history: the minute and hour of the crash at %s rebuilt",
                     time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seen)))

    async def _resume(self, loop: asyncio.AbstractEventLoop) -> None:
        """The minutes an earlier hermesd wrote of the hour this one began in (the last cut
        short at its stop, or rebuilt after its crash) begin the recorder's rows of that minute
        and hour, wherever they are by now: open, closed, or in batches not yet written."""
        first_minute, first_hour = self.recorder.resume_span()
        rows = await loop.run_in_executor(self._queries, self.store.minutes, first_hour,
                                          first_minute)
        self.recorder.resume(rows, self.unwritten)

    async def reconfigure(self, config: Config) -> None:
        self.config = config
        tracks = tracks_of(config)
        now = time.time()
        recorded = set(self.recorder.points())
        added = [pid for pid in tracks if pid not in recorded]
        # the added points begin with what this run has of them in memory, and with the
        # store's rows once it is open: not while it opens (what a crash left may be in
        # neither the store nor the unwritten then, and the opening's resume takes the
        # earlier run's rows: review atk64h), nor when it cannot be read (atk64f)
        rows: dict[str, list[tuple[int, Rollup]]] = {}
        if added and self.store.is_open and self._opened.is_set():
            try:
                # what the added points have of this hour, read here and now: a batch being
                # written is in the store by then or still among the unwritten, never neither
                rows = self.store.minutes_of(added, int(now // 3600 * 3600),
                                             int(now // 60 * 60))
            except StoreError as exc:
                log.warning("history: what the points added by the reload recorded of this "
                            "hour could not be read back: %s", exc)
        self.recorder.retrack(tracks, now, rows, self.unwritten)
        self.desk.book.reconfigure(config)

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "path": str(self.store.path),
                               "batches_written": self.written, "batches_dropped": self.dropped,
                               "unwritten": sum(b.size() for b in self.unwritten)}
        if self.problem:
            out["problem"] = self.problem
        out["alarms_active"] = len(self.desk.book.active())
        return out

    def _tell(self, event: AlarmEvent) -> None:
        """An alarm raised, cleared or acknowledged: logged, and on the daemon's alarm feed
        (MQTT and Home Assistant, the voice loop)."""
        occ = event.occurrence
        log.log(logging.WARNING if event.what == "raised" else logging.INFO, "alarm %s %s: %s",
                occ.alarm, event.what, occ.message)
        self.services.alarms.publish(replace(event, message_zh=self.desk.say(occ, "zh")))

    def _sleep(self) -> float:
        """Until the next judging, or sooner when an alarm's delay runs out before it."""
        due = self.desk.book.next_due()
        if due is None:
            return JUDGE_INTERVAL
        return min(JUDGE_INTERVAL, max(0.05, due - time.time()))

    def _urgent(self) -> None:
        """An alarm changed: write it with a batch now, not at the batch interval."""
        self._flush_now = True
        self._wake.set()

    # -- recording -------------------------------------------------------------------------

    def _on_value(self, reading: Reading) -> None:
        now = time.time()
        self.recorder.value(reading.point, reading.value, reading.ts, now)
        if self.recorder.pending >= EARLY_BATCH and not self._flush_now:
            self._urgent()  # a busy plant: written early, so memory stays bounded
        self.desk.book.on_value(reading.point, reading.value, min(reading.ts, now))
        self._judge(reading.point, now)

    def _on_device(self, device: str, state: DeviceState) -> None:
        now = time.time()
        for pid, point in self.config.points.items():
            if point.device == device:
                self._judge(pid, now, since=state.since)
        self.desk.book.on_device(device, state.online, min(state.since, now), now)

    def _judge_all(self, now: float) -> None:
        for pid in self.recorder.points():
            self._judge(pid, now)

    def _judge(self, pid: str, now: float, since: float | None = None) -> None:
        """Open or close the point's gap as the cache judges its value now."""
        judged = self.cache.judge(pid, now)
        current = self.recorder.current(pid)
        if judged is None or current is None or judged.reading.restored:
            return
        good = current[1]
        if judged.stale and good:
            start = since
            if start is None:
                max_age = self.config.points[pid].max_age if pid in self.config.points else None
                start = judged.reading.ts + max_age if max_age is not None and \
                    "max age" in judged.why else now
            self.recorder.set_gap(pid, _reason(judged.why), start, now)
        elif not judged.stale and not good:
            self.recorder.set_gap(pid, None, max(judged.reading.ts, since or 0.0), now)

    async def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        self.unwritten.append(self.recorder.take_batch(time.time()))
        self._bound_unwritten()
        if not self.store.is_open:
            return  # kept (bounded) until the store can be opened
        batches = list(self.unwritten)
        statements = self.desk.take_statements()
        try:
            await loop.run_in_executor(self._writer, self.store.write, batches, statements)
        except StoreError as exc:
            self.desk.give_back(statements)
            if self.state != "failing":
                log.error("cannot write history to %s: %s (kept in memory and retried)",
                          self.store.path, exc)
            self.state = "failing"
            self.problem = str(exc)
            return
        del self.unwritten[:len(batches)]
        self.written += len(batches)
        if self.state == "failing":
            log.info("history written again to %s", self.store.path)
        self.state, self.problem = "running", None

    def _bound_unwritten(self) -> None:
        while len(self.unwritten) > 1 and sum(b.size() for b in self.unwritten) > MAX_UNWRITTEN:
            lost = self.unwritten.pop(0)
            self.dropped += 1
            nxt = self.unwritten[0]
            start = min((t for s in lost.samples.values() for t, _ in s[:1]), default=lost.taken)
            nxt.gaps_opened.insert(0, ("*", start, "not written: the store refused it"))
            nxt.gaps_closed.insert(0, ("*", start, lost.taken))
            log.warning("history batch of %d items dropped: the store keeps refusing writes",
                        lost.size())

    def _final_flush(self) -> None:
        """At stop: the last batch, written before the store closes (blocking, like the
        value cache's last snapshot)."""
        if self.store.is_open:
            self.unwritten.append(self.recorder.take_batch(time.time(), final=True))
            try:
                self.store.write(self.unwritten, self.desk.take_statements())
                self.unwritten.clear()
            except StoreError as exc:
                log.error("history: the last batch was not written: %s", exc)
        self.store.close()

    async def _retain(self, loop: asyncio.AbstractEventLoop) -> None:
        h = self.config.history
        try:
            removed = await loop.run_in_executor(self._writer, self.store.retain,
                                                 time.time(), h.keep, h.max_size)
        except StoreError as exc:
            log.warning("history retention failed: %s", exc)
            return
        if removed:
            log.info("history retention removed %d rows", removed)

    # -- questions in words ------------------------------------------------------------------

    def _placed(self, text: str) -> Placement | None:
        """A router pre-rule: a question about the past as a `history` action over the point
        the rest of its words name; "any alarms?" as `alarms`; None for anything else."""
        question = asking.parse(text, time.time())
        if question is None:
            return None
        if question.kind == "alarms":
            return Placement(Action("alarms", {"active": True}), 1.0)
        rules = self.engine.router.rules
        placed = rules.place(question.rest)
        if placed is None or placed.action.name != "read" or placed.action.point is None:
            return None
        point = placed.action.point
        registry = self.engine.registry
        if question.wants_bool and point in registry and registry.get(point).kind != "bool":
            # "feed pump 1" is its running point here
            for word in ("running", "on", "open", "运行", "开"):
                again = rules.place(f"{question.rest} {word}")
                other = again.action.point if again is not None else None
                if other is not None and other in registry and \
                        registry.get(other).kind == "bool":
                    point = other
                    break
        args: dict[str, Any] = {"point": point, "stat": question.stat}
        if question.to_value is not None and point in registry and \
                registry.get(point).kind == "bool":
            args["value"] = question.to_value
        if question.start is not None and question.end is not None:
            args["from"] = periods.iso(question.start)
            args["to"] = periods.iso(question.end)
        return Placement(Action("history", args), placed.score, placed.candidates)

    # -- actions -----------------------------------------------------------------------------

    async def _alarms(self, ctx: RequestContext, route: Route, action: Action, zh: bool
                      ) -> Answer:
        recent: list[Any] = []
        if self.store.is_open and not action.args.get("active"):
            try:
                recent = await asyncio.get_running_loop().run_in_executor(
                    self._queries, self.store.query, RECENT_SQL)
            except StoreError as exc:
                log.warning("alarms: the store's list cannot be read: %s", exc)
        return await self.desk.alarms(ctx, route, action, zh, recent)

    async def answer(self, ctx: RequestContext, route: Route, action: Action, zh: bool
                     ) -> Answer:
        args = action.args
        unknown = sorted(set(args) - {"point", "stat", "from", "to", "since", "series",
                                  "step", "value"})
        if unknown:
            raise BadRequest(f"history: unknown argument(s) {', '.join(unknown)}")
        pid = args.get("point")
        registry = self.engine.registry
        if not isinstance(pid, str) or pid not in registry:
            raise UnknownPoint(str(pid))
        point = registry.get(pid)
        checks = self.engine.policy.check_read(ctx, point)
        stat = args.get("stat") or _default_stat(point)
        if stat not in periods.STATS:
            raise BadRequest(f"history: stat {str(stat)[:20]!r} is not one of "
                             f"{', '.join(periods.STATS)}")
        _check_stat(point, stat)
        for key in ("from", "to", "since"):
            if key in args and not isinstance(args[key], str):
                raise BadRequest(f"history: {key} must be a time or duration as text")
        series = args.get("series", 0)
        if not isinstance(series, int) or isinstance(series, bool) or \
                not 0 <= series <= MAX_SERIES:
            raise BadRequest(f"history: series must be a number of buckets 0..{MAX_SERIES}")
        step = args.get("step", 0)
        if not isinstance(step, int | float) or isinstance(step, bool) or \
                not 0 <= step <= periods.MAX_SPAN:
            raise BadRequest("history: step must be the seconds of one bucket")
        target = args.get("value")  # changed_at: the last change to this value
        if target is not None and (stat != "changed_at" or not isinstance(
                target, bool | int | float | str)):
            raise BadRequest("history: value (the value changed to) goes with stat changed_at")
        if target is not None:
            target = _changed_to(point, target)
        if not self._opened.is_set() and not ctx.dry_run:
            # the opening rebuilds what a crash left and resumes the hour: not answered
            # without it (bounded by the request's deadline)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ctx.remaining()):
                    await self._opened.wait()
        now = time.time()
        start, end = periods.period(args.get("from"), args.get("to"), args.get("since"), now)
        if stat == "at":
            start = end
        norm = Action("history", {"point": pid, "stat": stat, "from": periods.iso(start),
                                  "to": periods.iso(end)})
        if target is not None:
            norm.args["value"] = target
        if ctx.dry_run:
            return Answer("dry_run", route, norm, checks=checks,
                          reply=f"Dry run: would answer the {stat} of {pid} from the history.")
        if (not self.store.is_open and self.state != "failing") or not self._opened.is_set():
            raise HermesError(f"history is unavailable: {self.problem or 'not open yet'}",
                              code=ErrorCode.NOT_READY)
        reader = Reader(self.store, self.recorder.view(pid, now), self.unwritten)
        started = time.perf_counter()
        try:
            result = await asyncio.get_running_loop().run_in_executor(
                self._queries, _compute, reader, point, stat, start, end, now, series,
                float(step), target)
        except StoreError as exc:
            raise HermesError(f"history cannot be read: {exc}", code=ErrorCode.INTERNAL) \
                from None
        timings = {"query": (time.perf_counter() - started) * 1000}
        reply = history_reply(point, stat, result, start, end, now, zh)
        if result["value"] is None:
            return Answer("error", route, norm, result=result, reply=reply, timings_ms=timings,
                          error={"code": ErrorCode.NO_DATA.value, "message": reply})
        return Answer("ok", route, norm, result=result, reply=reply, timings_ms=timings)


def _reason(why: str) -> str:
    if " offline since " in why:
        return why.split(" since ", maxsplit=1)[0]  # "plc1 offline"
    return "stale" if "max age" in why else why[:80]


def _changed_to(point: Point, target: Any) -> Any:
    """The value a `changed_at` question names, as the store keeps it (a map's own name,
    "MANUAL" as "manual"), or BadRequest: a value the point can never hold has no record to
    look for, and "no record of the point" would be untrue."""
    if point.value_map:
        entry = value_maps.entry_named(point, target)
        if entry is None:
            raise BadRequest(f"history: {point.id} takes one of {', '.join(point.choices)}; "
                             f"value {str(target)[:40]!r} is none of them")
        return entry.name
    if point.kind == "bool" and not isinstance(target, bool):
        raise BadRequest(f"history: {point.id} is on/off; value must be true or false")
    if point.kind in ("int", "float") and (isinstance(target, bool) or
                                           not isinstance(target, int | float)):
        raise BadRequest(f"history: {point.id} is a number; value must be one")
    if point.kind == "string" and not isinstance(target, str):
        raise BadRequest(f"history: {point.id} is text; value must be text")
    return target


def _default_stat(point: Point) -> str:
    return {"bool": "on_time", "string": "last"}.get(point.kind, "mean")


def _check_stat(point: Point, stat: str) -> None:
    if stat == "on_time" and point.kind != "bool":
        raise BadRequest(f"history: on_time is for on/off points; {point.id} is a {point.kind}")
    if stat in ("min", "max", "mean") and point.kind == "string":
        raise BadRequest(f"history: {stat} is for numbers; {point.id} is text")


def _unrecorded(reader: Reader, pid: str, summary: Summary, now: float) -> float:
    """The time of the period that nothing recorded: before this hermesd began to record, what
    neither a value nor a gap covers (before the history's first record; a stop of hermesd
    later on is a gap of its own). From then on, time without a value was recorded, as nothing
    (a sensor not heard from yet): it is missing, not unrecorded."""
    began = reader.recorder.started
    if summary.start >= began or summary.coverage >= 1.0:
        return 0.0
    before = summary if summary.end <= began else \
        reader.summary(pid, summary.start, began, now)
    in_gaps = sum(b - a for a, b, _ in before.gaps)
    return max(0.0, before.span - before.rollup.good - in_gaps)


def _compute(reader: Reader, point: Point, stat: str, start: float, end: float, now: float,
             series: int, step: float, target: Any = None) -> dict[str, Any]:
    """The `result` of a history answer (blocking: store reads)."""
    pid = point.id
    summary = reader.summary(pid, start, end, now) if stat != "at" else \
        reader.summary(pid, end, end, now)
    r = summary.rollup
    value: Any
    extra: dict[str, Any] = {}
    unit = point.unit
    if stat == "at":
        value, good = reader.value_at(pid, end, now)
        if not good:
            value = None
    elif stat == "on_time":
        value = round(r.integral, 3) if r.good > 0 else None
        unit = "s"
    elif stat == "changed_at" and target is not None:
        when = reader.last_change_to(pid, target, start, end, now)
        value = periods.iso(when) if when is not None else None
        if when is not None:
            extra["changed_to"] = target
    elif stat == "changed_at":
        value = periods.iso(r.last_change) if r.last_change is not None else None
        if r.last_change is not None:
            extra["changed_to"] = reader.value_at(pid, r.last_change, now)[0]
    elif stat == "last":
        value = r.last if r.good > 0 or r.changes else None
    else:
        value = {"min": r.min, "max": r.max, "mean": r.mean}[stat]
    if isinstance(value, float) and point.kind == "float":
        value = round(value, 6)
    result: dict[str, Any] = {
        "point": pid, "stat": stat, "value": value, "unit": unit,
        "from": periods.iso(start), "to": periods.iso(summary.end if stat != "at" else end),
        "samples": r.changes, "gaps": _gaps(summary), **extra,
    }
    if stat != "at":
        result["coverage"] = round(summary.coverage, 4)
        result["missing_s"] = round(max(0.0, summary.span - r.good), 3)
        result["unrecorded_s"] = round(_unrecorded(reader, pid, summary, now), 3)
        if point.kind in ("int", "float"):
            result["summary"] = {"min": r.min, "max": r.max,
                                 "mean": None if r.mean is None else round(r.mean, 6),
                                 "last": r.last}
    if series:
        span = min(end, now) - start
        if step > 0:
            series = max(1, min(series, math.ceil(span / step)))
        result["series"] = _series(reader, pid, start, min(end, now), now, series)
    return result


def _gaps(summary: Summary) -> list[dict[str, Any]]:
    return [{"from": periods.iso(a), "to": periods.iso(b), "reason": why}
            for a, b, why in summary.gaps[:MAX_GAPS_SHOWN]]


def _series(reader: Reader, pid: str, start: float, end: float, now: float, n: int
            ) -> list[dict[str, Any]]:
    """`n` equal buckets of the period: each one's time, min, max, mean and last (None when
    there was no good value in it)."""
    if end <= start:
        return []
    width = (end - start) / n
    out = []
    for i in range(n):
        a = start + i * width
        r = reader.summary(pid, a, a + width if i < n - 1 else end, now).rollup
        mean = r.mean
        out.append({"t": periods.iso(a), "min": r.min, "max": r.max,
                    "mean": None if mean is None else round(mean, 6),
                    "last": r.last if r.good > 0 else None})
    return out
