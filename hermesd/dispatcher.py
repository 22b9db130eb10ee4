"""The dispatcher: turns an allowed action into tool calls, within the request's deadline.

Calls are schema-checked by the tool link; codes a tool marks retryable are retried with a short
jittered backoff while the deadline allows; a read that fails is answered from the last known
value, marked stale with the reason. Nothing here decides whether an action is allowed: policy
has done that before the dispatcher is asked.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Coroutine
from typing import Any, NamedTuple

from hermesd.cache import EARLIEST_TS, LATEST_TS, Judgement, ValueCache
from hermesd.config.model import Point
from hermesd.context import RequestContext
from hermesd.core.errors import (
    RETRYABLE,
    ErrorCode,
    Garbled,
    HermesError,
    Timeout,
    ToolError,
    ToolUnavailable,
    UnknownPoint,
)
from hermesd.core.registers import MAX_MAGNITUDE
from hermesd.registry import Registry
from hermesd.supervisor import Supervisor
from hermesd.value_maps import reported, to_device

RETRY_FIRST = 0.05
MIN_CALL_TIME = 0.005  # below this much time left, do not start another attempt


_new_tuple = tuple.__new__  # a named tuple of all its fields, without its Python __new__


class ReadOutcome(NamedTuple):  # a named tuple: immutable, and cheap to make on every read
    judgement: Judgement
    error: HermesError | None = None  # why the device was not read (the value is then stale)


class WriteOutcome(NamedTuple):
    value: Any
    ts: float
    confirmed: bool | None  # None: the tool does not say
    #: what the device holds after an unconfirmed write, when it was read back (else None)
    actual: Any = None


class Dispatcher:
    def __init__(self, supervisor: Supervisor, cache: ValueCache, registry: Registry) -> None:
        self.supervisor = supervisor
        self.cache = cache
        self.registry = registry
        self._tools: dict[str, str] = {}  # the tool of each point asked, for this registry

    def reconfigure(self, registry: Registry) -> None:
        self.registry = registry
        self._tools = {}

    def _tool(self, point: Point) -> str:
        tool = self._tools.get(point.id)
        if tool is None:
            # the point as this registry has it: a request planned before a reload (a write
            # waits for its audit intent) must neither pin the point to its old device nor
            # find its device gone
            current = self.registry.points.get(point.id)
            if current is None:
                raise UnknownPoint(point.id, f"{point.id} is no longer configured (the config "
                                             "was reloaded)")
            tool = self._tools[point.id] = self.registry.tool(current)
        return tool

    async def call(self, ctx: RequestContext, tool: str, action: str, args: dict[str, Any]) -> Any:
        """One tool call with retries of retryable errors, bounded by the request's deadline."""
        try:
            return await self._attempt(ctx, tool, action, args)
        except ToolError as exc:
            return await self._retry(ctx, tool, action, args, exc)

    def _attempt(self, ctx: RequestContext, tool: str, action: str, args: dict[str, Any]
                 ) -> Coroutine[Any, Any, Any]:
        """One attempt of a call, to be awaited: no coroutine of its own, whose frame every read
        would make and step through."""
        remaining = ctx.remaining()
        if remaining < MIN_CALL_TIME:
            raise Timeout(f"no time left for {tool}.{action}")
        return self.supervisor.get(tool).connected().call(action, args, ctx.for_tool(), remaining)

    async def _retry(self, ctx: RequestContext, tool: str, action: str, args: dict[str, Any],
                     failed: ToolError) -> Any:
        """After an attempt failed with `failed`: again, after a short jittered backoff, while
        the tool says another may succeed and the deadline allows; else its error."""
        attempt = 0
        writing = _writes(self.supervisor, tool, action)
        while True:
            if not failed.retryable or (writing and failed.code not in RETRYABLE):
                # a write is tried again only when the tool says it was not taken (BUSY):
                # one "retryable" NOT_CONFIRMED had sent one write seven times (atk25s)
                raise failed
            delay = RETRY_FIRST * 2**attempt * random.uniform(0.5, 1.5)  # noqa: S311
            if ctx.remaining() < delay + MIN_CALL_TIME:
                raise failed
            attempt += 1
            await asyncio.sleep(delay)
            try:
                return await self._attempt(ctx, tool, action, args)
            except ToolError as exc:
                failed = exc

    async def read(self, ctx: RequestContext, point: Point) -> ReadOutcome:
        tool = self._tools.get(point.id) or self._tool(point)
        args = {"point": point.id}
        try:
            try:  # `call`, without its coroutine between this one and the tool's answer
                answered = await self._attempt(ctx, tool, "read", args)
            except ToolError as exc:
                answered = await self._retry(ctx, tool, "read", args, exc)
            if answered.__class__ is not dict or "value" not in answered or \
                    answered.get("ts").__class__ not in _NUMBERS:
                _garbled_read(tool, point, answered)  # (hermesd's READ schema, whatever the
                # tool declared its own to be: its answer's time is read below)
            if answered.get("point", point.id) != point.id:  # (`_own`, without its call)
                _own(tool, point, answered)
            result = answered
            try:  # (`_reported`, without its call)
                value = reported(point, result["value"])
            except ValueError as exc:
                raise Garbled(f"tool {tool} reported no value of the point: {exc}") from None
            if isinstance(value, float) and not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
                # NaN, infinity, a float's largest value ("no value" on many devices): what
                # the cache refuses to keep is never answered as a good reading (atk21, HUGE)
                raise ToolError(ErrorCode.DEVICE_ERROR, f"{point.id}: the device reported "
                                                        f"{value!r}, which is no measurement")
        except HermesError as exc:
            judged = self.cache.judge(point.id)
            if judged is None:
                raise
            why = _why(exc, point)
            stale = Judgement(judged.reading, judged.age, True,
                              judged.why if judged.stale and judged.why else why)
            return ReadOutcome(stale, exc)
        ts = float(result["ts"])
        # a tool's `retained`: a broker's stored copy, of unknown age (stale until confirmed)
        judged = self.cache.take(point.id, value, ts, retained=result.get("retained") is True)
        if judged is None:  # NaN refused by the cache, or older than the reading it keeps:
            # judged all the same (offline, max age), never fresh by default
            judged = self.cache.judge_unkept(point.id, value, ts)
        return _new_tuple(ReadOutcome, (judged, None))  # ReadOutcome(judged), on every read

    async def write(self, ctx: RequestContext, point: Point, value: Any) -> WriteOutcome:
        tool = self._tool(point)
        try:
            result = await self.call(ctx, tool, "write", {
                "point": point.id, "value": to_device(point, value)})
            if result.__class__ is not dict:
                raise Garbled(f"tool {tool} answered the write with {_kind(result)}, not an "
                              "object")
            _own(tool, point, result)
            ts = result.get("ts", None)
            if ts is not None and ts.__class__ not in _NUMBERS:
                raise Garbled(f"tool {tool} answered the write with a time (ts) that is "
                              f"{_kind(ts)}, not a number")
            written = _reported(tool, point, result["value"]) if "value" in result else value
            if isinstance(written, float) and not -MAX_MAGNITUDE <= written <= MAX_MAGNITUDE:
                raise Garbled(f"tool {tool} answered the write with {written!r}, which is no "
                              "measurement")  # (as a read's answer is refused: atk25s)
        except Garbled as exc:
            # the write was sent, and what the tool did with it cannot be read from its answer
            raise ToolError(ErrorCode.NOT_CONFIRMED, f"{exc.message}; whether {point.id} was "
                                                     "set is not known") from None
        except ToolUnavailable as exc:
            if not exc.sent:
                raise
            # it reached the tool, whose connection then broke: it may have been done
            raise ToolError(ErrorCode.NOT_CONFIRMED, f"{exc.message}, after the write reached "
                                                     f"it; whether {point.id} was set is not "
                                                     "known") from None
        # an answer stamped with no time one can read is stamped with the time it came
        ts = float(ts) if ts is not None and EARLIEST_TS <= ts <= LATEST_TS else time.time()
        confirmed = result.get("confirmed")
        confirmed = confirmed if isinstance(confirmed, bool) else None
        if confirmed is False:
            # the device did not take it (or has not shown it yet): the cache keeps what the
            # device last showed, never our wish
            judged = self.cache.judge(point.id)
            actual = judged.reading.value if judged is not None and judged.reading.ts >= ts \
                else None
            return WriteOutcome(written, ts, False, actual)
        if confirmed:
            self.cache.update(point.id, written, ts)  # what the device showed
        # a write its tool cannot confirm (MQTT `confirm: false`, a serial command with no
        # query) may be answered done, but its wish is no reading of the device: the cache,
        # Home Assistant and history keep what the device last said (atk20s #20)
        return WriteOutcome(written, ts, confirmed)


