"""The control socket server: newline-delimited JSON requests in, one answer per request out.

Each connection is read under absolute deadlines (a frame must end within `frame_deadline` of
its first byte; a connection with no request in flight for `idle` seconds is closed, however
many bytes it trickles); a malformed, oversize or unfinished frame is answered BAD_REQUEST and
that connection closed, without disturbing any other. A client may close its side after its
last request, with or without the final newline, and still read every answer. Requests on one
connection run concurrently and answers carry the request's `id`. The peer's credentials
(SO_PEERCRED) are read once per connection, and `Slots` keeps any one user from taking the
socket (see limits.py); refusals answer BUSY with the reason. Whatever a request holds and
whatever its handler raises, it gets exactly one answer: this server must never let one
request end another, or the daemon.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import struct
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from hermesd.answer import Answer, status_of
from hermesd.control.bounds import MAX_ANSWER, MAX_ID, MAX_REQUEST
from hermesd.control.limits import Limits, OncePerCause, Slots, is_trusted
from hermesd.control.requests import Peer, RequestDecoder
from hermesd.core.errors import ErrorCode, ProtocolError
from hermesd.core.protocol import encode_json

if TYPE_CHECKING:
    from hermesd.config.model import Config

log = logging.getLogger(__name__)


Handler = Callable[[dict[str, Any], Peer], Awaitable[dict[str, Any]]]
#: the most one read takes (the transports' own is 256 KiB): a read's frames are decoded in
#: one go, and 64 KiB of the smallest requests are 21,845 of them, some 0.1 s of the loop
READ_SIZE = 64 * 1024


class ControlServer:
    def __init__(self, path: Path, handler: Handler, limits: Limits | None = None) -> None:
        self.path = path
        self.limits = limits or Limits()
        self._handler = handler
        self._server: asyncio.Server | None = None
        self._connections: set[_Connection] = set()
        #: connections whose transport is open, closing ones included (their unread answers
        #: are still held); and how many of other users' have stopped reading theirs
        self._open: set[_Connection] = set()
        self._paused_others = 0
        self._slots = Slots(self.limits)
        self._quiet = OncePerCause(log)
        self.bad_frames = 0
        self.refused = 0  # connections and requests refused BUSY by the limits
        self.listening = asyncio.Event()  # set once the socket accepts connections
        self.stopping = False  # once set, a connection the loop still hands over is refused

    # -- as a daemon component ---------------------------------------------------------------

    name = "control"

    async def run(self) -> None:
        """Listen from the start of this task until it is cancelled, then close the socket."""
        await self.start()
        self.listening.set()
        try:
            await asyncio.Event().wait()
        finally:
            await self.stop()

    async def reconfigure(self, config: Config) -> None:
        """Nothing to adopt: the socket's path cannot change while hermesd runs."""

    async def start(self) -> None:
        self.stopping = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        old = os.umask(0o117)  # srw-rw----: the daemon's user and group
        try:
            # a protocol per connection, not streams: each frame is handled as its bytes
            # arrive, with no reader task to wake and no timeout scope per read
            self._server = await asyncio.get_running_loop().create_unix_server(
                self._connection, str(self.path), backlog=512)
        finally:
            os.umask(old)

    async def stop(self) -> None:
        self.stopping = True  # uvloop may still make connections it accepted before the close
        if self._server is not None:
            self._server.close()
        tasks = [task for conn in list(self._connections) for task in conn.abort()]
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def status(self) -> dict[str, Any]:
        return {"connections": self._slots.total, "bad_frames": self.bad_frames,
                "refused": self.refused, "refusing": self._quiet.active(),
                "recording_bytes": self._slots.audio.total()}

    def _connection(self) -> asyncio.BaseProtocol:
        return _Connection(self)

    def _unsent(self, uid: int | None) -> tuple[int, int]:
        """Bytes of answers not yet read by `uid`, and by all but root and hermesd's own user.
        Asked only while one of theirs has stopped reading: until then each holds less than
        its transport's high-water mark."""
        mine = others = 0
        for conn in self._open:
            if not conn.trusted and conn.transport is not None:
                size = conn.transport.get_write_buffer_size()
                others += size
                if conn.peer.uid == uid:
                    mine += size
        return mine, others


