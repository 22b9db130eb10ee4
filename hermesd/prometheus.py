"""The Prometheus text endpoint: `GET /metrics` on a loopback port or a Unix socket.

Off unless `metrics.listen` or `metrics.socket` is set. A tiny HTTP/1.0 responder, not a web
server: it reads one request line and its headers (bounded), answers, and closes. Rendering takes
a snapshot of `Daemon.status()`, so it costs nothing until someone scrapes. No series carries a
label that changes when a process restarts (a pid): a series must be the same series after a
restart of hermesd or of a tool, or every restart would start new ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermesd.core.histogram import BUCKETS

if TYPE_CHECKING:
    from hermesd.config.model import Config

log = logging.getLogger(__name__)

MAX_HEADER = 8192
#: scrapes served at once; more connections are closed as they come. The port is open to every
#: local user, not only the control socket's group: held open, each costs the daemon a file
#: descriptor, and at its 1,024 (systemd's default) the control socket and the tools' sockets
#: could take no more
MAX_CONNECTIONS = 16


def _label(value: Any) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def render(status: dict[str, Any]) -> str:
    """Prometheus text exposition (version 0.0.4) of a status snapshot."""
    out: list[str] = []

    def metric(name: str, kind: str, help_text: str,
               samples: list[tuple[dict[str, Any], float | int | None]]) -> None:
        out.append(f"# HELP {name} {help_text}")
        out.append(f"# TYPE {name} {kind}")
        for labels, value in samples:
            if value is None:
                continue
            text = ",".join(f'{k}="{_label(v)}"' for k, v in labels.items())
            out.append(f"{name}{{{text}}} {value}" if text else f"{name} {value}")

    metric("hermesd_up", "gauge", "1 while the daemon runs.", [({}, 1)])
    metric("hermesd_build_info", "gauge", "Always 1; the running version in its label.",
           [({"version": status.get("version", "unknown")}, 1)])
    metric("hermesd_uptime_seconds", "gauge", "Seconds since start.",
           [({}, status.get("uptime_s"))])
    tools = status.get("tools", {})
    metric("hermesd_tool_up", "gauge", "1 when the tool process is running.",
           [({"tool": n}, int(t["state"] == "running")) for n, t in tools.items()])
    metric("hermesd_tool_restarts_total", "counter", "Restarts of each tool process.",
           [({"tool": n}, t["restarts"]) for n, t in tools.items()])
    devices = status.get("devices", {})
    metric("hermesd_device_online", "gauge", "1 online, 0 offline (absent while unknown).",
           [({"device": n}, None if d["online"] is None else int(d["online"]))
            for n, d in devices.items()])
    metrics = status.get("metrics", {})
    requests = metrics.get("requests", {})
    samples: list[tuple[dict[str, Any], float | int | None]] = []
    for route, data in requests.items():
        for st, count in data.get("by_status", {}).items():
            samples.append(({"route": route, "status": st}, count))
    metric("hermesd_requests_total", "counter", "Requests answered, by route and status.", samples)
    out.append("# HELP hermesd_request_duration_seconds Time to answer, by route.")
    out.append("# TYPE hermesd_request_duration_seconds histogram")
    for route, data in requests.items():
        lat = data.get("latency_ms", {})
        counts = list(lat.get("buckets_s", {}).values())
        cumulative = 0
        for bound, count in zip([*map(str, BUCKETS), "+Inf"], counts, strict=False):
            cumulative += count
            out.append(f'hermesd_request_duration_seconds_bucket{{route="{route}",le="{bound}"}} '
                       f"{cumulative}")
        total = data.get("count", 0)
        mean_ms = lat.get("mean") or 0.0
        out.append(f'hermesd_request_duration_seconds_sum{{route="{route}"}} '
                   f"{mean_ms * total / 1000:.6f}")
        out.append(f'hermesd_request_duration_seconds_count{{route="{route}"}} {total}')
    _bus(metric, out, devices)
    metric("hermesd_events_total", "counter", "Watchdog and supervision events, by kind.",
           [({"kind": k}, v) for k, v in metrics.get("events", {}).items()])
    memory = status.get("memory", {})
    metric("hermesd_memory_rss_bytes", "gauge", "Resident memory of each process.",
           [({"process": n}, int(p["rss_mib"] * 1024 * 1024))
            for n, p in memory.get("processes", {}).items()])
    metric("hermesd_loop_lag_seconds", "gauge", "Event loop lag at the last watchdog tick.",
           [({}, status.get("loop_lag_s"))])
    audit = status.get("audit", {})
    metric("hermesd_audit_failing", "gauge", "1 while the audit log cannot be written.",
           [({}, int(bool(audit.get("failing"))))])
    cache = status.get("cache", {})
    metric("hermesd_cache_values", "gauge", "Points with a last known value.",
           [({}, cache.get("values"))])
    ages = status.get("point_ages", {})
    metric("hermesd_point_age_seconds", "gauge", "Age of each point's last known value.",
           [({"point": p}, a) for p, a in ages.items()])
    llm = status.get("llm", {})
    metric("hermesd_llm_ready", "gauge", "1 when the LLM worker can answer.",
           [({}, int(llm.get("state") == "ready"))])
    return "\n".join(out) + "\n"


def _bus(metric: Any, out: list[str], devices: dict[str, Any]) -> None:
    """Each device's link as its tool counted it (`status` devices.<id>.bus)."""
    bus = {n: d["bus"] for n, d in devices.items() if isinstance(d.get("bus"), dict)}
    for key, help_text in (("requests", "Requests sent to the device."),
                           ("timeouts", "Requests the device did not answer in time."),
                           ("bad_replies", "Replies that were garbled or answered another "
                                           "request."),
                           ("reconnects", "Connections opened again after the link had been "
                                          "up, by the device's requests.")):
        metric(f"hermesd_device_{key}_total", "counter", help_text,
               [({"device": n}, b.get(key)) for n, b in bus.items()])
    metric("hermesd_device_exceptions_total", "counter",
           "Modbus exception replies, by exception code.",
           [({"device": n, "code": code}, count) for n, b in bus.items()
            for code, count in b.get("exceptions", {}).items()])
    out.append("# HELP hermesd_device_request_duration_seconds Time from request to answer "
               "(replies and exception replies), by device.")
    out.append("# TYPE hermesd_device_request_duration_seconds histogram")
    for n, b in bus.items():
        lat = b.get("latency_ms", {})
        device = _label(n)
        cumulative = 0
        for bound, count in lat.get("buckets_s", {}).items():
            cumulative += count
            out.append(f'hermesd_device_request_duration_seconds_bucket{{device="{device}",'
                       f'le="{bound}"}} {cumulative}')
        out.append(f'hermesd_device_request_duration_seconds_sum{{device="{device}"}} '
                   f"{lat.get('sum_s', 0.0):.6f}")
        out.append(f'hermesd_device_request_duration_seconds_count{{device="{device}"}} '
                   f"{lat.get('count', 0)}")


