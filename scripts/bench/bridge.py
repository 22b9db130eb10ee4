"""Bridge benchmark: Modbus values polled every second and published to MQTT, vs a bare loop.

    .venv/bin/python scripts/bench/bridge.py [--seconds 30] [--rounds 3] [--changing 10]

A pymodbus TCP server on loopback (its own process) holds 100 holding registers and 20 coils;
at each read, the first `--changing` registers read one more than last time (a plant where a few
values move), the rest hold still. A local Mosquitto takes the messages. In turn, per round:
  - hermesd with one Modbus device (100 uint16 points, 20 coil points, `poll_interval: 1s`)
    and its MQTT bridge: the daemon, its modbus tool and its mqtt tool;
  - baseline: one bare process, a pymodbus async client and a paho client, that reads the same
    100 registers and 20 coils every second and publishes each value that changed, retained,
    to its own topic (what the bridge does between its announcements).
Figures per round, after a warm-up: CPU of all the processes of each side (the run time of
their threads from /proc/PID/task/*/schedstat, % of one core and ms per poll) and their memory
as PSS (shared pages split between the processes that map them, /proc/PID/smaps_rollup).
Medians of the rounds and the ratio; the ratio holds on a noisy machine, absolute figures do
not. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
# a sibling script named like a library (serial.py) must not shadow it
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
sys.path.insert(0, str(ROOT))

from tests.support import procfs  # noqa: E402
from tests.support.mosquitto import Mosquitto  # noqa: E402
from tests.support.ports import free_port  # noqa: E402

REGISTERS = 100
COILS = 20
Row = tuple[float, float, dict[str, tuple[float, float]]]


# -- the server (its own process) -------------------------------------------------------------

def serve(port: int, changing: int) -> None:
    from hermes_tools.modbus.bus import quiet_pymodbus
    from pymodbus.server import ModbusTcpServer
    from pymodbus.simulator import DataType, SimData, SimDevice

    quiet_pymodbus()

    async def main() -> None:
        device = SimDevice(id=1, simdata=(
            [SimData(0, count=COILS, values=False, datatype=DataType.BITS)],
            [SimData(0, count=16, values=False, datatype=DataType.BITS)],
            [SimData(0, count=REGISTERS, values=list(range(REGISTERS)),
                     datatype=DataType.REGISTERS)],
            [SimData(0, count=16, values=0, datatype=DataType.REGISTERS)]))
        server = ModbusTcpServer([device], address=("127.0.0.1", port))
        core = server.context
        plain = core.async_getValues
        reads = [0]

        async def moving(device_id: int, func_code: int, address: int, count: int = 1) -> Any:
            values = await plain(device_id, func_code, address, count)
            if func_code == 3 and isinstance(values, list) and address < changing:
                reads[0] += 1
                values = [(v + reads[0]) & 0xFFFF if address + i < changing else v
                          for i, v in enumerate(values)]
            return values

        core.async_getValues = moving  # type: ignore[method-assign]
        await server.serve_forever(background=True)
        print("READY", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


# -- the baseline (its own process) ---------------------------------------------------------

def bare(modbus_port: int, mqtt_port: int) -> None:
    import paho.mqtt.client as paho
    from hermes_tools.modbus.bus import quiet_pymodbus
    from paho.mqtt.enums import CallbackAPIVersion
    from pymodbus.client import AsyncModbusTcpClient

    quiet_pymodbus()
    mqtt = paho.Client(CallbackAPIVersion.VERSION2, client_id="bare")
    mqtt.connect("127.0.0.1", mqtt_port)
    mqtt.loop_start()

    async def main() -> None:
        client = AsyncModbusTcpClient("127.0.0.1", port=modbus_port, timeout=2, retries=0)
        await client.connect()
        last: dict[str, Any] = {}
        print("READY", flush=True)
        while True:
            started = time.monotonic()
            regs = await client.read_holding_registers(0, count=REGISTERS, device_id=1)
            coils = await client.read_coils(0, count=COILS, device_id=1)
            values = {**{f"r{i}": v for i, v in enumerate(regs.registers)},
                      **{f"c{i}": "ON" if v else "OFF" for i, v in enumerate(coils.bits[:COILS])}}
            for name, value in values.items():
                if last.get(name) != value:
                    mqtt.publish(f"bare/{name}/state", str(value), qos=0, retain=True)
                    last[name] = value
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started)))

    asyncio.run(main())


def start(args: list[str]) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "READY":
        proc.kill()
        raise RuntimeError(f"{args[0]} said {line!r}")
    return proc


#: an interpreter that runs an event loop and nothing else: what each of hermesd's three
#: processes is before any code of its own (the design runs each tool as its own process)
IDLE = "import asyncio\nasync def main():\n    print('READY', flush=True)\n" \
    "    await asyncio.Event().wait()\nasyncio.run(main())\n"


def interpreters(n: int) -> float:
    """PSS (MiB) of `n` bare asyncio interpreters running side by side."""
    procs = [subprocess.Popen([sys.executable, "-c", IDLE], stdout=subprocess.PIPE, text=True)
             for _ in range(n)]
    try:
        for proc in procs:
            assert proc.stdout is not None
            if proc.stdout.readline().strip() != "READY":
                raise RuntimeError("a bare interpreter did not start")
        return pss_mib([proc.pid for proc in procs])
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()


# -- measuring ------------------------------------------------------------------------------

def tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo.extend(procfs.children(p))
    return pids


def pss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
    return total / 1024


def name(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        argv = f.read().split(b"\0")
    module = argv[argv.index(b"-m") + 1].decode() if b"-m" in argv else Path(argv[1].decode()).name
    return module.rsplit(".", 1)[-1] if module.startswith("hermes_tools") else module


def measure(pid: int, seconds: float) -> tuple[float, float, dict[str, tuple[float, float]]]:
    """(CPU % of one core, PSS MiB, {process: (CPU %, PSS MiB)}) of `pid` and its descendants
    over `seconds`."""
    pids = tree(pid)
    before = {p: procfs.thread_cpu_seconds(p) for p in pids}
    time.sleep(seconds)
    each = {name(p): ((procfs.thread_cpu_seconds(p) - before[p]) / seconds * 100, pss_mib([p]))
            for p in pids}
    return sum(c for c, _ in each.values()), sum(m for _, m in each.values()), each


def write_config(tmp: Path, modbus_port: int, mqtt_port: int) -> Path:
    points: dict[str, Any] = {f"r{i}": {"table": "holding", "address": i, "type": "uint16"}
                              for i in range(REGISTERS)}
    points.update({f"c{i}": {"table": "coil", "address": i, "type": "bool"}
                   for i in range(COILS)})
    config = {
        "node": {"id": "bench"}, "llm": {"enabled": False},
        "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
        "access": {"default_role": "viewer", "roles": {"viewer": {"read": True}}},
        "mqtt": {"host": "127.0.0.1", "port": mqtt_port, "base_topic": "hermesd",
                 "discovery_prefix": "homeassistant", "command_role": "viewer"},
        "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "port": modbus_port,
                            "unit": 1, "timeout": "1s", "poll_interval": "1s",
                            "points": points}},
    }
    path = tmp / "hermesd.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--changing", type=int, default=10)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--bare", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.changing)
        return
    if args.bare is not None:
        bare(*args.bare)
        return

    sys.path.insert(0, str(ROOT / "scripts" / "bench"))
    from core import start_daemon, stop

    ours: list[Row] = []
    floor: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="hb", dir="/tmp") as tmpdir:
        tmp = Path(tmpdir)
        broker = Mosquitto(tmp / "broker").start()
        modbus_port = free_port()
        server = start(["--serve", str(modbus_port), "--changing", str(args.changing)])
        try:
            config = write_config(tmp, modbus_port, broker.port)
            for _ in range(args.rounds):
                base = start(["--bare", str(modbus_port), str(broker.port)])
                try:
                    time.sleep(args.warmup)
                    floor.append(measure(base.pid, args.seconds))
                finally:
                    base.terminate()
                    base.wait()
                daemon, _ = start_daemon(config, tmp / "notify")
                try:
                    time.sleep(args.warmup)
                    ours.append(measure(daemon.pid, args.seconds))
                finally:
                    stop(daemon)
        finally:
            server.terminate()
            server.wait()
            broker.stop()

    def med(rows: list[Row], i: int) -> float:
        return statistics.median(r[i] for r in rows)  # type: ignore[misc]

    print(f"{REGISTERS} registers + {COILS} coils polled every 1 s, {args.changing} registers "
          f"changing per poll, published to MQTT; {args.rounds} rounds of {args.seconds:g} s:")
    for name, rows in (("hermesd", ours), ("bare", floor)):
        print(f"  {name:8s} CPU {med(rows, 0):.2f} % of a core ({med(rows, 0) * 10:.1f} ms per "
              f"poll; rounds {', '.join(f'{r[0]:.2f}' for r in rows)})   PSS "
              f"{med(rows, 1):.1f} MiB in {len(rows[0][2])} processes")
        for proc in rows[0][2]:
            print(f"    {proc:22s} CPU {statistics.median(r[2][proc][0] for r in rows):.2f} %"
                  f"   PSS {statistics.median(r[2][proc][1] for r in rows):.1f} MiB")
    print(f"  ratio    CPU {med(ours, 0) / med(floor, 0):.2f}x   PSS "
          f"{med(ours, 1) / med(floor, 1):.2f}x")
    # the floor of the design's three processes: half of hermesd's PSS is below it
    empty = interpreters(len(ours[0][2]))
    print(f"  {len(ours[0][2])} bare asyncio interpreters side by side (no code of ours): PSS "
          f"{empty:.1f} MiB; half of hermesd's is {med(ours, 1) / 2:.1f} MiB")


if __name__ == "__main__":
    main()
