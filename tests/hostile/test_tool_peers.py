"""Hostile tool sockets, generated: strangers at a tool.

Only the daemon that started a tool may talk to it: another process of the same user, or another
user, is closed without taking the daemon's place, nothing it sends reaches a device, and each
cause of refusal is logged once with a count.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from hermesd.protocol import Call, Configure, encode
from hermesd.toolspecs import tool_specs
from tests.support.daemon import FAKE_TOOL, DaemonRunner, base_config
from tests.support.sim import SimRunner, free_port
from tests.tools.modbus.plant import POINTS, VALUES

HOSTILE_TOOL = Path(__file__).parents[1] / "support" / "hostile_tool.py"
TOOL_PEER = Path(__file__).parents[1] / "support" / "tool_peer.py"
EXAMPLES = settings().max_examples  # the profile of tests/hostile/conftest.py
STRANGER = 65534  # nobody

# -- strangers at a tool's socket --------------------------------------------------------------

PEER_FRAMES = (encode(Configure(1, {"devices": {}})) + encode(Call(2, "write", {
    "point": "level", "value": 999}, {}, 1000)))


def _peer(path: str, uid: int | None, payload: bytes) -> str:
    """A forked child (a process that is not the tool's parent) connects, as `uid` if given,
    sends `payload` and reports what became of it: denied, refused (closed without a word), or
    answered."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        outcome = "child failed"
        try:
            os.close(read_fd)
            if uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(10)
                try:
                    sock.connect(path)
                except PermissionError:
                    outcome = "denied"
                else:
                    try:
                        if payload:
                            sock.sendall(payload)
                        outcome = "answered" if sock.recv(65536) else "refused"
                    except ConnectionError:
                        outcome = "refused"
        except BaseException as exc:
            outcome = f"child failed: {exc!r}"
        finally:
            os.write(write_fd, outcome.encode())
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return data.decode()


peers = st.lists(st.tuples(
    st.sampled_from(["same user", "other user"]),
    st.one_of(st.just(b""), st.just(PEER_FRAMES), st.binary(max_size=64))), min_size=1,
    max_size=4)


@pytest.mark.timeout(300)
@settings(max_examples=max(8, EXAMPLES // 4))
@given(strangers=peers, opened_up=st.booleans())
def test_only_the_daemon_that_started_a_tool_may_talk_to_it(
        strangers: list[tuple[str, bytes]], opened_up: bool) -> None:
    """Strangers first (the socket 0600, or opened up to everyone to reach the SO_PEERCRED
    check), then the parent: it gets the hello, and nothing a stranger sent was acted on."""
    if os.getuid() != 0 and any(kind == "other user" for kind, _ in strangers):
        strangers = [(kind, p) for kind, p in strangers if kind == "same user"]
    where = Path(tempfile.mkdtemp(prefix="hd", dir="/tmp"))
    path = where / "dev.sock"
    log = where / "tool.log"
    with open(log, "wb") as err:
        proc = subprocess.Popen([sys.executable, str(FAKE_TOOL), "--socket", str(path)],
                                stdout=subprocess.PIPE, stderr=err)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"READY"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        if opened_up:
            os.chmod(where, 0o755)
            os.chmod(path, 0o666)
        outcomes = [_peer(str(path), STRANGER if kind == "other user" else None, payload)
                    for kind, payload in strangers]
        for (kind, _), outcome in zip(strangers, outcomes, strict=True):
            if kind == "other user" and not opened_up:
                assert outcome == "denied"  # the kernel: mode 0600
            else:
                assert outcome == "refused", (kind, outcome)  # the tool: SO_PEERCRED
        # the daemon (our test process is the tool's parent) still has its place
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(10)
            sock.connect(str(path))
            lines = sock.makefile("rb")
            hello = json.loads(lines.readline())
            assert hello["type"] == "hello" and hello["pid"] == proc.pid
            config = {"devices": {"d": {"points": {"level": {"value": 1.5}}}}}
            sock.sendall(encode(Configure(1, config)) + encode(Call(2, "read", {"point": "level"},
                                                                    {}, 5000)))
            answers: dict[int, Any] = {}
            while len(answers) < 2:
                frame = json.loads(lines.readline())
                answers[frame["id"]] = frame
            assert answers[2]["value"]["value"] == 1.5  # no stranger's write got through
            lines.close()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    text = log.read_text()
    shutil.rmtree(where, ignore_errors=True)
    reached = [kind for (kind, _), outcome in zip(strangers, outcomes, strict=True)
               if outcome == "refused"]
    for kind, cause in (("same user", "not the daemon that started this tool"),
                        ("other user", "not this tool's user")):
        n = reached.count(kind)
        assert text.count(cause) == (0 if n == 0 else 1 if n == 1 else 2), text  # + the count
        if n > 1:
            assert f"refused {n} connections from uid" in text
    assert "Traceback" not in text


# -- the Modbus tool, raced during its restarts ------------------------------------------------


def _modbus(port: int) -> dict[str, Any]:
    return {"driver": "modbus", "host": "127.0.0.1", "port": port, "poll_interval": "300ms",
            "timeout": "400ms", "backoff_max": "1s",
            "points": {k: {**v, "max_age": "20s"} for k, v in POINTS.items()}}


@pytest.mark.timeout(120)
def test_a_stranger_racing_the_daemon_for_the_modbus_tool_reaches_no_device(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    config = base_config({"plc": _modbus(free_port())})
    path = daemon_runner.write_config(config)
    values = daemon_runner.tmp / "values.yaml"
    values.write_text(yaml.safe_dump({k: v for k, v in VALUES.items() if k in POINTS}))
    sim = sim_runner.start(path, "--values", str(values))
    d = daemon_runner.start(path)
    pid = d.running_tool_pid("modbus")
    tool_socket = d.socket.parent / "modbus.sock"
    assert stat.S_IMODE(tool_socket.stat().st_mode) == 0o600
    # what the stranger sends: the very frames the daemon would, a config and a write
    from hermesd.config import load_config

    slice_ = tool_specs(load_config(path))["modbus"].config
    frames = daemon_runner.tmp / "frames"
    frames.write_bytes(encode(Configure(1, slice_)) + encode(Call(
        2, "write", {"point": "speed", "value": 1}, {"source": "control"}, 2000)))
    report, stop = daemon_runner.tmp / "report.json", daemon_runner.tmp / "stop"
    stranger = subprocess.Popen([sys.executable, str(TOOL_PEER), str(tool_socket), str(frames),
                                 str(report), str(stop)])
    pids = [pid]
    try:
        for _ in range(3):  # three restarts: three windows where the socket is new
            os.kill(pids[-1], signal.SIGKILL)
            pids.append(d.running_tool_pid("modbus", not_pid=pids[-1]))
    finally:
        stop.touch()
        stranger.wait(timeout=10)
    seen = json.loads(report.read_text())
    assert seen["connected"] >= 3, seen  # it did reach the socket, again and again
    assert seen["answered"] == 0, seen  # and never got a word, not even a hello
    assert sim.requests("plc", "write") == 0
    assert sim.ctl("get", point="speed")["value"] == 1200
    code, answer = d.ctl_json("read", "speed")
    assert (code, answer["result"]["value"]) == (0, 1200)
    assert d.terminate() == 0
    refusing = d.log.count("refusing connections from uid")
    assert 1 <= refusing <= len(pids), d.log  # once per tool process, not once per attempt
    assert "refused" in d.log and "connections from uid" in d.log

