#!/usr/bin/env python3
"""Routing benchmark: accuracy and latency of rules + model on the dev plant, the cold store and
every held-out plant of the eval corpus (shared/data/eval), scored by that corpus's rule.

    .venv/bin/python scripts/bench/routing.py [--plants all|dev,cold,eval,<eval plant>...]
        [--eval-dir DIR] [--rules-only] [--model default|1.5b|PATH] [--threads auto|N]
        [--show-wrong] [--json FILE] [--reps 20]
        [--variants default,no-reuse,naive,score,no-narrow] [--model-only] [--threads-compare]
    .venv/bin/python scripts/bench/routing.py --compare A.json B.json
    .venv/bin/python scripts/bench/routing.py --report RUN.json [--show-wrong]

For each plant it starts the real LLM worker process (under the daemon's supervisor, with the
plant's prompt prefix) and routes every command through `Router(config).route` as an engineer
(the bench scores routing, not policy): the rules first, the model for what they hand on. It
prints accuracy per plant (and the held-out plants together), by category (read / write /
respond), by language (en / zh: a CJK character makes it zh) and by route, and the confidently
wrong count: an action where the command wanted another (a read or write of the wrong point or
value, or any action where a respond was right); a respond where an action was wanted is wrong
but not confidently so. Scoring (scripts/bench/routing_score.py) follows the corpus README.

Latency: LLM-routed p50/p95/p99 with, interleaved command by command in the same run, a fixed
completion on the same worker as the baseline; rule-routed p50/p95/p99 over `--reps` repetitions
with a bare normalisation of the same text as the baseline. Also the worker's load and prefix
times and its RSS when ready and at the end. `--rules-only` starts no worker: what the rules
hand on is routed `none` (it would go to the model). `--json` saves every command's result (with
the candidate points the rules handed the model); `--compare` lists what changed between two
saved runs; `--report` prints a saved run's tables. `--variants`, `--model-only` and
`--threads-compare` add the model-stage side-by-sides (scripts/bench/routing_variants.py).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hermesd.context import RequestContext
from hermesd.core.errors import HermesError
from hermesd.core.model_files import find_model
from hermesd.models.gguf import MODEL_FILE, QWEN_1_5B
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from scripts.bench import routing_report as report
from scripts.bench.routing_plants import EVAL_DIR, Plant, select
from scripts.bench.routing_score import category, language, score
from scripts.bench.routing_worker import Worker

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"\w+")


def bare_normalise(text: str) -> list[str]:
    """The rule stage's baseline: the least any router does with a text."""
    return WORD.findall(unicodedata.normalize("NFKC", text).casefold())


class HandedOn:
    """The model stage of a rules-only run: counts what the rules hand on, places nothing."""

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> None:
        self.count += 1


