"""The daemon as systemd runs it: READY, STATUS, WATCHDOG, RELOADING, STOPPING, exit 0."""

from __future__ import annotations

import time
from pathlib import Path

from tests.support.daemon import DaemonRunner, base_config, fake_device


def _plant() -> dict[str, object]:
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

    started = time.monotonic()
    assert d.terminate(timeout=5.0) == 0
    assert time.monotonic() - started < 5.0
    d.notify.wait_for(lambda m: "STOPPING=1" in m, timeout=1)
    assert not Path(f"/proc/{tool_pid}").exists() or \
        Path(f"/proc/{tool_pid}/stat").read_text().split()[2] == "Z"
    assert list(d.socket.parent.iterdir()) == []
