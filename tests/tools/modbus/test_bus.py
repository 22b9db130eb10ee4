"""One link, one request at a time, against real pymodbus servers on loopback and over ptys:
refused connections, missing ports, exception codes, late replies, CRC errors, cut frames."""

from __future__ import annotations

import asyncio
import fcntl
import struct
import termios
from pathlib import Path

import pytest
from hermes_tools.modbus.bus import (
    BadReply,
    Bus,
    ExceptionReply,
    LinkFault,
    LinkSpec,
    NoAnswer,
    NotConnected,
    quiet_pymodbus,
    raise_if_cancelled,
)
from hermes_tools.sim.modbus import ModbusSimulator

from tests.support.ports import free_port
from tests.support.until import until
from tests.tools.modbus.plant import load, rtu_device, simulating, tcp_device


@pytest.fixture(autouse=True)
def _quiet() -> None:
    quiet_pymodbus()


def _unread(fd: int) -> int:
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0])


def _all_delivered(sim: ModbusSimulator) -> bool:
    """Every late answer the simulator owed is sent and has crossed the (pty) cable, read off it
    by the master, which drops what nobody asked for."""
    for endpoint in sim.endpoints.values():
        if endpoint.tasks:
            return False
        cable = endpoint.bridge
        if cable is not None and (_unread(cable.master_a) or _unread(cable.slave_b)):
            return False
    return True


def test_frame_gap_follows_the_baud_rate() -> None:
    assert LinkSpec("tcp", 502, "h").gap() == 0.0
    assert LinkSpec("rtu", "/dev/x", baudrate=9600).gap() == pytest.approx(3.5 * 10 / 9600)
    assert LinkSpec("rtu", "/dev/x", baudrate=9600, parity="E", stopbits=2).gap() == \
        pytest.approx(3.5 * 12 / 9600)
    assert LinkSpec("rtu", "/dev/x", baudrate=115200).gap() == 0.00175
    assert LinkSpec("rtu", "/dev/x", baudrate=9600, frame_gap=0.01).gap() == 0.01


async def test_connection_refused_says_so() -> None:
    bus = Bus(LinkSpec("tcp", free_port(), "127.0.0.1"), 1.0)
    # refused at once, not waited out: a timeout would say "cannot connect ... within 1 s"
    with pytest.raises(NotConnected, match="connection refused"):
        await bus.read(1, "holding", 0, 1, 1.0)
    await bus.close()


async def test_missing_serial_port(tmp_path: Path) -> None:
    bus = Bus(LinkSpec("rtu", str(tmp_path / "ttyUSB9")), 1.0)
    with pytest.raises(NotConnected, match=r"serial port .*ttyUSB9 does not exist"):
        await bus.read(1, "holding", 0, 1, 1.0)
    await bus.close()


async def test_reads_writes_and_bits(tmp_path: Path) -> None:
    port = free_port()
    config = load({"plc": tcp_device(port)}, tmp_path)
    async with simulating(config):
        bus = Bus(LinkSpec("tcp", port, "127.0.0.1"), 0.5)
        assert await bus.read(1, "holding", 10, 2, 0.5) == [1200, 245]
        assert await bus.read(1, "discrete", 0, 3, 0.5) == [True, False, False]  # not 8 bits
        await bus.write(1, "holding", 10, [900], 0.5)
        await bus.write(1, "holding", 10, [901, 250], 0.5, single=False)
        assert await bus.read(1, "holding", 10, 2, 0.5) == [901, 250]
        await bus.write(1, "coil", 1, [True], 0.5)
        await bus.write(1, "coil", 0, [False, True, True], 0.5)
        assert await bus.read(1, "coil", 0, 3, 0.5) == [False, True, True]
        assert bus.requests == 8
        await bus.close()


@pytest.mark.parametrize("code", [1, 2, 3, 4, 6])
async def test_exception_codes_come_back_as_such(tmp_path: Path, code: int) -> None:
    port = free_port()
    config = load({"plc": tcp_device(port)}, tmp_path)
    async with simulating(config) as sim:
        await sim.fail("plc", code, table="holding", address=10, count=1)
        bus = Bus(LinkSpec("tcp", port, "127.0.0.1"), 0.5)
        with pytest.raises(ExceptionReply) as read:
            await bus.read(1, "holding", 10, 1, 0.5)
        assert read.value.code == code
        with pytest.raises(ExceptionReply) as write:
            await bus.write(1, "holding", 10, [5], 0.5)
        assert write.value.code == code
        assert await bus.read(1, "holding", 11, 1, 0.5) == [245]  # the others still answer
        assert sim.status()["plc"]["requests"]["fc6"] == 1
        await bus.close()


async def test_tcp_late_reply_is_not_taken_for_the_next_request(tmp_path: Path) -> None:
    port = free_port()
    config = load({"a": tcp_device(port, 1, "a_"), "b": tcp_device(port, 2, "b_")}, tmp_path)
    async with simulating(config) as sim:
        await sim.set("b_speed", 777)
        bus = Bus(LinkSpec("tcp", port, "127.0.0.1"), 0.3)
        await sim.slow("a", 0.5)
        await sim.slow("b", 0.35)  # b's answer is due after a's late one has arrived
        with pytest.raises(NoAnswer, match=r"no answer within 0\.3 s"):
            await bus.read(1, "holding", 10, 1, 0.3)
        assert await bus.read(2, "holding", 10, 1, 0.5) == [777]
        # the same unit again: the transaction id tells its late answer from the new one
        with pytest.raises(NoAnswer):
            await bus.read(1, "holding", 10, 1, 0.3)
        await sim.slow("a", 0.35)
        assert await bus.read(1, "holding", 11, 1, 0.5) == [245]
        await bus.close()


