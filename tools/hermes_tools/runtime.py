"""The tool side of hermesd's protocol: what every tool process runs around its own actions.

`serve(tool)` listens on the socket the daemon names (`--socket PATH`, mode 0600), prints
`READY` on stdout once it listens, serves exactly one daemon connection (hello, configure, calls,
pings, events) and exits when that connection ends or on SIGTERM, removing its socket file. It
asks the kernel to stop it when the daemon dies, so no tool outlives its daemon.

Only the daemon that started it may talk to a tool: every connecting peer's SO_PEERCRED must show
the tool's own uid and its parent's pid (recorded at start). Anyone else is closed at once without
taking the daemon's place, and the tool keeps waiting for the daemon; each cause of refusal is
logged once, and their counts when the tool exits, never a line per attempt. Every call runs
as its own task under the deadline it was given; an exception becomes an `error` frame with a
documented code, never a dead tool.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import inspect
import logging
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, cast

from hermesd.core import eventloop, heap, peercred
from hermesd.core.errors import ErrorCode, HermesError, ProtocolError
from hermesd.core.protocol import (
    ActionSpec,
    Call,
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
    encode_result,
)

log = logging.getLogger(__name__)

TIMER_STEP = 0.001  # seconds: the calls' deadline timer is never armed nearer than this

Handler = Callable[[dict[str, Any], dict[str, Any]], Awaitable[Any]]
ACCEPT_TIMEOUT = 30.0  # a tool nobody connects to in this time was orphaned: it exits
SHUTDOWN_GRACE = 2.0  # seconds a cancelled task gets to end before it is cancelled again

# -- the standard point actions every device tool offers ----------------------------------

VALUE = {"type": ["number", "boolean", "string"]}
READ_SPEC = ActionSpec(
    name="read", description="Read a configured point from its device now.",
    input_schema={"type": "object", "properties": {"point": {"type": "string"}},
                  "required": ["point"], "additionalProperties": False},
    output_schema={"type": "object", "required": ["point", "value", "ts"],
                   "properties": {"point": {"type": "string"}, "value": VALUE,
                                  "ts": {"type": "number"}}},
    effect="read")
WRITE_SPEC = ActionSpec(
    name="write", description="Write a value to a configured point and confirm it.",
    input_schema={"type": "object", "properties": {"point": {"type": "string"}, "value": VALUE},
                  "required": ["point", "value"], "additionalProperties": False},
    output_schema={"type": "object", "required": ["point", "value", "ts"],
                   "properties": {"point": {"type": "string"}, "value": VALUE,
                                  "ts": {"type": "number"}, "confirmed": {"type": "boolean"}}},
    effect="write")  # the daemon sends point reads and writes through point policy


@dataclass(frozen=True)
class ActionDef:
    spec: ActionSpec
    handler: Handler


class Tool:
    """Base of a tool: subclass, set `name`, declare actions, implement `configure`."""

    name = "tool"
    version = "0"

    def __init__(self) -> None:
        self._send: Callable[[Message], None] | None = None
        self._actions: dict[str, ActionDef] = {}

    def action(self, spec: ActionSpec, handler: Handler) -> None:
        self._actions[spec.name] = ActionDef(spec, handler)

    def actions(self) -> dict[str, ActionDef]:
        return self._actions

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        """Adopt the config slice (called at start and on every reload); return a summary."""
        return {}

    async def run(self) -> None:
        """Background work (polling, subscriptions) for as long as the tool is connected."""
        await asyncio.Event().wait()

    async def close(self) -> None:
        """Release devices; called once before exit."""

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        """Send an event to the daemon (dropped, with a debug line, when not connected)."""
        if self._send is None:
            log.debug("event %s dropped: not connected", kind)
            return
        self._send(Event(kind, data))

    def values(self, readings: list[dict[str, Any]]) -> None:
        """Report point values read from devices: [{point, value, ts}]."""
        if readings:
            self.emit("values", {"values": readings})

    def device_state(self, device: str, online: bool, reason: str = "") -> None:
        self.emit("device", {"device": device, "online": online, "reason": reason,
                             "ts": time.time()})


def main(tool: Tool, argv: list[str] | None = None) -> None:
    """Entry point of a tool process."""
    parser = argparse.ArgumentParser(prog=f"hermes-tool-{tool.name}")
    parser.add_argument("--socket", required=True, help="Unix socket path to listen on")
    parser.add_argument("--log-level", default=os.environ.get("HERMESD_LOG_LEVEL", "INFO"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format=f"{tool.name}[%(process)d] %(levelname)s %(name)s: %(message)s")
    daemon_pid = os.getppid()  # the daemon that started us: the one peer we will serve
    _die_with_parent()
    try:
        code = eventloop.run(serve(tool, args.socket, daemon_pid))
    except KeyboardInterrupt:
        code = 0
    sys.exit(code)


def _die_with_parent() -> None:
    """PR_SET_PDEATHSIG: the kernel sends SIGTERM when the daemon that started us dies."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent:  # the parent died before prctl took effect
        os.kill(os.getpid(), signal.SIGTERM)


