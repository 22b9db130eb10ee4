"""A raw write through a second name of a configured PLC never reaches a point's registers.

hermesd's config check sees every spelling of a host the system connects without DNS, and its
policy refuses a raw write to the registers of a point of the device written to. A name only a
resolver knows (a DNS alias of the PLC) is a second device to both; the tool, which connects to
it, asks the resolver at the write and refuses when the two are one unit of one place. Here
"localhost" beside "127.0.0.1" stands in for such a name: the config check would have refused
it, so the tool is configured as hermesd would configure it had the check not seen it."""

from __future__ import annotations

import asyncio
import copy
import time
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.modbus.places import RESOLVE_S

from hermesd.core.errors import ErrorCode, HermesError
from hermesd.toolspecs import tool_specs
from tests.support.ports import free_port
from tests.tools.modbus.plant import ToolUnderTest, load, simulating, tcp_device

CTX: dict[str, Any] = {}


def _with_alias(config: Any, host: str, unit: int = 1) -> dict[str, Any]:
    """The tool's config, with a device "alias" of no points at `host` beside "plc"."""
    sent = copy.deepcopy(tool_specs(config)["modbus"].config)
    alias = {**copy.deepcopy(sent["devices"]["plc"]), "id": "alias", "host": host,
             "unit": unit, "points": {}}
    sent["devices"]["alias"] = alias
    return sent


async def _tool(sent: dict[str, Any]) -> ToolUnderTest:
    tut = ToolUnderTest()
    await tut.tool.configure(sent)
    return tut


@pytest.mark.parametrize("host", ["localhost", "::ffff:127.0.0.1"])
async def test_a_second_name_of_the_plc_writes_no_point_register(tmp_path: Path,
                                                                 host: str) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim:
        tut = await _tool(_with_alias(config, host))
        try:
            before = await sim.value("speed")
            with pytest.raises(HermesError) as caught:
                await tut.tool.write_registers({"device": "alias", "table": "holding",
                                                "address": 10, "values": [9999]}, CTX)
            assert caught.value.code == ErrorCode.FORBIDDEN
            assert "the point speed of plc" in caught.value.message, caught.value.message
            assert await sim.value("speed") == before  # nothing reached the PLC
            # a span that only ends on the point's register is refused too
            with pytest.raises(HermesError):
                await tut.tool.write_registers({"device": "alias", "table": "holding",
                                                "address": 9, "values": [1, 2]}, CTX)
            # a register no point holds may still be written raw, through either name
            written = await tut.tool.write_registers({"device": "alias", "table": "holding",
                                                      "address": 15, "values": [7]}, CTX)
            assert written["confirmed"] is True
        finally:
            await tut.stop()


async def test_another_unit_of_the_place_is_not_guarded(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config):
        tut = await _tool(_with_alias(config, "localhost", unit=2))
        try:
            # unit 2 of the same place has no points: its registers are its own (the simulator
            # has no unit 2, so the write is answered by the link, never refused as a point's)
            with pytest.raises(HermesError) as caught:
                await tut.tool.write_registers({"device": "alias", "table": "holding",
                                                "address": 10, "values": [5]}, CTX)
            assert caught.value.code != ErrorCode.FORBIDDEN, caught.value.message
        finally:
            await tut.stop()


async def test_a_name_the_resolver_does_not_answer_holds_no_raw_write_long(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A resolver that does not answer (a DNS server away: it cannot be set up here, so the
    loop's lookup stands in for it) stops no raw write for more than the guard's second, and
    its lookups are shared, not started again by each write (atk29: a write had hung 20 s,
    and each cut lookup had held one of the tool's threads)."""
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim:
        tut = await _tool(_with_alias(config, "plc-b.plant.invalid"))
        loop = asyncio.get_running_loop()
        resolve, asked = loop.getaddrinfo, []

        async def away(host: str, *args: Any, **kwargs: Any) -> Any:
            asked.append(host)
            if host.endswith(".invalid"):
                await asyncio.Event().wait()  # never answered
            return await resolve(host, *args, **kwargs)

        monkeypatch.setattr(loop, "getaddrinfo", away)
        try:
            before = await sim.value("speed")
            for _ in range(3):
                started = time.monotonic()
                with pytest.raises(HermesError) as caught:
                    await tut.tool.write_registers({"device": "alias", "table": "holding",
                                                    "address": 10, "values": [9999]}, CTX)
                assert caught.value.code == ErrorCode.DEVICE_OFFLINE, caught.value.message
                assert "did not resolve within 1 s" in caught.value.message
                assert time.monotonic() - started < RESOLVE_S + 1.0
            assert asked.count("plc-b.plant.invalid") == 1
            assert await sim.value("speed") == before
        finally:
            await tut.stop()
