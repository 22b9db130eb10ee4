"""Hostile tool sockets, generated: tools that misbehave, and strangers at a tool.

A tool process may close its socket at any step of its start, send garbage, a hello that does not
hold up, an oversize or non-strict frame, exit, die of a signal or hang: the daemon logs it,
restarts that tool with backoff, and keeps serving everything else; a running tool that sends
events nobody can use is logged once and harms nothing. And only the daemon that started a tool
may talk to it: another process of the same user, or another user, is closed without taking the
daemon's place, nothing it sends reaches a device, and each cause of refusal is logged once
with a count.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hermesd.core.protocol import MAX_FRAME, Call, Configure, encode
from hermesd.supervisor import Supervisor, ToolProcess, ToolSpec
from hermesd.toolspecs import tool_specs
from tests.support.daemon import FAKE_TOOL, DaemonRunner, base_config
from tests.support.ports import free_port
from tests.support.sim import SimRunner
from tests.support.until import until
from tests.tools.modbus.plant import POINTS, VALUES

HOSTILE_TOOL = Path(__file__).parents[1] / "support" / "hostile_tool.py"
TOOL_PEER = Path(__file__).parents[1] / "support" / "tool_peer.py"
EXAMPLES = settings().max_examples  # the profile of tests/hostile/conftest.py
STRANGER = 65534  # nobody

# -- what a misbehaving tool does, generated ---------------------------------------------------

GOOD_ACTION = {"name": "echo", "description": "", "input_schema": {"type": "object"},
               "output_schema": {"type": "object"}, "effect": "none"}
NON_STRICT = [  # frames strict JSON refuses, each a complete line
    b'{"type": "hello", "tool": "t", "version": "1", "pid": 1, "actions": [], "x": NaN}\n',
    b'{"type": "hello", "tool": "\\udcff", "version": "1", "pid": 1, "actions": []}\n',
    b'{"type": "hello", "tool": "t", "version": "1", "pid": 1e400, "actions": []}\n',
    b"[" * 30000 + b"\n",
    b'{"type": "result", "id": 1, "value": Infinity}\n',
    b'{"type": "hello", "tool": "t", "version": "1", "pid": 1, "actions": [], "pid": 2}\n',
    b"\xff\xfe\xfd\n", b"null\n", b'"hello"\n', b"{}\n", b"\n",
    b'{"type": "pong", "id": 1}\n', b'{"type": "event", "kind": "values", "data": {}}\n',
    b'{"type": "error", "id": 1, "code": "NOT_A_CODE", "message": "x"}\n',
]
SCHEMA_KEYS = ["type", "properties", "required", "pattern", "items", "$ref", "enum", "minimum",
               "additionalProperties", "format", "$id", "oneOf", "not", "const", "definitions",
               "patternProperties", "dependencies", "if", "then", "maxLength", "default"]
json_scalars = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(max_size=12)
schemas = st.recursive(
    json_scalars | st.sampled_from(["(", "#", "#/definitions/x", "string", "object", "[a-"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(SCHEMA_KEYS) | st.text(max_size=5), inner, max_size=4),
    max_leaves=12)


def _actions(remote_ref: str) -> st.SearchStrategy[list[Any]]:
    action = st.fixed_dictionaries({
        "name": st.text(max_size=8), "description": st.text(max_size=8),
        "input_schema": schemas | st.just({"$ref": remote_ref}),
        "output_schema": schemas | st.just({"items": [{"$id": remote_ref, "$ref": "#/x"}]}),
        "effect": st.sampled_from(["none", "read", "write", "all", ""])})
    return (st.lists(action, max_size=3)
            | st.lists(st.just(GOOD_ACTION), min_size=2, max_size=2)  # one name twice
            | st.lists(json_scalars, min_size=1, max_size=2))


def hex_(data: bytes) -> str:
    return data.hex()


def plans(remote_ref: str, *, hangs: bool) -> st.SearchStrategy[list[list[Any]]]:
    """The steps of one misbehaving start, ending in a misbehaviour whatever came before."""
    garbage = st.binary(min_size=1, max_size=300)
    dies = st.sampled_from([["exit", 0], ["exit", 1], ["exit", 255], ["kill", signal.SIGSEGV],
                            ["kill", signal.SIGKILL], ["kill", signal.SIGABRT],
                            ["kill", signal.SIGILL]])
    ends = dies | st.sampled_from([["close"], ["reset"]]) | (
        st.just(["hang"]) if hangs else st.nothing())
    before_ready = st.one_of(
        dies.map(lambda d: [d]),
        st.tuples(garbage, dies).map(lambda g: [["stdout", hex_(g[0])], g[1]]),
        garbage.map(lambda g: [["stdout", hex_(g.replace(b"\n", b"") + b"\n")]]),  # not READY
        st.just([["stdout", hex_(b"x" * 70_000)], ["exit", 0]]),  # a line past the limit
        st.just([["stdout", hex_(b"READY\n")], ["exit", 1]]),  # READY, but nobody listens
        st.just([["ready_in_child"]]),  # a socket its own child serves (a squatter)
        *([st.just([["hang"]]), st.just([["ready"], ["hang"]])] if hangs else []))
    sends = st.one_of(
        garbage.map(lambda g: ["send", hex_(g)]),
        st.sampled_from(NON_STRICT).map(lambda f: ["send", hex_(f)]),
        st.integers(MAX_FRAME + 1, MAX_FRAME + 4096).map(
            lambda n: ["send", hex_(b'{"type": "hello", "tool": "' + b"x" * n)]),
        st.integers(1, 60).map(
            lambda n: ["send", hex_(b'{"type": "hello", "tool": "t", "version": "1"'[:n])]))
    bad_hello = st.one_of(
        st.tuples(_actions(remote_ref), st.just(0), st.just({})),
        st.tuples(st.just([GOOD_ACTION]), st.integers(1, 5), st.just({})),  # not its pid
        st.tuples(st.just([GOOD_ACTION]), st.just(0),
                  st.dictionaries(st.sampled_from(["protocol", "version", "extra", "tool"]),
                                  json_scalars, min_size=1, max_size=2)),
    ).map(lambda h: ["hello", h[0], h[1], h[2]])
    at_configure = st.one_of(
        sends,
        st.sampled_from([
            ["send", hex_(b'{"type": "error", "id": 1, "code": "INTERNAL", "message": "no"}\n')],
            ["send", hex_(b'{"type": "result", "id": 1, "value": NaN}\n')],
            ["send", hex_(b'{"type": "pong", "id": 1}\n')],  # a pong for the config
            ["send", hex_(b'{"type": "hello", "tool": "t", "version": "1", "pid": 1, '
                          b'"actions": []}\n')]]))
    connected = st.one_of(
        st.lists(sends, max_size=2),
        bad_hello.map(lambda h: [h]),
        st.lists(at_configure, max_size=2).map(lambda s: [["hello_ok"], ["read_line"], *s]))
    after_ready = st.tuples(connected, ends).map(lambda t: [["ready"], ["accept"], *t[0], t[1]])
    return before_ready | after_ready


def write_plan(path: Path, starts: list[list[list[Any]]]) -> None:
    path.write_text(json.dumps({"starts": starts}))
    path.with_suffix(".starts").unlink(missing_ok=True)


def starts_made(plan: Path) -> int:
    counter = plan.with_suffix(".starts")
    return int(counter.read_text()) if counter.exists() else 0


class RefListener:
    """A TCP port that counts who connects: a schema's remote $ref must never be fetched."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.setblocking(False)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/schema.json"

    def connections(self) -> int:
        count = 0
        while True:
            try:
                conn, _ = self.sock.accept()
            except BlockingIOError:
                return count
            conn.close()
            count += 1

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def ref_listener() -> Iterator[RefListener]:
    listener = RefListener()
    yield listener
    listener.close()


