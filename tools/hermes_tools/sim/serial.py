"""Serial instruments for the dev plant and the tests, on pseudo-terminals, driven by a hermesd config.

For every `driver: serial` device in the config, `SerialSim` plugs in one instrument (see
`serial_instruments`): on a pty behind a symlink at the device's `port` path (or under
`--link-dir`), or on TCP for a `socket://` or `rfc2217://` port. It answers in the device's terminator and
encoding and, unless told not to, takes as long as the bytes would take on a real line at the
device's baud rate (a pty itself ignores the baud rate: without this every baud rate is as fast);
a long answer arrives piece by piece over that time, not all at once.

`SerialSim`'s own calls: `drop(device)` (unplug), `restore(device)`, `slow(device, seconds)`
(math.inf: never answers), `fail(device, code)` (answers and streams `ERR <code>`; None clears),
and for tests `set_value`, `reply_next` (raw bytes as the next answer), `push` (raw bytes now),
`set_period`, `received`; `serial_cli` is the standalone program that takes them on stdin.
`SerialSimulator` offers the same instruments to `hermes-sim` through the interface every
simulator shares (`hermes_tools.sim.Simulator`), where `drop` goes silent or unplugs and `set`/
`get` speak in the points' values.

It must never touch a real serial port: a path that exists and is not a symlink is refused, and
in `hermes-sim` a port under /dev/ is served at a link of its own that the user points at.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import math
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from hermes_tools.serial.framing import LineFramer
from hermes_tools.serial.points import BadAnswer, PointSpec
from hermes_tools.sim.serial_instruments import KINDS, Instrument, infer_kind, make
from hermes_tools.sim.serial_ports import PtyPort, Rfc2217Port, SimPort, TcpPort
from hermesd.config.model import Config, Device
from hermesd.core.settings.serial import SerialDeviceSettings

log = logging.getLogger(__name__)

RECEIVED_KEPT = 200  # request lines remembered per device, for tests to look at
REPLY_PIECE = 64  # bytes of an answer delivered at once (about a USB-serial adapter's packet)


class SimDevice:
    """One instrument, its plug and the faults a test has put on it."""

    def __init__(self, device: Device, kind: str, link: Path | None, line_time: bool) -> None:
        p = SerialDeviceSettings.from_dict(device.params, f"devices.{device.id}")
        self.id = device.id
        self.instrument: Instrument = make(kind)
        self.encoding = p.encoding
        self.terminator = p.terminator.encode(self.encoding)
        bits = 1 + p.bytesize + (p.parity != "N") + float(p.stopbits)
        self.char_time = bits / p.baudrate if line_time else 0.0
        self.framer = LineFramer(self.terminator, p.max_line * 4)
        self.delay = 0.0  # slow(): extra seconds before each answer; inf: never answers
        self.silent = False  # dropped without unplugging: it hears requests and says nothing
        self.counts: Counter[str] = Counter()  # requests heard: read | write
        self.failure: str | None = None  # fail(): answer and stream `ERR <code>`
        self.next_replies: list[bytes] = []
        self.received: list[str] = []
        self.requests: asyncio.Queue[tuple[str, Callable[[bytes], None]]] = asyncio.Queue()
        self.period_changed = asyncio.Event()
        port = p.port
        self.port: SimPort
        if port.startswith("socket://"):
            self.port = TcpPort(port, self._on_data)
        elif port.startswith("rfc2217://"):
            self.port = Rfc2217Port(port, self._on_data)
        elif "://" in port:
            raise ValueError(f"{self.id}: cannot serve {port!r} (paths, socket:// and "
                             "rfc2217:// only)")
        else:
            self.port = PtyPort(link if link is not None else Path(port), self._on_data)

    def _on_data(self, data: bytes, reply: Callable[[bytes], None]) -> None:
        for line in self.framer.feed(data, 0.0):
            text = line.raw.decode(self.encoding, "replace")
            self.received.append(text)
            del self.received[:-RECEIVED_KEPT]
            self.counts["write" if self.instrument.writes(text) else "read"] += 1
            self.requests.put_nowait((text, reply))

    def line(self, text: str) -> bytes:
        return text.encode(self.encoding, "replace") + self.terminator

    async def answer_requests(self) -> None:
        """Answer one request at a time, as a real instrument does."""
        while True:
            request, reply = await self.requests.get()
            if self.silent:
                continue
            if self.next_replies:
                data: bytes | None = self.next_replies.pop(0)
            elif self.failure is not None:
                data = self.line(f"ERR {self.failure}")
            else:
                text = self.instrument.answer(request)
                data = self.line(text) if text is not None else None
            if data is None:
                continue
            if math.isinf(self.delay):
                continue  # a device that never answers
            await asyncio.sleep(self.delay + (len(request) + len(self.terminator)) * self.char_time)
            await self._send_over_time(data, reply)

    async def _send_over_time(self, data: bytes, reply: Callable[[bytes], None]) -> None:
        """Send as the line would deliver: a piece once its bytes have had time to cross it.

        A short answer comes whole after its wire time; a long one (an oversize line) trickles
        in `REPLY_PIECE`-byte pieces, so a reader sees it arrive over time, as it would.
        """
        for at in range(0, len(data), REPLY_PIECE):
            piece = data[at:at + REPLY_PIECE]
            if self.char_time:
                await asyncio.sleep(len(piece) * self.char_time)
            if not self.port.plugged or self.silent:
                return
            reply(piece)

    async def stream(self) -> None:
        """Send a line every period, on a fixed schedule (a slow loop does not slow the rate)."""
        loop = asyncio.get_running_loop()
        next_at = loop.time()
        while True:
            period = self.instrument.period
            self.period_changed.clear()
            if period is None:
                await self.period_changed.wait()
                next_at = loop.time()
                continue
            next_at = max(next_at + period, loop.time())
            try:
                async with asyncio.timeout(next_at - loop.time()):
                    await self.period_changed.wait()
            except TimeoutError:
                self.send_streamed()
            else:
                next_at = loop.time()  # a new period: start it now

    def unplugged(self) -> None:
        """Forget what was in flight: an unplugged instrument's half-heard requests are gone."""
        self.framer.reset()
        while not self.requests.empty():
            self.requests.get_nowait()

    def send_streamed(self) -> None:
        if not self.port.plugged or self.silent or math.isinf(self.delay):
            return
        if self.failure is not None:
            self.port.send(self.line(f"ERR {self.failure}"))
            return
        text = self.instrument.stream_line()
        if text is not None:
            self.port.send(self.line(text))


