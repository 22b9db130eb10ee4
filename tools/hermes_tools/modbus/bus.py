"""One physical Modbus link — a TCP connection, a UDP endpoint or a serial port — used one request
at a time.

Devices with the same TCP or UDP endpoint (a gateway) or the same serial port (an RS-485 bus)
share a `Bus`. The frames on it are MBAP (`tcp`, `udp`), RTU (`rtu`, and `rtu_over_tcp` /
`rtu_over_udp` for serial-to-Ethernet gateways that pass RTU frames through) or ASCII (`ascii`).
It holds one pymodbus async client, serialises requests with its own lock (RTU also keeps the
inter-frame silence), bounds each request by the asking device's own timeout, and checks
that a reply really answers the request: RTU has no transaction id, and pymodbus hands a late
reply to whoever asks next, even one of another function. A reply that does not fit is refused,
never decoded. The link reconnects on the next request after it was lost; it never retries a
silent device itself (the device's backoff decides when to ask again), so a dead unit holds
the bus for at most one timeout per try. It must never log per request: the caller logs state
changes once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pymodbus.client import AsyncModbusSerialClient, AsyncModbusTcpClient, AsyncModbusUdpClient
from pymodbus.exceptions import ConnectionException, ModbusException, ModbusIOException
from pymodbus.framer import FramerType
from pymodbus.logging import Log

from hermes_tools.modbus import diagnostics
from hermesd.core.settings.modbus import NETWORK, ModbusDeviceSettings, link_key

log = logging.getLogger(__name__)

EXCEPTION_NAMES = {
    1: "illegal function", 2: "illegal data address", 3: "illegal data value",
    4: "server device failure", 5: "acknowledge", 6: "server device busy",
    7: "negative acknowledge", 8: "memory parity error", 10: "gateway path unavailable",
    11: "gateway target device failed to respond",
}
READ_FUNCTION = {"coil": 1, "discrete": 2, "holding": 3, "input": 4}
#: after this many silent requests in a row with no reply at all, a TCP connection is reopened
#: (a half-open connection to a rebooted PLC never answers again)
TCP_SILENT_RECONNECT = 2
#: the frames each transport carries
FRAMER = {"tcp": FramerType.SOCKET, "udp": FramerType.SOCKET, "rtu_over_tcp": FramerType.RTU,
          "rtu_over_udp": FramerType.RTU, "rtu": FramerType.RTU, "ascii": FramerType.ASCII}
#: transports whose frames carry no transaction id: unit 0 is broadcast, 1..247 are devices
RTU_FRAMED = ("rtu", "ascii", "rtu_over_tcp", "rtu_over_udp")
Client = AsyncModbusTcpClient | AsyncModbusUdpClient | AsyncModbusSerialClient


class LinkFault(Exception):
    """The device gave no usable answer; `reason` says why in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NoAnswer(LinkFault):
    """Nothing valid came back in time (silence, a CRC error, a truncated frame)."""


class TimedOut(NoAnswer):
    """Silence: nothing at all came back before the deadline."""


class NotConnected(LinkFault):
    """The link is down and could not be opened (refused, no such port), or was lost mid-way."""

    def __init__(self, reason: str, *, lost: bool = False) -> None:
        super().__init__(reason)
        self.lost = lost  # it was up when the request went out: worth one immediate retry


class BadReply(LinkFault):
    """A reply came that does not answer this request (a late one, or a confused device)."""


class ExceptionReply(Exception):
    """The device answered with a Modbus exception code."""

    def __init__(self, code: int) -> None:
        self.code = code
        self.name = EXCEPTION_NAMES.get(code, "unknown exception")
        super().__init__(f"exception {code} ({self.name})")


