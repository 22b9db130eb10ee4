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
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermesd.answer import Answer, status_of
from hermesd.control.bounds import MAX_ANSWER, MAX_REQUEST
from hermesd.control.limits import Limits, OncePerCause, Slots
from hermesd.control.requests import Peer, RequestDecoder
from hermesd.core.errors import ErrorCode, ProtocolError
from hermesd.core.protocol import encode_json

if TYPE_CHECKING:
    from hermesd.config.model import Config

log = logging.getLogger(__name__)


Handler = Callable[[dict[str, Any], Peer], Awaitable[dict[str, Any]]]


class ControlServer:
    def __init__(self, path: Path, handler: Handler, limits: Limits | None = None) -> None:
        self.path = path
        self.limits = limits or Limits()
        self._handler = handler
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._slots = Slots(self.limits)
        self._quiet = OncePerCause(log)
        self.bad_frames = 0
        self.refused = 0  # connections and requests refused BUSY by the limits
        self.listening = asyncio.Event()  # set once the socket accepts connections

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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        old = os.umask(0o117)  # srw-rw----: the daemon's user and group
        try:
            self._server = await asyncio.start_unix_server(self._accept, str(self.path),
                                                           limit=MAX_REQUEST * 2, backlog=512)
        finally:
            os.umask(old)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        tasks = list(self._connections)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def status(self) -> dict[str, Any]:
        return {"connections": self._slots.total, "bad_frames": self.bad_frames,
                "refused": self.refused, "refusing": self._quiet.active()}

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        peer = _peer(writer)
        refusal = self._slots.admit_connection(peer.uid, peer.describe())
        if refusal is not None:
            cause, reason = refusal
            self.refused += 1
            self._quiet.warn(cause, "refusing control connections: %s", reason)
            with contextlib.suppress(ConnectionError, ProtocolError):
                writer.write(encode_json(_error(ErrorCode.BUSY, reason)))
            writer.close()
            return
        self._connections.add(task)
        try:
            await _Connection(self, reader, writer, peer).serve()
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("control connection of %s failed", peer.describe())
        finally:
            self._connections.discard(task)
            writer.close()
            for cause in self._slots.release_connection(peer.uid):
                self._quiet.clear(cause, f"control connections accepted again ({cause})")

    async def answer(self, obj: dict[str, Any], peer: Peer) -> dict[str, Any]:
        """The handler's answer to one request; INTERNAL if the handler fails in any way."""
        try:
            answer = await self._handler(obj, peer)
            if not isinstance(answer, dict):
                raise TypeError(f"the handler answered a {type(answer).__name__}, not a dict")
        except Exception as exc:
            cause = f"handler {type(exc).__name__}"
            self._quiet.warn(cause, "a control request from %s failed in hermesd (a bug): %s: %s",
                             peer.describe(), type(exc).__name__, exc, exc_info=True)
            answer = _error(ErrorCode.INTERNAL, "hermesd failed on this request "
                                                f"({type(exc).__name__}); it is logged")
        request_id = obj.get("id")
        if isinstance(request_id, str | int) and not isinstance(request_id, bool):
            answer["id"] = request_id
        return answer


