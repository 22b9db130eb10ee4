"""Poll groups benchmark: 1,000 registers of one device in a fast, a medium and a slow group.

    .venv/bin/python scripts/bench/poll_groups.py [--seconds 30] [--rounds 3] [--capacity 1]

One device, unit 1 on a pymodbus TCP server on loopback (its own process, so its work is not
charged to the client measured), 1,000 holding registers as 999 points:
  - fast, every 100 ms: `clock` (a uint32 at 0..1 that the server fills with its wall-clock
    milliseconds as it answers) and 98 uint16 points: 100 registers, one block;
  - medium, every 1 s: 400 uint16 points at 100..499: four blocks;
  - slow, every 10 s: 500 uint16 points at 500..999: four blocks.
Nominally 1,000 + 400 + 50 = 1,450 registers/s.

1. Capacity: the same nine blocks read back to back for `--capacity` seconds per round (at
   least 15 rounds each way, in turn), registers/s: a bare pymodbus async client (baseline)
   against the tool's own polls of its
   three groups, in process, reporting every point and encoding the `values` frames hermesd
   would get (a point whose registers read as last time is named `fresh`, not decoded again;
   the clock changes at every read, the other registers hold still; then again with every
   register changing at every read, the worst case). Target: the tool >= 80 % of the bare
   client.
2. On schedule, for `--seconds` per round, rounds alternating:
   - the Modbus tool as hermesd runs it: its own process, started, configured and fed through
     hermesd's `Supervisor`, its `values` events received here as hermesd would;
   - baseline: a bare pymodbus client in its own process polling the same three groups on the
     same schedule (one asyncio task per group, nothing decoded).
   Figures: registers/s delivered (registers of the values received), freshness of the fast
   group — at every 5 ms of the run, how old the newest `clock` received is, measured from when
   the server read its clock (target p99 <= 2 x 100 ms) —, CPU of the polling process (% of one
   core) and its resident memory (RSS, and the peak).
Medians of the rounds; ratios against the baseline of the same run hold on a noisy machine.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# a sibling script named like a library (serial.py) must not shadow it
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.support

from hermes_tools.modbus.tool import ModbusTool  # noqa: E402
from pymodbus.client import AsyncModbusTcpClient  # noqa: E402

from hermesd.config.loader import validate  # noqa: E402
from hermesd.config.model import Config  # noqa: E402
from hermesd.core.protocol import Event, Message, encode  # noqa: E402
from hermesd.supervisor import Supervisor  # noqa: E402
from hermesd.toolspecs import tool_specs  # noqa: E402
from tests.support import procfs  # noqa: E402

REGISTERS = 1000
CLOCK = 0  # the fast group's uint32 clock at 0..1
#: (name, interval in seconds, first register, last register + 1)
GROUPS = (("fast", 0.1, 0, 100), ("medium", 1.0, 100, 500), ("slow", 10.0, 500, 1000))
SAMPLE_EVERY = 0.005  # seconds between freshness samples


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the server (its own process) -------------------------------------------------------------

def serve(port: int, churn: bool) -> None:
    """A pymodbus TCP server with 1,000 holding registers; registers 0..1 read as the server's
    wall clock in milliseconds (mod 2**32) at the moment it answers. With `churn`, every other
    register reads differently at every read too."""
    from hermes_tools.modbus.bus import quiet_pymodbus
    from pymodbus.server import ModbusTcpServer
    from pymodbus.simulator import DataType, SimData, SimDevice

    quiet_pymodbus()

    async def main() -> None:
        device = SimDevice(id=1, simdata=(
            [SimData(0, count=16, values=False, datatype=DataType.BITS)],
            [SimData(0, count=16, values=False, datatype=DataType.BITS)],
            [SimData(0, count=REGISTERS, values=list(range(REGISTERS)),
                     datatype=DataType.REGISTERS)],
            [SimData(0, count=16, values=0, datatype=DataType.REGISTERS)]))
        server = ModbusTcpServer([device], address=("127.0.0.1", port))
        core = server.context
        plain = core.async_getValues
        reads = [0]

        async def clocked(device_id: int, func_code: int, address: int,
                          count: int = 1) -> Any:
            values = await plain(device_id, func_code, address, count)
            if churn and isinstance(values, list):
                reads[0] += 1
                values = [(v + reads[0]) & 0xFFFF for v in values]
            if func_code == 3 and isinstance(values, list) and address <= CLOCK \
                    and address + count >= CLOCK + 2:
                ms = int(time.time() * 1000) & 0xFFFFFFFF
                values = list(values)
                values[CLOCK - address:CLOCK - address + 2] = [ms >> 16, ms & 0xFFFF]
            return values

        core.async_getValues = clocked  # type: ignore[method-assign]
        await server.serve_forever(background=True)
        print("READY", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


def start_server(port: int, churn: bool = False) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port),
                             *(["--churn"] if churn else [])],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "READY":
        proc.kill()
        raise RuntimeError(f"the server said {line!r}")
    return proc


# -- the config -----------------------------------------------------------------------------

def config(port: int, tmp: Path) -> Config:
    points: dict[str, Any] = {"clock": {"table": "holding", "address": CLOCK, "type": "uint32",
                                        "group": "fast"}}
    for name, _, first, end in GROUPS:
        for address in range(first, end):
            if CLOCK <= address < CLOCK + 2:
                continue
            points[f"{name}_{address}"] = {"table": "holding", "address": address,
                                           "type": "uint16", "group": name}
    data = {"node": {"id": "bench"}, "llm": {"enabled": False},
            "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
            "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "port": port,
                                "timeout": "1s", "poll_interval": "1s",
                                "groups": {name: {"poll_interval": f"{interval:g}s"}
                                           for name, interval, _, _ in GROUPS},
                                "points": points}}}
    return validate(data, tmp / "bench.yaml")


def blocks(cfg: Config) -> list[tuple[int, int]]:
    """(address, count) of each request of one poll of every group, as the tool plans them."""
    tool = ModbusTool()
    asyncio.run(tool.configure(tool_specs(cfg)["modbus"].config))
    return [(b.address, b.count) for b in tool.devices["plc"].blocks]


# -- 1. capacity ----------------------------------------------------------------------------

async def bare_capacity(port: int, plan: list[tuple[int, int]],
                        seconds: float) -> tuple[float, float]:
    """(registers/s, CPU seconds of this process per 1,000 registers)."""
    client = AsyncModbusTcpClient("127.0.0.1", port=port, timeout=2, retries=0)
    await client.connect()
    registers, started, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        for address, count in plan:
            rr = await client.read_holding_registers(address, count=count, device_id=1)
            registers += len(rr.registers)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    client.close()
    return registers / elapsed, cpu / registers * 1000


async def tool_capacity(cfg: Config, seconds: float) -> tuple[float, float]:
    """(registers/s, CPU seconds of this process per 1,000 registers)."""
    tool = ModbusTool()
    frames = [0]

    def send(msg: Message) -> None:
        frames[0] += len(encode(msg))  # the event frame hermesd would receive

    tool._send = send
    await tool.configure(tool_specs(cfg)["modbus"].config)
    dev = tool.devices["plc"]
    registers, started, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        for group in dev.groups:
            await tool.poll(dev, group)
            registers += sum(b.count for b in group.blocks)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    await tool.close()
    assert frames[0] > 0 and dev.health.online
    return registers / elapsed, cpu / registers * 1000


def capacity(port: int, cfg: Config, plan: list[tuple[int, int]], rounds: int,
             seconds: float) -> dict[str, float]:
    """Medians of `rounds` rounds, each a bare run and a tool run in turn (which goes first
    alternates): registers/s, CPU ms per 1,000 registers, and the per-round ratio of
    registers/s with its quartiles (how much the machine's other load moved it)."""
    got: dict[str, list[float]] = {"bare": [], "tool": [], "bare_cpu": [], "tool_cpu": [],
                                   "ratio": []}
    for i in range(rounds):
        if i % 2:
            b = asyncio.run(bare_capacity(port, plan, seconds))
            t = asyncio.run(tool_capacity(cfg, seconds))
        else:
            t = asyncio.run(tool_capacity(cfg, seconds))
            b = asyncio.run(bare_capacity(port, plan, seconds))
        for key, value in (("bare", b[0]), ("tool", t[0]), ("bare_cpu", b[1] * 1000),
                           ("tool_cpu", t[1] * 1000), ("ratio", t[0] / b[0])):
            got[key].append(value)
    out = {k: statistics.median(v) for k, v in got.items()}
    out["ratio_q1"], out["ratio_q3"] = pct(got["ratio"], 0.25), pct(got["ratio"], 0.75)
    return out


# -- 2. on schedule -------------------------------------------------------------------------

def memory_kib(pid: int) -> tuple[int, int]:
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]), int(status["VmHWM"].split()[0])


