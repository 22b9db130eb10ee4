"""The model stage of routing: what the rules could not place, the local model chooses.

For each command it offers the model a closed set of actions (`grammar.choices`): reads of the
likely points, writes of writable ones with the values the command's own words give, and
`respond` with a fixed reason. The model's output must be exactly one of them; anything else
(an unknown line, a generation cut off at its token limit) is a failure, never a partial action.
The action it picks goes through the same policy as a typed `hermesctl write`, and the reply is
composed by the daemon, never taken from the model.

One command runs on the model at a time; up to `llm.queue` wait behind it and any more answer
BUSY at once. A generation that overruns its deadline (`llm.timeout`, or the request's own) is
cancelled by killing the worker process, which the supervisor restarts; the command answers
TIMEOUT.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from hermesd.answer import Action, respond
from hermesd.config.model import Config, Point
from hermesd.context import RequestContext
from hermesd.core.errors import Busy, ErrorCode, HermesError, Timeout, ToolError
from hermesd.router import Routed
from hermesd.router.choices import said_at
from hermesd.router.concepts import concepts_of_text, simplified
from hermesd.router.coverage import (
    FAULT_STATES,
    GENERAL,
    GENERAL_WORDS,
    NEAR,
    TEXT,
    Term,
    a_strength,
    broad,
    explain,
    explained,
    kin_thing,
    lone_character,
    said_otherwise,
    terms,
    unit_ids,
)
from hermesd.router.grammar import Choice, choices, gbnf
from hermesd.router.normalize import content, tokens
from hermesd.router.other_values import another_value_unsaid
from hermesd.router.profiles import MODE, SETPOINT, SETPOINT_WORDS, SWITCHED_STATES, Profile
from hermesd.router.prompt import ASSISTANT, END, REASONS, USER, Prompt, build
from hermesd.router.rules import (
    AMOUNT_ASKED,
    MEASURE_ASKED,
    SWITCH_PROBLEMS,
    Analysis,
    RuleRouter,
    counted,
    set_asked,
    unit_after,
)
from hermesd.router.semantic import FULL, RATE_TIMES, Semantic
from hermesd.router.tags import tag_described
from hermesd.router.unit_parts import part_read
from hermesd.router.vocabulary import (
    AMOUNTS,
    INTENSIVE,
    OFF_WORDS,
    ON_WORDS,
    OTHER_ENDS,
    PLURAL_MARKS,
    QUANTITIES,
    SAME_ENDS,
    UNIT_WORDS,
    WEAK_QUANTITY,
    WH_START,
    YES_NO_START,
)
from hermesd.router.write_gate import gated, ids_said, told_apart
from hermesd.value_maps import spellings

log = logging.getLogger(__name__)

#: roles that say which of a measure's values: a past period's, its peak, mean or spread, a
#: forecast (not "today" nor "per hour": a rate's or a counter's period, which its unit says)
_WHICH_VALUE = frozenset(f"role.{r}" for r in
                         "previous_period maximum minimum average spread forecast".split())
_EXTREMES = frozenset(("role.maximum", "role.minimum"))
MAX_TOKENS = 24  # the longest line ("write <id> <value>") is well inside this
TOP_CANDIDATES = 5
#: a machine named in Chinese: up to four characters and the one that says what kind of
#: machine ("打包机", "涡电流分选机", "除铁器"), after a number or at the start of a word
_ZH_MACHINE = re.compile(r"(?:号|^|[的把将对])([^\W\d_号一二三四五六七八九十零两]{1,5}?"
                         r"[机器泵阀炉罐塔仓槽柜釜窑])")
#: with candidates at hand: "none of these" is unknown_point (a point the plant lacks) or
#: out_of_scope (no point at all)
SOME_REASONS = ("unknown_point", "out_of_scope")  # two: the first token after "respond"
# decides between them (destructive and rule-breaking requests are the rules' to refuse)
#: what the model says when it finds none of the candidates meant
NONE_OF_THESE = frozenset(("unknown_point", "out_of_scope", "not_understood"))
#: ...and when the best candidate explains all that the command names, none: the model only
#: chooses which candidate (its choice is still checked against the words)
FOCUSED_REASONS: tuple[str, ...] = ()
#: the plant itself ("leaving the plant", "the whole site"): no thing a point must have
WHOLE_PLANT = frozenset(("thing.site",))
#: rooms, halls, areas: where a plant's points are, said as context ("particles in the room")
PLACES = frozenset(("thing.building", "thing.zone", "thing.floor_level", "thing.site",
                    "thing.workshop"))
PLACE_POINTS = 2  # ...when at least this many points are named by the place
SURELY_COVERED = 0.6
#: seconds a command must have left for the model to be asked a second time (the second
#: asking reuses the command's tokens: a decode of one and the answer's, ~0.1-0.3 s here)
SECOND_CHOICE_TIME = 1.0
#: words that ask how much there is of what they follow ("CO2 level"), which an on/off point
#: of it (an alarm, a switch) does not say unless its name does ("High level alarm")
AMOUNT_WORDS = GENERAL_WORDS - {"value", "reading"}
#: words that ask for a setting, not a measurement ("demand" and "limit" are measured too)
SETPOINT_ASKED = frozenset(("setpoint", "sp", "target"))


#: words before a thing that say how many of it, not which ("each shot", "every cycle")
_QUANTIFIERS = frozenset("each every any all per either both".split())


class Worker(Protocol):
    """The LLM worker as the stage sees it (the daemon's component, or a bench's own)."""

    @property
    def state(self) -> str:
        """ready | loading | preparing | failed | down | disabled."""

    async def call(self, action: str, args: dict[str, Any], timeout: float) -> Any:
        """Call a worker action; raises HermesError (Timeout, ToolUnavailable, ToolError)."""

    def kill(self, reason: str) -> None:
        """Kill the worker process now (the supervisor restarts it)."""


@dataclass
class Options:
    """The levers; the defaults are what the measurements support (scripts/bench/routing.py)."""

    #: grammar: greedy generation under the grammar (the default: 44/46 of the dev commands
    #: alone, against 39/46 naive); score: the likelihood of every offered line (more often an
    #: action where respond was right, ~2-3x slower); naive: free text, parsed, re-prompted once
    strategy: str = "grammar"
    narrow: bool = True  # offer only the rules' candidate points when there are some
    closed_world: bool = True  # no point shares a word with the command: offer respond only
    reuse_prefix: bool = True
    early_stop: bool = True  # stop generating once only one offered line is still possible
    #: when the best candidate explains every quantity, unit and thing a command names, the
    #: model chooses among the candidates, with no refusal to fall back on
    focused: bool = True
    #: a read the check refuses is asked of the model once more, without the refused point
    second_choice: bool = True
    max_tokens: int = MAX_TOKENS


@dataclass
class Counters:
    calls: int = 0
    busy: int = 0
    timeouts: int = 0
    kills: int = 0
    failures: int = 0
    last_ms: float | None = None
    extra: dict[str, int] = field(default_factory=dict)


def _a_number_alone(text: str, figures: str) -> bool:
    """Whether `figures` stand alone in the text as a number of a thing would: not in a
    formula or tag ("O2", "K2"), a decimal ("2.5"), a time ("@ 3", "3 o'clock", "3pm", 3点,
    "3:30") or a count of things ("24 wells": a plural of a thing the lexicon knows; not "602
    is", "602 thanks": review atk65f)."""
    for m in re.finditer(rf"(?<![A-Za-z]){re.escape(figures)}(?!\d|[.,]\d)", text):
        after = text[m.end():]
        clock = re.match(r"\s*(?:o'?clock|[点點时時]|:\d)", after, re.IGNORECASE) or (
            int(figures) <= 12 and re.match(r"\s*[ap]\.?m\b", after, re.IGNORECASE))
        plural = re.match(r"\s*([^\W\d_]{2,}s)\b", after)
        counted = plural is not None and any(
            found.kind == "thing" for found in concepts_of_text(plural.group(1)))
        if not text[:m.start()].rstrip().endswith("@") and not clock and not counted:
            return True
    return False


#: words before a number that make it a time or a bound, not a thing's number ("at 3",
#: "above 50", "in the last 2")
_BEFORE_A_TIME_OR_BOUND = frozenset("""
    at since before after until till from by last past around about over under above below
    than to within between and or
""".split())


#: roles that make a value another than the one its quantity names: a ratio, an extreme, a
#: mean or spread, a deviation, a limit, a forecast, a rate of change (not "output": the
#: "power output" of a generator is its power; nor a deadband or calibration, whose words
#: name quantities as often: a "differential" pressure, a "corrected" flow)
_QUALIFYING_ROLES = frozenset(f"role.{r}" for r in (
    "ratio", "deviation", "average", "maximum", "minimum", "spread", "limit_high", "limit_low",
    "forecast", "previous_period", "ramp_rate"))


#: ...of which none answers a question of the quantity alone (a mean, a spread, an extreme
#: or a previous period's value is still one of it: "the worst cell voltage" of a minimum)
_ANOTHER_VALUE = frozenset(f"role.{r}" for r in (
    "ratio", "deviation", "limit_high", "limit_low", "forecast", "ramp_rate"))
_ALARM = "state.alarm"


def _numeric(kind: str) -> bool:
    return kind in ("int", "float")


class ModelStage:
    def __init__(self, config: Config, worker: Worker, options: Options | None = None,
                 rules: RuleRouter | None = None) -> None:
        self.worker = worker
        self.options = options or Options()
        self.counters = Counters()
        self._lock = asyncio.Lock()
        self._inflight = 0
        self.reconfigure(config, rules)

    @property
    def inflight(self) -> int:
        """Commands running on the model or waiting for it."""
        return self._inflight

    def reconfigure(self, config: Config, rules: RuleRouter | None = None) -> None:
        """Take `config`; `rules`: the router's rules of the same config (built once per
        reload), else the stage builds its own (a stage used alone, in tests and benches)."""
        self.config = config
        self.points = dict(config.points)
        self.rules = rules or RuleRouter(list(config.points.values()), config.intents)
        self.semantic = Semantic(self.rules)
        #: the things each point's names say (not its description): see `_other_thing`
        self._named_things: dict[str, frozenset[str]] = {}
        # the catalogue names points as the rules do (a tag spelled out, a tag's description)
        self.prompt: Prompt = build(self.rules.points.values())

    # -- the stage ---------------------------------------------------------------------------

    async def __call__(self, ctx: RequestContext, text: str, a: Analysis) -> Routed | None:
        state = self.worker.state
        if state != "ready":  # rules alone, and the answer says why
            why = getattr(self.worker, "error", None)  # a worker that can tell, tells
            return Routed(respond("not_understood", llm=state,
                                  **({"llm_error": why} if why else {})), "rule", {})
        limit = self.config.llm.queue
        if self._inflight > limit:
            self.counters.busy += 1
            raise Busy(f"the language model is busy with {self._inflight} commands; "
                       "try again in a moment")
        started = time.perf_counter()
        self._inflight += 1
        try:
            try:
                async with asyncio.timeout(ctx.remaining()):
                    await self._lock.acquire()
            except TimeoutError:
                raise Timeout("waited for the language model past the deadline") from None
            try:
                waited = (time.perf_counter() - started) * 1000
                routed = await self._decide(ctx, text, a)
            finally:
                self._lock.release()
        finally:
            self._inflight -= 1
        total = (time.perf_counter() - started) * 1000
        self.counters.calls += 1
        self.counters.last_ms = round(total, 1)
        routed.timings_ms.update(llm_wait=waited, llm=total)
        return routed

    def offer(self, a: Analysis) -> list[Choice]:
        """The actions the model may choose from for this command: writes only with a value
        the words name exactly once (`RuleRouter.values`), so it can never pick one of two."""
        scored = a.candidates
        if self.options.narrow and scored:
            points = scored[:TOP_CANDIDATES]
        elif not scored and self.options.closed_world:
            points = []
        else:
            points = list(self.points)
        writes: list[tuple[str, Any]] = []
        # a "don't", a change of mind or a number no one can read leaves every write in doubt;
        # two numbers or a change ("by 10") leave every number in doubt (`values` gives none)
        doubt = self.rules.value_words(a, None).problem in SWITCH_PROBLEMS
        # a question never changes anything, nor do words that ask for no change; a command
        # about several points changes none
        writing = a.wants_write or self.rules.terse_write(a, None)
        if writing and not a.yes_no and not doubt and not a.plural:
            targets = [p for p in points if self.points[p].writable]
            if not targets and a.wants_write and self.options.narrow:
                targets = self._writable_near(a)
                points = [*points, *targets]
            if not targets and a.wants_write:
                # policy refuses read-only ones with a clear NOT_WRITABLE; words without a
                # verb ("genset 2 kW") are a write only of a point that can be written
                targets = points
            unit = self._unit_of_value(a)
            for pid in targets:
                if unit is not None and not explain(unit, self.rules.profiles.by_id[pid]):
                    continue  # "300 kW" is no value for a point in %
                writes += [(pid, v) for v in self.rules.values(a, self.points[pid])]
            if not writes and a.wants_write:
                points = []  # a read is no answer to a write, whatever the model would like
        # unknown numbered things and greetings are the rules' to spot; with candidates at
        # hand the model only says whether the command is about them at all
        reasons: tuple[str, ...] = REASONS if not points or not self.options.narrow \
            else SOME_REASONS
        if points and self.options.focused and self._surely_one_of(a, points[0]):
            reasons = FOCUSED_REASONS
        return choices(points, writes, reasons)

    def _writable_near(self, a: Analysis) -> list[str]:
        """The points that can be written and explain every word of the command, where none
        of the first candidates can be written: "stop unit one" of a plant whose
        unit 1 has ten readings and statuses named as it is, and a run command that ranks
        below them only by its words (blind batch 44: the model wrote the read-only "Unit
        running"). The check holds the model's pick to the words as ever."""
        found = [t for t in self.semantic.terms(a) if not t.unit]
        by_id = self.rules.profiles.by_id
        return [p for _, p in a.scored if p in self.points and self.points[p].writable
                and found and all(explained(t, by_id[p], found) >= FULL for t in found)
                ][:TOP_CANDIDATES]

    def _surely_one_of(self, a: Analysis, best: str, *, known: bool = True) -> bool:
        """Whether the best candidate explains every quantity, unit and thing the command
        names, and most of what it says: then one of the candidates is meant, and the model
        only chooses which ("NTU after filtration?")."""
        if a.plural:
            return False
        profile = self.rules.profiles.by_id[best]
        if "and" in a.words and "and" not in profile.words:
            return False  # "turbidity before and after filtration": two points, perhaps
        # (what the semantic stage could not split; one read is half an answer)
        every = self.semantic.terms(a)
        if any(self.semantic.lacks_quantity(a, t, profile) for t in every):
            return False  # "what's the heat flow", and the best is a temperature
        # a room or area of the plant is where the point is, not what is asked
        found = [t for t in every if not self._plant_place(t, profile, every)]
        strengths = [explained(t, profile, every) for t in found]
        # (a medium is context: "pH of the recirculation water"; the check refuses one the
        # plant has none of)
        meaningful = [s for t, s in zip(found, strengths, strict=True)
                      if (self.semantic.meaningful(a, t) and "medium" not in t.kinds) or t.unit]
        total = sum(t.weight for t in found)
        cover = sum(t.weight * s for t, s in zip(found, strengths, strict=True)) / total \
            if total else 0.0
        # a word nobody knows may change everything ("what is the difference between a CRAH
        # and a CRAC"): the model may still say none
        # (`known=False`: a candidate the check alone lets through may be meant whatever is
        # said apart from what names it — "..., roughly" — but not a word nobody knows in the
        # same breath, which may be what is asked of it: "the burner temperature gradient")
        words = self.rules.profiles.plant_words
        unknown = [t for t in found if not t.concepts and t.word not in words]
        named = [t for t in found if t.concepts or t.word in words]
        if not meaningful and found and a.question and not a.wants_write and all(
                s >= FULL for s in strengths) and any(
                self.semantic._tells_apart(t) and not any(
                    explained(t, o, found) for o in self.rules.profiles.all if o is not profile)
                for t in found):
            # "cobble?": a word of this point's names and no other's, asked, and nothing said
            # that it does not explain, though the lexicon knows none of it (not "reset the
            # misfeed", which asks for what no read does)
            meaningful = [FULL]
        all_known = not unknown or (not known and all(
            _clause(a, t.index) not in {_clause(a, n.index) for n in named} for t in unknown))
        return bool(meaningful) and min(meaningful) >= FULL and cover >= SURELY_COVERED \
            and all_known

    def _plant_place(self, t: Term, profile: Profile, found: list[Term]) -> bool:
        """A room or area of this plant (several other points are in it) said beside what
        is asked: where the point is, not which point ("particles in the room" of a cleanroom
        whose room temperature, humidity and pressure are points). A place no point has, or
        one point alone ("the boiler house alarm"), is still a word to refuse on ("the
        humidity in the office", "how hot is it in the plant room"). The plant itself is
        not ("what's the temperature of the plant": of several points, none is meant)."""
        if not t.concepts or not t.concepts <= PLACES:
            return False
        return sum(explained(t, o, found) >= FULL for o in self.rules.profiles.all
                   if o is not profile) >= PLACE_POINTS

    def _unit_of_value(self, a: Analysis) -> Term | None:
        """The unit said right after a number ("300 kW"), as a term."""
        places = {i + 1 for i, t in enumerate(a.toks[:-1]) if t.is_number}
        found = [t for t in terms(a.text, a.toks, self.rules.profiles, spell=False)
                 if t.unit and t.index in places]
        return found[0] if found else None

    def check(self, a: Analysis, action: Action, *, equals: bool = True) -> Action:
        """The model's choice, unless the words name what that point is not (`missing`); then
        the command names a point the plant does not have: `respond unknown_point`. Nor when
        another point is as much the one meant and only an unsaid number, or no word at all,
        tells them apart (`equals`: whether to ask that; off where the check weighs a rival)."""
        pid = action.args.get("point") if action.name in ("read", "write") else None
        if not isinstance(pid, str) or pid not in self.rules.profiles.by_id:
            return action
        profile = self.rules.profiles.by_id[pid]
        if not self.semantic.terms(a) and not any(t.is_id or t.unit for t in a.toks):
            # "um", "hmm", "then": no word names any point, nor a number a thing (a speech
            # recogniser's noise read a point of the model's guess: review atk67 H1)
            return respond("not_understood", model=f"{action.name} {pid}")
        if action.name == "write" and profile.point.kind == "string":
            a = _without_choice(a, profile.point, str(action.args.get("value")))
        if self.rules.numbered_list(a.toks) is not None and \
                "and" not in profile.point.name.casefold().split():
            # "are trails 1 and 2 making snow": several numbered things, of which one point
            # (not one named so: "Filters 1 and 2 pressure") is half an answer
            return respond("not_understood", model=f"{action.name} {pid}")
        if action.name == "write" and profile.point.kind in ("int", "float") and \
                a.words & (ON_WORDS | OFF_WORDS) and not any(t.is_number for t in a.toks
                                                            if not t.ordinal and t.text
                                                            not in profile.ids) and any(
                o.point.kind == "bool" and o.point.writable and o.ids == profile.ids
                and o.things & profile.things for o in self.rules.profiles.all):
            # "stop turbine three": its run command, not its curtailment setpoint to 0
            return respond("not_understood", model=f"write {pid}")
        if action.name == "write" and self.rules.output_unasked(a, pid):
            # "set the drum level to 50" of its controller's output (review atk46b)
            return respond("not_understood", model=f"write {pid}")
        if action.name == "write" and profile.point.kind == "bool" and a.zh and \
                (head := self.semantic.head_unsaid(a, profile)):
            # 启动带式压滤机 ("start the belt press") of a "Belt press polymer dosing pump":
            # what a switch switches is its name's last thing, which the words must say
            # (review atk46; the write gate asks so of English words)
            return respond("unknown_point", asked=head, model=f"write {pid}")
        if action.name == "read" and (part := part_read(a.text, a.toks, profile.point,
                                                        self.rules.profiles)):
            # "is chiller 1 running" of a "Chiller 1 condenser water pump" (review atk46b)
            return respond("unknown_point", asked=" ".join(part), model=f"read {pid}")
        if action.name == "read" and self._half_of_two(a, profile):
            # "BT and ET on roaster 2": two things joined, of which the point is one
            return respond("not_understood", model=f"read {pid}")
        if a.plural and action.name == "read" and not (a.words & PLURAL_MARKS & profile.names):
            # "temperatures of all three ORs", which the semantic stage could not place: all,
            # both, every thing asked, of which one point (not one named so: "All pumps
            # running") is part of an answer
            return respond("not_understood", model=f"read {pid}")
        if action.name == "read" and (counted(a.toks) or self.rules.said_to_do(a, pid)
                                      or (a_strength(profile)
                                          and self.rules.amount_of_an_intensity(a, pid))):
            # "what are the two tempering ovens reading": one oven is half the answer;
            # "pulse the bags": asked to do what the switch does, not how it is; "how much
            # fresh water is going into the chillers": no acid in that water (blind batch 63)
            return respond("not_understood", model=f"read {pid}")
        if action.name == "read" and self.semantic.described_only(
                said := self.semantic.terms(a), profile) and not (
                    (tagged := {t.text for t in tokens(tag_described(profile.point))}) and
                    all(t.word in tagged or ("state" in t.kinds and t.concepts & profile.concepts)
                        for t in said if not t.unit)):
            # "HCl at the stack?": a damper whose description alone says "stack" and "acid"
            # (but an "XA-4342" is asked by its description's first words: "is cooler fan 2
            # tripped", blind batch 37)
            return respond("not_understood", model=f"read {pid}")
        if action.name == "read" and not a.question and self._value_said(a):
            # "hold 14 inches of oil in the sep": a value said to be had is no question of
            # what it is
            return respond("not_understood", model=f"read {pid}")
        if action.name == "write" and self._narrower_set(a, profile):
            # "set the dry room temperature to -40" of its dew point's setpoint (atk55c)
            return respond("not_understood", model=f"write {pid}")
        why = self._unnamed_zh_thing(a, profile) or self.missing(a, profile) or \
            self.rules.other_tag(a, pid) or (self.rules.quantity_of_its_thing(a, pid) if (
                action.name == "read" or profile.point.kind != "bool") else None)
        # (a quantity said apart from the name of the thing that holds it, read or a value
        # written: "set the high pressure pump pressure to 50" is no speed setpoint's, review
        # atk72; a switch's words are its name's, "reset the high temp trip")
        if not why and action.name == "read":
            why = self._not_asked(a, profile) or self._amount_of_a_switch(a, profile) or \
                self._numbered_unnumbered(a, profile) or self._number_of_another(a, profile) \
                or self._another_value(a, profile)
        if not why and action.name == "read":
            # "what mode is PM2 in", of PM2's run switch (PM2 has no mode): a mode asked that
            # the point is not (a role is not asked so: "total" of a PV output is its sum)
            terms = self.semantic.terms(a)
            states = [t for t in terms if "state" in t.kinds and MODE not in t.concepts]
            stated = any(not t.concepts <= SWITCHED_STATES for t in states) and all(
                explained(t, profile, terms) >= FULL for t in states)
            # (not "is pump 3 running in auto mode" of "Pump 3 running": auto is not said of
            # it, atk34)
            # ("is pump 3 in auto mode" of "Pump 3 auto": the mode is the state said)
            why = "" if stated else " ".join(t.raw for t in terms if MODE in t.concepts
                                             and explained(t, profile, terms) < FULL)
            why = why or self._fault_unsaid(terms, profile)
        if why:
            return respond("unknown_point", asked=why, model=f"{action.name} {pid}")
        if action.name == "read" and not any(
                explained(t, profile, found) > 0 or (
                    "thing" in t.kinds and ids_said(a.toks, write=False) & profile.ids)
                for found in [self.semantic.terms(a)] for t in found):
            # "ok", "well", "50 percent", "set 50": no word the point explains at all, nor a
            # thing its number (a recogniser's noise, a number alone: review atk67b H1; but
            # "what's machine 3 set to" of jet 3's setpoint)
            return respond("not_understood", model=f"read {pid}")
        if action.name == "read" and self._yes_no_of_a_number(a, profile):
            # "are the B1 rolls in?" of their gap in mm, beside the rolls' engaged status: a
            # question yes or no that asks no quantity (blind batch 53)
            return respond("not_understood", model=f"read {pid}")
        if equals and action.name == "read" and self._two_alike(a, profile):
            # "what's the tank level", of the WFI tank's, beside the purified water tank's;
            # "grain temperature in silo one", of the top of its cable, beside the bottom
            return respond("not_understood", model=f"read {pid}")
        if equals and action.name == "read" and self._quantity_alone(a, profile):
            # "what's the consistency", of the thick stock's, where the pulper's and the white
            # water's are as much: no word says which
            return respond("not_understood", model=f"read {pid}")
        if action.name == "read" and self._quantity_unsaid(a, profile):
            # "what's the water in the lock reading" of the canal water temperature, where the
            # chamber level is as much the water in the lock (blind batch 74)
            return respond("not_understood", model=f"read {pid}")
        if self.rules.profiles.siblings(profile) and \
                not ids_said(a.toks, write=action.name == "write") & profile.ids and \
                not told_apart(self.semantic.terms(a), profile, self.rules.profiles):
            # "set the HP pump to 1300", "what's the conche temperature": one of several
            # named alike, and no number says which (the model tends to take number 1)
            return respond("not_understood", model=f"{action.name} {pid}")
        if equals and self._equal_to(a, action, profile):
            # "start the transfer pump" of "Transfer pump 1, run command", where the "Tank 4
            # transfer pump start/stop" is one as much: no word says which (review atk46b)
            return respond("not_understood", model=f"{action.name} {pid}")
        return action

    def _equal_to(self, a: Analysis, action: Action, profile: Profile) -> bool:
        """Whether another point explains each word as well, would pass as the model's pick
        itself, and only a number nobody said tells the two apart: "Transfer pump 1" and the
        "Day tank transfer pump" of "start the transfer pump". A number is nothing the model
        can tell from meaning, and it tends to take the first. (A tag's loop number numbers no
        machine: "SIC-4240.SP" is told from "SIC-4250.SP" by its words; and a point named in
        full, "Outside air temperature", is no equal of "AHU 1 outside air temperature".)"""
        write = action.name == "write"
        said = ids_said(a.toks, write=write)
        profiles = self.rules.profiles
        numbers = profiles.thing_numbers(profile)
        if said & numbers or not (numbers or self._name_unsaid(a, profile)):
            return False
        found = self.semantic.terms(a)
        own = [explained(t, profile, found) for t in found]
        if not any(e >= FULL for e in own):
            return False
        point = profile.point
        for other in profiles.all:
            o = other.point
            if other is profile or o.kind != point.kind or other.role != profile.role or \
                    (write and not o.writable) or said & other.ids:
                continue
            theirs = profiles.thing_numbers(other)
            if numbers & theirs or not (numbers or theirs) or \
                    any(explained(t, other, found) < e for t, e in zip(found, own, strict=True)):
                continue
            args = {**action.args, "point": o.id}
            if self.check(a, Action(action.name, args), equals=False).name != action.name:
                continue
            stopped = gated(a.text, o, args.get("value"), profiles, a.toks) if write else None
            if stopped is not None and stopped.args.get("value_problem") != "which":
                continue  # (the gate asking which one says as much)
            return True
        return False

    def _name_unsaid(self, a: Analysis, profile: Profile) -> bool:
        """Whether each of the point's names leaves a word unsaid, in words or in meaning
        ("day", "tank" of the "Day tank transfer pump" for "start the transfer pump"; not
        "Chill room SP" aliased "cooler setpoint" for "cooler to 3 degrees")."""
        point = profile.point
        lexicon = self.rules.profiles.lexicon
        said = a.words | {t.text for t in a.toks}
        meant = {c for t in self.semantic.terms(a) for c in t.concepts}

        def unsaid(word: str) -> bool:
            senses = {s.concept for s in lexicon.concepts(word)}
            # (what role a point has, "SP", names no thing: the setpoint guard weighs it)
            return word not in said and not senses & meant and not (
                senses and all(c.startswith("role.") for c in senses))

        labels = {self.rules.profiles.spoken(point), point.name, *point.aliases,
                  *point.names.values()}
        return all(any(unsaid(t.text) for t in content(tokens(label), label=True))
                   for label in labels)

    @staticmethod
    def _fault_unsaid(terms: list[Term], profile: Profile) -> str:
        """A fault, trip or alarm asked ("is the cooling tower fan faulted", "is cooler fan 2
        tripped") of a point that tells none, its thing's run switch or state: whether it
        runs is no answer to whether it failed (blind batches 37 and 39)."""
        if (profile.concepts | profile.choice_concepts) & FAULT_STATES:
            return ""
        return " ".join(t.raw for t in terms if t.concepts & FAULT_STATES
                        and explained(t, profile, terms) <= NEAR)

    def _narrower_set(self, a: Analysis, profile: Profile) -> bool:
        """Whether the point written is named by a narrower quantity than one said, which the
        words do not say, and another point is named by the word said without it: "set the
        dry room temperature to -40" of a "Dry room dew point setpoint" (in °C) beside the
        "Dry room temperature" (review atk55c)."""
        lexicon = self.rules.profiles.lexicon
        for t in self.semantic.terms(a):
            if "quantity" not in t.kinds or "thing" in t.kinds or t.unit or \
                    t.word in profile.words:
                continue  # (nor "press", a machine as much: review atk56)
            said = lexicon.broader(t.concepts)  # ("room temperature": a temperature)
            narrower = {q for q in profile.named_quantities - said
                        if (lexicon.broader((q,)) - {q}) & said}
            if narrower and any(o is not profile and not o.named_quantities & narrower
                                and explain(t, o, exact=True) >= TEXT
                                for o in self.rules.profiles.all):
                return True
        return False

    def _yes_no_of_a_number(self, a: Analysis, profile: Profile) -> bool:
        """A question yes or no that says no quantity, of a number, where an on/off point
        explains every word as well: it is the answer asked."""
        if not a.yes_no or profile.point.kind not in ("int", "float") or profile.point.choices:
            return False
        found = self.semantic.terms(a)
        if any(t.unit or "quantity" in t.kinds for t in found):
            return False  # "is the tank level high", "is the boiler hot"
        return bool(found) and any(
            o.point.kind == "bool" and all(explained(t, o, found) >= FULL for t in found)
            for o in self.rules.profiles.all)

    def _half_of_two(self, a: Analysis, profile: Profile) -> bool:
        """Two words joined by "and", the point explains one and not the other ("BT and ET",
        "pressure and flow"): two things are asked, of which a read of the point is half."""
        found = {t.index: t for t in self.semantic.terms(a)}
        for k, t in enumerate(a.toks[1:-1], 1):
            if t.raw != "and" or t.zh:
                continue
            left, right = found.get(k - 1), found.get(k + 1)
            if left is None or right is None:
                continue
            terms = list(found.values())
            sides = [explained(x, profile, terms) > NEAR for x in (left, right)]
            if sides[0] != sides[1]:
                return True
        return False

    def _not_asked(self, a: Analysis, profile: Profile) -> str | None:
        """What a question asks that a read of this point does not answer:
        - a setting, when the words ask for none and another candidate is the measurement of
          all the point is named by ("what's the header pressure": not its setpoint);
        - how much there is, of a point that says how hot, how hard or how fast ("how much
          steam", and the steam temperature; "how many billets", and the billet temperature);
        - a thing numbered before a unit, of another number ("genset 2 kW" of generator 1)."""
        found = self.semantic.terms(a)
        rest = [o for o in self.rules.profiles.all if o is not profile]
        if (named := self._numbered_before_unit(a, found, profile, rest)) is not None:
            return named
        # (a word after "how" asks for the measure, whatever it is: "how cloudy")
        unknown = [t for t in found if not t.concepts
                   and t.word not in self.rules.profiles.plant_words
                   and not (t.index and a.toks[t.index - 1].raw == "how")
                   and not any(explained(t, p, found) for p in self.rules.profiles.all)]
        if unknown and not any(self._anchors(t, profile, found) for t in found):
            # "crankcase oil mist": the lube oil pressure is only of the oil, the rest is
            # words nobody here knows
            return " ".join(t.shown for t in unknown)
        others = [self.rules.profiles.by_id[p] for p in a.candidates[:TOP_CANDIDATES]
                  if p != profile.id and p in self.rules.profiles.by_id]
        if profile.role == "setpoint" and not self._setting_asked(a, found):
            kept = [t for t in found if explained(t, profile, found) >= FULL]
            if kept and any(o.role == "measurement" and all(
                    explained(t, o, found) >= FULL for t in kept) for o in others):
                return " ".join(t.shown for t in kept)
        if self._named_roles(profile) - {c for t in found for c in t.concepts}:
            kept = [t for t in found if explained(t, profile, found) >= FULL]
            if kept and any(not self._named_roles(o) and o.role == profile.role and all(
                    explained(t, o, found) >= FULL for t in kept) for o in others):
                # "machine speed?" of the "Jet-to-wire speed ratio" beside the "Wire speed":
                # a ratio, peak, mean or deviation of what is asked is no answer to it
                return " ".join(t.shown for t in kept)
        asked = _how_much(a)
        if asked is not None and (asked.split()[-1].casefold() == "much" or (
                asked.split()[-1].casefold() == "many" and not _unit_counted(a))) and not any(
                set(self.semantic.quantities(t)) for t in found if t.raw not in WEAK_QUANTITY):
            lexicon = self.rules.profiles.lexicon
            measures = [lexicon.broader((q,)) for q in profile.quantities]
            # (any it measures how hot, and none how much: "Bolzen" of a billet temperature
            # is an aluminium too)
            if any(m & INTENSIVE for m in measures) and not any(m & AMOUNTS for m in measures):
                return asked
        return None

    def _quantity_alone(self, a: Analysis, profile: Profile) -> bool:
        """Whether the words say only what is measured (a quantity, a role, a unit), no thing
        and no number, and the point's name says more (its thing), while another point of its
        role, named with more too (not a numbered one, where this one is not, nor a ratio or
        peak of it), explains every word as well and would pass as the model's pick itself:
        which one is meant, nothing says. The rivals are the candidates the model was offered
        (a check each: never every zone of a plant of hundreds)."""
        found = self.semantic.terms(a)
        said = {w for t in found for w in (t.word, t.raw, *t.alts)}
        if not found or ids_said(a.toks, write=False) or any(
                (not t.unit and not (t.kinds and t.kinds <= {"quantity", "role"}))
                or t.own_kinds - {"quantity", "role"} for t in found) or \
                {t.text for t in content(a.toks)} - said or not self._more_named(profile, said):
            return False  # (a word the terms leave out may say which: "O2 in H2")
        own = [explained(t, profile, found) for t in found]
        rivals = [self.rules.profiles.by_id[p] for p in a.candidates[:TOP_CANDIDATES]
                  if p != profile.id and p in self.rules.profiles.by_id]
        # (a numbered thing is asked with its number: "flow temp?" is the network's, not
        # substation 1's)
        return any(o.role == profile.role and _numeric(o.point.kind) == _numeric(
                   profile.point.kind) and self._more_named(o, said) and not self._named_roles(o)
                   and not (o.ids and not profile.ids)
                   and all(explained(t, o, found) >= max(e, FULL)
                           for t, e in zip(found, own, strict=True))
                   and self.check(a, Action("read", {"point": o.id}), equals=False).name == "read"
                   for o in rivals)

    def _two_alike(self, a: Analysis, profile: Profile) -> bool:
        """Whether the point explains every word said, its name says more (which tank, which
        end), and another of its role and kind, named with more too and numbered as said,
        explains each word as well and would pass as the model's pick itself: which of the two
        is meant, nothing says (blind batch 69)."""
        found = self.semantic.terms(a)
        said = {w for t in found for w in (t.word, t.raw, *t.alts)}
        ids = ids_said(a.toks, write=False)
        if not found or ids - profile.ids or not self._more_named(profile, said) or \
                {t.text for t in content(a.toks) if not t.is_id} - said:
            return False  # (a word the terms leave out may say which)
        own = [explained(t, profile, found) for t in found]
        if min(own) < FULL:
            return False
        rivals = [self.rules.profiles.by_id[p] for p in a.candidates[:TOP_CANDIDATES]
                  if p != profile.id and p in self.rules.profiles.by_id]
        # (alike: in meaning the same, but for an end or what flows in it: a top and a
        # bottom, a supply and a return, a WFI tank and a purified water tank; not a "Kettle
        # wall temperature" beside the "Zinc bath temperature")
        mine = profile.concepts - OTHER_ENDS.keys()
        return any(o.role == profile.role and _numeric(o.point.kind) == _numeric(
                   profile.point.kind) and not ids - o.ids and o.ids <= profile.ids | ids
                   and all(c.startswith("medium.")
                           for c in (o.concepts - OTHER_ENDS.keys()) ^ mine)
                   and self._more_named(o, said) and not self._named_roles(o)
                   and all(explained(t, o, found) >= e for t, e in zip(found, own, strict=True))
                   and self.check(a, Action("read", {"point": o.id}), equals=False).name == "read"
                   for o in rivals)

    def _another_value(self, a: Analysis, profile: Profile) -> str | None:
        """The quantity asked, of a point that is a limit, alarm, rate of change, ratio,
        deviation, forecast or difference of it the words do not say: "oven 1 temperature
        setpoint" of its heating-rate setpoint, 3号冷库设定温度 of the store's high limit
        (review atk67b H3); not a mean or an extreme ("kiln temperature" of a "Kiln average
        temperature" is a temperature)."""
        found = self.semantic.terms(a)
        point = profile.point
        if not _numeric(point.kind):
            return None  # ("any ammonia leak?" of an "Ammonia leak alarm": what it says)
        named = self._named_roles(profile) & _ANOTHER_VALUE
        spans = [(m.concept.id, label[m.start:m.end]) for label in (point.name, *point.aliases)
                 for m in concepts_of_text(label)]
        if any(concept == _ALARM for concept, _ in spans):
            named |= {_ALARM}  # "Cold store 2 high temperature alarm setpoint"
        role_words = {w for concept, span in spans if concept in named
                      for w in span.casefold().split()}
        if any(explained(t, profile, found) >= FULL and (
                t.word in role_words or t.raw in role_words
                or (t.kinds & {"state", "role", "modifier"} and SETPOINT not in t.concepts))
               for t in found):
            return None  # "oven 1 heating rate", "temperature limit": the role in other words
        asked = " ".join(t.shown for t in found if ("quantity" in t.kinds or t.raw in QUANTITIES)
                         and not t.unit and explained(t, profile, found) >= FULL)
        if named - {c for t in found for c in t.concepts}:
            return asked or None
        if asked and self._setting_asked(a, found) and \
                another_value_unsaid(a.text, a.toks, point, self.rules.profiles):
            return asked  # 3号泵压力设定为多少 of its differential pressure setpoint, 7号风机转速设定
            # 为多少 of its acceleration in rpm/s, 8号模具温度设定为多少 of a difference (atk69)
        return None

    def _quantity_unsaid(self, a: Analysis, profile: Profile) -> bool:
        """Whether a measure is read where the words say no quantity, nor ask how much or how
        anything, and a measure of another quantity explains every word said as well: "what's
        the water in the lock reading" of the canal water temperature, where the chamber
        level is as much the water in the lock (blind batch 74): which is meant, nothing
        says."""
        if not _numeric(profile.point.kind) or not profile.quantities or \
                a.words & {"how", "much", "many"} or MEASURE_ASKED.search(a.text) or \
                any(t.unit or t.is_number for t in a.toks):  # ("%C on IQ1": its unit says)
            return False
        found = self.semantic.terms(a)
        if not found or self._setting_asked(a, found) or any(
                self.semantic.quantities(t) or t.unit or t.kinds & {"quantity", "role"}
                for t in found):
            return False
        ids, _ = self.semantic.ids(a, found)
        mine = [explained(t, profile, found) for t in found]
        for o in self.rules.profiles.all:
            if o is profile or not _numeric(o.point.kind) or o.role != profile.role or \
                    not o.quantities or o.quantities & profile.quantities or \
                    not ids <= o.ids:
                continue
            if all(explained(t, o, found) >= m for t, m in zip(found, mine, strict=True)):
                return True
        return False

    @staticmethod
    def _more_named(profile: Profile, said: set[str]) -> bool:
        """Whether the point's name says a word besides those said and its number."""
        return any(not t.is_id and t.text not in said and t.raw not in said
                   for t in content(tokens(profile.point.name), label=True))

    def _named_roles(self, profile: Profile) -> frozenset[str]:
        """The roles of `_QUALIFYING_ROLES` the point's names say ("ratio" of a "Jet-to-wire
        speed ratio"; not a "mean" its description says of how it is measured)."""
        point = profile.point
        named: set[str] = set()
        for label in (point.name, *point.aliases, *point.names.values()):
            found = concepts_of_text(label)
            named.update(m.concept.id for m in found if m.concept.id in _QUALIFYING_ROLES and not any(
                o.start <= m.start and m.end <= o.end and o.end - o.start > m.end - m.start
                for o in found))  # (not the "min" of a "min flow valve" the lexicon knows)
        return frozenset(named)

    def _anchors(self, t: Term, profile: Profile, found: list[Term]) -> bool:
        """The point explains this word, and the word says more than the broad medium it
        is in (water, air, oil) or where it is."""
        if explained(t, profile, found) < FULL:
            return False
        media = {c for c in t.concepts if c.startswith("medium.")}
        if media and t.kinds <= {"medium"} and all(broad(c) for c in media):
            return False
        return t.kinds != {"modifier"}

    def _setting_asked(self, a: Analysis, found: list[Term]) -> bool:
        """The words ask for a setting: "setpoint", "target", "SP", "set" ("what is the feeder
        set to"), "limit", or a setpoint concept."""
        return bool(self._setpoint_said(a, found)) or "set" in a.words or any(
            t.word in SETPOINT_WORDS for t in found)

    def _unnamed_zh_thing(self, a: Analysis, profile: Profile) -> str | None:
        """A machine named in Chinese that neither the point's names nor the lexicon's
        words for its things say ("1号打包机打了多少包" of an "Eddy current rotor speed" named
        涡电流分选机转子转速: its 机 is no 打包机, a baler): the model guessed it. None when
        every one is its own."""
        if not any(t.zh for t in a.toks):
            return None
        zh_names = [n for n in (*profile.point.names.values(), *profile.point.aliases)
                    if not n.isascii()]
        if not (zh_names or profile.things):
            return None  # "BAGR_CNT": a point that names no machine is judged by the rest
        has = profile.concepts | profile.things | profile.part_concepts
        for m in _ZH_MACHINE.finditer(simplified(a.text)):
            word = m.group(1).lstrip("把将请给对的")  # (把压机: "the press", blind batch 45)
            if not word or any(word in n for n in zh_names):
                continue
            found = [c for c in concepts_of_text(word) if c.concept.kind in ("thing", "medium")]
            machine = {i for c in found if c.concept.kind == "thing"
                       for i in range(c.start, c.end)}
            covered = {i for c in found for i in range(c.start, c.end)}
            if not found or (len(machine) < 2 and len(covered) < len(word)):
                # no word of the lexicon, nor of the point, or of a machine only the last
                # character (酒尾接收罐: its 罐, a tank); 罗茨风机 is a blower of some kind,
                # 给水阀 a valve of the feed water
                return word
            if any(c.concept.id in has or self.rules.profiles.lexicon.broader(
                    (c.concept.id,)) & has for c in found):
                continue
            return word
        return None

    def missing(self, a: Analysis, profile: Profile) -> str | None:
        """The words of the command that `profile`'s point does not have, as they were said:
        - a quantity it does not explain ("homogeniser temperature", and the homogeniser's
          pressure), or one another candidate explains and it does not ("how full is the
          battery": the charge, not the power);
        - a thing that names other points of this plant, when the point belongs to a thing of
          its own ("jaw crusher oil temperature", and the cone crusher's);
        - a thing or medium no point of this plant has ("brine temperature"), except the plant
          itself ("leaving the plant");
        - a number naming another of several numbered things ("inverter 4");
        - a measure asked of an on/off point ("how wet is the timber", and the fans)."""
        found = self.semantic.terms(a)
        others = [self.rules.profiles.by_id[p] for p in a.candidates[:TOP_CANDIDATES]
                  if p != profile.id and p in self.rules.profiles.by_id]
        rest = [o for o in self.rules.profiles.all if o is not profile]
        missing = []
        # a quantity the command asks for that the point has ("the cycle time of the last
        # shot"): a count or level said beside it is context, not what is asked
        # (not a quantity's word that says which thing: "fat" of "fat tank level" names the
        # tank, and the temperature of a "Fat tank" is no level: blind batch 61)
        measured = any(set(self.semantic.quantities(t)) - GENERAL
                       and explained(t, profile, found) >= FULL
                       and not _before_a_thing(t, found) for t in found)
        for t in found:
            if said_otherwise(t, profile, found):
                missing.append(t)  # "exhaust fan" of the supply fan, hot water of the chilled
                continue
            if self.semantic.lacks_quantity(a, t, profile):
                missing.append(t)  # "heat flow" of a temperature, "steam flow" of the stock's
                continue
            if self._other_thing(a, t, profile, rest):
                missing.append(t)  # 分油机 (a purifier) of the lube oil pressure, by its "oil"
                continue
            if not measured and self._guessed_by_unit(t, profile, others, found):
                missing.append(t)  # 结晶器液位 of the mould oscillation stroke in mm (a mm
                continue  # may be a level), beside the mould level (blind batch 30)
            if "thing" in t.kinds and t.shown.isascii() and \
                    not t.concepts & profile.concepts and kin_thing(t, profile):
                missing.append(t)  # "edger saw speed" of the headrig's: another saw
                continue
            if explained(t, profile, found) > NEAR:
                continue
            if t.concepts & _WHICH_VALUE and not (profile.role == "setpoint" and
                                                  t.concepts & _WHICH_VALUE <= _EXTREMES):
                missing.append(t)  # "yesterday" of today's gas volume, "2-sigma" of the
                continue  # average thickness (blind batch 42): another of a measure's values
                # (a setting's "top speed" is the setting: 最高速度设定 of the speed setpoint;
                # but "last shift target" is no setting of the line speed, review atk48)
            if t.kinds == {"modifier"} and self._other_end(t, profile, rest):
                missing.append(t)  # "baghouse outlet temp" of the baghouse's high temperature
                # trip, where its inlet temperature is told apart from an outlet's
                continue
            if not a.wants_write and self._another_word_for(t, profile, found):
                # "AdBlue tank level" of the "Detergent tank level": a word nobody names a
                # point with says which tank, and the point's name says another (batch 61)
                missing.append(t)
                continue
            if (t.literal or self._described_before_thing(t, found)) and not t.kinds and \
                    not measured and not self._qualifies_own(t, profile, found) and \
                    any(explained(t, o, found) >= FULL for o in rest):
                # "CC booth downdraft?" of the CC booth's humidity: a word the lexicon does not
                # know, which the plant names another point with and not this one, where
                # nothing the point measures is asked ("last" of the last shot's peak
                # pressure, beside the last cycle time, only says which shot)
                missing.append(t)
                continue
            if t.literal and not t.kinds and measured and self._rival(
                    t, profile, [o for o in others if o.role == profile.role], found):
                # "final rinse conductivity" of the e-coat bath's, beside a "DI rinse
                # conductivity" aliased so: what the point measures is asked, and a point of
                # its kind has that and the words it lacks (blind batch 53)
                missing.append(t)
                continue
            if t.literal and not t.kinds and (
                    alternative := self.rules.profiles.alternatives(t.word) & profile.names) \
                    and not self._alternative_said(a, found, alternative):
                # "pH in the leisure pool" of the "Main pool pH", where the plant names a
                # leisure pool's points as the main pool's (batch 57); not where the point's
                # own word is said too: "retort 1 temperature in this phase" (review atk58c)
                missing.append(t)
                continue
            if self._per_its_time(a, t, profile):
                continue
            if self._other_unit(a, t, rest, found):
                missing.append(t)  # "cSt" of an engine load in %: another point's unit
                continue
            if self._foreign_unit(a, t, profile):
                missing.append(t)  # "how many kilos" of a CO2 in ppm: no unit of it
                continue
            if t.kinds == {"modifier"} and self._rival(t, profile, others, found):
                missing.append(t)  # "outside" of a boiler's temperature, and the outdoor one
                continue
            if t.kinds == {"state"} and profile.point.kind != "bool" and any(
                    o.point.kind == "bool" and explained(t, o, found) > NEAR for o in others):
                missing.append(t)  # "burner lit or not" of the burner's output in %, beside
                continue  # the burner's on/off
            if t.concepts & _ANOTHER_VALUE:
                missing.append(t)  # "jet 2 heating ramp rate" of its pump's run signal: a
                continue  # rate, limit or ratio the point is not (blind batch 69)
            if not self.semantic.meaningful(a, t, True):
                continue
            quantities = set(self.semantic.quantities(t))
            if quantities and "thing" in t.kinds and t.word not in self.rules.profiles.plant_words:
                continue  # "the press": a machine as much as a pressure, and no point's word
            if quantities - GENERAL:
                if any(explained(t, o, found) >= FULL for o in rest):
                    missing.append(t)  # the plant has it, on another point
                elif not any(explained(t, o, found) > NEAR for o in rest):
                    missing.append(t)  # "how many kilos in the tunnel": no point measures it
            elif quantities:
                if profile.point.kind == "bool" and not a.yes_no and \
                        t.raw not in WEAK_QUANTITY and not t.concepts & SWITCHED_STATES:
                    missing.append(t)  # "hydraulic oil level?" of the oil cooler pump's
                    continue  # switch: an on/off gives no level (blind batch 45); "is the
                    # tank 2 level high" of its high alarm is what the alarm says
                if t.raw not in WEAK_QUANTITY and not measured and any(
                        quantities & (o.concepts | o.unit_quantities) for o in others):
                    missing.append(t)  # "how full": the charge, not the power
                elif t.raw not in GENERAL_WORDS and t.raw not in WEAK_QUANTITY and \
                        not measured and \
                        not quantities & (profile.concepts | profile.unit_quantities) and \
                        any(quantities & (o.concepts | o.unit_quantities)
                            and explained(t, o, found) >= FULL for o in rest):
                    missing.append(t)  # "how full is tank two" of its oxygen, where tank 1
                    # has a level and tank 2 none ("oxygen level": a level of anything)
            elif "thing" in t.kinds and not t.concepts & WHOLE_PLANT:
                if (profile.things or not self._plant_place(t, profile, found)) and any(
                        explained(t, o, found) >= FULL for o in rest):
                    # "jaw crusher": another thing than the cone crusher; "boiler 3" of the
                    # outdoor temperature, a point of no thing (a room or area several points
                    # are in is still where it is: "particles in the room")
                    missing.append(t)
            elif "medium" in t.kinds and self._other_medium(t, rest, found):
                missing.append(t)  # "brine": the plant has none; "sludge" of the influent
            elif "medium" in t.kinds and self._another_medium(t, profile):
                missing.append(t)  # "water tank 2 level" of oil tank 2
        for t in found if not a.wants_write else ():
            k = t.index + 1
            if t not in missing and k < len(a.toks) and a.toks[k].is_number and \
                    not a.toks[t.index].zh and not unit_after(a.toks, k) and \
                    a.toks[k].text not in profile.ids and explained(t, profile, found) <= NEAR:
                missing.append(t)  # "grip force on cabin 12": a thing numbered so, which
                # the point (the haul rope's tension) is not
        for t in found if not a.wants_write else ():
            k = t.index - 1
            if t not in missing and k >= 0 and a.toks[k].is_id and \
                    a.toks[k].text not in profile.ids and \
                    (t.word, a.toks[k].text) in self.rules.profiles.pairs:
                missing.append(t)  # "#3 retort pressure": retort 3's, which a retorts' steam
                # header is not
        if missing:
            return " ".join(t.shown for t in missing)
        said = self._setpoint_said(a, found) or (
            "set" if a.question and not a.wants_write and set_asked(a.toks) else None) or (
            self._setpoint_said(replace(a, wants_write=False), found)
            if a.wants_write and not profile.point.writable else None)  # "set oven zone 1
        # setpoint to 95" of a plant whose zone 1 has only a reading (blind batch 32)
        if said and profile.role != "setpoint" and (
                any(o.role == "setpoint" for o in self.rules.profiles.all)
                if not profile.point.writable else
                any(o.role == "setpoint" and all(explained(t, o, found) >= FULL for t in found
                                                 if t.word not in SETPOINT_WORDS
                                                 and SETPOINT not in t.concepts)
                    for o in others)):
            # "what is the boiler 3 setpoint", "what's the kiln rpm set to": not the boiler's
            # temperature, nor the kiln's speed; nor "the zone 4 spray water setpoint" the
            # zone's flow, where zones 2 and 3 have setpoints and zone 4 none (blind batch 30).
            # A writable point is its own setting ("what's the exhaust fan set to", "OA damper
            # setting": its command, whatever setpoints the plant has: review atk41), unless a
            # setpoint beside it is all the command says ("pump 1 speed setpoint")
            return said
        if not said and profile.role == "setpoint" and not self._setting_asked(a, found) and \
                others and a.candidates[0] == others[0].id and others[0].role != "setpoint":
            # "air speed in the basecoat booth", and the model read the bell speed setpoint:
            # no setting is asked, a measurement ranks first, and the setpoint leaves a word
            unexplained = [t.shown for t in found if explained(t, profile, found) <= NEAR
                           and self.semantic.meaningful(a, t, True)]
            if unexplained:
                return " ".join(unexplained)
        ids, pairs = self.semantic.ids(a, found)
        if ids and profile.ids and not ids & profile.ids:
            return " ".join(sorted(ids))
        # "inverter 4", "AHU 2" of a point whose thing has no number, or another one
        numbered = profile.ids | set(re.findall(r"\d+", profile.point.device))
        other = [f"{word} {number}" for word, number in sorted(pairs)
                 if self.semantic.names(word, profile, found) and number not in numbered
                 and (numbered or number != "1")]
        if other:
            return " ".join(other)
        # "the bottom of tank 1" of a point of no number, in a plant that has a tank 1; "5号冷库"
        # (an ordinal always numbers a thing) of a point that is no 5: another thing
        other = [f"{word} {number}" for word, number in sorted(pairs)
                 if number not in numbered and (word, number) in self.rules.numbered]
        other += [t.shown for t in a.toks if t.ordinal and t.text not in numbered
                  and (numbered or t.text != "1")]
        if other:
            return " ".join(other)
        if profile.point.kind == "bool":
            return self._measure_asked(a, profile, found) or _how_much(a)
        return None

    def _measure_asked(self, a: Analysis, profile: Profile, found: list[Term]) -> str | None:
        """ "CO2 level in the tank hall": a measure named, which an alarm or a switch of the
        same thing (on or off) does not give; asked yes or no, it may ("is the tank 2 level
        high", "methane level ok?", of its high-level switch and gas alarm). Not a word that
        is a thing as well: a "press" is a machine as often."""
        if a.yes_no or (a.question and a.toks and a.toks[0].raw not in WH_START):
            return None
        measures = [t.shown for t in found if ((self.semantic.quantities(t) and explained(
            t, profile, found) < FULL) or (t.word in AMOUNT_WORDS and t.word not in
                                           profile.words)) and "thing" not in t.kinds]
        return " ".join(measures) or None

    def _described_before_thing(self, t: Term, found: list[Term]) -> bool:
        """A word only descriptions say, said before a thing ("pomace" of "the pomace
        hopper", where the "Humedad alperujo" is described as "Pomace moisture"): it says
        which thing, as a name's word would (blind batch 44)."""
        after = next((o for o in found if o.index == t.index + 1), None)
        return t.shown.isascii() and t.word in self.rules.profiles.plant_words and \
            after is not None and "thing" in after.kinds

    def _another_word_for(self, t: Term, profile: Profile, found: list[Term]) -> bool:
        """Whether a word of no meaning that no point is named with stands before a thing's
        word the point has, where the point's name says another word before it: "AdBlue tank"
        of a "Detergent tank level". Not a word written for the name's own ("axlebox" of "Axle
        box clamps", "rad" of "Dump radiator fans")."""
        if t.kinds or t.literal or t.corrected or t.unit or not t.shown.isascii() or \
                not t.shown.isalpha() or not _before_a_thing(t, found):
            return False
        after = next(o for o in found if o.index == t.index + 1)
        if explained(after, profile, found) <= NEAR or \
                self._qualifies_own(t, profile, found, description=False):
            return False
        word = t.word.casefold()
        key = [k for k in profile.key if not k.isdigit()]
        return len(word) > 2 and not any(
            _written_for(word, k) or "".join(key[i:j]) == word
            for i, k in enumerate(key) for j in range(i + 2, len(key) + 1))

    @staticmethod
    def _qualifies_own(t: Term, profile: Profile, found: list[Term], *,
                       description: bool = True) -> bool:
        """The word stands before a word the point is named with: "hilltop" of "the hilltop
        reservoir outlet valve" says which reservoir, and the valve is the reservoir's."""
        after = next((o for o in found if o.index == t.index + 1), None)
        if after is None or explained(after, profile, found) <= NEAR:
            return False
        # ...unless the point's name says another word there: "CC booth" of "BC Booth
        # Downdraft" is the other booth
        # (or its description, where the name is in another language: "pomace hopper" of
        # "Nivel tolva recepción", "Level of olives in the reception hopper", blind batch 44)
        # (a description's prose, only before a machine: "the shot sleeve after each shot"
        # says no other shot than "the last shot")
        # (a name's word in another language is its thing by meaning: "tolva" of a hopper)
        said = {o.word for o in found}
        described = tuple(t.text for t in content(tokens(profile.point.description or ""))) \
            if "thing" in after.kinds and description else ()

        def is_after(word: str) -> bool:
            return word == after.word or ("thing" in after.kinds and bool(
                {m.concept.id for m in concepts_of_text(word) if m.concept.kind == "thing"}
                & after.concepts))

        return not any(is_after(key[j]) and key[j - 1] not in said and
                       not key[j - 1].isdigit() and key[j - 1] not in _QUANTIFIERS
                       for key in (profile.key, described) for j in range(1, len(key)))

    def _alternative_said(self, a: Analysis, found: list[Term], words: frozenset[str]) -> bool:
        """Whether the command says one of these words of the point, or what one means
        ("humidity" of a "Room 1 RH")."""
        meant = {s.concept for w in words for s in self.rules.profiles.lexicon.concepts(w)}
        return bool(words & {x.text for x in a.toks}) or any(
            x.word in words or x.concepts & meant for x in found)

    @staticmethod
    def _other_end(t: Term, profile: Profile, rest: list[Profile]) -> bool:
        """The word names one end or side of a thing ("outlet", "middle"), and this point or
        another of its thing is named by another end ("inlet"; "top" or "bottom")."""
        if (t.concepts | {e for c in t.concepts for e in SAME_ENDS.get(c, ())}) & \
                profile.concepts:
            return False  # "centre" of a "Buffer vessel middle temperature": its own end
        ends = {e for c in t.concepts for e in OTHER_ENDS.get(c, ())}
        return bool(ends) and (bool(ends & profile.concepts) or any(
            ends & o.concepts and o.things & profile.things for o in rest))

    @staticmethod
    def _rival(t: Term, profile: Profile, others: list[Profile], found: list[Term]) -> bool:
        """Another candidate that explains this word and all that `profile` explains ("is it
        warm outside": the outdoor temperature, not a boiler's); a word another point merely
        shares ("how much flour is left", and the "door left open" alarm) is no rival."""
        kept = [u for u in found if u is not t and explained(u, profile, found) >= FULL]
        return any(explained(t, o, found) >= FULL
                   and all(explained(u, o, found) >= FULL for u in kept) for o in others)

    def _numbered_unnumbered(self, a: Analysis, profile: Profile) -> str:
        """The things asked of with a number ("malaxer 4 temp") that a point of no number
        still explains, by its description ("Hot water from the boiler to the malaxer
        jackets") or a word like it ("malaxing time" of "malaxer 2"), where the plant numbers
        that thing on other points ("Paste temperature in malaxer 1"): the thing asked is a
        numbered one, which the point is not (blind batch 44). Of reads only: a write's
        number may be its value ("winding tension 120 N")."""
        if profile.ids:
            return ""
        toks = a.toks
        found = self.semantic.terms(a)
        return " ".join(
            f"{t.shown} {toks[t.index + 1].raw}" for t in found
            if t.index + 1 < len(toks) and not toks[t.index].zh and toks[t.index + 1].is_number
            and not unit_after(toks, t.index + 1) and explained(t, profile, found) > NEAR
            and any(o.ids and explained(t, o, found) >= FULL and _numbers(t.raw, o.point)
                    for o in self.rules.profiles.all))

    def _number_of_another(self, a: Analysis, profile: Profile) -> str:
        """ "how much syrup is in 502" of the "Syrup to storage" flow, where "TK-502 level" is
        a point of this plant: a whole number said (no value in a question, nor a time: "at
        3", "@ 3", "3 o'clock", 3点), in figures, that numbers other points names one of them,
        which a point of no number is not (blind batch 65; after a word of a thing too: "how's
        pump 2 doing"; not a formula's: "O2", 乙二醇; nor a count: "the 24 wells combined")."""
        if profile.ids:
            return ""
        own = set(re.findall(r"\d+", profile.point.device))
        toks = a.toks
        for i, tok in enumerate(toks):
            if isinstance(tok.number, int) and not tok.groups and tok.text not in own and \
                    tok.raw.isascii() and tok.raw.isdigit() and \
                    _a_number_alone(a.text, tok.raw) and not unit_after(toks, i) and \
                    not (i and toks[i - 1].raw in _BEFORE_A_TIME_OR_BOUND) and any(
                        tok.text in o.ids for o in self.rules.profiles.all if o is not profile):
                return tok.shown
        return ""

    def _numbered_before_unit(self, a: Analysis, found: list[Term], profile: Profile,
                              rest: list[Profile]) -> str | None:
        """ "genset 2 kW" asked of generator 1: a whole number between a thing and a unit is a
        value in a write, but in a question it may number the thing, and it does when another
        point of that thing has that number."""
        words = {t.index: t for t in found}
        numbered = profile.ids | set(re.findall(r"\d+", profile.point.device))
        for i, tok in enumerate(a.toks):
            thing = words.get(i - 1)
            if thing is None or "thing" not in thing.kinds or not tok.is_number \
                    or not isinstance(tok.number, int) or not unit_after(a.toks, i):
                continue
            if tok.text not in numbered and any(
                    tok.text in o.ids and self.semantic.names(thing.word, o, found)
                    for o in rest):
                return f"{thing.shown} {tok.text}"
        return None

    def _other_thing(self, a: Analysis, t: Term, profile: Profile, rest: list[Profile]
                     ) -> bool:
        """A word of a thing that names another point, of which this point is no kind: a
        Chinese word's characters' English words may match this point's name (油 of 分油机, a
        purifier, is the "oil" of "Lube oil pressure"), its meaning does not; a "transfer
        pump" is a pump, but of the plant's pumps the transfer pump is meant, not the disposal
        pump."""
        things = {c for c in t.concepts if c.startswith("thing.")}
        tok = a.toks[t.index]
        if not things or t.kinds != {"thing"} or (tok.zh and lone_character(t, tok)):
            return False  # (池 alone is a pool, a tank or a basin)
        if not tok.zh and (explain(t, profile) <= NEAR or explain(t, profile, exact=True) > 0):
            return False  # an English thing the point does not claim, or claims by its own
            # words (its device "booth"): the checks below
        lexicon = self.rules.profiles.lexicon
        has = profile.concepts | profile.part_concepts
        if things & (has | lexicon.broader(tuple(has))):
            return False
        return any(things & self._named_thing(o) for o in rest)

    def _named_thing(self, profile: Profile) -> frozenset[str]:
        """The things a point's names say themselves: a description's words tell which point
        it is, not that it is a thing's own point ("the mould copper plates" of the mould's
        cooling water flow make it no more the caster mould's than the "Mould level" is); nor
        is the mould oscillation, a part of the caster mould, the mould itself."""
        found = self._named_things.get(profile.id)
        if found is None:
            point = profile.point
            found = frozenset(m.concept.id for label in (point.name, *point.aliases,
                                                         *point.names.values())
                              for m in concepts_of_text(label) if m.kind in ("thing", "medium"))
            self._named_things[profile.id] = found
        return found

    def _other_unit(self, a: Analysis, t: Term, rest: list[Profile], found: list[Term]
                    ) -> bool:
        """A unit said alone, not of a value ("cSt at the engine inlet", not "to 80 %"),
        that is another point's unit: the unit names that point ("NTU after filtration")."""
        if not (t.unit or "unit" in t.kinds) or \
                (t.index and a.toks[t.index - 1].is_number):
            return False
        return any(explain(t, o, exact=True) >= FULL for o in rest)

    @staticmethod
    def _per_its_time(a: Analysis, t: Term, profile: Profile) -> bool:
        """The unit is the time the point's rate is per, said after "per" ("0.8 deg C per
        minute" of a ramp in °C/min: blind batch 69)."""
        unit = profile.point.unit or ""
        return "/" in unit and t.index > 0 and \
            a.toks[t.index - 1].raw in ("per", "a", "an", "every", "每") and \
            bool(t.concepts & unit_ids(unit.rsplit("/", 1)[1]))

    def _foreign_unit(self, a: Analysis, t: Term, profile: Profile) -> bool:
        """A unit said alone, not of a value, that measures nothing the point does: "how many
        kilos did we pick" of a CO2 in ppm. (A unit of the same quantity, "°F" of a point in
        °C, "psi" of one in bar, is only another way to ask.)"""
        if not (t.unit or "unit" in t.kinds) or not profile.point.unit or \
                (t.index and a.toks[t.index - 1].is_number):
            return False
        if t.concepts & unit_ids(profile.point.unit):
            return False
        lexicon = self.rules.profiles.lexicon
        measures, _ = lexicon.unit(t.unit or t.raw)
        said = set(measures) - GENERAL
        if not said or len(measures) > 3:
            return False  # "%", "ppm": a share of whatever is asked about
        has = profile.quantities | profile.unit_quantities | profile.concepts
        return not said & has and not lexicon.broader(tuple(said)) & has and \
            not said & lexicon.broader(tuple(has))

    def _amount_of_a_switch(self, a: Analysis, profile: Profile) -> str:
        """An amount asked of a quantity ("反渗透进水压力多少", "how much pressure"), which an
        on/off point cannot give, whatever its name says of the quantity ("RO high-pressure
        pump – run"): the quantity's words, or "" where none is asked so."""
        if profile.point.kind != "bool" or a.yes_no or not MEASURE_ASKED.search(a.text):
            return ""
        amount = AMOUNT_ASKED.search(a.text)  # ("how much is in the mixer": no quantity word)
        return " ".join(t.shown for t in self.semantic.terms(a)
                        if "quantity" in t.kinds and t.raw not in WEAK_QUANTITY
                        and not t.concepts & SWITCHED_STATES) or (amount.group(0) if amount
                                                                   else "")

    @staticmethod
    def _setpoint_said(a: Analysis, found: list[Term]) -> str | None:
        """The word of a question that asks for a setting ("setpoint", "target", "SP"), not a
        measurement; none in a write (its value goes to a setting whatever it is called)."""
        if a.wants_write:
            return None
        return next((t.shown for t in found if t.word in SETPOINT_ASKED
                     or SETPOINT in t.concepts), None)

    def _other_medium(self, t: Term, rest: list[Profile], found: list[Term]) -> bool:
        """A medium the point does not explain that the plant has none of ("brine"), or that
        names other points ("how many m3/h of sludge" of the influent flow, when the sludge
        valves and pumps are points). A broad medium (water, air, oil: several others are
        kinds of it) is context ("pH of the recirculation water", "how salty is the water")."""
        media = {c for c in t.concepts if c.startswith("medium.")}
        if media and all(broad(c) for c in media):
            return False  # "the water in the sump", "the air": what most things hold
        if not any(explained(t, o, found) > NEAR for o in rest):
            return True
        return any(explained(t, o, found) >= FULL for o in rest)

    def _value_said(self, a: Analysis) -> bool:
        """A number with a unit after it ("14 inches", "45 psi"), not after a word that numbers
        things ("genset 2 kW": generator 2's power): a value, not a name."""
        toks = a.toks
        lexicon = self.rules.profiles.lexicon

        def numbers_a_thing(i: int) -> bool:
            return i >= 0 and (toks[i].text in self.rules.id_words or any(
                s.kind == "thing" for s in lexicon.concepts(toks[i].raw)))

        return any(("unit" in t.kinds or t.unit) and t.index and toks[t.index - 1].is_number
                   and not numbers_a_thing(t.index - 2) for t in self.semantic.terms(a))

    def _another_medium(self, t: Term, profile: Profile) -> bool:
        """The point holds a medium of its own, and the one said is neither it nor a kind of
        it, nor it one of the said ("water" of an oil tank's level; "water" of a hot water
        temperature is still its own)."""
        said = {c for c in t.concepts if c.startswith("medium.")}
        held = {c for c in profile.things if c.startswith("medium.")}
        if not said or not held:
            return False
        lexicon = self.rules.profiles.lexicon
        return not (said & lexicon.broader(tuple(held)) or held & lexicon.broader(tuple(said)))

    def _guessed_by_unit(self, t: Term, profile: Profile, others: list[Profile],
                         found: list[Term]) -> bool:
        """A quantity the point explains only by a guess from its unit, where a candidate
        beside it names that quantity in its own words (the caller asks that the point
        explain no other quantity said: "how many seconds" of a cycle time is its own)."""
        said = set(self.semantic.quantities(t))
        if not said or t.kinds != {"quantity"} or t.raw in WEAK_QUANTITY or \
                said & profile.named_quantities or t.unit or \
                explained(t, profile, found) >= FULL:  # (not "the press", a machine too)
            return False
        # (not the measured value of the setpoint asked: "hood draft target" of the "Kiln
        # hood pressure setpoint", beside the "Kiln hood pressure" aliased "hood draft")
        setting = profile.role == "setpoint" and any(SETPOINT in f.concepts for f in found)
        return any(said & o.named_quantities and explained(t, o, found) >= FULL
                   and not (setting and o.role != "setpoint" and o.things & profile.things)
                   for o in others)

    async def _decide(self, ctx: RequestContext, text: str, a: Analysis) -> Routed:
        offered = self.offer(a)
        timings: dict[str, float] = {}
        if self.options.strategy == "score":
            line = await self._score(ctx, text, offered, timings)
        elif self.options.strategy == "naive":
            line = await self._naive(ctx, text, timings)
        else:
            # the likeliest first (the worker guesses it): a write, when the words offer one
            likely = sorted(offered, key=lambda c: c.name != "write")
            line = await self._generate(ctx, text, gbnf(offered), timings,
                                        choices=[c.line for c in likely])
        candidates = tuple(a.candidates[:TOP_CANDIDATES])
        if line is None:
            self.counters.failures += 1
            return Routed(respond("not_understood", llm="no valid action"), "llm", timings,
                          candidates)
        action = self.parse(line, offered if self.options.strategy != "naive" else None)
        if action is None:
            self.counters.failures += 1
            return Routed(respond("not_understood", llm="no valid action"), "llm", timings,
                          candidates)
        checked = self.check(a, action)
        # (a read "not allowed" by the model, which knows no role: "co down the south end?",
        # blind batch 72 — what is allowed is the policy's, after routing)
        if action.name == "respond" and (action.args.get("reason") in NONE_OF_THESE or (
                action.args.get("reason") == "not_allowed" and not a.wants_write)):
            meant = self._the_one_meant(a, offered)
            if meant is not None:
                self.counters.extra["one_meant"] = self.counters.extra.get("one_meant", 0) + 1
                return Routed(self.rules.status_for(a, meant), "llm", timings, candidates)
        if action.name == "read" and checked.name == "respond":
            other = self._the_one_left(a, action)
            if other is not None:
                checked = Action("read", {"point": other})
            elif self.options.second_choice and self.options.strategy == "grammar":
                again = await self._second_choice(ctx, text, a, offered, action, timings)
                if again is not None:
                    checked = again
        # "is the no.1 trough fan running" of the switch, where its running status is there
        checked = self.rules.status_for(a, checked)
        return Routed(checked, "llm", timings, candidates)

    async def _second_choice(self, ctx: RequestContext, text: str, a: Analysis,
                             offered: list[Choice], refused: Action,
                             timings: dict[str, float]) -> Action | None:
        """The model's read the check refused, asked once more without it: the model picked
        among points one of which is meant, and the wrong one. Its second read stands only if
        the check lets it through and it explains all the command names and every role it
        says, as the one left must (`_the_one_left`); the model may now say none of these (a
        refusal is always offered), and whatever it says apart from such a read, or if the
        worker fails or the time is short, the first refusal stands."""
        point = refused.args.get("point")
        rest = [c for c in offered if c.name == "read" and c.args.get("point") != point]
        if not rest or ctx.remaining() < SECOND_CHOICE_TIME:
            return None
        rest += choices([], [], SOME_REASONS)
        self.counters.extra["second_choice"] = self.counters.extra.get("second_choice", 0) + 1
        try:
            line = await self._generate(ctx, text, gbnf(rest), timings,
                                        choices=[c.line for c in rest], again=True)
        except HermesError as exc:  # the answer the command has stands (`_call` has
            log.info("second choice not made: %s", exc)  # dealt with the worker)
            return None
        action = self.parse(line, rest) if line is not None else None
        if action is None or action.name != "read" or \
                self.check(a, action).name != "read" or \
                not self._surely_one_of(a, action.args["point"], known=False) or \
                not self._says_its_roles(a, action.args["point"]):
            return None  # the same guards as the one left's: a "gradient" is no pressure
        return action

    def _the_one_left(self, a: Analysis, refused: Action) -> str | None:
        """When the check refuses the model's read: the one other candidate that the check
        lets through and that explains all the command names (`_surely_one_of`; a word nobody
        knows only when said apart from those, after a break) and every role or state it says
        (a "gradient", a "deviation", an "error": the one left is no ramp rate, deviation or
        fault of the point's quantity), if there is exactly one; the model picked among
        points one of which is meant, and the wrong one. With two or none, the refusal stands.
        (On our plants' handed-on commands, before those two conditions: 21 right reads, no
        refusal and no wrong point made.)"""
        if a.plural or a.wants_write:
            return None
        left = [p for p in a.candidates[:TOP_CANDIDATES]
                if p != refused.args.get("point")
                and self.check(a, Action("read", {"point": p})).name == "read"]
        if len(left) != 1 or not self._surely_one_of(a, left[0], known=False):
            return None
        return left[0] if self._says_its_roles(a, left[0]) else None

    def _the_one_meant(self, a: Analysis, offered: list[Choice]) -> Action | None:
        """When the model says none of these: the one candidate that explains all the command
        names (`_surely_one_of`, as the one left after a refused read must), if no other
        candidate does, and it is an action offered that the check lets through, that says
        every role the command says, and that leaves no word unexplained that names another
        point of the plant ("the clearcoat booth RH humidity" is no basecoat booth's, whatever
        else it explains): a read only. The 0.5B model often declines a paraphrase whose point
        the words name alone ("how much sun are we getting, W/m2"); with two such candidates,
        or none, its refusal stands."""
        if a.plural or a.wants_write or self.rules.terse_write(a, None):
            return None  # (a write only as the model chose it: "set the oven to 250 F" of a
            # setpoint in °C, review atk45)
        actions = [self._action(c) for c in offered if c.name == "read"]
        sure = [x for x in actions if self._surely_one_of(a, x.args["point"], known=False)]
        if len(sure) != 1:
            return None
        action = sure[0]
        point = action.args["point"]
        if self.check(a, action).name != action.name or not self._says_its_roles(a, point):
            return None
        found = self.semantic.terms(a)
        profile = self.rules.profiles.by_id[point]
        if any(explained(t, profile, found) <= NEAR and any(
                explained(t, o, found) >= FULL for o in self.rules.profiles.all
                if o is not profile) for t in found):
            return None
        return action

    def _says_its_roles(self, a: Analysis, point: str) -> bool:
        """Whether `point` is every role and state the command says (a "gradient", a
        "deviation", an "offset" is no read of the pressure itself)."""
        found = self.semantic.terms(a)
        profile = self.rules.profiles.by_id[point]
        return all(explained(t, profile, found) >= FULL for t in found
                   if t.kinds & {"role", "state"})

    def parse(self, line: str, offered: list[Choice] | None) -> Action | None:
        """The action of one output line, if it is one we offered (or, naive, any valid one)."""
        line = " ".join(line.split())
        if offered is not None:
            for choice in offered:
                if choice.line == line:
                    return self._action(choice)
            return None
        verb, _, rest = line.partition(" ")
        words = rest.split()
        if verb == "respond" and len(words) == 1 and words[0] in REASONS:
            return respond(words[0])  # type: ignore[arg-type]
        if verb == "read" and len(words) == 1 and words[0] in self.points:
            return Action("read", {"point": words[0]})
        if verb == "write" and len(words) == 2 and words[0] in self.points:
            raw = words[1].lower()
            value: Any = {"on": True, "off": False}.get(raw)
            if value is None:
                try:
                    number = float(raw)
                except ValueError:
                    return None
                value = int(number) if number == int(number) else number
            return Action("write", {"point": words[0], "value": value})
        return None

    @staticmethod
    def _action(choice: Choice) -> Action:
        if choice.name == "respond":
            return respond(choice.args["reason"])
        return Action(choice.name, dict(choice.args))

    # -- strategies ----------------------------------------------------------------------------

    def _budget(self, ctx: RequestContext) -> float:
        return max(0.05, min(self.config.llm.timeout, ctx.remaining()))

    async def _call(self, action: str, args: dict[str, Any], budget: float) -> Any:
        try:
            return await self.worker.call(action, {**args, "deadline_ms": int(budget * 1000)},
                                          budget + 0.25)
        except (Timeout, ToolError) as exc:
            if isinstance(exc, ToolError) and exc.code == ErrorCode.BUSY:
                self.counters.busy += 1
                raise Busy(exc.message) from None
            if isinstance(exc, Timeout) or exc.code == ErrorCode.TIMEOUT:
                self.counters.timeouts += 1
                self.counters.kills += 1
                self.worker.kill(f"a generation overran its {budget:.1f} s deadline")
                raise Timeout(f"the language model did not answer within {budget:.1f} s; it "
                              "was stopped and is restarting") from None
            raise

    async def _generate(self, ctx: RequestContext, text: str, grammar: str | None,
                        timings: dict[str, float], suffix: list[dict[str, Any]] | None = None,
                        choices: list[str] | None = None, again: bool = False) -> str | None:
        args: dict[str, Any] = {
            "suffix": suffix or self.prompt.suffix(text), "grammar": grammar,
            "max_tokens": self.options.max_tokens, "reuse_prefix": self.options.reuse_prefix}
        if again and self.options.reuse_prefix:
            args["reuse_suffix"] = True  # the same command, just asked: its tokens are there
        if choices and self.options.early_stop:
            args["choices"] = choices
        result = await self._call("complete", args, self._budget(ctx))
        _add_timings(timings, result)
        if result["finish_reason"] != "stop":
            log.info("model output cut off (%s): %r", result["finish_reason"], result["text"])
            return None
        return str(result["text"]).strip()

    async def _score(self, ctx: RequestContext, text: str, offered: list[Choice],
                     timings: dict[str, float]) -> str | None:
        result = await self._call("score", {
            "suffix": self.prompt.suffix(text), "options": [c.line for c in offered],
            "reuse_prefix": self.options.reuse_prefix}, self._budget(ctx))
        _add_timings(timings, result)
        scores = [float("-inf") if s is None else s for s in result["scores"]]
        best = max(range(len(offered)), key=lambda i: scores[i])
        return offered[best].line

    async def _naive(self, ctx: RequestContext, text: str, timings: dict[str, float]
                     ) -> str | None:
        """The baseline the issue measured: free generation, parsed, re-prompted once."""
        line = await self._generate(ctx, text, None, timings)
        if line is not None and self.parse(line, None) is not None:
            return line
        retry = [*self.prompt.suffix(text), {"text": line or ""},
                 {"text": END + USER, "markup": True},
                 {"text": "That is not a valid action. Answer with exactly one line: read <point "
                          "id>, write <point id> <value>, or respond <reason>."},
                 {"text": END + ASSISTANT, "markup": True}]
        return await self._generate(ctx, text, None, timings, suffix=retry)


def _written_for(word: str, name: str) -> bool:
    """Whether a word may be a name's word written short or with a slip: its beginning ("rad"
    of "radiator"), or one letter off it ("towr" of "tower", review atk60; not any letters in
    its order: "stay" is no "standby", "cation" no "circulation", review atk60b)."""
    if name.startswith(word):
        return True
    if len(word) < 4 or abs(len(word) - len(name)) > 1:
        return False
    if len(word) == len(name):
        return sum(a != b for a, b in zip(word, name, strict=True)) <= 1
    short, long = sorted((word, name), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _before_a_thing(t: Term, found: list[Term]) -> bool:
    """Whether the word stands right before a thing's word, as a word saying which ("fat" of
    "the fat tank", "adblue" of "adblue tank")."""
    after = next((o for o in found if o.index == t.index + 1), None)
    return after is not None and "thing" in after.kinds and \
        not any(c.startswith("quantity.") for c in after.concepts)


def _numbers(word: str, point: Point) -> bool:
    """Whether the point's names or description write `word` with a number after it
    ("Paste temperature in malaxer 1"; not a device's "ahu1" of an "AHU 1 supply fan speed")."""
    for text in (point.name, *point.aliases, point.description or ""):
        toks = tokens(text)
        if any(t.raw == word and n.is_number for t, n in itertools.pairwise(toks)):
            return True
    return False


def _without_choice(a: Analysis, point: Point, choice: str) -> Analysis:
    """The command without the words that say the choice written ("silo 1" of "divert to silo
    1" names the choice `silo_1`, no silo of the plant's)."""
    for name, spelled in spellings(point):
        at = said_at(tuple(t.text for t in tokens(spelled)), a.toks, set()) \
            if name == choice else set()
        if at:
            kept = [t for i, t in enumerate(a.toks) if i not in at]
            return replace(a, toks=kept, words=frozenset(t.raw for t in kept),
                           named=frozenset())
    return a


def _clause(a: Analysis, index: int) -> int:
    """Which stretch of the command between breaks (a comma, a semicolon) a word is in."""
    return sum(1 for t in a.toks[1:index + 1] if t.after_break)


def _add_timings(timings: dict[str, float], result: dict[str, Any]) -> None:
    timings["llm_eval"] = timings.get("llm_eval", 0.0) + float(result["eval_ms"])
    timings["llm_generate"] = timings.get("llm_generate", 0.0) + float(result["generate_ms"])



def _unit_counted(a: Analysis) -> bool:
    """Whether "how many" counts a unit ("how many bar", "how many metres a minute") or things
    per a time ("how many birds a minute"), which says the measure asked, not things (review
    atk51)."""
    toks = a.toks
    for i, t in enumerate(toks[:-2]):
        if t.raw == "how" and toks[i + 1].raw == "many":
            after = toks[i + 2]
            # ("how many birds a minute": things per a time, a rate)
            per = [x.raw for x in toks[i + 3:i + 5]]
            return bool(after.unit) or after.raw in UNIT_WORDS or any(
                m.concept.kind == "unit" for m in concepts_of_text(after.raw)) or (
                len(per) == 2 and per[0] in ("a", "an", "per") and per[1] in RATE_TIMES)
    return False


def _how_much(a: Analysis) -> str | None:
    """ "how wet", "how much", "how fast": the words of a question that asks for a measure, which
    an on/off point does not give ("how is the pump" asks for its state)."""
    toks = a.toks
    for i, t in enumerate(toks[:-1]):
        if t.raw == "how" and not t.zh and toks[i + 1].raw not in YES_NO_START:
            return f"{t.shown} {toks[i + 1].shown}"
    return None
