"""A small plant for Modbus tests: config dicts, the in-process simulator, the in-process tool."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from hermes_tools.modbus.tool import ModbusTool
from hermes_tools.sim.modbus import ModbusSimulator

from hermesd.config.loader import validate
from hermesd.config.model import Config
from hermesd.core.protocol import Event, Message
from hermesd.toolspecs import tool_specs

POINTS: dict[str, Any] = {
    "temp": {"table": "input", "address": 0, "type": "float32", "unit": "°C"},
    "pressure": {"table": "input", "address": 2, "type": "uint16", "scale": 0.01, "unit": "bar"},
    "speed": {"table": "holding", "address": 10, "type": "uint16", "unit": "rpm",
              "writable": True, "min": 0, "max": 1500},
    "conveyor": {"table": "holding", "address": 11, "type": "int16", "scale": 0.1,
                 "writable": True, "min": 0, "max": 60},
    "count": {"table": "holding", "address": 20, "type": "uint32"},
    "label": {"table": "holding", "address": 30, "type": "string", "length": 4},
    "ready": {"table": "holding", "address": 40, "type": "bool", "bit": 3, "writable": True},
    "running": {"table": "discrete", "address": 0, "type": "bool"},
    "valve": {"table": "coil", "address": 1, "type": "bool", "writable": True},
}
VALUES = {"temp": 523.4, "pressure": 12.5, "speed": 1200, "conveyor": 24.5, "count": 1048577,
          "label": "OK", "ready": False, "running": True, "valve": False}


def tcp_device(port: int, unit: int = 1, prefix: str = "", **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": "tcp", "host": "127.0.0.1", "port": port,
            "unit": unit, "poll_interval": "200ms", "timeout": "300ms",
            "points": {f"{prefix}{k}": dict(v) for k, v in POINTS.items()}, **extra}


def rtu_device(path: Path, unit: int, prefix: str, **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": "rtu", "port": str(path), "unit": unit,
            "baudrate": 19200, "poll_interval": "200ms", "timeout": "300ms",
            "points": {f"{prefix}{k}": dict(v) for k, v in POINTS.items()}, **extra}


def config_dict(devices: dict[str, Any], tmp: Path) -> dict[str, Any]:
    return {"node": {"id": "test", "name": "Test"},
            "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
            "access": {"default_role": "viewer", "roles": {
                "viewer": {"read": True, "write": False},
                "operator": {"read": True, "write": True},
                "engineer": {"read": True, "write": True, "raw_read": True, "raw_write": True}}},
            "llm": {"enabled": False}, "devices": devices}


def load(devices: dict[str, Any], tmp: Path) -> Config:
    return validate(config_dict(devices, tmp), tmp / "hermesd.yaml")


def values_for(config: Config) -> dict[str, Any]:
    out = {}
    for pid in config.points:
        for key, value in VALUES.items():
            if pid.endswith(key):
                out[pid] = value
    return out


@contextlib.asynccontextmanager
async def simulating(config: Config) -> AsyncIterator[ModbusSimulator]:
    """The config's Modbus devices served in this event loop."""
    sim = ModbusSimulator(config, list(config.devices.values()), values_for(config), seed=3)
    task = asyncio.create_task(sim.run(), name="sim")
    ready = asyncio.create_task(sim.ready.wait())
    await asyncio.wait([task, ready], return_when=asyncio.FIRST_COMPLETED)
    ready.cancel()
    await asyncio.gather(ready, return_exceptions=True)
    if task.done():
        task.result()
    try:
        yield sim
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


class ToolUnderTest:
    """The Modbus tool in this loop, its events collected."""

    def __init__(self) -> None:
        self.tool = ModbusTool()
        self.events: list[Event] = []
        self.tool._send = self._collect
        self.runner: asyncio.Task[None] | None = None

    def _collect(self, msg: Message) -> None:
        assert isinstance(msg, Event)
        self.events.append(msg)

    async def configure(self, config: Config) -> dict[str, Any]:
        return await self.tool.configure(tool_specs(config)["modbus"].config)

    def start(self) -> None:
        self.runner = asyncio.create_task(self.tool.run(), name="tool-run")

    async def stop(self) -> None:
        if self.runner is not None:
            self.runner.cancel()
            await asyncio.gather(self.runner, return_exceptions=True)
        await self.tool.close()

    def values(self, point: str) -> list[dict[str, Any]]:
        """Every report of the point, as hermesd's cache takes them: a value sent, or a poll
        that read it unchanged (`fresh`: the value last sent, at the new time)."""
        out: list[dict[str, Any]] = []
        for e in self.events:
            if e.kind != "values":
                continue
            out.extend(v for v in e.data["values"] if v["point"] == point)
            out.extend({"point": point, "value": out[-1]["value"] if out else None,
                        "ts": f["ts"], "fresh": True}
                       for f in e.data.get("fresh", []) if point in f["points"].split(" "))
        return out

    def sent(self, point: str) -> list[dict[str, Any]]:
        """The values of the point sent in full (decoded), not as `fresh`."""
        return [v for e in self.events if e.kind == "values" for v in e.data["values"]
                if v["point"] == point]

    def states(self, device: str) -> list[dict[str, Any]]:
        return [e.data for e in self.events if e.kind == "device" and e.data["device"] == device]

@contextlib.asynccontextmanager
async def running_tool(config: Config, *, start: bool = True) -> AsyncIterator[ToolUnderTest]:
    tut = ToolUnderTest()
    await tut.configure(config)
    if start:
        tut.start()
    try:
        yield tut
    finally:
        await tut.stop()
