"""The Prometheus endpoint, scraped for real over a Unix socket and a loopback port."""

from __future__ import annotations

import os
import re
import signal
import socket
from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.ports import free_port


def _get(sock: socket.socket, path: str) -> tuple[str, str]:
    sock.sendall(f"GET {path} HTTP/1.0\r\nHost: x\r\n\r\n".encode())
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.decode().partition("\r\n\r\n")
    return head.splitlines()[0], body


def _plant(metrics: dict[str, str]) -> dict[str, object]:
    return base_config({"dev": fake_device({"level": {"name": "Tank level", "type": "float",
                                                      "params": {"value": 73.4}}})},
                       metrics=metrics)


def test_metrics_over_a_unix_socket(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant({"socket": "metrics.sock"}))
    for _ in range(3):
        d.ctl_json("read", "level")
    d.ctl_json("ask", "what is the tank level")
    path = d.socket.parent / "metrics.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        status, body = _get(sock, "/metrics")
    assert status == "HTTP/1.0 200 OK"
    assert 'hermesd_tool_up{tool="dev"} 1' in body
    assert 'hermesd_requests_total{route="direct",status="ok"} 3' in body
    assert 'hermesd_requests_total{route="rule",status="ok"} 1' in body
    assert re.search(r'hermesd_request_duration_seconds_count\{route="direct"\} 3', body)
    assert 'hermesd_request_duration_seconds_bucket{route="direct",le="+Inf"} 3' in body
    assert re.search(r'hermesd_point_age_seconds\{point="level"\} [\d.]+', body)
    assert "# TYPE hermesd_tool_restarts_total counter" in body
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        assert _get(sock, "/nope")[0] == "HTTP/1.0 404 Not Found"
    assert d.terminate() == 0
    assert not Path(path).exists()


def test_metrics_on_a_loopback_port(daemon_runner: DaemonRunner) -> None:
    port = free_port()
    d = daemon_runner.start(_plant({"listen": f"127.0.0.1:{port}"}))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        status, body = _get(sock, "/metrics")
    assert status == "HTTP/1.0 200 OK"
    assert "hermesd_up 1" in body
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"garbage\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.0 400")
    assert d.terminate() == 0


def test_metrics_are_off_by_default(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(base_config({}))
    assert [p.name for p in d.socket.parent.iterdir()] == ["control.sock"]
    assert d.terminate() == 0


def test_connections_held_open_to_the_port_cost_the_daemon_no_descriptors(
        daemon_runner: DaemonRunner) -> None:
    """The port is open to every local user: 3,000 idle connections once took all 1,024 file
    descriptors systemd gives a service, and the control socket answered nobody."""
    port = free_port()
    d = daemon_runner.start(_plant({"listen": f"127.0.0.1:{port}"}))
    held: list[socket.socket] = []
    try:
        held.extend(socket.create_connection(("127.0.0.1", port), timeout=10)
                    for _ in range(400))
        d.wait_until(lambda: "closing more as they come" in d.log, what="the refusal logged")
        fds = len(os.listdir(f"/proc/{d.proc.pid}/fd"))
        assert fds < 100, fds
        code, answer = d.ctl_json("read", "level")
        assert code == 0 and answer["status"] == "ok"
    finally:
        for sock in held:
            sock.close()

    def scraped() -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
            return sock.recv(100).startswith(b"HTTP/1.0 200 OK")  # b"" while still refused

    d.wait_until(scraped, what="a scrape served once the idle connections are gone")
    assert d.log.count("closing more as they come") == 1
    assert d.terminate() == 0


def _reload(daemon_runner: DaemonRunner, d: RunningDaemon, config: dict[str, object]) -> None:
    daemon_runner.write_config(config)
    d.notify.messages.clear()
    d.proc.send_signal(signal.SIGHUP)
    assert "reloaded" in d.notify.wait_for(lambda m: "READY=1" in m)


def _scrape_port(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        status, body = _get(sock, "/metrics")
    assert status == "HTTP/1.0 200 OK"
    return body


def test_a_reload_turns_metrics_on_moves_them_and_turns_them_off(
        daemon_runner: DaemonRunner) -> None:
    """README: only `paths` need a restart. A reload that added `metrics:` had been taken
    ("config reloaded") with nothing listening (atk20s #18)."""
    d = daemon_runner.start(_plant({}))
    port = free_port()
    _reload(daemon_runner, d, _plant({"listen": f"127.0.0.1:{port}"}))
    assert "hermesd_up 1" in _scrape_port(port)
    assert d.status()["metrics_server"]["listen"] == f"127.0.0.1:{port}"
    # moved to a socket: the port is given up
    _reload(daemon_runner, d, _plant({"socket": "metrics.sock"}))
    path = d.socket.parent / "metrics.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(str(path))
        assert _get(sock, "/metrics")[0] == "HTTP/1.0 200 OK"
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=10).close()
    # off again: the socket is gone
    _reload(daemon_runner, d, _plant({}))
    assert not path.exists()
    assert d.status()["metrics_server"] == {"listen": None, "socket": None, "refused": 0}
    assert d.terminate() == 0


def test_a_reload_to_a_port_in_use_is_said_and_hermesd_runs_on(
        daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_plant({}))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        _reload(daemon_runner, d, _plant({"listen": f"127.0.0.1:{port}"}))
        error = d.status()["metrics_server"]["error"]
        assert f"cannot serve metrics at 127.0.0.1:{port}" in error, error
        assert "metrics are not served" in d.log
        assert d.ctl_json("read", "level")[1]["status"] == "ok"
    # the same config again, once the port is free: served
    _reload(daemon_runner, d, _plant({"listen": f"127.0.0.1:{port}"}))
    assert "hermesd_up 1" in _scrape_port(port)
    assert "error" not in d.status()["metrics_server"]
    assert d.terminate() == 0
