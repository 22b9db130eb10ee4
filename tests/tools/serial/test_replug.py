"""Unplugging and replugging: points go stale with the reason, the tool comes back by itself."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from tests.support.until import until
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import ToolUnderTest, plant, scale


async def test_unplug_and_replug_under_the_same_link(start_sim: StartSim, by_id: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hermes_tools.serial")
    link = by_id / "usb-Acme_Scale_1234-if00-port0"
    sim, path = start_sim(plant({"scale1": scale(link)}))
    first_tty = sim.where["scale1"].split(" -> ")[1]
    async with ToolUnderTest(path) as t:
        await until(lambda: t.online("scale1"), what="scale1 online")
        sim.drop("scale1")
        await until(lambda: t.online("scale1") is False, what="scale1 offline")
        reason = t.states("scale1")[-1][1]
        assert "unplugged" in reason or "disappeared" in reason, reason
        with pytest.raises(HermesError) as caught:
            await t.read("scale1_weight")
        assert caught.value.code == ErrorCode.DEVICE_OFFLINE
        assert "scale1 is offline" in caught.value.message

        sim.command("slow scale1 0")  # the simulator is still there; only the plug is out
        sim.restore("scale1")  # a new pty behind the same by-id link
        new_tty = sim.command("where scale1").split(" -> ")[1]
        await until(lambda: t.online("scale1") is True, what="scale1 back online")
        assert (await t.read("scale1_weight"))["value"] == 12.34
        polled = len(t.values("scale1_weight"))
        await until(lambda: len(t.values("scale1_weight")) > polled, what="polling again")
    reconnects = [r for r in caplog.records if "reconnected on" in r.getMessage()]
    assert len(reconnects) == 1, [r.getMessage() for r in caplog.records]
    assert str(link) in reconnects[0].getMessage() and new_tty in reconnects[0].getMessage()
    lost = [r for r in caplog.records if r.levelno == logging.WARNING and "lost" in r.getMessage()]
    assert len(lost) == 1  # said once, not on every retry
    assert first_tty.startswith("/dev/pts/")


async def test_a_device_missing_at_start_is_found_when_plugged_in(start_sim: StartSim,
                                                                  by_id: Path) -> None:
    link = by_id / "usb-scale1"
    sim, path = start_sim(plant({"scale1": scale(link)}), run=False)
    async with ToolUnderTest(path) as t:
        await until(lambda: t.online("scale1") is False, what="scale1 reported offline")
        assert "cannot open" in t.states("scale1")[0][1]
        assert "No such file or directory" in t.states("scale1")[0][1]
        sim.start()
        await until(lambda: t.online("scale1") is True, what="scale1 found")
        assert (await t.read("scale1_weight"))["value"] == 12.34


async def test_a_port_used_by_two_devices_is_refused_for_the_second(start_sim: StartSim,
                                                                    by_id: Path) -> None:
    link = by_id / "usb-scale1"
    config = plant({"scale1": scale(link)})
    config["devices"]["scale2"] = scale(link, points={
        "scale2_weight": {"query": "W\r\n", "pattern": r"(?P<value>[\d.]+)"}})
    _, path = start_sim(config, "--kind", "scale2=scale", name="clash.yaml", run=False)
    async with ToolUnderTest(path) as t:
        await until(lambda: t.states("scale2"), what="scale2 state")
        assert t.states("scale2")[0] == (False, f"port {link} is already used by device scale1")
        with pytest.raises(HermesError) as caught:
            await t.read("scale2_weight")
        assert caught.value.code == ErrorCode.DEVICE_OFFLINE
