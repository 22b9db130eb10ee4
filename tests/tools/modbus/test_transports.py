"""Every transport against a real pymodbus server of its own framing: RTU frames over TCP and over
UDP on loopback (serial-to-Ethernet gateways), MBAP over UDP, ASCII over a pty. Several units
behind one gateway share it one request at a time; a dead one is backed off on its own."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.modbus.bus import Bus, LinkSpec, NoAnswer, NotConnected, quiet_pymodbus

from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import POINTS, load, running_tool, simulating

CTX: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    quiet_pymodbus()


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _gateway_device(transport: str, port: int, unit: int, prefix: str,
                    **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": transport, "host": "127.0.0.1", "port": port,
            "unit": unit, "poll_interval": "200ms", "timeout": "300ms",
            "points": {f"{prefix}{k}": dict(v) for k, v in POINTS.items()}, **extra}


def _serial_device(transport: str, path: Path, unit: int, prefix: str,
                   **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": transport, "port": str(path), "unit": unit,
            "baudrate": 19200, "poll_interval": "200ms", "timeout": "300ms",
            "points": {f"{prefix}{k}": dict(v) for k, v in POINTS.items()}, **extra}


def _port(transport: str) -> int:
    return free_udp_port() if "udp" in transport else free_port()


@pytest.mark.parametrize("transport", ["rtu_over_tcp", "udp", "rtu_over_udp"])
async def test_units_behind_one_gateway_read_and_write(tmp_path: Path, transport: str) -> None:
    port = _port(transport)
    config = load({f"m{u}": _gateway_device(transport, port, u, f"m{u}_") for u in (1, 2, 3)},
                  tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: all(len(t.values(f"m{u}_speed")) >= 2 for u in (1, 2, 3)),
                         what="every unit polled")
        for u in (1, 2, 3):
            assert t.values(f"m{u}_speed")[-1]["value"] == 1200
            assert t.values(f"m{u}_label")[-1]["value"] == "OK"
            assert t.values(f"m{u}_temp")[-1]["value"] == pytest.approx(523.4, rel=0.02)
        answer = await t.tool.write({"point": "m2_speed", "value": 700}, CTX)
        assert answer["confirmed"] is True
        assert (await sim.get("m2_speed"))["value"] == 700
        assert (await sim.get("m1_speed"))["value"] == 1200  # the right unit took it
        status = await t.tool.status({}, CTX)
        assert list(status["links"]) == [f"127.0.0.1:{port} ({transport})"]  # one shared link
        assert {d["link"] for d in status["devices"].values()} == {f"127.0.0.1:{port} "
                                                                   f"({transport})"}


async def test_ascii_on_a_serial_port(tmp_path: Path) -> None:
    path = tmp_path / "rs485"
    assert load({"a": _serial_device("ascii", path, 1, "a_")}, tmp_path).devices["a"].params[
        "bytesize"] == 7  # the spec's ASCII default is 7E1, which a pty does not take:
    eight = {"bytesize": 8, "parity": "N"}
    config = load({"a": _serial_device("ascii", path, 1, "a_", **eight),
                   "b": _serial_device("ascii", path, 2, "b_", **eight)}, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: all(len(t.values(f"{d}_speed")) >= 2 for d in "ab"),
                         what="both units polled")
        assert {v["value"] for v in t.values("b_label")} == {"OK"}
        assert t.values("a_count")[-1]["value"] >= 1048577
        answer = await t.tool.write({"point": "b_conveyor", "value": 12.5}, CTX)
        assert answer["confirmed"] is True
        assert (await sim.get("b_conveyor"))["value"] == pytest.approx(12.5)
        assert sim.status()["a"]["endpoint"].startswith("ascii ")
    # the frames on that line really are ASCII: an RTU master on it hears nothing it can take
    async with simulating(config):
        rtu = Bus(LinkSpec("rtu", str(path), baudrate=19200), 0.3)
        try:
            with pytest.raises(NoAnswer):
                await rtu.read(1, "holding", 10, 1, 0.3)
        finally:
            await rtu.close()


async def test_rtu_over_tcp_speaks_rtu_frames_on_the_socket(tmp_path: Path) -> None:
    """Not MBAP: a raw RTU request (unit, function, address, count, CRC) gets an RTU reply."""
    port = free_port()
    config = load({"gw": _gateway_device("rtu_over_tcp", port, 5, "")}, tmp_path)
    async with simulating(config):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            frame = bytes([5, 3, 0, 10, 0, 1])
            writer.write(frame + _crc(frame))
            reply = await asyncio.wait_for(reader.readexactly(7), 5)
        finally:
            writer.close()
            await writer.wait_closed()
    assert reply[:3] == bytes([5, 3, 2]) and int.from_bytes(reply[3:5], "big") == 1200
    assert reply[5:] == _crc(reply[:5])


def _crc(data: bytes) -> bytes:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc.to_bytes(2, "little")


@pytest.mark.parametrize("transport", ["rtu_over_tcp", "rtu_over_udp"])
async def test_dead_unit_behind_a_gateway_does_not_slow_the_others(tmp_path: Path,
                                                                   transport: str) -> None:
    port = _port(transport)
    devices = {d: _gateway_device(transport, port, u, f"{d}_", backoff_max="2s")
               for u, d in enumerate("abc", start=1)}
    config = load(devices, tmp_path)
    async with simulating(config) as sim, running_tool(config) as t:
        await until(lambda: all(t.states(d) for d in "abc"), what="all online")
        await sim.drop("b")
        await until(lambda: len(t.states("b")) == 2, what="b offline")
        counted = {d: len(t.values(f"{d}_speed")) for d in "ac"}
        tried = sim.status()["b"]["requests"]["read"]
        loop = asyncio.get_running_loop()
        started = loop.time()
        await until(lambda: all(len(t.values(f"{d}_speed")) >= counted[d] + 15
                                     for d in "ac"), timeout=20, what="a and c polled on")
        took = loop.time() - started
        # 15 polls at 200 ms take 3 s; a dead unit asked every poll would cost 300 ms each
        # time and stretch that to 7.5 s. Backed off (0.2, 0.4 ... 2 s) it costs a few.
        assert took < 6.0, f"15 polls of a and c took {took:.1f} s"
        assert sim.status()["b"]["requests"]["read"] - tried < 10
        assert t.states("a")[-1]["online"] and t.states("c")[-1]["online"]
        assert not t.states("b")[-1]["online"]
        await sim.restore("b")
        await until(lambda: t.states("b")[-1]["online"], timeout=10, what="b back")


async def test_udp_gateway_with_nobody_there_is_no_answer_not_a_hang() -> None:
    bus = Bus(LinkSpec("rtu_over_udp", free_udp_port(), host="127.0.0.1"), 0.2)
    try:
        with pytest.raises((NoAnswer, NotConnected)):
            await bus.read(1, "holding", 0, 1, 0.2)
    finally:
        await bus.close()


async def test_a_port_that_refuses_its_settings_is_not_connected(tmp_path: Path) -> None:
    """7-bit characters on a pty: termios refuses them; the link says so, never crashes."""
    path = tmp_path / "rs485"
    config = load({"a": _serial_device("ascii", path, 1, "a_")}, tmp_path)  # 7E1
    async with simulating(config):
        bus = Bus(LinkSpec.of(dict(config.devices["a"].params)), 0.3)
        try:
            with pytest.raises(NotConnected, match=r"cannot open .*rs485.*error"):
                await bus.read(1, "holding", 10, 1, 0.3)
            with pytest.raises(NotConnected):  # pyserial still holds the port's lock
                await bus.read(1, "holding", 10, 1, 0.3)
        finally:
            await bus.close()


def test_link_keys_and_names() -> None:
    tcp = LinkSpec("tcp", 502, host="10.0.0.5")
    rtu_tcp = LinkSpec("rtu_over_tcp", 502, host="10.0.0.5")
    udp = LinkSpec("udp", 502, host="10.0.0.5")
    assert tcp.key == rtu_tcp.key != udp.key  # one TCP endpoint is one link, framed one way
    assert tcp.describe() == "10.0.0.5:502"  # as before
    assert rtu_tcp.describe() == "10.0.0.5:502 (rtu_over_tcp)"
    assert LinkSpec("ascii", "/dev/ttyUSB0").key == LinkSpec("rtu", "/dev/ttyUSB0").key
    assert rtu_tcp.gap() == 0.0 and LinkSpec("ascii", "/dev/x").gap() == 0.0
    assert rtu_tcp.stream and not udp.stream and not LinkSpec("rtu", "/dev/x").network
