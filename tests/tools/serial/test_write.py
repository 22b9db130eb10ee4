"""Writable points: the value is checked before anything is sent, acknowledged and read back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from tests.support.until import until
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import ToolUnderTest, plant


def controller(port: Path, **point: Any) -> dict[str, Any]:
    setpoint: dict[str, Any] = {
        "query": "SP?\r\n", "pattern": r"^SP=(?P<value>[-+]?[\d.]+)$", "unit": "°C",
        "command": "SP={value:.1f}\r\n", "ack": "^OK$", "writable": True, "min": 0, "max": 250}
    setpoint.update(point)
    return {"driver": "serial", "port": str(port), "baudrate": 115200, "timeout": "500ms",
            "poll_interval": "1h", "points": {"oven_setpoint": setpoint}}


async def test_a_write_is_acknowledged_and_read_back(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({"ctl1": controller(by_id / "usb-ctl1")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        result = await t.write("oven_setpoint", 75.5)
        assert result["value"] == 75.5 and result["confirmed"] is True
        assert sim.received("ctl1")[-2:] == ["SP=75.5", "SP?"]
        assert (await t.read("oven_setpoint"))["value"] == 75.5


async def test_a_bad_value_is_refused_before_anything_is_sent(start_sim: StartSim,
                                                              by_id: Path) -> None:
    sim, path = start_sim(plant({"ctl1": controller(by_id / "usb-ctl1")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        asked = sim.received("ctl1")
        for bad, code in ((300, ErrorCode.OUT_OF_RANGE), (-1, ErrorCode.OUT_OF_RANGE),
                          ("hot", ErrorCode.OUT_OF_RANGE), (True, ErrorCode.OUT_OF_RANGE),
                          (float("nan"), ErrorCode.OUT_OF_RANGE)):
            with pytest.raises(HermesError) as caught:
                await t.write("oven_setpoint", bad)
            assert caught.value.code == code, (bad, caught.value.message)
        assert sim.received("ctl1") == asked  # not one byte went out


async def test_a_refusal_by_the_device_is_its_error(start_sim: StartSim, by_id: Path) -> None:
    _sim, path = start_sim(plant({"ctl1": controller(by_id / "usb-ctl1")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        with pytest.raises(HermesError) as caught:
            await t.write("oven_setpoint", 220)  # ours allows 250; the controller stops at 200
        assert caught.value.code == ErrorCode.DEVICE_ERROR
        assert "ctl1 answered 'ERR RANGE' to 'SP=220.0\\r\\n'" in caught.value.message
        assert "oven_setpoint still reads back 50.0: not set" in caught.value.message
        assert (await t.read("oven_setpoint"))["value"] == 50.0  # unchanged


async def test_a_write_taken_rounded_under_another_answer_is_not_sure(start_sim: StartSim,
                                                                      by_id: Path) -> None:
    """An answer that is not the acknowledgement ("OK" to a pattern of "ACK"), and a read-back
    that moved to another value than the one asked (120.04 taken as 120.0): the instrument
    took it, so it is no refusal (atk28: "reads back 120.0: not set")."""
    _sim, path = start_sim(plant({"ctl1": controller(by_id / "usb-ctl1", ack="^ACK$")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        assert (await t.read("oven_setpoint"))["value"] == 50.0
        with pytest.raises(HermesError) as caught:
            await t.write("oven_setpoint", 120.04)
        assert caught.value.code == ErrorCode.NOT_CONFIRMED, caught.value.message
        assert "may or may not have taken effect" in caught.value.message
        assert (await t.read("oven_setpoint"))["value"] == 120.0


async def test_a_write_without_ack_or_query_is_sent_unconfirmed(start_sim: StartSim,
                                                                by_id: Path) -> None:
    device = controller(by_id / "usb-ctl1")
    del device["points"]["oven_setpoint"]["query"], device["points"]["oven_setpoint"]["ack"]
    sim, path = start_sim(plant({"ctl1": device}), "--kind", "ctl1=controller")
    async with ToolUnderTest(path) as t:
        await until(lambda: t.tool.devices["ctl1"]._link, what="port open")
        result = await t.write("oven_setpoint", 60)
        assert result["value"] == 60 and "confirmed" not in result
        await until(lambda: "SP=60.0" in sim.received("ctl1"), what="the command at the device")


async def test_a_write_acknowledged_late_is_not_sure_not_failed(start_sim: StartSim,
                                                                by_id: Path) -> None:
    """The controller took the setpoint and acknowledged it after the timeout: it had been
    answered TIMEOUT, "could not do that" (review atk25s)."""
    sim, path = start_sim(plant({"ctl1": controller(by_id / "usb-ctl1")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        sim.slow("ctl1", 0.8)  # answers OK 0.3 s after the 0.5 s timeout
        with pytest.raises(HermesError) as caught:
            await t.write("oven_setpoint", 77)
        assert caught.value.code == ErrorCode.NOT_CONFIRMED, caught.value.message
        assert "may or may not have taken effect" in caught.value.message
        sim.slow("ctl1", 0)
        assert (await t.read("oven_setpoint"))["value"] == 77.0  # it had taken it


async def test_a_write_taken_and_not_read_back_in_time_is_unconfirmed(start_sim: StartSim,
                                                                       by_id: Path) -> None:
    device = controller(by_id / "usb-ctl1")
    del device["points"]["oven_setpoint"]["ack"]
    sim, path = start_sim(plant({"ctl1": device}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        sim.slow("ctl1", "never")  # takes commands, answers no question
        result = await t.write("oven_setpoint", 66)
        assert (result["value"], result["confirmed"]) == (66, False), result


async def test_a_write_taken_and_read_back_as_no_reading_is_unconfirmed(
        start_sim: StartSim, by_id: Path) -> None:
    """Acknowledged, then read back with a line the point's pattern does not take (the
    controller writes a sign the pattern lacks): it was taken, never "could not do that"."""
    device = controller(by_id / "usb-ctl1", pattern=r"^SP=(?P<value>\d+\.\d)$")
    sim, path = start_sim(plant({"ctl1": device}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.tool.devices["ctl1"]._link, what="port open")
        result = await t.write("oven_setpoint", 66)
        assert (result["value"], result["confirmed"]) == (66, False), result
        assert sim.received("ctl1")[-2:] == ["SP=66.0", "SP?"]


async def test_a_port_lost_while_the_ack_is_awaited_is_not_sure(start_sim: StartSim,
                                                                by_id: Path) -> None:
    device = controller(by_id / "usb-ctl1")
    device["timeout"] = "10s"  # the port is lost long before the acknowledgement is given up
    sim, path = start_sim(plant({"ctl1": device}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        sim.slow("ctl1", "never")  # takes the command, says nothing
        writing = asyncio.create_task(t.write("oven_setpoint", 88))
        await until(lambda: "SP=88.0" in sim.received("ctl1"), what="the command at the device")
        sim.drop("ctl1")
        with pytest.raises(HermesError) as caught:
            await writing
        assert caught.value.code == ErrorCode.NOT_CONFIRMED, caught.value.message
        assert "may or may not have taken effect" in caught.value.message
        assert "ctl1" in caught.value.message


async def test_a_write_to_a_port_already_lost_is_not_sent(start_sim: StartSim,
                                                          by_id: Path) -> None:
    sim, path = start_sim(plant({"ctl1": controller(by_id / "usb-ctl1")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_setpoint"), what="first poll")
        sim.drop("ctl1")
        await until(lambda: t.online("ctl1") is False, what="the port seen lost")
        with pytest.raises(HermesError) as caught:
            await t.write("oven_setpoint", 88)
        assert caught.value.code == ErrorCode.DEVICE_OFFLINE, caught.value.message


@pytest.mark.parametrize("query", [True, False])
async def test_a_write_answered_with_another_line_than_its_ack_is_not_sure(
        start_sim: StartSim, by_id: Path, query: bool) -> None:
    """The controller takes the setpoint and says OK, where this point waits for ACK: it
    answered, and it may have taken it (it has): not sure, never "could not do that". A
    refusal is told only by a read-back that shows another value (the test above, ERR
    RANGE)."""
    device = controller(by_id / "usb-ctl1", ack="^ACK$")
    if not query:
        del device["points"]["oven_setpoint"]["query"]
    sim, path = start_sim(plant({"ctl1": device}), "--kind", "ctl1=controller")
    async with ToolUnderTest(path) as t:
        await until(lambda: t.tool.devices["ctl1"]._link, what="port open")
        with pytest.raises(HermesError) as caught:
            await t.write("oven_setpoint", 75.5)
        assert caught.value.code == ErrorCode.NOT_CONFIRMED, caught.value.message
        assert "ctl1 answered 'OK' to 'SP=75.5\\r\\n'" in caught.value.message
        assert caught.value.message.endswith("it may or may not have taken effect")
        if query:
            assert "reads back 75.5" in caught.value.message
