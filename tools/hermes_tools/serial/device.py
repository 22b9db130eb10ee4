"""One configured serial instrument: its port kept open, its requests matched, its points served.

A `SerialDevice` keeps its port connected (reopening with jittered backoff after an unplug, at
once when the same path comes back, even as another tty) and asks one question at a time. Each
question is preceded by a *cut* (see `link`): the input not read yet is discarded, and so is an
unfinished line read before it (counted in `discarded`). Only a complete line made of bytes read
after its question's cut can answer it; lines completed before are strays (counted, or claimed by
a streamed point), however late they reach the loop. The first such line answers: one that does
not match, is cut off as oversize or is not text is that request's failure (a clear
`DEVICE_ERROR`), unless a streamed point of the device claims it. After a request goes
unanswered, or fails while its line is still arriving (an oversize line), the port rests for one
`timeout` before the next question, so the rest of it is discarded instead of answering the next.
Streamed points keep the latest value of the lines that match them and send it as `values`
events, at most one per `min_event_interval`. Query points are polled every `poll_interval`.

It reports what it sees (`values`, `device`) and never invents a value: a failed read sends
nothing for that point, so its last value ages into `stale` in the daemon's cache.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from hermes_tools.serial.framing import Line, LineFramer
from hermes_tools.serial.link import PortLost, PortSettings, SerialLink
from hermes_tools.serial.points import BadAnswer, PointSpec
from hermesd.core.errors import (
    DeviceOffline,
    ErrorCode,
    HermesError,
    Timeout,
    ToolError,
    UnknownPoint,
)

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.25  # seconds before the first reopen attempt
BACKOFF_MAX = 5.0
WATCH_PERIOD = 0.25  # how often an open port's path is checked (unplugged, relinked)
NOT_ANSWERING = "not answering"


class LostMidRequest(DeviceOffline):
    """The port was lost once a request's bytes had begun to go out: the instrument may have
    heard it, so a write may have been taken (never "not sent")."""


class Sink(Protocol):
    """Where a device reports (the tool, which sends the events to the daemon)."""

    def values(self, readings: list[dict[str, Any]]) -> None: ...

    def device_state(self, device: str, online: bool, reason: str = "") -> None: ...


@dataclass
class _Pending:
    """The one question in flight on the port."""

    expect: re.Pattern[str]
    what: str  # the question, as a person reads it
    point: str
    answer: asyncio.Future[tuple[re.Match[str], float]]


@dataclass
class _Latest:
    value: Any
    ts: float


@dataclass
class _Due:
    reading: dict[str, Any] | None = None  # waiting for its point's min_event_interval
    last_sent: float = -math.inf
    timer: asyncio.TimerHandle | None = None
    waiters: list[asyncio.Future[_Latest]] = field(default_factory=list)


def show(data: bytes) -> str:
    text = repr(data.decode("ascii", "backslashreplace"))
    return text if len(text) <= 40 else text[:37] + "..."


class SerialDevice:
    def __init__(self, dev_id: str, config: dict[str, Any], sink: Sink,
                 blocked: str | None = None) -> None:
        self.id = dev_id
        self.config = config
        self.settings = PortSettings.from_config(config)
        self.timeout = float(config["timeout"])
        poll = config.get("poll_interval")
        self.poll_interval = float(poll) if poll else None
        self.points = {pid: PointSpec.from_config(dev_id, pid, p, self.settings.encoding)
                       for pid, p in config.get("points", {}).items()}
        self.sink = sink
        self.blocked = blocked  # why this device may not open its port (another device has it)
        self._link: SerialLink | None = None
        self._framer = self._new_framer()
        self._lost: asyncio.Future[str] | None = None
        self._connected = asyncio.Event()
        self._tried = asyncio.Event()  # the first attempt to open the port is over
        self._lock = asyncio.Lock()  # one question at a time on the port
        self._pending: _Pending | None = None
        self._rest_until = 0.0  # no question before this time.monotonic(): late answers may come
        self._latest: dict[str, _Latest] = {}
        self._due: dict[str, _Due] = {pid: _Due() for pid, p in self.points.items() if p.streamed}
        self._online: bool | None = None
        self._reason = "not connected yet"
        self._failing: dict[str, str] = {}  # point -> the problem last logged for it
        self.strays = 0  # lines nobody asked for and no streamed point wanted
        self.discarded = 0  # bytes thrown away at cuts (unread input, unfinished lines)
        self._cut_for: object | None = None  # the question whose cut the chunks now follow

    def same_config(self, config: dict[str, Any]) -> bool:
        return config == self.config

    @property
    def query_points(self) -> list[PointSpec]:
        return [p for p in self.points.values() if not p.streamed]

    # -- lifecycle ---------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the device until cancelled."""
        try:
            if self.blocked:
                self._set_state(False, self.blocked)
                await asyncio.Event().wait()
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._keep_connected(), name=f"serial-{self.id}-port")
                if self.query_points and self.poll_interval:
                    tg.create_task(self._poll(), name=f"serial-{self.id}-poll")
        finally:
            for due in self._due.values():
                if due.timer is not None:
                    due.timer.cancel()
                for waiter in due.waiters:
                    waiter.cancel()

    async def _keep_connected(self) -> None:
        backoff = BACKOFF_FIRST
        down_since: float | None = None
        port = self.settings.port
        while True:
            link_box: list[SerialLink] = []
            try:
                link = await SerialLink.open(self.id, self.settings, self._data_for(link_box),
                                             self._cut_for_link(link_box),
                                             self._lost_for(link_box))
            except Exception as exc:  # any backend's failure to open is just that
                reason = f"cannot open {port}: {_short(exc)}"
                if down_since is None:
                    down_since = time.monotonic()
                    log.warning("%s: %s; retrying with backoff", self.id, reason)
                    self._set_state(False, reason, quiet=True)
                    self._tried.set()
                else:  # the reason it went offline stays what people see, not each retry's
                    log.debug("%s: still %s", self.id, reason)
                await self._wait_to_retry(backoff)
                backoff = min(BACKOFF_MAX, backoff * 2) * random.uniform(0.8, 1.2)  # noqa: S311
                continue
            backoff = BACKOFF_FIRST
            link_box.append(link)
            where = port if link.opened == port else f"{port} ({link.opened})"
            if down_since is None:
                log.info("%s: connected on %s", self.id, where)
            else:
                log.info("%s: reconnected on %s after %.1f s", self.id, where,
                         time.monotonic() - down_since)
            self._attach(link)
            self._tried.set()
            try:
                reason = await self._watch(link)
            finally:
                self._detach(link)
                await link.close()
            down_since = time.monotonic()
            log.warning("%s: lost %s: %s; reconnecting", self.id, port, reason)
            self._set_state(False, reason, quiet=True)

    def _attach(self, link: SerialLink) -> None:
        self._link = link
        self._framer = self._new_framer()
        self._cut_for = None
        self._lost = asyncio.get_running_loop().create_future()
        self._rest_until = 0.0
        self._connected.set()
        if not self.query_points:  # a streaming device is as online as its port
            self._set_state(True, f"connected on {self.settings.port}")

    def _detach(self, link: SerialLink) -> None:
        if self._link is link:
            self._link = None
            self._connected.clear()
        pending = self._pending
        if pending is not None and not pending.answer.done():
            pending.answer.set_exception(DeviceOffline(self.id, "the port was lost mid-request"))
        for due in self._due.values():
            for waiter in due.waiters:
                if not waiter.done():
                    waiter.set_exception(DeviceOffline(self.id, "the port was lost"))
            due.waiters.clear()

    def _new_framer(self) -> LineFramer:
        return LineFramer(self.settings.terminator, self.settings.max_line)

    def _data_for(self, box: list[SerialLink]) -> Callable[[bytes, float], None]:
        def on_data(data: bytes, wall: float) -> None:
            if not (box and box[0] is self._link):  # bytes of a closed link are not ours now
                return
            for line in self._framer.feed(data, wall):
                self._take(line)
        return on_data

    def _cut_for_link(self, box: list[SerialLink]) -> Callable[[object, int], None]:
        def on_cut(question: object, unread: int) -> None:
            if not (box and box[0] is self._link):
                return
            # whatever came before is stale: an unfinished line read so far is noise or the end
            # of a late answer, never the beginning of this question's answer
            self._cut_for = question
            dropped = unread + self._framer.reset()
            if dropped:
                self.discarded += dropped
                what = question.what if isinstance(question, _Pending) else "a question"
                log.debug("%s: discarded %d stale bytes before %s", self.id, dropped, what)
        return on_cut

    def _lost_for(self, box: list[SerialLink]) -> Callable[[str], None]:
        def on_lost(reason: str) -> None:
            if box and box[0] is self._link and self._lost is not None and not self._lost.done():
                self._lost.set_result(reason)
        return on_lost

    async def _watch(self, link: SerialLink) -> str:
        """Wait until the port fails or its path vanishes or leads elsewhere; say which."""
        assert self._lost is not None
        lost = self._lost
        port = self.settings.port
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WATCH_PERIOD):
                    return await self._why_failed(link, await asyncio.shield(lost))
            if link.lost_reason is not None:  # lost before we were listening for it
                return await self._why_failed(link, link.lost_reason)
            if self.settings.is_path:
                now = leads_to(port)
                if now is None:
                    return f"{port} disappeared (unplugged)"
                if now != link.opened:
                    return f"{port} now leads to {now} (replugged)"

    async def _why_failed(self, link: SerialLink, error: str) -> str:
        """A port that failed (EIO) as its device path goes: unplugged, which the path says a
        moment after the error (udev removes the link once the kernel has dropped the tty)."""
        if not self.settings.is_path:
            return error
        port = self.settings.port
        deadline = time.monotonic() + 2 * WATCH_PERIOD
        while True:
            now = leads_to(port)
            if now is None:
                return f"{port} disappeared (unplugged): {error}"
            if now != link.opened:
                return f"{port} now leads to {now} (replugged): {error}"
            if time.monotonic() >= deadline:
                return error
            await asyncio.sleep(WATCH_PERIOD / 5)

    async def _wait_to_retry(self, delay: float) -> None:
        """Sleep `delay`, but retry at once when a missing device path appears again."""
        port = self.settings.port
        absent = self.settings.is_path and leads_to(port) is None
        deadline = time.monotonic() + delay
        while (left := deadline - time.monotonic()) > 0:
            await asyncio.sleep(min(WATCH_PERIOD / 2, left))
            if absent and leads_to(port) is not None:
                return

    def _set_state(self, online: bool, reason: str, *, quiet: bool = False) -> None:
        if online == self._online and (online or reason == self._reason):
            return
        was, previous = self._online, self._reason
        self._online, self._reason = online, reason
        self.sink.device_state(self.id, online, "" if online else reason)
        if quiet:
            return
        if online and was is False and previous.startswith(NOT_ANSWERING):
            log.info("%s: answering again", self.id)  # a port outage says so on reconnecting
        elif not online:
            log.warning("%s: %s", self.id, reason)

    # -- lines ----------------------------------------------------------------------------------

    def _decode(self, line: Line) -> tuple[str | None, str]:
        if line.cut_at:
            return None, line.describe()
        try:
            return line.raw.decode(self.settings.encoding).strip("\r\n"), ""
        except UnicodeDecodeError:
            return None, f"bytes that are not {self.settings.encoding} text ({line.describe()})"

    def _take(self, line: Line) -> None:
        text, problem = self._decode(line)
        pending = self._pending
        # the link delivers chunks and cuts in the order it made them, and the framer was reset
        # at the cut: a line completed after this question's cut is made of bytes read after it
        if pending is not None and not pending.answer.done() and self._cut_for is pending:
            if text is not None:
                found = pending.expect.search(text)
                if found:
                    pending.answer.set_result((found, line.wall))
                    return
                if self._stream(text, line):
                    return
            said = problem or repr(text)
            pending.answer.set_exception(BadAnswer(
                f"{self.id} answered {said} to {pending.what}, which is not what {pending.point} "
                f"expects (pattern {pending.expect.pattern!r})"))
            return
        if text is not None and self._stream(text, line):
            return
        self.strays += 1
        log.debug("%s: ignored a line nobody asked for: %s", self.id, problem or repr(text))

    def _stream(self, text: str, line: Line) -> bool:
        """Give a line to the streamed points it matches; whether any did."""
        claimed = False
        for point in self.points.values():
            if not point.streamed:
                continue
            found = point.match(text)
            if found is None:
                continue
            claimed = True
            due = self._due[point.id]
            try:
                value = point.value_of(found)
            except BadAnswer as exc:
                self._point_failed(point, exc.message)
                for waiter in due.waiters:
                    if not waiter.done():
                        waiter.set_exception(exc)
                due.waiters.clear()
                continue
            self._point_ok(point)
            latest = _Latest(value, line.wall)
            self._latest[point.id] = latest
            for waiter in due.waiters:
                if not waiter.done():
                    waiter.set_result(latest)
            due.waiters.clear()
            due.reading = {"point": point.id, "value": value, "ts": line.wall}
            self._send_due(point)
        return claimed

    def _send_due(self, point: PointSpec) -> None:
        """Send a streamed point's latest reading now, or when its interval allows."""
        due = self._due[point.id]
        if due.reading is None or due.timer is not None:
            return
        wait = due.last_sent + point.min_event_interval - time.monotonic()
        if wait > 0:
            due.timer = asyncio.get_running_loop().call_later(wait, self._timer_fired, point)
            return
        reading, due.reading = due.reading, None
        due.last_sent = time.monotonic()
        self.sink.values([reading])

    def _timer_fired(self, point: PointSpec) -> None:
        self._due[point.id].timer = None
        self._send_due(point)

    def _point_failed(self, point: PointSpec, problem: str) -> None:
        if point.id not in self._failing:
            log.warning("%s: %s", point.id, problem)
        self._failing[point.id] = problem

    def _point_ok(self, point: PointSpec) -> None:
        if self._failing.pop(point.id, None) is not None:
            log.info("%s: readable again", point.id)

    # -- requests ---------------------------------------------------------------------------

    async def ask(self, payload: bytes, expect: re.Pattern[str], point: str) -> tuple[re.Match[str],
                                                                                     float]:
        """Send `payload` and wait for the line matching `expect`: (match, wall time)."""
        what = show(payload)
        async with self._lock:
            rest = self._rest_until - time.monotonic()
            if rest > 0:
                log.debug("%s: resting %.2f s for late answers before %s", self.id, rest, what)
                await asyncio.sleep(rest)
            link = await self._require_link()
            loop = asyncio.get_running_loop()
            pending = _Pending(expect, what, point, loop.create_future())
            self._pending = pending
            try:
                async with asyncio.timeout(self.timeout):
                    await link.write(payload, question=pending)
                    found, wall = await pending.answer
            except TimeoutError:
                problem = f"{self.id} did not answer {what} within {self.timeout:g} s"
                self._set_state(False, f"{NOT_ANSWERING} ({problem})")
                raise Timeout(problem) from None
            except PortLost as exc:
                raise _lost(self.id, exc) from None
            except DeviceOffline as exc:  # (`_detach`) lost while the answer was awaited:
                # the question had gone out whole
                raise LostMidRequest(self.id, exc.reason) from None
            finally:
                self._pending = None
                answer = pending.answer
                if not answer.done() or answer.cancelled():
                    # unanswered (our timeout or the caller's deadline): an answer may still come
                    self._rest_until = time.monotonic() + self.timeout
                    answer.cancel()
                elif answer.exception() is not None and self._framer.mid_line:
                    # failed on a line still arriving (cut off as oversize): let it end first
                    self._rest_until = time.monotonic() + self.timeout
        self._set_state(True, "answering")
        return found, wall

    async def send(self, payload: bytes) -> None:
        """Send a command that expects no answer."""
        async with self._lock:
            link = await self._require_link()
            try:
                async with asyncio.timeout(self.timeout):
                    await link.write(payload)
            except TimeoutError:
                raise Timeout(f"{self.id} did not take {show(payload)} within "
                              f"{self.timeout:g} s") from None
            except PortLost as exc:
                raise _lost(self.id, exc) from None

    async def _require_link(self) -> SerialLink:
        """The open port; DeviceOffline if there is none (after the first attempt to open it,
        so that a request made just after start is not refused for being early)."""
        if self.blocked:
            raise DeviceOffline(self.id, self.blocked)
        await self._tried.wait()
        if self._link is None:
            raise DeviceOffline(self.id, self._reason)
        return self._link

    def point(self, pid: str) -> PointSpec:
        found = self.points.get(pid)
        if found is None:
            raise UnknownPoint(pid, f"device {self.id} has no point {pid!r}")
        return found

    async def query(self, point: PointSpec) -> _Latest:
        assert point.query is not None
        try:
            found, wall = await self.ask(point.query, point.pattern, point.id)
            value = point.value_of(found)
        except BadAnswer as exc:
            self._point_failed(point, exc.message)
            raise
        self._point_ok(point)
        latest = _Latest(value, wall)
        self._latest[point.id] = latest
        return latest

    async def read(self, pid: str) -> dict[str, Any]:
        point = self.point(pid)
        latest = await (self._streamed(point) if point.streamed else self.query(point))
        return {"point": pid, "value": latest.value, "ts": latest.ts}

    async def _streamed(self, point: PointSpec) -> _Latest:
        """The latest streamed value while it is fresh, else the next one within `timeout`."""
        await self._require_link()
        latest = self._latest.get(point.id)
        fresh_for = point.max_age if point.max_age is not None else self.timeout
        if latest is not None and time.time() - latest.ts <= fresh_for:
            return latest
        waiter: asyncio.Future[_Latest] = asyncio.get_running_loop().create_future()
        self._due[point.id].waiters.append(waiter)
        try:
            async with asyncio.timeout(self.timeout):
                return await waiter
        except TimeoutError:
            raise Timeout(f"{self.id} sent no line for {point.id} within "
                          f"{self.timeout:g} s") from None
        finally:
            with contextlib.suppress(ValueError):
                self._due[point.id].waiters.remove(waiter)

    async def write(self, pid: str, value: Any) -> dict[str, Any]:
        point = self.point(pid)
        payload = point.render(value)  # refuses a bad value before anything is sent
        before = self._latest.get(point.id)  # what it read before: a refusal leaves it so
        try:
            if point.ack is not None:
                await self.ask(payload, point.ack, point.id)
            else:
                await self.send(payload)
        except (Timeout, LostMidRequest) as exc:
            # begun on the line, and not acknowledged in time or the port lost under it: the
            # instrument may have taken it (atk25s: one that had was answered "could not do
            # that"). A port offline before a byte went out stays DEVICE_OFFLINE, not sent.
            raise _unsure(exc.message) from None
        except BadAnswer as exc:
            # answered, but not with its acknowledgement: a refusal ("ERR RANGE"), or the
            # command taken and acknowledged in words the pattern does not know
            raise await self._unacknowledged(point, value, exc, before) from None
        log.info("%s: sent %s", point.id, show(payload))
        sent = time.time()
        if point.query is None:
            return {"point": pid, "value": value, "ts": sent}
        try:
            latest = await self.query(point)
        except HermesError:
            # taken (acknowledged, or sent with no acknowledgement to wait for), and not read
            # back: silent, a line that is no reading, the port lost. Not shown yet, never
            # "could not do that"
            return {"point": pid, "value": value, "ts": sent, "confirmed": False}
        return {"point": pid, "value": latest.value, "ts": latest.ts,
                "confirmed": point.same(value, latest.value)}

    async def _unacknowledged(self, point: PointSpec, value: Any, answered: BadAnswer,
                              before: _Latest | None) -> HermesError:
        """What a write answered with another line than its acknowledgement was: a refusal
        (DEVICE_ERROR) only when the point reads back the value it had before, unchanged;
        else not sure (NOT_CONFIRMED), since it may have been taken — rounded or clamped by
        the instrument, it reads back another value than the one sent (atk28)."""
        if point.query is None:
            return _unsure(answered.message)
        try:
            latest = await self.query(point)
        except HermesError as exc:
            return _unsure(f"{answered.message}, and it was not read back ({exc.message})")
        if point.same(value, latest.value) or before is None or \
                not point.same(before.value, latest.value):
            return _unsure(f"{answered.message}, and reads back {latest.value!r}")
        return BadAnswer(f"{answered.message}; {point.id} still reads back {latest.value!r}: "
                         "not set")

    # -- polling ------------------------------------------------------------------------------

    async def _poll(self) -> None:
        assert self.poll_interval is not None
        points = self.query_points
        while True:
            await self._connected.wait()
            started = time.monotonic()
            readings: list[dict[str, Any]] = []
            for point in points:
                try:
                    latest = await self.query(point)
                except (Timeout, DeviceOffline):
                    break  # a silent or vanished device: the rest of this round would be too
                except HermesError:
                    continue  # that point's answer was unusable (logged once); others may do
                readings.append({"point": point.id, "value": latest.value, "ts": latest.ts})
            # every round refreshes the timestamps, changed or not: that is what keeps them fresh
            self.sink.values(readings)
            await asyncio.sleep(max(0.0, started + self.poll_interval - time.monotonic()))


def _lost(device: str, exc: PortLost) -> DeviceOffline:
    """The port lost under a request: before its bytes went out (not sent), or as they did."""
    return (LostMidRequest if exc.begun else DeviceOffline)(device, str(exc))


def _unsure(why: str) -> ToolError:
    """A write that may or may not have been done."""
    return ToolError(ErrorCode.NOT_CONFIRMED, f"{why}; it may or may not have taken effect")


def leads_to(path: str) -> str | None:
    """The file a device path resolves to now, or None when it is gone.

    A stat and a readlink of a local device path: quick syscalls that do not wait on a device,
    so they are made on the event loop (device paths are never on network file systems).
    """
    if not os.path.exists(path):
        return None
    return os.path.realpath(path)


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "exclusively lock" in text:
        return "another program has it open (exclusive lock)"
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    # pyserial wraps: "[Errno 2] could not open port /x: [Errno 2] No such file or directory: '/x'"
    match = re.search(r"\[Errno \d+\] ([^:\[\]]+?)(?::\s*'[^']*')?$", text)
    return match.group(1) if match else text
