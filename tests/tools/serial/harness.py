"""Test helpers for the serial tool: the simulator as a real process, and a tool that records.

`SimProcess` runs `python -m hermes_tools.sim.serial --control stdin` on a config file and drives
it with its one-line commands (each answered before the call returns). `ToolUnderTest` runs a
`SerialTool` in this process on the exact config slice the daemon would send, and keeps every
event it emits with the time it was emitted. `ReadGate` makes the tool's reader thread hand over
one chunk late, at the moment a question goes out: a race the scheduler rarely picks, forced.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import serial
import yaml
from hermes_tools.serial.tool import SerialTool

from hermesd.config import load_config
from hermesd.toolspecs import tool_specs

SCALE_PATTERN = r"(?P<value>[-+]?\d+(?:\.\d+)?)\s*kg"


def plant(devices: dict[str, Any]) -> dict[str, Any]:
    return {
        "node": {"id": "serial-test"},
        "access": {"default_role": "viewer", "roles": {
            "viewer": {"read": True, "write": False},
            "operator": {"read": True, "write": True}}},
        "llm": {"enabled": False},
        "devices": devices,
    }


def scale(port: str | Path, **extra: Any) -> dict[str, Any]:
    """The dev plant's packing scale, as plant-dev.yaml configures it."""
    dev: dict[str, Any] = {
        "driver": "serial", "port": str(port), "baudrate": 9600, "timeout": "500ms",
        "poll_interval": "200ms",
        "points": {"scale1_weight": {"name": "Packing scale weight", "query": "W\r\n",
                                     "pattern": SCALE_PATTERN, "type": "float", "unit": "kg",
                                     "max_age": "10s"}}}
    dev.update(extra)
    return dev


def write_config(path: Path, config: dict[str, Any]) -> Path:
    config = dict(config)
    config.setdefault("paths", {"state_dir": str(path.parent / "state"),
                                "runtime_dir": str(path.parent / "run")})
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def tool_slice(config_path: Path) -> dict[str, Any]:
    """What the daemon sends the serial tool in `configure` for this config."""
    return dict(tool_specs(load_config(config_path))["serial"].config)


class SimProcess:
    def __init__(self, config: Path, *args: str) -> None:
        self.config = config
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None
        self.where: dict[str, str] = {}
        self._buf = b""
        self.stderr_path = config.with_suffix(".sim.log")

    def start(self, timeout: float = 20.0) -> SimProcess:
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "hermes_tools.sim.serial", "--config", str(self.config),
                 "--control", "stdin", *self.args],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        while True:
            line = self._readline(timeout)
            if line == "READY":
                return self
            name, _, rest = line.partition(" ")
            self.where[name] = rest

    def _readline(self, timeout: float) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the simulator said nothing in {timeout:g} s; "
                                   f"stderr: {self.stderr_path.read_text()}")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise RuntimeError(f"the simulator exited: {self.stderr_path.read_text()}")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode()

    def command(self, line: str) -> str:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        answer = self._readline(10.0)
        if not answer.startswith("ok"):
            raise RuntimeError(f"simulator refused {line!r}: {answer}")
        return answer[3:]

    def drop(self, device: str) -> None:
        self.command(f"drop {device}")

    def restore(self, device: str) -> None:
        self.command(f"restore {device}")

    def slow(self, device: str, seconds: float | str) -> None:
        self.command(f"slow {device} {seconds}")

    def fail(self, device: str, code: str) -> None:
        self.command(f"fail {device} {code}")

    def set(self, device: str, value: str) -> None:
        self.command(f"set {device} {value}")

    def reply(self, device: str, data: bytes) -> None:
        self.command(f"reply {device} {data.hex()}")

    def push(self, device: str, data: bytes) -> None:
        self.command(f"push {device} {data.hex()}")

    def period(self, device: str, seconds: float | str) -> None:
        self.command(f"period {device} {seconds}")

    def received(self, device: str) -> list[str]:
        return list(json.loads(self.command(f"received {device}")))

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.stdin is not None:
            self.proc.stdin.close()  # the simulator exits at the end of its control input
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc = None


