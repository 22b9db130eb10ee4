"""Simulated Modbus devices for a hermesd config: TCP and UDP servers, and RTU or ASCII buses on
pseudo-terminals.

Every `driver: modbus` device becomes a unit on a real pymodbus server: devices with the same
TCP (or UDP) host and port share one server (like a gateway; `rtu_over_tcp` and `rtu_over_udp`
serve RTU frames there, as a serial-to-Ethernet gateway passes them through), devices on the
same serial port share one RTU or ASCII bus, served on a pty pair (`pty.PtyBridge`) and linked
at the configured port path when that path is free to use. Each unit's registers cover its
points; the points' values wander slowly inside their ranges while writable points hold what was
written. Faults are set per unit at run
time: `drop` (silence, or `refuse`: the TCP endpoint closes), `slow` (late replies), `fail`
(an exception code, for all or some registers), `corrupt` (RTU replies with a bad CRC or cut
short), `stick` (writes acknowledged but not taken). Requests are counted per unit, so a test
can tell that nothing was sent.

The request handler here also fixes a pymodbus 3.16 server bug: a delayed reply would carry the
transaction id of a newer request on the same connection; each request is captured with its own.
It must never open a real serial port: RTU is served on its own ptys, and a configured port path
is only made a link when nothing real is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pymodbus import ExceptionResponse
from pymodbus.constants import ExcCodes
from pymodbus.exceptions import ModbusIOException
from pymodbus.server import ModbusSerialServer, ModbusTcpServer, ModbusUdpServer
from pymodbus.server.requesthandler import ServerRequestHandler
from pymodbus.simulator import DataType, SimData, SimDevice
from pymodbus.transaction import TransactionManager

from hermes_tools.modbus.bus import EXCEPTION_NAMES, FRAMER, LinkSpec
from hermes_tools.modbus.codec import INT_RANGE, CodecError, Layout, decode, encode_raw, merge
from hermes_tools.sim.pty import PtyBridge
from hermes_tools.sim.values import Wander, wander_for
from hermesd.config.model import Config, Device, Point

log = logging.getLogger(__name__)

TICK = 0.5  # seconds between value updates
SPARE = 16  # registers (bits) served beyond the last configured one, as a PLC's memory area has
#: function code -> the table it touches, and whether it writes
FUNCTIONS = {1: ("coil", False), 2: ("discrete", False), 3: ("holding", False),
             4: ("input", False), 5: ("coil", True), 6: ("holding", True), 15: ("coil", True),
             16: ("holding", True)}
TABLE_FC = {"coil": 1, "discrete": 2, "holding": 3, "input": 4}
RTU_FRAMED = ("rtu", "rtu_over_tcp", "rtu_over_udp")  # frames with a CRC that `corrupt` can spoil


@dataclass
class SimPoint:
    point: Point
    layout: Layout
    wander: Wander

    @property
    def table(self) -> str:
        return str(self.point.params["table"])

    @property
    def address(self) -> int:
        return int(self.point.params["address"])


@dataclass
class Fault:
    code: int
    table: str | None = None  # None: every table
    address: int = 0
    count: int = 65536

    def hits(self, table: str, address: int, count: int) -> bool:
        if self.table is not None and table != self.table:
            return False
        return address < self.address + self.count and self.address < address + count


@dataclass
class Unit:
    device: str
    unit: int
    points: dict[str, SimPoint]
    dropped: bool = False
    delay: float = 0.0
    faults: list[Fault] = field(default_factory=list)
    corrupt: str = ""  # "" | crc | truncate
    stuck: bool = False  # writes are acknowledged but not taken (a PLC program overriding them)
    requests: Counter[str] = field(default_factory=Counter)
    reads: Counter[tuple[str, int, int]] = field(default_factory=Counter)  # (table, address, count)
    read_times: deque[float] = field(default_factory=lambda: deque(maxlen=1000))  # monotonic

    def sizes(self) -> dict[str, int]:
        size = dict.fromkeys(TABLE_FC, 0)
        for sp in self.points.values():
            words = 1 if sp.table in ("coil", "discrete") else sp.layout.words
            size[sp.table] = max(size[sp.table], sp.address + words)
        return {t: min(65536, n + SPARE) for t, n in size.items()}

    def sim_device(self) -> SimDevice:
        size = self.sizes()
        bits = [SimData(0, count=size[t], values=False, datatype=DataType.BITS)
                for t in ("coil", "discrete")]
        regs = [SimData(0, count=size[t], values=0, datatype=DataType.REGISTERS)
                for t in ("holding", "input")]
        # the tuple form: four separate tables (coils, discrete inputs, holding, input)
        return SimDevice(id=self.unit, simdata=([bits[0]], [bits[1]], [regs[0]], [regs[1]]))

    def faults_text(self) -> dict[str, Any]:
        return {"dropped": self.dropped, "delay_s": self.delay, "corrupt": self.corrupt or None,
                "stuck": self.stuck, "fail": [vars(f) for f in self.faults]}


class _Handler(ServerRequestHandler):
    """Serves each request as its own task, with the unit's faults applied."""

    def callback_data(self, data: bytes, addr: tuple[Any, ...] | None = None) -> int:
        try:
            used = TransactionManager.callback_data(self, data, addr)
        except ModbusIOException:
            return len(data)  # an undecodable request: a real device stays silent
        pdu, self.last_pdu = self.last_pdu, None
        if pdu is not None:
            self.server.endpoint.spawn(self._serve(pdu, self.last_addr))
        return int(used)

    async def _serve(self, pdu: Any, addr: Any) -> None:
        endpoint: Endpoint = self.server.endpoint
        unit = endpoint.units.get(pdu.dev_id)
        if unit is None:
            return  # nobody has this unit id: silence, as on an RS-485 bus
        table, writes = FUNCTIONS.get(pdu.function_code, ("", False))
        unit.requests["write" if writes else "read"] += 1
        unit.requests[f"fc{pdu.function_code}"] += 1
        if table and not writes:
            unit.reads[(table, pdu.address, int(getattr(pdu, "count", 1) or 1))] += 1
            unit.read_times.append(time.monotonic())
        if unit.dropped:
            return
        if unit.delay:
            await asyncio.sleep(unit.delay)
            if unit.dropped:
                return
        count = len(getattr(pdu, "registers", None) or getattr(pdu, "bits", None) or []) \
            if writes else int(getattr(pdu, "count", 1) or 1)
        fault = next((f for f in unit.faults if f.hits(table, pdu.address, max(1, count))), None)
        if fault is not None:
            response = ExceptionResponse(pdu.function_code, ExcCodes(fault.code))
        else:
            try:
                kept = await self.server.async_getValues(
                    pdu.dev_id, TABLE_FC[table], pdu.address, count) if writes and unit.stuck \
                    else None
                response = await pdu.datastore_update(self.server.context, pdu.dev_id)
                if kept is not None:  # acknowledged, and quietly not taken
                    await self.server.async_setValues(pdu.dev_id, TABLE_FC[table], pdu.address,
                                                      kept)
            except Exception:
                log.exception("unit %s could not serve function %s", unit.unit,
                              pdu.function_code)
                response = ExceptionResponse(pdu.function_code, ExcCodes.DEVICE_FAILURE)
        response.transaction_id = pdu.transaction_id
        response.dev_id = pdu.dev_id
        if self.transport:
            self.server_send(response, addr)  # type: ignore[no-untyped-call]


