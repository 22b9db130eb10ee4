"""The asyncio client of hermesd's control socket: requests pipelined on one connection.

Framing, answer checks and errors are `hermesd.control.client`'s (see there); this adds only
the matching of answers to requests by `id`. A request is never sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from hermesd.control.bounds import MAX_ANSWER
from hermesd.control.client import (
    QUEUE_RETRY,
    BadAnswer,
    Unreachable,
    Unsendable,
    cannot_connect,
    frame,
    queue_full,
    read_answer,
)
from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError


class AsyncClient:
    """An asyncio client on one connection, made at the first request: requests are pipelined,
    each carrying an `id` (its own, or one given here) by which its answer is matched.

    A connection that breaks or sends a line that is not strict JSON fails every request waiting
    on it; the next request makes a new connection. `timeout` bounds connecting (seconds).
    """

    def __init__(self, path: Path | str, timeout: float = 60.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._pump: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return self._pump is not None and not self._pump.done()

    async def _connect(self) -> asyncio.StreamWriter:
        async with self._lock:
            if self.connected and self._writer is not None:
                return self._writer
            await self._drop()
            deadline = time.monotonic() + self.timeout
            while True:
                try:
                    async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                        reader, writer = await asyncio.open_unix_connection(
                            str(self.path), limit=MAX_ANSWER + 1)
                except BlockingIOError:  # the connection queue is full: see Client
                    if time.monotonic() < deadline:
                        await asyncio.sleep(QUEUE_RETRY)
                        continue
                    raise queue_full(self.path, self.timeout) from None
                except TimeoutError:
                    raise queue_full(self.path, self.timeout) from None
                except (OSError, ValueError) as exc:
                    raise cannot_connect(self.path, exc) from None
                break
            self._reader, self._writer = reader, writer
            self._pump = asyncio.create_task(self._read(reader), name="control-client-reader")
            return writer

    async def _read(self, reader: asyncio.StreamReader) -> None:
        failure: Exception = Unreachable("hermesd closed the connection without an answer")
        try:
            while line := await reader.readline():
                if not line.endswith(b"\n"):
                    break  # closed in the middle of a line
                try:
                    answer = read_answer(line)
                except BadAnswer as exc:
                    obj = _lenient(line)
                    fut = self._waiting.pop(str(obj.get("id")), None) if obj else None
                    if fut is None:  # no telling whose answer it was: none can be trusted
                        failure = exc
                        break
                    if not fut.done():
                        fut.set_exception(exc)
                    continue
                fut = self._waiting.pop(str(answer.get("id")), None)
                if fut is not None and not fut.done():
                    fut.set_result(answer)
        except ValueError:  # a line longer than the reader's limit
            failure = BadAnswer(f"the answer is larger than {MAX_ANSWER} bytes")
        except OSError as exc:
            failure = Unreachable(f"connection to hermesd failed: {exc}")
        finally:
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_exception(failure)
            self._waiting.clear()

    async def request(self, obj: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request and return its answer; `timeout`: seconds to wait for it."""
        if "id" not in obj:
            obj = {**obj, "id": f"c{next(self._ids)}"}
        rid = str(obj["id"])
        line = frame(obj)
        if rid in self._waiting:
            raise Unsendable(f"a request with id {rid!r} is already waiting on this connection")
        writer = await self._connect()
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        if not self.connected:  # it broke since: its reader has failed those waiting already
            self._waiting.pop(rid, None)
            raise Unreachable("hermesd closed the connection without an answer")
        try:
            writer.write(line)
            await writer.drain()
        except OSError as exc:
            self._waiting.pop(rid, None)
            raise Unreachable(f"connection to hermesd failed: {exc}") from None
        wait = self.timeout if timeout is None else timeout
        try:
            async with asyncio.timeout(wait):
                return await fut
        except TimeoutError:
            raise Unreachable(f"no answer from hermesd within {wait:g} s") from None
        finally:
            self._waiting.pop(rid, None)

    async def _drop(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        self._reader = self._writer = self._pump = None

    async def close(self) -> None:
        async with self._lock:
            await self._drop()



def _lenient(line: bytes) -> dict[str, Any] | None:
    """The object in a line `read_answer` refused, if it is JSON at all (to find its id)."""
    try:
        obj = strict_json.loads(line)
    except ProtocolError:
        return None
    return obj if isinstance(obj, dict) else None
