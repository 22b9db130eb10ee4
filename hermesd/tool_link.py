"""The daemon's end of one tool connection: calls matched to results, events, pings.

A `ToolLink` owns one connected Unix stream. It sends `call`/`configure`/`ping` frames, resolves
the caller's future when the matching `result`/`error`/`pong` arrives, and hands `event` frames to
a callback. Every call argument and result is checked against the JSON Schemas of the tool's
manifest. When the stream ends or sends a bad frame, every call in flight fails with
`ToolUnavailable` at once — nothing waits for a dead tool.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, cast

import fastjsonschema

from hermesd.core.errors import (
    BadRequest,
    ErrorCode,
    Garbled,
    ProtocolError,
    Timeout,
    ToolError,
    ToolUnavailable,
    Unanswered,
)
from hermesd.core.protocol import (
    EXPIRES_AT_VERSION,
    ActionSpec,
    Configure,
    Error,
    Event,
    FrameDecoder,
    Hello,
    Message,
    Ping,
    Pong,
    Result,
    decode,
    encode,
    encode_call,
)
from hermesd.quick_schema import quick

log = logging.getLogger(__name__)

EventHandler = Callable[[str, Event], None]
READ_CHUNK = 256 * 1024
CLOSE_TIMEOUT = 5.0  # seconds a closed connection may take to be gone
MAX_CHECKED = 4096  # (action, point) arguments remembered as valid, per link
MAX_CHECKED_POINT = 256  # characters of a point remembered so (any longer is checked each time)
TIMER_STEP = 0.001  # seconds: the deadline timer is never armed nearer than this


class ToolLink:
    def __init__(self, tool: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 on_event: EventHandler) -> None:
        self.tool = tool
        self._reader = reader
        self._writer = writer
        #: the stream's transport, once (the writer's property is a Python call per request)
        self._transport = writer.transport
        self._on_event = on_event
        self._decoder = FrameDecoder()
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._next_id = 0
        self.hello: Hello | None = None
        #: whether the tool takes a call's absolute deadline (`Call.expires_at`)
        self._absolute = False
        self.actions: dict[str, ActionSpec] = {}
        self._validators: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {}
        #: (action, point) whose arguments `{"point": point}` passed the action's input schema:
        #: a schema is a pure function of the arguments, and these are every read's
        self._checked: set[tuple[str, str]] = set()
        self.closed = asyncio.Event()
        #: `closed.is_set()`, as a plain attribute: asked on every call and every frame
        self.shut = False
        self.close_reason = ""
        self.last_pong = time.monotonic()
        self._lost: asyncio.Future[None] | None = None  # done when the transport is gone
        self._write_paused = False
        self._drained: asyncio.Future[None] | None = None
        #: each request's deadline (loop time) by id, and the one timer that enforces them:
        #: armed for the earliest, and moved only when a nearer one comes (see `_watch`)
        self._due: dict[int, float] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        #: the loop the link runs in, once a request asked for it: asyncio.get_running_loop()
        #: makes a getpid() system call on every call (3.11 checks for a fork)
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- lifecycle --------------------------------------------------------------------------

    async def handshake(self, timeout: float) -> Hello:
        """Wait for the tool's hello and compile its action schemas.

        Whatever the tool does instead (closes, resets, sends garbage or a hello that does not
        hold up) raises ToolUnavailable or ProtocolError, never anything else."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    messages = await self._read_messages()
                    if messages:
                        hello = messages[0]
                        if not isinstance(hello, Hello):
                            raise ProtocolError(f"expected hello first, got {hello.TYPE}")
                        self._adopt(hello)
                        self._take_over(messages[1:])
                        return hello
        except TimeoutError:
            raise ToolUnavailable(self.tool, f"no hello within {timeout:g} s") from None
        except EOFError:  # IncompleteReadError too
            raise ToolUnavailable(self.tool, "closed its connection before its hello") from None
        except OSError as exc:  # ConnectionResetError and kin
            raise ToolUnavailable(self.tool, f"connection failed before its hello: "
                                             f"{exc.strerror or exc}") from None

    def _adopt(self, hello: Hello) -> None:
        if len({a.name for a in hello.actions}) != len(hello.actions):
            raise ProtocolError("hello names an action twice")
        validators = {}
        for spec in hello.actions:
            try:
                validators[spec.name] = (_compiled(spec.input_schema),
                                         _compiled(spec.output_schema))
            except (fastjsonschema.JsonSchemaDefinitionException, RecursionError) as exc:
                raise ProtocolError(f"action {spec.name}: invalid schema: {exc}") from None
            except Exception as exc:  # the schema compiler chokes on odd schemas
                # (a bad regex, a wrong type where it expects a dict): the tool's fault, not ours
                raise ProtocolError(f"action {spec.name}: unusable schema: "
                                    f"{type(exc).__name__}: {exc}") from None
        self.hello = hello
        self._absolute = hello.protocol >= EXPIRES_AT_VERSION
        self.actions = {a.name: a for a in hello.actions}
        self._validators = validators
        self._checked.clear()

    def _take_over(self, after_hello: list[Message]) -> None:
        """From the hello on, this link is the connection's protocol: each frame is handled as
        its bytes arrive, with no reader task woken per frame (the streams the supervisor
        opened serve the handshake only). The messages that came in the hello's read, what the
        stream reader still held, and its end if it came already, are taken along; and the
        reading the stream reader stopped when it held more than twice its limit goes on."""
        self._lost = asyncio.get_running_loop().create_future()
        transport = self._writer.transport
        held, ended = _held(self._reader)
        gone = transport.is_closing()  # lost before the swap: nobody would tell us again
        transport.set_protocol(_LinkProtocol(self))
        if not gone:
            with contextlib.suppress(RuntimeError):  # reading it had not stopped: nothing
                cast(asyncio.Transport, transport).resume_reading()
        try:
            for msg in after_hello:
                self._dispatch(msg)
        except ProtocolError as exc:
            self._bad_frame(exc)
        if held:
            self._received(held)
        if ended or gone:
            self._ended(self._reader.exception())
        if gone:
            self._lost.set_result(None)

    async def serve(self) -> None:
        """Until the stream ends or misbehaves (frames are handled as they arrive); then every
        call in flight has failed."""
        try:
            await self.closed.wait()
        finally:
            self._shutdown(self.close_reason or "connection closed")

    def _received(self, data: bytes) -> None:
        if self.shut:
            return
        try:
            for obj in self._decoder.feed(data):
                self._dispatch(decode(obj))
        except ProtocolError as exc:
            self._bad_frame(exc)

    def _bad_frame(self, exc: ProtocolError) -> None:
        log.error("tool %s sent a bad frame: %s; closing its connection", self.tool, exc)
        self.close_reason = f"bad frame: {exc}"
        self._shutdown(self.close_reason)

    def _wrong_answer(self, reply: Message, asked: str) -> ToolUnavailable:
        """A tool answered a request with the wrong kind of message (a pong to a call, a
        result to a ping): it does not speak the protocol; its connection is closed."""
        self._bad_frame(ProtocolError(f"answered {asked} with a {reply.TYPE}"))
        return ToolUnavailable(self.tool, self.close_reason or "closed")

    def _ended(self, exc: Exception | None) -> None:
        """The stream ended (exc: how, when it broke)."""
        if self.shut:
            return
        if self._decoder.pending:
            self._bad_frame(ProtocolError(f"stream ended inside a frame "
                                          f"({self._decoder.pending} bytes)"))
            return
        self.close_reason = self.close_reason or \
            f"connection closed ({str(exc or '') or 'end of stream'})"
        self._shutdown(self.close_reason)

    async def _read_messages(self) -> list[Message]:
        data = await self._reader.read(READ_CHUNK)
        if not data:
            if self._decoder.pending:
                raise ProtocolError(f"stream ended inside a frame ({self._decoder.pending} bytes)")
            raise EOFError
        return [decode(obj) for obj in self._decoder.feed(data)]

    def _dispatch(self, msg: Message) -> None:
        if msg.__class__ is Result or isinstance(msg, (Error, Pong)):  # (a result: most)
            fut = self._pending.pop(msg.id, None)
            if fut is None:
                log.debug("tool %s answered id %s nobody waits for (late)", self.tool, msg.id)
            elif not fut.done():
                fut.set_result(msg)
            return
        if isinstance(msg, Event):
            try:
                self._on_event(self.tool, msg)
            except Exception:
                log.exception("handling event %s of tool %s failed", msg.kind, self.tool)
            return
        raise ProtocolError(f"unexpected {msg.TYPE} from a tool")

    def _shutdown(self, reason: str) -> None:
        self.close_reason = reason
        if self._timer is not None:
            self._timer.cancel()
            self._timer = self._timer_at = None
        self._due.clear()
        pending, self._pending = self._pending, {}
        for fut in pending.values():
            if not fut.done():
                fut.set_exception(ToolUnavailable(self.tool, reason))
        self.shut = True
        self.closed.set()
        self._writer.close()

    async def close(self) -> None:
        self._shutdown(self.close_reason or "closed by the daemon")
        if self._lost is not None:  # the protocol's: the stream writer no longer hears of it
            with contextlib.suppress(TimeoutError):  # bounded all the same: never stuck here
                async with asyncio.timeout(CLOSE_TIMEOUT):
                    await asyncio.shield(self._lost)
            return
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()

    def _resumed(self) -> None:
        self._write_paused = False
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)
        self._drained = None

    def _drain(self) -> asyncio.Future[None]:
        """Done when the tool has read enough of what was sent to it (the transport says so)."""
        if self._drained is None:
            self._drained = asyncio.get_running_loop().create_future()
        return self._drained

    # -- requests ---------------------------------------------------------------------------

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def _request(self, msg: Message | bytes, msg_id: int, timeout: float) -> Message:
        """Send `msg` (a message, or a frame already encoded) and wait for the answer to
        `msg_id`, at most `timeout` seconds. (`call` does the same in its own frame.)"""
        transport = self._open()
        frame = msg if isinstance(msg, bytes) else encode(msg)
        try:
            transport.write(frame)
            fut = self._expect(msg_id, timeout)
            if self._write_paused and transport.get_write_buffer_size() > 4 * 1024 * 1024:
                # until the tool reads, but no longer than this call's deadline: a tool that
                # reads nothing held every call past it until its ping found it hung
                await asyncio.wait((self._drain(), fut), return_when=asyncio.FIRST_COMPLETED)
            return await fut
        except TimeoutError:
            raise Timeout(f"tool {self.tool} did not answer within {timeout:.3g} s") from None
        except (ConnectionError, OSError) as exc:
            raise ToolUnavailable(self.tool, str(exc)) from None
        finally:
            self._due.pop(msg_id, None)
            self._pending.pop(msg_id, None)

    def _open(self) -> asyncio.WriteTransport:
        """The transport to send a request on; ToolUnavailable if the tool cannot be asked."""
        if self.shut:
            raise ToolUnavailable(self.tool, self.close_reason or "not connected")
        transport = self._transport
        if transport.is_closing():  # the peer went away and the reader has not noticed yet:
            # asyncio would drop the frame silently and uvloop raise RuntimeError
            raise ToolUnavailable(self.tool, "the connection to the tool is closed")
        return transport

    def _expect(self, msg_id: int, timeout: float) -> asyncio.Future[Message]:
        """The future the answer to `msg_id` (or its deadline, `timeout` seconds from now)
        resolves. Made once the request is written, not before: its answer cannot come before
        the loop reads again, and until the write the tool waits for every step of this one.
        The caller waits, and then forgets `msg_id` (`_request`)."""
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        fut: asyncio.Future[Message] = loop.create_future()
        self._pending[msg_id] = fut
        # the deadline fails the future itself, from the link's one timer (`_watch`): a timer
        # handle armed and cancelled per call costs as much as the rest of the call's sending
        due = loop.time() + timeout
        self._due[msg_id] = due
        if self._timer_at is None or due < self._timer_at:
            self._watch(loop, due)
        return fut

    def _watch(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        """Have the link's timer fire at `due` (earlier than it would)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_at(due, self._expire_due)
        self._timer_at = due

    def _expire_due(self) -> None:
        """Fail every request past its deadline, then wait for the earliest of the rest. A
        timer that fires early (its request was answered since) only arms itself again."""
        self._timer = self._timer_at = None
        loop = self._loop or asyncio.get_running_loop()
        now = loop.time()
        nearest = None
        for msg_id, due in list(self._due.items()):
            if due <= now:
                del self._due[msg_id]
                fut = self._pending.get(msg_id)
                if fut is not None:
                    _expire(fut)
            elif nearest is None or due < nearest:
                nearest = due
        if nearest is not None:
            # never sooner than a millisecond: a timer that fired before its deadline (uvloop
            # rounds to whole milliseconds) waits that long, instead of firing again and again
            # until the clock gets there (a hundred times and more, the loop spinning)
            self._watch(loop, max(nearest, now + TIMER_STEP))

    async def call(self, action: str, args: dict[str, Any], context: dict[str, Any],
                   timeout: float) -> Any:
        """Call an action; returns its validated result value or raises a HermesError."""
        spec = self.actions.get(action)
        if spec is None:
            raise BadRequest(f"tool {self.tool} has no action {action!r} "
                             f"(it offers {', '.join(sorted(self.actions)) or 'none'})")
        check_in, check_out = self._validators[action]
        point = args.get("point") if len(args) == 1 else None
        if point.__class__ is not str or (action, point) not in self._checked:
            try:
                check_in(args)
            except fastjsonschema.JsonSchemaValueException as exc:
                raise BadRequest(f"{self.tool}.{action}: {_schema_message(exc)}") from None
            # remembered only if the check left them as they were (a schema's defaults are
            # filled into them: those must reach the tool on every call), and only a point of
            # a point id's length (4096 of whatever `call` is given held 256 MiB)
            if point.__class__ is str and len(args) == 1 and len(point) <= MAX_CHECKED_POINT \
                    and len(self._checked) < MAX_CHECKED:
                self._checked.add((action, point))
        self._next_id = msg_id = self._next_id + 1
        # the absolute deadline too, for a tool that takes it: one that reads the frame only
        # after it (it was held up) drops the call instead of doing it after our TIMEOUT answer
        frame = encode_call(msg_id, action, args, context, max(1, int(timeout * 1000)),
                            time.monotonic() + timeout if self._absolute else None)
        # `_request(frame, msg_id, timeout)`, in this frame: no coroutine of its own to make,
        # step and resume on every call
        transport = self._open()
        try:
            transport.write(frame)
            fut = self._expect(msg_id, timeout)
            if self._write_paused and transport.get_write_buffer_size() > 4 * 1024 * 1024:
                await asyncio.wait((self._drain(), fut), return_when=asyncio.FIRST_COMPLETED)
            reply = await fut
        except TimeoutError:
            raise Unanswered(f"tool {self.tool} did not answer within {timeout:.3g} s") from None
        except ToolUnavailable as exc:  # the connection broke (a bad frame, the tool died)
            # after the call was written to it: the tool may have done it (atk25s)
            raise ToolUnavailable(self.tool, exc.reason, sent=True) from None
        except (ConnectionError, OSError) as exc:
            raise ToolUnavailable(self.tool, str(exc)) from None
        finally:
            self._due.pop(msg_id, None)
            self._pending.pop(msg_id, None)
        if isinstance(reply, Error):
            raise ToolError(ErrorCode(reply.code), reply.message, retryable=reply.retryable)
        if reply.__class__ is not Result:
            lost = self._wrong_answer(reply, f"call {msg_id}")
            raise ToolUnavailable(self.tool, lost.reason, sent=True)
        try:
            check_out(reply.value)
        except fastjsonschema.JsonSchemaValueException as exc:
            log.error("tool %s returned a result for %s that breaks its own schema: %s",
                      self.tool, action, _result_message(exc))
            raise Garbled(f"tool {self.tool} gave an invalid answer for {action}: "
                          f"{_result_message(exc)}") from None
        return reply.value

    async def configure(self, config: dict[str, Any], timeout: float) -> Any:
        msg_id = self._new_id()
        reply = await self._request(Configure(msg_id, config), msg_id, timeout)
        if isinstance(reply, Error):
            raise ToolError(ErrorCode(reply.code), f"tool {self.tool} refused its config: "
                                                   f"{reply.message}")
        if not isinstance(reply, Result):
            raise self._wrong_answer(reply, f"configure {msg_id}")
        return reply.value

    async def ping(self, timeout: float) -> float:
        """Round trip of a ping in seconds; raises Timeout or ToolUnavailable."""
        msg_id = self._new_id()
        started = time.monotonic()
        reply = await self._request(Ping(msg_id), msg_id, timeout)
        if not isinstance(reply, Pong):
            raise self._wrong_answer(reply, f"ping {msg_id}")
        self.last_pong = time.monotonic()
        return self.last_pong - started


def _held(reader: asyncio.StreamReader) -> tuple[bytes, bool]:
    """What a stream reader has buffered and not handed out, and whether its stream ended.
    StreamReader offers no call that says so without waiting; these two attributes have
    been its own since asyncio began."""
    return bytes(getattr(reader, "_buffer", b"")), bool(getattr(reader, "_eof", False))


def _expire(fut: asyncio.Future[Message]) -> None:
    if not fut.done():
        fut.set_exception(TimeoutError())


#: compiled validators by schema text: a restarted tool says the same hello, and compiling
#: anew each time (generated code, exec) grew the daemon by ~10 KiB per restart, forever
_VALIDATORS: dict[str, Callable[[Any], Any]] = {}
_VALIDATORS_MAX = 512  # distinct schemas kept; a tool that varies its schemas cannot grow this


def _no_remote(uri: str) -> Any:
    raise fastjsonschema.JsonSchemaDefinitionException(
        f"$ref to {uri[:80]!r}: a tool's schema must be self-contained")


#: every scheme urllib would fetch: a schema that refers outside itself is refused, never
#: fetched (a fetch would block the event loop, and reach wherever the tool points it)
_NO_REMOTE = dict.fromkeys(("http", "https", "ftp", "file", "data"), _no_remote)


def _compiled(schema: dict[str, Any]) -> Callable[[Any], Any]:
    key = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    validator = _VALIDATORS.get(key)
    if validator is None:
        # a flat object schema is checked quickly first (a read's result, on every read)
        validator = quick(schema, fastjsonschema.compile(schema, handlers=_NO_REMOTE))
        if len(_VALIDATORS) >= _VALIDATORS_MAX:
            _VALIDATORS.pop(next(iter(_VALIDATORS)))
        _VALIDATORS[key] = validator
    return validator


def _schema_message(exc: Any) -> str:
    path = getattr(exc, "name", "data") or "data"
    return f"{path.replace('data', 'args', 1)}: {getattr(exc, 'message', str(exc))}"


def _result_message(exc: Any) -> str:
    """What of a tool's result breaks its schema ("result.ts must be number")."""
    return str(getattr(exc, "message", exc)).replace("data", "result", 1)[:300]


class _LinkProtocol(asyncio.Protocol):
    """A tool connection's protocol once its link has taken it over."""

    def __init__(self, link: ToolLink) -> None:
        self.link = link

    def data_received(self, data: bytes) -> None:
        self.link._received(data)

    def eof_received(self) -> bool:
        self.link._ended(None)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        link = self.link
        link._ended(exc)
        link._resumed()
        if link._lost is not None and not link._lost.done():
            link._lost.set_result(None)

    def pause_writing(self) -> None:
        self.link._write_paused = True

    def resume_writing(self) -> None:
        self.link._resumed()