def place_of(config: Config) -> tuple[tuple[str, int] | None, Path | None]:
    """Where `config` has metrics served: (listen, socket path), each None when not."""
    metrics = config.metrics
    if not metrics.enabled:
        return None, None
    sock = metrics.socket
    return metrics.listen, None if sock is None else config.paths.runtime_dir / sock


class MetricsServer:
    """Serves where the config says, from the start; a reload that moves it, turns it on or
    turns it off is followed at once."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], *,
                 listen: tuple[str, int] | None = None, socket_path: Path | None = None) -> None:
        self._snapshot = snapshot
        self.listen = listen
        self.socket_path = socket_path
        self._server: asyncio.Server | None = None
        self._serving = 0
        self.refused = 0  # connections closed unserved because MAX_CONNECTIONS were open
        self._refusing = False
        self.error: str | None = None  # why metrics are not served where a reload asked

    # -- as a daemon component ---------------------------------------------------------------

    name = "metrics_server"

    async def run(self) -> None:
        """Serve from the start of this task until it is cancelled."""
        await self.start()
        try:
            await asyncio.Event().wait()
        finally:
            await self.stop()

    async def reconfigure(self, config: Config) -> None:
        """Serve where the reloaded config says: moved, turned on or off. A place that cannot
        be taken (a port in use) is logged and shown in `status`; hermesd runs on unserved."""
        listen, socket_path = place_of(config)
        if (listen, socket_path) == (self.listen, self.socket_path) and self.error is None:
            return
        await self.stop()
        self.listen, self.socket_path = listen, socket_path
        try:
            await self.start()
        except OSError as exc:
            self.error = f"cannot serve metrics at {self._where()}: {exc.strerror or exc}"
            log.error("reload: %s; metrics are not served", self.error)

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = {
            "listen": None if self.listen is None else f"{self.listen[0]}:{self.listen[1]}",
            "socket": None if self.socket_path is None else str(self.socket_path),
            "refused": self.refused}
        if self.error is not None:
            status["error"] = self.error
        return status

    def _where(self) -> str:
        if self.socket_path is not None:
            return str(self.socket_path)
        return f"{self.listen[0]}:{self.listen[1]}" if self.listen else "nowhere"

    async def start(self) -> None:
        self.error = None
        if self.socket_path is None and self.listen is None:
            return  # off
        if self.socket_path is not None:
            _remove_socket(self.socket_path)  # one left by a run that died; nothing else
            old = os.umask(0o117)
            try:
                self._server = await asyncio.start_unix_server(self._serve, str(self.socket_path))
            finally:
                os.umask(old)
        elif self.listen is not None:
            host, port = self.listen
            self._server = await asyncio.start_server(self._serve, host, port)
        log.info("metrics at %s/metrics", self._where())

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
            if self.socket_path is not None:
                _remove_socket(self.socket_path)  # ours: never one a failed start found

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._serving >= MAX_CONNECTIONS:
            self.refused += 1
            if not self._refusing:
                self._refusing = True
                log.warning("metrics: %d connections open; closing more as they come",
                            MAX_CONNECTIONS)
            writer.close()
            return
        if self._refusing and self._serving == 0:
            self._refusing = False
            log.info("metrics: serving again (%d connections were closed unserved so far)",
                     self.refused)
        self._serving += 1
        try:
            await self._answer(reader, writer)
        finally:
            self._serving -= 1

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(5):
                head = await reader.readuntil(b"\r\n\r\n")
            if len(head) > MAX_HEADER:
                raise ValueError("header too large")
            method, path, *_ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            if method != "GET":
                status, body = "405 Method Not Allowed", "only GET\n"
            elif path.split("?")[0] != "/metrics":
                status, body = "404 Not Found", "try /metrics\n"
            else:
                status, body = "200 OK", render(self._snapshot())
        except (TimeoutError, ValueError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError, ConnectionError):
            status, body = "400 Bad Request", "bad request\n"
        data = body.encode()
        writer.write(f"HTTP/1.0 {status}\r\nContent-Type: text/plain; version=0.0.4; "
                     f"charset=utf-8\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n"
                     .encode() + data)
        with contextlib.suppress(ConnectionError, TimeoutError):
            async with asyncio.timeout(5):  # a scraper that does not read gives its slot up
                await writer.drain()
        writer.close()


def _remove_socket(path: Path) -> None:
    """Remove a socket at `path`; any other file there is left alone (binding then fails and
    says so, rather than a file of someone's being replaced)."""
    with contextlib.suppress(FileNotFoundError):
        if stat.S_ISSOCK(path.lstat().st_mode):
            path.unlink()
