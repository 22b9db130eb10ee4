"""The standalone serial simulator: `python -m hermes_tools.sim.serial --config FILE [--link-dir DIR]`.

It serves only the config's serial devices, with knobs `hermes-sim` does not have: `--kind`
(which instrument a device is), `--period` (a streaming instrument's rate), `--no-line-time`,
and `--control stdin`, which takes the `SerialSim` calls as lines on stdin (`drop scale1`,
`slow scale1 never`, `push scale1 HEX`, `received scale1`) and answers each with one line,
`ok ...` or `error ...`, exiting at EOF; tests and benchmarks drive it that way. It prints one
line per device (`scale1 scale LINK -> TTY`), then `READY`. For the whole plant at once (Modbus,
serial and MQTT behind one control socket), use `hermes-sim`. It never touches a real serial
port: a path that exists and is not a symlink is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import signal
import sys
from pathlib import Path

from hermes_tools.sim.serial import SerialSim
from hermes_tools.sim.serial_instruments import KINDS
from hermesd.config import load_config


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
    parser = argparse.ArgumentParser(prog="python -m hermes_tools.sim.serial",
                                     description="Serve a config's serial instruments on ptys.")
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
