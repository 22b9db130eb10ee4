"""Benchmark of the plant lexicon: load time, memory, and `concepts_of_text` per command.

    .venv/bin/python scripts/bench/concepts.py [--rounds 20000]

Prints figures and, in the same run, a baseline: `str.split` of the same commands (the least
any word matcher must do), so the ratio holds on a noisy machine. Memory is measured in a fresh
interpreter: RSS and Python allocations (tracemalloc) before and after loading. Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

COMMANDS = [  # general commands, about 10 words each; no plant's point names
    "what is the supply air temperature of air handling unit 3",
    "set the feed pump speed on line 2 to 1450 rpm please",
    "how full is the raw water tank at the north pumping station",
    "switch off all the grow lights in greenhouse zone 4 now",
    "what's the dissolved oxygen in aeration tank 2 right now",
    "3号发酵罐的温度是多少",
    "把2号冷却塔风机频率调到45赫兹",
    "清水池液位和出水浊度是多少",
    "inverter 5 active power and state of charge of the battery",
    "is the chiller CHW return temperature above 12 °C",
]

MEMORY = """
import gc, json, os, sys, tracemalloc
def private():  # private dirty memory: what the process really costs (RSS less shared pages)
    for line in open(f"/proc/{os.getpid()}/smaps_rollup"):
        if line.startswith("Private_Dirty:"):
            return int(line.split()[1]) * 1024
def rss():
    for line in open(f"/proc/{os.getpid()}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
alone = sys.argv[1] == "alone"
if alone:  # what a daemon has loaded anyway: the package data reader, the Unicode tables
    import unicodedata
    from importlib import resources
    list(resources.files("hermesd.router.lexicon").iterdir())
    unicodedata.normalize("NFKC", "\u2103")
import hermesd.router.concepts as c  # with hermesd.router, which the daemon has loaded anyway
r0, p0 = rss(), private()
lx = c.lexicon()
lx.concepts_of_text("warm up 温度")
gc.collect()
r1, p1 = rss(), private()
tracemalloc.start()
again = c.load()
traced = tracemalloc.get_traced_memory()[0]
print(json.dumps({"rss": r1 - r0, "private": p1 - p0, "traced": traced}))
"""


def memory(case: str) -> dict[str, int]:
    out = subprocess.run([sys.executable, "-c", MEMORY, case], check=True, capture_output=True,
                         text=True).stdout
    figures: dict[str, int] = json.loads(out)
    return figures


def per_call(fn: Callable[[str], object], rounds: int) -> list[float]:
    """Microseconds per command, one figure per round over all commands."""
    out = []
    for _ in range(rounds):
        started = time.perf_counter()
        for text in COMMANDS:
            fn(text)
        out.append((time.perf_counter() - started) / len(COMMANDS) * 1e6)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20000)
    args = parser.parse_args()

    started = time.perf_counter()
    from hermesd.router.concepts import lexicon, load

    lx = lexicon()
    first = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    load()
    again = (time.perf_counter() - started) * 1000
    first_use, alone = memory("first"), memory("alone")
    forms = sum(len(c.en_forms) + len(c.zh_forms) for c in lx.concepts.values())
    print(f"lexicon: {len(lx.concepts)} concepts, {forms} surface forms")
    print(f"load: {first:.0f} ms on first use (with the import), {again:.0f} ms to load again")
    mib = 2**20
    print(f"memory, the lexicon alone: private +{alone['private'] / mib:.2f} MiB "
          f"(RSS +{alone['rss'] / mib:.2f} MiB), Python objects {alone['traced'] / mib:.2f} MiB")
    print(f"memory, first use (also loading the package data reader and touching the Unicode "
          f"tables): private +{first_use['private'] / mib:.2f} MiB "
          f"(RSS +{first_use['rss'] / mib:.2f} MiB)")

    warm = max(100, args.rounds // 20)
    per_call(lx.concepts_of_text, warm)
    per_call(str.split, warm)
    ours = per_call(lx.concepts_of_text, args.rounds)
    base = per_call(str.split, args.rounds)
    words = statistics.mean(len(t.split()) for t in COMMANDS)
    for name, figures in (("concepts_of_text", ours), ("str.split (baseline)", base)):
        print(f"{name:22s} per command: median {statistics.median(figures):7.2f} µs, "
              f"p95 {sorted(figures)[int(0.95 * len(figures))]:7.2f} µs")
    print(f"ratio (median): {statistics.median(ours) / statistics.median(base):.0f}x str.split; "
          f"{len(COMMANDS)} commands, {words:.1f} words each on average (Chinese: one 'word')")


if __name__ == "__main__":
    main()