def freshness(arrivals: list[tuple[float, float]], start: float, end: float) -> list[float]:
    """Ages (s) of the newest clock value received, sampled every SAMPLE_EVERY in [start, end):
    `arrivals` are (when received, when the server read its clock), in arrival order."""
    times = [a for a, _ in arrivals]
    ages = []
    t = start
    while t < end:
        i = bisect.bisect_right(times, t) - 1
        if i >= 0:
            ages.append(t - arrivals[i][1])
        t += SAMPLE_EVERY
    return ages


def clock_time(value: int, now: float) -> float:
    """The server's wall-clock time in a (mod 2**32 ms) clock value received at `now`."""
    now_ms = int(now * 1000)
    return (now_ms - ((now_ms - value) & 0xFFFFFFFF)) / 1000


def figures(arrivals: list[tuple[float, float]], registers: int, cpu: float,
            mem: tuple[int, int], start: float, end: float) -> dict[str, float]:
    ages = freshness(arrivals, start + 1.0, end)  # after the first fast polls
    span = end - start
    return {"registers_s": registers / span, "fresh_p50_ms": pct(ages, 0.5) * 1000,
            "fresh_p99_ms": pct(ages, 0.99) * 1000, "cpu_pct": cpu / span * 100,
            "rss_mib": mem[0] / 1024, "peak_mib": mem[1] / 1024}


