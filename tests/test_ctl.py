"""hermesctl as a technician and a script use it: answers, JSON, exit codes, the prompt."""

from __future__ import annotations

import json
from collections.abc import Iterator

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
    (["call", "dev.echo", '{"a": 1}'], 0, "ok"),
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
    import subprocess
    import sys

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