class SerialSim:
    """The serial instruments of one hermesd config."""

    def __init__(self, config: Config, *, link_dir: Path | None = None, line_time: bool = True,
                 kinds: Mapping[str, str] | None = None,
                 periods: Mapping[str, float] | None = None,
                 devices: Iterable[Device] | None = None,
                 links: Mapping[str, Path] | None = None) -> None:
        """The instruments of `devices` (default: every serial device of `config`); each path
        port's link is `links[device]`, else `link_dir/<device>`, else the port path itself."""
        kinds = dict(kinds or {})
        links = links or {}
        self.devices: dict[str, SimDevice] = {}
        for device in config.devices.values() if devices is None else devices:
            if device.driver != "serial":
                continue
            kind = kinds.pop(device.id, None) or infer_kind(device)
            if kind is None:
                raise ValueError(f"cannot tell which instrument {device.id} is from its points; "
                                 f"name it with --kind {device.id}=" + "|".join(KINDS))
            link = links.get(device.id) or (link_dir / device.id if link_dir is not None else None)
            self.devices[device.id] = SimDevice(device, kind, link, line_time)
        if kinds:
            raise ValueError(f"--kind names devices that are not serial devices of the config: "
                             f"{', '.join(sorted(kinds))}")
        for dev_id, period in (periods or {}).items():
            self._device(dev_id).instrument.period = period
        self.ready = asyncio.Event()

    async def run(self) -> None:
        """Plug every instrument in and serve until cancelled; unplug all on the way out."""
        try:
            for device in self.devices.values():
                try:
                    device.port.plug()
                except OSError as exc:
                    raise OSError(f"{device.id}: cannot plug in at {device.port.where}: "
                                  f"{exc.strerror or exc}") from exc
            async with asyncio.TaskGroup() as tg:
                for device in self.devices.values():
                    tg.create_task(device.answer_requests(), name=f"sim-{device.id}-answers")
                    tg.create_task(device.stream(), name=f"sim-{device.id}-stream")
                self.ready.set()
        finally:
            for device in self.devices.values():
                device.port.unplug()

    def where(self, device: str) -> str:
        return self._device(device).port.where

    def _device(self, device: str) -> SimDevice:
        found = self.devices.get(device)
        if found is None:
            raise KeyError(f"no serial device {device!r} (have {', '.join(self.devices)})")
        return found

    # -- the shared simulator interface --------------------------------------------------------

    def drop(self, device: str) -> None:
        """Unplug: the link disappears and the line goes dead."""
        dev = self._device(device)
        dev.port.unplug()
        dev.unplugged()

    def restore(self, device: str) -> None:
        """Plug back in: a new pty behind the same link (or the TCP port listening again)."""
        self._device(device).port.plug()

    def slow(self, device: str, seconds: float) -> None:
        """Answer after `seconds` more (0: at once again; math.inf: never)."""
        if seconds < 0 or math.isnan(seconds):
            raise ValueError("seconds must be 0 or more")
        self._device(device).delay = seconds

    def fail(self, device: str, code: int | str | None) -> None:
        """Answer every request and stream `ERR <code>` instead of readings (None: stop)."""
        self._device(device).failure = None if code is None else str(code)

    # -- extras for tests -------------------------------------------------------------------

    def set_value(self, device: str, value: str) -> None:
        dev = self._device(device)
        now = dev.instrument.set_value(value)
        if now is not None:
            dev.port.send(dev.line(now))

    def reply_next(self, device: str, data: bytes) -> None:
        """Answer the next request with exactly these bytes (garbage, oversize, other text)."""
        self._device(device).next_replies.append(data)

    def push(self, device: str, data: bytes) -> None:
        """Send these bytes now, unasked."""
        self._device(device).port.send(data)

    def set_period(self, device: str, seconds: float | None) -> None:
        dev = self._device(device)
        dev.instrument.period = seconds
        dev.period_changed.set()

    def received(self, device: str) -> list[str]:
        return list(self._device(device).received)


