"""Supervised tools: killed or hung tools are restarted, and calls in flight never hang."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device


def _start(runner: DaemonRunner) -> RunningDaemon:
    return runner.start(base_config({"dev": fake_device({
        "level": {"name": "Tank level", "type": "float", "unit": "%", "params": {"value": 73.4}},
    })}))


def _call_in_background(d: RunningDaemon, marker: Path, seconds: float,
                        timeout: float = 20) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "hermesd.ctl", "--socket", str(d.socket), "--json",
         "--timeout", str(timeout), "--role", "engineer", "call", "dev.sleep",
         f'{{"seconds": {seconds}, "marker": "{marker}"}}'],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_socket_modes(daemon_runner: DaemonRunner) -> None:
    d = _start(daemon_runner)
    run_dir = d.socket.parent
    assert stat.S_IMODE(run_dir.stat().st_mode) == 0o750
    # the control socket is for the daemon's group; a tool's socket for the daemon alone
    for sock, expected in ((d.socket, 0o660), (run_dir / "dev.sock", 0o600)):
        mode = sock.stat().st_mode
        assert stat.S_ISSOCK(mode)
        assert stat.S_IMODE(mode) == expected
    assert d.terminate() == 0


def test_killed_tool_fails_calls_in_flight_and_restarts(daemon_runner: DaemonRunner) -> None:
    d = _start(daemon_runner)
    pid = d.running_tool_pid("dev")
    marker = daemon_runner.tmp / "arrived"
    call = _call_in_background(d, marker, seconds=30)
    d.wait_until(marker.exists, what="the call to reach the tool")
    os.kill(pid, signal.SIGKILL)
    out, err = call.communicate(timeout=25)
    # failed by the kill, at once: its 20 s deadline would have answered TIMEOUT
    assert call.returncode == 1, err
    assert '"TOOL_UNAVAILABLE"' in out

    new_pid = d.running_tool_pid("dev", not_pid=pid)
    assert new_pid != pid
    tool = d.status()["tools"]["dev"]
    assert tool["restarts"] == 1
    assert tool["last_error"] == "was killed by SIGKILL"
    code, answer = d.ctl_json("read", "level")
    assert (code, answer["status"], answer["result"]["value"]) == (0, "ok", 73.4)
    assert d.log.count("tool dev was killed by SIGKILL; restarting") == 1
    assert d.terminate() == 0


def test_hung_tool_times_out_calls_and_is_restarted(daemon_runner: DaemonRunner) -> None:
    d = _start(daemon_runner)
    pid = d.running_tool_pid("dev")
    code, answer = d.ctl_json("read", "level")
    assert answer["status"] == "ok"
    os.kill(pid, signal.SIGSTOP)
    try:
        code, answer = d.ctl_json("--timeout", "1.5", "read", "level")
        # the read is answered at its own deadline from the last known value, marked stale
        assert answer["status"] == "stale"
        assert answer["error"]["code"] == "TIMEOUT"
        assert answer["result"]["value"] == 73.4
        assert answer["result"]["quality"] == "stale"
        _code, answer = d.ctl_json("--timeout", "1", "--role", "engineer", "call", "dev.echo",
                                   "{}")
        assert answer["error"]["code"] == "TIMEOUT"
        new_pid = d.running_tool_pid("dev", not_pid=pid)
    finally:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
    assert new_pid != pid
    assert "hung" in d.status()["tools"]["dev"]["last_error"]
    assert not Path(f"/proc/{pid}").exists()
    assert d.terminate() == 0


def test_crashing_tool_backs_off(daemon_runner: DaemonRunner) -> None:
    config = base_config({"bad": {"driver": "exec", "command": [sys.executable, "-c",
                                                                 "import sys; sys.exit(5)"],
                                  "points": {"x": {"type": "float"}}}})
    d = daemon_runner.start(config)
    d.wait_until(lambda: d.status()["tools"]["bad"]["restarts"] >= 3, timeout=20,
                 what="three restarts")
    tool = d.status()["tools"]["bad"]
    assert tool["state"] in ("restarting", "starting")
    assert "exited with code 5 before listening" in tool["last_error"]
    delays = [float(line.split("restarting in ")[1].split(" s")[0])
              for line in d.log.splitlines() if "tool bad" in line and "restarting in" in line]
    assert delays[2] > delays[0]  # exponential, jittered
    # the daemon stays up and answers honestly meanwhile
    _code, answer = d.ctl_json("read", "x")
    assert answer["status"] == "error"
    assert answer["error"]["code"] == "TOOL_UNAVAILABLE"
    assert d.terminate() == 0


def test_crash_inside_a_call_is_a_restart_not_a_hang(daemon_runner: DaemonRunner) -> None:
    d = _start(daemon_runner)
    pid = d.running_tool_pid("dev")
    _code, answer = d.ctl_json("--role", "engineer", "call", "dev.crash", "{}")
    assert answer["error"]["code"] == "TOOL_UNAVAILABLE"
    d.running_tool_pid("dev", not_pid=pid)
    assert "exited with code 3" in d.status()["tools"]["dev"]["last_error"]
    assert d.terminate() == 0


def test_tool_answer_outside_its_schema_is_refused(daemon_runner: DaemonRunner) -> None:
    d = _start(daemon_runner)
    code, answer = d.ctl_json("--role", "engineer", "call", "dev.bad_result", "{}")
    assert answer["status"] == "error"
    # the tool's fault, named; not hermesd's own (INTERNAL)
    assert answer["error"] == {"code": "DEVICE_ERROR", "message": "tool dev gave an invalid "
                               "answer for bad_result: result must contain ['ok'] properties"}
    _code, answer = d.ctl_json("--role", "engineer", "call", "dev.sleep",
                                 '{"seconds": "ten"}')
    assert answer["status"] == "rejected"
    assert answer["error"]["code"] == "BAD_REQUEST"
    assert "seconds" in answer["error"]["message"]
    assert d.terminate() == 0


def test_a_device_tool_that_keeps_failing_to_start_keeps_being_retried(
        daemon_runner: DaemonRunner) -> None:
    """Devices come back (a PLC reboots, an adapter is plugged in again): a device tool never
    gives up, but after three failed starts in a row it says so once, at error, and its further
    restarts for the same reason are no longer warnings (the backoff caps them at 30 s)."""
    config = base_config({"bad": {"driver": "exec", "command": [sys.executable, "-c",
                                                                 "import sys; sys.exit(5)"],
                                  "points": {"x": {"type": "float"}}}})
    d = daemon_runner.start(config)
    d.wait_until(lambda: d.status()["tools"]["bad"]["restarts"] >= 4, timeout=30,
                 what="four restarts")
    tool = d.status()["tools"]["bad"]
    assert tool["state"] in ("restarting", "starting")  # never `failed`
    assert tool["start_failures"] >= 4
    pattern = ("ERROR hermesd.supervisor: tool bad failed to start: tool bad is unavailable: "
               "exited with code 5 before listening 3 times in a row while starting; still "
               "restarting it, at most every 30 s")
    lines = d.log.splitlines()
    assert sum(pattern in line for line in lines) == 1
    restarts = [line for line in lines if "tool bad failed to start" in line
                and "restarting in" in line]
    assert [" WARNING " in line for line in restarts[:4]] == [True, True, False, False]
    assert d.terminate() == 0
