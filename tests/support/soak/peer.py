"""`python -m tests.support.soak.peer --uid UID --socket CONTROL.sock`: another local user of the soak.

Started by the soak as root, it loads everything it needs, raises its open-file limit, then
drops to `UID` (gid `UID`, no supplementary groups) for good, and does the jobs the soak sends
on stdin (one JSON object a line, each with an `id`), several at once, answering each with one
JSON line on stdout. Jobs, all on Unix sockets with blocking I/O in threads:

- `send`: connect to `path`, send `chunks` (hex), close the sending side, and collect every
  answer line (hex) until hermesd closes the connection; `window` > 0 pipelines instead: that
  many frames in flight at a time, until each has its answer or the connection ends.
- `flood`: open `count` connections at once, trickle a byte every `every` seconds into each one
  held, and report how each ended: refused `busy` (with the reason), cut at the frame deadline,
  or anything else; never longer than `give_up` seconds.
- `stranger`: connect to a tool's socket, send `payload` (hex), and say what became of it.

It judges nothing: it reports what it saw, and the soak judges. It exits when stdin closes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import select
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

WORKERS = 32
QUEUE_RETRY = 0.01  # seconds between tries to connect while a connection queue is full
_out = threading.Lock()


def _say(obj: dict[str, Any]) -> None:
    line = json.dumps(obj) + "\n"
    with _out:
        sys.stdout.write(line)
        sys.stdout.flush()


def _lines(sock: socket.socket, deadline: float) -> list[bytes]:
    """Every answer line until the peer closes (a reset after its answers ends it too)."""
    buf = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no end of the answers")
        sock.settimeout(left)
        try:
            chunk = sock.recv(1 << 20)
        except ConnectionResetError:
            break
        if not chunk:
            break
        buf += chunk
    return [line for line in buf.split(b"\n") if line.strip()]


def _connect_waiting(sock: socket.socket, path: str, deadline: float) -> None:
    """Connect, waiting out a full connection queue (EAGAIN, as a blocking client would wait;
    hermesctl does the same) until `deadline`."""
    while True:
        try:
            sock.connect(path)
            return
        except BlockingIOError:
            if time.monotonic() + QUEUE_RETRY >= deadline:
                raise
            time.sleep(QUEUE_RETRY)


def send(job: dict[str, Any]) -> dict[str, Any]:
    timeout = float(job.get("timeout", 60.0))
    chunks = [bytes.fromhex(c) for c in job["chunks"]]
    window = int(job.get("window", 0))
    started = time.monotonic()
    deadline = started + timeout
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            _connect_waiting(sock, job["path"], deadline)
        except OSError as exc:
            return {"connect_error": f"{type(exc).__name__}: {exc}"}
        try:
            answers = _pipeline(sock, chunks, window, deadline) if window else \
                _send_all(sock, chunks, deadline)
        except TimeoutError as exc:
            return {"timeout": str(exc), "elapsed": time.monotonic() - started}
    return {"answers": [a.hex() for a in answers], "elapsed": time.monotonic() - started}


def _send_all(sock: socket.socket, chunks: list[bytes], deadline: float) -> list[bytes]:
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        for chunk in chunks:
            sock.sendall(chunk)
        sock.shutdown(socket.SHUT_WR)
    return _lines(sock, deadline)


def _pipeline(sock: socket.socket, frames: list[bytes], window: int,
              deadline: float) -> list[bytes]:
    answers: list[bytes] = []
    sent = 0
    buf = b""
    while len(answers) < len(frames):
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while sent < len(frames) and sent - len(answers) < window:
                sock.sendall(frames[sent])
                sent += 1
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{len(answers)} of {len(frames)} answers")
        sock.settimeout(left)
        try:
            chunk = sock.recv(1 << 20)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            break  # hermesd closed it (after answering a frame it refused)
        buf += chunk
        *lines, buf = buf.split(b"\n")
        answers += [line for line in lines if line.strip()]
    return answers


def _first_line(sock: socket.socket) -> dict[str, Any] | None:
    buf = b""
    with contextlib.suppress(ConnectionResetError, TimeoutError):
        sock.settimeout(5)
        while b"\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
    try:
        return dict(json.loads(buf.partition(b"\n")[0])) if buf.strip() else None
    except ValueError:
        return {"unreadable": buf[:200].hex()}


def _connect(path: str, deadline: float) -> socket.socket:
    """A connection as a blocking client makes it: a full listen backlog (EAGAIN) is waited
    out until hermesd accepts, up to the deadline."""
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(path)
        except BlockingIOError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.001)  # the backlog is full: hermesd has not accepted yet
            continue
        except OSError:
            sock.close()
            raise
        sock.setblocking(True)
        return sock


def flood(job: dict[str, Any]) -> dict[str, Any]:
    """The issue's attack: many connections at once, a byte now and then into each one held."""
    count, every, give_up = int(job["count"]), float(job["every"]), float(job["give_up"])
    socks: list[socket.socket] = []
    connect_errors: dict[str, int] = {}
    for _ in range(count):
        try:
            socks.append(_connect(job["path"], time.monotonic() + 10))
        except OSError as exc:
            key = type(exc).__name__
            connect_errors[key] = connect_errors.get(key, 0) + 1
    poller = select.poll()
    by_fd = {s.fileno(): s for s in socks}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    first_byte: dict[int, float] = {}
    busy: dict[str, int] = {}
    cut: list[float] = []
    other: list[Any] = []

    def trickle(data: bytes) -> None:
        now = time.monotonic()
        for fd, sock in by_fd.items():
            with contextlib.suppress(OSError):
                sock.send(data)
                first_byte.setdefault(fd, now)

    started = next_byte = time.monotonic()
    trickle(b'{"op": "status", "padding": "')
    while by_fd and time.monotonic() - started < give_up:
        next_byte += every
        while by_fd and (wait := next_byte - time.monotonic()) > 0:
            for fd, _ in poller.poll(wait * 1000):
                sock = by_fd.pop(fd)
                poller.unregister(fd)
                answer = _first_line(sock)
                sock.close()
                error = (answer or {}).get("error") or {}
                message = str(error.get("message", "")) if isinstance(error, dict) else ""
                if answer and answer.get("status") == "busy" and error.get("code") == "BUSY":
                    busy[message] = busy.get(message, 0) + 1
                elif answer and error.get("code") == "BAD_REQUEST" and \
                        "not finished within" in message:
                    cut.append(round(time.monotonic() - first_byte.get(fd, started), 2))
                else:
                    other.append(answer)
        trickle(b"x")
    still_open = len(by_fd)
    for sock in by_fd.values():
        sock.close()
    return {"connected": len(socks), "connect_errors": connect_errors, "busy": busy,
            "cut_after_s": cut, "other": other[:5], "others": len(other),
            "still_open": still_open, "seconds": round(time.monotonic() - started, 2)}


