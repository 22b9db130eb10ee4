"""A client of hermesd's control socket: `Client` (blocking; `async_client.AsyncClient` is the
asyncio one, kept apart so that hermesctl starts without loading asyncio).

hermesctl, the soak, the benchmarks and the tests all talk to the daemon through these. A request
goes out as one line of compact strict JSON; an answer is one line that must be strict JSON with
a documented `status` (`read_answer`), else `BadAnswer`. A full connection queue (hermesd
refusing a flood as fast as it accepts) is waited out within the timeout, as a blocking client
would; any other failure to connect, or a connection that ends before the answer, is
`Unreachable`. A client never sends a request twice: a write must not happen twice.
"""

from __future__ import annotations

import select
import socket
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from hermesd.answer import STATUS_EXIT
from hermesd.control.bounds import MAX_ANSWER
from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError

QUEUE_RETRY = 0.01  # seconds between tries to connect while hermesd's connection queue is full


class Unreachable(Exception):
    """No answer from hermesd: it cannot be reached, or the connection ended or timed out."""


class BadAnswer(Exception):
    """The daemon sent something that is not an answer (not strict JSON, or not its shape)."""


class Unsendable(ValueError):
    """A request that cannot be sent as strict JSON (a NaN, a lone surrogate...)."""


def shown(text: str) -> str:
    """`text` safe to print and to put in JSON: bytes that were not UTF-8 as \\xNN escapes."""
    try:
        raw = text.encode("utf-8", "surrogateescape")  # the bytes argv or stdin held
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return raw.decode("utf-8", "backslashreplace")


def frame(obj: dict[str, Any]) -> bytes:
    """One request line: compact, in insertion order (an audio ask must start
    '{"op":"ask","audio_wav":'); Unsendable if it is not strict JSON."""
    try:
        return strict_json.encode(obj) + b"\n"
    except ProtocolError as exc:
        raise Unsendable(f"the request cannot be sent: {exc}") from None


def read_answer(line: bytes) -> dict[str, Any]:
    """The answer in one line from the daemon; BadAnswer if it is not strict JSON of its shape."""
    try:
        answer = strict_json.loads(line)
    except ProtocolError as exc:
        raise BadAnswer(f"the answer is not valid JSON: {exc}") from None
    if not isinstance(answer, dict):
        raise BadAnswer(f"the answer is a JSON {type(answer).__name__}, not an object")
    status = answer.get("status")
    if not isinstance(status, str) or status not in STATUS_EXIT:
        raise BadAnswer(f"the answer's status {shown(str(status))[:40]!r} is not one of "
                        f"{', '.join(STATUS_EXIT)}")
    return answer


def cannot_connect(path: Path, exc: BaseException) -> Unreachable:
    reason = getattr(exc, "strerror", None) or str(exc)
    return Unreachable(f"cannot connect to hermesd at {shown(str(path))}: {reason} "
                       "(is it running? see --socket)")


def queue_full(path: Path, timeout: float) -> Unreachable:
    return Unreachable(f"cannot connect to hermesd at {shown(str(path))}: its connection queue "
                       f"stayed full for {timeout:g} s")


class Client:
    """A blocking client: one request at a time on one connection, made at the first request.

    `timeout` bounds connecting and each wait for the daemon (seconds).
    """

    def __init__(self, path: Path | str, timeout: float = 60.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._buffer = b""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _connect(self) -> socket.socket:
        if self._sock is None:
            deadline = time.monotonic() + self.timeout
            while True:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(self.timeout)
                try:
                    sock.connect(str(self.path))
                except BlockingIOError:
                    # hermesd's connection queue is full (a burst of connections, such as a
                    # flood it refuses as it accepts them): wait for room, as a blocking
                    # client would, instead of calling hermesd unreachable
                    sock.close()
                    if time.monotonic() < deadline:
                        time.sleep(QUEUE_RETRY)
                        continue
                    raise queue_full(self.path, self.timeout) from None
                except (OSError, ValueError) as exc:
                    sock.close()
                    raise cannot_connect(self.path, exc) from None
                break
            self._sock = sock
        return self._sock

    def request(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its answer. A kept connection hermesd has closed
        meanwhile (it closes idle ones) is made anew first: nothing was sent on it."""
        line = frame(obj)
        if self._sock is not None and not self._buffer and _closed_by_peer(self._sock):
            self.close()
        reused = self._sock is not None
        sock = self._connect()
        try:
            try:
                sock.sendall(line)
            except (BrokenPipeError, ConnectionResetError):
                if not reused:
                    raise
                # closed before it read a byte of this request: sent again, once, anew
                self.close()
                sock = self._connect()
                sock.sendall(line)
            while b"\n" not in self._buffer:
                chunk = sock.recv(65536)
                if not chunk:
                    raise Unreachable("hermesd closed the connection without an answer")
                self._buffer += chunk
                if len(self._buffer) > MAX_ANSWER + 1:  # the frame and its newline
                    raise BadAnswer(f"the answer is larger than {MAX_ANSWER} bytes")
        except TimeoutError:
            raise Unreachable(f"no answer from hermesd within {self.timeout:g} s") from None
        except OSError as exc:
            raise Unreachable(f"connection to hermesd failed: {exc}") from None
        answer, _, self._buffer = self._buffer.partition(b"\n")
        return read_answer(answer)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _closed_by_peer(sock: socket.socket) -> bool:
    """Whether the other end has closed the connection (an end of file waits to be read)."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def request_once(path: Path | str, obj: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
    """One request on a connection of its own, as hermesctl makes it; its answer."""
    with Client(path, timeout) as client:
        return client.request(obj)