# -- a tool misbehaving at a generated step of its start ---------------------------------------


def _argv(plan: Path) -> tuple[str, ...]:
    return (sys.executable, str(HOSTILE_TOOL), str(plan))


def _plan(where: Path, steps: list[list[Any]] | None) -> Path:
    """A fresh plan file: these steps for the first start, then no luck (it exits) until the
    next plan, so the tool waits in its backoff, where a restart finds it at once."""
    path = where / f"plan-{len(list(where.glob('plan-*.json')))}.json"
    write_plan(path, [] if steps is None else [steps, *[[["exit", 9]]] * 50])
    return path


@asynccontextmanager
async def supervised(plan: Path, start_timeout: float) -> AsyncIterator[tuple[ToolProcess,
                                                                              asyncio.Task[None]]]:
    """The daemon's own supervisor in this loop, running the hostile tool."""
    runtime = Path(tempfile.mkdtemp(prefix="hd", dir="/tmp"))
    sup = Supervisor(runtime, lambda tool, event: None)
    spec = ToolSpec(name="dev", argv=_argv(plan), config={"devices": {}},
                    start_timeout=start_timeout)
    task = asyncio.create_task(sup.run({"dev": spec}), name="supervisor")
    try:
        await sup.started()
        yield sup.tools["dev"], task
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        shutil.rmtree(runtime, ignore_errors=True)


