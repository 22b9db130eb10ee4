"""Bus diagnostics as a user sees them, all real processes (hermesd, its Modbus tool,
`hermes-sim`'s pymodbus server): in `hermesctl status --json` and on `/metrics`, counted from
real exchanges, and still one series per device after the tool is killed and restarted."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
from typing import Any

import pytest
import yaml

from hermesd import __version__
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.ports import free_port
from tests.support.sim import SimRunner, sim_runner
from tests.tools.modbus.plant import POINTS, VALUES

__all__ = ["sim_runner"]


def _scrape(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.0 200"), head
    return body


def _sample(body: str, series: str) -> float | None:
    match = re.search(rf"^{re.escape(series)} ([0-9.e+-]+)$", body, re.MULTILINE)
    return float(match.group(1)) if match else None


def _bus(d: RunningDaemon) -> dict[str, Any]:
    code, status = d.ctl_json("status")
    assert code == 0, status
    return dict(status["result"]["devices"]["plc"].get("bus") or {})


@pytest.mark.timeout(90)
def test_status_and_metrics_show_each_devices_bus_across_a_tool_restart(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    metrics_port = free_port()
    points = {p: POINTS[p] for p in ("speed", "conveyor", "temp")}
    path = daemon_runner.write_config(base_config(
        {"plc": {"driver": "modbus", "host": "127.0.0.1", "port": free_port(),
                 "poll_interval": "200ms", "timeout": "400ms", "points": points}},
        metrics={"listen": f"127.0.0.1:{metrics_port}"}))
    path.with_name("values.yaml").write_text(yaml.safe_dump({p: VALUES[p] for p in points}))
    sim_runner.start(path, "--values", str(path.with_name("values.yaml")))
    d = daemon_runner.start(path)

    d.wait_until(lambda: _bus(d).get("requests", 0) >= 5, what="polls counted in status")
    # a register the PLC does not have: a real exception reply, code 2
    code, answer = d.ctl_json("--role", "engineer", "call", "modbus.read_registers",
                              json.dumps({"device": "plc", "table": "holding",
                                          "address": 60000}))
    assert code != 0 and answer["error"]["code"] == "UNKNOWN_POINT"
    bus = d.wait_until(lambda: (b := _bus(d)).get("exceptions") == {"2": 1} and b,
                       what="the exception in status")
    assert bus["timeouts"] == bus["reconnects"] == 0
    assert bus["latency_ms"]["count"] >= bus["requests"] - 1 and bus["latency_ms"]["p99_le"]

    body = _scrape(metrics_port)
    assert f'hermesd_build_info{{version="{__version__}"}} 1' in body
    assert "pid=" not in body  # every series survives a restart as the same series
    requests = _sample(body, 'hermesd_device_requests_total{device="plc"}')
    assert requests is not None and requests >= 5
    assert _sample(body, 'hermesd_device_exceptions_total{device="plc",code="2"}') == 1
    assert _sample(body, 'hermesd_device_timeouts_total{device="plc"}') == 0
    assert _sample(body, 'hermesd_device_reconnects_total{device="plc"}') == 0
    answered = _sample(body, 'hermesd_device_request_duration_seconds_count{device="plc"}')
    assert answered == _sample(
        body, 'hermesd_device_request_duration_seconds_bucket{device="plc",le="+Inf"}')
    assert "# TYPE hermesd_device_request_duration_seconds histogram" in body

    pid = d.tool_pid("modbus")
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    d.running_tool_pid("modbus", not_pid=pid)
    # the new run of the tool counts from zero; hermesd's counters go on from where they were
    d.wait_until(lambda: (_sample(_scrape(metrics_port),
                                  'hermesd_device_requests_total{device="plc"}') or 0)
                 > requests + 10, timeout=30, what="the restarted tool's polls counted on")
    body = _scrape(metrics_port)
    assert _sample(body, 'hermesd_device_exceptions_total{device="plc",code="2"}') == 1
    assert (_sample(body, 'hermesd_device_request_duration_seconds_count{device="plc"}')
            or 0) > (answered or 0)
    assert "pid=" not in body
