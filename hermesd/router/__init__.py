"""Routing of free text to one action: deterministic rules first, then (when present) the model.

The router only proposes; policy decides. A stage that cannot place a command hands it on, and
what no stage places becomes `respond` (not understood).

The stages are built from the config when the first command needs them, not at start or at a
reload: a daemon that only polls and publishes values is never asked anything, and the rules
are its largest data (the plant lexicon, every point's words and profiles, and the router's
modules: the MQTT bridge benchmark's daemon went from 25.7 to 21.2 MiB PSS without them). The
first command after a start pays for building them (imports and lexicon: ~0.5 s on a 2-core
x86 machine), the first after a reload ~25 ms.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeAlias

from hermesd.answer import Action, Route, respond
from hermesd.config.model import Config
from hermesd.context import RequestContext

if TYPE_CHECKING:  # imported when the stages are built (`Router._build`)
    from hermesd.router.meaning import Lexicon
    from hermesd.router.raw_registers import RawRegisterRule
    from hermesd.router.rules import Analysis, Placement, RuleRouter
    from hermesd.router.semantic import Semantic


#: what may stand before the second of two things said with "and" ("and its setpoint")
_OWNING = frozenset(("the", "its", "their", "his", "her"))


@dataclass(frozen=True)
class Routed:
    action: Action
    route: Route
    timings_ms: dict[str, float] = field(default_factory=dict)
    candidates: tuple[str, ...] = ()


#: a later stage: given the context, the text and what the rules saw in it, an action or None
ModelStage: TypeAlias = "Callable[[RequestContext, str, Analysis], Awaitable[Routed | None]]"
#: a specialised rule tried before the point rules (e.g. raw register access); None: not mine
PreRule: TypeAlias = "Callable[[str], Placement | None]"


class Router:
    def __init__(self, config: Config, lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon
        self.model: ModelStage | None = None
        #: rules tried before the point rules (the config's raw-register rule first, once built)
        self.pre_rules: list[PreRule] = []
        #: one command placed by the rules and the semantic stage per turn of the event loop
        #: (see `route`)
        self._turn = asyncio.Lock()
        self._raw_registers: RawRegisterRule | None = None
        self.reconfigure(config)

    def attach_model(self, model: ModelStage | None) -> None:
        """Route what the rules cannot place through `model` from now on (None: rules alone)."""
        self.model = model

    def reconfigure(self, config: Config) -> None:
        """Route by `config` from now on; its stages are built when first needed."""
        self.config = config
        self._rules: RuleRouter | None = None
        self._semantic: Semantic | None = None
        if self._raw_registers is not None:  # the old config's
            self.pre_rules.remove(self._raw_registers)
            self._raw_registers = None

    @property
    def rules(self) -> RuleRouter:
        """The rule stage of the config, built at its first use."""
        return self._rules if self._rules is not None else self._build()

    @property
    def semantic(self) -> Semantic:
        """The semantic stage over `rules`, built with them."""
        if self._semantic is None:
            self._build()
        assert self._semantic is not None
        return self._semantic

    def _build(self) -> RuleRouter:
        from hermesd.router.raw_registers import RawRegisterRule
        from hermesd.router.rules import RuleRouter
        from hermesd.router.semantic import Semantic

        config = self.config
        rules = RuleRouter(list(config.points.values()), config.intents, self.lexicon)
        self._semantic = Semantic(rules)
        # "read holding register 40011 on plc1", when the config has Modbus devices
        self._raw_registers = RawRegisterRule.of(config)
        if self._raw_registers is not None:
            self.pre_rules.insert(0, self._raw_registers)
        self._rules = rules
        return rules

    async def route(self, ctx: RequestContext, text: str) -> Routed:
        from hermesd.router.causes import cause_dropped
        from hermesd.router.concepts import simplified
        from hermesd.router.normalize import units_joined

        # traditional Chinese is read as simplified, by every stage (啟動1號泵: 启动1号泵)
        text = units_joined(simplified(text))
        # "2 pack mixer": a number the names write as a specification is one in the command
        text = self.rules.specs_written(text)
        # "pump 2 at Mill Lane": a place the names call by a name and by a code ("LS04")
        text = self.rules.places_written(text)
        # "washdown pump": a word the names write with a hyphen ("wash-down") is written so
        text = self.rules.compounds_written(text)
        # "stop the chem pump, the caustic tank is empty": the command, without its cause;
        # "hall humidity? everybody's complaining": the question, without what is told after
        # it
        heard = cause_dropped(text, self.rules.profiles.plant_words)
        routed = await self._routed(ctx, heard)
        if heard != text and routed.action.name != "read" and \
                cause_dropped(text, self.rules.profiles.plant_words, told=False) != heard:
            # what is told after a question is dropped for a read only: "can you set the spa
            # to 36? nah, it's fine" is heard whole (review atk73b)
            routed = await self._routed(ctx, cause_dropped(
                text, self.rules.profiles.plant_words, told=False))
        return routed

    async def _routed(self, ctx: RequestContext, text: str) -> Routed:
        """The rules', the semantic stage's or the model's action for the text, gated."""
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
        rules = self.rules
        placed = None
        analysis = None
        for rule in self.pre_rules:
            placed = rule(text)
            if placed is not None:
                break
        else:
            analysis = rules.analyse(text)
            placed = self._both_read(analysis, rules.place(analysis))
        timings = {"rules": (time.perf_counter() - started) * 1000}
        if placed is None and analysis is not None:
            # the semantic stage: what is sure by meaning, and the candidates for the model
            started = time.perf_counter()
            judged = self.semantic.judge(analysis)
            placed = self._both_read(analysis, judged.placement)
            if placed is not None:
                # ("is high pressure pump 2 running" of its run command: its status says)
                placed = replace(placed, action=rules.status_for(analysis, placed.action))
            if placed is not None and rules.named_otherwise(analysis, placed.action):
                placed = None  # (as the rules: an output not asked, or another point
                # described so: the model's)
            analysis = replace(analysis, scored=[(f.score, f.point) for f in judged.fits],
                               plural=judged.plural)
            timings["semantic"] = (time.perf_counter() - started) * 1000
        return placed, analysis, timings

    def _both_read(self, a: Analysis, placed: Placement | None) -> Placement | None:
        """ "sorter speed and setpoint", "R1 temperature and setpoint": a read of one point
        whose name holds the words on both sides of the "and" is a read of two points, one
        named by each side with the rest of the command (the semantic stage's conjunction)."""
        point = placed.action.args.get("point") if placed is not None else None
        joins = [i for i, t in enumerate(a.toks) if t.raw == "and"]
        if placed is None or placed.action.name != "read" or not isinstance(point, str) \
                or len(joins) != 1 or a.wants_write or a.zh:
            return placed
        i = joins[0]
        said = [t for t in a.toks[i + 1:] if t.raw not in _OWNING]
        if not said or not {t.text for t in said} <= self.rules.point_words.get(point, set()):
            return placed
        # what the words before the "and" name alone ("sorter speed"): another point
        left, _, _ = self._place(" ".join(t.raw for t in a.toks[:i]))
        other = left.action.args.get("point") if left is not None else None
        if left is None or left.action.name != "read" or not isinstance(other, str) \
                or other == point:
            return placed
        return replace(placed, action=Action("read", {"points": [other, point]}))

    def _gate(self, text: str, analysis: Analysis | None, routed: Routed) -> Routed:
        """Every write the words led to passes the write gate, whichever stage placed it;
        the config's own intents are the plant's phrases and pass as they are."""
        from hermesd.router.write_gate import gated, gated_raw

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
        if point.kind == "bool" and analysis.zh and self.rules.profiles.described(point) and \
                (head := self.semantic.head_unsaid(analysis, self.rules.profiles.by_id[point.id])):
            # 启动1号冷水机组 ("start chiller 1") of a "Chiller 1 condenser water pump" a tag's
            # description named (review atk46b)
            return replace(routed, action=respond("unknown_point", asked=head))
        stopped = gated(text, point, action.args.get("value"), self.rules.profiles,
                        analysis.toks)
        if stopped is None and not point.writable:
            # "zero the bottle count" of a counter: no one may write it, and the answer says
            # so (the engine's refusal names it, NOT_WRITABLE), with nothing done
            stopped = respond("not_allowed", refused=action.to_dict())
        return routed if stopped is None else replace(routed, action=stopped)