def _ended(plan: Path, state: str) -> bool:
    """The plan's first start began, and the tool is down again: that start has ended."""
    return starts_made(plan) >= 1 and state == "restarting"


@pytest.fixture
async def supervised_hostile(tmp_path: Path) -> AsyncIterator[tuple[ToolProcess,
                                                                     asyncio.Task[None]]]:
    """A hostile tool under the daemon's supervisor, in this loop, up and well to begin with."""
    async with supervised(_plan(tmp_path, None), start_timeout=1.0) as (tool, task):
        assert await tool.wait_ready(20)
        yield tool, task


@pytest.mark.timeout(300)
@settings(max_examples=max(10, EXAMPLES // 2))
@given(steps=st.data())
async def test_a_tool_misbehaving_at_any_step_of_its_start_is_restarted(
        steps: st.DataObject, tmp_path: Path, ref_listener: RefListener,
        supervised_hostile: tuple[ToolProcess, asyncio.Task[None]],
        caplog: pytest.LogCaptureFixture) -> None:
    """Many generated starts under one supervisor, hangs included (a short start timeout)."""
    tool, task = supervised_hostile
    drawn = steps.draw(plans(ref_listener.url, hangs=True), label="steps")
    plan = _plan(tmp_path, drawn)
    tool.spec = replace(tool.spec, argv=_argv(plan))  # what a reload with a new command does
    tool.restart("the next generated start")
    await until(lambda: _ended(plan, tool.state), 20, "the start to end")
    assert not task.done(), "the supervisor itself ended"
    assert tool.proc is None and tool.last_error and tool.start_failures >= 1
    assert ref_listener.connections() == 0  # no schema was fetched from anywhere
    assert not [r for r in caplog.records if r.exc_info]  # nothing unforeseen, no traceback
    assert not [r for r in caplog.records if "supervising tool" in r.getMessage()]


def _hostile_config(plan: Path) -> dict[str, Any]:
    return base_config({"dev": {"driver": "exec", "points": {
        "level": {"name": "Tank level", "type": "float", "params": {"value": 73.4}}},
        "command": [sys.executable, str(HOSTILE_TOOL), str(plan)]}})


@pytest.mark.timeout(300)
def test_the_daemon_keeps_serving_while_a_tool_misbehaves_at_start(
        daemon_runner: DaemonRunner, ref_listener: RefListener) -> None:
    """The same through a real hermesd: each generated start is a reload with a new plan (a
    changed command restarts the tool at once, without waiting out the backoff)."""
    plans_dir = daemon_runner.tmp / "plans"
    plans_dir.mkdir()
    config = _hostile_config(_plan(plans_dir, None))
    d = daemon_runner.start(config)
    d.running_tool_pid("dev")

    @settings(max_examples=max(5, EXAMPLES // 6))
    @given(steps=plans(ref_listener.url, hangs=False))
    def one_start(steps: list[list[Any]]) -> None:
        plan = _plan(plans_dir, steps)
        config["devices"]["dev"]["command"][-1] = str(plan)
        daemon_runner.write_config(config)
        d.proc.send_signal(signal.SIGHUP)  # a changed command: restarted at once
        d.wait_until(lambda: _ended(plan, d.status()["tools"]["dev"]["state"]), timeout=20,
                     what=f"the start {steps!r} to end")
        answer = d.request({"op": "status"})
        assert answer["status"] == "ok" and answer["result"]["state"] == "running"

    one_start()
    config["devices"]["dev"]["command"][-1] = str(_plan(plans_dir, None))
    daemon_runner.write_config(config)
    d.proc.send_signal(signal.SIGHUP)
    d.running_tool_pid("dev")
    code, answer = d.ctl_json("read", "level")
    assert (code, answer["status"], answer["result"]["value"]) == (0, "ok", 73.4)
    assert d.terminate() == 0
    assert ref_listener.connections() == 0
    assert "Traceback" not in d.log and "supervising tool" not in d.log


async def test_a_socket_served_by_another_process_is_not_trusted(tmp_path: Path) -> None:
    """The tool's own child serves the socket and says hello with the tool's pid: refused."""
    plan = tmp_path / "plan.json"
    write_plan(plan, [[["ready_in_child"]]])  # then it behaves
    async with supervised(plan, start_timeout=5.0) as (tool, task):
        await until(lambda: tool.restarts >= 1, 20, "the first start to end")
        assert "is served by pid" in tool.last_error
        assert "not by the tool's process" in tool.last_error
        await tool.wait_ready(20)  # the next start behaves
        assert tool.state == "running" and not task.done()


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



# -- a running tool sending events nobody can use ----------------------------------------------

# what a control request may carry: integers a JSON frame may hold (int64 .. uint64)
frame_scalars = (st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1)
                 | st.text(max_size=12))
json_values = st.recursive(frame_scalars | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=8)
event_data = st.one_of(
    st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    st.fixed_dictionaries({"values": st.lists(st.dictionaries(
        st.sampled_from(["point", "value", "ts", "x"]), json_values | st.sampled_from(
            ["level", "nope"]), max_size=4), max_size=3) | json_values}),
    st.fixed_dictionaries({"device": json_values | st.sampled_from(["tank", "other"]),
                           "online": json_values}))


@pytest.mark.timeout(300)
def test_a_tool_sending_unusable_events_is_logged_once_and_harms_nothing(
        daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"name": "Tank level", "type": "float", "params": {"value": 73.4}}}}}))
    pid = d.running_tool_pid("tank")
    sent = [0]

    @settings(max_examples=max(10, EXAMPLES // 3))
    @given(kind=st.sampled_from(["values", "device", "llm", "alarm"]) | st.text(max_size=300),
           data=event_data)
    @example(kind="values", data={"values": [1, "level", None]})  # not objects: no traceback
    def one_event(kind: str, data: dict[str, Any]) -> None:
        answer = d.request({"op": "call", "tool": "tank", "action": "emit", "role": "engineer",
                            "args": {"kind": kind, "data": data}})
        assert answer["status"] == "ok", answer
        sent[0] += 1

    one_event()
    status = d.status()  # after every event: the daemon answers, the tool was never restarted
    assert status["tools"]["tank"]["pid"] == pid and status["tools"]["tank"]["restarts"] == 0
    code, answer = d.ctl_json("read", "level")
    assert code == 0 and answer["status"] == "ok"
    warnings = [line for line in d.log.splitlines()
                if " WARNING hermesd.events: tool tank sent an unusable" in line]
    assert len(warnings) == 1 and sent[0] >= 10  # the first, with the note: more are counted
    assert "Traceback" not in d.log
    assert d.terminate() == 0


@pytest.mark.timeout(60)
def test_a_values_event_of_things_that_are_not_objects_is_refused_in_words(
        daemon_runner: DaemonRunner) -> None:
    """`{"values": [5]}` raised AttributeError in the event sink (a traceback in the log) where
    every other unusable event is one warning: hypothesis found it only now and then."""
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"name": "Tank level", "type": "float", "params": {"value": 73.4}}}}}))
    for items in ([5], ["level"], [None, {"point": "level", "value": 1.0, "ts": 1}], [[1]]):
        answer = d.request({"op": "call", "tool": "tank", "action": "emit", "role": "engineer",
                            "args": {"kind": "values", "data": {"values": items}}})
        assert answer["status"] == "ok", answer
    d.wait_until(lambda: d.status()["metrics"]["events"].get("bad_tool_events") == 4,
                 what="four events refused")
    assert "values: expected objects, got int" in d.log
    assert "Traceback" not in d.log


