"""`scan`: which unit ids answer on a link and what their registers hold, against a simulator
built from the shipped profiles; bounded in time and requests; polling goes on meanwhile."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import BadRequest, ErrorCode, ToolError
from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import load, running_tool, simulating
from tests.tools.modbus.test_profiles import _hold_still, _plant

CTX: dict[str, Any] = {"deadline_s": 60.0}


async def test_scan_finds_the_units_behind_a_gateway_and_reads_their_ranges(
        tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        _hold_still(sim)
        await sim.set("meter_1_voltage", 229.5)
        answer = await t.tool.scan({"device": "meter_1", "units": [1, 2, 3, 4, 5, 6, 7],
                                    "ranges": [{"table": "input", "address": 0,
                                                "count": 8}]}, CTX)
    assert answer["complete"] is True and answer["stopped"] is None
    assert answer["link"] == f"127.0.0.1:{config.devices['meter_1'].params['port']} " \
                             "(rtu_over_tcp)"
    assert [(f["unit"], f.get("device")) for f in answer["found"]] == \
        [(1, "meter_1"), (2, "meter_2"), (3, "drive"), (4, "oven")]
    assert answer["silent"] == [5, 6, 7]
    meter = answer["found"][0]
    assert meter["answer"] == "ok" and meter["latency_ms"] >= 0
    regs = meter["ranges"]
    assert regs[0]["table"] == "input" and regs[0]["address"] == 0 and regs[0]["count"] == 8
    volts = struct.unpack(">f", struct.pack(">HH", *regs[0]["registers"][:2]))[0]
    assert volts == pytest.approx(229.5)  # the meter's voltage, float32 high word first
    # the drive and the oven have input registers only as far as the simulator serves them:
    # each answered, with values or with the exception a real device gives
    assert all(f["ranges"] for f in answer["found"])
    assert answer["requests"] == 7 + 4  # a probe per unit, one range read per device found


async def test_a_hole_in_a_range_is_found_register_by_register(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        await sim.fail("drive", 2, "holding", 12, 3)  # 12, 13, 14: no such registers
        answer = await t.tool.scan({"device": "drive", "units": [3], "block": 10,
                                    "ranges": [{"table": "holding", "address": 0,
                                                "count": 20}]}, CTX)
    runs = [(r["address"], r["count"], r.get("error")) for r in answer["found"][0]["ranges"]]
    assert runs == [(0, 12, None), (12, 3, "exception 2 (illegal data address)"),
                    (15, 5, None)]


async def test_a_scan_stops_at_its_limits_and_says_where(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    async with simulating(config), running_tool(config, start=False) as t:
        answer = await t.tool.scan({"device": "meter_1", "units": list(range(1, 248)),
                                    "max_requests": 5}, CTX)
        assert answer["complete"] is False and answer["requests"] == 5
        assert answer["stopped"] == "request limit of 5 reached" and answer["next_unit"] == 6
        loop = asyncio.get_running_loop()
        started = loop.time()
        answer = await t.tool.scan({"device": "meter_1", "units": list(range(10, 248)),
                                    "timeout_ms": 100, "time_limit_s": 1.0}, CTX)
        took = loop.time() - started
        assert answer["complete"] is False and "time limit of 1 s" in answer["stopped"]
        assert answer["next_unit"] == 10 + len(answer["silent"])  # resumable from there
        assert took < 1.5  # 238 silent units at 100 ms would take 24 s
        # the request's own deadline bounds it too, with time left to answer
        answer = await t.tool.scan({"device": "meter_1", "units": list(range(10, 248)),
                                    "timeout_ms": 100}, {"deadline_s": 0.8})
        assert answer["stopped"] == "the request's own timeout was near"


async def test_polling_goes_on_while_a_link_is_scanned(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: t.values("oven_pv"), what="polled")
        before = len(t.values("oven_pv"))
        answer = await t.tool.scan({"device": "oven", "units": list(range(10, 30)),
                                    "timeout_ms": 150}, CTX)
        assert answer["silent"] == list(range(10, 30)) and answer["complete"]
        # 20 silent probes held the line 3 s in all, 150 ms at a time; the oven (200 ms polls)
        # was polled between them, not after them
        assert len(t.values("oven_pv")) - before >= 6
        assert all(s["online"] for d in config.devices for s in t.states(d))
        # a scan never touches a configured device's health
        await sim.drop("meter_2")
        answer = await t.tool.scan({"device": "meter_1", "units": [2]}, CTX)
        assert answer["silent"] == [2]


async def test_one_scan_per_link_at_a_time(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    async with simulating(config), running_tool(config, start=False) as t:
        slow = asyncio.create_task(t.tool.scan({"device": "meter_1",
                                                "units": list(range(10, 20)),
                                                "timeout_ms": 100}, CTX))
        await asyncio.sleep(0.05)
        with pytest.raises(ToolError) as caught:
            await t.tool.scan({"device": "oven", "units": [4]}, {"deadline_s": 0.3})
        assert caught.value.code == ErrorCode.BUSY
        assert "already running" in caught.value.message
        # with time enough, the second waits its turn
        second = await t.tool.scan({"device": "oven", "units": [4]}, CTX)
        assert (await slow)["complete"] and second["found"][0]["device"] == "oven"


async def test_scanning_a_link_that_is_down_says_so(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)  # nothing serves it
    async with running_tool(config, start=False) as t:
        with pytest.raises(ToolError) as caught:
            await t.tool.scan({"device": "meter_1", "units": [1, 2]}, CTX)
    assert caught.value.code == ErrorCode.DEVICE_OFFLINE
    assert "cannot scan 127.0.0.1:" in caught.value.message and "refused" in \
        caught.value.message


async def test_broadcast_and_reserved_unit_ids_are_not_probed_on_rtu_links(tmp_path: Path) -> None:
    config = load(_plant(free_port()), tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        with pytest.raises(BadRequest, match=r"unit ids on a rtu_over_tcp link are 1\.\.247, "
                                             r"not 0, 248"):
            await t.tool.scan({"device": "meter_1", "units": [0, 1, 248]}, CTX)
        assert sim.status()["meter_1"]["requests"].get("read", 0) == 0  # nothing was sent
