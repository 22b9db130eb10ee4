"""Query/response points against the simulated scale and controller: values, polling, concurrency."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.support.until import until
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import SCALE_PATTERN, ToolUnderTest, plant, scale


def _scale_points() -> dict[str, object]:
    return {
        "scale1_weight": {"query": "W\r\n", "pattern": SCALE_PATTERN, "type": "float",
                          "unit": "kg"},
        "scale1_grams": {"query": "W\r\n", "pattern": SCALE_PATTERN, "type": "float",
                         "scale": 1000, "unit": "g"},
        "scale1_stable": {"query": "W\r\n", "pattern": "^(?P<value>ST|US),", "type": "bool",
                          "true_text": "ST", "false_text": "US"},
        "scale1_status": {"query": "W\r\n", "pattern": "^(?P<value>[A-Z]{2}),", "type": "string"},
        "scale1_kg_int": {"query": "W\r\n", "pattern": r"(?P<value>[-+]?\d+)\.\d+\s*kg",
                          "type": "int", "offset": 100},
    }


async def test_query_answers_are_typed_and_scaled(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({"scale1": scale(by_id / "usb-scale1",
                                                 points=_scale_points())}))
    async with ToolUnderTest(path) as t:
        await until(lambda: t.online("scale1"), what="scale1 online")
        assert (await t.read("scale1_weight"))["value"] == 12.34
        assert (await t.read("scale1_grams"))["value"] == 12340.0
        assert (await t.read("scale1_stable"))["value"] is True
        assert (await t.read("scale1_status"))["value"] == "ST"
        whole = (await t.read("scale1_kg_int"))["value"]
        assert whole == 112 and isinstance(whole, int)
        sim.set("scale1", "-3.5")
        assert (await t.read("scale1_weight"))["value"] == -3.5
    assert "W" in sim.received("scale1")


async def test_polling_refreshes_timestamps_and_reports_the_device(start_sim: StartSim,
                                                                   by_id: Path) -> None:
    _, path = start_sim(plant({"scale1": scale(by_id / "usb-scale1")}))
    async with ToolUnderTest(path) as t:
        polled = await until(lambda: len(t.values("scale1_weight")) >= 3 and
                             t.values("scale1_weight"), what="three polls")
        stamps = [ts for _, _, ts in polled]
        assert [v for _, v, _ in polled][:3] == [12.34] * 3
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)  # refreshed each time
        assert t.states("scale1")[0] == (True, "")


async def test_two_ports_do_not_delay_each_other(start_sim: StartSim, by_id: Path) -> None:
    slow_port, fast_port = by_id / "usb-scale1", by_id / "usb-ctl1"
    sim, path = start_sim(plant({
        "scale1": scale(slow_port, timeout="2s", poll_interval="100ms"),
        "ctl1": {"driver": "serial", "port": str(fast_port), "baudrate": 115200,
                 "timeout": "2s", "poll_interval": "100ms",
                 "points": {"oven_temp": {"query": "PV?\r\n",
                                          "pattern": r"PV=(?P<value>[-+]?[\d.]+)"}}},
    }))
    sim.slow("scale1", 0.8)
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("oven_temp"), what="first controller poll")
        start = len(t.values("oven_temp")), len(t.values("scale1_weight"))
        finished: list[str] = []

        async def read(point: str) -> None:
            await t.read(point)
            finished.append(point)

        await asyncio.gather(read("scale1_weight"), read("oven_temp"))
        # the controller answered while the scale was still thinking, and kept being polled
        assert finished == ["oven_temp", "scale1_weight"]
        fast = len(t.values("oven_temp")) - start[0]
        slow = len(t.values("scale1_weight")) - start[1]
        assert fast > 2 * max(slow, 1), (fast, slow)


# pyserial 3.5's rfc2217 client calls Thread.setDaemon()/setName(), deprecated since Python 3.10
@pytest.mark.filterwarnings("ignore:set(Daemon|Name)\\(\\) is deprecated:DeprecationWarning")
@pytest.mark.parametrize("scheme", ["socket", "rfc2217"])
async def test_questions_over_url_ports_that_cannot_cancel_a_read(
        start_sim: StartSim, scheme: str, unused_tcp_port: int) -> None:
    # these backends have no cancel_read(): the discard before each question waits for the
    # reader's short read slice instead, and a stray line before it is still not the answer
    sim, path = start_sim(plant({"scale1": scale(f"{scheme}://127.0.0.1:{unused_tcp_port}",
                                                 poll_interval="1h")}))
    async with ToolUnderTest(path) as t:
        device = t.tool.devices["scale1"]
        await until(lambda: t.values("scale1_weight"), what="the first poll")
        for n in range(1, 4):
            sim.push("scale1", b"ST,GS,+099.99 kg\r\nhalf a li")
            await until(lambda: device.strays == n, what="the stray line")  # noqa: B023
            assert (await t.read("scale1_weight"))["value"] == 12.34
        assert device.discarded >= 3  # some of each unfinished line, read or not