@dataclass(frozen=True, slots=True)
class LinkSpec:
    """Where a link goes; devices with equal specs share one `Bus`."""

    transport: str  # tcp | udp | rtu_over_tcp | rtu_over_udp | rtu | ascii
    port: int | str  # TCP or UDP port, or a serial device path
    host: str | None = None
    # a serial line's: the config's defaults (hermesd.core.settings.modbus)
    baudrate: int = ModbusDeviceSettings.baudrate
    parity: str = ModbusDeviceSettings.parity
    stopbits: int = ModbusDeviceSettings.stopbits
    bytesize: int = ModbusDeviceSettings.bytesize
    frame_gap: float | None = None

    @classmethod
    def of(cls, device: ModbusDeviceSettings) -> LinkSpec:
        if device.network:
            return cls(device.transport, int(device.port), host=device.host)
        return cls(device.transport, str(device.port), baudrate=device.baudrate,
                   parity=device.parity, stopbits=device.stopbits, bytesize=device.bytesize,
                   frame_gap=device.frame_gap)

    @property
    def network(self) -> bool:
        return self.transport in NETWORK

    @property
    def stream(self) -> bool:
        """A TCP connection, which a rebooted peer can leave half open."""
        return self.transport in ("tcp", "rtu_over_tcp")

    @property
    def key(self) -> tuple[Any, ...]:
        """Devices on one link (as the config groups them) share one connection."""
        return link_key(self.transport, self.host, self.port)

    def describe(self) -> str:
        where = f"{self.host}:{self.port}" if self.network else str(self.port)
        return where if self.transport in ("tcp", "rtu") else f"{where} ({self.transport})"

    def gap(self) -> float:
        """Silence between RTU frames: 3.5 characters, at least 1.75 ms (spec, 2.5.1.1). A
        gateway keeps the silence on its own serial side; ASCII frames end with CR LF."""
        if self.transport != "rtu":
            return 0.0
        if self.frame_gap is not None:
            return float(self.frame_gap)
        bits = 1 + self.bytesize + (0 if self.parity == "N" else 1) + self.stopbits
        return 0.00175 if self.baudrate > 19200 else 3.5 * bits / self.baudrate


class _ConnectErrors(logging.Handler):
    """Keeps pymodbus quiet and remembers why its last connect failed.

    pymodbus reports a failed connect only as a log line ("Failed to connect <OSError>") and
    returns False; this handler takes that line as the reason a person needs to see (and logs
    nothing for it: a device is probed every poll while down). Every other pymodbus line goes to
    our log at debug level: outages are logged once, by the tool.
    """

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.last = ""

    def expect_connect(self) -> None:
        """Forget the last reason, and make pymodbus say the next one even if it is the same
        (it replaces a repeated line with "Repeating....", then with nothing)."""
        self.last = ""
        Log.last_log_text = ""

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith("Failed to connect"):
            self.last = text.removeprefix("Failed to connect").strip()
            return
        if text.startswith("Repeating"):
            return
        log.debug("pymodbus: %s", text.splitlines()[0] if text else text)


_CONNECT_ERRORS = _ConnectErrors()


def quiet_pymodbus() -> None:
    """Route pymodbus's own logging through `_ConnectErrors` (idempotent)."""
    logger = logging.getLogger("pymodbus")
    if _CONNECT_ERRORS not in logger.handlers:
        logger.addHandler(_CONNECT_ERRORS)
    logger.setLevel(logging.WARNING)  # its debug lines cost CPU even when dropped
    logger.propagate = False


def _connect_reason(text: str) -> str:
    if "Errno 111" in text or "refused" in text.lower():
        return "connection refused"
    if "Errno 2" in text or "No such file" in text:
        return "no such device"
    if "Errno 13" in text or "ermission" in text:
        return "permission denied"
    return text[:160] or "connect failed"


