"""Streamed points: the latest matching line is the value, events are rate limited, URLs work."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from tests.support.until import until
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import ToolUnderTest, plant


def gas_meter(port: Path, **extra: Any) -> dict[str, Any]:
    dev: dict[str, Any] = {
        "driver": "serial", "port": str(port), "timeout": "500ms",
        "points": {
            "gas_flow": {"pattern": r"F:(?P<value>[-+]?[\d.]+) m3/h", "unit": "m3/h",
                         "min_event_interval": "300ms", "max_age": "1s"},
            "gas_total": {"pattern": r"T:(?P<value>[\d.]+) m3", "unit": "m3",
                          "min_event_interval": "300ms", "max_age": "1s"}}}
    dev.update(extra)
    return dev


async def test_streamed_lines_update_values_at_a_limited_rate(start_sim: StartSim,
                                                             by_id: Path) -> None:
    sim, path = start_sim(plant({"gas1": gas_meter(by_id / "usb-gas1")}), "--period", "gas1=0.05")
    async with ToolUnderTest(path) as t:
        await until(lambda: len(t.values("gas_flow")) >= 4, what="four flow events")
        events = t.values("gas_flow")
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(events)]
        assert all(gap >= 0.29 for gap in gaps), gaps  # ~20 lines/s in, at most ~3 events/s out
        totals = [v for _, v, _ in t.values("gas_total")]
        assert totals == sorted(totals) and totals[0] > 1234  # one line feeds both points
        sim.set("gas1", "20.5")
        await until(lambda: t.values("gas_flow")[-1][1] == 20.5, what="the new flow")
        read = await t.read("gas_flow")
        assert read["value"] == 20.5
        assert t.online("gas1") is True


async def test_a_silent_stream_is_not_served_as_fresh(start_sim: StartSim, by_id: Path) -> None:
    sim, path = start_sim(plant({"gas1": gas_meter(by_id / "usb-gas1")}), "--period", "gas1=0.1")
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("gas_flow"), what="a flow event")
        sim.period("gas1", "off")  # the meter goes quiet; its port stays open
        count = len(t.values("gas_flow"))
        # past max_age (1 s), a read waits for a new line and says it got none
        await until(lambda: _older_than(t, "gas_flow", 1.1), timeout=5, what="flow to age")
        with pytest.raises(HermesError) as caught:
            await t.read("gas_flow")
        assert caught.value.code == ErrorCode.TIMEOUT
        assert "gas1 sent no line for gas_flow" in caught.value.message
        assert len(t.values("gas_flow")) <= count + 1  # at most the trailing rate-limited one


def _older_than(t: ToolUnderTest, point: str, seconds: float) -> bool:
    last = t.values(point)[-1][2]
    return time.time() - last > seconds


async def test_a_barcode_reader_over_a_socket_url(start_sim: StartSim, by_id: Path,
                                                 unused_tcp_port: int) -> None:
    sim, path = start_sim(plant({"reader1": {
        "driver": "serial", "port": f"socket://127.0.0.1:{unused_tcp_port}",
        "points": {"last_barcode": {"pattern": r"^(?P<value>\d{8,14})$", "type": "string",
                                    "min_event_interval": "50ms"}}}}),
        "--period", "reader1=3600")
    async with ToolUnderTest(path) as t:
        await until(lambda: t.online("reader1"), what="reader1 connected")
        sim.set("reader1", "4006381333931")
        await until(lambda: t.values("last_barcode"), what="a scan")
        assert t.values("last_barcode")[-1][1] == "4006381333931"
        sim.set("reader1", "9780201379624")
        await until(lambda: t.values("last_barcode")[-1][1] == "9780201379624", what="scan 2")
        assert (await t.read("last_barcode"))["value"] == "9780201379624"


# pyserial 3.5's rfc2217 client calls Thread.setDaemon()/setName(), deprecated since Python 3.10
@pytest.mark.filterwarnings("ignore:set(Daemon|Name)\\(\\) is deprecated:DeprecationWarning")
async def test_a_gas_meter_over_an_rfc2217_url(start_sim: StartSim, by_id: Path,
                                              unused_tcp_port: int) -> None:
    device = gas_meter(by_id, baudrate=19200)
    device["port"] = f"rfc2217://127.0.0.1:{unused_tcp_port}"
    _, path = start_sim(plant({"gas1": device}), "--period", "gas1=0.1")
    async with ToolUnderTest(path) as t:
        await until(lambda: t.values("gas_flow"), what="flow over RFC 2217")
        assert t.values("gas_flow")[-1][1] == 12.5
        assert (await t.read("gas_total"))["value"] > 1234
