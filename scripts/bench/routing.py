#!/usr/bin/env python3
"""Routing benchmark: accuracy and latency of rules + model on the dev plant and a second plant.

    .venv/bin/python scripts/bench/routing.py [--plants dev,cold] [--threads auto|N]
        [--variants default,no-reuse,naive] [--model-only] [--threads-compare] [--reps 300]
        [--rules-only]

For each plant it starts the real LLM worker process (under the daemon's supervisor, with the
plant's prompt prefix) and routes every command of the plant's set through the router: the rules
first, the model for what they hand on. It prints accuracy, the share placed by rules, latency
p50/p95/p99 by route, and — in the same run, interleaved command by command so a noisy machine
affects them alike — the LLM-routed commands again with the prefix reuse off and with the naive
approach (no grammar, free text parsed, re-prompted once). `--model-only` also sends every
command to the model (no rules), to show the model stage's own accuracy against the naive one.
`--threads-compare` runs the default model stage with 1 thread and with `auto` side by side.
Also: model load time, prefix preparation time and worker RSS. Latency is of routing (rules and
the worker round trip), without the control socket (well under a millisecond more).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.errors import HermesError
from hermesd.protocol import Event
from hermesd.router import Router
from hermesd.router.llm import TOOL, SupervisedWorker, llm_spec
from hermesd.router.model_stage import ModelStage, Options
from hermesd.router.normalize import tokens
from hermesd.supervisor import Supervisor
from tests.support.plants import (
    COLD_STORE_COMMANDS,
    cold_store,
    config_of,
    dev_commands,
    dev_plant,
)

VARIANTS = {
    "default": Options(),
    "no-reuse": Options(reuse_prefix=False),
    "naive": Options(strategy="naive", narrow=False, closed_world=False, early_stop=False),
    "score": Options(strategy="score"),
    "no-narrow": Options(narrow=False, closed_world=False),
}


@dataclass
class Tally:
    right: int = 0
    n: int = 0
    ms: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def add(self, ok: bool, ms: float, what: str) -> None:
        self.n += 1
        self.right += ok
        self.ms.append(ms)
        if not ok:
            self.wrong.append(what)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def matches(action: Any, expect: dict[str, Any]) -> bool:
    if action is None or action.name != expect["action"]:
        return False
    if expect["action"] == "respond":
        return True
    return bool(action.point == expect["point"] and
                ("value" not in expect or action.args.get("value") == expect["value"]))


class Worker:
    """The real LLM worker process, under the daemon's own supervisor."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.runtime = Path(tempfile.mkdtemp(prefix="hdb", dir="/tmp"))
        self.port: SupervisedWorker | None = None
        self.supervisor = Supervisor(self.runtime, self._event)
        self.port = SupervisedWorker(self.supervisor)
        self.task: asyncio.Task[None] | None = None

    def _event(self, tool: str, event: Event) -> None:
        if event.kind == "llm" and self.port is not None:
            self.port.on_event(tool, event.data)

    async def start(self) -> dict[str, Any]:
        self.task = asyncio.create_task(self.supervisor.run({TOOL: llm_spec(self.config)}))
        await self.supervisor.started()
        return await self.ready()

    async def ready(self) -> dict[str, Any]:
        """Wait until the worker is ready (again: a killed one restarts); its status."""
        assert self.port is not None
        deadline = time.monotonic() + 180
        while self.port.state != "ready":
            if self.port.state == "failed" or time.monotonic() > deadline:
                raise SystemExit(f"the LLM worker did not get ready: {self.port.reported}")
            await asyncio.sleep(0.1)
        return dict(await self.port.call("status", {}, 10))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        shutil.rmtree(self.runtime, ignore_errors=True)


