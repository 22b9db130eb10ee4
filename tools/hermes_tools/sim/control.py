"""The simulator's control channel: one JSON object per line over a Unix socket.

Requests are `{"op": ..., ...}`; every answer is `{"ok": true, ...}` or `{"ok": false, "error":
"..."}`. Ops: `status`; `drop {device, mode?}` (mode `silent`, the default; `refuse` for a
Modbus TCP endpoint; `unplug` for a serial instrument), `restore {device}`, `slow {device, seconds}`,
`fail {device, code, table?, address?, count?}` and the driver-specific faults (Modbus's
`corrupt {device, kind}` and `stick {device}`); `set {point, value}`, `get {point}`. A bad
request gets an error answer and changes nothing; it never stops the simulator.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from pathlib import Path
from typing import Any

from hermes_tools.sim import Simulator

log = logging.getLogger(__name__)

MAX_LINE = 64 * 1024
DEVICE_OPS = {"drop": ("mode",), "restore": (), "slow": ("seconds",),
              "fail": ("code", "table", "address", "count"), "corrupt": ("kind",), "stick": ()}
POINT_OPS = {"set": ("value",), "get": ()}


class ControlServer:
    def __init__(self, path: Path, sims: list[Simulator]) -> None:
        self.path = path
        self.sims = sims
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if _alive(self.path):
            raise OSError(f"another hermes-sim answers on {self.path}; give it --control PATH")
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # left by a simulator that died
        old = os.umask(0o177)
        try:
            self._server = await asyncio.start_unix_server(self._client, str(self.path),
                                                           limit=MAX_LINE)
        finally:
            os.umask(old)

    async def stop(self) -> None:
        if self._server is None:
            return  # never started: the path may be another simulator's
        self._server.close()
        await self._server.wait_closed()
        self._server = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                answer = await self.handle_line(line)
                writer.write(json.dumps(answer).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, ValueError):
            pass  # a client that went away or sent an over-long line
        finally:
            writer.close()

    async def handle_line(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise TypeError("a request is a JSON object")
            return {"ok": True, **await self.handle(request)}
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            return {"ok": False, "error": str(message)}

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "status":
            devices: dict[str, Any] = {}
            for sim in self.sims:
                devices.update(sim.status())
            return {"devices": devices}
        if op in DEVICE_OPS:
            device = request.get("device")
            sim = self._owner(device)
            method = getattr(sim, str(op), None)
            if method is None:
                raise ValueError(f"{device} ({sim.driver}) does not simulate {op}")
            extra = {k: request[k] for k in DEVICE_OPS[op] if k in request}
            return dict(await method(device, **extra))
        if op in POINT_OPS:
            point = request.get("point")
            for sim in self.sims:
                with contextlib.suppress(KeyError):
                    if op == "set":
                        if "value" not in request:
                            raise ValueError("set needs a value")
                        return dict(await sim.set(str(point), request["value"]))
                    return dict(await sim.get(str(point)))
            raise KeyError(f"no simulated point {point!r}")
        raise ValueError(f"unknown op {op!r}; expected status, {', '.join(DEVICE_OPS)}, "
                         f"{', '.join(POINT_OPS)}")

    def _owner(self, device: Any) -> Simulator:
        for sim in self.sims:
            if device in sim.status():
                return sim
        raise KeyError(f"no simulated device {device!r}")


def _alive(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def request(path: str | Path, obj: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """One request to a running simulator (blocking; for `hermes-sim ctl`, tests, scripts)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(path))
        sock.sendall(json.dumps(obj).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the simulator closed the connection without an answer")
            data += chunk
    answer = json.loads(data)
    if not isinstance(answer, dict):
        raise ConnectionError("the simulator sent something that is not an answer")
    return answer
