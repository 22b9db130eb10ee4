"""Modbus benchmark: polling throughput against a bare pymodbus client, read latency through
hermesd, time to stale, CPU and log lines during an outage, and the tool's memory.

    .venv/bin/python scripts/bench/modbus.py [--seconds 2] [--rounds 3] [--reads 300]
                                             [--outage 20]

Everything runs against `hermes-sim` on loopback (its own process, so the server's work is
not charged to the client being measured):

1. Polling throughput of a device with 200 uint16 registers in 20 blocks of 10 (addresses
   b*100 .. b*100+9), registers per second, in rounds that alternate:
   - baseline: a bare pymodbus async client reading the 20 blocks in a loop;
   - the tool's poll, in process, coalesced (20 requests per poll), decoding every point and
     encoding the `values` event frame it sends to hermesd;
   - the same poll with one request per point (200 requests per poll).
   Figures are medians of the rounds; the ratio to the baseline is what holds on a noisy box.
2. On-demand `read` latency through hermesd (control socket -> engine -> tool process ->
   PLC and back), p50/p99, against a bare pymodbus read of the same two registers.
3. Time from a PLC dropping out (silent, and refusing connections) at a random moment of its
   poll cycle to its points reading stale in hermesd's cache (watched through `points`, which
   never asks the device), with the dev plant's timing: poll 2 s, timeout 1 s; target
   <= max(2 x poll, timeout + 1 s) = 4 s. By design at most poll + timeout = 3 s.
4. CPU of the tool process and of hermesd, and log lines written, during an outage of every
   device (default 20 s), next to the same while everything answers.
5. Resident memory (RSS and peak) of the tool process.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
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

import yaml  # noqa: E402
from hermes_tools.modbus.blocks import plan  # noqa: E402
from hermes_tools.modbus.tool import ModbusTool  # noqa: E402
from hermes_tools.sim.control import request as sim_request  # noqa: E402
from pymodbus.client import AsyncModbusTcpClient  # noqa: E402

from hermesd.config import load_config  # noqa: E402
from hermesd.control.client import Client  # noqa: E402
from hermesd.core.protocol import Message, encode  # noqa: E402
from hermesd.toolspecs import tool_specs  # noqa: E402
from tests.support import procfs  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.until import until_sync  # noqa: E402

BLOCKS, PER_BLOCK = 20, 10


def write_config(tmp: Path) -> Path:
    bench_points = {f"r{b}_{i}": {"table": "holding", "address": b * 100 + i, "type": "uint16",
                                  "max_age": "1h"}
                    for b in range(BLOCKS) for i in range(PER_BLOCK)}
    plc1 = yaml.safe_load(Path("configs/demo.yaml").read_text(encoding="utf-8"))["devices"]["plc1"]
    plc1["port"] = free_port()
    config = {"node": {"id": "bench"}, "llm": {"enabled": False},
              "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
              "access": {"default_role": "viewer", "roles": {"viewer": {"read": True}}},
              "devices": {"plc1": plc1,
                          "bench": {"driver": "modbus", "host": "127.0.0.1", "port": free_port(),
                                    "poll_interval": "1s", "timeout": "1s",
                                    "points": bench_points}}}
    path = tmp / "bench.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def start_sim(config: Path, tmp: Path) -> tuple[subprocess.Popen[bytes], Path]:
    control = tmp / "sim.sock"
    out = tmp / "sim.log"
    proc = subprocess.Popen([sys.executable, "-m", "hermes_tools.sim", "--config", str(config),
                             "--control", str(control), "--values", "configs/demo-values.yaml",
                             "--seed", "1"], stdout=out.open("wb"), stderr=subprocess.STDOUT)
    until_sync(lambda: "ready; control socket" in out.read_text(), 20, "hermes-sim ready")
    return proc, control


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- 1. polling throughput ------------------------------------------------------------------

async def bare_blocks(port: int, seconds: float) -> float:
    client = AsyncModbusTcpClient("127.0.0.1", port=port, timeout=2, retries=0)
    return await blocks_per_s(client, seconds)


async def blocks_per_s(client: Any, seconds: float) -> float:
    """Registers a second a bare pymodbus client reads in BLOCKS blocks of PER_BLOCK back to
    back for `seconds` (it connects, and is closed after)."""
    await client.connect()
    registers, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for b in range(BLOCKS):
            rr = await client.read_holding_registers(b * 100, count=PER_BLOCK, device_id=1)
            registers += len(rr.registers)
    elapsed = time.perf_counter() - started
    client.close()
    return registers / elapsed


async def tool_polls(config_path: Path, seconds: float, coalesce: bool) -> float:
    tool = ModbusTool()
    frames = [0]

    def send(msg: Message) -> None:
        frames[0] += len(encode(msg))  # the event frame hermesd would receive

    tool._send = send
    config = load_config(config_path)
    slice_ = tool_specs(config)["modbus"].config
    await tool.configure({**slice_, "devices": {"bench": slice_["devices"]["bench"]}})
    dev = tool.devices["bench"]
    if not coalesce:
        dev.blocks = plan([p.span for p in dev.points.values()], coalesce=False)
    polled, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        polled += await tool.poll(dev)
    elapsed = time.perf_counter() - started
    await tool.close()
    assert frames[0] > 0 and dev.health.online
    return polled / elapsed


def throughput(config: Path, rounds: int, seconds: float) -> dict[str, float]:
    port = load_config(config).devices["bench"].params["port"]
    runs: dict[str, list[float]] = {"bare": [], "coalesced": [], "per_point": []}
    for _ in range(rounds):
        runs["bare"].append(asyncio.run(bare_blocks(port, seconds)))
        runs["coalesced"].append(asyncio.run(tool_polls(config, seconds, True)))
        runs["per_point"].append(asyncio.run(tool_polls(config, seconds, False)))
    return {k: statistics.median(v) for k, v in runs.items()}


# -- 2. read latency through hermesd ---------------------------------------------------------

async def bare_reads(port: int, n: int) -> list[float]:
    client = AsyncModbusTcpClient("127.0.0.1", port=port, timeout=2, retries=0)
    await client.connect()
    out = []
    for _ in range(n):
        started = time.perf_counter()
        await client.read_input_registers(4, count=2, device_id=1)
        out.append((time.perf_counter() - started) * 1000)
    client.close()
    return out


def hermesd_reads(ctl: Client, n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        answer = ctl.request({"op": "read", "point": "boiler3_temp"})
        out.append((time.perf_counter() - started) * 1000)
        assert answer["status"] == "ok", answer
    return out


# -- 3. time to stale -------------------------------------------------------------------------

def quality(ctl: Client, point: str) -> str:
    points = ctl.request({"op": "points"})["result"]["points"]
    return str(next(p["quality"] for p in points if p["id"] == point))


def time_to_stale(ctl: Client, control: Path, mode: str) -> float:
    until_sync(lambda: quality(ctl, "boiler3_temp") == "good", 60, "good before the drop")
    time.sleep(random.uniform(0.0, 2.0))  # anywhere in the 2 s poll cycle
    started = time.monotonic()
    sim_request(control, {"op": "drop", "device": "plc1", "mode": mode})
    until_sync(lambda: quality(ctl, "boiler3_temp") == "stale", 30, "stale")
    elapsed = time.monotonic() - started
    sim_request(control, {"op": "restore", "device": "plc1"})
    return elapsed


# -- 4. outage ------------------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    return procfs.cpu_seconds(pid) or 0.0


def window(pids: dict[str, int], log: Path, seconds: float) -> dict[str, float]:
    before = {k: cpu_seconds(p) for k, p in pids.items()}
    lines = log.read_text(errors="replace").count("\n")
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    out = {f"{k}_cpu_pct": (cpu_seconds(p) - before[k]) / elapsed * 100 for k, p in pids.items()}
    out["log_lines"] = log.read_text(errors="replace").count("\n") - lines
    return out


# -- main ---------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per throughput run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--outage", type=float, default=20.0)
    parser.add_argument("--drops", type=int, default=5, help="repetitions of each drop mode")
    args = parser.parse_args()
    os.chdir(Path(__file__).resolve().parents[2])
    with tempfile.TemporaryDirectory(prefix="hb", dir="/tmp") as tmp_name:
        tmp = Path(tmp_name)
        config = write_config(tmp)
        sim, control = start_sim(config, tmp)
        daemon = None
        try:
            print(f"# 1. polling: {BLOCKS * PER_BLOCK} registers in {BLOCKS} blocks, "
                  f"{args.rounds} rounds of {args.seconds:g} s (median registers/s)")
            t = throughput(config, args.rounds, args.seconds)
            print(f"bare pymodbus client, 20 block reads : {t['bare']:9.0f} registers/s  (baseline)")
            print(f"tool poll, coalesced (20 requests)    : {t['coalesced']:9.0f} registers/s  "
                  f"({t['coalesced'] / t['bare']:.0%} of baseline)")
            print(f"tool poll, one request per point      : {t['per_point']:9.0f} registers/s  "
                  f"({t['per_point'] / t['bare']:.0%} of baseline; coalescing is "
                  f"{t['coalesced'] / t['per_point']:.1f}x)")

            log = tmp / "hermesd.log"
            daemon = subprocess.Popen([sys.executable, "-m", "hermesd.main", "--config",
                                       str(config), "--log-level", "info"],
                                      stdout=log.open("wb"), stderr=subprocess.STDOUT)
            sock = tmp / "run" / "control.sock"
            until_sync(sock.exists, 60, "hermesd control socket")
            ctl = Client(sock, timeout=30)
            tool_pid = until_sync(lambda: ctl.request({"op": "tools"})["result"]["tools"]["modbus"]
                            ["pid"], 30, "modbus tool pid")
            until_sync(lambda: quality(ctl, "boiler3_temp") == "good", 30, "first poll")

            print(f"\n# 2. on-demand read latency, {args.reads} reads (ms)")
            port = load_config(config).devices["plc1"].params["port"]
            bare = asyncio.run(bare_reads(port, args.reads))
            ours = hermesd_reads(ctl, args.reads)
            print(f"bare pymodbus read_input_registers    : p50 {pct(bare, .5):6.2f}  "
                  f"p99 {pct(bare, .99):6.2f}  (baseline)")
            print(f"hermesd read (control socket -> PLC)  : p50 {pct(ours, .5):6.2f}  "
                  f"p99 {pct(ours, .99):6.2f}  (+{pct(ours, .5) - pct(bare, .5):.2f} ms at p50)")

            print(f"\n# 3. PLC drops out -> its points stale (poll 2 s, timeout 1 s; target "
                  f"<= 4.0 s), {args.drops} each")
            for mode in ("silent", "refuse"):
                times = [time_to_stale(ctl, control, mode) for _ in range(args.drops)]
                print(f"drop {mode:6}: median {statistics.median(times):.2f} s, max "
                      f"{max(times):.2f} s  ({', '.join(f'{x:.2f}' for x in times)})")

            print(f"\n# 4. CPU and log lines, every device answering vs all silent for "
                  f"{args.outage:g} s")
            pids = {"tool": int(tool_pid), "hermesd": daemon.pid}
            until_sync(lambda: quality(ctl, "r0_0") == "good" and quality(ctl, "boiler3_temp")
                 == "good", 60, "all good")
            online = window(pids, log, min(10.0, args.outage))
            for device in ("plc1", "bench"):
                sim_request(control, {"op": "drop", "device": device})
            outage = window(pids, log, args.outage)
            for device in ("plc1", "bench"):
                sim_request(control, {"op": "restore", "device": device})
            for name, w in (("answering", online), ("outage", outage)):
                print(f"{name:9}: tool {w['tool_cpu_pct']:5.2f} % CPU, hermesd "
                      f"{w['hermesd_cpu_pct']:5.2f} % CPU, {w['log_lines']:.0f} log lines")
            print("outage log:")
            for line in log.read_text(errors="replace").splitlines()[-int(outage["log_lines"]):]:
                print(f"    {line}")

            rss, peak = procfs.rss_bytes(int(tool_pid)) or 0, procfs.peak_rss_bytes(int(tool_pid)) or 0
            print(f"\n# 5. tool process memory: RSS {rss / 2**20:.1f} MiB, peak "
                  f"{peak / 2**20:.1f} MiB (2 devices, 212 points)")
            ctl.close()
        finally:
            if daemon is not None:
                daemon.terminate()
                daemon.wait(timeout=10)
            sim.terminate()
            sim.wait(timeout=10)


if __name__ == "__main__":
    main()
