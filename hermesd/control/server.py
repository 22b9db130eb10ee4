"""The control socket server: newline-delimited JSON requests in, one answer per request out.

Each connection is read with a frame limit and an idle limit; a malformed or oversize frame is
answered with an error and that connection closed, without disturbing any other. Requests on
one connection run concurrently and answers carry the request's `id`. The peer's credentials
(SO_PEERCRED) are read once per connection.
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
from typing import Any

from hermesd.control.requests import Peer, RequestDecoder
from hermesd.errors import ProtocolError
from hermesd.protocol import encode_json

log = logging.getLogger(__name__)

MAX_REQUEST = 64 * 1024  # bytes of one request frame
MAX_ANSWER = 4 * 1024 * 1024
IDLE_TIMEOUT = 60.0  # seconds a connection may stay silent (with or without a partial frame)
MAX_CONNECTIONS = 1024
MAX_PER_CONNECTION = 64  # requests in flight on one connection

Handler = Callable[[dict[str, Any], Peer], Awaitable[dict[str, Any]]]


class ControlServer:
    def __init__(self, path: Path, handler: Handler) -> None:
        self.path = path
        self._handler = handler
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self.bad_frames = 0

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

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        if len(self._connections) >= MAX_CONNECTIONS:
            writer.write(encode_json(_error("BUSY", "too many control connections")))
            writer.close()
            return
        self._connections.add(task)
        try:
            await self._serve(reader, writer)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("control connection failed")
        finally:
            self._connections.discard(task)
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = _peer(writer)
        decoder = RequestDecoder()  # 64 KiB frames; only an audio ask may be larger
        inflight: set[asyncio.Task[None]] = set()
        lock = asyncio.Lock()
        try:
            while True:
                try:
                    async with asyncio.timeout(IDLE_TIMEOUT):
                        data = await reader.read(65536)
                except TimeoutError:
                    if decoder.pending:
                        log.warning("control client %s left a frame unfinished for %g s; "
                                    "closing", peer.describe(), IDLE_TIMEOUT)
                    break
                if not data:
                    break
                try:
                    frames = decoder.feed(data)
                except ProtocolError as exc:
                    self.bad_frames += 1
                    log.warning("bad frame from %s: %s; closing", peer.describe(), exc)
                    await _send(writer, lock, _error("BAD_REQUEST", f"bad frame: {exc}"))
                    break
                for obj in frames:
                    if len(inflight) >= MAX_PER_CONNECTION:
                        await _send(writer, lock, _error("BUSY", "too many requests in flight "
                                                                 "on this connection", obj))
                        continue
                    task = asyncio.create_task(self._answer(obj, peer, writer, lock))
                    inflight.add(task)
                    task.add_done_callback(inflight.discard)
            if inflight:
                await asyncio.gather(*inflight, return_exceptions=True)
        finally:
            for task in inflight:
                task.cancel()
            await asyncio.gather(*inflight, return_exceptions=True)

    async def _answer(self, obj: dict[str, Any], peer: Peer, writer: asyncio.StreamWriter,
                      lock: asyncio.Lock) -> None:
        answer = await self._handler(obj, peer)
        if "id" in obj and isinstance(obj["id"], str | int):
            answer["id"] = obj["id"]
        await _send(writer, lock, answer)


async def _send(writer: asyncio.StreamWriter, lock: asyncio.Lock, answer: dict[str, Any]) -> None:
    try:
        frame = encode_json(answer, MAX_ANSWER)
    except ProtocolError as exc:
        frame = encode_json(_error("INTERNAL", f"answer too large: {exc}", answer))
    async with lock:
        if writer.is_closing():
            return
        writer.write(frame)
        with contextlib.suppress(ConnectionError):
            await writer.drain()


def _error(code: str, message: str, request: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"status": "busy" if code == "BUSY" else "error", "route": "direct",
                           "action": None, "result": None,
                           "error": {"code": code, "message": message},
                           "reply": message, "trace_id": "", "timings_ms": {}}
    if request and isinstance(request.get("id"), str | int):
        out["id"] = request["id"]
    return out


def _peer(writer: asyncio.StreamWriter) -> Peer:
    sock = writer.get_extra_info("socket")
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        pid, uid, gid = struct.unpack("3i", raw)
        return Peer.of(pid, uid, gid)
    except (OSError, AttributeError):
        return Peer(None, None, None)