def _corrupting(endpoint: Endpoint) -> Any:
    def trace_packet(sending: bool, data: bytes) -> bytes:
        if not sending or not data:
            return data
        unit = endpoint.units.get(data[0]) if endpoint.transport in RTU_FRAMED else None
        if unit is None or not unit.corrupt:
            return data
        if unit.corrupt == "crc":
            return data[:-1] + bytes([data[-1] ^ 0xFF])
        return data[: max(1, len(data) - 3)]  # truncate: the frame is cut short
    return trace_packet


class _TcpServer(ModbusTcpServer):
    endpoint: Endpoint

    def callback_new_connection(self) -> _Handler:
        return _Handler(self, self.trace_packet, self.trace_pdu, self.trace_connect)  # type: ignore[no-untyped-call]


class _UdpServer(ModbusUdpServer):
    endpoint: Endpoint

    def callback_new_connection(self) -> _Handler:
        return _Handler(self, self.trace_packet, self.trace_pdu, self.trace_connect)  # type: ignore[no-untyped-call]


class _SerialServer(ModbusSerialServer):
    endpoint: Endpoint

    def callback_new_connection(self) -> _Handler:
        return _Handler(self, self.trace_packet, self.trace_pdu, self.trace_connect)  # type: ignore[no-untyped-call]