async def test_rtu_late_reply_is_refused_not_decoded(tmp_path: Path) -> None:
    """RTU has no transaction id: a late reply of another shape is refused; another unit's is
    skipped; the device backoff keeps a unit from being asked while its late reply may come."""
    path = tmp_path / "bus0"
    config = load({"a": rtu_device(path, 1, "a_"), "b": rtu_device(path, 2, "b_")}, tmp_path)
    async with simulating(config) as sim:
        await sim.set("b_speed", 777)
        bus = Bus(LinkSpec("rtu", str(path), baudrate=19200), 0.3)
        await sim.slow("a", 0.5)
        with pytest.raises(NoAnswer):
            await bus.read(1, "holding", 10, 1, 0.3)
        await sim.slow("a", 0.35)
        # a's late one-register answer arrives while three registers are asked for
        with pytest.raises(BadReply, match="1 registers in reply to a read of 3"):
            await bus.read(1, "holding", 10, 3, 0.5)
        # (the answer to that read arrives late in turn, unasked)
        await until(lambda: _all_delivered(sim), what="the late answer to be delivered")
        # a late coil answer while holding registers are asked for: refused by function code
        await sim.slow("a", 0.5)
        with pytest.raises(NoAnswer):
            await bus.read(1, "coil", 1, 1, 0.3)
        await sim.slow("a", 0.35)
        with pytest.raises(BadReply, match="function 1 to a request of function 3"):
            await bus.read(1, "holding", 10, 1, 0.5)
        await until(lambda: _all_delivered(sim), what="the late answer to be delivered")
        # another unit's late answer is skipped by its unit id; b's own answer is taken
        await sim.slow("a", 0.5)
        await sim.slow("b", 0.35)
        with pytest.raises(NoAnswer):
            await bus.read(1, "holding", 10, 1, 0.3)
        assert await bus.read(2, "holding", 10, 1, 0.5) == [777]
        await bus.close()


@pytest.mark.parametrize("kind", ["crc", "truncate"])
async def test_rtu_bad_frames_are_no_answer_and_leave_nothing_behind(tmp_path: Path,
                                                                      kind: str) -> None:
    path = tmp_path / "bus0"
    config = load({"a": rtu_device(path, 1, "a_")}, tmp_path)
    async with simulating(config) as sim:
        bus = Bus(LinkSpec("rtu", str(path), baudrate=19200), 0.3)
        assert await bus.read(1, "holding", 10, 1, 0.3) == [1200]
        await sim.corrupt("a", kind)
        for _ in range(2):
            with pytest.raises(NoAnswer):
                await bus.read(1, "holding", 10, 1, 0.3)
        await sim.restore("a")
        assert await bus.read(1, "holding", 10, 2, 0.3) == [1200, 245]
        await bus.close()


async def test_dead_unit_on_a_shared_rtu_bus_costs_one_timeout(tmp_path: Path) -> None:
    path = tmp_path / "bus0"
    config = load({"a": rtu_device(path, 1, "a_"), "b": rtu_device(path, 2, "b_")}, tmp_path)
    async with simulating(config) as sim:
        await sim.drop("a")
        bus = Bus(LinkSpec("rtu", str(path), baudrate=19200), 0.3)
        with pytest.raises(NoAnswer):
            await bus.read(1, "holding", 10, 1, 0.3)
        # the next unit is asked once that one timeout has passed (no retry), and answers
        assert await bus.read(2, "holding", 10, 1, 0.3) == [1200]
        status = sim.status()
        assert status["a"]["requests"]["read"] == 1 and status["b"]["requests"]["read"] == 1
        await bus.close()


async def test_server_gone_then_back_reconnects(tmp_path: Path) -> None:
    port = free_port()
    config = load({"plc": tcp_device(port)}, tmp_path)
    bus = Bus(LinkSpec("tcp", port, "127.0.0.1"), 0.3)
    async with simulating(config):
        assert await bus.read(1, "holding", 10, 1, 0.3) == [1200]
    # the first request may still go out on the dying connection; then it is refused
    with pytest.raises(LinkFault):
        await bus.read(1, "holding", 10, 1, 0.3)
    with pytest.raises(NotConnected, match="connection refused"):
        await bus.read(1, "holding", 10, 1, 0.3)
    async with simulating(config):
        assert await bus.read(1, "holding", 10, 1, 0.3) == [1200]
    await bus.close()


async def test_a_swallowed_cancel_is_raised_again() -> None:
    """What Python 3.11's wait_for does when a reply and a cancel meet: the guard undoes it."""
    reached = asyncio.Event()

    async def poller() -> None:
        try:
            reached.set()
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            pass  # swallowed, as wait_for does when its future is already done
        raise_if_cancelled()
        await asyncio.sleep(10)  # without the guard: polling on

    task = asyncio.create_task(poller())
    await reached.wait()
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=5)
    assert done and task.cancelled()
    raise_if_cancelled()  # not cancelled: nothing happens