def _writes(supervisor: Supervisor, tool: str, action: str) -> bool:
    """Whether `action` of `tool` acts on a device (a point's write, a raw write)."""
    if action == "write":
        return True
    link = supervisor.get(tool).link
    spec = link.actions.get(action) if link is not None else None
    return spec is None or spec.effect == "write"  # (unknown: taken for a write)


def _own(tool: str, point: Point, result: dict[str, Any]) -> dict[str, Any]:
    """`result`, if it is the point's own: a tool that mixed up its answers (one under the id
    of another call in flight) never has another point's value taken for this one."""
    answered = result.get("point", point.id)
    if answered != point.id:
        raise Garbled(f"tool {tool} answered for {point.id} with a result for "
                      f"{str(answered)[:80]!r}")
    return result


def _reported(tool: str, point: Point, value: Any) -> Any:
    try:
        return reported(point, value)
    except ValueError as exc:
        raise Garbled(f"tool {tool} reported no value of the point: {exc}") from None


_NUMBERS = (int, float)  # a time (ts) in an answer: a number, never a boolean or a string


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(value.__class__, "a number")


def _garbled_read(tool: str, point: Point, answered: Any) -> None:
    """Raise what is wrong with a read's answer that breaks hermesd's READ schema."""
    if answered.__class__ is not dict:
        raise Garbled(f"tool {tool} answered the read of {point.id} with {_kind(answered)}, "
                      "not an object")
    if "value" not in answered:
        raise Garbled(f"tool {tool} answered the read of {point.id} without a value")
    ts = answered.get("ts")
    raise Garbled(f"tool {tool} answered the read of {point.id} " + (
        "without a time (ts)" if ts is None else f"with a time (ts) that is {_kind(ts)}, not "
                                                 "a number"))


def _why(exc: HermesError, point: Point) -> str:
    if exc.code == ErrorCode.TOOL_UNAVAILABLE:
        return f"the {point.driver} tool is not running"
    if exc.code == ErrorCode.TIMEOUT:
        return f"{point.device} did not answer in time"
    if exc.code == ErrorCode.DEVICE_OFFLINE:
        return f"{point.device} is offline"
    return f"{point.device} read failed: {exc.message}"