@dataclass
class Endpoint:
    """One served link: a TCP or UDP host:port, or an RTU or ASCII bus on a pty pair."""

    transport: str
    host: str | None
    port: int | str  # TCP port, or the configured serial port path
    units: dict[int, Unit] = field(default_factory=dict)
    baudrate: int = 9600
    server: Any = None
    bridge: PtyBridge | None = None
    linked: str | None = None  # where we made the configured port path point at our pty
    refusing: bool = False
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @property
    def network(self) -> bool:
        return self.transport not in ("rtu", "ascii")

    def describe(self) -> str:
        if self.network:
            return f"{self.transport} {self.host}:{self.port}"
        served = self.bridge.path_b if self.bridge else "?"
        link = f" (linked at {self.linked})" if self.linked else \
            f" (configured {self.port}: point it at {served})"
        return f"{self.transport} {served}{link}"

    @property
    def client_path(self) -> str | None:
        return self.bridge.path_b if self.bridge else None

    async def start(self) -> None:
        devices = [u.sim_device() for u in self.units.values()]
        framer = FRAMER[self.transport]
        if self.network:
            server = _TcpServer if self.transport in ("tcp", "rtu_over_tcp") else _UdpServer
            self.server = server(devices, address=(self.host or "127.0.0.1", int(self.port)),
                                 framer=framer, trace_packet=_corrupting(self))
        else:
            self.bridge = PtyBridge()
            self.bridge.start()
            self.server = _SerialServer(devices, port=self.bridge.path_a, baudrate=self.baudrate,
                                        framer=framer, trace_packet=_corrupting(self))
            self.linked = _link(str(self.port), self.bridge.path_b)
        self.server.endpoint = self
        await self.server.serve_forever(background=True)

    async def refuse(self) -> None:
        """Close the listener and every connection: the device is gone from the network."""
        if self.transport in ("tcp", "rtu_over_tcp") and not self.refusing:
            self.refusing = True
            self.server.close()
            await self._cancel_tasks()

    async def accept(self) -> None:
        if self.refusing:
            self.refusing = False
            await self.server.listen()

    async def _cancel_tasks(self) -> None:
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def stop(self) -> None:
        await self._cancel_tasks()
        if self.server is not None:
            await self.server.shutdown()
        if self.bridge is not None:
            await asyncio.sleep(0)  # let the serial transport drop its reader first
            self.bridge.close()
        if self.linked and self.bridge is not None:
            with contextlib.suppress(OSError):
                if os.readlink(self.linked) == self.bridge.path_b:
                    os.unlink(self.linked)


def _link(wanted: str, actual: str) -> str | None:
    """Make the configured port path lead to our pty, when it is ours to make."""
    path = Path(wanted)
    if wanted.startswith("/dev/") or (path.exists() and not path.is_symlink()):
        return None
    if not path.parent.is_dir() or not os.access(path.parent, os.W_OK):
        return None
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    os.symlink(actual, tmp)
    os.replace(tmp, path)
    return str(path)


def _raw_of(point: Point, name: str) -> Any:
    """The raw value a mapped point's name stands for (the simulator is given names)."""
    for entry in point.value_map:
        if name in (entry.name, *entry.names.values()):
            return entry.raw
    raise ValueError(f"{name!r} is none of {point.id}'s names ({', '.join(point.choices)})")


def _type_range(layout: Layout) -> tuple[float, float] | None:
    if layout.type not in INT_RANGE:
        return None
    lo, hi = INT_RANGE[layout.type]
    ends = sorted((lo * layout.scale + layout.offset, hi * layout.scale + layout.offset))
    return ends[0], ends[1]


