"""Serial instruments for the dev plant and the tests, on pseudo-terminals, driven by a hermesd config.

For every `driver: serial` device in the config, `SerialSim` plugs in one instrument (see
`serial_instruments`): on a pty behind a symlink at the device's `port` path (or under
`--link-dir`), or on TCP for a `socket://` or `rfc2217://` port. It answers in the device's terminator and
encoding and, unless told not to, takes as long as the bytes would take on a real line at the
device's baud rate (a pty itself ignores the baud rate: without this every baud rate is as fast).

The interface shared with the Modbus simulator: `async run()`, `drop(device)`,
`restore(device)`, `slow(device, seconds)` (math.inf: never answers), `fail(device, code)` (answers
and streams `ERR <code>`; None clears). Extras for tests: `set_value`, `reply_next` (raw bytes
as the next answer), `push` (raw bytes now), `set_period`, `received`.

Standalone: `python -m hermes_tools.sim.serial --config FILE [--link-dir DIR]`; with
`--control stdin` it takes those calls as lines on stdin (`drop scale1`, `slow scale1 never`,
`push scale1 HEX`) and answers each with one line, `ok ...` or `error ...`, exiting at EOF.
It must never touch a real serial port: a path that exists and is not a symlink is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import signal
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from hermes_tools.serial.framing import LineFramer
from hermes_tools.sim.serial_instruments import KINDS, Instrument, infer_kind, make
from hermes_tools.sim.serial_ports import PtyPort, Rfc2217Port, SimPort, TcpPort
from hermesd.config import load_config
from hermesd.config.model import Config, Device

log = logging.getLogger(__name__)

RECEIVED_KEPT = 200  # request lines remembered per device, for tests to look at


class SimDevice:
    """One instrument, its plug and the faults a test has put on it."""

    def __init__(self, device: Device, kind: str, link_dir: Path | None, line_time: bool) -> None:
        p = device.params
        self.id = device.id
        self.instrument: Instrument = make(kind)
        self.encoding = str(p.get("encoding", "ascii"))
        self.terminator = str(p.get("terminator", "\r\n")).encode(self.encoding)
        bits = 1 + int(p.get("bytesize", 8)) + (p.get("parity", "N") != "N") + \
            float(p.get("stopbits", 1))
        self.char_time = bits / int(p.get("baudrate", 9600)) if line_time else 0.0
        self.framer = LineFramer(self.terminator, int(p.get("max_line", 256)) * 4)
        self.delay = 0.0  # slow(): extra seconds before each answer; inf: never answers
        self.failure: str | None = None  # fail(): answer and stream `ERR <code>`
        self.next_replies: list[bytes] = []
        self.received: list[str] = []
        self.requests: asyncio.Queue[tuple[str, Callable[[bytes], None]]] = asyncio.Queue()
        self.period_changed = asyncio.Event()
        port = str(p["port"])
        self.port: SimPort
        if port.startswith("socket://"):
            self.port = TcpPort(port, self._on_data)
        elif port.startswith("rfc2217://"):
            self.port = Rfc2217Port(port, self._on_data)
        elif "://" in port:
            raise ValueError(f"{self.id}: cannot serve {port!r} (paths, socket:// and "
                             "rfc2217:// only)")
        else:
            link = link_dir / self.id if link_dir is not None else Path(port)
            self.port = PtyPort(link, self._on_data)

    def _on_data(self, data: bytes, reply: Callable[[bytes], None]) -> None:
        for line in self.framer.feed(data, 0.0, 0.0):
            text = line.raw.decode(self.encoding, "replace")
            self.received.append(text)
            del self.received[:-RECEIVED_KEPT]
            self.requests.put_nowait((text, reply))

    def line(self, text: str) -> bytes:
        return text.encode(self.encoding, "replace") + self.terminator

    async def answer_requests(self) -> None:
        """Answer one request at a time, as a real instrument does."""
        while True:
            request, reply = await self.requests.get()
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
            wire = (len(request) + len(self.terminator) + len(data)) * self.char_time
            await asyncio.sleep(self.delay + wire)
            if self.port.plugged:
                reply(data)

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
        if not self.port.plugged or math.isinf(self.delay):
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
                 periods: Mapping[str, float] | None = None) -> None:
        kinds = dict(kinds or {})
        self.devices: dict[str, SimDevice] = {}
        for device in config.devices.values():
            if device.driver != "serial":
                continue
            kind = kinds.pop(device.id, None) or infer_kind(device)
            if kind is None:
                raise ValueError(f"cannot tell which instrument {device.id} is from its points; "
                                 f"name it with --kind {device.id}=" + "|".join(KINDS))
            self.devices[device.id] = SimDevice(device, kind, link_dir, line_time)
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


# -- the standalone program -------------------------------------------------------------------


def _seconds(text: str) -> float:
    return math.inf if text in ("never", "inf") else float(text)


def control(sim: SerialSim, line: str) -> str:
    """Carry out one control line; the one-line answer."""
    words = line.split()
    if not words:
        return "error empty command"
    op, args = words[0], words[1:]
    try:
        if op in ("drop", "restore") and len(args) == 1:
            getattr(sim, op)(args[0])
        elif op == "slow" and len(args) == 2:
            sim.slow(args[0], _seconds(args[1]))
        elif op == "fail" and len(args) == 2:
            sim.fail(args[0], None if args[1] == "off" else args[1])
        elif op == "set" and len(args) == 2:
            sim.set_value(args[0], args[1])
        elif op in ("reply", "push") and len(args) == 2:
            data = bytes.fromhex(args[1])
            (sim.reply_next if op == "reply" else sim.push)(args[0], data)
        elif op == "period" and len(args) == 2:
            sim.set_period(args[0], None if args[1] == "off" else float(args[1]))
        elif op == "received" and len(args) == 1:
            return "ok " + json.dumps(sim.received(args[0]))
        elif op == "where" and len(args) == 1:
            return "ok " + sim.where(args[0])
        else:
            return f"error unknown command or wrong arguments: {line.strip()!r}"
    except (KeyError, ValueError, OSError) as exc:
        return f"error {exc}"
    return f"ok {line.strip()}"


async def _serve_stdin(sim: SerialSim) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        while line := await reader.readline():
            print(control(sim, line.decode(errors="replace")), flush=True)
    finally:
        transport.close()


async def _main(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        kinds = dict(_pair(k) for k in args.kind)
        periods = {d: float(s) for d, s in (_pair(p) for p in args.period)}
        sim = SerialSim(config, link_dir=args.link_dir, line_time=not args.no_line_time,
                        kinds=kinds, periods=periods)
    except Exception as exc:
        print(f"hermes-sim serial: {exc}", file=sys.stderr)
        return 2
    if not sim.devices:
        print("hermes-sim serial: the config has no serial devices", file=sys.stderr)
        return 2
    main = asyncio.current_task()
    assert main is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, main.cancel)
    runner = asyncio.create_task(sim.run(), name="sim-serial")
    ready = asyncio.create_task(sim.ready.wait())
    await asyncio.wait([runner, ready], return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        ready.cancel()
        failure = runner.exception()
        hint = " (--link-dir DIR puts the links elsewhere)" \
            if isinstance(failure, OSError) and args.link_dir is None else ""
        print(f"hermes-sim serial: {failure}{hint}", file=sys.stderr)
        return 1
    for dev_id, device in sim.devices.items():
        print(f"{dev_id} {device.instrument.kind} {device.port.where}", flush=True)
    print("READY", flush=True)
    try:
        if args.control == "stdin":
            await _serve_stdin(sim)
        else:
            await runner
    except asyncio.CancelledError:
        pass
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    return 0


def _pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise ValueError(f"expected DEVICE=VALUE, got {text!r}")
    return name, value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="hermes-sim-serial", description=__doc__.split("\n")[0])
    parser.add_argument("--config", required=True, help="the hermesd config whose serial devices "
                                                         "to simulate")
    parser.add_argument("--link-dir", type=Path, help="make each device's link DIR/<device id> "
                                                      "instead of at its configured port path")
    parser.add_argument("--no-line-time", action="store_true",
                        help="answer at pty speed instead of at the configured baud rate")
    parser.add_argument("--kind", action="append", default=[], metavar="DEVICE=KIND",
                        help=f"the instrument a device is ({'|'.join(KINDS)})")
    parser.add_argument("--period", action="append", default=[], metavar="DEVICE=SECONDS",
                        help="seconds between a streaming instrument's lines")
    parser.add_argument("--control", choices=("none", "stdin"), default="none",
                        help="take control commands on stdin (and exit at its end)")
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="sim-serial %(levelname)s %(name)s: %(message)s")
    sys.exit(asyncio.run(_main(args)))


if __name__ == "__main__":
    main()