def stranger(job: dict[str, Any]) -> dict[str, Any]:
    """What became of a stranger at a tool's socket: absent, denied (by the file's mode),
    refused (closed without a word), held (let in, neither answered nor closed in 5 s), or
    answered (the first bytes it got)."""
    payload = bytes.fromhex(job["payload"])
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        try:
            sock.connect(job["path"])
        except FileNotFoundError:
            return {"outcome": "absent"}
        except PermissionError:
            return {"outcome": "denied"}
        except OSError as exc:  # refused at connect: nobody listens (a restart)
            return {"outcome": "absent", "why": f"{type(exc).__name__}"}
        try:
            if payload:
                sock.sendall(payload)
            data = sock.recv(65536)
        except ConnectionError:
            data = b""
        except TimeoutError:
            return {"outcome": "held"}
    return {"outcome": "answered", "got": data[:200].hex()} if data else {"outcome": "refused"}


JOBS = {"send": send, "flood": flood, "stranger": stranger}


def run(job: dict[str, Any]) -> None:
    try:
        result = JOBS[job["op"]](job)
    except Exception as exc:  # the soak hears of it as the job's outcome
        result = {"job_error": f"{type(exc).__name__}: {exc}"}
    _say({"id": job["id"], **result})


def become(uid: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    if os.getuid() != uid:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.support.soak.peer")
    parser.add_argument("--uid", type=int, required=True)
    parser.add_argument("--socket", required=True, help="the control socket (for the record)")
    args = parser.parse_args()
    become(args.uid)
    _say({"ready": True, "uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups()})
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="peer")
    for line in sys.stdin:
        if line.strip():
            pool.submit(run, json.loads(line))
    os._exit(0)  # stdin closed: jobs still running (a flood trickling) end with the process


if __name__ == "__main__":
    main()
