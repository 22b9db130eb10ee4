"""Benchmark of routing long commands on a large plant, without the model: the rules and the
semantic stage, which hold the turn lock while they work.

    .venv/bin/python scripts/bench/routing_large.py [--points 512] [--rounds 5]

A generated plant of `--points` points (zones, pumps, fans, valves, setpoints) and commands of
up to the request limit's words (1,000 characters): long sentences, a unit word repeated ("1升"
fifty times), a Chinese run. Prints the median and the worst time per command, and in the same
run a baseline: tokenizing the same text once (the least any router must do), so the ratio
holds on a noisy machine. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from hermesd.router import Router  # noqa: E402
from hermesd.router.normalize import tokens  # noqa: E402
from tests.support.plants import exec_plant, routed_without_model  # noqa: E402

COMMANDS = {
    "long English read": " ".join(["please check the pump speed in zone four and tell me"] * 8),
    "long English write": " ".join(["set zone 4 pump speed to 1200 and"] * 11),
    "unit word repeated": "1升" * 53,
    "Chinese run": "把4号区水泵转速设为1200" * 12,
    "numbers in a row": " ".join(str(n) for n in range(200)),
}


def plant(points: int) -> Router:
    kinds = [("pump {n} speed", "rpm", True), ("zone {n} temperature", "°C", False),
             ("fan {n}", None, True), ("valve {n} position", "%", True),
             ("zone {n} temperature setpoint", "°C", True)]
    spec = {}
    for i in range(points):
        name, unit, writable = kinds[i % len(kinds)]
        point: dict[str, object] = {"name": name.format(n=i // len(kinds) + 1).capitalize(),
                                    "writable": writable}
        if unit is None:
            point["type"] = "bool"
        else:
            point.update(unit=unit, min=0, max=3000)
        spec[f"p{i}"] = point
    return Router(exec_plant("large", spec))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    router = plant(args.points)
    started = time.perf_counter()
    asyncio.run(routed_without_model(router, "hello"))  # builds the rules and profiles
    print(f"plant of {args.points} points, built in {time.perf_counter() - started:.2f} s")
    print(f"{'command':22} {'words':>5} {'median ms':>10} {'worst ms':>9} {'baseline ms':>12} "
          f"{'ratio':>7}")
    for name, text in COMMANDS.items():
        times = []
        for _ in range(args.rounds):
            t = time.perf_counter()
            asyncio.run(routed_without_model(router, text))
            times.append((time.perf_counter() - t) * 1000)
        base = []
        for _ in range(args.rounds):
            t = time.perf_counter()
            tokens(text)
            base.append((time.perf_counter() - t) * 1000)
        median, floor = statistics.median(times), statistics.median(base)
        print(f"{name:22} {len(text.split()):5d} {median:10.1f} {max(times):9.1f} "
              f"{floor:12.2f} {median / floor:6.0f}x")


if __name__ == "__main__":
    main()