@pytest.mark.timeout(60)
def test_a_tool_says_only_whether_its_own_devices_are_online(
        daemon_runner: DaemonRunner) -> None:
    """Any tool could mark any device offline: a PLC polled fine all along then answered stale
    for good, since its own tool reports only changes (review atk20s, #9)."""
    exec_tool = {"driver": "exec", "command": [sys.executable, str(FAKE_TOOL)]}
    d = daemon_runner.start(base_config({
        "tank": {**exec_tool, "points": {"level": {"type": "float", "params": {"value": 73.4}}}},
        "pump": {**exec_tool, "points": {"flow": {"type": "float", "params": {"value": 12.5}}}}}))

    def emit(device: str, online: bool) -> None:
        answer = d.request({"op": "call", "tool": "tank", "action": "emit", "role": "engineer",
                            "args": {"kind": "device", "data": {
                                "device": device, "online": online, "reason": "tank says so"}}})
        assert answer["status"] == "ok", answer

    emit("pump", False)
    d.wait_until(lambda: d.status()["metrics"]["events"].get("bad_tool_events") == 1,
                 what="the event for another tool's device refused")
    assert "device event for pump, which tool tank does not serve" in d.log
    answer = d.request({"op": "read", "point": "flow"})
    assert (answer["status"], answer["result"]["value"]) == ("ok", 12.5), answer
    assert d.status()["devices"]["pump"]["online"] in (True, None)  # (exec: not said)
    emit("tank", False)  # its own device: taken
    d.wait_until(lambda: d.status()["devices"]["tank"]["online"] is False,
                 what="the tool's own device offline")
    assert d.status()["metrics"]["events"].get("bad_tool_events") == 1
    assert "Traceback" not in d.log


