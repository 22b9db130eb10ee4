"""`hermes-sim`: simulated field devices for any hermesd config, so hermesd runs without hardware.

Each driver offers a simulator class, registered in `SIMULATORS` by import path so that a
driver's libraries load only when its devices are simulated. A simulator is built from the
config and its own devices (`cls(config, devices, values, seed=...)`), serves them in
`async run()` until cancelled (setting its `ready` event once it serves), reports
`status()` per device, and takes faults at run time through async methods: `drop(device,
mode)`, `restore(device)`, `slow(device, seconds)`, `fail(device, code, ...)`, plus `set`/`get`
of a point's value. Driver-specific faults (Modbus's `corrupt`) are further methods that the
control channel finds by name. A simulator may leave out devices it cannot simulate, saying why
in `not_simulated` (device -> reason). Nothing here may touch a real device.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from hermesd.config.model import Config, Device

#: driver -> "module:Class" of its simulator
SIMULATORS: dict[str, str] = {
    "modbus": "hermes_tools.sim.modbus:ModbusSimulator",  # TCP servers, RTU buses on ptys
    "serial": "hermes_tools.sim.serial:SerialSimulator",  # line-protocol instruments on ptys
    "mqtt": "hermes_tools.sim.mqtt:MqttSimulator",  # sensors and switches on the broker
}
#: control operations every simulator offers; `op device ...` on the control channel
COMMON_OPS = ("drop", "restore", "slow", "fail", "set", "get")


class Simulator(Protocol):
    driver: str
    ready: asyncio.Event

    async def run(self) -> None: ...
    async def drop(self, device: str, mode: str = "silent") -> dict[str, Any]: ...
    async def restore(self, device: str) -> dict[str, Any]: ...
    async def slow(self, device: str, seconds: float) -> dict[str, Any]: ...
    async def fail(self, device: str, code: int) -> dict[str, Any]: ...  # 0 clears
    async def set(self, point: str, value: Any) -> dict[str, Any]: ...
    async def get(self, point: str) -> dict[str, Any]: ...
    def status(self) -> dict[str, Any]: ...


def simulator_class(driver: str) -> Any:
    """The simulator class of a driver, or None when there is none (yet)."""
    target = SIMULATORS.get(driver)
    if target is None:
        return None
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def build(config: Config, values: Mapping[str, Any] | None = None, *, seed: int | None = None,
          only: set[str] | None = None) -> tuple[list[Simulator], list[Device]]:
    """The simulators a config needs, and the devices nobody can simulate."""
    by_driver: dict[str, list[Device]] = {}
    for device in config.devices.values():
        if only is None or device.id in only:
            by_driver.setdefault(device.driver, []).append(device)
    sims: list[Simulator] = []
    missing: list[Device] = []
    for driver, devices in sorted(by_driver.items()):
        cls = simulator_class(driver)
        if cls is None:
            missing.extend(devices)
        else:
            sims.append(cls(config, devices, values or {}, seed=seed))
    return sims, missing
