"""Other local users, for tests run as root: a forked child that setuid()s and does one job.

`as_user(uid, job, *args)` forks, drops to `uid` (and gid `uid`, no supplementary groups), runs
`job(*args)` with blocking sockets only, and hands its JSON result back over a pipe; an
exception in the child comes back as `PeerFailed` with its repr. `Background` is the same while
the test goes on doing other things; `as_user_async` for a test whose event loop serves the
socket the child talks to (it must keep running).
`open_to_everyone(path)` makes a socket reachable by such a child. `send_as(uid, socket,
frames)` pipelines raw request frames as that user and summarises the answers.
`control_server(handler, limits, prefix)` serves a ControlServer in a fresh temporary directory,
reachable by every user, for as long as the `async with` lasts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import select
import shutil
import signal
import socket
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

NOBODY = 65534


class PeerFailed(Exception):
    pass


def needs_root() -> bool:
    return os.getuid() == 0


def open_to_everyone(path: Path) -> None:
    """Let any user reach the socket at `path` (the test config stands for the socket's group)."""
    os.chmod(path, 0o666)
    for parent in path.parents:
        if parent == Path("/tmp") or parent == Path("/"):
            break
        os.chmod(parent, os.stat(parent).st_mode | 0o055)


def _child(uid: int, write_fd: int, job: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        try:
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            data = json.dumps({"result": job(*args)}).encode()
        except BaseException as exc:  # say what went wrong instead of an empty pipe
            data = json.dumps({"error": repr(exc)}).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(write_fd, view):]
    finally:
        os._exit(0)


def _result(data: bytes) -> Any:
    try:
        out = json.loads(data)
    except ValueError:
        raise PeerFailed(f"the child sent {data[:200]!r}") from None
    if "error" in out:
        raise PeerFailed(out["error"])
    return out["result"]


class Background:
    """A child doing `job(*args)` as `uid` while the test goes on; `result()` waits for it."""

    def __init__(self, uid: int, job: Callable[..., Any], *args: Any) -> None:
        read_fd, write_fd = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(read_fd)
            _child(uid, write_fd, job, args)
        os.close(write_fd)
        self._fd = read_fd
        self._done = False

    def result(self, timeout: float = 60.0) -> Any:
        """The job's result; PeerFailed if it failed, TimeoutError (child killed) if it hangs."""
        deadline = time.monotonic() + timeout
        data = b""
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self._fd], [], [], left)[0]:
                    self.kill()
                    raise TimeoutError(f"child {self.pid} gave no result within {timeout:g} s")
                chunk = os.read(self._fd, 65536)
                if not chunk:
                    break
                data += chunk
        finally:
            self.close()
        return _result(data)

    def kill(self) -> None:
        if self._done:  # reaped: its pid may be another process's by now
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.close()

    def close(self) -> None:
        if not self._done:
            self._done = True
            os.close(self._fd)
            os.waitpid(self.pid, 0)


def as_user(uid: int, job: Callable[..., Any], *args: Any) -> Any:
    return Background(uid, job, *args).result()


async def as_user_async(uid: int, job: Callable[..., Any], *args: Any) -> Any:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(uid, write_fd, job, args)
    os.close(write_fd)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                os.fdopen(read_fd, "rb"))
    try:
        data = await reader.read()
    finally:
        transport.close()
    # the pipe ends only when the child exits (it never closes its end): this does not block
    os.waitpid(pid, 0)  # noqa: ASYNC222
    return _result(data)


# -- jobs a child runs -------------------------------------------------------------------------


def read_answers(sock: socket.socket) -> list[dict[str, Any]]:
    """Every answer until the server closes the connection.

    A server that closes with some of our bytes unread makes the kernel end our reading with
    ECONNRESET instead of EOF, after everything it sent: the same end here.
    """
    buf = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        buf += chunk
    return [json.loads(line) for line in buf.splitlines() if line.strip()]


# -- pipelined raw frames ------------------------------------------------------------------------

WINDOW = 32  # requests in flight on one connection (the server takes 64)


def send_as(uid: int | None, sock: Path, frames: list[bytes], *,
            each_on_its_own: bool = False, timeout: float = 60.0) -> dict[str, Any]:
    """Pipeline raw frames (each ending in a newline) as `uid` (None: as ourselves), a window
    in flight; a frame the daemon refuses closes that connection, and `each_on_its_own` gives
    every frame a connection of its own. Returns the count of answers, how many of each status
    and error code, and the seconds it took."""
    def job() -> dict[str, Any]:
        started = time.monotonic()
        answers: list[bytes] = []
        for batch in ([f] for f in frames) if each_on_its_own else [frames]:
            answers += _pipeline(sock, batch, timeout)
        return _summary(answers, time.monotonic() - started)

    if uid is None:
        return job()
    return dict(Background(uid, job).result(timeout * max(1, len(frames) // WINDOW + 1)))


def _pipeline(path: Path, frames: list[bytes], timeout: float) -> list[bytes]:
    answers: list[bytes] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(path))
        sent = 0
        buf = b""
        while len(answers) < len(frames):
            while sent < len(frames) and sent - len(answers) < WINDOW:
                sock.sendall(frames[sent])
                sent += 1
            try:
                chunk = sock.recv(1 << 20)
            except ConnectionResetError:
                break
            if not chunk:
                break  # the daemon closed it (after answering a frame it refused)
            buf += chunk
            *lines, buf = buf.split(b"\n")
            answers += [line for line in lines if line.strip()]
    return answers


def _summary(answers: list[bytes], elapsed: float) -> dict[str, Any]:
    kinds: Counter[str] = Counter()
    for line in answers:
        try:
            answer = json.loads(line)
            kinds[f"{answer.get('status')} {(answer.get('error') or {}).get('code')}"] += 1
        except ValueError:
            kinds["unreadable"] += 1
    return {"answers": len(answers), "kinds": dict(kinds), "elapsed": elapsed}


@contextlib.asynccontextmanager
async def control_server(handler: Callable[..., Awaitable[dict[str, Any]]], limits: Any,
                         prefix: str) -> AsyncIterator[Any]:
    """A ControlServer on a socket in a fresh directory under /tmp, open to every user."""
    from hermesd.control.server import ControlServer

    where = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    srv = ControlServer(where / "control.sock", handler, limits)
    await srv.start()
    open_to_everyone(srv.path)
    try:
        yield srv
    finally:
        await srv.stop()
        shutil.rmtree(where, ignore_errors=True)