@pytest.mark.timeout(60)
def test_a_tool_printing_on_stdout_after_ready_goes_on_serving(
        daemon_runner: DaemonRunner) -> None:
    """An exec tool that printed after READY filled the pipe nobody read, hung mid-print and
    was killed as hung, again and again (review atk20s, #12). Its output is read; a few lines
    are logged."""
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"type": "float", "params": {"value": 73.4}}}}}))
    pid = d.running_tool_pid("tank")
    for _ in range(3):  # 3 MB: fifty times what a pipe holds
        answer = d.request({"op": "call", "tool": "tank", "action": "print", "role": "engineer",
                            "args": {"bytes": 1_000_000}})
        assert answer["status"] == "ok", answer
        assert answer["result"]["value"]["printed"] == 1_000_000, answer
    answer = d.request({"op": "read", "point": "level"})
    assert (answer["status"], answer["result"]["value"]) == ("ok", 73.4), answer
    assert d.status()["tools"]["tank"]["pid"] == pid
    assert d.status()["tools"]["tank"]["restarts"] == 0
    assert d.log.count("tool tank printed: chatter xxx") == 20
    assert "(more of its output is read and not logged)" in d.log


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("line", "logged"), [
    # ESC, CR and NUL reached the log as they were: a tool could forge or hide hermesd's lines
    ("\x1b[2K\rERROR hermesd: forged\x00\n", "tool tank printed: \\x1b[2K\\x0dERROR hermesd: "
                                             "forged\\x00"),
    # a flood with no newline had logged nothing at all
    ("y" * 50, "tool tank printed: " + "y" * 200),
])
def test_what_a_tool_prints_is_logged_escaped_and_even_without_a_newline(
        daemon_runner: DaemonRunner, line: str, logged: str) -> None:
    """Review atk24s, #8."""
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"type": "float", "params": {"value": 73.4}}}}}))
    answer = d.request({"op": "call", "tool": "tank", "action": "print", "role": "engineer",
                        "args": {"bytes": 200_000, "line": line}})
    assert answer["status"] == "ok", answer
    d.wait_until(lambda: logged in d.log, what="the line logged")
    assert "\x1b" not in d.log and "\x00" not in d.log
    assert d.request({"op": "read", "point": "level"})["status"] == "ok"


