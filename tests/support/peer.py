"""Control-socket requests from another user: a forked child that becomes that user (needs root).

`send_as(uid, socket, frames)` pipelines raw frames (bytes, each ending in a newline) on one
connection, a window of them in flight, and returns a summary of the answers: their count, how
many of each status and error code, and the seconds it took. A frame the daemon refuses closes
that connection; `each_on_its_own=True` sends every frame on a connection of its own.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any

WINDOW = 32  # requests in flight on one connection (the server takes 64)


def open_socket_to_others(sock: Path) -> None:
    """Let every user reach the control socket (it is 0660 in a 0750 dir) for this test."""
    os.chmod(sock, 0o666)
    os.chmod(sock.parent, 0o755)
    os.chmod(sock.parent.parent, 0o755)


def send_as(uid: int | None, sock: Path, frames: list[bytes], *,
            each_on_its_own: bool = False, timeout: float = 60.0) -> dict[str, Any]:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: become `uid`, send, summarise into the pipe, leave at once
        try:
            os.close(read_fd)
            if uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            started = time.monotonic()
            answers: list[bytes] = []
            if each_on_its_own:
                for frame in frames:
                    answers += _pipeline(sock, [frame], timeout)
            else:
                answers = _pipeline(sock, frames, timeout)
            summary = _summary(answers, time.monotonic() - started)
            os.write(write_fd, json.dumps(summary).encode())
        except BaseException as exc:  # say what went wrong instead of an empty pipe
            os.write(write_fd, json.dumps({"child failed": repr(exc)}).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    result = dict(json.loads(data))
    assert "child failed" not in result, result
    return result


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
            chunk = sock.recv(1 << 20)
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