async def tool_schedule(cfg: Config, seconds: float) -> dict[str, float]:
    words = {pid: (p.params.get("type") == "uint32" and 2) or 1 for pid, p in cfg.points.items()}
    arrivals: list[tuple[float, float]] = []
    counted = [0]
    window = [0.0, 0.0]

    def on_event(tool: str, event: Event) -> None:
        if event.kind != "values":
            return
        now = time.time()
        counting = window[0] <= now < window[1] or not window[1]
        for item in event.data["values"]:
            if counting:
                counted[0] += words[item["point"]]
            if item["point"] == "clock":
                arrivals.append((now, clock_time(int(item["value"]), now)))
                polling.set()
        for fresh in event.data.get("fresh", []):  # read again, unchanged: delivered too
            if counting:
                counted[0] += sum(words[p] for p in fresh["points"].split(" "))

    polling = asyncio.Event()  # the first clock value came
    supervisor = Supervisor(cfg.paths.runtime_dir, on_event)
    cfg.paths.runtime_dir.mkdir(parents=True, exist_ok=True)
    runner = asyncio.create_task(supervisor.run(tool_specs(cfg)))
    try:
        async with asyncio.timeout(30):
            await polling.wait()
        tool = supervisor.tools["modbus"]
        assert tool.proc is not None
        pid = tool.proc.pid
        counted[0] = 0
        window[0] = start = time.time()
        window[1] = start + seconds
        cpu0 = (procfs.cpu_seconds(pid) or 0.0)
        await asyncio.sleep(seconds)
        cpu = (procfs.cpu_seconds(pid) or 0.0) - cpu0
        mem = memory_kib(pid)
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    return figures([a for a in arrivals if a[0] >= start], counted[0], cpu, mem, start,
                   start + seconds)


async def bare_schedule_main(port: int, seconds: float,
                             plan: list[tuple[float, int, int]]) -> dict[str, float]:
    """The baseline in its own process: one task per group, each reading its blocks at its
    interval with a bare pymodbus client."""
    client = AsyncModbusTcpClient("127.0.0.1", port=port, timeout=2, retries=0)
    await client.connect()
    lock = asyncio.Lock()  # one request at a time on the connection, as on a real link
    arrivals: list[tuple[float, float]] = []
    counted = [0]
    start = time.time() + 1.0  # the first second warms up, as the tool's start does
    end = start + seconds

    async def group(interval: float, members: list[tuple[int, int]]) -> None:
        while True:
            began = time.monotonic()
            for address, count in members:
                async with lock:
                    rr = await client.read_holding_registers(address, count=count, device_id=1)
                now = time.time()
                if start <= now < end:
                    counted[0] += len(rr.registers)
                if address == CLOCK:
                    value = (rr.registers[0] << 16) | rr.registers[1]
                    arrivals.append((now, clock_time(value, now)))
            await asyncio.sleep(max(0.0, began + interval - time.monotonic()))

    by_interval: dict[float, list[tuple[int, int]]] = {}
    for interval, address, count in plan:
        by_interval.setdefault(interval, []).append((address, count))
    tasks = [asyncio.create_task(group(i, m)) for i, m in sorted(by_interval.items())]
    await asyncio.sleep(max(0.0, start - time.time()))
    cpu0 = (procfs.cpu_seconds(os.getpid()) or 0.0)
    await asyncio.sleep(max(0.0, end - time.time()))
    cpu = (procfs.cpu_seconds(os.getpid()) or 0.0) - cpu0
    mem = memory_kib(os.getpid())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    client.close()
    return figures([a for a in arrivals if a[0] >= start], counted[0], cpu, mem, start, end)


