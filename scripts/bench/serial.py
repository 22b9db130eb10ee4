"""Serial tool benchmark: query/response latency against bare pyserial, and the CPU of a stream.

    .venv/bin/python scripts/bench/serial.py [--samples 200] [--cpu-seconds 10]

Everything runs in one go against the serial simulator (a separate process on ptys):

1. Latency of one query/response, the scale's `W` -> `ST,GS,+012.34 kg` (p50/p99, ms):
   - baseline: bare pyserial `write` + `read_until` on the same pty;
   - the tool's `read` action in process (port lock, worker-thread write, reader-thread read,
     loop-side framing and matching);
   - the tool process over its Unix socket, as hermesd calls it (adds the NDJSON hop).
   A pty ignores the baud rate, so the simulator emulates it: it answers after the time the
   request and answer bytes would take on the line (10 bits per char at 8N1). The 9600 and 115200
   baud rows are therefore line time + software; the "pty" row (no emulation) is software alone.
2. CPU of the tool process with a gas meter streaming 20 lines/s (events rate limited to one per
   0.5 s, then every line an event), against a bare pyserial process reading the same stream,
   measured from /proc/<pid>/task/*/schedstat over the same window. Ratios hold on a noisy machine; the
   absolute figures do not.
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

# this file is named serial.py: its own directory must not shadow pyserial's `serial`
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.support

import serial  # noqa: E402
import yaml  # noqa: E402

from hermesd.config import load_config  # noqa: E402
from hermesd.core.protocol import Call, Configure, Event, FrameDecoder, Result, decode, encode  # noqa: E402
from hermesd.toolspecs import tool_specs  # noqa: E402
from tests.support import procfs  # noqa: E402

SCALE_POINT = {"query": "W\r\n", "pattern": r"(?P<value>[-+]?\d+(?:\.\d+)?)\s*kg",
               "type": "float", "unit": "kg"}


def scale(link: Path, baud: int, point: str) -> dict[str, Any]:
    return {"driver": "serial", "port": str(link), "baudrate": baud, "timeout": "1s",
            "poll_interval": "1h", "points": {point: dict(SCALE_POINT)}}


def write_config(path: Path, devices: dict[str, Any]) -> Path:
    config = {"node": {"id": "bench"}, "llm": {"enabled": False},
              "paths": {"state_dir": str(path.parent / "state"),
                        "runtime_dir": str(path.parent / "run")},
              "devices": devices}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


class Sim:
    """The simulator process with its stdin control channel."""

    def __init__(self, config: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hermes_tools.sim.serial", "--config", str(config),
             "--control", "stdin", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True)
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip() == "READY":
                return
        raise RuntimeError("the simulator did not start")

    def command(self, line: str) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer.startswith("ok"):
            raise RuntimeError(answer)

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


# -- latency ------------------------------------------------------------------------------------


def bare_round_trips(link: Path, baud: int, n: int) -> list[float]:
    out = []
    with serial.Serial(str(link), baud, timeout=2) as port:
        for _ in range(n):
            started = time.perf_counter()
            port.write(b"W\r\n")
            line = port.read_until(b"\r\n")
            out.append(time.perf_counter() - started)
            assert line == b"ST,GS,+012.34 kg\r\n", line
    return out


async def tool_round_trips(slice_: dict[str, Any], point: str, n: int) -> list[float]:
    from hermes_tools.serial.tool import SerialTool

    tool = SerialTool()
    await tool.configure(slice_)
    runner = asyncio.create_task(tool.run())
    try:
        await tool.read({"point": point}, {})  # connected and warmed up
        out = []
        for _ in range(n):
            started = time.perf_counter()
            result = await tool.read({"point": point}, {})
            out.append(time.perf_counter() - started)
            assert result["value"] == 12.34
        return out
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        await tool.close()


class ToolProcess:
    """`python -m hermes_tools.serial` with this script as its daemon."""

    def __init__(self) -> None:
        self.events: list[tuple[float, dict[str, Any]]] = []
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._next = 0

    async def start(self, socket_path: str, slice_: dict[str, Any]) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hermes_tools.serial", "--socket", socket_path,
            "--log-level", "WARNING", stdout=asyncio.subprocess.PIPE)
        assert self.proc.stdout is not None
        assert (await self.proc.stdout.readline()).strip() == b"READY"
        self.reader, self.writer = await asyncio.open_unix_connection(socket_path)
        self._pump = asyncio.create_task(self._read())
        await self.request(lambda i: Configure(i, slice_))

    async def _read(self) -> None:
        decoder = FrameDecoder()
        while data := await self.reader.read(65536):
            for obj in decoder.feed(data):
                msg = decode(obj)
                if isinstance(msg, Event):
                    self.events.append((time.monotonic(), msg.data))
                elif isinstance(msg, Result):
                    self._waiting.pop(msg.id).set_result(msg.value)
                elif hasattr(msg, "id") and msg.id in self._waiting:
                    self._waiting.pop(msg.id).set_exception(RuntimeError(str(msg)))

    async def request(self, make: Any) -> Any:
        self._next += 1
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = fut
        self.writer.write(encode(make(self._next)))
        return await fut

    async def read(self, point: str) -> Any:
        return await self.request(lambda i: Call(i, "read", {"point": point}, {}, 5000))

    def cpu_seconds(self) -> float:
        return procfs.thread_cpu_seconds(self.proc.pid)

    async def stop(self) -> None:
        self.writer.close()
        await self.proc.wait()
        self._pump.cancel()
        await asyncio.gather(self._pump, return_exceptions=True)


async def process_round_trips(socket_path: str, slice_: dict[str, Any], points: list[str],
                              n: int) -> dict[str, list[float]]:
    tool = ToolProcess()
    await tool.start(socket_path, slice_)
    try:
        out: dict[str, list[float]] = {}
        for point in points:
            await tool.read(point)
            samples = []
            for _ in range(n):
                started = time.perf_counter()
                await tool.read(point)
                samples.append(time.perf_counter() - started)
            out[point] = samples
        return out
    finally:
        await tool.stop()


# -- CPU ----------------------------------------------------------------------------------------

BARE_READER = """
import serial, sys, time
port = serial.Serial(sys.argv[1], 9600, timeout=1)
end = time.monotonic() + float(sys.argv[2])
lines = 0
while time.monotonic() < end:
    if port.readline():
        lines += 1
