"""The Modbus tool process: polls every configured unit and serves reads, writes and raw access.

Each poll group of a device (its points at one poll interval: the device's `poll_interval`,
or a group's or a point's own) polls on its own task, reading its own coalesced blocks. Every
poll that answers reports that group's values to hermesd, changed or not, so their timestamps
stay fresh; a point whose registers read as they did last time is only named as `fresh` (not
decoded, not sent again; every value goes in full after a request on demand, an outage, and
every `FULL_EVERY` seconds). hermesd decides what is published. A device that stops answering
is reported offline once, tried again on its own schedule (`device.Health`: at its fastest poll
interval unless that would hold a shared bus; one group's poll is the probe), and reported
online again once it answers. What each device did on the wire (`diagnostics`) goes to hermesd
as a `diagnostics` event every `DIAGNOSTICS_EVERY` seconds while it changes. A write is checked
(writable, kind, range, what the registers can hold) before anything is sent, and read back to
confirm it. Raw `read_registers`/`write_registers` give engineers the registers as PLC people
name them; the daemon's policy decides who may call them. A Modbus exception becomes a
documented error code with the register named, never a crash and never a made-up value.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from hermes_tools.modbus.blocks import BIT_TABLES, READ_LIMIT, WRITE_LIMIT, Block
from hermes_tools.modbus.bus import (
    RTU_FRAMED,
    Bus,
    Buses,
    ExceptionReply,
    LinkFault,
    LinkSpec,
    NotConnected,
    quiet_pymodbus,
    raise_if_cancelled,
)
from hermes_tools.modbus.codec import CodecError, Layout, decode, encode, merge
from hermes_tools.modbus.device import ModbusDevice, PointDef, PollGroup, describe_registers
from hermes_tools.modbus.diagnostics import CURRENT
from hermes_tools.modbus.places import RESOLVE_S, Places, one_unit
from hermes_tools.modbus.scan import LinkLost, Scan, ScanLimits, Span
from hermes_tools.modbus.schemas import (
    READ_REGISTERS_SPEC,
    SCAN_SPEC,
    STATUS_SPEC,
    WRITE_REGISTERS_SPEC,
)
from hermes_tools.runtime import READ_SPEC, WRITE_SPEC, Tool
from hermesd.core.errors import BadRequest, ErrorCode, ToolError, UnknownPoint
from hermesd.core.registers import FLOAT32_NO_VALUE, MAX_MAGNITUDE
from hermesd.core.settings.modbus import ModbusDeviceSettings

log = logging.getLogger(__name__)

T = TypeVar("T")

#: exception codes that mean the unit itself is not serving (not one register's problem)
UNIT_DOWN = frozenset({4, 10, 11})
#: of those, the ones that to a write mean it reached the device, or may have: a failure while
#: carrying it out (4), a gateway's target that did not answer what it passed on (11); 10 (no
#: path to the target) means it was not sent
SENT_ON = frozenset({4, 11})
#: exception codes that mean "not now": the request may be repeated
BUSY = frozenset({5, 6})
#: exception 5 to a write: the device took it and is still carrying it out (no refusal: a
#: write answered so is never sent again)
ACKNOWLEDGE = 5
#: seconds between `diagnostics` events (only when a device's counters changed)
DIAGNOSTICS_EVERY = 2.0
#: seconds after which every value is sent in full again, changed or not
FULL_EVERY = 60.0


class ModbusTool(Tool):
    name = "modbus"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.devices: dict[str, ModbusDevice] = {}
        self.points: dict[str, PointDef] = {}
        self.buses = Buses()
        self._retired: list[Bus] = []
        self._reconfigured = asyncio.Event()
        self.started = time.time()  # tells hermesd which run of the tool counted what
        #: one read-modify-write at a time per register: (device, table, address) -> its lock
        self._merging: dict[tuple[str, str, int], asyncio.Lock] = {}
        self.action(READ_SPEC, self.read)
        self.action(WRITE_SPEC, self.write)
        self.action(READ_REGISTERS_SPEC, self.read_registers)
        self.action(WRITE_REGISTERS_SPEC, self.write_registers)
        self.action(SCAN_SPEC, self.scan)
        self.action(STATUS_SPEC, self.status)
        self._scanning: set[tuple[Any, ...]] = set()  # links with a scan running
        self._places = Places()  # where links reach, for the guard on raw writes

    # -- configuration ----------------------------------------------------------------------

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        quiet_pymodbus()
        devices_cfg = config.get("devices")
        if not isinstance(devices_cfg, dict):
            raise BadRequest("configure: expected `devices`")
        # one timeout per link: the longest of its devices (pymodbus's own timer must not fire)
        timeouts: dict[tuple[Any, ...], float] = {}
        specs = {dev_id: LinkSpec.of(ModbusDeviceSettings.from_dict(params, f"devices.{dev_id}"))
                 for dev_id, params in devices_cfg.items()}
        for dev_id, params in devices_cfg.items():
            key = specs[dev_id].key
            timeouts[key] = max(timeouts.get(key, 0.0), float(params["timeout"]))
        old, old_buses = self.devices, self.buses
        buses = Buses()
        devices: dict[str, ModbusDevice] = {}
        for dev_id, params in devices_cfg.items():
            spec = specs[dev_id]
            reuse = next((b for b in old_buses.all() if b.spec == spec), None)
            if reuse is not None and reuse.timeout < timeouts[spec.key]:
                reuse.close_now()  # its client's own timer must grow too: made anew on use
                reuse.timeout = timeouts[spec.key]
            bus = buses.adopt(reuse) if reuse else buses.get(spec, timeouts[spec.key])
            device = ModbusDevice.of(dev_id, params, bus)
            if dev_id in old and old[dev_id].unit == device.unit and old[dev_id].link == spec:
                device.health = old[dev_id].health  # keep what we know of it
            if dev_id in old:
                device.diagnostics = old[dev_id].diagnostics  # counters run on across reloads
            devices[dev_id] = device
        users: dict[tuple[Any, ...], int] = {}
        for device in devices.values():
            users[device.link.key] = users.get(device.link.key, 0) + 1
        for device in devices.values():
            device.shares_link = users[device.link.key] > 1
        # links no device uses any more are closed once their pollers have stopped (in `run`)
        self._retired.extend(b for b in old_buses.all() if b not in buses.all())
        self.devices, self.buses = devices, buses
        self.points = {pid: p for d in devices.values() for pid, p in d.points.items()}
        self._reconfigured.set()
        return {"devices": len(devices), "points": len(self.points),
                "requests_per_poll": {d.id: len(d.blocks) for d in devices.values()},
                "poll_groups": {d.id: {f"{g.interval:g}s": len(g.blocks) for g in d.groups
                                       if g.interval} for d in devices.values()}}

    async def run(self) -> None:
        """Poll every device on its own task; start afresh when the config changes."""
        while True:
            self._reconfigured.clear()
            async with asyncio.TaskGroup() as tg:
                tasks = [tg.create_task(self._poll_loop(d, g), name=f"poll-{d.id}-{g.interval}s")
                         for d in self.devices.values() for g in d.groups if g.interval]
                tasks.append(tg.create_task(self._report_diagnostics(), name="diagnostics"))
                await self._reconfigured.wait()
                for task in tasks:
                    task.cancel()
            self._close_retired()

    def _close_retired(self) -> None:
        while self._retired:
            self._retired.pop().close_now()

    async def close(self) -> None:
        self._close_retired()
        self.buses.close_now()
        self._places.close()

    # -- polling ----------------------------------------------------------------------------

    async def _poll_loop(self, dev: ModbusDevice, group: PollGroup) -> None:
        assert group.interval is not None
        while True:
            started = time.monotonic()
            probing = dev.probing  # another group's poll is trying the offline device
            if dev.health.due(started) and not probing:
                await self.poll(dev, group)
                raise_if_cancelled()
            if dev.health.online is False:
                wait = dev.health.retry_in()
                if probing:  # that try decides; look again after the fastest interval
                    wait = max(wait, dev.fastest or group.interval)
            else:
                wait = started + group.interval - time.monotonic()
            await asyncio.sleep(max(0.0, wait))

    async def _report_diagnostics(self) -> None:
        """Send each device's counters when they changed, at most every DIAGNOSTICS_EVERY."""
        while True:
            changed = {d.id: d.diagnostics for d in self.devices.values()
                       if d.diagnostics.changes != d.diagnostics.reported}
            if changed:
                for diag in changed.values():
                    diag.reported = diag.changes
                self.emit("diagnostics", {"started": self.started,
                                          "devices": {dev_id: diag.to_dict()
                                                      for dev_id, diag in changed.items()}})
            await asyncio.sleep(DIAGNOSTICS_EVERY)

    async def poll(self, dev: ModbusDevice, group: PollGroup | None = None) -> int:
        """Read every block of a poll group (or of the whole device) once and report what it
        said; returns values sent."""
        readings: list[dict[str, Any]] = []
        fresh: list[dict[str, Any]] = []  # per block: points read unchanged, and when
        answered = False
        if time.monotonic() - dev.seen_since > FULL_EVERY:
            dev.forget_seen(time.monotonic())
        blocks = group.blocks if group is not None else dev.blocks
        pending: list[Block] = list(blocks)
        failure: str | None = None
        link_down = False
        # an offline device is tried by one group's poll at a time (a cancelled poll leaves
        # this set only on a device object that a reload has replaced)
        probe = dev.health.online is False
        dev.probing = dev.probing or probe
        while pending:
            if dev.health.online is False and not probe:
                break  # another group's poll found it offline: from now on probes decide
            block = pending.pop(0)
            try:
                data = await self._ask(dev, functools.partial(
                    dev.bus.read, dev.unit, block.table, block.address, block.count, dev.timeout))
            except ExceptionReply as exc:
                answered = True
                if exc.code in UNIT_DOWN:
                    failure = f"answers {exc} to every read"
                    break
                if exc.code in BUSY:
                    log.debug("%s busy for %s; reading it next poll", dev.id, block)
                    continue
                if exc.code == 2 and len(block.members) > 1:
                    log.info("%s refused %s as one request (%s); reading its points one by one",
                             dev.id, describe_registers(block.table, block.address, block.count),
                             exc)
                    pending[:0] = dev.split(block)
                    continue
                for span in block.members:
                    self._point_failed(dev, span.key, f"{dev.id} answered {exc} for "
                                                      f"{dev.points[span.key].registers}")
                continue
            except LinkFault as exc:
                failure, link_down = exc.reason, isinstance(exc, NotConnected)
                break
            answered = True
            ts = time.time()
            key = (block.table, block.address, block.count)
            before = dev.seen.get(key)
            dev.seen[key] = data
            same: list[str] = []
            if before == data and not dev.point_errors:  # the common case: nothing moved
                fresh.append({"ts": ts, "points": block.keys})
                continue
            moved = {i for i, (old, new) in enumerate(zip(before, data, strict=True))
                     if old != new} if before is not None and len(before) == len(data) else None
            for span in block.members:
                start = span.address - block.address
                if moved is not None and span.key not in dev.point_errors \
                        and moved.isdisjoint(range(start, start + span.count)):
                    same.append(span.key)  # cheaper than decoding and sending it again
                    continue
                point = dev.points[span.key]
                try:
                    value = self._decode(point, block.slice(data, span))
                except (CodecError, ToolError) as exc:
                    self._point_failed(dev, point.id, getattr(exc, "message", str(exc)))
                    continue
                if dev.point_errors:
                    self._point_ok(dev, point.id)
                readings.append({"point": point.id, "value": value, "ts": ts})
            if same:
                fresh.append({"ts": ts, "points": " ".join(same)})
        if probe:
            dev.probing = False
        if readings or fresh:
            # `fresh`: read again unchanged at `ts` (hermesd moves their timestamps only); the
            # ids of a block in one string, space-separated (ids hold no spaces): a thousand
            # ids a poll cost a quarter of the JSON work as one string than as a list
            self.emit("values", {"values": readings, "fresh": fresh} if fresh else
                      {"values": readings})
        if failure is not None:
            dev.forget_seen(time.monotonic())
            self._device_failed(dev, failure, link_down=link_down)
        elif answered or not blocks:
            self._device_ok(dev)
        return len(readings) + sum(str(f["points"]).count(" ") + 1 for f in fresh)

    # -- device and point health (each change reported once) ----------------------------------
    # hermesd logs a device going offline (warning) and coming back (info) when it gets the
    # `device` event; the tool says it only at debug level, so an outage is one line in the log.

    def _device_ok(self, dev: ModbusDevice) -> None:
        was = dev.health.online
        if dev.health.succeeded():
            if was is False:
                log.debug("%s is answering again", dev.id)
            self.device_state(dev.id, True)

    def _device_failed(self, dev: ModbusDevice, reason: str, *, link_down: bool = False) -> None:
        if dev.failed(reason, link_down=link_down):
            log.debug("%s stopped answering: %s; trying again after %.1f s", dev.id, reason,
                      dev.health.retry_in())
            self.device_state(dev.id, False, reason)
        # a try that fails again is not logged, not even at debug: tries come every poll

    def _point_failed(self, dev: ModbusDevice, pid: str, why: str) -> None:
        if dev.point_errors.get(pid) != why:
            log.warning("point %s cannot be read: %s", pid, why)
        dev.point_errors[pid] = why

    def _point_ok(self, dev: ModbusDevice, pid: str) -> None:
        if dev.point_errors.pop(pid, None) is not None:
            log.info("point %s reads again", pid)

    # -- one exchange with a device ----------------------------------------------------------

    async def _ask(self, dev: ModbusDevice, request: Callable[[], Awaitable[T]]) -> T:
        """One request, again at once only if the connection had dropped (`retries`)."""
        attempt = 0
        counting = CURRENT.set(dev.diagnostics)  # what the bus sees is this device's
        try:
            while True:
                dev.requests += 1
                try:
                    return await request()
                except NotConnected as exc:
                    if attempt >= dev.retries or not exc.lost:
                        raise
                    attempt += 1
        finally:
            CURRENT.reset(counting)

    def _reachable(self, dev: ModbusDevice) -> None:
        """Fail at once for a device in its backoff: a user's read must not hold the bus.
        A request on demand (a read, a write) sends hermesd values of its own: the next poll
        sends every value in full, never `fresh` against what hermesd no longer holds."""
        dev.forget_seen(time.monotonic())
        if not dev.health.due():
            raise ToolError(ErrorCode.DEVICE_OFFLINE, dev.offline_text())

    def _fault(self, dev: ModbusDevice, exc: LinkFault, what: str) -> ToolError:
        self._device_failed(dev, exc.reason, link_down=isinstance(exc, NotConnected))
        return ToolError(ErrorCode.DEVICE_OFFLINE, f"{dev.id} did not answer {what}: {exc.reason}")

    def _write_fault(self, dev: ModbusDevice, exc: LinkFault, registers: str) -> ToolError:
        """A write without a usable answer. Not sent (no connection could be opened):
        DEVICE_OFFLINE. Sent and unanswered, or answered garbled: the device may have taken
        it, as a PLC slow to answer does, so NOT_CONFIRMED; never "could not do that"."""
        if isinstance(exc, NotConnected) and not exc.lost:
            return self._fault(dev, exc, f"the write to {registers}, which was not sent")
        self._device_failed(dev, exc.reason, link_down=isinstance(exc, NotConnected))
        return ToolError(ErrorCode.NOT_CONFIRMED,
                         f"{dev.id} did not answer the write to {registers}: {exc.reason}; it "
                         "may or may not have taken effect")

    def _exception(self, dev: ModbusDevice, exc: ExceptionReply, registers: str, *,
                   writing: Any = None) -> ToolError:
        """A Modbus exception as a documented error that names the registers."""
        if exc.code not in UNIT_DOWN:
            self._device_ok(dev)  # it answered: it is there, whatever it thinks of the request
        if exc.code in BUSY:
            return ToolError(ErrorCode.BUSY, f"{dev.id} is busy: it answered {exc} for "
                                             f"{registers}; try again", retryable=True)
        if exc.code == 2:
            return ToolError(ErrorCode.UNKNOWN_POINT, f"{dev.id} has no {registers}: it answered "
                                                      f"{exc}")
        if exc.code == 3 and writing is not None:
            return ToolError(ErrorCode.OUT_OF_RANGE, f"{dev.id} refused {writing!r} for "
                                                     f"{registers}: it answered {exc}")
        if exc.code == 1:
            return ToolError(ErrorCode.DEVICE_ERROR, f"{dev.id} does not support this request on "
                                                     f"{registers}: it answered {exc}")
        if exc.code in UNIT_DOWN:
            self._device_failed(dev, f"answers {exc}")
            if writing is not None and exc.code in SENT_ON:
                # a device that failed while carrying the write out (4), or a gateway whose
                # target did not answer the write it passed on (11): it may be done (atk24s)
                return ToolError(ErrorCode.NOT_CONFIRMED,
                                 f"{dev.id} answered {exc} to the write of {writing!r} to "
                                 f"{registers}: whether it took it is not known")
            return ToolError(ErrorCode.DEVICE_OFFLINE, f"{dev.id} cannot serve {registers}: "
                                                       f"it answered {exc}")
        return ToolError(ErrorCode.DEVICE_ERROR, f"{dev.id} answered {exc} for {registers}")

    # -- values -----------------------------------------------------------------------------

    def _decode(self, point: PointDef, data: list[int] | list[bool]) -> Any:
        if point.table in BIT_TABLES:
            return bool(data[0])
        layout = point.layout
        value = decode(data, layout)
        if isinstance(value, float) and (
                not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE
                or (layout.type == "float32"
                    and abs(value - layout.offset) >= FLOAT32_NO_VALUE * abs(layout.scale))):
            # NaN, infinity, a float's largest (a device's "no value"): refused as a point
            # error, which also keeps a poll from taking the registers, unchanged, as the last
            # real value confirmed (atk24s, #3, #4)
            raise ToolError(ErrorCode.DEVICE_ERROR, f"{point.id}: the device reports {value:g} "
                                                    f"in {point.registers}, not a measurement")
        return value

    def _point(self, pid: Any) -> tuple[PointDef, ModbusDevice]:
        point = self.points.get(pid) if isinstance(pid, str) else None
        if point is None:
            raise UnknownPoint(str(pid), f"the modbus tool serves no point {pid!r}")
        return point, self.devices[point.device]

    async def _read_span(self, dev: ModbusDevice, table: str, address: int, count: int,
                         registers: str) -> list[int] | list[bool]:
        self._reachable(dev)
        try:
            data = await self._ask(dev, lambda: dev.bus.read(dev.unit, table, address, count,
                                                             dev.timeout))
        except ExceptionReply as exc:
            raise self._exception(dev, exc, registers) from None
        except LinkFault as exc:
            raise self._fault(dev, exc, f"a read of {registers}") from None
        self._device_ok(dev)
        dev.forget_seen(time.monotonic())  # (again: a poll may have read in between)
        return data

    async def read(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        point, dev = self._point(args.get("point"))
        count = 1 if point.table in BIT_TABLES else point.layout.words
        data = await self._read_span(dev, point.table, point.address, count, point.registers)
        try:
            value = self._decode(point, data)
        except CodecError as exc:
            raise ToolError(ErrorCode.DEVICE_ERROR, f"{point.id}: {exc}") from None
        self._point_ok(dev, point.id)
        return {"point": point.id, "value": value, "ts": time.time()}

    # -- writes -----------------------------------------------------------------------------

    def _check_value(self, point: PointDef, value: Any) -> Any:
        """The value as the point takes it; refused (nothing sent) when it does not fit."""
        if not point.writable:
            raise ToolError(ErrorCode.NOT_WRITABLE, f"{point.id} is not writable")
        if point.kind == "bool":
            if not isinstance(value, bool):
                raise ToolError(ErrorCode.OUT_OF_RANGE, f"{point.id} takes true or false, "
                                                        f"not {value!r}")
            return value
        if point.kind == "string":
            if not isinstance(value, str):
                raise ToolError(ErrorCode.OUT_OF_RANGE, f"{point.id} takes text, not {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise ToolError(ErrorCode.OUT_OF_RANGE, f"{point.id} takes a number, not {value!r}")
        if (point.min is not None and value < point.min) or \
                (point.max is not None and value > point.max):
            raise ToolError(ErrorCode.OUT_OF_RANGE, f"{value:g} is outside {point.id}'s range "
                                                    f"{point.min:g}..{point.max:g}")
        return value

    async def write(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        point, dev = self._point(args.get("point"))
        value = self._check_value(point, args.get("value"))
        if point.table != "coil" and point.layout.part is not None:
            # a bit, a byte or a field: read-modify-write of its register, one at a time per
            # register among hermesd's own writes (so two of them never undo each other), and
            # read back whole. Another Modbus master writing the register between our read and
            # our write would lose its change: Modbus has no atomic read-modify-write short of
            # function 22, which few devices serve; the read-back then shows NOT_CONFIRMED if
            # the register is not what we wrote
            key = (dev.id, point.table, point.address)
            lock = self._merging.setdefault(key, asyncio.Lock())
            async with lock:
                (current,) = await self._read_span(dev, point.table, point.address, 1,
                                                   point.registers)
                try:
                    words: list[int] | list[bool] = [merge(value, point.layout, int(current))]
                except CodecError as exc:
                    raise ToolError(ErrorCode.OUT_OF_RANGE, f"{point.id}: {exc}") from None
                return await self._send_write(point, dev, value, words)
        if point.table == "coil":
            words = [value]
        else:
            try:
                words = encode(value, point.layout)
            except CodecError as exc:
                raise ToolError(ErrorCode.OUT_OF_RANGE, f"{point.id}: {exc}") from None
        return await self._send_write(point, dev, value, words)

    async def _send_write(self, point: PointDef, dev: ModbusDevice, value: Any,
                          words: list[int] | list[bool]) -> dict[str, Any]:
        self._reachable(dev)
        try:
            await self._ask(dev, lambda: dev.bus.write(dev.unit, point.table, point.address,
                                                       words, dev.timeout,
                                                       single=dev.single_write))
        except ExceptionReply as exc:
            if exc.code != ACKNOWLEDGE:
                raise self._exception(dev, exc, point.registers, writing=value) from None
            self._device_ok(dev)  # taken, still being carried out: never sent again; the
            # read back tells whether it shows yet (unconfirmed when not)
        except LinkFault as exc:
            raise self._write_fault(dev, exc, point.registers) from None
        ts = time.time()
        confirmed, back = await self._read_back(dev, point.table, point.address, len(words), words)
        if confirmed and back is not None and point.layout.type == "float32" and \
                point.layout.scale == 1.0 and point.layout.offset == 0.0:
            # what the registers hold: 520.123456789 written to a float32 is 520.1234741, and
            # that is what the device, the cache and Home Assistant have (review atk20s, #19)
            with contextlib.suppress(CodecError, ToolError):
                value = self._decode(point, back)
        if not confirmed and back is not None:
            try:
                seen = self._decode(point, back)
            except (CodecError, ToolError):
                pass
            else:
                # the device holds something else: hermesd's cache must show that, not our wish
                self.values([{"point": point.id, "value": seen, "ts": time.time()}])
        return {"point": point.id, "value": value, "ts": ts, "confirmed": confirmed}

    async def _read_back(self, dev: ModbusDevice, table: str, address: int, count: int,
                         written: list[int] | list[bool]) -> tuple[bool, list[Any] | None]:
        """Whether the registers now hold what was written, and what they hold."""
        try:
            back = await self._ask(dev, lambda: dev.bus.read(dev.unit, table, address, count,
                                                             dev.timeout))
        except (ExceptionReply, LinkFault) as exc:
            log.warning("%s: read-back after a write to %s failed: %s", dev.id,
                        describe_registers(table, address, count), exc)
            if isinstance(exc, LinkFault):
                self._device_failed(dev, exc.reason, link_down=isinstance(exc, NotConnected))
            return False, None
        finally:
            dev.forget_seen(time.monotonic())  # hermesd takes what was written or read back
        if table == "coil":
            return [bool(b) for b in back] == [bool(w) for w in written], back
        return list(back) == list(written), back

    # -- raw register access ------------------------------------------------------------------

    def _device(self, name: Any) -> ModbusDevice:
        dev = self.devices.get(name) if isinstance(name, str) else None
        if dev is None:
            known = ", ".join(sorted(self.devices)) or "none"
            raise BadRequest(f"no modbus device named {name!r} (devices: {known})")
        return dev

    @staticmethod
    def _raw_layout(args: dict[str, Any], count: int | None) -> tuple[Layout | None, int]:
        rtype = args.get("type")
        if rtype is None:
            return None, count or 1
        length = args.get("length")
        if rtype == "string" and length is None:
            length = count
        if rtype == "string" and length is None:
            raise BadRequest("type string needs `length` (or `count`) registers")
        layout = Layout(rtype, word_order=args.get("word_order", "big"),
                        byte_order=args.get("byte_order", "big"), length=length,
                        bit=args.get("bit", 0) if rtype == "bool" else None)
        if count is not None and count != layout.words:
            raise BadRequest(f"a {rtype} occupies {layout.words} registers, not {count}")
        return layout, layout.words

    async def read_registers(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        dev = self._device(args.get("device"))
        table, address = args["table"], args["address"]
        bits = table in BIT_TABLES
        if bits and args.get("type") not in (None, "bool"):
            raise BadRequest(f"{table}s are single bits: type must be bool")
        layout, count = (None, args.get("count") or 1) if bits else \
            self._raw_layout(args, args.get("count"))
        if not 1 <= count <= READ_LIMIT[table]:
            raise BadRequest(f"count {count} is outside 1..{READ_LIMIT[table]} for a {table} read")
        if address + count > 65536:
            raise BadRequest(f"address {address} + count {count} runs past 65535")
        registers = describe_registers(table, address, count)
        data = await self._read_span(dev, table, address, count, registers)
        out: dict[str, Any] = {"device": dev.id, "table": table, "address": address,
                               "count": count, "registers_text": registers, "ts": time.time()}
        if bits:
            out["bits"] = [bool(b) for b in data]
            if args.get("type") == "bool" and count == 1:
                out["value"] = bool(data[0])
            return out
        out["registers"] = [int(r) for r in data]
        if layout is not None:
            try:
                value = decode([int(r) for r in data], layout)
            except CodecError as exc:
                raise ToolError(ErrorCode.DEVICE_ERROR, f"{registers}: {exc}") from None
            if isinstance(value, float) and not math.isfinite(value):
                out["value_text"] = str(value)  # JSON has no NaN; say it in words
            else:
                out["value"] = value
        return out

    async def write_registers(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        dev = self._device(args.get("device"))
        table, address = args["table"], args["address"]
        if table not in WRITE_LIMIT:
            raise BadRequest(f"{table}s are read-only in Modbus")
        if ("values" in args) == ("value" in args):
            raise BadRequest("give exactly one of `values` (raw) or `value` (with `type`)")
        words: list[int] | list[bool]
        if table == "coil":
            raw = args["values"] if "values" in args else [args["value"]]
            if not all(isinstance(v, bool) for v in raw):
                raise BadRequest("coils take true or false")
            words = [bool(v) for v in raw]
        elif "values" in args:
            raw = args["values"]
            if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 0xFFFF
                       for v in raw):
                raise BadRequest("raw register values are whole numbers 0..65535")
            words = [int(v) for v in raw]
        else:
            if args.get("type") in (None, "bool"):
                raise BadRequest("a `value` needs its `type` (int16, float32, ...)")
            layout, _ = self._raw_layout(args, None)
            assert layout is not None
            try:
                words = encode(args["value"], layout)
            except CodecError as exc:
                raise ToolError(ErrorCode.OUT_OF_RANGE, str(exc)) from None
        if not 1 <= len(words) <= WRITE_LIMIT[table]:
            raise BadRequest(f"{len(words)} values: a {table} write takes 1..{WRITE_LIMIT[table]}")
        if address + len(words) > 65536:
            raise BadRequest(f"address {address} + {len(words)} values runs past 65535")
        registers = describe_registers(table, address, len(words))
        elsewhere = await self._point_elsewhere(dev, table, address, len(words))
        if elsewhere is not None:
            point, other = elsewhere
            raise ToolError(ErrorCode.FORBIDDEN, (
                f"{registers} of {dev.id} hold the point {point.id} of {other.id}: the same "
                f"unit, reached as {dev.link.describe()} and {other.link.describe()}; write it "
                "as the point, so that its range and role are checked"))
        self._reachable(dev)
        try:
            await self._ask(dev, lambda: dev.bus.write(dev.unit, table, address, words,
                                                       dev.timeout, single=dev.single_write))
        except ExceptionReply as exc:
            if exc.code != ACKNOWLEDGE:
                raise self._exception(dev, exc, registers, writing=args.get(
                    "value", args.get("values"))) from None
            # (taken, still being carried out: never sent again, as above)
        except LinkFault as exc:
            raise self._write_fault(dev, exc, registers) from None
        ts = time.time()
        self._device_ok(dev)
        confirmed, back = await self._read_back(dev, table, address, len(words), words)
        out: dict[str, Any] = {"device": dev.id, "table": table, "address": address,
                               "count": len(words), "registers_text": registers, "ts": ts,
                               "confirmed": confirmed}
        if back is not None:
            out["bits" if table == "coil" else "registers"] = \
                [bool(b) for b in back] if table == "coil" else [int(r) for r in back]
        return out

    async def _point_elsewhere(self, dev: ModbusDevice, table: str, address: int,
                               count: int) -> tuple[PointDef, ModbusDevice] | None:
        """A point of another device on the registers a raw write to `dev` reaches, when that
        device is the same unit of the same place under another name (`places`); hermesd's
        policy sees the points of `dev` itself."""
        last = address + count - 1
        suspects = [(p, d) for d in self.devices.values() if d is not dev
                    and d.link.network == dev.link.network
                    and one_unit(dev.link, dev.unit, d.link, d.unit)
                    for p in d.points.values() if p.table == table and p.address <= last
                    and address <= p.address + (1 if table in BIT_TABLES else p.layout.words) - 1]
        if not suspects:
            return None
        here = await self._places.of(dev.link, dev.bus.peer())
        if here is None:
            raise ToolError(ErrorCode.DEVICE_OFFLINE, (
                f"{dev.link.host} did not resolve within {RESOLVE_S:g} s: whether {dev.id} is "
                f"the unit of {suspects[0][1].id} under another name cannot be told, so no raw "
                "write is sent to it"))
        places: dict[str, Any] = {}
        for point, other in suspects:
            if other.id not in places:
                places[other.id] = await self._places.of(other.link, other.bus.peer())
            if here & (places[other.id] or frozenset()):
                return point, other
        return None

    # -- scanning a link --------------------------------------------------------------------

    async def scan(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        """Which unit ids answer on a configured device's link, and what their registers hold
        (`scan.Scan`): one scan per link at a time, each of its requests queued with the
        pollers' own."""
        dev = self._device(args.get("device"))
        units = list(dict.fromkeys(args.get("units") or [dev.unit]))
        if dev.bus.spec.transport in RTU_FRAMED and not all(1 <= u <= 247 for u in units):
            # 0 is every device at once (and none answers); 248..255 are reserved
            raise BadRequest(f"unit ids on a {dev.bus.spec.transport} link are 1..247, not "
                             f"{', '.join(str(u) for u in units if not 1 <= u <= 247)[:80]}")
        ranges = [Span(r["table"], r["address"], r["count"]) for r in args.get("ranges", [])]
        for r in ranges:
            limit = 65536 - r.address
            if r.count > limit:
                raise BadRequest(f"range {r.table} {r.address} + {r.count} runs past 65535")
        first = ranges[0] if ranges else Span("holding", 0, 1)
        given = args.get("probe")
        probe = Span(given["table"], given["address"], 1) if given else \
            Span(first.table, first.address, 1)
        block = int(args.get("block", 16))
        limits = ScanLimits(timeout=args.get("timeout_ms", round(min(dev.timeout, 0.3) * 1000))
                            / 1000.0, time_limit=float(args.get("time_limit_s", 30.0)),
                            max_requests=int(args.get("max_requests", 500)), block=block)
        deadline = time.monotonic() + float(ctx.get("deadline_s", limits.time_limit + 1.0))
        key = dev.bus.spec.key
        while key in self._scanning:  # the other scan ends within its own limits
            if time.monotonic() + 0.05 > deadline:
                raise ToolError(ErrorCode.BUSY, f"a scan of {dev.bus.spec.describe()} is "
                                                "already running; try again when it ends",
                                retryable=True)
            await asyncio.sleep(0.05)
        configured = {d.unit: d.id for d in self.devices.values() if d.bus is dev.bus}
        self._scanning.add(key)
        try:
            result = await Scan(dev.bus, units, probe, ranges, limits, deadline,
                                configured).run()
        except LinkLost as exc:  # before anything was learnt: nothing to show but why
            raise ToolError(ErrorCode.DEVICE_OFFLINE, f"cannot scan {dev.bus.spec.describe()}: "
                                                      f"{exc.reason}") from None
        finally:
            self._scanning.discard(key)
        return {"device": dev.id, **result}

    # -- status -----------------------------------------------------------------------------

    async def status(self, args: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
        devices = {}
        for dev in self.devices.values():
            h = dev.health
            devices[dev.id] = {
                "link": dev.link.describe(), "unit": dev.unit, "online": h.online,
                "reason": h.reason or None, "failures": h.failures,
                "retry_in_s": round(h.retry_in(), 3) if h.online is False else None,
                "requests": dev.requests, "blocks": len(dev.blocks),
                "poll_groups": [{"interval_s": g.interval, "blocks": len(g.blocks),
                                 "points": sum(len(b.members) for b in g.blocks)}
                                for g in dev.groups],
                "point_errors": dict(dev.point_errors), "bus": dev.diagnostics.to_dict()}
        return {"devices": devices,
                "links": {b.spec.describe(): {"requests": b.requests} for b in self.buses.all()}}


def main() -> None:
    """`hermes-tool-modbus --socket PATH`: what hermesd starts for `driver: modbus` devices."""
    from hermes_tools.runtime import main as run_tool

    run_tool(ModbusTool())