class _Connection:
    """One client connection: its reader loop, its requests in flight, its deadlines."""

    def __init__(self, server: ControlServer, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, peer: Peer) -> None:
        self.server = server
        self.limits = server.limits
        self.reader = reader
        self.writer = writer
        self.peer = peer
        self.loop = asyncio.get_running_loop()
        self.inflight: set[asyncio.Task[None]] = set()
        self.lock = asyncio.Lock()
        self.idle_since = self.loop.time()
        self.frame_started: float | None = None
        self._timeout: asyncio.Timeout | None = None

    def _deadline(self) -> float | None:
        """When this connection is next due to be cut: unfinished frame, or idle."""
        due = []
        if self.frame_started is not None:
            due.append(self.frame_started + self.limits.frame_deadline)
        if not self.inflight:
            due.append(self.idle_since + self.limits.idle)
        return min(due, default=None)

    def _rearm(self) -> None:
        if self._timeout is not None and not self._timeout.expired():
            self._timeout.reschedule(self._deadline())

    async def serve(self) -> None:
        decoder = RequestDecoder()  # 64 KiB frames; only an audio ask may be larger
        last_word: dict[str, Any] | None = None  # the refusal that ends this connection
        try:
            while True:
                try:
                    async with asyncio.timeout_at(self._deadline()) as self._timeout:
                        data = await self.reader.read(65536)
                except TimeoutError:
                    if self._past_deadline(decoder):
                        last_word = self._cut(decoder)
                        break
                    continue
                finally:
                    self._timeout = None
                if not data:  # the client closed its side: what it sent last is a request too
                    last_word = await self._last_frame(decoder)
                    break
                now = self.loop.time()
                had_partial = decoder.pending > 0
                try:
                    frames = decoder.feed(data)
                except ProtocolError as exc:
                    last_word = self._bad_frame(str(exc))
                    break
                if not decoder.pending:
                    self.frame_started = None
                elif frames or not had_partial:
                    self.frame_started = now  # a new frame began in this read
                if frames:
                    self.idle_since = now
                for obj in frames:
                    await self._start(obj)
                if decoder.error is not None:  # after the good frames that came before it
                    last_word = self._bad_frame(str(decoder.error))
                    break
            # every request that came whole is answered before the connection closes, and the
            # refusal that closes it (if any) is the last thing said
            if self.inflight:
                await asyncio.gather(*self.inflight, return_exceptions=True)
            if last_word is not None:
                await self._send(last_word)
        finally:
            for task in self.inflight:
                task.cancel()
            await asyncio.gather(*self.inflight, return_exceptions=True)

    async def _last_frame(self, decoder: RequestDecoder) -> dict[str, Any] | None:
        """Start the frame a client left without its newline when it closed its side; the
        refusal that ends the connection if it is no request."""
        try:
            obj = decoder.finish()
        except ProtocolError as exc:
            return self._bad_frame(str(exc))
        self.frame_started = None
        if obj is not None:
            await self._start(obj)
        return None

    def _past_deadline(self, decoder: RequestDecoder) -> bool:
        """After the timeout fired: whether a deadline really passed (then the connection ends)."""
        now = self.loop.time()
        if self.frame_started is not None and \
                now >= self.frame_started + self.limits.frame_deadline:
            return True
        if not self.inflight and now >= self.idle_since + self.limits.idle:
            log.debug("control client %s idle for %g s; closing", self.peer.describe(),
                      self.limits.idle)
            return True
        return False

    def _cut(self, decoder: RequestDecoder) -> dict[str, Any] | None:
        """The answer to a frame left unfinished at its deadline (None: the connection was idle)."""
        if self.frame_started is None or \
                self.loop.time() < self.frame_started + self.limits.frame_deadline:
            return None
        reason = (f"frame not finished within {self.limits.frame_deadline:g} s of its first "
                  f"byte ({decoder.pending} bytes came)")
        return self._bad_frame(reason, cause="slow frames")

    def _bad_frame(self, reason: str, cause: str = "bad frames") -> dict[str, Any]:
        self.server.bad_frames += 1
        self.server._quiet.warn(f"{cause} of uid {self.peer.uid}",
                                "bad frame from %s: %s; closing", self.peer.describe(), reason)
        return _error(ErrorCode.BAD_REQUEST, f"bad frame: {reason}")

    async def _start(self, obj: dict[str, Any]) -> None:
        """Start answering one request, unless its connection or its user has too many.

        A refusal is sent before the next frame is read, so a client that pipelines more than
        it may cannot make hermesd queue answers for it faster than it reads them.
        """
        refusal: tuple[str, str] | None
        if len(self.inflight) >= self.limits.per_connection:
            refusal = (f"connection full: uid {self.peer.uid}", "too many requests in flight "
                       f"on this connection (at most {self.limits.per_connection})")
        else:
            refusal = self.server._slots.admit_request(self.peer.uid, self.peer.describe())
        if refusal is not None:
            cause, reason = refusal
            self.server.refused += 1
            self.server._quiet.warn(cause, "refusing control requests: %s", reason)
            await self._send(_error(ErrorCode.BUSY, reason, obj))
            return
        task = asyncio.create_task(self._answer(obj))
        self.inflight.add(task)
        task.add_done_callback(self._done)
        self._rearm()

    def _done(self, task: asyncio.Task[None]) -> None:
        self.inflight.discard(task)
        for cause in self.server._slots.release_request(self.peer.uid):
            self.server._quiet.clear(cause, f"control requests accepted again ({cause})")
        if not self.inflight:
            self.idle_since = self.loop.time()
        self._rearm()

    async def _answer(self, obj: dict[str, Any]) -> None:
        await self._send(await self.server.answer(obj, self.peer))

    async def _send(self, answer: dict[str, Any]) -> None:
        try:
            frame = encode_json(answer, MAX_ANSWER)
        except ProtocolError as exc:
            # nothing that is not strict JSON leaves hermesd: say what went wrong instead
            self.server._quiet.warn("unencodable answers", "a control answer to %s could not "
                                    "be sent as it was (a bug): %s", self.peer.describe(), exc)
            frame = encode_json(_error(ErrorCode.INTERNAL, f"the answer could not be encoded: "
                                                           f"{exc}", answer))
        async with self.lock:
            if self.writer.is_closing():
                return
            self.writer.write(frame)
            if not self.writer.transport.get_write_buffer_size():
                return  # all of it went to the socket: nothing to drain, no deadline to arm
            try:
                async with asyncio.timeout(self.limits.send):
                    await self.writer.drain()
            except TimeoutError:
                self.server._quiet.warn(f"slow readers of uid {self.peer.uid}",
                                        "control client %s did not read its answer within %g s; "
                                        "closing", self.peer.describe(), self.limits.send)
                self.writer.transport.abort()
            except ConnectionError:
                pass


def _error(code: ErrorCode, message: str, request: dict[str, Any] | None = None) -> dict[str, Any]:
    """The answer of a request the control socket itself refused (status as the engine's)."""
    out = Answer(status_of(code), "direct", None, error={"code": code.value, "message": message},
                 reply=message).to_dict()
    request_id = request.get("id") if request else None
    if isinstance(request_id, str | int) and not isinstance(request_id, bool):
        out["id"] = request_id
    return out


def _peer(writer: asyncio.StreamWriter) -> Peer:
    sock = writer.get_extra_info("socket")
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, uid, gid = struct.unpack("3i", raw)
        return Peer.of(pid, uid, gid)
    except (OSError, AttributeError):
        return Peer(None, None, None)