async def bench_plant(name: str, data: dict[str, Any], commands: list[dict[str, Any]],
                      args: argparse.Namespace) -> dict[str, Any]:
    data["llm"]["threads"] = args.threads if args.threads == "auto" else int(args.threads)
    data["llm"]["model"] = args.model
    config = config_of(data)
    print(f"\n== plant {name}: {len(config.points)} points, {len(commands)} commands ==")
    router = Router(config)

    # -- the rule stage alone: share placed, latency, and normalisation as the baseline ------
    placed = {c["text"]: router.rules.place(c["text"]) for c in commands}
    ctx = RequestContext.make("internal", "engineer", timeout=60)
    rule_ms: list[float] = []
    base_ms: list[float] = []
    for _ in range(args.reps):
        for c in commands:
            if placed[c["text"]] is None:
                continue
            t0 = time.perf_counter()
            await router.route(ctx, c["text"])
            t1 = time.perf_counter()
            tokens(c["text"])
            t2 = time.perf_counter()
            rule_ms.append((t1 - t0) * 1000)
            base_ms.append((t2 - t1) * 1000)
    n_rules = sum(p is not None for p in placed.values())
    rules_right = sum(matches(placed[c["text"]].action, c["expect"])  # type: ignore[union-attr]
                      for c in commands if placed[c["text"]] is not None)
    if args.rules_only:
        return await rules_only(router, commands, n_rules, rules_right, rule_ms, base_ms)

    # -- the model stage: the real worker ----------------------------------------------------
    worker = Worker(config)
    started = time.monotonic()
    status = await worker.start()
    ready_s = time.monotonic() - started
    assert worker.port is not None
    stages = {v: ModelStage(config, worker.port, VARIANTS[v]) for v in args.variants}
    router.model = stages["default"]
    overall = Tally()
    by_route: dict[str, list[float]] = {"rule": [], "llm": []}
    variants = {v: Tally() for v in args.variants}
    for c in commands:
        t0 = time.perf_counter()
        try:
            routed = await router.route(RequestContext.make("internal", "engineer", timeout=60),
                                        c["text"])
            action, route = routed.action, routed.route
        except HermesError as exc:
            action, route = None, "llm"
            print(f"   error {exc.code.value}: {c['text']}")
        ms = (time.perf_counter() - t0) * 1000
        overall.add(matches(action, c["expect"]), ms, c["text"])
        by_route[route].append(ms)
        if route != "llm":
            continue
        for v, stage in stages.items():  # the LLM-routed commands again, variant by variant
            variants[v].add(*await run_stage(stage, router, c))
    model_only = {v: Tally() for v in ("default", "naive")} if args.model_only else {}
    for c in commands if args.model_only else []:
        for v, tally in model_only.items():
            stage = stages.get(v) or ModelStage(config, worker.port, VARIANTS[v])
            tally.add(*await run_stage(stage, router, c))
    await worker.ready()
    final = dict(await worker.port.call("status", {}, 10))
    await worker.stop()

    # -- report -------------------------------------------------------------------------------
    print(f"rules placed {n_rules}/{len(commands)} ({100 * n_rules / len(commands):.0f} %), "
          f"{rules_right} of them right")
    print(f"overall right {overall.right}/{overall.n} ({100 * overall.right / overall.n:.1f} %)"
          + (f"; wrong: {overall.wrong}" if overall.wrong else ""))
    print(f"rule-routed latency over {len(rule_ms)} routings: p50 {pct(rule_ms, .5):.3f} ms, "
          f"p95 {pct(rule_ms, .95):.3f} ms, p99 {pct(rule_ms, .99):.3f} ms "
          f"(normalisation alone p50 {pct(base_ms, .5):.3f} ms: rules cost "
          f"{statistics.median(rule_ms) / statistics.median(base_ms):.1f}x it)")
    llm = by_route["llm"]
    print(f"LLM-routed latency ({len(llm)} commands): p50 {pct(llm, .5):.0f} ms, "
          f"p95 {pct(llm, .95):.0f} ms, max {max(llm, default=float('nan')):.0f} ms")
    print(f"worker: threads {status['threads']}, load {status['load_s']} s, prefix "
          f"{status['prefix_tokens']} tokens prepared in {status['prefix_s']} s (ready "
          f"{ready_s:.1f} s after start), RSS {final['rss_mb']} MB")
    report_variants("LLM-routed commands, by variant (same run, interleaved)", variants)
    if model_only:
        report_variants("every command through the model alone (no rules)", model_only)
    return {"overall": overall, "variants": variants}


