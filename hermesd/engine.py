"""The request path: read, write, ask and call, from a request context to an `Answer`.

Every edge (control socket, MQTT, voice) calls the `Engine`; it routes free text, passes every
action through policy, dispatches what is allowed, composes the reply from facts, records the
action in the audit log and counts it. A write's intent is durable in the audit log before the
device is touched. No exception escapes as a crash: unexpected ones become `INTERNAL` answers
with the trace id in the log.

The intent and done records of an `ask` carry the words: the command as asked (and, by voice,
the transcript), printable-escaped and cut at the request limit, and what the router went by
(the candidate points it weighed, or why it placed nothing), so afterwards anyone can tell what
was said and why it led where it did.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import unicodedata
from collections.abc import Coroutine
from typing import Any

from hermesd.answer import Action, Answer, Route, failure, refusal, respond
from hermesd.audit import AuditLog, AuditUnavailable
from hermesd.audit_records import iso, printable
from hermesd.cache import ValueCache
from hermesd.config.model import Config, Point
from hermesd.context import RequestContext
from hermesd.core.errors import (
    BadRequest,
    Busy,
    ErrorCode,
    Forbidden,
    Garbled,
    HermesError,
    ProtocolError,
    Rejected,
    ToolUnavailable,
    Unanswered,
    UnknownPoint,
)
from hermesd.dispatcher import Dispatcher
from hermesd.metrics import Metrics
from hermesd.policy import Policy
from hermesd.registry import Registry, format_value, tool_of
from hermesd.replies import (
    call_reply,
    dry_run_reply,
    error_reply,
    is_chinese,
    read_many_reply,
    read_reply,
    respond_reply,
    unsure_reason,
    unsure_write_reply,
    write_reply,
)
from hermesd.router import Router
from hermesd.supervisor import Supervisor
from hermesd.value_maps import from_device, reported

log = logging.getLogger(__name__)

MAX_TEXT = 1000  # characters of a command; longer is refused
#: words of a command; more are refused before routing. The routing stages weigh every word
#: against every other and every point, on the daemon's loop: 1,000 Chinese characters took
#: them 15 s, while a command people say has under 40 words.
MAX_WORDS = 80
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{_CJK}]")
#: (letters and digits apart, as the router reads them: "é1é1" is four words)
_OTHER_WORD = re.compile(f"[^\\W\\d_〇{_CJK}]+|\\d+|〇")
#: signs that count as words: any but the punctuation of a sentence (which separates words)
_SIGN = re.compile(r"[^\w\s,.;:!?'\"()\-，。、；：！？（）“”‘’]")


def word_count(text: str) -> int:
    """Words as MAX_WORDS counts them: runs of letters and digits, two Chinese characters to
    a word (most Chinese words of a plant are two characters: 锅炉, 温度), and each sign but a
    sentence's punctuation ("%", "℃", "/"), which the routing stages weigh as a word: "60" and
    990 "%" held them 38 s. Counted as the router reads it, folded (NFKC): one letter may
    fold to four words ("ﷺ")."""
    text = unicodedata.normalize("NFKC", text)
    return len(_OTHER_WORD.findall(text)) + (len(_CJK_CHAR.findall(text)) + 1) // 2 + \
        len(_SIGN.findall(text))


MAX_INFLIGHT = 512  # requests being worked on at once; more answer BUSY
MAX_CANDIDATES = 8  # candidate points of a routed command kept in its audit records
MAX_READ_POINTS = 32  # points of one read of several
#: a read of several answers with the worst of its points' statuses
_WORST = {"ok": 0, "stale": 1, "error": 2}


def reserved_topics(config: Config) -> tuple[str, ...]:
    """MQTT topics no raw publish may reach (see `Policy.reserved`)."""
    if config.mqtt is None:
        return ()
    availability = [d.params["availability_topic"] for d in config.devices.values()
                    if d.driver == "mqtt" and isinstance(d.params.get("availability_topic"), str)]
    return (config.mqtt.base_topic, config.mqtt.discovery_prefix, *availability)


class Engine:
    def __init__(self, config: Config, supervisor: Supervisor, cache: ValueCache,
                 audit: AuditLog, metrics: Metrics, registry: Registry | None = None) -> None:
        self.config = config
        self.registry = registry or Registry.build(config)  # the daemon's, built once
        self.supervisor = supervisor
        self.cache = cache
        self.audit = audit
        self.metrics = metrics
        self.policy = Policy(config.access, self.registry, reserved_topics(config))
        self.router = Router(config)
        self.dispatcher = Dispatcher(supervisor, cache, self.registry)
        self.inflight = 0
        #: actions a component answers (history, alarms, ack): name -> async handler taking
        #: (ctx, route, action, zh) and returning an Answer; policy is the handler's to check
        self.actions: dict[str, Any] = {}
        #: what an `ask` in progress said and how it was routed, by trace id, for its records
        self._asked: dict[str, dict[str, Any]] = {}
        #: the loop requests are answered in, once one was: asyncio.get_running_loop() makes a
        #: getpid() system call on every call (3.11 checks for a fork), once per request here
        self._loop: asyncio.AbstractEventLoop | None = None

    def reconfigure(self, config: Config) -> None:
        self.config = config
        self.registry = Registry.build(config)
        self.policy.reconfigure(config.access, self.registry, reserved_topics(config))
        self.router.reconfigure(config)
        self.dispatcher.reconfigure(self.registry)
        self.cache.reconfigure(self.registry.max_ages, self.registry.device_of(),
                               self.registry.fingerprints())
        self.restate_values()

    def restate_values(self) -> None:
        """Kept values as their points are now configured: one read before its point had a
        value map (or restored from before) is said as the map's name, never left a number
        that no name, select or policy would know."""
        points = self.config.points
        self.cache.restate(lambda r: from_device(points[r.point], r.value)
                           if r.point in points else r.value)

    # -- entry points ------------------------------------------------------------------------

    # read, read_many, write and act hand back `_run`'s coroutine, to be awaited: no coroutine
    # of their own around it, whose frame every request would make and step through

    def read(self, ctx: RequestContext, point_id: str) -> Coroutine[Any, Any, Answer]:
        return self._run(ctx, "direct", Action("read", {"point": point_id}), text=None)

    def read_many(self, ctx: RequestContext, point_ids: list[str]
                  ) -> Coroutine[Any, Any, Answer]:
        """One read of several points (`args.points`), answered in one reply."""
        return self._run(ctx, "direct", Action("read", {"points": list(point_ids)}), text=None)

    def write(self, ctx: RequestContext, point_id: str, value: Any
              ) -> Coroutine[Any, Any, Answer]:
        return self._run(ctx, "direct", Action("write", {"point": point_id, "value": value}),
                         text=None)

    def act(self, ctx: RequestContext, action: Action) -> Coroutine[Any, Any, Answer]:
        """A direct request for an action a component answers (`history`, `alarms`, `ack`)."""
        return self._run(ctx, "direct", action, text=None)

    async def ask(self, ctx: RequestContext, text: str, *, transcript: str | None = None
                  ) -> Answer:
        """A command in words (`transcript`: what was heard, when it came by voice)."""
        asked = _words(text, transcript)
        self._asked[ctx.trace_id] = asked
        try:
            return await self._ask(ctx, text, asked)
        finally:
            self._asked.pop(ctx.trace_id, None)

    async def _ask(self, ctx: RequestContext, text: str, asked: dict[str, Any]) -> Answer:
        timer = time.perf_counter()
        if not isinstance(text, str) or not text.strip():
            return self._finish(ctx, timer, failure(
                ErrorCode.BAD_REQUEST, "empty command", route="rule",
                action=respond("not_understood"), reply="Say what you want, e.g. a point name."))
        if len(text) > MAX_TEXT:
            return self._finish(ctx, timer, failure(
                ErrorCode.BAD_REQUEST, f"command is {len(text)} characters; at most {MAX_TEXT}",
                route="rule", action=respond("not_understood"),
                reply=f"That command is too long (at most {MAX_TEXT} characters)."))
        words = word_count(text)
        if words > MAX_WORDS:
            zh = is_chinese(text)
            return self._finish(ctx, timer, failure(
                ErrorCode.BAD_REQUEST, f"command is {words} words; at most {MAX_WORDS}",
                route="rule", action=respond("not_understood"),
                reply=f"命令太长（最多{MAX_WORDS}个字词），请只说一件事。" if zh else
                f"That command is too long (at most {MAX_WORDS} words); say one thing at a time."))
        if self.inflight >= MAX_INFLIGHT:
            return self._finish(ctx, timer, _busy())
        self.inflight += 1
        try:
            routed = await self.router.route(ctx, text)
        except HermesError as exc:
            asked["why"] = f"routing failed: {exc.code.value}"
            return self._finish(ctx, timer, self._failed(ctx, "llm", respond("not_understood"),
                                                         exc, is_chinese(text)))
        finally:
            self.inflight -= 1
        asked.update(_routing(routed.route, routed.action, routed.candidates))
        if "." in routed.action.name:  # a tool action a rule placed (raw register access)
            tool, _, name = routed.action.name.partition(".")
            answer = await self.call(ctx, tool, name, dict(routed.action.args),
                                     route=routed.route, timer=timer)
        else:
            answer = await self._run(ctx, routed.route, routed.action, text=text, timer=timer)
        answer.timings_ms = {**routed.timings_ms, **answer.timings_ms}
        return answer

    async def call(self, ctx: RequestContext, tool: str, action: str, args: dict[str, Any], *,
                   route: Route = "direct", timer: float | None = None) -> Answer:
        timer = time.perf_counter() if timer is None else timer
        if action in ("read", "write") and isinstance(args.get("point"), str):
            # a point read or write by another name: the same policy as `read`/`write`
            return await self._run(ctx, "direct", Action(action, dict(args)), text=None)
        act = Action(f"{tool}.{action}", dict(args))
        try:
            spec = self.supervisor.get(tool).connected().actions.get(action)
            if spec is None:
                raise BadRequest(f"tool {tool} has no action {action!r}")
            checks = self.policy.check_call(ctx, tool, spec, args)
            _check_deadline(ctx, args)
            if ctx.dry_run:
                return self._finish(ctx, timer, Answer(
                    "dry_run", route, act, checks=checks,
                    reply=f"Dry run: would call {tool}.{action}; all checks pass."))
            if spec.effect == "write":
                await self.audit.append_durable(self._record(ctx, route, act, "intent"))
            value = await self.dispatcher.call(ctx, tool, action, args)
        except AuditUnavailable as exc:
            return self._finish(ctx, timer, self._failed(
                ctx, route, act, HermesError(str(exc), code=ErrorCode.INTERNAL), False))
        except (Forbidden, Rejected) as exc:
            if route != "direct":  # an asked command that may not act: a refusal, as in _execute
                act = respond("not_allowed", refused=act.to_dict())
            return self._finish(ctx, timer, self._failed(ctx, route, act, exc, False))
        except HermesError as exc:
            # a raw write sent and not answered, answered with what cannot be read, or said
            # by its tool to be unconfirmed: it may be done, never "could not do that"
            if spec is not None and spec.effect == "write" and (
                    isinstance(exc, Unanswered | Garbled) or exc.code == ErrorCode.NOT_CONFIRMED
                    or (isinstance(exc, ToolUnavailable) and exc.sent)):
                code = exc.code if isinstance(exc, Unanswered) else ErrorCode.NOT_CONFIRMED
                unsure = unsure_reason(exc.message)
                return self._finish(ctx, timer, failure(code, unsure, route=route, action=act,
                                                        reply=f"Not sure it was done: {unsure}."))
            return self._finish(ctx, timer, self._failed(ctx, route, act, exc, False))
        return self._finish(ctx, timer, Answer("ok", route, act, result={"value": value},
                                               reply=call_reply(tool, action, args, value)))

    # -- the shared path ---------------------------------------------------------------------

    async def _run(self, ctx: RequestContext, route: Route, action: Action, *, text: str | None,
                   timer: float | None = None) -> Answer:
        timer = time.perf_counter() if timer is None else timer
        zh = bool(text) and is_chinese(text or "")
        if self.inflight >= MAX_INFLIGHT:
            return self._finish(ctx, timer, _busy(route))
        self.inflight += 1
        try:
            answer = await self._execute(ctx, route, action, zh, asked=text is not None)
        except HermesError as exc:
            answer = self._failed(ctx, route, action, exc, zh)
        except Exception:
            log.exception("request %s failed unexpectedly", ctx.trace_id)
            answer = self._failed(ctx, route, action, HermesError(
                f"internal error (trace {ctx.trace_id})", code=ErrorCode.INTERNAL), zh)
        finally:
            self.inflight -= 1
        return self._finish(ctx, timer, answer)

    def _execute(self, ctx: RequestContext, route: Route, action: Action, zh: bool,
                 *, asked: bool) -> Coroutine[Any, Any, Answer]:
        """What carries out `action`, to be awaited; BadRequest or UnknownPoint at once for an
        action or point there is not, NOT_WRITABLE for a respond refusing a write of a
        read-only point (`_read_only_refused`). A direct read or write is its own coroutine, with none
        of this one's around it (whose frame every request would make, step and resume)."""
        name = action.name
        if name == "respond":
            refusal = self._read_only_refused(action)
            if refusal is not None:  # the router's refusal of a write no one may make
                raise refusal
            return self._respond(route, action, zh)
        handler = self.actions.get(name)
        if handler is not None:
            return self._handled(handler, ctx, route, action, zh, asked=asked)
        if name not in ("read", "write"):
            raise BadRequest(f"unknown action {name!r}")
        args = action.args
        if name == "read" and "points" in args:
            return self._read_many(ctx, route, action, self._points_of(action), zh)
        point_id = args.get("point")
        point = self.registry.points.get(point_id) if isinstance(point_id, str) else None
        if point is None:
            raise UnknownPoint(str(point_id))
        act = self._read if name == "read" else self._write
        if not asked:  # (a refusal raises, and `_run` answers it)
            return act(ctx, route, action, point, zh)
        return self._refused_as_asked(act(ctx, route, action, point, zh), ctx, route, action, zh)

    def _read_only_refused(self, action: Action) -> Rejected | None:
        """Policy's refusal of the write a `respond` says was refused, where its point is
        read-only ("zero the bottle count" of a counter: the router knows that no one may
        write it, and says so): the same answer as the write itself gets. Nothing in a
        respond is ever carried out: a refused write of a writable point (a client's own
        respond, a point made writable by a reload) is answered as any respond is."""
        refused = action.args.get("refused")
        if not isinstance(refused, dict) or refused.get("name") != "write":
            return None
        args = refused.get("args")
        point_id = args.get("point") if isinstance(args, dict) else None
        point = self.registry.points.get(point_id) if isinstance(point_id, str) else None
        return None if point is None else self.policy.read_only(point)

    async def _respond(self, route: Route, action: Action, zh: bool) -> Answer:
        args = action.args
        example = next(iter(self.registry.points), "a point")
        reply = respond_reply(str(args.get("reason")), node=self.config.node.name,
                              example=example.replace("_", " "),
                              asked=str(args.get("asked", "")), text=args.get("text"), zh=zh)
        return Answer("ok", route, action, reply=reply)

    async def _handled(self, handler: Any, ctx: RequestContext, route: Route, action: Action,
                       zh: bool, *, asked: bool) -> Answer:
        """An action a component answers (history, alarms, ack)."""
        try:
            answer: Answer = await handler(ctx, route, action, zh)
        except Forbidden as exc:
            if not asked:
                raise
            refused = respond("not_allowed", refused=action.to_dict())
            return self._failed(ctx, route, refused, exc, zh)
        return answer

    async def _refused_as_asked(self, acting: Coroutine[Any, Any, Answer], ctx: RequestContext,
                                route: Route, action: Action, zh: bool) -> Answer:
        """A read or write a command asked for: one it may not do becomes a `respond`, refused
        with a code."""
        try:
            return await acting
        except (Forbidden, Rejected) as exc:
            refused = respond("not_allowed", refused=action.to_dict())
            return self._failed(ctx, route, refused, exc, zh)

    async def _read(self, ctx: RequestContext, route: Route, action: Action, point: Point,
                    zh: bool) -> Answer:
        if ctx.dry_run:
            return Answer("dry_run", route, action, checks=self.policy.check_read(ctx, point),
                          reply=dry_run_reply("read", point, None, zh))
        self.policy.may_read(ctx)  # (the check's sentence is a dry run's only)
        started = time.perf_counter()
        outcome = await self.dispatcher.read(ctx, point)
        j = outcome.judgement
        reading = j.reading
        result = {"point": point.id, "value": reading.value, "unit": point.unit,
                  "timestamp": iso(reading.ts), "age_s": round(j.age, 3),
                  "quality": "stale" if j.stale else "good"}  # j.quality
        if j.stale:
            result["stale_reason"] = j.why
        answer = Answer("stale" if j.stale else "ok", route, action, result,
                        reply=read_reply(point, j, zh),
                        timings_ms={"dispatch": (time.perf_counter() - started) * 1000})
        if outcome.error is not None:
            answer.error = _err(outcome.error)
        return answer

    def _points_of(self, action: Action) -> list[Point]:
        ids = action.args.get("points")
        if "point" in action.args or not isinstance(ids, list) or \
                not all(isinstance(p, str) for p in ids):
            raise BadRequest("a read of several points takes `points`, a list of point ids")
        if not 1 <= len(ids) <= MAX_READ_POINTS or len(set(ids)) != len(ids):
            raise BadRequest(f"a read of several points takes 1..{MAX_READ_POINTS} different "
                             "point ids")
        for pid in ids:
            if pid not in self.registry:
                raise UnknownPoint(pid)
        return [self.registry.get(pid) for pid in ids]

    async def _read_many(self, ctx: RequestContext, route: Route, action: Action,
                         points: list[Point], zh: bool) -> Answer:
        """Every point read at once; `result.values` in the order asked, the status the worst
        of theirs (ok < stale < error), one reply that names them all."""
        checks = [check for point in points for check in self.policy.check_read(ctx, point)]
        if ctx.dry_run:
            return Answer("dry_run", route, action, checks=checks,
                          reply=dry_run_reply("read", None, None, zh, points=points))
        started = time.perf_counter()
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(self._read_item(ctx, point)) for point in points]
        items = [task.result() for task in tasks]
        status = max((status for status, _, _ in items), key=_WORST.__getitem__)
        errors = [error for _, _, error in items if error is not None]
        answer = Answer(status, route, action,  # type: ignore[arg-type]
                        result={"values": [result for _, result, _ in items]},
                        reply=read_many_reply([(p, r) for p, (_, r, _) in zip(points, items,
                                                                              strict=True)],
                                              zh),
                        timings_ms={"dispatch": (time.perf_counter() - started) * 1000})
        if errors:
            answer.error = _err(errors[0])
        return answer

    async def _read_item(self, ctx: RequestContext, point: Point
                         ) -> tuple[str, dict[str, Any], HermesError | None]:
        """One point of a read of several: its status, its `result` object, and the error that
        kept it from being read now (a point with no value at all is `error`, valued null)."""
        try:
            outcome = await self.dispatcher.read(ctx, point)
        except HermesError as exc:
            return "error", {"point": point.id, "value": None, "unit": point.unit,
                             "quality": "error", "error": _err(exc)}, exc
        j = outcome.judgement
        result: dict[str, Any] = {"point": point.id, "value": j.reading.value,
                                  "unit": point.unit, "timestamp": iso(j.reading.ts),
                                  "age_s": round(j.age, 3), "quality": j.quality}
        if j.stale:
            result["stale_reason"] = j.why
        return ("stale" if j.stale else "ok"), result, outcome.error

    async def _write(self, ctx: RequestContext, route: Route, action: Action, point: Point,
                     zh: bool) -> Answer:
        value, checks = self.policy.check_write(ctx, point, action.args.get("value"))
        action = Action("write", {"point": point.id, "value": value})
        if ctx.dry_run:
            return Answer("dry_run", route, action, checks=checks,
                          reply=dry_run_reply("write", point, value, zh))
        try:
            await self.audit.append_durable(self._record(ctx, route, action, "intent"))
        except AuditUnavailable as exc:
            raise HermesError(f"writes are refused: {exc}", code=ErrorCode.INTERNAL) from None
        started = time.perf_counter()
        try:
            outcome = await self.dispatcher.write(ctx, point, value)
        except Unanswered as exc:
            # the tool was sent the write and did not answer: it may have done it (begun in
            # time, ended late); never "could not do that" for a write that may be done
            unsure = unsure_reason(exc.message)
            return failure(exc.code, unsure, route=route, action=action,
                           reply=unsure_write_reply(point, value, exc.message, zh))
        except HermesError as exc:
            # answered with the checked action, as its intent was recorded: the audit's `done`
            # record then carries the value as the intent did (444, not the words "444")
            if exc.code == ErrorCode.NOT_CONFIRMED:
                # sent, and not seen done: a PLC that answered late may well have taken it.
                # Said in the words of every other write that may be done (`call`, Unanswered)
                return failure(exc.code, unsure_reason(exc.message), route=route, action=action,
                               reply=unsure_write_reply(point, value, exc.message, zh))
            return self._failed(ctx, route, action, exc, zh)
        timings = {"dispatch": (time.perf_counter() - started) * 1000}
        if outcome.confirmed is False:
            # sent, but the device does not show it: never `ok` with the value we wished for
            result = {"point": point.id, "value": outcome.actual, "requested": outcome.value,
                      "unit": point.unit, "timestamp": iso(outcome.ts), "age_s": 0.0,
                      "quality": "unconfirmed", "confirmed": False}
            shown = "it has not shown the new value yet" if outcome.actual is None else \
                f"it reads back {format_value(point, outcome.actual)}"
            refusal = HermesError(f"{point.id} = {format_value(point, outcome.value)} was sent, "
                                  f"but the device has not confirmed it: {shown}",
                                  code=ErrorCode.NOT_CONFIRMED)
            return Answer("error", route, action, result=result, checks=checks,
                          error=_err(refusal),
                          reply=write_reply(point, outcome.value, False, zh, outcome.actual),
                          timings_ms=timings)
        result = {"point": point.id, "value": outcome.value, "unit": point.unit,
                  "timestamp": iso(outcome.ts), "age_s": 0.0, "quality": "good"}
        if outcome.confirmed is not None:
            result["confirmed"] = outcome.confirmed
        return Answer("ok", route, action, result=result, checks=checks,
                      reply=write_reply(point, outcome.value, outcome.confirmed, zh),
                      timings_ms=timings)

    def _failed(self, ctx: RequestContext, route: Route, action: Action, exc: HermesError,
                zh: bool) -> Answer:
        return failure(exc.code, exc.message, route=route, action=action,
                       reply=error_reply(exc.message, zh))

    def _finish(self, ctx: RequestContext, timer: float, answer: Answer) -> Answer:
        """`timer`: the request's start (time.perf_counter()).

        The answer is counted, and its record made and queued for the audit log, as soon as it
        has gone (`_account`, called soon: after the step that sends it, before the loop waits
        for more): neither changes the answer, nothing changes an answer's status, action or
        result once it is made, and a client waits for neither. The words of an `ask` are
        taken for its record now (they are forgotten when it returns). A write's intent is
        durable before the device is touched, as ever."""
        answer.trace_id = ctx.trace_id
        total = (time.perf_counter() - timer) * 1000
        answer.timings_ms["total"] = total
        asked = self._asked.get(ctx.trace_id) if self._asked else None  # (none: no `ask`)
        loop = self._loop
        if loop is None or not loop.is_running():  # (an engine outliving its loop: tests)
            loop = self._loop = asyncio.get_running_loop()
        loop.call_soon(self._account, ctx, answer, total / 1000, asked)
        return answer

    def _account(self, ctx: RequestContext, answer: Answer, seconds: float,
                 asked: dict[str, Any] | None) -> None:
        """Count an answered request and queue its `done` record (see `_finish`)."""
        self.metrics.observe(answer.route, answer.status, seconds)
        record = self._record_of(ctx, answer.route, answer.action, "done", asked)
        record["status"] = answer.status
        if answer.error:
            record["error"] = answer.error["code"]
        result = answer.result
        if result:
            if "value" in result:
                record["value"] = result["value"]
            elif "values" in result:
                record["values"] = [item.get("value") for item in result["values"]]
        self.audit.append(record)

    def _record(self, ctx: RequestContext, route: str, action: Action | None,
                phase: str) -> dict[str, Any]:
        return self._record_of(ctx, route, action, phase,
                               self._asked.get(ctx.trace_id) if self._asked else None)

    def _record_of(self, ctx: RequestContext, route: str, action: Action | None, phase: str,
                   asked: dict[str, Any] | None) -> dict[str, Any]:
        """The audit record of a request; `asked`: the words of an `ask` and what routing
        went by (none for another request)."""
        record = {"trace_id": ctx.trace_id, "phase": phase, "source": ctx.source, "who": ctx.peer,
                  "role": ctx.role, "route": route, "dry_run": ctx.dry_run,
                  "action": None if action is None else
                  {"name": action.name, "args": dict(action.args)}}  # action.to_dict()
        if ctx.peer_uid is not None:  # the audit log bounds reads and refusals per peer by it
            record["uid"] = ctx.peer_uid
        if ctx.origin:  # where the request came from within its door (an MQTT topic)
            record["origin"] = ctx.origin[:256]
        if asked is not None:
            record.update(asked)
        return record

    # -- events from tools -------------------------------------------------------------------

    def on_values(self, tool: str, data: dict[str, Any]) -> None:
        """A `values` event: point values a tool polled (it may only send its own points).

        Each `fresh` entry is checked whole before any of its points is refreshed."""
        items = data.get("values")
        if not isinstance(items, list):
            raise ProtocolError("values: expected a list")
        served = self.registry.served_by(tool)
        points = self.registry.points
        for item in items:
            if not isinstance(item, dict):
                raise ProtocolError(f"values: expected objects, got {type(item).__name__}")
            pid, value, ts = item.get("point"), item.get("value"), item.get("ts")
            if not isinstance(pid, str) or pid not in served:
                raise ProtocolError(f"value for {pid!r}, which tool {tool} does not serve")
            point = points[pid]
            if not isinstance(value, (bool, int, float, str)) or \
                    not isinstance(ts, (int, float)) or isinstance(ts, bool):
                raise ProtocolError(f"value for {pid}: expected a scalar and a numeric ts")
            try:
                kept = reported(point, value)
            except ValueError as exc:
                raise ProtocolError(f"value from tool {tool}: {exc}") from None
            # `retained`: a broker's stored copy of the state, of unknown age (see cache.py)
            self.cache.update(point.id, kept, float(ts), retained=item.get("retained") is True)
        fresh = data.get("fresh", [])
        if not isinstance(fresh, list):
            raise ProtocolError("values: fresh must be a list")
        for entry in fresh:  # points a poll read unchanged: only their timestamps move
            ts = entry.get("ts") if isinstance(entry, dict) else None
            pids = entry.get("points") if isinstance(entry, dict) else None
            if not isinstance(ts, (int, float)) or isinstance(ts, bool) \
                    or not isinstance(pids, str):
                raise ProtocolError("values: fresh entries are {ts: number, points: 'id id ...'}")
            named = pids.split(" ")
            # the whole entry in one set operation, not a lookup and a call per point: a
            # poll names every point it read unchanged (most of a plant's, every second)
            if not served.issuperset(named):
                pid = next(p for p in named if p not in served)
                raise ProtocolError(f"fresh value for {pid!r}, which tool {tool} does not "
                                    "serve")
            self.cache.refresh_many(named, float(ts))

    def on_device(self, tool: str, data: dict[str, Any]) -> None:
        """A `device` event: a device of the tool went on- or offline."""
        device, online = data.get("device"), data.get("online")
        if not isinstance(device, str) or not isinstance(online, bool):
            raise ProtocolError("device: expected {device: str, online: bool}")
        if device not in self.registry.devices:
            raise ProtocolError(f"unknown device {device!r}")
        if tool_of(self.registry.devices[device]) != tool:
            # a tool speaks for its own devices: any other could make a polled PLC look dead
            # for good (it reports only changes), or a dead one alive (review atk20s, #9)
            raise ProtocolError(f"device event for {device}, which tool {tool} does not serve")
        reason = str(data.get("reason") or "")[:200]
        ts = data.get("ts")
        ts = float(ts) if isinstance(ts, (int, float)) and not isinstance(ts, bool) else None
        if ts is not None and not 0 <= ts <= time.time():
            # since when a device is offline is said in every answer about its points: a time
            # to come (1e308 broke every one of them) or before 1970 is no time it went
            ts = None
        before = self.cache.device(device)
        if self.cache.set_device(device, online, reason, ts):
            if online:
                log.info("device %s is online%s", device, "" if before is None else " again")
            else:
                log.warning("device %s is offline: %s", device, reason or "no reason given")

    # -- status ------------------------------------------------------------------------------

    def points_status(self) -> list[dict[str, Any]]:
        out = []
        for point in self.registry:
            j = self.cache.judge(point.id)
            out.append({
                "id": point.id, "name": point.name, "device": point.device,
                "driver": point.driver, "kind": point.kind, "unit": point.unit,
                "writable": point.writable, "min": point.min, "max": point.max,
                "aliases": list(point.aliases),
                "value": j.reading.value if j else None,
                "shown": format_value(point, j.reading.value) if j else None,
                "age_s": round(j.age, 1) if j else None,
                "quality": j.quality if j else "none",
                "stale_reason": j.why if j and j.stale else None,
            })
        return out