async def serve(tool: Tool, socket_path: str, daemon_pid: int | None = None) -> int:
    """Serve the daemon (`daemon_pid`, by default our parent) on `socket_path` until it leaves."""
    server = _Session(tool, os.getppid() if daemon_pid is None else daemon_pid)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(socket_path)
    old_umask = os.umask(0o177)  # socket file mode 0600: only our own user may even connect
    try:
        listener = await asyncio.get_running_loop().create_unix_server(server.connection,
                                                                       socket_path)
    finally:
        os.umask(old_umask)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, server.stop.set)
    print("READY", flush=True)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nothing else goes to the pipe the daemon read READY from
    os.close(devnull)
    waiting = asyncio.create_task(server.connected.wait())
    stopping = asyncio.create_task(server.stop.wait())
    await asyncio.wait([waiting, stopping], timeout=ACCEPT_TIMEOUT,
                       return_when=asyncio.FIRST_COMPLETED)
    if not server.connected.is_set() and not server.stop.is_set():
        log.error("no daemon connected within %g s; exiting", ACCEPT_TIMEOUT)
        server.stop.set()
    await stopping
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    listener.close()
    await server.shutdown()
    await listener.wait_closed()
    with contextlib.suppress(FileNotFoundError):
        os.unlink(socket_path)
    server.refusals.summarise()
    with contextlib.suppress(Exception):
        await tool.close()
    return 0


class _Refusals:
    """Connections refused, counted by cause (peer uid and reason): one log line per cause."""

    def __init__(self) -> None:
        self.counts: dict[tuple[int | None, str], int] = {}

    def refuse(self, peer: peercred.PeerCred | None, reason: str) -> None:
        uid = peer.uid if peer is not None else None
        key = (uid, reason)
        seen = self.counts.get(key, 0)
        self.counts[key] = seen + 1
        if not seen:
            log.warning("refusing connections from uid %s (first: pid %s): %s; further ones "
                        "for this cause are counted, not logged", uid,
                        peer.pid if peer is not None else None, reason)

    def summarise(self) -> None:
        for (uid, reason), count in self.counts.items():
            if count > 1:
                log.warning("refused %d connections from uid %s: %s", count, uid, reason)


