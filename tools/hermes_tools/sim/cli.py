"""The `hermes-sim` command: serve simulated devices for a config, or control a running simulator.

    hermes-sim --config FILE [--values FILE] [--control PATH] [--device ID ...] [--seed N]
    hermes-sim ctl [--control PATH] status
    hermes-sim ctl drop DEVICE [--refuse | --unplug] | restore DEVICE | slow DEVICE SECONDS
    hermes-sim ctl fail DEVICE CODE [--table T --address A --count N] | corrupt DEVICE crc|truncate|off
    hermes-sim ctl stick DEVICE (writes acknowledged, not taken)
    hermes-sim ctl set POINT VALUE | get POINT

It simulates Modbus devices (TCP servers, RTU buses on ptys), serial instruments (on ptys behind
the configured port path, or a link of their own when that path is under /dev/) and MQTT devices
(clients on the configured broker). Serving prints one line per device (where it is served), then
`ready`. The control socket is
`--control`, else `$HERMES_SIM_CONTROL`, else `hermes-sim-<uid>.sock` in $XDG_RUNTIME_DIR (or
/tmp), so `hermes-sim ctl drop plc1` finds the simulator you started. A bad config or a busy
port is a clear message and an exit code (78, 69), never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

EX_USAGE = 64
EX_UNAVAILABLE = 69
EX_CONFIG = 78


def control_path(explicit: str | None) -> Path:
    """`--control`, else `$HERMES_SIM_CONTROL`, else one per user in $XDG_RUNTIME_DIR or /tmp."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("HERMES_SIM_CONTROL")
    if env:
        return Path(env)
    base = os.environ.get("XDG_RUNTIME_DIR") or "/tmp"  # noqa: S108 - a per-user name
    return Path(base) / f"hermes-sim-{os.getuid()}.sock"


def _load_values(path: str | None) -> dict[str, Any]:
    if not path:
        return {}
    import yaml

    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of point id -> value")
    return data


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "ctl":
        sys.exit(ctl(args[1:]))
    sys.exit(serve(args))


# -- serving --------------------------------------------------------------------------------

def serve(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hermes-sim",
                                     description="Serve simulated devices for a hermesd config.",
                                     epilog="hermes-sim ctl --help: change a running simulator")
    parser.add_argument("--config", required=True, help="the hermesd config to simulate")
    parser.add_argument("--values", help="YAML mapping of point id -> base value")
    parser.add_argument("--control", help="control socket path")
    parser.add_argument("--device", action="append", help="simulate only this device (repeat)")
    parser.add_argument("--seed", type=int, help="random seed (repeatable runs)")
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="hermes-sim %(levelname)s %(name)s: %(message)s")
    logging.getLogger("pymodbus").setLevel(logging.CRITICAL)  # we report faults ourselves
    from hermesd.config import load_config
    from hermesd.core.errors import ConfigError

    try:
        config = load_config(args.config)
        values = _load_values(args.values)
    except ConfigError as exc:
        for line in exc.lines():
            print(line, file=sys.stderr)
        return EX_CONFIG
    except (OSError, ValueError) as exc:
        print(f"hermes-sim: {exc}", file=sys.stderr)
        return EX_CONFIG
    path = control_path(args.control)
    try:
        return asyncio.run(_serve(config, values, path, args))
    except KeyboardInterrupt:
        return 0


async def _serve(config: Any, values: dict[str, Any], path: Path, args: argparse.Namespace) -> int:
    from hermes_tools.sim import build
    from hermes_tools.sim.control import ControlServer

    only = set(args.device) if args.device else None
    unknown = sorted((only or set()) - set(config.devices))
    if unknown:
        print(f"hermes-sim: no device {', '.join(unknown)} in {config.source}", file=sys.stderr)
        return EX_USAGE
    try:
        sims, missing = build(config, values, seed=args.seed, only=only)
    except (ValueError, KeyError, OSError) as bad:  # e.g. a value a point cannot show
        message = bad.args[0] if isinstance(bad, KeyError) and bad.args else bad
        print(f"hermes-sim: {message}", file=sys.stderr)
        return EX_CONFIG
    control = ControlServer(path, sims)
    main = asyncio.current_task()
    assert main is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, main.cancel)
    code = 0
    try:
        await control.start()
        async with asyncio.TaskGroup() as tg:
            runs = [tg.create_task(sim.run(), name=f"sim-{sim.driver}") for sim in sims]
            for sim, task in zip(sims, runs, strict=True):
                ready = asyncio.ensure_future(sim.ready.wait())
                await asyncio.wait([ready, task], return_when=asyncio.FIRST_COMPLETED)
                ready.cancel()
                if task.done():
                    task.result()  # raises why it could not start
            for device, info in sorted(_merged_status(sims).items()):
                print(f"hermes-sim: {device} ({info['driver']}) {_where(info)}", flush=True)
            for dev in missing:
                print(f"hermes-sim: {dev.id} ({dev.driver}) not simulated: no {dev.driver} "
                      "simulator", flush=True)
            for sim in sims:
                for device, why in sorted(getattr(sim, "not_simulated", {}).items()):
                    print(f"hermes-sim: {device} ({sim.driver}) not simulated: {why}",
                          flush=True)
            print(f"hermes-sim: ready; control socket {path}", flush=True)
            await asyncio.Event().wait()
    except* (RuntimeError, OSError) as group:
        for exc in group.exceptions:
            hint = " (is the port already in use?)" if isinstance(exc, RuntimeError) else ""
            print(f"hermes-sim: cannot serve: {exc}{hint}", file=sys.stderr)
        code = EX_UNAVAILABLE
    except* asyncio.CancelledError:
        pass
    finally:
        await control.stop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    return code


