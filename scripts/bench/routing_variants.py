"""The routing benchmark's optional side-by-sides of the model stage (`--variants`,
`--model-only`, `--threads-compare`): the same commands through differently configured stages.

These reach further into the router than the main table (`ModelStage` options and the rules'
`analyse`), so they live apart: if the router's insides change, only these flags need care.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field, replace
from typing import Any

from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.core.errors import HermesError
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage, Options
from scripts.bench.routing_report import pct
from scripts.bench.routing_score import score
from scripts.bench.routing_worker import Worker

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


async def run_stage(stage: ModelStage, router: Router, c: dict[str, Any]
                    ) -> tuple[bool, float, str]:
    """One command through one model stage alone (no rules before it)."""
    analysis = router.rules.analyse(c["text"])
    ctx = RequestContext.make("internal", "engineer", timeout=120)
    t0 = time.perf_counter()
    try:
        routed = await stage(ctx, c["text"], analysis)
        action = routed.action.to_dict() if routed else None
    except HermesError:
        action = None
    return score(action, c["expect"]).right, (time.perf_counter() - t0) * 1000, c["text"]


async def side_by_side(config: Config, worker: Worker, router: Router, names: list[str],
                       llm_routed: list[dict[str, Any]], everything: list[dict[str, Any]] | None
                       ) -> None:
    """The LLM-routed commands through each variant, interleaved; with `everything`, every
    command through the default and the naive stage alone. Generations may take 120 s here
    (without prefix reuse, a busy machine takes well over `llm.timeout`), and a worker killed
    on an overrun is waited for, so one slow variant cannot fail the others."""
    config = replace(config, llm=replace(config.llm, timeout=120.0))
    stages = {v: ModelStage(config, worker.port, VARIANTS[v]) for v in names}
    tallies = {v: Tally() for v in names}
    for c in llm_routed:
        for v, stage in stages.items():
            await worker.ready()
            tallies[v].add(*await run_stage(stage, router, c))
    report("LLM-routed commands, by variant (same run, interleaved)", tallies)
    if everything is not None:
        alone = {v: Tally() for v in ("default", "naive")}
        for c in everything:
            for v, tally in alone.items():
                stage = stages.get(v) or ModelStage(config, worker.port, VARIANTS[v])
                await worker.ready()
                tally.add(*await run_stage(stage, router, c))
        report("every command through the model alone (no rules)", alone)


def report(title: str, tallies: dict[str, Tally]) -> None:
    if not tallies or not next(iter(tallies.values())).n:
        return
    print(f"  {title}:")
    base = next(iter(tallies.values()))
    for v, t in tallies.items():
        ratio = statistics.median(m / b for m, b in zip(t.ms, base.ms, strict=True))
        print(f"    {v:10s} right {t.right}/{t.n}  p50 {pct(t.ms, .5):6.0f} ms  p95 "
              f"{pct(t.ms, .95):6.0f} ms  median time ratio vs {next(iter(tallies))} "
              f"{ratio:5.2f}" + (f"  wrong: {t.wrong[:6]}" if t.wrong else ""))


async def threads_compare(configs: dict[str, Config], commands: list[dict[str, Any]]) -> None:
    """The default model stage with each config's thread count, interleaved, on `commands`."""
    workers = {t: Worker(c) for t, c in configs.items()}
    status = {t: await w.start() for t, w in workers.items()}
    router = Router(next(iter(configs.values())))
    tallies = {f"threads={t}": Tally() for t in workers}
    try:
        for c in commands:
            for t, w in workers.items():
                stage = ModelStage(configs[t], w.port)
                tallies[f"threads={t}"].add(*await run_stage(stage, router, c))
    finally:
        for w in workers.values():
            await w.stop()
    print(f"\n== threads: the model stage on every command, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}; " + ", ".join(
              f"{t}: {s['threads']} threads, prefix {s['prefix_s']} s" for t, s in status.items())
          + " ==")
    report("default stage", tallies)
