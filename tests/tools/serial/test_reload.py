"""A config reload keeps the ports of unchanged devices open and restarts only changed ones."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import serial

from tests.support.until import until
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import ToolUnderTest, plant, scale, tool_slice, write_config


async def test_reload_keeps_unchanged_devices_connected(start_sim: StartSim, by_id: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hermes_tools.serial")
    config = plant({"scale1": scale(by_id / "usb-scale1"),
                    "scale2": scale(by_id / "usb-scale2", points={"scale2_weight": {
                        "query": "W\r\n", "pattern": r"(?P<value>[-+]?[\d.]+) kg"}})})
    _, path = start_sim(config)
    async with ToolUnderTest(path) as t:
        await until(lambda: t.online("scale1") and t.online("scale2"), what="both online")
        kept = t.tool.devices["scale1"]
        config["devices"]["scale2"]["points"]["scale2_weight"]["scale"] = 1000
        await t.tool.configure(tool_slice(write_config(path, config)))
        assert t.tool.devices["scale1"] is kept
        await until(lambda: (r := t.values("scale2_weight")) and r[-1][1] == 12340.0,
                    what="scale2 with its new scale")
        assert (await t.read("scale1_weight"))["value"] == 12.34
        del config["devices"]["scale2"]
        await t.tool.configure(tool_slice(write_config(path, config)))
        await until(lambda: "scale2" not in t.tool._tasks, what="scale2 stopped")
    opened = [r.getMessage().split(":")[0] for r in caplog.records
              if "connected on" in r.getMessage()]
    assert sorted(opened) == ["scale1", "scale2", "scale2"]  # scale1 opened once only


async def test_a_port_another_program_holds_is_said_so(start_sim: StartSim, by_id: Path) -> None:
    _, path = start_sim(plant({"scale1": scale(by_id / "usb-scale1")}))
    with serial.Serial(str(by_id / "usb-scale1"), exclusive=True):
        async with ToolUnderTest(path) as t:
            await until(lambda: t.states("scale1"), what="scale1 state")
            online, reason = t.states("scale1")[0]
            assert not online and reason.endswith("another program has it open (exclusive lock)")