async def rules_only(router: Router, commands: list[dict[str, Any]], n_rules: int,
                     rules_right: int, rule_ms: list[float], base_ms: list[float]
                     ) -> dict[str, Any]:
    """The figures the rules give without a model: what they place, and every command as the
    router answers it with no model stage (what they hand on becomes respond not_understood)."""
    overall = Tally()
    for c in commands:
        t0 = time.perf_counter()
        routed = await router.route(RequestContext.make("internal", "engineer", timeout=60),
                                    c["text"])
        overall.add(matches(routed.action, c["expect"]), (time.perf_counter() - t0) * 1000,
                    c["text"])
    print(f"rules placed {n_rules}/{len(commands)} ({100 * n_rules / len(commands):.0f} %), "
          f"{rules_right} of them right")
    print(f"overall right without a model {overall.right}/{overall.n}"
          + (f"; wrong: {overall.wrong}" if overall.wrong else ""))
    print(f"rule-routed latency over {len(rule_ms)} routings: p50 {pct(rule_ms, .5):.3f} ms, "
          f"p95 {pct(rule_ms, .95):.3f} ms (normalisation alone p50 {pct(base_ms, .5):.3f} ms: "
          f"rules cost {statistics.median(rule_ms) / statistics.median(base_ms):.1f}x it)")
    return {"overall": overall, "variants": {}}


async def run_stage(stage: ModelStage, router: Router, c: dict[str, Any]
                    ) -> tuple[bool, float, str]:
    analysis = router.rules.analyse(c["text"])
    ctx = RequestContext.make("internal", "engineer", timeout=120)
    t0 = time.perf_counter()
    try:
        routed = await stage(ctx, c["text"], analysis)
        action = routed.action if routed else None
    except HermesError:
        action = None
    return matches(action, c["expect"]), (time.perf_counter() - t0) * 1000, c["text"]


def report_variants(title: str, tallies: dict[str, Tally]) -> None:
    if not tallies or not next(iter(tallies.values())).n:
        return
    print(f"  {title}:")
    base = next(iter(tallies.values()))
    for v, t in tallies.items():
        ratio = statistics.median(m / b for m, b in zip(t.ms, base.ms, strict=True))
        print(f"    {v:10s} right {t.right}/{t.n}  p50 {pct(t.ms, .5):6.0f} ms  p95 "
              f"{pct(t.ms, .95):6.0f} ms  median time ratio vs {next(iter(tallies))} "
              f"{ratio:5.2f}" + (f"  wrong: {t.wrong[:6]}" if t.wrong else ""))


async def threads_compare(args: argparse.Namespace) -> None:
    """The default model stage with 1 thread and with `auto`, interleaved, on the dev set."""
    data = dev_plant()
    configs = {}
    for threads in ("1", "auto"):
        d = dev_plant()
        d["llm"]["threads"] = 1 if threads == "1" else "auto"
        d["llm"]["timeout"] = "120s"  # measure how slow, rather than kill
        configs[threads] = config_of(d)
    workers = {t: Worker(c) for t, c in configs.items()}
    status = {t: await w.start() for t, w in workers.items()}
    router = Router(config_of(data))
    tallies = {f"threads={t}": Tally() for t in workers}
    for c in dev_commands():
        for t, w in workers.items():
            assert w.port is not None
            stage = ModelStage(configs[t], w.port)
            tallies[f"threads={t}"].add(*await run_stage(stage, router, c))
    for w in workers.values():
        await w.stop()
    print(f"\n== threads: the model stage on every dev command, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}; auto = {status['auto']['threads']} threads; "
          f"prefix prepared in {status['1']['prefix_s']} s (1) vs {status['auto']['prefix_s']} s "
          f"(auto) ==")
    report_variants("default stage", tallies)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plants", default="dev,cold")
    parser.add_argument("--threads", default="auto", help="llm.threads: auto or a number")
    parser.add_argument("--model", default="default", help="llm.model: default or a .gguf path")
    parser.add_argument("--variants", default="default,no-reuse,naive",
                        help=f"of {', '.join(VARIANTS)}; the first is the baseline of ratios")
    parser.add_argument("--model-only", action="store_true")
    parser.add_argument("--threads-compare", action="store_true")
    parser.add_argument("--reps", type=int, default=300, help="repetitions of the rule stage")
    parser.add_argument("--rules-only", action="store_true",
                        help="the rule stage alone: no model worker is started (no model needed)")
    args = parser.parse_args()
    args.variants = args.variants.split(",")
    if "default" not in args.variants:
        args.variants.insert(0, "default")
    print(f"routing benchmark: {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at start, threads={args.threads}, model={args.model}")
    plants = {"dev": (dev_plant, dev_commands), "cold": (cold_store, lambda: COLD_STORE_COMMANDS)}
    for name in args.plants.split(","):
        if name not in plants:
            continue  # e.g. --plants none with --threads-compare
        make, commands = plants[name]
        await bench_plant(name, make(), commands(), args)
    if args.threads_compare:
        await threads_compare(args)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