def raise_if_cancelled() -> None:
    """Re-raise a cancellation that was swallowed on the way.

    Python 3.11's `asyncio.wait_for`, which pymodbus awaits every reply with, returns the reply
    instead of raising when the task is cancelled in the very loop turn the reply arrives. The
    task still counts the cancel (`cancelling()`); without this a poller told to stop would
    poll on, and a tool whose daemon died would never exit.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class Bus:
    """One link, one request at a time."""

    def __init__(self, spec: LinkSpec, timeout: float) -> None:
        self.spec = spec
        self.timeout = timeout  # the longest timeout of the devices on this link
        self._lock = asyncio.Lock()
        self._client: Client | None = None
        self._quiet_since = 0.0
        self._silent = 0
        self.requests = 0  # sent, for status and benchmarks
        self.connects = 0  # connections opened; each after the first is a reconnect

    # -- connection -------------------------------------------------------------------------

    def _make_client(self) -> Client:
        # retries=0 and reconnect_delay=0: the device's backoff decides when to try again
        slack = self.timeout + 1.0  # pymodbus's own timer must never fire before ours
        spec, framer = self.spec, FRAMER[self.spec.transport]
        if spec.network:
            kind = AsyncModbusTcpClient if spec.stream else AsyncModbusUdpClient
            return kind(str(spec.host), port=int(spec.port), framer=framer, timeout=slack,
                        retries=0, reconnect_delay=0)
        return AsyncModbusSerialClient(str(spec.port), framer=framer, baudrate=spec.baudrate,
                                       parity=spec.parity, stopbits=spec.stopbits,
                                       bytesize=spec.bytesize, timeout=slack, retries=0,
                                       reconnect_delay=0)

    def peer(self) -> str | None:
        """The address this link's connection is open to now (TCP, or a connected UDP
        endpoint), or None: what a request on it reaches, whatever its name resolves to now."""
        client = self._client
        if client is None or not self.spec.network or not client.connected:
            return None
        transport = getattr(getattr(client, "ctx", None), "transport", None)
        info = transport.get_extra_info("peername") if transport is not None else None
        return str(info[0]) if info else None

    async def _connected(self, timeout: float) -> Client:
        if self._client is None:
            self._client = self._make_client()
        client = self._client
        if client.connected:
            return client
        where = self.spec.describe()
        if not self.spec.network and not os.path.exists(str(self.spec.port)):  # noqa: ASYNC240 - one stat
            raise NotConnected(f"serial port {self.spec.port} does not exist")
        _CONNECT_ERRORS.expect_connect()
        try:
            async with asyncio.timeout(timeout):
                ok = await client.connect()
        except TimeoutError:
            client.close()
            raise NotConnected(f"cannot connect to {where} within {timeout:g} s") from None
        except Exception as exc:  # pyserial's own errors are no OSError
            # a port that refuses its settings (termios.error: a pty takes no 7-bit characters;
            # ValueError from pyserial) is a device that cannot be reached, never a crash of
            # the poller (pymodbus lets these through; it catches only OSError)
            client.close()
            self._client = None
            raise NotConnected(f"cannot open {where}: {type(exc).__name__}: "
                               f"{str(exc)[:160]}") from None
        raise_if_cancelled()  # connect() awaits wait_for too
        if not ok or not client.connected:
            raise NotConnected(f"cannot connect to {where}: {_connect_reason(_CONNECT_ERRORS.last)}")
        self._silent = 0
        self.connects += 1
        if self.connects > 1:
            diagnostics.current().reconnected()
        return client

    async def close(self) -> None:
        """Close the link (waits for a request in flight to end, bounded by its timeout)."""
        async with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def close_now(self) -> None:
        """Close without waiting (shutdown, after the callers' tasks were cancelled)."""
        if self._client is not None:
            self._client.close()
            self._client = None

    # -- requests ---------------------------------------------------------------------------

    async def _transact(self, timeout: float, send: Callable[[Any], Awaitable[Any]],
                        expect_fc: int, *, probe: bool = False) -> Any:
        """Send one request under the lock; the reply, checked for its function code.
        `probe`: silence is expected (a scan of unit ids) and says nothing of the connection."""
        async with self._lock:
            deadline = time.monotonic() + timeout
            client = await self._connected(timeout)
            gap = self.spec.gap()
            if gap:
                wait = self._quiet_since + gap - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
            self.requests += 1
            counted = diagnostics.current()
            counted.sent()
            sent_at = time.monotonic()
            try:
                async with asyncio.timeout(max(0.001, deadline - time.monotonic())):
                    reply = await send(client)
            except TimeoutError:
                counted.timed_out()
                self._no_answer(client, probe=probe)
                raise TimedOut(f"no answer within {timeout:g} s") from None
            except ConnectionException:
                raise NotConnected(f"connection to {self.spec.describe()} lost",
                                   lost=True) from None
            except ModbusIOException as exc:
                if not client.connected:
                    raise NotConnected(f"connection to {self.spec.describe()} lost",
                                       lost=True) from None
                counted.bad_reply()
                self._no_answer(client, probe=probe)
                raise NoAnswer(f"no valid answer ({exc})") from None
            except ModbusException as exc:
                counted.bad_reply()
                raise BadReply(f"pymodbus refused the exchange: {exc}") from None
            finally:
                self._quiet_since = time.monotonic()
            raise_if_cancelled()
        self._silent = 0
        if reply is None:
            counted.bad_reply()
            raise NoAnswer("no reply")
        if reply.isError():
            if reply.function_code != (expect_fc | 0x80):
                counted.bad_reply()
                raise BadReply(f"an exception reply for function {reply.function_code & 0x7F}, "
                               f"not {expect_fc} (a late answer to an earlier request?)")
            counted.answered(self._quiet_since - sent_at, int(reply.exception_code))
            raise ExceptionReply(int(reply.exception_code))
        if reply.function_code != expect_fc:
            counted.bad_reply()
            raise BadReply(f"a reply of function {reply.function_code} to a request of function "
                           f"{expect_fc} (a late answer to an earlier request?)")
        counted.answered(self._quiet_since - sent_at)
        return reply

    def _no_answer(self, client: Any, *, probe: bool = False) -> None:
        if probe:
            return
        self._silent += 1
        if self.spec.stream and self._silent >= TCP_SILENT_RECONNECT:
            client.close()  # the next request opens a fresh connection

    async def read(self, unit: int, table: str, address: int, count: int,
                   timeout: float, *, probe: bool = False) -> list[int] | list[bool]:
        """`count` registers or bits of `table` from `address` (`probe`: see `_transact`)."""
        fc = READ_FUNCTION[table]
        method = {1: "read_coils", 2: "read_discrete_inputs", 3: "read_holding_registers",
                  4: "read_input_registers"}[fc]

        def send(client: Any) -> Awaitable[Any]:
            return getattr(client, method)(address, count=count, device_id=unit)  # type: ignore[no-any-return]

        reply = await self._transact(timeout, send, fc, probe=probe)
        if fc in (1, 2):
            bits = list(reply.bits)
            if not count <= len(bits) < count + 8:
                raise BadReply(f"{len(bits)} bits in reply to a read of {count}")
            return [bool(b) for b in bits[:count]]
        registers = list(reply.registers)
        if len(registers) != count:
            raise BadReply(f"{len(registers)} registers in reply to a read of {count} "
                           "(a late answer to an earlier request?)")
        return registers

    async def write(self, unit: int, table: str, address: int, values: list[int] | list[bool],
                    timeout: float, *, single: bool = True) -> None:
        """Write registers (holding) or bits (coil); the device's echo is checked."""
        n = len(values)
        arg: Any
        if table == "coil":
            fc, method = (5, "write_coil") if n == 1 and single else (15, "write_coils")
            arg = bool(values[0]) if fc == 5 else [bool(v) for v in values]
        elif table == "holding":
            fc, method = (6, "write_register") if n == 1 and single else (16, "write_registers")
            arg = int(values[0]) if fc == 6 else [int(v) for v in values]
        else:
            raise ValueError(f"{table} cannot be written")

        def send(client: Any) -> Awaitable[Any]:
            return getattr(client, method)(address, arg, device_id=unit)  # type: ignore[no-any-return]

        reply = await self._transact(timeout, send, fc)
        echoed = getattr(reply, "address", address)
        if echoed != address:
            raise BadReply(f"the device confirmed a write to {echoed}, not {address}")
        if fc in (15, 16) and getattr(reply, "count", n) != n:
            raise BadReply(f"the device confirmed {reply.count} values, not {n}")


class Buses:
    """The links of the current config, by `LinkSpec.key`."""

    def __init__(self) -> None:
        self._buses: dict[tuple[Any, ...], Bus] = {}

    def get(self, spec: LinkSpec, timeout: float) -> Bus:
        bus = self._buses.get(spec.key)
        if bus is None or bus.spec != spec:
            bus = self._buses[spec.key] = Bus(spec, timeout)
        bus.timeout = max(bus.timeout, timeout)
        return bus

    def adopt(self, bus: Bus) -> Bus:
        """Keep a link of the previous config (its connection stays open)."""
        self._buses[bus.spec.key] = bus
        return bus

    def all(self) -> list[Bus]:
        return list(self._buses.values())

    def close_now(self) -> None:
        for bus in self._buses.values():
            with contextlib.suppress(Exception):
                bus.close_now()
        self._buses.clear()