# -- in hermes-sim -----------------------------------------------------------------------------

MAX_DELAY = 600.0  # seconds `slow` may make an answer late (as for the Modbus simulator)


def spare_link_dir() -> Path:
    """Where `hermes-sim` links a device whose configured port it may not make (/dev/...)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return Path(base) / f"hermes-sim-{os.getuid()}-ports"


def _ours_to_link(port: str) -> bool:
    """Whether the configured port path may become our symlink: never under /dev/, never over
    a file that is not a symlink, only where we may write."""
    path = Path(port)
    if port.startswith("/dev/") or (path.exists() and not path.is_symlink()):
        return False
    parent = next((d for d in (path.parent, *path.parent.parents) if d.exists()), Path("/"))
    return os.access(parent, os.W_OK)


class SerialSimulator:
    """The `driver: serial` devices of a config in `hermes-sim` (see `hermes_tools.sim.Simulator`).

    `drop` goes `silent` (the instrument hears requests and says nothing, as one switched off
    behind a powered USB adapter) or `unplug`s it (`refuse` means the same here: the port
    disappears, or a TCP port stops listening). `fail` makes it answer `ERR <code>` (0 clears).
    `set`/`get` speak in point values: `set scale1_weight 20` puts 20 kg on the scale, and `get`
    is what the point's query and pattern make of what the instrument shows. Instruments hold
    their reading until set (`seed` has nothing to vary). A device whose points do not say which
    instrument it is is left out, with the reason in `not_simulated`.
    """

    driver = "serial"

    def __init__(self, config: Config, devices: list[Device],
                 values: Mapping[str, Any] | None = None, *, seed: int | None = None,
                 line_time: bool = True) -> None:
        self.not_simulated: dict[str, str] = {}
        self.configured: dict[str, str] = {}  # device -> its port path, when we link elsewhere
        kinds: dict[str, str] = {}
        links: dict[str, Path] = {}
        for dev in devices:
            kind = infer_kind(dev)
            if kind is None:
                self.not_simulated[dev.id] = ("its points do not say which instrument it is "
                                              "(python -m hermes_tools.sim.serial --kind "
                                              f"{dev.id}={'|'.join(KINDS)})")
                continue
            kinds[dev.id] = kind
            port = str(dev.params["port"])
            if "://" not in port and not _ours_to_link(port):
                links[dev.id] = spare_link_dir() / dev.id
                self.configured[dev.id] = port
        placed = [d for d in devices if d.id in kinds]
        self.sim = SerialSim(config, devices=placed, kinds=kinds, links=links,
                             line_time=line_time)
        self.ready = self.sim.ready
        self.dropped: dict[str, str] = {}  # device -> silent | unplug
        self.points: dict[str, tuple[SimDevice, PointSpec]] = {}
        for dev in placed:
            sim_dev = self.sim.devices[dev.id]
            for pid, point in dev.points.items():
                slice_ = {**point.params, "kind": point.kind, "min": point.min,
                          "max": point.max, "writable": point.writable}
                self.points[pid] = (sim_dev, PointSpec.from_config(dev.id, pid, slice_,
                                                                   sim_dev.encoding))
        for pid, value in (values or {}).items():
            if pid in self.points:
                self._set(pid, value)

    async def run(self) -> None:
        await self.sim.run()

    # -- point values ---------------------------------------------------------------------------

    def _point(self, point: str) -> tuple[SimDevice, PointSpec]:
        found = self.points.get(point)
        if found is None:
            raise KeyError(f"no simulated serial point {point!r}")
        return found

    def _value(self, point: str) -> Any:
        """What the point's pattern makes of the line the instrument shows now."""
        dev, spec = self._point(point)
        if spec.query is not None:  # asked of a copy: asking must not change the instrument
            line = copy.deepcopy(dev.instrument).answer(spec.query.decode(dev.encoding))
        else:
            line = dev.instrument.peek_line()
        if line is None:
            return None  # a streaming instrument that has shown nothing yet
        found = spec.match(line)
        if found is None:
            raise ValueError(f"{point}: the simulated {dev.instrument.kind} shows {line!r}, "
                             "which the point's pattern does not match")
        try:
            return spec.value_of(found)
        except BadAnswer as exc:
            raise ValueError(str(exc)) from None

    def _set(self, point: str, value: Any) -> Any:
        dev, _ = self._point(point)
        before = copy.deepcopy(dev.instrument)
        try:
            line = dev.instrument.set_value(str(value))
            shown = self._value(point)
        except ValueError as exc:
            dev.instrument = before
            raise ValueError(f"{point}: {exc}") from None
        if not _shows(shown, value):
            dev.instrument = before  # the instrument measures something else: leave it as it was
            raise ValueError(f"{point} is not what the simulated {dev.instrument.kind} measures "
                             f"(setting {value!r} shows {shown!r}); set one of its other points")
        if line is not None and dev.port.plugged and not dev.silent:
            dev.port.send(dev.line(line))
        return shown

    async def set(self, point: str, value: Any) -> dict[str, Any]:
        return {"point": point, "value": self._set(point, value)}

    async def get(self, point: str) -> dict[str, Any]:
        return {"point": point, "value": self._value(point)}

    # -- faults ---------------------------------------------------------------------------------

    async def drop(self, device: str, mode: str = "silent") -> dict[str, Any]:
        dev = self.sim._device(device)
        if mode == "silent":
            dev.silent = True
            dev.unplugged()  # what it half heard is gone
        elif mode in ("unplug", "refuse"):
            mode = "unplug"
            self.sim.drop(device)
        else:
            raise ValueError(f"drop mode {mode!r} is not silent|unplug")
        self.dropped[device] = mode
        return {"device": device, "dropped": mode}

    async def restore(self, device: str) -> dict[str, Any]:
        dev = self.sim._device(device)
        dev.silent, dev.delay, dev.failure = False, 0.0, None
        dev.next_replies.clear()
        self.dropped.pop(device, None)
        self.sim.restore(device)
        return {"device": device, "restored": True}

    async def slow(self, device: str, seconds: float) -> dict[str, Any]:
        if not 0 <= seconds <= MAX_DELAY:
            raise ValueError(f"seconds must be 0..{MAX_DELAY:g}")
        self.sim.slow(device, float(seconds))
        return {"device": device, "delay_s": float(seconds)}

    async def fail(self, device: str, code: int | str, table: str | None = None,
                   address: int = 0, count: int = 65536) -> dict[str, Any]:
        """Answer `ERR <code>` to everything (0 or "off" clears); `table`, `address` and `count`
        are Modbus's: an instrument fails as a whole."""
        if table is not None:
            raise ValueError("a serial instrument has no register tables; it fails as a whole")
        cleared = code in (0, "0", "off", None)
        self.sim.fail(device, None if cleared else code)
        return {"device": device, "fail": None if cleared else str(code)}

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for device, dev in self.sim.devices.items():
            port = dev.port
            info: dict[str, Any] = {
                "driver": "serial", "instrument": dev.instrument.kind,
                "endpoint": f"pty {port.where}" if isinstance(port, PtyPort) else port.where,
                "requests": dict(dev.counts),
                "dropped": self.dropped.get(device, False), "delay_s": dev.delay,
                "fail": dev.failure}
            if isinstance(port, PtyPort):
                info.update(path=port.tty or None, linked=str(port.link))
                if device in self.configured:
                    info["endpoint"] += (f" (configured {self.configured[device]}: point its "
                                         f"port at {port.link})")
            out[device] = info
        return out


def _shows(shown: Any, wanted: Any) -> bool:
    """Whether the value a point shows is the value set (numbers to the instrument's display)."""
    if isinstance(shown, int | float) and not isinstance(shown, bool):
        try:
            return math.isclose(float(shown), float(wanted), rel_tol=1e-6, abs_tol=0.01)
        except (TypeError, ValueError):
            return False
    return bool(shown == wanted) or str(shown) == str(wanted)


if __name__ == "__main__":  # the standalone program (tests and benchmarks drive it on stdin)
    from hermes_tools.sim.serial_cli import main

    main()
