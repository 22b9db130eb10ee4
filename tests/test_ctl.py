"""hermesctl as a technician and a script use it: answers, JSON, exit codes, the prompt."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("ctl"))
    config = base_config({"dev": fake_device({
        "tank_level": {"name": "Feed water tank level", "type": "float", "unit": "%",
                       "params": {"value": 73.4}},
        "pump_speed": {"name": "Feed pump speed", "type": "int", "unit": "rpm", "writable": True,
                       "min": 0, "max": 1500, "params": {"value": 1200}},
        "broken": {"name": "Broken sensor", "type": "float",
                   "params": {"error": "DEVICE_ERROR"}},
    })})
    d = runner.start(config)
    yield d
    d.terminate()
    runner.cleanup()


@pytest.mark.parametrize(("args", "code", "status"), [
    (["read", "tank_level"], 0, "ok"),
    (["ask", "what is the tank level"], 0, "ok"),
    (["ask", "hello"], 0, "ok"),
    (["--role", "operator", "--dry-run", "write", "pump_speed", "900"], 10, "dry_run"),
    (["write", "pump_speed", "900"], 77, "forbidden"),
    (["--role", "operator", "write", "pump_speed", "9000"], 65, "rejected"),
    (["--role", "operator", "write", "tank_level", "5"], 65, "rejected"),
    (["read", "no_such_point"], 65, "rejected"),
    (["read", "broken"], 1, "error"),
    (["status"], 0, "ok"),
    (["tools"], 0, "ok"),
    (["points"], 0, "ok"),
    (["--role", "engineer", "call", "dev.echo", '{"a": 1}'], 0, "ok"),
    (["call", "dev.echo", '{"a": 1}'], 77, "forbidden"),  # direct tool calls need raw_read
])
def test_exit_codes_and_one_json_object(daemon: RunningDaemon, args: list[str], code: int,
                                        status: str) -> None:
    got_code, answer = daemon.ctl_json(*args)
    assert (got_code, answer["status"]) == (code, status)
    for key in ("status", "route", "action", "result", "error", "reply", "trace_id", "timings_ms"):
        assert key in answer


def test_human_answers(daemon: RunningDaemon) -> None:
    done = daemon.ctl("read", "tank_level")
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "Feed water tank level is 73.4 %.\n", "")
    done = daemon.ctl("--role", "operator", "--dry-run", "write", "pump_speed", "900")
    assert done.stdout.splitlines()[0] == "Dry run: would set Feed pump speed to 900 rpm; all " \
                                          "checks pass."
    assert "  ✓ 900 rpm is within 0..1500 rpm" in done.stdout.splitlines()
    done = daemon.ctl("--role", "operator", "write", "pump_speed", "9000")
    assert done.returncode == 65
    assert done.stdout == ""
    assert done.stderr == "rejected: OUT_OF_RANGE: 9000 rpm is outside the allowed range of " \
                          "Feed pump speed (0..1500 rpm)\n"
    done = daemon.ctl("points")
    assert "tank_level" in done.stdout and "73.4 %" in done.stdout
    done = daemon.ctl("status")
    assert "dev" in done.stdout and "running" in done.stdout


def test_a_write_really_writes(daemon: RunningDaemon) -> None:
    code, answer = daemon.ctl_json("--role", "operator", "ask", "set the feed pump speed to 800")
    assert (code, answer["route"], answer["action"]) == (
        0, "rule", {"name": "write", "args": {"point": "pump_speed", "value": 800}})
    assert answer["reply"] == "Feed pump speed set to 800 rpm."
    code, answer = daemon.ctl_json("read", "pump_speed")
    assert answer["result"]["value"] == 800


def test_refused_ask_is_a_respond_with_the_reason(daemon: RunningDaemon) -> None:
    code, answer = daemon.ctl_json("ask", "set the feed pump speed to 100")  # viewer
    assert code == 77
    assert answer["action"]["name"] == "respond"
    assert answer["action"]["args"]["reason"] == "not_allowed"
    assert answer["action"]["args"]["refused"]["args"] == {"point": "pump_speed", "value": 100}
    assert answer["error"]["code"] == "FORBIDDEN"
    code, answer = daemon.ctl_json("read", "pump_speed")
    assert answer["result"]["value"] != 100


def test_interactive_prompt_answers_one_line_each(daemon: RunningDaemon) -> None:
    done = daemon.ctl("ask", input="what is the tank level\n\nhello\nquit\nread pump speed\n")
    lines = done.stdout.splitlines()
    assert lines[0] == "Feed water tank level is 73.4 %."
    assert lines[1].startswith("Hello, I am hermesd")
    assert len(lines) == 2  # nothing after quit
    assert done.returncode == 0


def test_json_lines_from_the_prompt(daemon: RunningDaemon) -> None:
    done = daemon.ctl("--json", "ask", input="tank level\nfeed pump speed\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["action"]["args"]["point"] for a in answers] == ["tank_level", "pump_speed"]


def test_socket_from_the_environment(daemon: RunningDaemon) -> None:

    done = subprocess.run([sys.executable, "-m", "hermesd.ctl", "read", "tank_level"],
                          capture_output=True, text=True, timeout=30, check=False,
                          env={"HERMESD_SOCKET": str(daemon.socket), "PATH": "/usr/bin"})
    assert done.returncode == 0, done.stderr


def test_unreachable_daemon(daemon: RunningDaemon, tmp_path_factory: pytest.TempPathFactory) -> None:
    missing = tmp_path_factory.mktemp("none") / "control.sock"
    done = daemon.ctl("--socket", str(missing), "status")
    assert done.returncode == 69
    assert "cannot connect to hermesd at" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["call", "dev.echo", "{not json"], "JSON arguments are not valid JSON"),
    (["call", "devecho", "{}"], "expected TOOL.ACTION"),
    (["call", "dev.echo", "[1]"], "JSON arguments must be an object"),
])
def test_usage_errors(daemon: RunningDaemon, args: list[str], message: str) -> None:
    done = daemon.ctl(*args)
    assert done.returncode == 64
    assert message in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--timeout", "abc", "status"], "'abc' is not a number of seconds"),
    (["--timeout", "nan", "status"], "'nan' is not in (0, 120] seconds"),
    (["--timeout", "1e400", "status"], "not in (0, 120] seconds"),
    (["--timeout", "-1", "status"], "not in (0, 120] seconds"),
    (["listen", "--window", "inf"], "not in (0, 60] seconds"),
    (["--no-such-flag", "status"], "unrecognized arguments: --no-such-flag"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["call", "dev.echo", '{"a": NaN}'], "JSON arguments are not valid JSON: NaN is not allowed"),
    (["call", "dev.echo", '{"a": 1e999}'], "JSON arguments are not valid JSON: number 1e999 is "
                                            "too large"),
    (["call", "dev.echo", '{"a": "\\udcff"}'], "JSON arguments are not valid JSON: a string holds "
                                                "a lone surrogate"),
    (["call", "dev.echo", '{"a": 1, "a": 2}'], "JSON arguments are not valid JSON: duplicate key "
                                               '"a" in an object'),
])
def test_bad_command_lines_are_usage_errors(daemon: RunningDaemon, args: list[str],
                                            message: str) -> None:
    done = daemon.ctl(*args)
    assert done.returncode == 64, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args", [
    [b"read", b"caf\xe9"],
    [b"write", b"pump_speed", b"9\xff"],
    [b"ask", b"set the pump to \xed\xa0\x80"],
    [b"--role", b"op\xc3", b"read", b"tank_level"],
    [b"call", b"dev.ec\x80ho", b"{}"],
    [b"call", b"dev.echo", b'{"a": "\xfe"}'],
])
def test_arguments_that_are_not_utf8_are_usage_errors(daemon: RunningDaemon,
                                                      args: list[bytes]) -> None:
    done = subprocess.run([sys.executable, "-m", "hermesd.ctl", "--socket", str(daemon.socket),
                           *args], capture_output=True, timeout=30, check=False)
    assert done.returncode == 64
    assert b"is not UTF-8 text: '" in done.stderr
    assert b"Traceback" not in done.stderr
    assert done.stdout == b""


def test_a_line_at_the_prompt_that_is_not_utf8_is_skipped(daemon: RunningDaemon) -> None:
    done = subprocess.run([sys.executable, "-m", "hermesd.ctl", "--socket", str(daemon.socket),
                           "ask"], input=b"caf\xe9 level\nwhat is the tank level\n",
                          capture_output=True, timeout=30, check=False)
    assert b"Traceback" not in done.stderr
    assert b"not UTF-8 text" in done.stderr
    assert done.stdout.decode().splitlines() == ["Feed water tank level is 73.4 %."]
    assert done.returncode == 64  # the worst of the lines


def _ctl_against(reply: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """hermesctl against a stand-in daemon that answers its request with `reply`."""
    where = Path(tempfile.mkdtemp(prefix="hc", dir="/tmp"))
    path = where / "control.sock"
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(str(path))
            listener.listen(1)
            listener.settimeout(20)
            proc = subprocess.Popen([sys.executable, "-m", "hermesd.ctl", "--socket", str(path),
                                     *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            try:
                conn, _ = listener.accept()
                with conn:
                    conn.settimeout(20)
                    buf = b""
                    while b"\n" not in buf:
                        chunk = conn.recv(65536)
                        if not chunk:
                            break
                        buf += chunk
                    conn.sendall(reply)
            finally:
                out, err = proc.communicate(timeout=30)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    finally:
        shutil.rmtree(where, ignore_errors=True)


@pytest.mark.parametrize(("reply", "message"), [
    (b'{"status": "ok", "value": NaN}\n', b"NaN is not allowed"),
    (b'{"status": "ok", "reply": "\\udcff"}\n', b"lone surrogate"),
    (b'{"status": "ok", "reply": "caf\xe9"}\n', b"not UTF-8"),
    (b"[1, 2]\n", b"a JSON list, not an object"),
    (b'{"status": "splendid"}\n', b"status 'splendid' is not one of"),
    (b'{"reply": "no status"}\n', b"status 'None' is not one of"),
    (b"[" * 30_000 + b"\n", b"nested deeper than 64"),
    (b"", b"closed the connection without an answer"),
])
def test_an_answer_that_is_not_one_is_a_clear_error(reply: bytes, message: bytes) -> None:
    done = _ctl_against(reply, "read", "x")
    assert b"Traceback" not in done.stderr
    assert message in done.stderr
    assert done.returncode == (69 if reply == b"" else 76)


def test_an_answer_of_an_odd_shape_is_shown_as_it_came() -> None:
    odd = b'{"status": "ok", "result": {"tools": "not a dict"}, "reply": 5}\n'
    done = _ctl_against(odd, "tools")
    assert (done.returncode, done.stderr) == (0, b"")
    assert json.loads(done.stdout)["result"] == {"tools": "not a dict"}
    done = _ctl_against(b'{"status": "error", "error": "not an object"}\n', "read", "x")
    assert done.returncode == 1 and b"Traceback" not in done.stderr


def test_a_reader_that_stops_early_gets_no_traceback(daemon: RunningDaemon) -> None:
    # `hermesctl status | head -n 1`: the pipe closes before everything is written
    ctl = subprocess.Popen([sys.executable, "-m", "hermesd.ctl", "--socket", str(daemon.socket),
                            "--json", "status"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert ctl.stdout is not None and ctl.stderr is not None
    ctl.stdout.close()  # the reader is gone before hermesctl writes a byte
    err = ctl.stderr.read().decode()
    ctl.stderr.close()
    assert ctl.wait(timeout=30) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def _full_queue(path: Path) -> tuple[socket.socket, list[socket.socket]]:
    """A stand-in daemon that accepts nothing yet, and connections queued until no more fit."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(0)
    queued: list[socket.socket] = []
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(str(path))
        except BlockingIOError:
            sock.close()
            return listener, queued
        queued.append(sock)