print(lines)
"""


def bare_reader_cpu(link: Path, seconds: float) -> tuple[float, int]:
    proc = subprocess.Popen([sys.executable, "-c", BARE_READER, str(link), str(seconds + 1.0)],
                            stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)  # start-up (the interpreter and pyserial imports) is not the steady state
    before = procfs.thread_cpu_seconds(proc.pid)
    time.sleep(seconds)
    used = procfs.thread_cpu_seconds(proc.pid) - before
    out, _ = proc.communicate(timeout=10)
    return used, int(out.strip() or 0)


async def tool_stream_cpu(socket_path: str, slice_: dict[str, Any],
                          seconds: float) -> tuple[float, int]:
    tool = ToolProcess()
    await tool.start(socket_path, slice_)
    try:
        await asyncio.sleep(1.0)
        before, seen = tool.cpu_seconds(), len(tool.events)
        await asyncio.sleep(seconds)
        return tool.cpu_seconds() - before, len(tool.events) - seen
    finally:
        await tool.stop()


# -- the run ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200, help="round trips per case")
    parser.add_argument("--cpu-seconds", type=float, default=10.0)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="hbs", dir="/tmp"))
    links = {name: tmp / "by-id" / name for name in ("s9600", "s115200", "spty", "gas")}
    timed = write_config(tmp / "timed.yaml", {
        "s9600": scale(links["s9600"], 9600, "w9600"),
        "s115200": scale(links["s115200"], 115200, "w115200")})
    fast = write_config(tmp / "fast.yaml", {
        "spty": scale(links["spty"], 115200, "wpty"),
        "gas": {"driver": "serial", "port": str(links["gas"]), "timeout": "1s",
                "points": {"gas_flow": {"pattern": r"F:(?P<value>[-+]?[\d.]+) m3/h"}}}})
    sims = [Sim(timed), Sim(fast, "--no-line-time", "--period", "gas=0.05")]
    try:
        cases = [("9600 baud", "s9600", 9600, "w9600", timed),
                 ("115200 baud", "s115200", 115200, "w115200", timed),
                 ("pty speed", "spty", 115200, "wpty", fast)]
        print(f"Query/response latency, {args.samples} round trips each (ms; pty + simulator "
              "process; baud rates emulated by the simulator)")
        print(f"{'case':<12} {'bare pyserial p50/p99':>22} {'tool in-process p50/p99':>24} "
              f"{'tool process p50/p99':>22} {'ratio p50 (proc/bare)':>22}")
        rows = []
        for label, dev, baud, point, config in cases:
            bare = bare_round_trips(links[dev], baud, args.samples)
            full = dict(tool_specs(load_config(config))["serial"].config)
            only = {**full, "devices": {dev: full["devices"][dev]}}
            inproc = asyncio.run(tool_round_trips(only, point, args.samples))
            proc = asyncio.run(process_round_trips(str(tmp / "tool.sock"), only, [point],
                                                   args.samples))[point]
            rows.append((label, percentiles(bare), percentiles(inproc), percentiles(proc)))
        for label, bare_p, inproc_p, proc_p in rows:
            print(f"{label:<12} {bare_p[0]:>10.2f} / {bare_p[1]:<9.2f} {inproc_p[0]:>11.2f} / "
                  f"{inproc_p[1]:<10.2f} {proc_p[0]:>9.2f} / {proc_p[1]:<10.2f} "
                  f"{proc_p[0] / bare_p[0]:>14.2f}x")

        print(f"\nCPU with a gas meter streaming 20 lines/s, over {args.cpu_seconds:g} s "
              "(% of one core)")
        gas = dict(tool_specs(load_config(fast))["serial"].config)
        gas = {**gas, "devices": {"gas": gas["devices"]["gas"]}}
        every = yaml.safe_load(yaml.safe_dump(gas))
        every["devices"]["gas"]["points"]["gas_flow"]["min_event_interval"] = 0.0
        bare_cpu, bare_lines = bare_reader_cpu(links["gas"], args.cpu_seconds)
        limited_cpu, limited_events = asyncio.run(
            tool_stream_cpu(str(tmp / "tool.sock"), gas, args.cpu_seconds))
        every_cpu, every_events = asyncio.run(
            tool_stream_cpu(str(tmp / "tool.sock"), every, args.cpu_seconds))
        sims[1].command("period gas off")
        idle_cpu, _ = asyncio.run(tool_stream_cpu(str(tmp / "tool.sock"), gas, args.cpu_seconds))
        s = args.cpu_seconds
        print(f"  bare pyserial readline loop      {100 * bare_cpu / s:6.2f} %  "
              f"({bare_lines / (s + 1):.1f} lines/s read)")
        for name, used, events in (
                ("tool, events every 0.5 s", limited_cpu, limited_events),
                ("tool, an event every line", every_cpu, every_events)):
            print(f"  {name:<32} {100 * used / s:6.2f} %  ({events / s:.1f} events/s; "
                  f"{used / bare_cpu if bare_cpu else float('inf'):.2f}x bare)")
        print(f"  tool, same port, stream stopped  {100 * idle_cpu / s:6.2f} %  (idle cost: read "
              "slice and path watch)")
    finally:
        for sim in sims:
            sim.stop()


if __name__ == "__main__":
    main()
