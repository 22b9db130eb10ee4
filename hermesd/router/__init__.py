"""Routing of free text to one action: deterministic rules first, then (when present) the model.

The router only proposes; policy decides. A stage that cannot place a command hands it on, and
what no stage places becomes `respond` (not understood).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from hermesd.answer import Action, Route, respond
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.router.meaning import Lexicon
from hermesd.router.raw_registers import RawRegisterRule
from hermesd.router.rules import Analysis, Placement, RuleRouter
from hermesd.router.semantic import Semantic
from hermesd.router.write_gate import gated, gated_raw


@dataclass(frozen=True)
class Routed:
    action: Action
    route: Route
    timings_ms: dict[str, float] = field(default_factory=dict)
    candidates: tuple[str, ...] = ()


#: a later stage: given the context, the text and what the rules saw in it, an action or None
ModelStage = Callable[[RequestContext, str, Analysis], Awaitable[Routed | None]]
#: a specialised rule tried before the point rules (e.g. raw register access); None: not mine
PreRule = Callable[[str], Placement | None]


class Router:
    def __init__(self, config: Config, lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon
        self.model: ModelStage | None = None
        self.pre_rules: list[PreRule] = []
        #: one command placed by the rules and the semantic stage per turn of the event loop
        #: (see `route`)
        self._turn = asyncio.Lock()
        self.reconfigure(config)

    def attach_model(self, model: ModelStage | None) -> None:
        """Route what the rules cannot place through `model` from now on (None: rules alone)."""
        self.model = model

    def reconfigure(self, config: Config) -> None:
        self.rules = RuleRouter(list(config.points.values()), config.intents, self.lexicon)
        self.semantic = Semantic(self.rules)
        self._raw_registers(config)

    def _raw_registers(self, config: Config) -> None:
        """ "read holding register 40011 on plc1", when the config has Modbus devices."""
        self.pre_rules = [r for r in self.pre_rules if not isinstance(r, RawRegisterRule)]
        rule = RawRegisterRule.of(config)
        if rule is not None:
            self.pre_rules.insert(0, rule)

    async def route(self, ctx: RequestContext, text: str) -> Routed:
        # The rules and the semantic stage run on the event loop and take up to a few hundred
        # milliseconds for a long command on a big plant. Commands that arrive together (64
        # pipelined on one connection, a burst on MQTT) are placed one per turn of the loop,
        # so that timers, the watchdog's ping and other clients' answers run between them:
        # the lock is taken, then the loop is let go once before the work.
        async with self._turn:
            await asyncio.sleep(0)
            placed, analysis, timings = self._place(text)
        if placed is not None:
            return self._gate(text, analysis, Routed(placed.action, "rule", timings,
                                                     placed.candidates))
        if self.model is not None and analysis is not None:
            routed = await self.model(ctx, text, analysis)
            if routed is not None:
                return self._gate(text, analysis, Routed(
                    routed.action, routed.route, {**timings, **routed.timings_ms},
                    routed.candidates))
        return Routed(respond("not_understood"), "rule", timings)

    def _place(self, text: str) -> tuple[Placement | None, Analysis | None, dict[str, float]]:
        """What the rules, or else the semantic stage, make of the text: the placement (None:
        the model's, if any), the analysis the model is handed, and the stages' times."""
        started = time.perf_counter()
        placed = None
        analysis = None
        for rule in self.pre_rules:
            placed = rule(text)
            if placed is not None:
                break
        else:
            analysis = self.rules.analyse(text)
            placed = self.rules.place(analysis)
        timings = {"rules": (time.perf_counter() - started) * 1000}
        if placed is None and analysis is not None:
            # the semantic stage: what is sure by meaning, and the candidates for the model
            started = time.perf_counter()
            judged = self.semantic.judge(analysis)
            placed = judged.placement
            analysis = replace(analysis, scored=[(f.score, f.point) for f in judged.fits],
                               plural=judged.plural)
            timings["semantic"] = (time.perf_counter() - started) * 1000
        return placed, analysis, timings

    def _gate(self, text: str, analysis: Analysis | None, routed: Routed) -> Routed:
        """Every write the words led to passes the write gate, whichever stage placed it;
        the config's own intents are the plant's phrases and pass as they are."""
        action = routed.action
        if action.name == "modbus.write_registers":
            device = str(action.args.get("device", ""))
            stopped = gated_raw(text, f"set holding register 40011 on {device or 'plc1'} to "
                                      "1200", device, tuple(action.args.get("values") or ()))
            return routed if stopped is None else replace(routed, action=stopped)
        if action.name == "read" and analysis is not None and action.point in self.rules.points:
            unread = self.rules.unread_value(analysis, self.rules.points[action.point])
            return routed if unread is None else replace(routed, action=unread)
        if action.name != "write" or analysis is None or self.rules.is_intent(analysis):
            return routed
        point = self.rules.points.get(action.point or "")
        if point is None:
            return routed  # no such point: the engine refuses it by name
        stopped = gated(text, point, action.args.get("value"), self.rules.profiles,
                        analysis.toks)
        return routed if stopped is None else replace(routed, action=stopped)