class RecordingTool(SerialTool):
    """The serial tool with its events kept instead of sent: (monotonic time, kind, data)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[float, str, dict[str, Any]]] = []

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        self.events.append((time.monotonic(), kind, data))


class ToolUnderTest:
    def __init__(self, config_path: Path) -> None:
        self.config_path = config_path
        self.tool = RecordingTool()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> ToolUnderTest:
        await self.tool.configure(tool_slice(self.config_path))
        self._task = asyncio.create_task(self.tool.run(), name="serial-tool-under-test")
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        failed = self._task.done() and not self._task.cancelled() and self._task.exception()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        await self.tool.close()
        if failed:
            raise AssertionError("the tool's background work failed") from failed

    async def read(self, point: str) -> dict[str, Any]:
        return dict(await self.tool.read({"point": point}, {}))

    async def write(self, point: str, value: Any) -> dict[str, Any]:
        return dict(await self.tool.write({"point": point, "value": value}, {}))

    def values(self, point: str) -> list[tuple[float, Any, float]]:
        """(emitted at, value, ts) of every values event for a point."""
        return [(at, v["value"], v["ts"]) for at, kind, data in self.tool.events
                if kind == "values" for v in data["values"] if v["point"] == point]

    def states(self, device: str) -> list[tuple[bool, str]]:
        return [(data["online"], data["reason"]) for _, kind, data in self.tool.events
                if kind == "device" and data["device"] == device]

    def online(self, device: str) -> bool | None:
        states = self.states(device)
        return states[-1][0] if states else None


class ReadGate:
    """The serial ports the tool opens, each a real pyserial port with one read held back.

    `install(monkeypatch)` wraps every port `serial.serial_for_url` makes. Once `arm(n)`ed, the
    next read that brings bytes goes on reading until it has `n` of them (`held`, `holding` set)
    and keeps them until the tool is about to send a question: its next write to the port, or
    its asking a blocked read to return (`cancel_read`). Only then does the read return them.
    """

    def __init__(self) -> None:
        self.holding = threading.Event()
        self.held = b""
        self._want = 0
        self._go = threading.Event()

    @classmethod
    def install(cls, monkeypatch: pytest.MonkeyPatch) -> ReadGate:
        gate = cls()
        make = serial.serial_for_url

        def gated(*args: Any, **kwargs: Any) -> _GatedPort:
            return _GatedPort(make(*args, **kwargs), gate)
        monkeypatch.setattr(serial, "serial_for_url", gated)
        return gate

    def arm(self, n: int) -> None:
        self.holding.clear()
        self._go.clear()
        self._want = n

    def release(self) -> None:
        self._go.set()

    def read(self, port: Any, data: bytes) -> bytes:
        """In the reader thread: the bytes a read returns, held when armed."""
        want, self._want = self._want, 0
        if not want or not data:
            return data
        deadline = time.monotonic() + 10.0
        while len(data) < want and time.monotonic() < deadline:
            data += port.read(want - len(data))
        self.held = data
        self.holding.set()
        self._go.wait(10.0)
        return data


class _GatedPort:
    """A pyserial port whose reads pass through a `ReadGate`; everything else is the port's."""

    _port: Any
    _gate: ReadGate

    def __init__(self, port: Any, gate: ReadGate) -> None:
        self.__dict__.update(_port=port, _gate=gate)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._port, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._port, name, value)

    def read(self, size: int = 1) -> bytes:
        return self._gate.read(self._port, self._port.read(size))

    def write(self, data: bytes) -> int | None:
        self._gate.release()
        return self._port.write(data)  # type: ignore[no-any-return]

    def cancel_read(self) -> None:
        self._gate.release()
        self._port.cancel_read()
