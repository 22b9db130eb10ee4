"""Connection floods against a real hermesd with its documented limits: root is still answered.

One local user opens 1,100 connections and trickles a byte a second into the ones it gets (the
issue's attack, with bytes 25 times as often): it holds its 32, the rest are refused BUSY with
the reason, logged once; every trickled frame is cut at its absolute 10 s deadline; root is
answered all along. Then fifteen users fill every slot but root's reserve: a sixteenth is
refused, root and hermesctl are answered. Other users are forked children that setuid().
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.control.limits import FRAME_DEADLINE, MAX_CONNECTIONS, MAX_PER_UID, RESERVED
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.peers import NOBODY, Background, needs_root, open_to_everyone
from tests.support.until import until_sync

pytestmark = pytest.mark.skipif(not needs_root(), reason="plays other users with setuid")

FLOOD = 1100
TRICKLE_EVERY = 1.0  # seconds between bytes: a deadline renewed per byte would never pass
GIVE_UP = 3 * FRAME_DEADLINE  # the attacker trickles this long at most


@pytest.fixture
def gate() -> Iterator[str]:
    """A directory where the forked users and the test leave word for each other (files)."""
    where = Path(tempfile.mkdtemp(prefix="hf", dir="/tmp"))
    where.chmod(0o777)
    yield str(where)
    shutil.rmtree(where, ignore_errors=True)


@pytest.fixture
def daemon(daemon_runner: DaemonRunner) -> Iterator[RunningDaemon]:
    config = base_config({"dev": fake_device({
        "level": {"name": "Tank level", "type": "float", "unit": "%",
                  "params": {"value": 73.4}}})})
    d = daemon_runner.start(config)
    open_to_everyone(d.socket)
    yield d
    assert d.terminate() == 0


def _first_line(sock: socket.socket) -> dict[str, Any] | None:
    """The first answer on a socket that has something to read (None: closed, nothing said)."""
    buf = b""
    with contextlib.suppress(ConnectionResetError):
        while b"\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
    return json.loads(buf.partition(b"\n")[0]) if buf.strip() else None


def _hog(path: str, count: int, ready: str) -> dict[str, Any]:
    """The attacker: `count` connections at once, then a byte a second into each one held."""
    socks = []
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        socks.append(sock)
    poller = select.poll()
    by_fd = {s.fileno(): s for s in socks}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    first_byte: dict[int, float] = {}
    busy: list[str] = []
    cut: list[tuple[str, float]] = []
    other: list[Any] = []

    def trickle(data: bytes) -> None:
        now = time.monotonic()
        for fd, sock in by_fd.items():
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.send(data)
                first_byte.setdefault(fd, now)

    trickle(b'{"op": "status", "padding": "')
    Path(ready).write_text("")
    started = next_byte = time.monotonic()
    while by_fd and time.monotonic() - started < GIVE_UP:
        next_byte += TRICKLE_EVERY
        while (wait := next_byte - time.monotonic()) > 0:
            for fd, _ in poller.poll(wait * 1000):
                sock = by_fd.pop(fd)
                poller.unregister(fd)
                answer = _first_line(sock)
                sock.close()
                message = (answer or {}).get("error", {}).get("message", "")
                if answer and answer["status"] == "busy":
                    busy.append(message)
                elif answer and "not finished within" in message:
                    cut.append((message, time.monotonic() - first_byte[fd]))
                else:
                    other.append(answer)
        trickle(b"x")
    for sock in by_fd.values():
        sock.close()
    return {"busy": busy, "cut": cut, "other": other, "still_open": len(by_fd)}


def test_one_user_holding_its_share_and_trickling_cannot_lock_anyone_out(
        daemon: RunningDaemon, gate: str) -> None:
    ready = Path(gate) / "ready"
    attacker = Background(NOBODY, _hog, str(daemon.socket), FLOOD, str(ready))
    try:
        daemon.wait_until(lambda: ready.exists()
                          and daemon.status()["control"]["refused"] >= FLOOD - MAX_PER_UID,
                          timeout=30, what="the flood to be refused")
        # the attacker holds its share and trickles; root is answered, by socket and hermesctl
        status = daemon.status()
        assert status["control"]["connections"] >= MAX_PER_UID
        assert daemon.request({"op": "read", "point": "level"})["result"]["value"] == 73.4
        done = daemon.ctl("status")
        assert done.returncode == 0, done.stderr
        out = attacker.result(timeout=GIVE_UP + 30)
    finally:
        attacker.kill()
    assert out["other"] == []
    assert out["still_open"] == 0  # every connection it held was cut, however it trickled
    assert len(out["busy"]) == FLOOD - MAX_PER_UID
    (reason,) = set(out["busy"])
    assert reason.startswith(f"uid {NOBODY} (")
    assert reason.endswith(f"pid {attacker.pid} already holds {MAX_PER_UID} control "
                           "connections, the most one user may")
    assert len(out["cut"]) == MAX_PER_UID
    for message, after in out["cut"]:
        assert f"not finished within {FRAME_DEADLINE:g} s of its first byte" in message
        assert after < GIVE_UP
    # logged once per cause, not once per attempt (1,068 refusals, 32 cuts)
    log = daemon.log
    assert log.count("refusing control connections") == 1
    assert log.count("not finished within") == 1
    daemon.wait_until(lambda: "control connections accepted again" in daemon.log,
                      what="the refusal's end to be logged")


def _hold(path: str, count: int, gate: str) -> dict[str, Any]:
    """Open `count` connections, check each is served, hold them until the gate opens."""
    socks, served, refused = [], 0, []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(20)
            sock.connect(path)
            socks.append(sock)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(b'{"op": "tools"}\n')
            answer = _first_line(sock)
            if answer and answer["status"] == "ok":
                served += 1
            else:
                refused.append(answer)
        Path(f"{gate}/{os.getuid()}.ready").write_text("")
        with contextlib.suppress(TimeoutError):  # waiting for the test's word, a file
            until_sync(Path(f"{gate}/open").exists, 30, "the test's word")
        return {"served": served, "refused": refused}
    finally:
        for sock in socks:
            sock.close()


def test_root_keeps_a_reserve_when_every_other_slot_is_taken(daemon: RunningDaemon,
                                                             gate: str) -> None:
    others = (MAX_CONNECTIONS - RESERVED) // MAX_PER_UID  # 15 users fill all but the reserve
    uids = [61000 + n for n in range(others)]
    holders = [Background(uid, _hold, str(daemon.socket), MAX_PER_UID, gate) for uid in uids]
    late: Background | None = None
    try:
        daemon.wait_until(lambda: all(Path(f"{gate}/{uid}.ready").exists() for uid in uids),
                          timeout=60, what="every user to hold its share")
        # one more user is refused: only root's reserve is left ...
        late = Background(62000, _hold, str(daemon.socket), 1, gate)
        daemon.wait_until(lambda: Path(f"{gate}/62000.ready").exists(), what="the late user")
        # ... and root is answered, by socket and by hermesctl
        assert daemon.status()["control"]["connections"] >= MAX_CONNECTIONS - RESERVED
        assert daemon.request({"op": "read", "point": "level"})["status"] == "ok"
        done = daemon.ctl("read", "level")
        assert done.returncode == 0, done.stderr
        Path(f"{gate}/open").write_text("")
        late_out = late.result()
        outs = [h.result() for h in holders]
    finally:
        Path(f"{gate}/open").write_text("")
        for h in holders:
            h.kill()
        if late is not None:
            late.kill()
    assert all(o == {"served": MAX_PER_UID, "refused": []} for o in outs)
    assert late_out["served"] == 0
    (refusal,) = late_out["refused"]
    assert refusal["status"] == "busy" and refusal["error"]["code"] == "BUSY"
    assert "full for all but root and hermesd's own user" in refusal["error"]["message"]
