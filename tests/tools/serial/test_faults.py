"""What a misbehaving instrument gets: a clear error naming what came, and never a stale value as
fresh. Unparseable, oversize, undecodable and unasked lines, silence, and late answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from tests.support.until import until
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import ReadGate, ToolUnderTest, plant, scale


async def _fails(t: ToolUnderTest, point: str, code: ErrorCode) -> str:
    with pytest.raises(HermesError) as caught:
        await t.read(point)
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def _quiet_scale(port: Path, **extra: Any) -> dict[str, Any]:
    return scale(port, poll_interval="1h", **extra)  # one poll at start, then only our reads


async def _first_poll(t: ToolUnderTest, point: str = "scale1_weight") -> None:
    await until(lambda: t.values(point), what=f"the first poll of {point}")


async def test_an_unparseable_answer_is_a_clear_error(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({"scale1": _quiet_scale(by_id / "usb-scale1", points={
        "scale1_weight": {"query": "W\r\n", "pattern": r"^ST,GS,(?P<value>\S+) kg$"}})}))
    async with ToolUnderTest(path) as t:
        await _first_poll(t)
        sim.reply("scale1", b"ES\r\n")
        message = await _fails(t, "scale1_weight", ErrorCode.DEVICE_ERROR)
        assert "scale1 answered 'ES' to 'W\\r\\n'" in message and "pattern" in message
        sim.reply("scale1", b"ST,GS,+0x2.34 kg\r\n")
        message = await _fails(t, "scale1_weight", ErrorCode.DEVICE_ERROR)
        assert "'+0x2.34'" in message and "not a number" in message
        assert (await t.read("scale1_weight"))["value"] == 12.34  # and then it reads again
        assert len(t.values("scale1_weight")) == 1  # the first poll's: nothing for bad answers


async def test_an_oversize_line_is_cut_and_reported(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({"scale1": _quiet_scale(by_id / "usb-scale1", max_line=64,
                                                        timeout="2s")}))
    async with ToolUnderTest(path) as t:
        await _first_poll(t)
        # 0.4 s of bytes at 9600 baud, arriving piece by piece, then a line that looks right
        sim.reply("scale1", b"A" * 400 + b"\r\nST,GS,+099.99 kg\r\n")
        message = await _fails(t, "scale1_weight", ErrorCode.DEVICE_ERROR)  # at byte 65
        assert "a line longer than 64 bytes (starting b'AAAA" in message
        # the next question waits for the rest to pass: neither the tail nor the line after it
        # answers it
        assert (await t.read("scale1_weight"))["value"] == 12.34
        sim.push("scale1", b"B" * 5000)  # an endless unasked line: cut, and bounded in memory
        assert (await t.read("scale1_weight"))["value"] == 12.34


async def test_garbage_and_wrong_encodings(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({
        "scale1": _quiet_scale(by_id / "usb-scale1"),
        "probe": {"driver": "serial", "port": str(by_id / "usb-probe"), "encoding": "latin-1",
                  "timeout": "500ms", "poll_interval": "1h",
                  "points": {"probe_temp": {"query": "PV?\r\n",
                                            "pattern": r"T=(?P<value>[\d.]+) °C"}}}}),
        "--kind", "probe=controller")
    async with ToolUnderTest(path) as t:
        await _first_poll(t)
        await until(lambda: t.tool.devices["probe"]._link, what="probe port open")
        # line noise before the question is not glued to the answer
        sim.push("scale1", b"\xff\xfe\x00\x13garbage")
        assert (await t.read("scale1_weight"))["value"] == 12.34
        # an answer that is not text in the device's encoding
        sim.reply("scale1", "ST,GS,+012.34 kg °".encode() + b"\r\n")
        message = await _fails(t, "scale1_weight", ErrorCode.DEVICE_ERROR)
        assert "not ascii text" in message
        # latin-1 device: its degree sign decodes; the same text in UTF-8 does not match
        sim.reply("probe", "T=25.5 °C\r\n".encode("latin-1"))
        assert (await t.read("probe_temp"))["value"] == 25.5
        sim.reply("probe", "T=25.5 °C\r\n".encode())
        message = await _fails(t, "probe_temp", ErrorCode.DEVICE_ERROR)
        assert "T=25.5 Â°C" in message  # what was seen, shown as the device's encoding reads it


async def test_a_silent_device_times_out_then_goes_offline(start_sim: StartSim,
                                                           by_id: Path) -> None:
    sim, path = start_sim(plant({"scale1": scale(by_id / "usb-scale1", poll_interval="300ms")}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("scale1_weight"), what="a first poll")
        sim.slow("scale1", "never")
        await until(lambda: t.online("scale1") is False, what="scale1 offline")
        reason = t.states("scale1")[-1][1]
        assert "not answering" in reason and "within 0.5 s" in reason
        polled = len(t.values("scale1_weight"))
        message = await _fails(t, "scale1_weight", ErrorCode.TIMEOUT)
        assert "scale1 did not answer 'W\\r\\n' within 0.5 s" in message
        assert len(t.values("scale1_weight")) == polled  # nothing fresh while it is silent
        sim.slow("scale1", 0)
        await until(lambda: t.online("scale1") is True, what="scale1 answering again")
        await until(lambda: len(t.values("scale1_weight")) > polled, what="polls again")


async def test_a_late_answer_is_not_taken_for_the_next_question(start_sim: StartSim,
                                                                 by_id: Path) -> None:
    sim, path = start_sim(plant({"scale1": _quiet_scale(by_id / "usb-scale1")}))
    async with ToolUnderTest(path) as t:
        await _first_poll(t)
        asked = len(sim.received("scale1"))
        sim.slow("scale1", 0.8)  # answers 12.34, but 0.3 s after the 0.5 s timeout
        await _fails(t, "scale1_weight", ErrorCode.TIMEOUT)
        sim.slow("scale1", 0)
        sim.set("scale1", "20")
        assert (await t.read("scale1_weight"))["value"] == 20.0  # not the late 12.34
        assert sim.received("scale1")[asked:] == ["W", "W"]  # asked twice, answered twice


async def test_a_line_read_just_before_a_question_is_not_its_answer(
        start_sim: StartSim, by_id: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the reader thread has read a stray line and not yet handed it to the loop when a question
    # goes out: the line reaches the loop after the question was sent, yet it came before it
    gate = ReadGate.install(monkeypatch)
    sim, path = start_sim(plant({"scale1": _quiet_scale(by_id / "usb-scale1")}))
    async with ToolUnderTest(path) as t:
        device = t.tool.devices["scale1"]
        await _first_poll(t)
        stale = b"ST,GS,+099.99 kg\r\n"
        gate.arm(len(stale))
        sim.push("scale1", stale)
        await until(gate.holding.is_set, what="the reader holding the stray line")
        assert (await t.read("scale1_weight"))["value"] == 12.34
        assert gate.held == stale
        assert device.strays == 1  # seen, and counted as unasked


async def test_an_unasked_line_is_not_an_answer(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({"scale1": _quiet_scale(by_id / "usb-scale1")}))
    async with ToolUnderTest(path) as t:
        device = t.tool.devices["scale1"]
        await _first_poll(t)
        sim.push("scale1", b"ST,GS,+099.99 kg\r\n")
        await until(lambda: device.strays == 1, what="the stray line")
        assert (await t.read("scale1_weight"))["value"] == 12.34