def _where(info: dict[str, Any]) -> str:
    """Where a device is served, as its status says (Modbus adds its unit id)."""
    return str(info["endpoint"]) + (f" unit {info['unit']}" if "unit" in info else "")


def _merged_status(sims: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sim in sims:
        out.update(sim.status())
    return out


# -- control --------------------------------------------------------------------------------

def ctl(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hermes-sim ctl",
                                     description="Change a running hermes-sim.")
    parser.add_argument("--control", help="control socket path")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    sub = parser.add_subparsers(dest="op", required=True)
    sub.add_parser("status", help="devices, where they are served, faults, request counts")
    p = sub.add_parser("drop", help="the device stops answering")
    p.add_argument("device")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--refuse", action="store_true",
                     help="TCP: close its endpoint (connection refused) instead of going silent")
    how.add_argument("--unplug", action="store_true",
                     help="serial: the port disappears instead of the instrument going silent")
    p = sub.add_parser("restore", help="clear every fault of a device")
    p.add_argument("device")
    p = sub.add_parser("slow", help="answer SECONDS late")
    p.add_argument("device")
    p.add_argument("seconds", type=float)
    p = sub.add_parser("fail", help="Modbus: answer with exception CODE; serial: answer "
                                    "`ERR CODE`; MQTT: show `ERR CODE` as its state (0 clears)")
    p.add_argument("device")
    p.add_argument("code")
    p.add_argument("--table", choices=("holding", "input", "coil", "discrete"))
    p.add_argument("--address", type=int, default=0)
    p.add_argument("--count", type=int, default=65536)
    p = sub.add_parser("corrupt", help="RTU: replies with a bad CRC or cut short")
    p.add_argument("device")
    p.add_argument("kind", choices=("crc", "truncate", "off"))
    p = sub.add_parser("stick", help="acknowledge writes without taking them")
    p.add_argument("device")
    p = sub.add_parser("set", help="set a point's simulated value")
    p.add_argument("point")
    p.add_argument("value")
    p = sub.add_parser("get", help="a point's simulated value now")
    p.add_argument("point")
    args = parser.parse_args(argv)
    path = control_path(args.control)
    req: dict[str, Any] = {"op": args.op}
    if args.op == "drop":
        req.update(device=args.device,
                   mode="refuse" if args.refuse else "unplug" if args.unplug else "silent")
    elif args.op in ("restore", "stick"):
        req["device"] = args.device
    elif args.op == "slow":
        req.update(device=args.device, seconds=args.seconds)
    elif args.op == "fail":
        code: int | str = int(args.code) if args.code.isdigit() else args.code
        req.update(device=args.device, code=code, address=args.address, count=args.count)
        if args.table:
            req["table"] = args.table
    elif args.op == "corrupt":
        req.update(device=args.device, kind="" if args.kind == "off" else args.kind)
    elif args.op == "set":
        value: Any = args.value
        with contextlib.suppress(ValueError):
            value = json.loads(args.value)
        req.update(point=args.point, value=value)
    elif args.op == "get":
        req["point"] = args.point
    from hermes_tools.sim.control import request

    try:
        answer = request(path, req)
    except (OSError, ConnectionError) as exc:
        print(f"hermes-sim ctl: cannot reach the simulator at {path}: {exc} (is it running? "
              "see --control)", file=sys.stderr)
        return EX_UNAVAILABLE
    if args.json:
        print(json.dumps(answer, ensure_ascii=False))
    elif not answer.get("ok"):
        print(f"hermes-sim ctl: {answer.get('error')}", file=sys.stderr)
    elif args.op == "status":
        for device, info in sorted(answer["devices"].items()):
            faults = [k for k in ("dropped", "delay_s", "corrupt", "fail", "stuck")
                      if info.get(k)]
            print(f"{device}: {_where(info)}; requests "
                  f"{info.get('requests', {}).get('read', 0)} read, "
                  f"{info.get('requests', {}).get('write', 0)} write"
                  + (f"; faults: {', '.join(faults)}" if faults else ""))
    else:
        shown = {k: v for k, v in answer.items() if k != "ok"}
        print(" ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in shown.items()))
    return 0 if answer.get("ok") else 1