class _Session:
    """The one daemon connection of a tool process."""

    def __init__(self, tool: Tool, daemon_pid: int) -> None:
        self.tool = tool
        self.daemon_pid = daemon_pid
        self.refusals = _Refusals()
        self.connected = asyncio.Event()
        self.stop = asyncio.Event()
        self._transport: asyncio.Transport | None = None
        self._decoder = FrameDecoder()
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: asyncio.Task[None] | None = None
        #: the calls being answered, by id() of their message (alive until its task ends:
        #: no two share one): their tasks; their deadlines (loop time) while not past, and
        #: the one timer that enforces them, armed for the earliest and moved only when a
        #: nearer one comes (see `_watch`); and those their deadline cancelled
        self._calls: dict[int, asyncio.Task[None]] = {}
        self._due: dict[int, tuple[float, Call]] = {}
        self._expired: set[int] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        #: the loop the session runs in, once a call asked for it: asyncio.get_running_loop()
        #: makes a getpid() system call on every call (3.11 checks for a fork)
        self._loop: asyncio.AbstractEventLoop | None = None

    def _refusal(self, peer: peercred.PeerCred | None) -> str | None:
        """Why this peer may not talk to us, or None for the daemon that started us."""
        if peer is None:
            return "its credentials cannot be read"
        if peer.uid != os.getuid():
            return f"not this tool's user (uid {os.getuid()})"
        if peer.pid != self.daemon_pid:
            return f"not the daemon that started this tool (pid {self.daemon_pid})"
        if self.connected.is_set():
            return "the daemon is already connected (one connection at a time)"
        return None

    def connection(self) -> asyncio.Protocol:
        """The protocol of one accepted connection (the listener's factory)."""
        return _Connection(self)

    def adopt(self, transport: asyncio.Transport) -> None:
        """The daemon connected: say hello and serve it."""
        self.connected.set()
        self._transport = transport
        self.tool._send = self._send
        self._send(Hello(tool=self.tool.name, version=self.tool.version, pid=os.getpid(),
                         actions=tuple(a.spec for a in self.tool.actions().values())))

    def received(self, data: bytes) -> None:
        """Bytes from the daemon: each whole frame handled as it comes, in order (a call
        starts its task here, without a reader task woken per frame)."""
        try:
            for obj in self._decoder.feed(data):
                self._handle(decode(obj))
        except ProtocolError as exc:
            log.error("bad frame from the daemon: %s; closing", exc)
            self.ended()

    def ended(self) -> None:
        """The daemon's connection ended (or is ended here): the tool stops."""
        self.tool._send = None
        self.stop.set()
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()

    def _send(self, msg: Message) -> None:
        transport = self._transport
        if transport is not None and not transport.is_closing():
            try:
                transport.write(encode(msg))
            except ProtocolError as exc:
                log.error("cannot send %s: %s", msg.TYPE, exc)
                if isinstance(msg, Result | Error):
                    # the call still gets its answer, in words JSON can carry; never a wait
                    # for its deadline
                    problem = str(exc).encode("utf-8", "replace").decode()[:300]
                    transport.write(encode(Error(msg.id, "INTERNAL",
                                                 f"the tool's answer could not be sent: "
                                                 f"{problem}")))

    def _handle(self, msg: Message) -> None:
        if isinstance(msg, Call):
            self._start_call(msg)
        elif isinstance(msg, Ping):
            self._send(Pong(msg.id))
        elif isinstance(msg, Configure):
            self._spawn(self._configure(msg))
        else:
            raise ProtocolError(f"unexpected {msg.TYPE} from the daemon")

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _start_call(self, msg: Call) -> None:
        """Start a call's task under its deadline: the absolute one the daemon sent
        (`expires_at`), else `deadline_ms` counted from now (the frame's receipt). A call read
        only after its deadline is dropped undone: the daemon has answered it TIMEOUT already,
        and a write done now would be one its requester was told had failed."""
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        seconds = msg.deadline_ms / 1000.0
        if msg.expires_at is not None:
            left = msg.expires_at - time.monotonic()
            if left <= 0:
                log.debug("call %s (%s) dropped: its deadline passed %.3f s before it was read",
                          msg.id, msg.action, -left)
                self._send(_dropped(msg, -left))
                return
            seconds = min(seconds, left)
        key = id(msg)
        self._calls[key] = loop.create_task(self._call(msg))
        due = loop.time() + seconds
        self._due[key] = (due, msg)
        if self._timer_at is None or due < self._timer_at:
            self._watch(loop, due)

    def _watch(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        """Have the session's deadline timer fire at `due` (earlier than it would): one
        timer for every call, not a timer handle armed and cancelled per call."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_at(due, self._expire_due)
        self._timer_at = due

    def _expire_due(self) -> None:
        """Cancel every call past its deadline, then wait for the earliest of the rest. A
        timer that fires early (its call ended since) only arms itself again."""
        self._timer = self._timer_at = None
        loop = self._loop or asyncio.get_running_loop()
        now = loop.time()
        nearest = None
        for key, (due, msg) in list(self._due.items()):
            if due <= now:
                del self._due[key]
                task = self._calls[key]
                coro = cast(Coroutine[Any, Any, None], task.get_coro())
                if inspect.getcoroutinestate(coro) == inspect.CORO_CREATED:
                    # its deadline came before its first step (the loop was that busy): it
                    # never runs (nor its finally), and the call still gets its answer
                    del self._calls[key]
                    self._send(_dropped(msg, now - due))
                else:
                    self._expired.add(key)
                task.cancel()
            elif nearest is None or due < nearest:
                nearest = due
        if nearest is not None:
            # never sooner than a millisecond: a timer that fired before its deadline (uvloop
            # rounds to whole milliseconds) waits that long, instead of firing again and again
            # until the clock gets there (a hundred times and more, the loop spinning)
            self._watch(loop, max(nearest, now + TIMER_STEP))

    async def _configure(self, msg: Configure) -> None:
        try:
            summary = await self.tool.configure(msg.config)
        except HermesError as exc:
            self._send(Error(msg.id, exc.code.value, exc.message))
            return
        except Exception as exc:
            log.exception("configure failed")
            self._send(Error(msg.id, "INTERNAL", f"configure failed: {exc}"))
            return
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run_tool(), name=f"{self.tool.name}-run")
        self._send(Result(msg.id, summary))
        heap.settle()  # configured: later collections skip what start-up left

    async def _run_tool(self) -> None:
        try:
            await self.tool.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the background work of tool %s failed; exiting so it restarts",
                          self.tool.name)
            self.stop.set()

    async def _call(self, msg: Call) -> None:
        try:
            action = self.tool.actions().get(msg.action)
            if action is None:
                self._send(Error(msg.id, "BAD_REQUEST", f"no action {msg.action!r}"))
                return
            due = self._due.get(id(msg))
            loop = self._loop
            seconds = due[0] - loop.time() if due is not None and loop is not None else 0.0
            if seconds <= 0:
                # its deadline came before its first step (the loop was held up that long, and
                # the timer has not run yet): dropped undone, as if it had been read this late
                self._send(_dropped(msg, -seconds))
                return
            # the deadline cancels this task from the session's timer (`_start_call` set
            # it): what asyncio.timeout() does, at a fraction of its cost on every call
            try:
                # `deadline_s`: the time the call has, for an action that ends early with what
                # it has (a bounded scan) rather than be cut off with nothing
                value = await action.handler(msg.args, {**msg.context, "deadline_s": seconds})
            except asyncio.CancelledError:
                key = id(msg)
                if key not in self._expired or self._calls[key].uncancel() > 0:
                    raise  # not (only) the deadline: the tool is stopping
                self._send(_late(msg, action.spec))
            except TimeoutError:
                self._send(_late(msg, action.spec))
            except HermesError as exc:
                retry = getattr(exc, "retryable", False) or exc.code == ErrorCode.BUSY
                self._send(Error(msg.id, exc.code.value, exc.message, retry))
            except Exception as exc:
                log.exception("action %s failed", msg.action)
                self._send(Error(msg.id, "INTERNAL", f"{msg.action} failed: {type(exc).__name__}: "
                                                     f"{exc}"))
            else:
                self._send_result(msg.id, value)
        finally:  # here, not in a done callback: one loop callback less on every call
            key = id(msg)
            self._calls.pop(key, None)
            self._due.pop(key, None)
            self._expired.discard(key)

    def _send_result(self, msg_id: int, value: Any) -> None:
        """`_send(Result(msg_id, value))` without the message built first (every call)."""
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        try:
            frame = encode_result(msg_id, value)
        except ProtocolError:
            self._send(Result(msg_id, value))  # which words the failure as an error frame
            return
        transport.write(frame)

    async def shutdown(self) -> None:
        self.ended()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = self._timer_at = None
        tasks = [*self._tasks, *self._calls.values()]
        if self._runner is not None:
            tasks.append(self._runner)
        for task in tasks:
            task.cancel()
        while tasks:
            # a task may swallow its cancel (Python 3.11's wait_for does when a reply arrives in
            # the same turn); cancel it again rather than outlive the daemon forever
            _, pending = await asyncio.wait(tasks, timeout=SHUTDOWN_GRACE)
            if pending:
                log.error("%d task(s) ignored a cancel at shutdown; cancelling again",
                          len(pending))
            for task in pending:
                task.cancel()
            tasks = list(pending)


def _late(msg: Call, spec: ActionSpec) -> Error:
    took = f"{msg.action} took longer than {msg.deadline_ms} ms"
    if spec.effect == "write":
        # begun, and cut at its deadline: what it had sent by then (a register written, a
        # command on the line) may still be done. Never "could not do that", which only a
        # write dropped before it started may be (`_dropped`)
        return Error(msg.id, "NOT_CONFIRMED", f"{took}; it may or may not have taken effect")
    return Error(msg.id, "TIMEOUT", took)


def _dropped(msg: Call, late: float) -> Error:
    return Error(msg.id, "TIMEOUT", f"{msg.action} was not started: its deadline had passed "
                                    f"{late:.3g} s before the tool read it (nothing was done)")


class _Connection(asyncio.Protocol):
    """One accepted connection: the daemon's is served by its session; any other peer is
    closed before a byte is read or sent, and the slot stays free."""

    def __init__(self, session: _Session) -> None:
        self.session = session
        self.serving = False

    def connection_made(self, base: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, base)  # uvloop's is one without the subclass
        sock = transport.get_extra_info("socket")
        peer = None if sock is None else peercred.of_socket(sock)
        refused = self.session._refusal(peer)
        if refused is not None:
            self.session.refusals.refuse(peer, refused)
            transport.close()
            return
        self.serving = True
        self.session.adopt(transport)

    def data_received(self, data: bytes) -> None:
        if self.serving:
            self.session.received(data)

    def eof_received(self) -> bool:
        if self.serving:
            self.serving = False
            self.session.ended()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if self.serving:
            self.serving = False
            self.session.ended()
