"""Devices described by the shipped profiles, served by a simulator built from the same config,
polled and read by the tool: the register maps decode to what the simulator holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hermes_tools.sim.modbus import ModbusSimulator

from hermesd.config.model import Config
from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import load, running_tool, simulating

CTX: dict[str, Any] = {}


def _plant(port: int) -> dict[str, Any]:
    """Two meters, a drive and a temperature controller behind one serial-to-Ethernet gateway."""
    gateway = {"driver": "modbus", "transport": "rtu_over_tcp", "host": "127.0.0.1",
               "port": port, "poll_interval": "200ms", "timeout": "300ms"}
    return {"meter_1": {**gateway, "unit": 1, "profile": "eastron_sdm120"},
            "meter_2": {**gateway, "unit": 2, "profile": "eastron_sdm120"},
            "drive": {**gateway, "unit": 3, "profile": "siemens_sinamics_v20"},
            "oven": {**gateway, "unit": 4, "profile": "eurotherm_3216"}}


def _hold_still(sim: ModbusSimulator) -> None:
    """Stop the simulated values wandering, so what the tool read can be compared exactly."""
    for _, sim_point in sim.points.values():
        sim_point.wander.fixed = True


async def _expected(sim: ModbusSimulator, config: Config) -> dict[str, Any]:
    return {pid: (await sim.get(pid))["value"] for pid in config.points}


async def test_profiled_devices_poll_and_read_as_their_manuals_say(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    assert len(config.points) == 2 * 14 + 17 + 13
    async with simulating(config) as sim:
        _hold_still(sim)
        await sim.set("meter_2_voltage", 231.5)
        await sim.set("oven_pv", 182.3)
        expected = await _expected(sim, config)
        async with running_tool(config) as t:
            await until(lambda: all(t.values(pid) for pid in config.points),
                             what="every profile point polled")
            polled = {pid: t.values(pid)[-1]["value"] for pid in config.points}
            for pid, value in expected.items():
                if isinstance(value, float):
                    assert polled[pid] == pytest.approx(value, rel=1e-6), pid
                else:
                    assert polled[pid] == value, pid
            assert polled["meter_2_voltage"] == pytest.approx(231.5)
            assert polled["oven_pv"] == pytest.approx(182.3)
            # the meter's map is read in three requests per poll, as its gaps allow
            status = await t.tool.status({}, CTX)
            assert status["devices"]["meter_1"]["blocks"] == 3
            answer = await t.tool.write({"point": "drive_frequency_setpoint", "value": 42.5},
                                        CTX)
            assert answer["confirmed"] is True
            assert (await sim.get("drive_frequency_setpoint"))["value"] == pytest.approx(42.5)
            raw = await t.tool.read_registers({"device": "drive", "table": "holding",
                                               "address": 2}, CTX)
            assert raw["registers"] == [4250]  # scaling factor 100, as the V20 table says
