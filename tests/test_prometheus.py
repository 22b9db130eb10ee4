"""The Prometheus endpoint, scraped for real over a Unix socket and a loopback port."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

from tests.support.daemon import DaemonRunner, base_config, fake_device
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
