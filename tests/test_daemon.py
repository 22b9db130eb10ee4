"""The daemon as systemd runs it: READY, STATUS, WATCHDOG, RELOADING, STOPPING, exit 0."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.support import procfs
from tests.support.daemon import DaemonRunner, base_config, fake_device


def _plant() -> dict[str, Any]:
    return base_config({"oven": fake_device({
        "oven_temp": {"name": "Oven temperature", "type": "float", "unit": "°C",
                      "params": {"value": 180.5}},
        "fan_speed": {"name": "Fan speed", "type": "int", "unit": "rpm", "writable": True,
                      "min": 0, "max": 3000, "params": {"value": 1200}},
    })})


def test_ready_status_and_clean_stop(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    ready = d.notify.wait_for(lambda m: "READY=1" in m)
    assert "STATUS=" in ready and "2 points" in ready
    code, answer = d.ctl_json("read", "oven_temp")
    assert code == 0
    assert answer["status"] == "ok" and answer["result"]["value"] == 180.5
    tool_pid = d.tool_pid("oven")
    assert tool_pid is not None
    socket_files = list(d.socket.parent.iterdir())
    assert {p.name for p in socket_files} == {"control.sock", "oven.sock"}

    assert d.terminate(timeout=5.0) == 0  # exits 0 when asked (the wait is bounded, not timed)
    d.notify.wait_for(lambda m: "STOPPING=1" in m, timeout=1)
    assert not procfs.alive(tool_pid)
    assert list(d.socket.parent.iterdir()) == []


def test_watchdog_pings_keep_coming(daemon_runner: DaemonRunner) -> None:
    # how often is tests/test_sdnotify.py's (half of WATCHDOG_USEC); here: they keep coming
    d = daemon_runner.start(_plant(), env={"WATCHDOG_USEC": "1000000"})
    d.notify.wait_for(lambda m: m == "WATCHDOG=1", timeout=3)
    count_before = sum(m == "WATCHDOG=1" for m in d.notify.messages)
    d.notify.wait_for(lambda m: m == "WATCHDOG=1" and
                      sum(x == "WATCHDOG=1" for x in d.notify.messages) >= count_before + 3,
                      timeout=5)
    assert d.terminate() == 0


def test_a_notify_socket_nobody_reads_does_not_stall_the_daemon(
        daemon_runner: DaemonRunner) -> None:
    # after READY=1 nobody reads the socket: its queue fills with pings every 0.1 s
    d = daemon_runner.start(_plant(), env={"WATCHDOG_USEC": "200000"})
    d.wait_until(lambda: "cannot notify systemd" in d.log, what="the notify queue to fill")
    # answered, not stuck in a blocked send (tests/test_sdnotify.py: a full queue fails the send)
    answer = d.request({"op": "read", "point": "oven_temp"})
    assert answer["status"] == "ok" and answer["result"]["value"] == 180.5
    assert d.log.count("cannot notify systemd") == 1
    assert d.terminate() == 0


def test_watchdog_is_silent_without_watchdog_usec(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    d.ctl_json("status")  # a round trip through the loop
    d.terminate()
    assert "WATCHDOG=1" not in d.notify.drain()


def test_watchdog_pid_of_another_process_is_ignored(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant(), env={"WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"})
    d.ctl_json("status")
    d.terminate()
    assert "WATCHDOG=1" not in d.notify.drain()


def test_abstract_notify_socket(daemon_runner: DaemonRunner) -> None:
    import socket as socketlib

    name = f"hermesd-test-{os.getpid()}-{time.monotonic_ns()}"
    listener = socketlib.socket(socketlib.AF_UNIX, socketlib.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(20)
    try:
        d = daemon_runner.start(_plant(), env={"NOTIFY_SOCKET": "@" + name}, wait_ready=False)
        got: list[str] = []
        while not any("READY=1" in m for m in got):
            got.append(listener.recv(4096).decode())
        assert any(m.startswith("STATUS=") for m in got) or any("STATUS=" in m for m in got)
        assert d.terminate() == 0
    finally:
        listener.close()


def test_sighup_with_a_good_config_reloads(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    tool_pid = d.tool_pid("oven")
    config = _plant()
    config["devices"]["oven"]["points"]["door_open"] = {"name": "Oven door", "type": "bool",
                                                       "params": {"value": False}}
    daemon_runner.write_config(config)
    d.notify.messages.clear()
    d.proc.send_signal(signal.SIGHUP)
    d.notify.wait_for(lambda m: "RELOADING=1" in m)
    reloading = next(m for m in d.notify.messages if "RELOADING=1" in m)
    assert "MONOTONIC_USEC=" in reloading
    ready = d.notify.wait_for(lambda m: "READY=1" in m)
    assert "reloaded" in ready
    code, answer = d.ctl_json("read", "door_open")
    assert (code, answer["result"]["value"]) == (0, False)
    assert d.tool_pid("oven") == tool_pid  # reconfigured in place, not restarted
    assert d.status()["reloads"]["ok"] == 1
    assert d.terminate() == 0


def test_sighup_with_a_bad_config_keeps_the_running_one(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant())
    bad = _plant()
    bad["devices"]["oven"]["points"]["fan_speed"]["max"] = "lots"
    daemon_runner.write_config(bad)
    d.notify.messages.clear()
    d.proc.send_signal(signal.SIGHUP)
    ready = d.notify.wait_for(lambda m: "READY=1" in m)
    assert "reload refused (1 problem)" in ready
    assert "devices.oven.points.fan_speed.max: expected a number" in d.log
    status = d.status()
    assert status["reloads"]["refused"] == 1
    assert "fan_speed.max" in status["reloads"]["last_error"]
    code, answer = d.ctl_json("--role", "operator", "write", "fan_speed", "2500")
    assert (code, answer["status"]) == (0, "ok")  # the old range (max 3000) still applies
    assert d.terminate() == 0


def test_a_sighup_during_a_reload_is_followed_by_another(daemon_runner: DaemonRunner,
                                                        tmp_path: Path) -> None:
    """A reload reads the file when it starts; a SIGHUP for a newer file while it runs (the tool
    slow to take its new settings, or two quick `systemctl reload`s) used to be dropped, and the
    newer file never applied while `status` said all reloads went well (review atk7, F8)."""
    d = daemon_runner.start(_plant())
    let_go = tmp_path / "let-go"
    first = _plant()
    # the tool takes its new settings only when let go, and answers pings meanwhile (a tool
    # stopped outright is taken for hung within seconds on a busy machine, and restarted)
    first["devices"]["oven"]["points"]["door_open"] = {
        "name": "Oven door", "type": "bool",
        "params": {"value": False, "hold_configure": str(let_go)}}
    daemon_runner.write_config(first)
    try:
        d.notify.messages.clear()
        d.proc.send_signal(signal.SIGHUP)
        d.notify.wait_for(lambda m: "RELOADING=1" in m)  # a reload runs
        second = _plant()
        second["devices"]["oven"]["points"]["lamp_on"] = {
            "name": "Oven lamp", "type": "bool",
            "params": {"value": True, "hold_configure": str(let_go)}}
        # (put in place whole, as an editor saves: the running reload reads one file or the
        # other, never half of one; whichever it read, its tool holds it until let go)
        os.replace(daemon_runner.write_config(second, "next.yaml"), d.config_path)
        d.proc.send_signal(signal.SIGHUP)
        d.wait_until(lambda: "another follows it" in d.log, what="the second reload queued")
    finally:
        let_go.touch()
    d.wait_until(lambda: d.status()["reloads"]["ok"] == 2, what="two reloads")
    code, answer = d.ctl_json("read", "lamp_on")  # the newer file is the one running
    assert (code, answer["result"]["value"]) == (0, True)
    assert d.ctl_json("read", "door_open")[1]["status"] == "rejected"
    assert d.terminate() == 0


def test_a_config_that_is_no_regular_file_is_refused_at_once(daemon_runner: DaemonRunner,
                                                             tmp_path: Path) -> None:
    """A FIFO put where the config was held the whole daemon in open() until someone wrote to
    it: control socket, tool pings and the watchdog stopped (review atk7, F9)."""
    d = daemon_runner.start(_plant())
    path = d.config_path
    kept = tmp_path / "kept.yaml"
    os.replace(path, kept)
    os.mkfifo(path)
    try:
        d.notify.messages.clear()
        d.proc.send_signal(signal.SIGHUP)
        ready = d.notify.wait_for(lambda m: "READY=1" in m)
        assert "reload refused (1 problem)" in ready
        status = d.status()
        assert "is not a regular file (it is a FIFO)" in status["reloads"]["last_error"]
        code, answer = d.ctl_json("read", "oven_temp")
        assert code == 0 and answer["status"] == "ok"
    finally:
        os.unlink(path)
        os.replace(kept, path)
    assert d.terminate() == 0


def test_a_reload_whose_tool_settings_do_not_fit_a_frame_is_refused_whole(
        daemon_runner: DaemonRunner) -> None:
    """A config whose settings for one tool exceed a protocol frame (thousands of points on
    one device) was half applied on reload: hermesd's points changed, the tool kept its old
    ones, status said nothing, and the daemon exited 1 at SIGTERM (review atk8, G2). It is
    refused before anything changes, as `--check-config` refuses it."""
    d = daemon_runner.start(_plant())
    big = _plant()
    points = big["devices"]["oven"]["points"]
    for k in range(5000):  # (a file under 1 MiB, its tool's settings over a 1 MiB frame)
        points[f"generated_sensor_{k:05d}_of_the_oven_line"] = {
            "name": f"Generated sensor {k} of the oven line", "type": "float", "unit": "°C",
            "params": {"value": float(k)}}
    path = daemon_runner.write_config(big)
    d.notify.messages.clear()
    d.proc.send_signal(signal.SIGHUP)
    ready = d.notify.wait_for(lambda m: "READY=1" in m)
    assert "reload refused (1 problem)" in ready
    assert "settings" in d.status()["reloads"]["last_error"]
    assert "do not fit in one frame" in d.status()["reloads"]["last_error"]
    assert d.ctl_json("read", "generated_sensor_00001_of_the_oven_line")[1]["status"] == \
        "rejected"  # nothing of it was applied
    assert d.ctl_json("read", "oven_temp")[1]["status"] == "ok"
    assert d.terminate() == 0
    checked = subprocess.run([sys.executable, "-m", "hermesd.main", "--check-config", str(path)],
                             capture_output=True, text=True, timeout=60, check=False)
    assert checked.returncode == 78 and "do not fit in one frame" in checked.stderr


def test_cache_and_audit_survive_sigkill(daemon_runner: DaemonRunner) -> None:
    config = _plant()
    d = daemon_runner.start(config)
    code, answer = d.ctl_json("--role", "operator", "write", "fan_speed", "1750")
    assert answer["status"] == "ok"
    code, answer = d.ctl_json("read", "oven_temp")
    trace = answer["trace_id"]
    audit_path = d.state_dir / "audit.jsonl"
    # the write's intent was durable before the write was answered
    assert '"phase":"intent"' in audit_path.read_text()
    lkv = d.state_dir / "lkv.json"
    d.wait_until(lambda: lkv.exists() and "1750" in lkv.read_text(), what="cache persisted")
    d.wait_until(lambda: trace in audit_path.read_text(), what="the read's record flushed")
    d.kill()  # SIGKILL: no chance to flush anything more
    audit = audit_path.read_text()
    assert '"value":1750' in audit
    assert trace in audit

    d2 = daemon_runner.start(config)
    points = {p["id"]: p for p in d2.request({"op": "points"})["result"]["points"]}
    assert points["fan_speed"]["value"] == 1750
    assert points["fan_speed"]["quality"] == "stale"  # restored, not confirmed since
    assert points["fan_speed"]["age_s"] >= 0
    _code, answer = d2.ctl_json("read", "fan_speed")
    assert answer["status"] == "ok"  # read anew from the tool
    assert d2.terminate() == 0


def test_bad_config_at_start_exits_78_with_every_problem(daemon_runner: DaemonRunner) -> None:
    import subprocess
    import sys

    bad = _plant()
    bad["devices"]["oven"]["points"]["fan_speed"]["max"] = "lots"
    bad["node"]["id"] = "has space"
    path = daemon_runner.write_config(bad)
    done = subprocess.run([sys.executable, "-m", "hermesd.main", "--config", str(path)],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 78
    assert done.stderr.splitlines() == [
        "config error: node.id: 'has space' is not an id of letters, digits, _ and -",
        "config error: devices.oven.points.fan_speed.max: expected a number, got the text 'lots'",
    ]