def test_a_full_connection_queue_is_waited_out_not_taken_for_a_dead_daemon() -> None:
    """A flood of connections fills hermesd's connection queue for a moment (it refuses them
    as fast as it accepts them): hermesctl waits for room within its timeout, as a blocking
    client would, instead of giving up at once with "Resource temporarily unavailable"."""
    where = Path(tempfile.mkdtemp(prefix="hc", dir="/tmp"))
    path = where / "control.sock"
    listener, queued = _full_queue(path)
    try:
        # no room all along: after its timeout (1 s, and 5 s for the answer) it says why
        done = subprocess.run([sys.executable, "-m", "hermesd.ctl", "--socket", str(path),
                               "--timeout", "1", "read", "x"], capture_output=True, timeout=60,
                              check=False)
        assert done.returncode == 69, done.stderr
        assert b"its connection queue stayed full for 6 s" in done.stderr, done.stderr
        # room made while it waits: it gets in, and its answer is the daemon's
        proc = subprocess.Popen([sys.executable, "-m", "hermesd.ctl", "--socket", str(path),
                                 "--json", "read", "x"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            listener.settimeout(30)
            for _ in queued:  # the queue is first in, first out: these, then hermesctl
                conn, _ = listener.accept()
                conn.close()
            conn, _ = listener.accept()
            with conn:
                conn.settimeout(30)
                assert b'"read"' in conn.recv(65536)
                conn.sendall(b'{"status": "ok", "reply": "x is 1"}\n')
        finally:
            out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert json.loads(out)["reply"] == "x is 1"
    finally:
        for sock in queued:
            sock.close()
        listener.close()
        shutil.rmtree(where, ignore_errors=True)


def test_the_prompts_history_is_its_users_own_and_bounded(daemon: RunningDaemon,
                                                          tmp_path: Path) -> None:
    """At a terminal the prompt keeps a history: every command a technician typed had been
    written world-readable (0644) and never cut (atk20s #21)."""
    home = tmp_path / "home"
    home.mkdir()
    history = home / ".hermesctl_history"
    history.write_text("".join(f"read tank level {i}\n" for i in range(1500)))
    history.chmod(0o644)
    main, side = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hermesd.ctl", "--socket", str(daemon.socket), "ask"],
        stdin=side, stdout=side, stderr=side, env={**os.environ, "HOME": str(home)})
    os.close(side)
    os.write(main, b"hello\r")
    seen = b""
    try:
        while b"Hello, I am hermesd" not in seen:  # answered: then leave
            ready, _, _ = select.select([main], [], [], 30)
            assert ready, f"no answer at the prompt: {seen!r}"
            seen += os.read(main, 4096)
        os.write(main, b"quit\r")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    assert stat.S_IMODE(history.stat().st_mode) == 0o600
    lines = history.read_text().splitlines()
    assert len(lines) == 1000 and lines[-2:] == ["hello", "quit"], lines[-3:]