async def bench_plant(plant: Plant, args: argparse.Namespace
                      ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    scratch = Path(tempfile.mkdtemp(prefix="hdb-plant-", dir="/tmp"))
    try:
        return await _bench_plant(plant, args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


async def _bench_plant(plant: Plant, args: argparse.Namespace, scratch: Path
                       ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    config = plant.config(scratch, args.state, model=args.model, threads=args.threads)
    print(f"== {plant.name} ({plant.group}): {len(config.points)} points, "
          f"{len(plant.commands)} commands, load average {os.getloadavg()[0]:.1f}", flush=True)
    router = Router(config)
    stats: dict[str, Any] = {"name": plant.name, "group": plant.group,
                             "points": len(config.points), "worker": None, "llm_ms": [],
                             "llm_base_ms": [], "rule_ms": [], "rule_base_ms": []}
    handed_on = HandedOn()
    worker: Worker | None = None
    if args.rules_only:
        router.model = handed_on
    else:
        worker = Worker(config)
        started = time.monotonic()
        status = await worker.start()
        ready_s = time.monotonic() - started
        router.model = ModelStage(config, worker.port)
    results: list[dict[str, Any]] = []
    try:
        for n, c in enumerate(plant.commands):
            before = handed_on.count
            ctx = RequestContext.make("internal", "engineer", timeout=120)
            error = None
            t0 = time.perf_counter()
            try:
                routed = await router.route(ctx, c["text"])
                action: dict[str, Any] | None = routed.action.to_dict()
                route = str(routed.route)
                # the points the rules handed the model, where the router says (for analysis)
                candidates = [str(p) for p in getattr(routed, "candidates", ())]
            except HermesError as exc:
                action, route, error, candidates = None, "llm", exc.code.value, []
            ms = (time.perf_counter() - t0) * 1000
            if handed_on.count > before:
                route = "none"
            verdict = score(action, c["expect"])
            results.append({
                "plant": plant.name, "group": plant.group, "n": n, "text": c["text"],
                "expect": c["expect"], "action": action, "route": route, "ms": round(ms, 3),
                "right": verdict.right, "confident": verdict.confidently_wrong,
                "why": verdict.why, "category": category(c["expect"]),
                "language": language(c["text"]), "error": error, "candidates": candidates})
            if worker is not None and route == "llm":
                stats["llm_ms"].append(ms)
                stats["llm_base_ms"].append(await worker.baseline())
        if worker is not None:
            final = await worker.ready()  # a worker killed on a timeout has restarted
            stats["worker"] = {
                "load_s": status["load_s"], "prefix_s": status["prefix_s"],
                "prefix_tokens": status["prefix_tokens"], "ready_s": round(ready_s, 2),
                "threads": status["threads"], "cpu_backend": status.get("cpu_backend"),
                "model_name": status.get("model_name"), "rss_before": status["rss_mb"],
                "rss_after": final["rss_mb"], "restarted": final["pid"] != status["pid"]}
            if args.variants or args.model_only:
                from scripts.bench.routing_variants import side_by_side
                llm_routed = [c for c, r in zip(plant.commands, results, strict=True)
                              if r["route"] == "llm"]
                await side_by_side(config, worker, router, ["default", *args.variants],
                                   llm_routed, plant.commands if args.model_only else None)
    finally:
        if worker is not None:
            await worker.stop()
    rule_placed = [r["text"] for r in results if r["route"] == "rule"]
    stats["rule_ms"], stats["rule_base_ms"] = await repeat_rules(Router(config), rule_placed,
                                                                 args.reps)
    right = sum(r["right"] for r in results)
    print(f"   right {right}/{len(results)}, rules placed {len(rule_placed)}"
          + (f"; worker ready in {stats['worker']['ready_s']} s" if stats["worker"] else ""),
          flush=True)
    return stats, results


async def repeat_rules(router: Router, texts: list[str], reps: int
                       ) -> tuple[list[float], list[float]]:
    """Rule-routed latency over `reps` rounds, each text's bare normalisation timed right after."""
    ctx = RequestContext.make("internal", "engineer", timeout=3600)
    routed: list[float] = []
    base: list[float] = []
    for _ in range(reps):
        for text in texts:
            t0 = time.perf_counter()
            await router.route(ctx, text)
            t1 = time.perf_counter()
            bare_normalise(text)
            t2 = time.perf_counter()
            routed.append((t1 - t0) * 1000)
            base.append((t2 - t1) * 1000)
    return routed, base


def resolve_model(value: str) -> str:
    """`default`, `1.5b` (the prepared comparison model) or a .gguf path, made absolute."""
    if value == "default":
        return value
    if value == "1.5b":
        path = find_model(QWEN_1_5B.file)
        if path is None:
            raise SystemExit("the 1.5B model is not prepared: run scripts/models llm-1.5b")
        return str(path)
    path = Path(value).absolute()
    if not path.is_file():
        raise SystemExit(f"--model: {path} does not exist")
    return str(path)


def commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or "?"


async def run(args: argparse.Namespace) -> None:
    args.model = resolve_model(args.model)
    plants = select(args.plants, args.eval_dir)
    load_start = os.getloadavg()
    print(f"routing benchmark at {commit()}: {os.cpu_count()} CPUs, load average "
          f"{load_start[0]:.1f} {load_start[1]:.1f} {load_start[2]:.1f} at start; "
          + ("rules only" if args.rules_only else
             f"model {Path(args.model).name}, threads {args.threads}"), flush=True)
    all_stats: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    args.state = Path(tempfile.mkdtemp(prefix="hdb-state-", dir="/tmp"))
    try:
        for plant in plants:
            stats, rs = await bench_plant(plant, args)
            all_stats.append(stats)
            results += rs
        if args.threads_compare:
            await threads_compare(args.state)
    finally:
        shutil.rmtree(args.state, ignore_errors=True)
    load_end = os.getloadavg()
    if results:
        print()
        report.tables(results, all_stats, show_wrong=args.show_wrong)
    print(f"\nload average at the end {load_end[0]:.1f} {load_end[1]:.1f} {load_end[2]:.1f}")
    if args.json:
        model = args.model if args.model != "default" else str(find_model(MODEL_FILE))
        meta = {"commit": commit(), "model": "rules only" if args.rules_only else model,
                "threads": args.threads, "cpus": os.cpu_count(), "load_start": load_start,
                "load_end": load_end, "plants": [p.name for p in plants],
                "eval_dir": str(args.eval_dir), "reps": args.reps,
                "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        report.save(args.json, meta, all_stats, results)
        print(f"results: {args.json}")


async def threads_compare(state: Path) -> None:
    from scripts.bench import routing_variants
    dev = select("dev", EVAL_DIR)[0]
    scratch = Path(tempfile.mkdtemp(prefix="hdb-threads-", dir="/tmp"))
    try:
        configs = {}
        for threads in ("1", "auto"):
            data = {**dev.data, "llm": {**dev.data["llm"], "timeout": "120s"}}
            configs[threads] = Plant(dev.name, dev.group, data, dev.commands).config(
                scratch / threads, state, model="default", threads=threads)
        await routing_variants.threads_compare(configs, dev.commands)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--plants", default="all",
                        help="all, or of dev, cold, eval (every held-out plant) and held-out "
                             "plant names, comma-separated")
    parser.add_argument("--eval-dir", type=Path, default=EVAL_DIR,
                        help="the held-out corpus: <plant>.yaml + <plant>.jsonl")
    parser.add_argument("--rules-only", action="store_true",
                        help="the rule stage alone: no model worker is started (no model needed)")
    parser.add_argument("--model", default="default",
                        help="llm.model: default, 1.5b (scripts/models llm-1.5b) or a .gguf path")
    parser.add_argument("--threads", default="auto", help="llm.threads: auto or a number")
    parser.add_argument("--show-wrong", action="store_true",
                        help="list every wrong command per plant with what was chosen")
    parser.add_argument("--json", type=Path, help="save every command's result to this file")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A.json", "B.json"),
                        help="print which commands changed between two saved runs, and exit")
    parser.add_argument("--report", type=Path, metavar="RUN.json",
                        help="print the tables of a saved run (with --show-wrong, its misses)")
    parser.add_argument("--reps", type=int, default=20, help="repetitions of the rule stage")
    parser.add_argument("--variants", default="",
                        help="also run the LLM-routed commands through these model-stage "
                             "variants, interleaved: no-reuse, naive, score, no-narrow")
    parser.add_argument("--model-only", action="store_true",
                        help="also every command through the model stage alone, and naive")
    parser.add_argument("--threads-compare", action="store_true",
                        help="also the dev set with 1 thread and with auto, interleaved")
    args = parser.parse_args()
    if args.compare:
        report.compare(*args.compare)
        return
    if args.report:
        report.reprint(args.report, show_wrong=args.show_wrong)
        return
    args.variants = [v for v in args.variants.split(",") if v and v != "default"]
    if args.rules_only and (args.variants or args.model_only):
        parser.error("--variants and --model-only need the model (not --rules-only)")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