class _Connection(asyncio.BufferedProtocol):
    """One client connection: its frames as they arrive, its requests in flight, its deadlines.

    Reading ends at the end of the stream, at a bad or unfinished frame, or when the connection
    has been idle too long; then every request that came whole is answered, the refusal that
    ended it (if any) is said last, and the connection is closed. Answers are written as they
    are ready; while the peer does not read them (the transport's buffer is full) no more of
    its requests are read, nor started or refused (the frames of a read wait in `backlog`:
    one read of READ_SIZE may hold 21,845 requests of three bytes, each refusal some 80 times
    that), and if it still has not read them after `send` seconds it is cut.
    """

    def __init__(self, server: ControlServer) -> None:
        self.server = server
        self.limits = server.limits
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.peer = Peer(None, None, None)
        self.trusted = False  # is_trusted(peer.uid), asked once
        self.decoder = RequestDecoder()  # 64 KiB frames; only an audio ask may be larger
        #: the requests being answered: their tasks, by id() of the request (alive until its
        #: task has released it: no two in flight share one)
        self.inflight: dict[int, asyncio.Task[None]] = {}
        self.idle_since = self.loop.time()
        self.frame_started: float | None = None
        self.ended = False  # nothing more is read: the connection closes once it has answered
        self._closer: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._write_paused = False
        self._send_timer: asyncio.TimerHandle | None = None
        #: frames read but not started while the peer does not read its answers, and what
        #: ends the connection after them (a bad frame's refusal, or None at the end of stream)
        self.backlog: deque[dict[str, Any]] = deque()
        self._end_after: tuple[dict[str, Any] | None] | None = None
        self._buffer = memoryview(bytearray(READ_SIZE))  # what each read reads into
        #: bytes of recordings counted against the peer's share (Slots.admit_audio): of the
        #: frame being received, and of each one received, by id() of its request, until
        #: it is answered or dropped
        self.audio_pending = 0
        self.audio_held: dict[int, int] = {}

    # -- the transport's calls ---------------------------------------------------------------

    def connection_made(self, base: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, base)  # uvloop's is one without the subclass
        server = self.server
        self.peer = peer = _peer(transport)
        self.trusted = is_trusted(peer.uid)
        refusal = ("stopping", "hermesd is stopping") if server.stopping else \
            server._slots.admit_connection(peer.uid, peer.describe())
        if refusal is not None:
            cause, reason = refusal
            server.refused += 1
            server._quiet.warn(cause, "refusing control connections: %s", reason)
            with contextlib.suppress(ConnectionError, ProtocolError, RuntimeError):
                transport.write(encode_json(_error(ErrorCode.BUSY, reason)))
            self.ended = True
            transport.close()
            return
        self.transport = transport
        server._connections.add(self)
        server._open.add(self)
        self._arm()

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        if self.ended or self._end_after is not None:  # nothing after a bad frame or the end
            return
        try:
            self._received(self._buffer[:nbytes].tobytes())
        except Exception:  # never the daemon's end: this connection's only
            log.exception("control connection of %s failed", self.peer.describe())
            self._end(None)

    def eof_received(self) -> bool:
        """The client closed its side: what it sent last is a request too, and it still
        reads every answer (the transport stays open for them)."""
        if not self.ended and self._end_after is None:
            last_word = None
            try:
                obj = self.decoder.finish()
            except ProtocolError as exc:
                last_word = self._bad_frame(str(exc))
            else:
                self.frame_started = None
                if obj is not None:
                    kept, last_word = self._hold_audio([obj])
                    self.backlog.extend(kept)
            self._end_after = (last_word,)
            self._pump()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._paused(False)
        self.server._open.discard(self)
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None
        if self.transport is None:  # refused at once
            return
        self._end(None)

    def pause_writing(self) -> None:
        """The peer is not reading its answers: read no more of its requests until it does,
        and cut it if it does not within `send` seconds."""
        self._paused(True)
        if not self.ended and self.transport is not None:
            with contextlib.suppress(RuntimeError):
                self.transport.pause_reading()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.limits.send, self._slow_reader)

    def resume_writing(self) -> None:
        self._paused(False)
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None
        if self.ended or self.transport is None:
            return
        self._pump()  # the requests read before it stopped reading, then read on
        if not self.ended and not self._write_paused and not self.backlog:
            with contextlib.suppress(RuntimeError):
                self.transport.resume_reading()
            self._arm()  # idle counts again

    def _paused(self, paused: bool) -> None:
        if paused != self._write_paused and not self.trusted:
            self.server._paused_others += 1 if paused else -1
        self._write_paused = paused

    # -- frames ------------------------------------------------------------------------------

    def _received(self, data: bytes) -> None:
        now = self.loop.time()
        decoder = self.decoder
        had_partial = decoder.pending > 0
        try:
            frames = decoder.feed(data)
        except ProtocolError as exc:
            self._end(self._bad_frame(str(exc)))
            return
        refused = None
        if decoder.large or self.audio_pending or decoder.pending > MAX_REQUEST:
            frames, refused = self._hold_audio(frames)
        if not decoder.pending:
            self.frame_started = None
        elif frames or not had_partial:
            self.frame_started = now  # a new frame began in this read
        if frames:
            self.idle_since = now
            if len(frames) == 1 and decoder.error is None and refused is None and \
                    not self.backlog and not self._write_paused:
                # one whole request and nothing waiting (most reads): `_pump`, without the
                # backlog's round trip
                self._start(frames[0])
                if self.frame_started is not None or not self.inflight:
                    self._arm()
                return
            self.backlog.extend(frames)
        if refused is not None:  # after the good frames that came before it
            self._end_after = (refused,)
        elif decoder.error is not None:  # after the good frames that came before it
            self._end_after = (self._bad_frame(str(decoder.error)),)
        self._pump()

    def _hold_audio(self, frames: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                  dict[str, Any] | None]:
        """Count the recordings this connection now holds (the frames over MAX_REQUEST just
        received, and the one still coming) against the peer's share. The frames to start,
        and the refusal that ends the connection after them when the share is exceeded: the
        frame over it, and all after it, are dropped."""
        slots, uid, trusted = self.server._slots, self.peer.uid, self.trusted
        decoder = self.decoder
        slots.release_audio(uid, self.audio_pending, trusted)
        self.audio_pending = 0
        large, decoder.large = decoder.large, []
        for obj, size in large:
            refusal = slots.admit_audio(uid, self.peer.describe(), size, trusted)
            if refusal is not None:
                return frames[:next(i for i, f in enumerate(frames) if f is obj)], \
                    self._refuse_audio(refusal)
            self.audio_held[id(obj)] = size
        if decoder.pending > MAX_REQUEST:
            refusal = slots.admit_audio(uid, self.peer.describe(), decoder.pending, trusted)
            if refusal is not None:
                return frames, self._refuse_audio(refusal)
            self.audio_pending = decoder.pending
        return frames, None

    def _refuse_audio(self, refusal: tuple[str, str]) -> dict[str, Any]:
        cause, reason = refusal
        self.server.refused += 1
        self.server._quiet.warn(cause, "refusing a recording on the control socket: %s; "
                                "closing that connection", reason)
        self.decoder.discard()  # read no more of it, and hold none of it
        self.frame_started = None
        return _error(ErrorCode.BUSY, f"{reason}; closing this connection")

    def _release_audio(self, key: int) -> None:
        """The recording of request `key` (if it was one) is answered or dropped."""
        size = self.audio_held.pop(key, 0)
        if size:
            self.server._slots.release_audio(self.peer.uid, size, self.trusted)
            self._audio_released()

    def _audio_released(self) -> None:
        if self.server._quiet.holding:
            for cause in self.server._slots.audio_causes(self.peer.uid):
                self.server._quiet.clear(cause, f"recordings accepted again ({cause})")

    def _pump(self) -> None:
        """Start the requests read, until the peer stops reading its answers (then the rest
        wait for `resume_writing`); once all are started, end if the stream or a bad frame
        ended it."""
        backlog = self.backlog
        while backlog and not self._write_paused:
            self._start(backlog.popleft())
        if backlog:
            return
        if self._end_after is not None:
            self._end(self._end_after[0])
        elif self.frame_started is not None or not self.inflight:
            self._arm()  # else no deadline runs (see `_deadline`): nothing to arm

    def _start(self, obj: dict[str, Any]) -> None:
        """Start answering one request, unless its connection or its user has too many.

        A refusal is written before the next frame is read, so a client that pipelines more
        than it may cannot make hermesd queue answers for it faster than it reads them.
        """
        refusal: tuple[str, str] | None
        if len(self.inflight) >= self.limits.per_connection:
            refusal = (f"connection full: uid {self.peer.uid}", "too many requests in flight "
                       f"on this connection (at most {self.limits.per_connection})")
        else:
            refusal = None
            if self.server._paused_others and not self.trusted:
                refusal = self._unread_refusal()
            if refusal is None:
                refusal = self.server._slots.admit_request(self.peer.uid, self.peer.describe(),
                                                           self.trusted)
        if refusal is not None:
            cause, reason = refusal
            self.server.refused += 1
            self.server._quiet.warn(cause, "refusing control requests: %s", reason)
            self._release_audio(id(obj))
            self._send(_error(ErrorCode.BUSY, reason, obj))
            return
        self.inflight[id(obj)] = self.loop.create_task(self._answer(obj))

    def _unread_refusal(self) -> tuple[str, str] | None:
        """Why a request may not start while its user (or all other users) have half their
        share of answers unread: its answer could only take them past it."""
        lim = self.limits
        mine, others = self.server._unsent(self.peer.uid)
        if mine >= lim.unsent_per_uid // 2:
            return (f"unread answers of uid {self.peer.uid}", f"{self.peer.describe()} has "
                    f"{mine} bytes of answers not yet read, over half of the "
                    f"{lim.unsent_per_uid} one user may; read them first")
        if others >= lim.unsent_others // 2:
            return ("unread answers of others", f"users other than root and hermesd's own have "
                    f"{others} bytes of answers not yet read, over half of the "
                    f"{lim.unsent_others} they may together")
        return None

    def _done(self, key: int) -> None:
        """A request is answered (or its connection aborted): its slot is free. Once only."""
        if self.audio_held:
            self._release_audio(key)
        if self.inflight.pop(key, None) is None:
            return
        slots = self.server._slots
        slots.release_request(self.peer.uid, self.trusted)
        if self.server._quiet.holding:
            for cause in slots.request_causes(self.peer.uid):
                self.server._quiet.clear(cause, f"control requests accepted again ({cause})")
        if not self.inflight:
            self.idle_since = self.loop.time()
            if not self.ended:
                self._arm()

    async def _answer(self, obj: dict[str, Any]) -> None:
        """The handler's answer to one request, sent; INTERNAL if the handler fails in any
        way. One coroutine for all of it: its frame is made and stepped on every request."""
        try:
            try:
                answer = await self.server._handler(obj, self.peer)
                if not isinstance(answer, dict):
                    raise TypeError(f"the handler answered a {type(answer).__name__}, not a "
                                    "dict")
            except Exception as exc:
                self.server._quiet.warn(f"handler {type(exc).__name__}", "a control request from "
                                        "%s failed in hermesd (a bug): %s: %s",
                                        self.peer.describe(), type(exc).__name__, exc,
                                        exc_info=True)
                answer = _error(ErrorCode.INTERNAL, "hermesd failed on this request "
                                                    f"({type(exc).__name__}); it is logged")
            request_id = obj.get("id")
            if _echoed(request_id):
                answer["id"] = request_id
            self._send(answer)
        finally:  # here, not in a done callback: one loop callback less on every request
            self._done(id(obj))

    def _send(self, answer: dict[str, Any]) -> None:
        try:
            frame = encode_json(answer, MAX_ANSWER)
        except ProtocolError as exc:
            # nothing that is not strict JSON leaves hermesd: say what went wrong instead
            self.server._quiet.warn("unencodable answers", "a control answer to %s could not "
                                    "be sent as it was (a bug): %s", self.peer.describe(), exc)
            try:
                frame = encode_json(_error(ErrorCode.INTERNAL, "the answer could not be "
                                           f"encoded: {exc}", answer))
            except ProtocolError:  # not even with its id: without it, never nothing at all
                frame = encode_json(_error(ErrorCode.INTERNAL, "the answer could not be "
                                           f"encoded: {exc}"))
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if self.server._paused_others and not self.trusted and self._over_unread(len(frame)):
            transport.abort()
            return
        transport.write(frame)  # a full buffer pauses reading (pause_writing), never this

    def _over_unread(self, size: int) -> bool:
        """Whether an answer of `size` bytes would take this user (or all other users) past
        their share of answers not yet read; if so, it is logged: the connection is cut."""
        lim = self.limits
        mine, others = self.server._unsent(self.peer.uid)
        if mine + size > lim.unsent_per_uid:
            cause, limit, whose = (f"unread answers of uid {self.peer.uid}",
                                   lim.unsent_per_uid, "one user may hold")
        elif others + size > lim.unsent_others:
            cause, limit, whose = ("unread answers of others", lim.unsent_others,
                                   "all users but root and hermesd's own may hold")
        else:
            return False
        self.server._quiet.warn(cause, "control client %s does not read its answers: one of "
                                "%d bytes would go past the %d bytes of unread answers %s; "
                                "closing", self.peer.describe(), size, limit, whose)
        return True

    def _slow_reader(self) -> None:
        self._send_timer = None
        if not self._write_paused or self.transport is None:
            return
        self.server._quiet.warn(f"slow readers of uid {self.peer.uid}",
                                "control client %s did not read its answer within %g s; "
                                "closing", self.peer.describe(), self.limits.send)
        self.transport.abort()

    def _unsent(self) -> None:
        self._send_timer = None
        if self.transport is not None and self.transport.get_write_buffer_size():
            self.server._quiet.warn(f"slow readers of uid {self.peer.uid}",
                                    "control client %s did not read its last answers within "
                                    "%g s of the end; closing", self.peer.describe(),
                                    self.limits.send)
            self.transport.abort()

    # -- deadlines ---------------------------------------------------------------------------

    def _deadline(self) -> float | None:
        """When this connection is next due to be cut: unfinished frame, or idle (a client
        with answers still to read is not idle: the send limit is its deadline)."""
        due = None
        if self.frame_started is not None and not self.backlog:  # else none of it is read
            due = self.frame_started + self.limits.frame_deadline
        if not self.inflight and not self._write_paused:
            idle = self.idle_since + self.limits.idle
            due = idle if due is None or idle < due else due
        return due

    def _arm(self) -> None:
        """Have the timer fire by the next deadline. One that fires early (the deadline moved
        later since) only arms itself again: no timer is moved on every request."""
        due = self._deadline()
        if due is None or (self._timer_at is not None and self._timer_at <= due):
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self.loop.call_at(due, self._on_timer)
        self._timer_at = due

    def _on_timer(self) -> None:
        self._timer = self._timer_at = None
        if self.ended:
            return
        now = self.loop.time()
        if self.frame_started is not None and not self.backlog and \
                now >= self.frame_started + self.limits.frame_deadline:
            reason = (f"frame not finished within {self.limits.frame_deadline:g} s of its first "
                      f"byte ({self.decoder.pending} bytes came)")
            self._end(self._bad_frame(reason, cause="slow frames"))
        elif not self.inflight and not self._write_paused and \
                now >= self.idle_since + self.limits.idle:
            log.debug("control client %s idle for %g s; closing", self.peer.describe(),
                      self.limits.idle)
            self._end(None)
        else:
            self._arm()

    def _bad_frame(self, reason: str, cause: str = "bad frames") -> dict[str, Any]:
        self.server.bad_frames += 1
        self.server._quiet.warn(f"{cause} of uid {self.peer.uid}",
                                "bad frame from %s: %s; closing", self.peer.describe(), reason)
        return _error(ErrorCode.BAD_REQUEST, f"bad frame: {reason}")

    # -- the end -----------------------------------------------------------------------------

    def _end(self, last_word: dict[str, Any] | None) -> None:
        """Read no more; answer what is in flight, say `last_word`, then close."""
        if self.ended:
            return
        self.ended = True
        if self.audio_held:
            for obj in self.backlog:
                self._release_audio(id(obj))
        self.backlog.clear()  # only when cut: else they have all been started
        self.decoder.discard()  # an unfinished frame is never finished now
        if self.audio_pending:
            self.server._slots.release_audio(self.peer.uid, self.audio_pending, self.trusted)
            self.audio_pending = 0
            self._audio_released()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = self._timer_at = None
        transport = self.transport
        if transport is not None and not transport.is_closing():
            with contextlib.suppress(RuntimeError):
                transport.pause_reading()
        self._closer = self.loop.create_task(self._close(last_word))

    async def _close(self, last_word: dict[str, Any] | None) -> None:
        try:
            if self.inflight:
                await asyncio.gather(*self.inflight.values(), return_exceptions=True)
            if last_word is not None:
                self._send(last_word)
        finally:
            self._release()

    def _release(self) -> None:
        # closing waits for the answers still buffered to be sent: a send timer still running
        # cuts a connection whose answers are never read, and one is started for answers
        # below the high-water mark (no pause_writing said so), else they would hold the
        # socket open for ever once its slot is free
        transport = self.transport
        if transport is not None:
            transport.close()
            if self._send_timer is None and transport.get_write_buffer_size():
                self._send_timer = self.loop.call_later(self.limits.send, self._unsent)
        if self in self.server._connections:
            self.server._connections.discard(self)
            for cause in self.server._slots.release_connection(self.peer.uid):
                self.server._quiet.clear(cause, f"control connections accepted again ({cause})")

    def abort(self) -> list[asyncio.Task[None]]:
        """Stop at once (the server is stopping): the tasks to await."""
        self._end(None)
        tasks = [*self.inflight.values(), *([self._closer] if self._closer is not None else [])]
        for task in tasks:
            task.cancel()
        for key in list(self.inflight):  # a task cancelled before its first step never runs
            self._done(key)  # its finally: its slot is freed here (the rest find it freed)
        self._release()  # a closer cancelled before its first step never runs its finally
        return tasks


def _error(code: ErrorCode, message: str, request: dict[str, Any] | None = None) -> dict[str, Any]:
    """The answer of a request the control socket itself refused (status as the engine's)."""
    out = Answer(status_of(code), "direct", None, error={"code": code.value, "message": message},
                 reply=message).to_dict()
    request_id = request.get("id") if request else None
    if _echoed(request_id):
        out["id"] = request_id
    return out


def _echoed(request_id: object) -> bool:
    """Whether an answer carries this `id`: an integer, or a string of at most MAX_ID
    characters (a longer one is refused by name, in requests.parse, and not echoed)."""
    # a tuple, not `str | int`: that builds a union object on every request
    if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
        return False
    return not isinstance(request_id, str) or len(request_id) <= MAX_ID


def _peer(transport: asyncio.BaseTransport) -> Peer:
    sock = transport.get_extra_info("socket")
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, uid, gid = struct.unpack("3i", raw)
        return Peer.of(pid, uid, gid)
    except (OSError, AttributeError):
        return Peer(None, None, None)