def bare_schedule(port: int, seconds: float, cfg: Config, tmp: Path) -> dict[str, float]:
    tool = ModbusTool()
    asyncio.run(tool.configure(tool_specs(cfg)["modbus"].config))
    plan = [(g.interval, b.address, b.count) for g in tool.devices["plc"].groups
            for b in g.blocks]
    out = tmp / "bare.json"
    subprocess.run([sys.executable, __file__, "--bare", str(port), str(seconds), str(out),
                    json.dumps(plan)], check=True)
    return dict(json.loads(out.read_text()))


# -- main -----------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--capacity", type=float, default=1.0,
                        help="seconds of each capacity round (15 rounds at least)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--churn", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--bare", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.churn)
        return
    if args.bare:
        port, seconds, out, plan = args.bare
        got = asyncio.run(bare_schedule_main(int(port), float(seconds),
                                             [tuple(p) for p in json.loads(plan)]))
        Path(out).write_text(json.dumps(got))
        return

    port = free_port()
    server = start_server(port)
    try:
        with tempfile.TemporaryDirectory(prefix="hermesd-bench-") as tmp_name:
            tmp = Path(tmp_name)
            cfg = config(port, tmp)
            plan = blocks(cfg)
            print(f"1 device, {len(cfg.points)} points, {REGISTERS} registers, "
                  f"{len(plan)} requests per poll of every group "
                  f"({', '.join(f'{n} every {i:g} s' for n, i, _, _ in GROUPS)}); nominal "
                  f"{sum((e - f) / i for _, i, f, e in GROUPS):.0f} registers/s")
            rounds = max(15, 5 * args.rounds)
            print(f"\n1. capacity, back to back, medians of {rounds} rounds of "
                  f"{args.capacity:g} s each way (in turn; the ratio is taken per round)")
            for label, churn in (("registers holding still", False),
                                 ("every register changing at every read", True)):
                cap_port = free_port()
                cap_server = start_server(cap_port, churn) if churn else None
                cap_cfg = config(cap_port, tmp) if churn else cfg
                try:
                    c = capacity(cap_port if churn else port, cap_cfg, plan, rounds,
                                 args.capacity)
                finally:
                    if cap_server is not None:
                        cap_server.terminate()
                        cap_server.wait(5)
                print(f"   {label} (the clock always changes):")
                print(f"     bare pymodbus client : {c['bare']:9.0f} registers/s, "
                      f"{c['bare_cpu']:5.2f} ms CPU per 1,000 registers")
                print(f"     modbus tool (groups) : {c['tool']:9.0f} registers/s, "
                      f"{c['tool_cpu']:5.2f} ms CPU per 1,000 registers")
                print(f"     tool / bare          : {c['ratio']:.0%} (quartiles "
                      f"{c['ratio_q1']:.0%}..{c['ratio_q3']:.0%})"
                      f"{'; target >= 80 %' if not churn else ''}")

            runs: dict[str, list[dict[str, float]]] = {"bare": [], "tool": []}
            for _ in range(args.rounds):
                runs["bare"].append(bare_schedule(port, args.seconds, cfg, tmp))
                runs["tool"].append(asyncio.run(tool_schedule(cfg, args.seconds)))
            print(f"\n2. on schedule, median of {args.rounds} x {args.seconds:g} s")
            keys = ("registers_s", "fresh_p50_ms", "fresh_p99_ms", "cpu_pct", "rss_mib",
                    "peak_mib")
            med = {who: {k: statistics.median(r[k] for r in rs) for k in keys}
                   for who, rs in runs.items()}
            print(f"   {'':24}{'registers/s':>12}{'fresh p50':>11}{'fresh p99':>11}"
                  f"{'CPU':>8}{'RSS':>9}{'peak':>9}")
            for who, label in (("bare", "bare pymodbus client"), ("tool", "modbus tool")):
                m = med[who]
                print(f"   {label:24}{m['registers_s']:12.0f}{m['fresh_p50_ms']:9.0f}ms"
                      f"{m['fresh_p99_ms']:9.0f}ms{m['cpu_pct']:7.1f}%{m['rss_mib']:7.1f}MiB"
                      f"{m['peak_mib']:7.1f}MiB")
            t, b = med["tool"], med["bare"]
            print(f"   tool / bare: registers/s {t['registers_s'] / b['registers_s']:.0%} "
                  f"(target >= 80 %), CPU {t['cpu_pct'] / max(b['cpu_pct'], 0.01):.1f}x; fast "
                  f"group freshness p99 {t['fresh_p99_ms']:.0f} ms (target <= 200 ms)")
    finally:
        server.terminate()
        server.wait(5)


if __name__ == "__main__":
    main()