@pytest.mark.timeout(60)
def test_points_are_listed_with_their_values_only_to_a_role_that_may_read(
        daemon_runner: DaemonRunner) -> None:
    """`points` answered every current value to a role of `read: false`, which `read` refuses
    (review atk20s, #15)."""
    config = base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"type": "float", "params": {"value": 73.4}}}}})
    config["access"]["roles"]["blind"] = {"read": False, "write": False}
    d = daemon_runner.start(config)
    assert d.request({"op": "read", "point": "level", "role": "viewer"})["status"] == "ok"
    for op in ({"op": "read", "point": "level"}, {"op": "points"}):
        answer = d.request({**op, "role": "blind"})
        assert answer["status"] == "forbidden", answer
        assert answer["error"]["message"] == "role blind may not read points"
    answer = d.request({"op": "points", "role": "viewer"})
    assert answer["status"] == "ok" and answer["result"]["points"][0]["value"] == 73.4


@pytest.mark.timeout(60)
def test_a_read_answered_with_no_measurement_is_never_good(daemon_runner: DaemonRunner) -> None:
    """1e305 (a float's "no value" marker on many devices) was answered "Outdoor temperature is
    1e+305 °C", quality good, while the cache refused to keep it (review atk21, HUGE)."""
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"huge": {"name": "Tank level", "type": "float",
                            "params": {"value": 1e305}}}}}))
    answer = d.request({"op": "read", "point": "huge"})
    assert (answer["status"], answer["error"]["code"]) == ("error", "DEVICE_ERROR"), answer
    assert "1e+305, which is no measurement" in answer["error"]["message"]
    assert "Traceback" not in d.log