class ModbusSimulator:
    """The `driver: modbus` devices of one config, served until cancelled."""

    driver = "modbus"

    def __init__(self, config: Config, devices: list[Device],
                 values: Mapping[str, Any] | None = None, *, seed: int | None = None) -> None:
        self.config = config
        self.rng = random.Random(seed)  # noqa: S311 - simulation, not security
        self.ready = asyncio.Event()
        self.endpoints: dict[tuple[Any, ...], Endpoint] = {}
        self.units: dict[str, tuple[Endpoint, Unit]] = {}
        self.points: dict[str, tuple[Unit, SimPoint]] = {}
        values = values or {}
        for dev in devices:
            p = dev.params
            key = LinkSpec.of(dict(p)).key
            endpoint = self.endpoints.get(key)
            if endpoint is None:
                endpoint = self.endpoints[key] = Endpoint(
                    p["transport"], p.get("host"), p["port"],
                    baudrate=int(p.get("baudrate", 9600)))
            points: dict[str, SimPoint] = {}
            for pid, point in dev.points.items():
                layout = Layout.of(dict(point.params))
                slice_ = {"id": pid, "name": point.name, "kind": point.kind, "unit": point.unit,
                          "writable": point.writable, "min": point.min, "max": point.max}
                given = values.get(pid)
                if point.value_map:  # the registers hold raw values; a mode holds still
                    raws = [int(e.raw) for e in point.value_map]
                    bits = isinstance(point.value_map[0].raw, bool)
                    slice_.update(kind="bool" if bits else "int", min=min(raws), max=max(raws))
                    given = _raw_of(point, given) if isinstance(given, str) else \
                        (point.value_map[0].raw if given is None else given)
                wander = wander_for(slice_, given, _type_range(layout))
                wander.fixed = wander.fixed or bool(point.value_map)
                points[pid] = SimPoint(point, layout, wander)
            unit = Unit(dev.id, int(p["unit"]), points)
            endpoint.units[unit.unit] = unit
            self.units[dev.id] = (endpoint, unit)
            for pid, sp in points.items():
                self.points[pid] = (unit, sp)

    # -- serving ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve every endpoint and let values wander, until cancelled."""
        started: list[Endpoint] = []
        try:
            for endpoint in self.endpoints.values():
                await endpoint.start()
                started.append(endpoint)
                for unit in endpoint.units.values():
                    for sp in unit.points.values():
                        await self._store(endpoint, unit, sp, sp.wander.value)
            self.ready.set()
            last = time.monotonic()
            while True:
                await asyncio.sleep(TICK)
                now = time.monotonic()
                await self._step(now - last)
                last = now
        finally:
            for endpoint in started:
                with contextlib.suppress(Exception):
                    await endpoint.stop()

    async def _step(self, dt: float) -> None:
        for endpoint in self.endpoints.values():
            for unit in endpoint.units.values():
                for sp in unit.points.values():
                    if sp.point.writable or sp.wander.fixed:
                        continue
                    await self._store(endpoint, unit, sp, sp.wander.step(self.rng, dt))

    async def _store(self, endpoint: Endpoint, unit: Unit, sp: SimPoint, value: Any) -> None:
        """Put a value into the unit's registers as the point's layout says."""
        server, table, address = endpoint.server, sp.table, sp.address
        fc = TABLE_FC[table]
        if table in ("coil", "discrete"):
            await server.async_setValues(unit.unit, fc, address, [bool(value)])
            return
        layout = sp.layout
        if layout.part is not None:  # a bit, a byte or a field: the rest of the register stays
            (current,) = await server.async_getValues(unit.unit, fc, address, 1)
            try:
                merged = merge(bool(value) if layout.type == "bool" else value, layout,
                               int(current))
            except CodecError as exc:
                log.warning("%s: cannot simulate %r: %s", sp.point.id, value, exc)
                return
            await server.async_setValues(unit.unit, fc, address, [merged])
            return
        try:
            if layout.type == "string":
                words = encode_raw(str(value), layout)
            else:
                raw = (float(value) - layout.offset) / layout.scale
                words = encode_raw(round(raw) if layout.type in INT_RANGE else raw, layout)
        except CodecError as exc:
            log.warning("%s: cannot simulate %r: %s", sp.point.id, value, exc)
            return
        await server.async_setValues(unit.unit, fc, address, words)

    async def value(self, point: str) -> Any:
        """What the point's registers hold now (a client's writes included)."""
        unit, sp = self._point(point)
        endpoint = self.units[unit.device][0]
        fc = TABLE_FC[sp.table]
        if sp.table in ("coil", "discrete"):
            return bool((await endpoint.server.async_getValues(unit.unit, fc, sp.address, 1))[0])
        words = await endpoint.server.async_getValues(unit.unit, fc, sp.address, sp.layout.words)
        return decode(list(words), sp.layout)

    # -- control (each returns what changed, for the control channel's answer) ------------------

    def _unit(self, device: str) -> tuple[Endpoint, Unit]:
        found = self.units.get(device)
        if found is None:
            raise KeyError(f"no simulated modbus device {device!r}")
        return found

    def _point(self, point: str) -> tuple[Unit, SimPoint]:
        found = self.points.get(point)
        if found is None:
            raise KeyError(f"no simulated modbus point {point!r}")
        return found

    async def drop(self, device: str, mode: str = "silent") -> dict[str, Any]:
        endpoint, unit = self._unit(device)
        unit.dropped = True
        if mode == "refuse":
            if endpoint.transport not in ("tcp", "rtu_over_tcp"):
                raise ValueError("refuse applies to TCP devices (tcp, rtu_over_tcp); a unit on a "
                                 "serial bus or over UDP can only go silent")
            for other in endpoint.units.values():
                other.dropped = True
            await endpoint.refuse()
        elif mode != "silent":
            raise ValueError(f"drop mode {mode!r} is not silent|refuse")
        return {"device": device, "dropped": mode}

    async def restore(self, device: str) -> dict[str, Any]:
        endpoint, unit = self._unit(device)
        unit.dropped, unit.delay, unit.faults, unit.corrupt = False, 0.0, [], ""
        unit.stuck = False
        if endpoint.refusing:
            for other in endpoint.units.values():
                other.dropped = False
            await endpoint.accept()
        return {"device": device, "restored": True}

    async def slow(self, device: str, seconds: float) -> dict[str, Any]:
        if not 0 <= seconds <= 600:
            raise ValueError("seconds must be 0..600")
        self._unit(device)[1].delay = float(seconds)
        return {"device": device, "delay_s": float(seconds)}

    async def fail(self, device: str, code: int, table: str | None = None, address: int = 0,
                   count: int = 65536) -> dict[str, Any]:
        unit = self._unit(device)[1]
        if code == 0:
            unit.faults = []
            return {"device": device, "fail": None}
        if code not in EXCEPTION_NAMES:
            raise ValueError(f"exception code {code} is not defined by Modbus (1-8, 10, 11)")
        if table is not None and table not in TABLE_FC:
            raise ValueError(f"table {table!r} is not one of {', '.join(TABLE_FC)}")
        unit.faults.append(Fault(int(code), table, int(address), int(count)))
        return {"device": device, "fail": unit.faults_text()["fail"]}

    async def corrupt(self, device: str, kind: str) -> dict[str, Any]:
        endpoint, unit = self._unit(device)
        if endpoint.transport not in RTU_FRAMED:
            raise ValueError("corrupt applies to RTU devices (rtu, rtu_over_tcp, rtu_over_udp): "
                             "MBAP (tcp, udp) and ASCII have no CRC")
        if kind not in ("crc", "truncate", ""):
            raise ValueError(f"corrupt kind {kind!r} is not crc|truncate")
        unit.corrupt = kind
        return {"device": device, "corrupt": kind or None}

    async def stick(self, device: str) -> dict[str, Any]:
        """Acknowledge writes without taking them, as a PLC whose program overrides them."""
        self._unit(device)[1].stuck = True
        return {"device": device, "stuck": True}

    async def set(self, point: str, value: Any) -> dict[str, Any]:
        unit, sp = self._point(point)
        if sp.point.value_map and isinstance(value, str):
            value = _raw_of(sp.point, value)
        sp.wander.base = sp.wander.value = value
        await self._store(self.units[unit.device][0], unit, sp, value)
        return {"point": point, "value": await self.value(point)}

    async def get(self, point: str) -> dict[str, Any]:
        return {"point": point, "value": await self.value(point)}

    def status(self) -> dict[str, Any]:
        out = {}
        for device, (endpoint, unit) in self.units.items():
            out[device] = {"driver": "modbus", "endpoint": endpoint.describe(),
                           "transport": endpoint.transport, "unit": unit.unit,
                           "path": endpoint.client_path, "linked": endpoint.linked,
                           "requests": dict(unit.requests), **unit.faults_text()}
        return out
