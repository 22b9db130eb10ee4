"""Modbus links benchmark: each transport against a bare pymodbus client of the same framing,
units behind one gateway with one of them dead, and polling while the link is scanned.

    .venv/bin/python scripts/bench/modbus_links.py [--seconds 2] [--rounds 3]

Everything runs against `hermes-sim` on loopback (its own process):

1. Polling throughput per transport (tcp, udp, rtu_over_tcp, rtu_over_udp) of a device with
   200 uint16 registers in 20 blocks of 10, registers per second: a bare pymodbus async client
   with the same framer reading the 20 blocks in a loop, against the tool's coalesced poll in
   process. Medians of the rounds; the ratio to the bare client is what holds on a noisy box.
2. Three units behind one RTU-over-TCP gateway, polled every 200 ms (timeout 300 ms,
   backoff_max 2 s): polls per second of units a and c while all answer, then while b is
   silent. Ideal: 5/s each either way.
3. One unit polled every 200 ms while a scan of 30 silent unit ids (150 ms per probe) runs on
   its link: the gaps between its polls, median and longest, against the same without a scan.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
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
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # scripts.bench, tests.support

import yaml  # noqa: E402
from hermes_tools.modbus.bus import FRAMER, quiet_pymodbus  # noqa: E402
from hermes_tools.modbus.tool import ModbusTool  # noqa: E402
from hermes_tools.sim.control import request as sim_request  # noqa: E402
from pymodbus.client import AsyncModbusTcpClient, AsyncModbusUdpClient  # noqa: E402

from hermesd.config import load_config  # noqa: E402
from hermesd.core.protocol import Event, Message  # noqa: E402
from hermesd.toolspecs import tool_specs  # noqa: E402
from scripts.bench.modbus import BLOCKS, PER_BLOCK, blocks_per_s  # noqa: E402

TRANSPORTS = ("tcp", "udp", "rtu_over_tcp", "rtu_over_udp")


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _device(transport: str, port: int, unit: int, points: dict[str, Any],
            **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": transport, "host": "127.0.0.1", "port": port,
            "unit": unit, "points": points, **extra}


def write_config(tmp: Path) -> Path:
    bench = {f"r{b}_{i}": {"table": "holding", "address": b * 100 + i, "type": "uint16",
                           "max_age": "1h"} for b in range(BLOCKS) for i in range(PER_BLOCK)}
    devices: dict[str, Any] = {}
    for transport in TRANSPORTS:
        port = free_port(socket.SOCK_DGRAM if "udp" in transport else socket.SOCK_STREAM)
        devices[transport] = _device(transport, port, 1, {
            f"{transport}_{k}": v for k, v in bench.items()}, poll_interval="1s", timeout="1s")
    gateway = free_port()
    for unit, name in enumerate("abc", start=1):
        devices[name] = _device("rtu_over_tcp", gateway, unit, {
            f"{name}_speed": {"table": "holding", "address": 10, "max_age": "1h"}},
            poll_interval="200ms", timeout="300ms", backoff_max="2s")
    config = {"node": {"id": "bench"}, "llm": {"enabled": False},
              "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
              "access": {"default_role": "viewer", "roles": {"viewer": {"read": True}}},
              "devices": devices}
    path = tmp / "bench.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


def start_sim(config: Path, tmp: Path) -> tuple[subprocess.Popen[bytes], Path]:
    control, out = tmp / "sim.sock", tmp / "sim.log"
    proc = subprocess.Popen([sys.executable, "-m", "hermes_tools.sim", "--config", str(config),
                             "--control", str(control), "--seed", "1"],
                            stdout=out.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while "ready; control socket" not in out.read_text():
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError(f"hermes-sim did not start:\n{out.read_text()}")
        time.sleep(0.05)
    return proc, control


# -- 1. throughput per transport --------------------------------------------------------------

async def bare_blocks(transport: str, port: int, seconds: float) -> float:
    kind = AsyncModbusUdpClient if "udp" in transport else AsyncModbusTcpClient
    client = kind("127.0.0.1", port=port, framer=FRAMER[transport], timeout=2, retries=0)
    return await blocks_per_s(client, seconds)


async def tool_polls(config_path: Path, device: str, seconds: float) -> float:
    tool = ModbusTool()
    tool._send = lambda msg: None
    slice_ = tool_specs(load_config(config_path))["modbus"].config
    await tool.configure({**slice_, "devices": {device: slice_["devices"][device]}})
    dev = tool.devices[device]
    polled, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        polled += await tool.poll(dev)
    elapsed = time.perf_counter() - started
    await tool.close()
    assert dev.health.online
    return polled / elapsed


def throughput(config: Path, rounds: int, seconds: float) -> None:
    devices = load_config(config).devices
    print("1. registers/s, median of rounds (tool's coalesced poll vs a bare pymodbus client)")
    for transport in TRANSPORTS:
        port = devices[transport].params["port"]
        bare, tool = [], []
        for _ in range(rounds):
            bare.append(asyncio.run(bare_blocks(transport, port, seconds)))
            tool.append(asyncio.run(tool_polls(config, transport, seconds)))
        b, t = statistics.median(bare), statistics.median(tool)
        print(f"   {transport:13s} bare {b:8.0f}   tool {t:8.0f}   ratio {t / b:.2f}")


# -- 2 and 3: a gateway in use ----------------------------------------------------------------

class Polls:
    """The tool, polling the gateway's units in this loop; when each poll's values came."""

    def __init__(self) -> None:
        self.tool = ModbusTool()
        self.seen: dict[str, list[float]] = {}
        self.tool._send = self._collect

    def _collect(self, msg: Message) -> None:
        if isinstance(msg, Event) and msg.kind == "values":
            now = time.monotonic()
            # a value read again unchanged comes as a `fresh` id: a poll all the same
            ids = [v["point"] for v in msg.data["values"]]
            ids += [p for same in msg.data.get("fresh", []) for p in same["points"].split()]
            for point in ids:
                self.seen.setdefault(point.split("_")[0], []).append(now)

    def rate(self, unit: str, since: float, until: float) -> float:
        return sum(since <= t < until for t in self.seen.get(unit, [])) / (until - since)

    def gaps(self, unit: str, since: float, until: float) -> list[float]:
        stamps = [t for t in self.seen.get(unit, []) if since <= t < until]
        return [b - a for a, b in itertools.pairwise(stamps)]


async def gateway(config_path: Path, control: Path, seconds: float) -> None:
    polls = Polls()
    slice_ = tool_specs(load_config(config_path))["modbus"].config
    await polls.tool.configure({**slice_, "devices": {d: slice_["devices"][d] for d in "abc"}})
    runner = asyncio.create_task(polls.tool.run())
    try:
        await asyncio.sleep(1.0)
        t0 = time.monotonic()
        await asyncio.sleep(seconds)
        t1 = time.monotonic()
        sim_request(control, {"op": "drop", "device": "b"})
        await asyncio.sleep(1.0)  # b is found silent and backed off
        t2 = time.monotonic()
        await asyncio.sleep(seconds)
        t3 = time.monotonic()
        sim_request(control, {"op": "restore", "device": "b"})
        print("2. polls/s behind one rtu_over_tcp gateway (poll 200 ms: ideal 5.0)")
        for unit in "ac":
            print(f"   unit {unit}: all answering {polls.rate(unit, t0, t1):.2f}/s, "
                  f"b silent {polls.rate(unit, t2, t3):.2f}/s")
        await asyncio.sleep(2.5)  # b back
        t4 = time.monotonic()
        await asyncio.sleep(seconds)
        t5 = time.monotonic()
        scan = asyncio.create_task(polls.tool.scan(
            {"device": "a", "units": list(range(100, 130)), "timeout_ms": 150},
            {"deadline_s": 60.0}))
        t6 = time.monotonic()
        result = await scan
        t7 = time.monotonic()
        base, during = polls.gaps("a", t4, t5), polls.gaps("a", t6, t7)
        print(f"3. gaps between polls of unit a (200 ms), ms: without a scan median "
              f"{statistics.median(base) * 1000:.0f} max {max(base) * 1000:.0f}; during a scan "
              f"of 30 silent ids ({result['requests']} probes, {t7 - t6:.1f} s) median "
              f"{statistics.median(during) * 1000:.0f} max {max(during) * 1000:.0f}")
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        await polls.tool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    quiet_pymodbus()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        config = write_config(tmp)
        sim, control = start_sim(config, tmp)
        try:
            throughput(config, args.rounds, args.seconds)
            asyncio.run(gateway(config, control, max(3.0, args.seconds * 2)))
        finally:
            sim.terminate()
            sim.wait(10)


if __name__ == "__main__":
    main()