@pytest.mark.timeout(60)
def test_a_value_not_of_its_points_kind_is_no_reading(daemon_runner: DaemonRunner) -> None:
    """A tool that said "hot" for a temperature had it shown as a good value (and clearing the
    temperature's alarm); "turbo" for a point of choices showed a choice no map has."""
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"name": "Tank level", "type": "float", "params": {"value": 73.4}},
                   "mode": {"type": "int", "map": {0: "off", 1: "auto"},
                            "params": {"value": 1}},
                   "code": {"type": "string", "params": {"value": "A1"}},
                   "run": {"type": "bool", "params": {"value": True}},
                   "broken": {"type": "float", "params": {"value": "hot"}}}}}))
    for pid in ("level", "mode", "code", "run"):
        assert d.request({"op": "read", "point": pid})["status"] == "ok"
    bad = [("level", "hot"), ("level", True), ("mode", "turbo"), ("code", 5), ("run", "on"),
           ("run", 2)]
    for pid, value in bad:
        answer = d.request({"op": "call", "tool": "tank", "action": "emit", "role": "engineer",
                            "args": {"kind": "values", "data": {"values": [
                                {"point": pid, "value": value, "ts": time.time()}]}}})
        assert answer["status"] == "ok", answer
    d.wait_until(lambda: d.status()["metrics"]["events"].get("bad_tool_events") == len(bad),
                 what="every value of another kind refused")
    def shown() -> dict[str, Any]:
        return {p["id"]: p["value"] for p in d.request({"op": "points"})["result"]["points"]}

    assert [shown()[pid] for pid in ("level", "mode", "code", "run")] == [73.4, "auto", "A1", True]
    assert "temp holds" not in d.log and "level holds numbers, not 'hot'" in d.log
    # an exec tool may say on/off as 0 or 1
    answer = d.request({"op": "call", "tool": "tank", "action": "emit", "role": "engineer",
                        "args": {"kind": "values", "data": {"values": [
                            {"point": "run", "value": 0, "ts": time.time()}]}}})
    assert answer["status"] == "ok", answer
    d.wait_until(lambda: shown()["run"] is False, what="0 taken as off")
    # a read answered with a value of another kind is a device error, not a reading
    answer = d.request({"op": "read", "point": "broken"})
    assert (answer["status"], answer["error"]["code"]) == ("error", "DEVICE_ERROR"), answer
    assert "broken holds numbers, not 'hot'" in answer["error"]["message"]
    assert "Traceback" not in d.log


@pytest.mark.timeout(60)
def test_bus_diagnostics_that_add_up_past_any_number_leave_status_answerable(
        daemon_runner: DaemonRunner) -> None:
    """A tool naming a new run in every diagnostics report, each claiming 1.7e308 s of
    latency, drove the sum to infinity: `status` answered INTERNAL (not writable as JSON)
    until hermesd restarted. Counts past 2**64 would have done the same."""
    from hermesd.bus_diagnostics import MAX_COUNT, MAX_SECONDS
    from hermesd.core.histogram import BUCKETS
    d = daemon_runner.start(base_config({"tank": {
        "driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
        "points": {"level": {"name": "Tank level", "type": "float", "params": {"value": 73.4}}}}}))

    def report(counts: dict[str, Any], started: float) -> None:
        answer = d.request({"op": "call", "tool": "tank", "action": "emit", "role": "engineer",
                            "args": {"kind": "diagnostics", "data": {
                                "devices": {"tank": counts}, "started": started}}})
        assert answer["status"] == "ok", answer

    report({"latency": {"buckets": [0] * (len(BUCKETS) + 1), "sum_s": 1.7e308}}, 1)
    report({"requests": 2**64 - 1}, 2)
    report({"exceptions": {"\u00b2": 1}}, 3)  # a digit, to str.isdigit(), that int() refuses
    d.wait_until(lambda: d.status()["metrics"]["events"].get("bad_tool_events") == 3,
                 what="three reports refused")
    full = {"requests": MAX_COUNT, "exceptions": {"2": MAX_COUNT},
            "latency": {"buckets": [MAX_COUNT] * (len(BUCKETS) + 1), "sum_s": MAX_SECONDS}}
    for run in range(4):  # four runs' worth, each the most a report may claim
        report(full, 10 + run)

    def bus() -> dict[str, Any] | None:
        return dict(d.status()["devices"]["tank"].get("bus") or {}) or None

    counts = d.wait_until(bus, what="the counts shown")
    assert counts["requests"] == MAX_COUNT and counts["exceptions"] == {"2": MAX_COUNT}
    assert counts["latency_ms"]["sum_s"] == MAX_SECONDS
    code, answer = d.ctl_json("status")
    assert code == 0 and answer["status"] == "ok", answer
    assert "Traceback" not in d.log
