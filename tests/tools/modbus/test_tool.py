"""The Modbus tool in this event loop against the simulator: polling, events, health and
backoff, on-demand reads, writes checked before any bus traffic, raw register access."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.modbus import tool as tool_module
from hermes_tools.modbus.tool import ModbusTool

from hermesd.core.errors import ErrorCode, HermesError, ToolError, UnknownPoint
from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import load, rtu_device, running_tool, simulating, tcp_device

CTX: dict[str, Any] = {}


async def _read(tool: ModbusTool, point: str) -> Any:
    return (await tool.read({"point": point}, CTX))["value"]


async def _error(coro: Any) -> HermesError:
    with pytest.raises(HermesError) as caught:
        await coro
    return caught.value


async def test_poll_sends_every_value_and_refreshes_timestamps(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config), running_tool(config) as t:
        await until(lambda: len(t.values("speed")) >= 3, what="three polls")
        seen = {pid: t.values(pid)[0]["value"] for pid in config.points}
        wandering = {pid: seen.pop(pid) for pid in ("temp", "pressure", "count")}
        assert seen == {"speed": 1200, "conveyor": 24.5, "label": "OK", "ready": False,
                        "running": True, "valve": False}
        assert wandering["temp"] == pytest.approx(523.4, rel=0.02)
        assert wandering["pressure"] == pytest.approx(12.5, rel=0.05)
        assert wandering["count"] >= 1048577
        stamps = [v["ts"] for v in t.values("speed")]
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)  # fresh each poll
        assert {v["value"] for v in t.values("speed")} == {1200}  # unchanged, yet sent
        assert t.states("plc") == [{"device": "plc", "online": True, "reason": "",
                                    "ts": t.states("plc")[0]["ts"]}]
        assert (await t.tool.status({}, CTX))["devices"]["plc"]["blocks"] == 4


@pytest.mark.parametrize(("kind", "no_value"), [("float64", 1e305),
                                               ("float32", 3.4028234663852886e38)])
async def test_a_no_value_marker_is_a_point_error_never_the_last_value_refreshed(
        tmp_path: Path, kind: str, no_value: float) -> None:
    """A float's largest ("no value" on devices with no NaN) read after a real value: it had
    been sent as a value the cache refused, and each later poll found the registers unchanged
    and sent `fresh`, which made the last real value look current for as long as the device
    said "no value" (review atk24s, #3, #4). It is a point error: no value, no `fresh`."""
    device = tcp_device(free_port())
    device["points"]["total"] = {"table": "input", "address": 40, "type": kind}
    config = load({"plc": device}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await sim.set("total", 130.5)
        await until(lambda: any(v["value"] == 130.5 for v in t.sent("total")),
                    what="the real value")
        await sim.set("total", no_value)
        err = await _error(t.tool.read({"point": "total"}, CTX))
        assert err.code == ErrorCode.DEVICE_ERROR and "not a measurement" in err.message
        await until(lambda: "total" in t.tool.devices["plc"].point_errors,
                    what="the poll's point error")
        reported = len(t.values("total"))
        polled = len(t.values("speed"))
        await until(lambda: len(t.values("speed")) >= polled + 3, what="three more polls")
        assert len(t.values("total")) == reported  # nothing, not even `fresh`
        assert all(v["value"] != no_value for v in t.values("total"))


async def test_unchanged_registers_are_reported_fresh_not_sent_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config), running_tool(config) as t:
        await until(lambda: len(t.values("speed")) >= 4, what="four polls")
        assert len(t.sent("speed")) == 1  # decoded and sent once; then named as fresh
        fresh = [v for v in t.values("speed") if v.get("fresh")]
        assert fresh and {v["value"] for v in fresh} == {1200}
        # a request on demand (here a write) gives hermesd a value of its own: the next poll
        # sends every value in full, never `fresh` against a value hermesd no longer holds
        await t.tool.write({"point": "speed", "value": 900}, CTX)
        await until(lambda: len(t.sent("speed")) == 2, what="speed sent again")
        assert t.sent("speed")[-1]["value"] == 900
        assert len(t.sent("conveyor")) == 2  # every value in full after the write
        # and every FULL_EVERY seconds, changed or not
        monkeypatch.setattr(tool_module, "FULL_EVERY", 0.5)
        sent = len(t.sent("conveyor"))
        await until(lambda: len(t.sent("conveyor")) >= sent + 2, what="two full sends")


async def test_offline_at_once_logged_once_backed_off_and_back(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="hermes_tools")
    config = load({"plc": tcp_device(free_port(), backoff_max="1s")}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: t.states("plc"), what="online")
        await sim.drop("plc")
        await until(lambda: len(t.states("plc")) == 2, what="offline")
        off = t.states("plc")[1]
        assert off["online"] is False and off["reason"] == "no answer within 0.3 s"
        err = await _error(t.tool.read({"point": "temp"}, CTX))
        assert err.code == ErrorCode.DEVICE_OFFLINE and "plc is offline since" in err.message
        # alone on its link, a silent unit is tried at its poll interval, one timeout each
        before = sim.status()["plc"]["requests"]["read"]
        started = time.monotonic()
        await until(lambda: (sim.status()["plc"]["requests"]["read"] - before) >= 3,
                         what="three more tries")
        assert time.monotonic() - started > 0.9
        await sim.restore("plc")
        await until(lambda: len(t.states("plc")) == 3, what="online again")
        assert t.states("plc")[2]["online"] is True
        assert await _read(t.tool, "speed") == 1200
    # hermesd logs the outage from the one `device` event; the tool only at debug, once
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("stopped answering" in r.getMessage() for r in caplog.records) == 1
    assert sum("answering again" in r.getMessage() for r in caplog.records) == 1
    assert [s["online"] for s in t.states("plc")] == [True, False, True]


async def test_a_plc_restart_is_probed_at_the_poll_interval_quietly(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Connection refused for many polls, then the same port listens again: the tool keeps
    probing at its poll interval (backoff_max 30 s is not reached for), logs nothing per try,
    and sends fresh values on the first poll that connects."""
    caplog.set_level(logging.DEBUG, logger="hermes_tools")
    config = load({"plc": tcp_device(free_port())}, tmp_path)  # poll 200 ms, backoff_max 30 s
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: t.states("plc"), what="online")
        await sim.drop("plc", "refuse")
        await until(lambda: len(t.states("plc")) == 2, what="offline")
        assert t.states("plc")[1]["reason"].endswith("connection refused")
        dev = t.tool.devices["plc"]
        # doubling from 0.2 s, an eighth failure would wait 25.6 s; a probe is due within a poll
        await until(lambda: dev.health.failures >= 8, timeout=20, what="eight probes")
        status = (await t.tool.status({}, CTX))["devices"]["plc"]
        assert status["online"] is False and status["retry_in_s"] <= 0.2
        def ours() -> int:  # pymodbus's own lines reach caplog; in the tool `bus` takes them
            return sum(r.name.startswith("hermes_tools") for r in caplog.records)

        logged = ours()
        await until(lambda: dev.health.failures >= 12, timeout=20, what="four more probes")
        assert ours() == logged  # a failed probe writes no line, not even at debug
        assert dev.health.reason.endswith("connection refused")  # said every time, not once
        await sim.restore("plc")
        back = time.time()
        await until(lambda: len(t.states("plc")) == 3, what="online again")
        await until(lambda: any(v["ts"] >= back for v in t.values("speed")),
                         what="a fresh value")
    assert not [r for r in caplog.records
                if r.levelno >= logging.WARNING and r.name.startswith("hermes_tools")]
    assert [s["online"] for s in t.states("plc")] == [True, False, True]


async def test_dead_unit_on_a_shared_rtu_bus_does_not_stop_the_others(tmp_path: Path) -> None:
    path = tmp_path / "rs485"
    config = load({"a": rtu_device(path, 1, "a_"), "b": rtu_device(path, 2, "b_"),
                   "c": rtu_device(path, 3, "c_")}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: all(t.states(d) for d in "abc"), what="all online")
        await sim.drop("b")
        await until(lambda: len(t.states("b")) == 2, what="b offline")
        counted = {d: len(t.values(f"{d}_speed")) for d in "ac"}
        tried = sim.status()["b"]["requests"]["read"]
        await until(lambda: all(len(t.values(f"{d}_speed")) >= counted[d] + 15
                                     for d in "ac"), timeout=20, what="a and c polled on")
        # the dead unit is asked once per backoff step (0.2, 0.4, 0.8, 1.6 s ...), not once per
        # poll: it costs the bus a timeout now and then, and a and c go on meanwhile
        assert sim.status()["b"]["requests"]["read"] - tried < 10
        assert t.states("a")[-1]["online"] and t.states("c")[-1]["online"]
        assert not t.states("b")[-1]["online"]


async def test_on_demand_read_of_every_type(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        for pid in config.points:
            value = await _read(t.tool, pid)
            now = await sim.value(pid)  # read-only values wander (every 0.5 s) meanwhile
            if pid == "count":
                assert 0 <= now - value <= 5
            elif pid in ("temp", "pressure"):
                assert value == pytest.approx(now, rel=0.02), pid
            else:
                assert value == now, pid
        with pytest.raises(UnknownPoint):
            await t.tool.read({"point": "nope"}, CTX)


async def test_exception_2_in_a_block_splits_it_and_names_the_register(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        await sim.fail("plc", 2, table="holding", address=11, count=1)
        dev = t.tool.devices["plc"]
        assert await t.tool.poll(dev) == len(config.points) - 1  # all but conveyor
        assert dev.point_errors["conveyor"] == ("plc answered exception 2 (illegal data address) "
                                                "for holding register 40012 (address 11)")
        await t.tool.poll(dev)
        assert sum("cannot be read" in r.getMessage() for r in caplog.records) == 1
        err = await _error(t.tool.read({"point": "conveyor"}, CTX))
        assert err.code == ErrorCode.UNKNOWN_POINT
        assert err.message == ("plc has no holding register 40012 (address 11): it answered "
                               "exception 2 (illegal data address)")
        assert t.states("plc")[-1]["online"] is True  # the device itself is fine


@pytest.mark.parametrize(("code", "expected", "retryable"), [
    (1, ErrorCode.DEVICE_ERROR, False), (3, ErrorCode.DEVICE_ERROR, False),
    (4, ErrorCode.DEVICE_OFFLINE, False), (6, ErrorCode.BUSY, True)])
async def test_exception_codes_map_to_documented_errors(tmp_path: Path, code: int,
                                                        expected: ErrorCode,
                                                        retryable: bool) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        await sim.fail("plc", code, table="input")
        err = await _error(t.tool.read({"point": "temp"}, CTX))
        assert isinstance(err, ToolError)
        assert err.code == expected and err.retryable is retryable
        assert f"exception {code}" in err.message and "input registers 30001..30002" in err.message


@pytest.mark.parametrize(("code", "expected"), [
    (4, ErrorCode.NOT_CONFIRMED), (11, ErrorCode.NOT_CONFIRMED), (10, ErrorCode.DEVICE_OFFLINE),
    (3, ErrorCode.OUT_OF_RANGE)])
async def test_exceptions_to_a_write_say_whether_it_may_be_done(tmp_path: Path, code: int,
                                                                 expected: ErrorCode) -> None:
    """4 (the device failed carrying it out) and 11 (a gateway's target did not answer it) to a
    write: it may have been done, as after a timeout; never "offline" (review atk24s, #7)."""
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        await sim.fail("plc", code, table="holding")
        err = await _error(t.tool.write({"point": "speed", "value": 900}, CTX))
        assert isinstance(err, ToolError)
        assert err.code == expected, err.message
        assert f"exception {code}" in err.message


async def test_writes_are_checked_before_any_bus_traffic(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        bad: list[tuple[dict[str, Any], ErrorCode]] = [
               ({"point": "speed", "value": 1501}, ErrorCode.OUT_OF_RANGE),
               ({"point": "speed", "value": -1}, ErrorCode.OUT_OF_RANGE),
               ({"point": "speed", "value": "fast"}, ErrorCode.OUT_OF_RANGE),
               ({"point": "speed", "value": True}, ErrorCode.OUT_OF_RANGE),
               ({"point": "conveyor", "value": 24.55}, ErrorCode.OUT_OF_RANGE),
               ({"point": "temp", "value": 20.0}, ErrorCode.NOT_WRITABLE),
               ({"point": "valve", "value": 1}, ErrorCode.OUT_OF_RANGE)]
        for args, code in bad:
            err = await _error(t.tool.write(args, CTX))
            assert err.code == code, args
        assert sim.status()["plc"]["requests"] == {}  # not one request of any kind


async def test_write_is_read_back(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        for pid, value in (("speed", 900), ("conveyor", 12.3), ("valve", True), ("ready", True)):
            result = await t.tool.write({"point": pid, "value": value}, CTX)
            assert result["confirmed"] is True and result["value"] == value
            assert await sim.value(pid) == value
        assert await sim.value("speed") == 900  # the bit write kept its neighbours
        await t.tool.write({"point": "ready", "value": False}, CTX)
        assert await sim.value("ready") is False


async def test_a_float32_write_is_answered_with_what_the_register_holds(
        tmp_path: Path) -> None:
    """520.123456789 written to a float32 is 520.1234741 in the PLC; the write had answered
    the value asked for, which the cache and Home Assistant then showed (review atk20s, #19)."""
    import struct

    setpoint = {"table": "holding", "address": 50, "type": "float32", "writable": True,
                "min": 0, "max": 600}
    config = load({"plc": tcp_device(free_port(), points={"sp": setpoint})}, tmp_path)
    # what the register holds, to a float32's 7 significant digits (as every poll reads it)
    held = float(f'{struct.unpack(">f", struct.pack(">f", 520.123456789))[0]:.7g}')
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        result = await t.tool.write({"point": "sp", "value": 520.123456789}, CTX)
        assert result["confirmed"] is True
        assert result["value"] == held != 520.123456789
        assert await sim.value("sp") == held


async def test_write_the_device_does_not_keep_is_not_confirmed(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        await sim.stick("plc")
        result = await t.tool.write({"point": "speed", "value": 900}, CTX)
        assert result["confirmed"] is False and result["value"] == 900
        # hermesd's cache is told what the device holds, after the write's own timestamp
        (seen,) = t.values("speed")
        assert seen["value"] == 1200 and seen["ts"] > result["ts"]
        raw = await t.tool.write_registers({"device": "plc", "table": "coil", "address": 1,
                                            "values": [True]}, CTX)
        assert raw["confirmed"] is False and raw["bits"] == [False]


async def test_write_to_a_silent_device_says_it_may_not_have_happened(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        await sim.drop("plc")
        err = await _error(t.tool.write({"point": "speed", "value": 5}, CTX))
        # sent and unanswered: it may have been done, so not "offline" (review atk20s, #10)
        assert err.code == ErrorCode.NOT_CONFIRMED and "may or may not" in err.message
        err = await _error(t.tool.write({"point": "speed", "value": 6}, CTX))
        assert err.code == ErrorCode.DEVICE_OFFLINE  # backed off: this one was not sent
        assert "next try in" in err.message
        assert sim.status()["plc"]["requests"]["write"] == 1


async def test_raw_register_access(tmp_path: Path) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        tool = t.tool
        got = await tool.read_registers({"device": "plc", "table": "holding", "address": 10,
                                         "count": 2}, CTX)
        assert got["registers"] == [1200, 245]
        assert got["registers_text"] == "holding registers 40011..40012 (address 10..11)"
        got = await tool.read_registers({"device": "plc", "table": "input", "address": 0,
                                         "type": "float32"}, CTX)
        assert got["value"] == 523.4 and got["count"] == 2
        got = await tool.read_registers({"device": "plc", "table": "coil", "address": 0,
                                         "count": 3}, CTX)
        assert got["bits"] == [False, False, False]
        written = await tool.write_registers({"device": "plc", "table": "holding",
                                              "address": 10, "values": [1000, 100]}, CTX)
        assert written["confirmed"] is True and written["registers"] == [1000, 100]
        assert await sim.value("speed") == 1000 and await sim.value("conveyor") == 10.0
        written = await tool.write_registers({"device": "plc", "table": "holding", "address": 20,
                                              "value": 70000, "type": "uint32"}, CTX)
        assert written["confirmed"] and await sim.value("count") == 70000
        await tool.write_registers({"device": "plc", "table": "coil", "address": 1,
                                    "values": [True]}, CTX)
        assert await sim.value("valve") is True
        err = await _error(tool.read_registers({"device": "plc", "table": "holding",
                                                "address": 60000}, CTX))
        assert err.code == ErrorCode.UNKNOWN_POINT
        assert err.message.startswith("plc has no holding register 460001 (address 60000)")


@pytest.mark.parametrize(("args", "message"), [
    ({"device": "plc9", "table": "holding", "address": 0}, "no modbus device named 'plc9'"),
    ({"device": "plc", "table": "holding", "address": 0, "count": 126}, "outside 1..125"),
    ({"device": "plc", "table": "holding", "address": 65535, "count": 2}, "runs past 65535"),
    ({"device": "plc", "table": "coil", "address": 0, "type": "float32"}, "single bits"),
    ({"device": "plc", "table": "holding", "address": 0, "type": "float32", "count": 3},
     "occupies 2 registers, not 3"),
])
async def test_raw_reads_refuse_bad_arguments(tmp_path: Path, args: dict[str, Any],
                                              message: str) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        err = await _error(t.tool.read_registers(args, CTX))
        assert err.code == ErrorCode.BAD_REQUEST and message in err.message
        assert sim.status()["plc"]["requests"] == {}


@pytest.mark.parametrize(("args", "message"), [
    ({"table": "holding", "address": 0}, "exactly one of"),
    ({"table": "holding", "address": 0, "values": [70000]}, "0..65535"),
    ({"table": "holding", "address": 0, "values": [True]}, "0..65535"),
    ({"table": "coil", "address": 0, "values": [1]}, "true or false"),
    ({"table": "holding", "address": 0, "value": 5}, "needs its `type`"),
    ({"table": "holding", "address": 0, "values": list(range(124))}, "1..123"),
    ({"table": "input", "address": 0, "values": [1]}, "read-only"),
])
async def test_raw_writes_refuse_bad_arguments(tmp_path: Path, args: dict[str, Any],
                                               message: str) -> None:
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config, start=False) as t:
        err = await _error(t.tool.write_registers({"device": "plc", **args}, CTX))
        assert err.code == ErrorCode.BAD_REQUEST and message in err.message
        assert sim.status()["plc"]["requests"] == {}


async def test_reconfigure_keeps_the_link_and_what_it_knows(tmp_path: Path) -> None:
    port = free_port()
    config = load({"plc": tcp_device(port)}, tmp_path)
    async with simulating(config), running_tool(config) as t:
        await until(lambda: t.states("plc"), what="online")
        bus = t.tool.devices["plc"].bus
        fewer = load({"plc": {**tcp_device(port), "poll_interval": "100ms"}}, tmp_path)
        summary = await t.configure(fewer)
        assert summary["devices"] == 1
        assert t.tool.devices["plc"].bus is bus
        assert t.tool.devices["plc"].health.online is True
        count = len(t.values("speed"))
        await until(lambda: len(t.values("speed")) > count + 2, what="polls go on")
        assert len(t.states("plc")) == 1  # no second "online"


async def test_reconfigure_closes_links_nobody_uses(tmp_path: Path) -> None:
    ports = free_port(), free_port()
    both = load({"one": tcp_device(ports[0], prefix="a_"), "two": tcp_device(ports[1])},
                tmp_path)
    async with simulating(both), running_tool(both) as t:
        await until(lambda: t.states("one") and t.states("two"), what="both online")
        gone = t.tool.devices["two"].bus
        await t.configure(load({"one": tcp_device(ports[0], prefix="a_")}, tmp_path))
        await until(lambda: gone._client is None, what="the unused link closed")
        assert list(t.tool.devices) == ["one"]
        count = len(t.values("a_speed"))
        await until(lambda: len(t.values("a_speed")) > count + 2, what="one polled on")


async def test_writes_to_parts_of_one_register_never_undo_each_other(tmp_path: Path) -> None:
    """A bit, a byte and a field of one register, written many times at once: each write
    reads the register, merges its own bits and writes it back, one at a time per register,
    so the register ends holding every last value (without that, a write merged into a value
    read before another's write would put the other's old bits back)."""
    device = tcp_device(free_port())
    device["points"] = {
        "flag": {"table": "holding", "address": 5, "type": "bool", "bit": 15, "writable": True},
        "stage": {"table": "holding", "address": 5, "mask": 0x0F00, "writable": True,
                  "min": 0, "max": 15},
        "level": {"table": "holding", "address": 5, "type": "uint8", "byte": "low",
                  "writable": True, "min": 0, "max": 255},
    }
    config = load({"plc": device}, tmp_path)
    async with simulating(config), running_tool(config, start=False) as t:
        for round_ in range(5):
            flag, stage, level = bool(round_ % 2), round_ + 3, 17 * round_ + 1
            results = await asyncio.gather(
                t.tool.write({"point": "flag", "value": flag}, CTX),
                t.tool.write({"point": "stage", "value": stage}, CTX),
                t.tool.write({"point": "level", "value": level}, CTX))
            assert all(r["confirmed"] for r in results), results
            raw = await t.tool.read_registers({"device": "plc", "table": "holding",
                                               "address": 5}, CTX)
            assert raw["registers"] == [(flag << 15) | (stage << 8) | level], round_
        assert await _read(t.tool, "stage") == 7 and await _read(t.tool, "level") == 69
        err = await _error(t.tool.write({"point": "level", "value": 256}, CTX))
        assert err.code == ErrorCode.OUT_OF_RANGE


async def test_a_write_the_plc_acknowledges_to_carry_out_later_is_sent_once(
        tmp_path: Path) -> None:
    """Exception 5 (ACKNOWLEDGE) to a write: the PLC took it and is still at it. It is never
    sent again (hermesd would retry a "busy" write until its deadline); the answer says it
    is not confirmed yet."""
    config = load({"plc": tcp_device(free_port())}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: len(t.values("speed")) >= 1, what="a poll")
        await sim.fail("plc", 5, table="holding", address=10, count=1)
        before = sim.status()["plc"]["requests"].get("write", 0)
        result = await t.tool.write({"point": "speed", "value": 900}, CTX)
        assert result["confirmed"] is False and result["value"] == 900
        assert sim.status()["plc"]["requests"]["write"] == before + 1
        await sim.fail("plc", 0)
