"""Bus diagnostics of the Modbus tool against the simulator's pymodbus server: what each device
did on the wire — requests, exceptions by code, timeouts, reconnects, latency — counted from
real exchanges, and sent to hermesd as `diagnostics` events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import load, running_tool, simulating, tcp_device

CTX: dict[str, Any] = {}


async def _bus(t: Any, device: str = "plc") -> dict[str, Any]:
    return (await t.tool.status({}, CTX))["devices"][device]["bus"]  # type: ignore[no-any-return]


async def test_requests_exceptions_and_latency_are_counted_per_device(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port()), "other": tcp_device(free_port(), prefix="o_")},
                  tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: len(t.values("speed")) >= 3, what="three polls")
        bus = await _bus(t)
        assert bus["requests"] >= 3 * 4 and bus["timeouts"] == bus["reconnects"] == 0
        assert bus["exceptions"] == {}
        latency = bus["latency"]
        assert latency["count"] == bus["requests"] == sum(latency["buckets"])
        assert 0 < latency["sum_s"] < bus["requests"] * 0.3  # each within the timeout

        # a register the PLC does not have: a real "illegal data address" from the server
        with pytest.raises(HermesError) as caught:
            await t.tool.read_registers({"device": "plc", "table": "holding",
                                         "address": 60000}, CTX)
        assert caught.value.code == ErrorCode.UNKNOWN_POINT
        assert (await _bus(t))["exceptions"] == {"2": 1}
        await sim.fail("plc", 6)  # "server device busy" to every request, for a few polls
        await until(lambda: t.tool.devices["plc"].diagnostics.exceptions[6] >= 3,
                         what="three busy answers")
        await sim.fail("plc", 0)
        bus = await _bus(t)
        assert bus["exceptions"]["2"] == 1 and bus["exceptions"]["6"] >= 3
        # exception replies are answers: they are timed too (every request, once it is
        # answered: a poll may be on the wire as the status is read)
        diagnostics = t.tool.devices["plc"].diagnostics
        await until(lambda: diagnostics.latency.n == diagnostics.requests,
                    what="every request answered and timed")
        assert (await _bus(t, "other"))["exceptions"] == {}  # each device its own

        # sent to hermesd, with the tool run they belong to
        events = [e.data for e in t.events if e.kind == "diagnostics"]
        assert events and all(e["started"] == t.tool.started for e in events)


async def test_timeouts_and_reconnects_of_a_plc_that_goes_quiet_then_restarts(
        tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: t.states("plc"), what="online")
        await sim.drop("plc")  # stops answering, connection left open
        await until(lambda: t.tool.devices["plc"].diagnostics.timeouts >= 3,
                         what="three timeouts")
        await sim.restore("plc")
        await until(lambda: len(t.states("plc")) == 3, what="online again")
        bus = await _bus(t)
        assert bus["timeouts"] >= 3
        # two silent requests in a row close the connection: answering again took a new one
        assert bus["reconnects"] == 1
        assert bus["requests"] == bus["latency"]["count"] + bus["timeouts"]

        await sim.drop("plc", "refuse")  # the PLC restarts: the connection is gone
        await until(lambda: len(t.states("plc")) == 4, what="offline")
        await sim.restore("plc")
        await until(lambda: len(t.states("plc")) == 5, what="back")
        assert (await _bus(t))["reconnects"] == 2


async def test_counters_run_on_across_a_reload(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config), running_tool(config) as t:
        await until(lambda: len(t.values("speed")) >= 2, what="two polls")
        before = (await _bus(t))["requests"]
        await t.configure(config)
        assert (await _bus(t))["requests"] >= before