def _words(text: Any, transcript: str | None) -> dict[str, Any]:
    """The words of an `ask` for its audit records: printable-escaped, at most MAX_TEXT
    characters each (the request limit), flagged when cut."""
    words: dict[str, Any] = {}
    for key, said in (("text", text), ("transcript", transcript)):
        if said is None:
            continue
        shown, cut = printable(said if isinstance(said, str) else repr(said), MAX_TEXT)
        words[key] = shown
        if cut:
            words[f"{key}_cut"] = True
    return words


def _routing(route: str, action: Action, candidates: tuple[str, ...]) -> dict[str, Any]:
    """What a routed command's records say about how it was placed: the candidate points the
    router weighed, or why it placed no point."""
    if candidates:
        return {"candidates": [c[:64] for c in candidates[:MAX_CANDIDATES]]}
    if action.name == "respond":
        reason = str(action.args.get("reason", "?"))[:40]
        note = action.args.get("llm")
        return {"why": f"{reason} ({str(note)[:80]})" if note else reason}
    return {"why": f"placed by {'the rules' if route == 'rule' else 'the model'}, no other "
                   "candidate"}


def _check_deadline(ctx: RequestContext, args: dict[str, Any]) -> None:
    """A call's time is its request's: arguments may not ask a tool for more."""
    asked = args.get("deadline_ms")
    allowed = int(ctx.remaining() * 1000)
    if asked is not None and (not isinstance(asked, int) or isinstance(asked, bool)
                              or asked > allowed):
        raise BadRequest(f"args.deadline_ms {str(asked)[:24]} is more time than this request "
                         f"has ({allowed} ms; set the request's timeout instead)")


def _err(exc: HermesError) -> dict[str, str]:
    return {"code": exc.code.value, "message": exc.message}


def _busy(route: Route = "rule") -> Answer:
    return refusal(Busy("hermesd is busy; try again in a moment"), route)

