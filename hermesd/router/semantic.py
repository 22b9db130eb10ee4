"""The semantic stage of routing: points ranked by what a command means, and what is sure.

Between the rules (which place a command only when one point's own words explain every word of
it) and the model, this stage reads each word of a command for its meaning: its concepts (across
synonyms and languages, `meaning`), a slip of a plant word ("turbidty"), another form of one
("filtration", "filtered"), a unit that names a quantity ("NTU", "rpm", "kW"), a word of a
point's description. For every point it asks how much of the command the point explains and how
much of the point's name the command says (`Profile`), and decides without the model what
follows for sure:

- the command is about several points ("all", "both", "every", 所有, plural things that name
  several): a read of all of them (`args.points`); a write is refused, naming the points meant,
  because writes are one point per command;
- it names a quantity the plant does not have for the thing it names ("the temperature of the
  reservoir" where the reservoir has only a level, "the chlorine dosing pump speed" where no such
  pump exists): `respond unknown_point`;
- one point explains every word, and no other comes close: that point, read or written.

Everything else goes to the model with a short list of candidates, best first (and the model
may say none of them fits). Pure: it reads profiles and tokens, never a device.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from hermesd.answer import Action, respond
from hermesd.replies import is_chinese
from hermesd.router.concepts import concepts_of_text, simplified
from hermesd.router.coverage import (
    ALL,
    CONCEPT,
    FEW_QUANTITIES,
    GENERAL,
    GENERAL_WORDS,
    NEAR,
    REMAINS_WORD,
    UNIT_QUANTITY,
    Term,
    explain,
    explained,
    kin_thing,
    lone_character,
    per_its_time,
    said_otherwise,
    terms,
)
from hermesd.router.meaning import Lexicon, Sense
from hermesd.router.normalize import Token, canonical, content, tokens
from hermesd.router.poles import choice_words, opposed, said_poles
from hermesd.router.profiles import SETPOINT, SETPOINT_WORDS, Profile, stems_match
from hermesd.router.rules import (
    MEASURE_ASKED,
    SETPOINT_SAID,
    Analysis,
    Placement,
    RuleRouter,
    asks_degree,
    counted,
    point_sense,
    said_as,
    set_asked,
    unit_after,
    unpaired,
)
from hermesd.router.vocabulary import (
    PLURAL_MARKS,
    STOP_WORDS,
    SUMMARY_WORDS,
    VALUE_BEFORE,
    WEAK_QUANTITY,
)
from hermesd.value_maps import spellings

TOP = 5  # candidates offered to the model
#: the words of a switch's name that say it runs its thing ("Centrifuge run", "Fan 2 motor")
_RUN_NAMES = frozenset("run running start motor drive command cmd enable on".split())
#: kinds of words that name no thing: what is measured or set, its role, a state, an action
_NOT_THINGS = frozenset(("quantity", "role", "state", "action"))
_DIGITS = re.compile(r"\d+")
MAX_READ = 32  # points of one read of several (the engine's limit too)
#: what begins the words that say where, which both sides of an "and" share ("... in house 1")
_WHERE = frozenset(("in", "on", "of", "at", "for", "from"))
#: words that join two things asked together: "temperature and pressure", "actual vs setpoint"
_JOINS = frozenset(("and", "vs", "versus"))
#: what stands between "all"/"every" and the word it is said of ("all of the three zones")
_BEFORE_NOUN = frozenset(("the", "of", "our", "my", "your", "these", "those", "its", "their"))
#: words after "all"/"every" that name nothing ("all right", "is everything ok")
_NOT_NOUNS = frozenset(("right", "ok", "okay", "good", "fine", "well", "set", "on", "off",
                        "running", "in", "is", "are", "please", "now", "at", "to"))
SURE_MARGIN = 0.12  # a sure point is this far ahead of the next that explains the command
SURE_STRENGTH = 0.6  # ...and explains each word at least this well
#: a count said right before a unit is the question's "how many", not a count asked for
COUNTS = frozenset(("quantity.count",))
FULL = 0.6  # a point explains a command when it explains each word at least this well (a
# guess by a unit of many quantities, or by a broader quantity, is no explanation)
#: quantities too general to refuse on: a level or volume ("ammonia level", "how full is the
#: battery", "how much water"), a count ("tonnes produced")
WEAK_CONCEPTS = GENERAL
#: kinds of word that never tell one thing from another (a state, a role, a quantity)
NOT_THINGS = frozenset(("state", "role", "quantity", "unit", "action"))


#: the words of an alarm's name that say it is one: "Kettle wall temperature high" is no
#: temperature unless one of them is said
_ALARM_WORDS = frozenset(
    "high low hi lo alarm fault trip tripped alert warning failure fail".split())
_ALARM_SHORT = {"hi": "high", "lo": "low", "alm": "alarm", "flt": "fault"}


#: words that ask a status ("supply fan 1 status", "pump 2 feedback")
_STATUS_ASKED = frozenset(("status", "feedback", "fb"))


@dataclass(frozen=True, slots=True)
class Fit:
    """How one point fits a command."""

    point: str
    score: float
    full: bool  # it explains every term (and every id) of the command
    weakest: float  # how well it explains its worst-explained term
    named: float  # the share of its own name the command says


@dataclass(frozen=True)
class Judgement:
    placement: Placement | None  # what is sure, or None (the model decides)
    fits: list[Fit] = field(default_factory=list)  # every point that fits at all, best first
    plural: bool = False  # the command is about several points: offer the model no write
    why: str = ""

    @property
    def candidates(self) -> list[str]:
        return [f.point for f in self.fits[:TOP]]


#: characters that may stand right before a Chinese name said whole: an order's words, a
#: verb's last character, a number's 号 (not 补 of 补水泵, whose 水泵 is no name said)
_BEFORE_A_NAME = frozenset("把将请给让动止开关停启号的是个台")


def _said_whole(label: str, said: str) -> bool:
    """Whether a Chinese name is said as itself, not as the end of a longer word."""
    start = said.find(label)
    while start >= 0:
        if start == 0 or not is_chinese(said[start - 1]) or said[start - 1] in _BEFORE_A_NAME:
            return True
        start = said.find(label, start + 1)
    return False


class Semantic:
    def __init__(self, rules: RuleRouter) -> None:
        self.rules = rules
        self.profiles = rules.profiles
        #: each point's thing and whether it is that thing's run switch (`_thing_of`)
        self._things: dict[str, tuple[frozenset[str], bool]] = {}
        #: what a writable mode's choices of several words mean, and those words ("DO
        #: control"): a write that says one whole sets it (`_unknown`), worked out once
        self._choices_said = [(p.choice_concepts, phrases) for p in self.profiles.all
                              if p.point.writable and p.point.choices and (phrases := [
                                  words for _, spelled in spellings(p.point)
                                  if len(words := [t.text for t in tokens(spelled)]) > 1])]
        #: the (word, number) pairs one point's names give together: one thing so named
        self._same_thing: dict[tuple[str, str], set[tuple[str, str]]] = {}
        for p in self.profiles.all:
            for pair in p.pairs:
                self._same_thing.setdefault(pair, set()).update(p.pairs)

    def head_unsaid(self, a: Analysis, profile: Profile) -> str:
        """The last thing word of a switch named in English (its spoken name's), where no
        word of a Chinese command has its meaning: 启动带式压滤机 ("start the belt press")
        names no "Belt press polymer dosing pump" (the write gate asks so of English words);
        "" where one does."""
        if is_chinese(profile.point.name):
            return ""
        spoken = self.profiles.spoken(profile.point)
        lexicon = self.profiles.lexicon
        head = next((w for w in reversed(spoken.split()) if any(
            s.kind == "thing" for s in lexicon.concepts(w))), None)
        if head is None:
            return ""
        wanted = {s.concept for s in lexicon.concepts(head) if s.kind == "thing"}
        said = {c for t in self.terms(a) for c in t.concepts}
        return "" if wanted & said or head.casefold() in a.words else head

    def terms(self, a: Analysis, senses: list[frozenset[Sense]] | None = None) -> list[Term]:
        found = terms(a.text, a.toks, self.profiles, senses=senses)
        # "how many m3/h", "how many amps": the unit says what is asked; "how many" asks
        # (a unit the lexicon knows as well as one the tokenizer marks: "how many mcf"; not
        # one that is a quantity too: "how many hours has the generator run" asks a count of
        # hours run, which a generator's "hours to next service" is not, review atk45)
        toks = a.toks
        units = {t.index for t in found if t.kinds == {"unit"}}
        return [t for t in found if not (
            t.concepts and t.concepts <= COUNTS and t.index + 1 < len(toks)
            and (toks[t.index + 1].unit or t.index + 1 in units))]

    # -- reading a command -------------------------------------------------------------------

    def ids(self, a: Analysis, terms: list[Term]) -> tuple[set[str], set[tuple[str, str]]]:
        """The numbers and letters that name things ("kiln 1", "line b"), and the pairs they
        make; never a value to set, nor a count after "all"/"both" ("all three zones")."""
        toks = a.toks
        words = {t.index: t.word for t in terms}
        kinds = {t.index: t.kinds for t in terms}
        ids: set[str] = set()
        pairs: set[tuple[str, str]] = set()
        for i, t in enumerate(toks):
            if not t.is_id:
                continue
            before = toks[i - 1] if i > 0 else None
            if before is not None and (before.raw in PLURAL_MARKS or before.raw in VALUE_BEFORE):
                continue
            if before is not None and self._formula(before, t):
                continue  # "O2 setpoint 8": oxygen, no "o 2"
            if t.ident and not (before is not None and (words.get(i - 1) in self.rules.lettered
                                                        or before.raw.isdigit())) \
                    and not (t.zh and "thing" in kinds.get(i - 1, ())) \
                    and not self.rules.letter_before(toks, i, said=True):
                continue  # (a letter written against a Chinese thing names it: "B包装机"; so
                # does one after "the", before its thing: "the B pump")
            beside = [words[j] for j in (i - 1, i + 1) if j in words]
            # "conveyer 2": a thing's; "2号滤池": one written before the thing in Chinese
            things = [kinds[j] for j in (i - 1, i + 1) if j in kinds
                      and (j == i - 1 or toks[j].zh)]
            naming = t.ordinal or any(w in self.rules.id_words for w in beside) or \
                (t.ident and before is not None and before.raw == "the") or \
                any(k & {"thing", "medium"} for k in things) or \
                (t.ident and before is not None and before.raw.isdigit()) or \
                (t.raw.isdigit() and i + 1 < len(toks) and toks[i + 1].ident)  # "pump 101A"
            after_unit = unit_after(toks, i)  # "1200 rpm", "55 percent"
            if after_unit and not t.ordinal and not t.ident and (words.get(i - 1), t.text) \
                    not in self.rules.numbered:
                continue  # "fan pump 1200 rpm": a value in its unit, no pump 1200 ("genset
                # 2 kW" of a plant with a genset 2 is that genset's)
            whole = isinstance(t.number, int) and t.number >= 0
            if t.is_number and not whole:
                continue  # 62.5 names nothing
            if naming or (a.question and not a.wants_write and not after_unit):
                ids.add(t.text)
                if i - 1 in words:
                    pairs.add((words[i - 1], t.text))
                elif i + 1 in words and toks[i + 1].zh and "thing" in kinds[i + 1]:
                    pairs.add((words[i + 1], t.text))  # "2号消化池": the thing after it
        return ids, pairs

    def _numbers_another(self, pair: tuple[str, str], p: Profile) -> bool:
        """Whether a (thing, number) said is another point's, where `p`'s names give that
        number to another thing ("screen 2" of "CRSH_2_AMPS"; not "mixer 1" of "Mix 1 visc",
        whose "mix" is the mixer said short)."""
        word, number = pair
        if pair in p.pairs or pair not in self.profiles.pairs or number not in p.ids or \
                word in p.names or number in _DIGITS.findall(p.point.device):
            return False  # (nor "line 2" of a filler's point on device "line_2", atk43)
        own = [w for w, n in p.pairs if n == number]
        if not own or any(word.startswith(w) or w.startswith(word) or stems_match(w, word)
                          or (w, number) in self._same_thing.get(pair, ()) for w in own):
            return False  # (nor "genset 3" of "Engine 3 load", where "Engine 3 power" has
            # the alias "genset 3 output": one thing, two words)
        things = {s.concept for s in self.profiles.lexicon.concepts(word) if s.kind == "thing"}
        return bool(things) and not things & (p.concepts | p.part_concepts)  # (not "HP1" of
        # a "High pressure pump 1 pressure": HP is no thing, but the pump's words said short)

    @staticmethod
    def _stands_in(writable: Profile, read_only: Profile, terms: list[Term]) -> bool:
        """Whether a writable point may stand in for a read-only one in a write: it explains
        each quantity said as well as the read-only one does, or well (as what its unit
        measures), or by its own text ("mould" of a "TCU setpoint" described as the mould
        temperature controller's; not "wind" of a "Hoist speed setpoint"), but never one that names
        a quantity of its own that the read-only one does not, where the read-only one names the
        quantity said: a "Dry room dew point setpoint" (in °C) is no setpoint of the "Dry room
        temperature" of 干燥房温度设为-40 (review atk55c)."""
        return all("quantity" not in t.kinds or t.word in writable.words
                   or (explain(t, writable) >= min(explain(t, read_only), UNIT_QUANTITY)
                       and not (t.concepts & read_only.named_quantities
                                and writable.named_quantities - read_only.named_quantities))
                   for t in terms)

    def _named_in_chinese(self, a: Analysis, full: list[Fit]) -> list[Fit]:
        """A point whose own Chinese name the command says in full outranks one of its kind
        that the words reach by translation only: "启动给水泵" of a plant with a 给水泵 ("Boiler
        feed water pump") and a "Feed pump" (进料泵) is the one so named."""
        said = simplified(a.text)
        by_id = self.profiles.by_id

        def named(point: str) -> bool:
            p = by_id[point].point
            return any(len(label) >= 2 and _said_whole(label, said) for label in (
                simplified(n) for n in (*p.names.values(), *p.aliases) if is_chinese(n)))

        said_so = {f.point for f in full if named(f.point)}
        # (of its role, whatever its kind: 进水流量 said is the "Influent flow", in m³/h, and
        # not the "Influent flow total" counted in m³ — blind batch 48)
        roles = {by_id[p].role for p in said_so}
        return [f for f in full if f.point in said_so or by_id[f.point].role not in roles]

    def _formula(self, before: Token, t: Token) -> bool:
        """A letter word and the number written right after it that the lexicon knows only
        together: a chemical formula (O2, CO2, H2S, NH3), not a numbered thing ("kiln2",
        "AHU2" are a kiln and an AHU as much as "kiln" and "AHU" are)."""
        if before.zh or t.zh or not before.raw.isalpha() or not t.raw.isdigit() or t.ordinal:
            return False
        lexicon = self.profiles.lexicon
        joined = lexicon.concepts(before.raw + t.raw)
        return bool(joined) and not joined & lexicon.concepts(before.raw)

    @staticmethod
    def names(word: str, p: Profile, terms: list[Term]) -> bool:
        """Whether the word of a (thing, number) pair names `p`'s thing: one of its words, or
        a word of another language that means a thing it has ("消化池" of a digester)."""
        if word in p.words:
            return True
        return any(t.word == word and "thing" in t.kinds and t.concepts & p.concepts
                   for t in terms)

    # -- fitting points ----------------------------------------------------------------------

    def fit(self, a: Analysis, terms: list[Term], ids: set[str],
            pairs: set[tuple[str, str]], p: Profile, setpoint_named: bool,
            poles: frozenset[str], reading: bool) -> Fit | None:
        """How well point `p` fits the command. `poles`: the opposite words it says
        (`poles.said_poles`); `reading`: it is no write, with a verb or without one (both of
        the command alone: worked out once, not once per point of a large plant)."""
        if p.poles and poles and opposed(p.poles, poles) and (
                not p.point.choices or opposed(p.poles, said_poles(a.toks, choice_words(p.point)))):
            return None  # "zone 2 cool setpoint" is not the zone's heat setpoint
        if any((word, number) not in p.pairs and any(w == word for w, _ in p.pairs)
               for word, number in pairs):
            return None  # "kiln 2" is not kiln 1 (a point named "R1 temp" and "R-101
            # temperature" is R 1's)
        if ids and p.ids and not ids & p.ids:
            return None
        if any(self._numbers_another(pair, p) for pair in pairs):
            return None  # "screen two" is another point's pair: not the 2 of "Crusher 2
            # amps" on device "screening", whose "screen" the device says (blind batch 32)
        for kind in (str.isalpha, str.isdigit):
            said = {i for i in ids if kind(i)}
            if said and not said & p.ids and any(kind(i) for i in p.ids):
                return None  # "feeder 1B" is not feeder 1A, though both are feeder 1's;
                # nor "101B" pump 301B, though both are B
        if p.point.kind == "bool" and not a.wants_write and asks_degree(a.toks):
            return None  # "how far open is the intake gate": its position, if it has one
        # "conveyor 2" of a plant whose one conveyor has no number (nor its device): a unit
        # that does not exist; "AHU 1" of a point on device "ahu1" is that point's
        numbered = p.ids | set(_DIGITS.findall(p.point.device))
        if reading and any(
                self.names(word, p, terms) and number not in numbered
                and (numbered or number != "1")
                for word, number in pairs):
            return None
        strengths = [0.0 if said_otherwise(t, p, terms) else
                     UNIT_QUANTITY if per_its_time(t, p, terms) else explain(t, p)
                     for t in terms]
        if a.wants_write and p.choice_concepts:
            # "生产线切换到清洗模式": 清洗 names a choice of the line mode (its "cleaning"), as
            # the choice's own word would; the write gate then asks that it name just one
            strengths = [max(s, CONCEPT) if t.concepts & p.choice_concepts else s
                         for t, s in zip(terms, strengths, strict=True)]
        total = sum(t.weight for t in terms)
        cover = sum(t.weight * s for t, s in zip(terms, strengths, strict=True)) / total \
            if total else 0.0
        if terms and not cover and not (ids and ids <= p.ids):
            return None
        said = {t.word for t in terms} | ids
        said_concepts = {c for t in terms for c in t.concepts}
        named = sum(1 for k in p.key if k in said or k in said_concepts
                    or any(stems_match(k, w) for w in said)) / max(1, len(p.key))
        score = cover * (0.7 + 0.3 * named) if terms else 0.5 * named
        if not a.wants_write and (p.role == "setpoint") != setpoint_named:
            score *= 0.85  # "kiln 1 temperature" is the measurement; "...set to", the setpoint
        if a.yes_no:
            score *= 1.05 if p.point.kind == "bool" else 0.95
        if not a.wants_write and p.role == "command" and (sense := point_sense(p.point)) \
                is not None and not sense.thing and \
                not any(said_as(t.raw, sense.word) for t in a.toks):
            score *= 0.85  # "has R1 tripped on high temp": the trip, not its reset switch
        full = all(s >= FULL for s in strengths) and ids <= p.ids
        return Fit(p.id, score, full, min(strengths, default=1.0), named)

    def fits(self, a: Analysis, terms: list[Term] | None = None) -> list[Fit]:
        terms = self.terms(a) if terms is None else terms
        ids, pairs = self.ids(a, terms)
        setpoint_named = any(t.word in SETPOINT_WORDS or SETPOINT in t.concepts
                             for t in terms) or (not a.wants_write and "set" in a.words)
        poles = said_poles(a.toks)
        reading = not a.wants_write and not self.rules.terse_write(a, None)
        found = [f for p in self.profiles.all
                 if (f := self.fit(a, terms, ids, pairs, p, setpoint_named, poles, reading))
                 is not None
                 and f.score > 0 and not self.profiles.other_formula(a.toks, p)]
        return sorted(found, key=lambda f: (-f.score, f.point))

    # -- the stage ---------------------------------------------------------------------------

    def judge(self, a: Analysis) -> Judgement:
        senses = self.profiles.lexicon.senses(a.text, a.toks)
        terms = self.terms(a, senses)
        fits = self.fits(a, terms)
        marks = bool(a.words & PLURAL_MARKS) or any(ALL in {s.concept for s in found}
                                                     for found in senses)
        if a.words & SUMMARY_WORDS and not a.wants_write:
            return self._summary(a, terms, fits)
        listed = self.rules.numbered_list(a.toks)
        if listed is not None:
            return self._listed(a, listed, fits)
        plural = self._plural(a, terms, fits, marks)
        if plural is not None:
            return plural
        both = self._conjunction(a)
        if both is not None:
            return Judgement(Placement(self._plural_refusal(a, both) if a.wants_write else
                                       Action("read", {"points": both}), 1.0), fits,
                             plural=True, why="conjunction")
        unknown = self._unknown(a, terms)
        if unknown is not None:
            return Judgement(Placement(respond("unknown_point", asked=unknown), 0.9), fits,
                             why="unknown")
        return Judgement(self._sure(a, terms, fits), fits, why="sure")

    def _sure(self, a: Analysis, terms: list[Term], fits: list[Fit], *,
              reading: bool = False) -> Placement | None:
        """One point explains every word, well, and is clearly ahead of the next that does."""
        if not terms:
            return None
        writes = not reading and (a.wants_write or self.rules.terse_write(a, None))
        full = [f for f in fits if f.full]
        switches: list[Fit] = []  # the run switches that fit a write's words, valued or not
        if writes:
            # a writable point stands in for a read-only one of the same numbered thing
            # ("set kiln 2 to 70 degrees": its setpoint), never of another (pump 1's speed is
            # not the pump's)
            by_id = self.profiles.by_id
            # (nor where it measures a quantity said that the writable one does not set: a
            # "Hoist speed setpoint" is no stand-in for the "Wind speed" of "wind 15")
            settable = [by_id[f.point] for f in full if by_id[f.point].point.writable]
            full = [f for f in full if by_id[f.point].point.writable or not any(
                s.ids == by_id[f.point].ids and self._stands_in(s, by_id[f.point], terms)
                for s in settable)]
            if a.wants_write:
                # "关掉B包装机" (switch bagger B off): its speed, which takes no "off" (its
                # least is 20), is no rival of its run switch
                switches = [f for f in full if by_id[f.point].point.writable
                            and by_id[f.point].point.kind == "bool"]
                # (a reading of the switched thing is no rival: "stop the calender", and
                # "启动1号机组" of a "Unit 1 start command" beside "Unit 1 running", blind
                # batch 56)
                stopped_ids = [by_id[f.point].ids for f in switches
                               if a.words & STOP_WORDS or self.rules.values(a, by_id[f.point].point)]
                full = [f for f in full if (not by_id[f.point].point.writable and not any(
                    by_id[f.point].ids == ids or (ids and ids <= by_id[f.point].ids)
                    for ids in stopped_ids))
                        or self.rules.values(a, by_id[f.point].point)]  # ("stop the
                # calender": no rival in a reading of it, "Cal thk", that takes no off; a
                # reading of compressor B is still a rival of compressor A's switch, atk43)
                if switches and a.words & STOP_WORDS:
                    # "stop the centrifuge": its run switch, not its speed at 0 (which
                    # stops only what has no switch to stop it); a speed of another thing
                    # than the switches' stays a rival ("stop the pump" of a "Pump 1 speed"
                    # beside a "Booster pump run")
                    # (and only where that switch is then the best: "turn off the reactor"
                    # of two reactors is no more sure for a speed of reactor 1 let go)
                    run = {self._thing_of(by_id[f.point]): f.point for f in switches
                           if self._run_switch(by_id[f.point])}
                    stopped = [f for f in full if by_id[f.point].point.kind != "bool"
                               and self._thing_of(by_id[f.point]) in run
                               and self.rules.values(a, by_id[f.point].point) == [0]]
                    kept = [f for f in full if f not in stopped]
                    if stopped and (not kept or kept[0].point in {
                            run[self._thing_of(by_id[f.point])] for f in stopped}):
                        full = kept  # (none: the switch the words did not value, a typo)
                # "switch the kiln to hold": a choice said that a writable point takes; a
                # read-only point of the same thing takes no choice, and is no rival
                chose = [f for f in full if by_id[f.point].point.writable and any(
                    isinstance(v, str) for v in self.rules.values(a, by_id[f.point].point))]
                if chose:
                    full = [f for f in full if f in chose or by_id[f.point].point.writable]
        if not writes and any("quantity" in t.kinds or t.unit for t in terms):
            # "kettle wall temp": a value is asked, which the "Kettle wall temperature high"
            # alarm (on or off, every word of it said but "high") does not give
            said = {_ALARM_SHORT.get(t.raw, t.text) for t in a.toks}  # ("hi": no term)
            full = [f for f in full if self.profiles.by_id[f.point].point.kind != "bool"
                    or not (self.profiles.by_id[f.point].names & _ALARM_WORDS) - said] or full
        if not writes and a.words & _STATUS_ASKED:
            # "supply fan 1 status": an on/off or a state of named choices, which the fan's
            # speed is not (review atk53)
            full = [f for f in full if self.profiles.by_id[f.point].point.kind == "bool"
                    or self.profiles.by_id[f.point].point.choices] or full
        if not writes and a.yes_no:
            # "are the mol sieves in regen": yes or no of a state, which a pressure described
            # as "negative while the bed is under regeneration" does not answer (blind batch 59)
            full = [f for f in full if not self._state_described(a, terms, f.point)] or full
        if not writes and not a.yes_no and MEASURE_ASKED.search(a.text):
            # "how high's the water in the sump": a measure, which no high-level switch gives
            full = [f for f in full if self.profiles.by_id[f.point].point.kind != "bool"]
        if not writes and len(full) > 1:
            # "is cooling water pump 2 running" of "Kuehlwasser.Pumpe2.Ein" and "...Laeuft",
            # both explaining every word: whether it runs is the status's to say, and the
            # switch is no rival of it (`RuleRouter.status_for`)
            fitting = {f.point for f in full}
            asked = {f.point: self.rules.status_for(a, Action("read", {"point": f.point}))
                     .args["point"] for f in full}
            full = [f for f in full if self.rules.statuses.get(f.point) not in fitting or
                    asked[f.point] == f.point]
            # ...and the status stands as high as its switch is named ("supply fan 1 status"
            # of "SF-1 S/S", named "Supply fan 1", beside "SF-1 STS" and "SF-1 ALM": review
            # atk53)
            lifted = {asked[f.point]: f.score for f in fits if f.full and f.point in fitting
                      and asked[f.point] != f.point}
            full = sorted((replace(f, score=max(f.score, lifted.get(f.point, 0.0)))
                           for f in full), key=lambda f: (-f.score, f.point))
        if full and a.zh:
            full = self._named_in_chinese(a, full)
        if not full:
            return None
        best = full[0]
        rest = [f.score for f in full[1:]]
        if not writes and a.question and "set" in a.words and \
                self.profiles.by_id[best.point].role == "setpoint":
            # "what's conche 2 set to": of what is named, the one setting asked for, however
            # close its measurements come (they are not what is asked)
            rest = [f.score for f in full[1:] if self.profiles.by_id[f.point].role == "setpoint"]
        elif not writes and self.profiles.by_id[best.point].role != "setpoint" and not any(
                t.word in SETPOINT_WORDS or SETPOINT in t.concepts for t in terms):
            # "what frequency is LS07 pump 2 at": what it is at, not the reference it is sent,
            # however close that comes (a setpoint of its own numbered thing, unsaid, is
            # scored down, and no rival of it: blind batch 35)
            ids = self.profiles.by_id[best.point].ids
            rest = [f.score for f in full[1:] if self.profiles.by_id[f.point].role != "setpoint"
                    or self.profiles.by_id[f.point].ids != ids]
        if best.weakest < SURE_STRENGTH or (rest and best.score - rest[0] < SURE_MARGIN):
            return None
        if not writes and fits[0].point != best.point and \
                fits[0].score - best.score >= SURE_MARGIN and \
                self.profiles.by_id[best.point].point.choices and \
                not self.profiles.by_id[fits[0].point].point.choices:
            # "has the load been stoppered": the "Cycle phase" explains every word by its
            # choices ("loading", "stoppering"), but "Shelves stoppered" names far more of
            # what is said: no one point is sure
            return None
        if not writes and a.question and set_asked(a.toks) and self._setting_beside(best, fits):
            # "what load is genset 3 set to": a setting is asked, and the genset's output is
            # none; its load setpoint, named otherwise, is the model's to weigh
            return None
        point = self.profiles.by_id[best.point].point
        if self.described_only(terms, self.profiles.by_id[best.point]) or \
                self.rules.quantity_asked_again(a, best.point) is not None:
            return None  # "HCl at the stack?" of a damper described as "… to the stack … acid"
        others = tuple(f.point for f in fits if f.point != best.point)[:3]
        if not writes or (not a.wants_write and not self.rules.terse_write(a, point)):
            if writes:
                # the pick let a setpoint stand in for its measurement, for a write the words
                # do not make of it ("rectifier 1 amps": the 1 numbers the rectifier, it is no
                # value of 1 A): a read is of the point the words name best, among them all
                # (one that numbers nothing of it stays a value: "wind 15" of a "Wind speed"
                # beside a "Hoist speed setpoint" is no read)
                read = self._sure(a, terms, fits, reading=True)
                own = self.rules.label_ids.get(read.action.args.get("point", ""), set()) \
                    if read is not None else set()
                if read is not None and any(t.is_number and t.text not in own
                                            for t in a.toks):
                    return None
                return read
            if counted(a.toks) or self.rules.said_to_do(a, point.id) or \
                    self.rules.amount_of_an_intensity(a, point.id):
                return None  # "the two ovens" counts; "pulse the bags" asks it done; "how much
                # water's coming down the river" is no river temperature
            if not a.question and (self.rules.stray_number(a, point.id) or (
                    len(a.toks) > 2 and a.toks[-1].is_number
                    and a.toks[-1].text not in self.rules.label_ids.get(point.id, set())
                    and a.toks[-2].text in SETPOINT_SAID and "#" not in a.text)):
                return None  # "zone 7 setpoint 248": a value said, no read's to explain
            if a.question and set_asked(a.toks) and not point.writable and \
                    point.kind != "bool" and self.profiles.by_id[point.id].role != "setpoint":
                return None  # "what's curing zone 3 set to": a zone with no setting named
                # (but "is the service brake set": a brake on or off)
            if self._another_kind(a, terms, self.profiles.by_id[point.id]):
                return None
            return Placement(Action("read", {"point": point.id}), best.score, others)
        if not point.writable:
            return None
        values = self.rules.values(a, point)
        if len(values) != 1:
            return None
        profile = self.profiles.by_id[point.id]
        if any(self.profiles.by_description(t.word, t.concepts, profile) for t in terms
               if not t.unit):
            return None  # a word only its description says: the model's to weigh, not sure
        return Placement(Action("write", {"point": point.id, "value": values[0]}), best.score,
                         others)

    def _another_kind(self, a: Analysis, terms: list[Term], profile: Profile) -> bool:
        """A word the point explains only by kin, which the model stage's check refuses: a
        quantity it has not ("dissolved oxygen" of a "UPW total organic carbon", whose ppb
        measures both), another kind of its thing ("edger saw speed" of a "Headrig bandsaw
        speed": both saws; blind batch 70, each read sure by meaning alone)."""
        return any((self._unit_explains_only(t, profile, terms)
                    and self.lacks_quantity(a, t, profile)) or (
            "thing" in t.kinds and t.shown.isascii() and not t.concepts & profile.concepts
            and kin_thing(t, profile)) for t in terms)

    def _unit_explains_only(self, t: Term, profile: Profile, terms: list[Term]) -> bool:
        """A narrower quantity (one the lexicon files under another: dissolved oxygen, a
        kind of O2) that the point's unit may measure but its name, which says a quantity of
        its own, does not: not a word of many quantities ("left": a level, a weight, a
        time), nor a broad one ("concentration" of a dose in ml/L), nor a unit."""
        if t.unit or "unit" in t.kinds or not profile.named_quantities or \
                explained(t, profile, terms) > UNIT_QUANTITY:
            return False
        quantities = set(self.quantities(t)) - GENERAL
        return bool(quantities) and all(self.profiles.lexicon.broader((q,)) - {q}
                                        for q in quantities) and \
            not self.profiles.lexicon.broader(quantities) & profile.named_quantities

    def _thing_of(self, p: Profile) -> frozenset[str]:
        """The words of a point's name that name its thing: not what it measures, sets or
        does, nor its tag's letters ("centrifuge", "501" of "SIC-501 centrifuge speed" and of
        "HS-501 centrifuge run"); its id where there are none (its own, no other's)."""
        return self._thing_and_run(p)[0]

    def _run_switch(self, p: Profile) -> bool:
        """Whether a switch is its thing's run command: its name says its thing and at most
        a word of running ("Centrifuge run", "Trommel motor", "Pump 2"; not "Centrifuge wash",
        "Belt emergency stop reset", "Pump 2 auto")."""
        return self._thing_and_run(p)[1]

    def _thing_and_run(self, p: Profile) -> tuple[frozenset[str], bool]:
        found = self._things.get(p.id)
        if found is None:
            lexicon = self.profiles.lexicon
            known = lexicon.words()
            # ("Pump 16 run (start-stop)": a run switch, the pair its kind's)
            words = [t.text for t in tokens(unpaired(p.point.name))]
            tag = {w for w in words if w.isalpha() and len(w) <= 4 and w not in known}
            thing = frozenset(w for w in words if w not in _RUN_NAMES and w not in tag and not
                              {s.kind for s in lexicon.concepts(w)} & _NOT_THINGS) | \
                _phrased_things(words, lexicon)
            run = p.point.kind == "bool" and bool(thing) and all(
                w in thing or w in _RUN_NAMES or w in tag for w in words)
            found = self._things[p.id] = (thing or frozenset({p.id}), run)
        return found

    def described_only(self, terms: list[Term], profile: Profile) -> bool:
        """Whether the point explains every word of the command (but units) by its
        description alone (review b15: "HCl at the stack?" read the bypass damper whose
        description says the gas goes to the stack below the acid dew point)."""
        said = [t for t in terms if not t.unit]
        return bool(said) and all(self.profiles.by_description(t.word, t.concepts, profile)
                                  for t in said)

    def _setting_beside(self, best: Fit, fits: list[Fit]) -> bool:
        """`best` is no setpoint (nor a writable choice, which is set as one is: "what are the
        room A fans set to" of their mode, blind batch 35), and a setpoint of its own numbered
        thing is among the fits."""
        by_id = self.profiles.by_id
        mine = by_id[best.point]
        if mine.point.writable and mine.point.choices:
            return False
        return mine.role != "setpoint" and any(
            by_id[f.point].role == "setpoint" and by_id[f.point].ids == mine.ids
            for f in fits if f.point != best.point)

    def _conjunction(self, a: Analysis) -> list[str] | None:
        """ "kiln 1 dry and wet bulb", "temperature and pressure of boiler 3", "feed, permeate
        and concentrate pressure on train 1", "ammonia and CO2 in house 1": the words on either
        side of "and" (and of the commas before it) name one point each, with the rest of the
        command; all of them, in the order said."""
        toks = a.toks
        joins = [i for i, t in enumerate(toks) if t.raw in _JOINS and 0 < i < len(toks) - 1]
        if len(joins) != 1 or a.words & PLURAL_MARKS:
            return None
        i = joins[0]
        if toks[i].raw != "and" and (toks[i + 1].text not in self.profiles.plant_words
                                     or toks[i - 1].is_number):
            # "flow vs yesterday": a comparison with a time, not two points; "zone 2 vs zone
            # 3": two numbered things, each the rest of the command's (the model's to place)
            return None
        # one word each, the rest shared: "dry and wet bulb"; "feed, permeate and concentrate"
        items = [i - 1]
        while items[0] > 0 and toks[items[0]].after_break:
            items.insert(0, items[0] - 1)
        items.append(i + 1)
        # a side that ends in a number is no write of it when the whole is none ("platen
        # temps for presses 1, 2 and 3": the 1 numbers a press, it sets nothing)
        reading = not (a.wants_write or self.rules.terse_write(a, None))
        found = [self._sure_without(a, (set(items) - {k}) | {i}, reading) for k in items]
        if all(found) and len(set(found)) == len(found):
            return [p for p in found if p is not None]
        # a whole command each: "set pump 1 to 900 and open valve 2"; and the first with what
        # the second ends with, where it says where ("ammonia and CO2 in house 1")
        n = len(toks)
        tail = next((k for k in range(i + 2, n) if toks[k].raw in _WHERE), n)
        pairs: list[tuple[Iterable[int], Iterable[int]]] = [
            (range(i, n), range(i + 1)), (range(i, tail), range(i + 1))]
        if len(content(toks[i + 1:])) == 1:
            # "nitrogen pressure and the setpoint": the second is the first's, with that word
            pairs.append((range(i, n), ()))
        for left, right in pairs:
            sides = [self._sure_without(a, set(drop) | {i}, reading) for drop in (left, right)]
            if sides[0] is not None and sides[1] is not None and sides[0] != sides[1]:
                return [sides[0], sides[1]]
        return None

    def _listed(self, a: Analysis, listed: tuple[int, int, list[int]], fits: list[Fit]
                ) -> Judgement:
        """ "cyclone 1 and 2 temperatures": the command said of each numbered thing in turn
        ("cyclone 1 temperatures", "cyclone 2 temperatures"), each sure of one point; a read
        of them all, and a write refused (one point per command). A number the plant has no
        such thing of is an unknown point; a thing whose point is in doubt, the model's (told
        the command is plural, so that it writes nothing)."""
        toks = a.toks
        start, end, numbers = listed
        family = toks[start]
        missing = [toks[k] for k in numbers if (family.text, toks[k].text)
                   not in self.rules.numbered]
        if missing:
            return Judgement(Placement(respond(
                "unknown_point", asked=f"{family.raw} {missing[0].raw}"), 0.9), fits,
                why="unknown")
        meant: list[str] = []
        for k in numbers:
            kept = [*toks[:start + 1], toks[k], *toks[end:]]
            side = replace(a, toks=kept, words=frozenset(t.raw for t in kept))
            sure = self._sure(side, terms(a.text, kept, self.profiles), self.fits(side))
            if sure is None or sure.action.name not in ("read", "write"):
                return Judgement(None, fits, plural=True, why="numbered list, unplaced")
            point = str(sure.action.args["point"])
            if point not in meant:
                meant.append(point)
        if a.wants_write:
            return Judgement(Placement(self._plural_refusal(a, meant), 1.0), fits,
                             plural=True, why="plural write")
        if len(meant) < 2:
            return Judgement(None, fits, plural=True, why="numbered list, unplaced")
        return Judgement(Placement(Action("read", {"points": meant}), 1.0), fits,
                         plural=True, why="numbered list")

    def _sure_without(self, a: Analysis, dropped: set[int], reading: bool = False
                      ) -> str | None:
        kept = [t for k, t in enumerate(a.toks) if k not in dropped]
        side = replace(a, toks=kept, words=frozenset(t.raw for t in kept))
        sure = self._sure(side, terms(a.text, kept, self.profiles), self.fits(side),
                          reading=reading)
        if sure is None or sure.action.name not in ("read", "write"):
            return None
        return str(sure.action.args["point"])

    def _several(self, fits: list[Fit], *, writable: bool = False,
                 terms: list[Term] | None = None, amount: bool = False,
                 setting: bool = False) -> list[str]:
        """The points a plural command means: every one that explains all its words; of a
        quantity they name, the points that measure it ("power of both generators": not
        their running flags, which an on/off point is)."""
        full = [f for f in fits if f.full]
        # "temps in all three chambers": the chambers numbered so, not a point that a device
        # named "chambers" explains the word of ("Evaporator 1 coil temperature")
        families = {t.word for t in terms or () if t.word in self.rules.families}
        numbered = [f for f in full if any(w in families for w, _ in
                                           self.profiles.by_id[f.point].pairs)]
        full = numbered or full
        # ("how much gas are the kiln burners burning": an amount of what flows, which no
        # on/off point tells, though a burner's enable is described as releasing gas: blind
        # batch 51; not "how much are the carousels doing", review atk55c)
        if not writable and terms and (amount or any(set(self.quantities(t)) - WEAK_CONCEPTS
                                                     for t in terms)):
            measures = [f for f in full if self.profiles.by_id[f.point].point.kind != "bool"]
            full = measures or full
        if not writable and setting:
            # "what temperature are the ovens set to": their setpoints, and no reading (blind
            # batch 53)
            full = [f for f in full if self.profiles.by_id[f.point].role == "setpoint"]
        elif not writable:
            # "temperatures of both kilns" are the measurements, not their setpoints
            measured = [f for f in full if self.profiles.by_id[f.point].role != "setpoint"]
            full = measured or full
        else:
            full = [f for f in full if self.profiles.by_id[f.point].point.writable]
        # of the points of one numbered thing, those its words name best ("temps on all three
        # retorts": retort 1's temperature, not its probe offset in °C too)
        pairs = {f.point: self.profiles.by_id[f.point].pairs for f in full}
        full = [f for f in full if not any(g.named > f.named and pairs[g.point] & pairs[f.point]
                                           for g in full)]
        order = list(self.profiles.by_id)
        return sorted((f.point for f in full), key=order.index)

    def _plural(self, a: Analysis, terms: list[Term], fits: list[Fit], marked: bool
                ) -> Judgement | None:
        writes = a.wants_write
        several = self._several(fits, writable=writes, terms=terms, amount=[
            t.raw for t in a.toks[:2]] in (["how", "much"], ["how", "many"]) and any(
            "medium" in t.kinds for t in terms), setting=a.question and (set_asked(a.toks) or any(
                t.word in SETPOINT_WORDS or SETPOINT in t.concepts for t in terms)))
        if not marked:
            # a plural that names what the points are ("pumps", "zones"), not one a
            # description or a stem shares with them ("reverse the fires": the firing)
            # — nor what "how many" counts ("how many cars so far": the car counter)
            plural_words = [t for t in terms if t.raw != t.word and t.raw.endswith("s")
                            and not t.raw.endswith(("'s", "\u2019s"))  # "what temperature's
                            # the setter at": is, no plural (blind batch 71)
                            # (nor a unit's: "revs?", "amps?" of one machine, batch 71)
                            and not t.unit and "unit" not in t.kinds and not a.toks[t.index].zh
                            # (the last word of the phrases it is in: "phos acid" is no
                            # plural of "pho"; "cooling towers" is one)
                            and all(a.text[s:e].casefold().endswith(t.raw) for s, e in t.spans)
                            and not (t.index > 0 and a.toks[t.index - 1].raw == "many")
                            and all(self._named_by(t, p) for p in several)
                            # ("open the top gates" of "Upper gates open command": a pair of
                            # gates is one thing, by its own name)
                            and not any(t.raw in self._name_raws(p) for p in several)]
            if not plural_words or len(several) < 2 or (not writes and len(several) > MAX_READ):
                return None
        if not writes and not a.question and any(
                t.is_number and unit_after(a.toks, i) for i, t in enumerate(a.toks)):
            # "load each skip with 18 tonnes": a value said of all of them, no read
            return Judgement(None, fits, plural=True, why="plural, a value said")
        if writes:
            meant = several or [f.point for f in fits
                                if self.profiles.by_id[f.point].point.writable][:TOP]
            return Judgement(Placement(self._plural_refusal(a, meant), 1.0), fits, plural=True,
                             why="plural write")
        if a.yes_no:
            # (nor of several: "are the mole sieves in regen"; a valve's position still
            # answers "are all valves open", review atk59b)
            several = [p for p in several if not self._state_described(a, terms, p)] or several
        if marked and several and self._marked_unexplained(a, terms, several):
            return Judgement(None, fits, plural=True, why="plural, what is all not said")
        if "both" in a.words and len(several) != 2:
            # "temperature of both zones" where three zones have one: which two, is not said
            return Judgement(None, fits, plural=True, why="both, of other than two")
        if len(several) >= 2 and len(several) <= MAX_READ:
            return Judgement(Placement(Action("read", {"points": several}), 1.0), fits,
                             plural=True, why="plural read")
        if len(several) == 1:
            return Judgement(Placement(Action("read", {"point": several[0]}), 0.9), fits,
                             plural=True, why="plural read of one")
        return Judgement(None, fits, plural=True, why="plural, unplaced")

    def _state_described(self, a: Analysis, terms: list[Term], point: str) -> bool:
        """Whether a yes/no question says a state and no quantity, and `point` is a number
        that says the state only in its description: no answer to whether its thing is in it."""
        p = self.profiles.by_id[point]
        states = [t for t in terms if "state" in t.kinds]
        if not states or p.point.kind == "bool" or p.point.choices or not p.point.description or \
                any("quantity" in t.kinds or t.unit for t in terms):
            return False
        named = {m.concept.id for label in (p.point.name, *p.point.aliases,
                                            *p.point.names.values())
                 for m in concepts_of_text(label)}
        described = {m.concept.id for m in concepts_of_text(p.point.description)}
        return all(t.word not in p.names and not t.concepts & named and (
            t.word in p.described or bool(t.concepts & described)) for t in states)

    def _name_raws(self, point: str) -> frozenset[str]:
        """The words of a point's name and aliases, as written."""
        p = self.profiles.by_id[point].point
        return frozenset(t.raw for label in (p.name, *p.aliases) for t in tokens(label))

    def _named_by(self, t: Term, point: str) -> bool:
        """The point's names (or its things and quantities) say this word."""
        p = self.profiles.by_id[point]
        return t.word in p.names or bool(t.concepts & (p.things | p.quantities)) or any(
            w in p.names for w in t.alts)

    def _marked_unexplained(self, a: Analysis, terms: list[Term], points: list[str]) -> bool:
        """The word an "all"/"every"/"both" is said of is one none of `points` explains
        ("temps in every OR", where no point is named "OR": not every temperature)."""
        toks = a.toks
        by_index = {t.index: t for t in terms}
        profiles = [self.profiles.by_id[p] for p in points]
        for i, t in enumerate(toks):
            if t.raw not in PLURAL_MARKS or t.zh:
                continue
            j = i + 1
            while j < len(toks) and (toks[j].raw in _BEFORE_NOUN or toks[j].is_number):
                j += 1
            if j >= len(toks):
                continue
            term = by_index.get(j)
            if term is not None:
                if not any(explained(term, p, terms) > NEAR for p in profiles):
                    return True
            elif toks[j].text not in _NOT_NOUNS and \
                    not any(toks[j].text in p.words for p in profiles):
                return True
        return False

    def _plural_refusal(self, a: Analysis, meant: list[str]) -> Action:
        zh = is_chinese(a.text)
        names = [self.profiles.by_id[p].point.label("zh" if zh else "en") for p in meant]
        if zh:
            listed = "、".join(names)
            text = "每条命令只能设置一个测点，未做任何更改。" + \
                (f"请逐个说明，例如：{listed}。" if names else "请说出要设置的那一个测点。")
        else:
            listed = ", ".join(names)
            text = "Writes are one point per command; nothing was changed. " + \
                (f"Say which one you mean: {listed}." if names else "Say the one point to set.")
        return respond("not_allowed", plural=True, points=meant, text=text)

    def _summary(self, a: Analysis, terms: list[Term], fits: list[Fit]) -> Judgement:
        """ "status summary", "状态汇总": a read of every point the words name (all of them
        when they name none), measurements and states before setpoints, at most MAX_READ."""
        named = self._several(fits) if terms else []
        if terms and not named:
            return Judgement(None, fits, plural=True, why="summary, unplaced")
        points = named or sorted(self.profiles.by_id,
                                 key=lambda p: self.profiles.by_id[p].role == "setpoint")
        points = points[:MAX_READ]
        if not terms:
            order = list(self.profiles.by_id)
            points.sort(key=order.index)
        action = Action("read", {"points": points}) if len(points) > 1 else \
            Action("read", {"point": points[0]}) if points else respond("unknown_point")
        return Judgement(Placement(action, 1.0), fits, plural=True, why="summary")

    def _unknown(self, a: Analysis, terms: list[Term]) -> str | None:
        """The words of a quantity the command names for something that has none, or None:
        no point has that quantity ("the temperature of the reservoir" in a plant with no
        temperature), or every point that has it belongs to another thing than the one named
        ("the water temperature in the sump", where only the tanks have one: "sump" names
        another point, and no tank point is named by it)."""
        quantities = [(t, c) for t in terms for c in self.quantities(t)]
        # "how many", a count ("tonnes produced"), a level or volume ("ammonia level", "how
        # full is the battery", "how much water") and a Chinese character read alone (度 of
        # 浊度) say too little to refuse on
        strong = [(t, c) for t, c in quantities if t.raw not in WEAK_QUANTITY
                  and c not in WEAK_CONCEPTS and not lone_character(t, a.toks[t.index])
                  and "thing" not in t.kinds  # ("lift": a height, or an elevator)
                  and not _of_a_rate(a.toks, t.index)
                  # ("put the aeration blowers on DO control": a mode's choice said whole,
                  # to set; not 恒压 of a pump with no pressure, review atk43b)
                  and not (a.wants_write and any(
                      c in meant and any(all(w in a.words for w in words) for words in phrases)
                      for meant, phrases in self._choices_said))]
        things = [t for t in terms if "thing" in t.kinds or "medium" in t.kinds
                  or self._tells_apart(t)]
        for term, quantity in strong:
            # (the unit of a point whose name says no quantity, of a few quantities, says what
            # it has: a totaliser of "Treated water total" in m³; "PV power" in kW has no heat)
            having = [p for p in self.profiles.all
                      if quantity in p.concepts or explained(term, p, terms) >= FULL
                      or (quantity in p.unit_quantities and not p.named_quantities
                          and len(p.unit_quantities) <= FEW_QUANTITIES)]
            if not having:
                return self._asked(a, terms)
            # the points that have the quantity are of other things: none is named by any
            # thing the command names (a point of no thing is anybody's: "Residual chlorine")
            named = [t for t in things if t is not term and self._tells_apart(t)]
            if named and not any(not p.things or any(explained(t, p, terms) for t in things)
                                 for p in having):
                return self._asked(a, terms)
        return None

    def meaningful(self, a: Analysis, term: Term, general: bool = False) -> bool:
        """A word whose meaning a point must have to be the one meant: a quantity (not a
        level, volume or count, which many points answer), a thing or a medium ("brine") the
        lexicon knows (with `general`, a level, volume or count too; not
        a Chinese character read alone: 池 is a pool, a tank or a basin; but, for the model
        stage's check (`general`), one the lexicon lists alone as one thing is that thing: 堰, a
        weir, which the model's pick must explain)."""
        if lone_character(term, a.toks[term.index]) and not (
                general and term.kinds == {"thing"} and len(term.concepts) == 1
                and any(end - start == 1 for start, end in term.spans)):
            return False
        quantities = set(self.quantities(term))
        return bool(quantities if general else quantities - WEAK_CONCEPTS) or \
            bool(term.kinds & {"thing", "medium"})

    def lacks_quantity(self, a: Analysis, t: Term, profile: Profile) -> bool:
        """A quantity the command names that the point neither has (by its words or its unit)
        nor is named by with the word as said: "heat flow" of a temperature ("heat" is read as
        temperature alone, not in the phrase), "steam flow" of a stock flow (a flow, but not of
        steam), whether or not another point of the plant has it."""
        if t.word == REMAINS_WORD and t.concepts & profile.quantities:
            return False  # "how many tonnes of flour left in the silo" of its level in t: what
            # remains is its level (blind batch 74), which the general quantities set aside
        quantities = set(self.quantities(t)) - GENERAL
        if not quantities or t.unit or not self.meaningful(a, t):
            return False
        own = {c for c in t.own if c.startswith("quantity.")}
        if t.word in GENERAL_WORDS or (own and own <= GENERAL):
            return False  # "level" of "oxygen level": the other word says which quantity
        # its unit says what it measures when its text does not, or a kind of what its text
        # names (kW: a heat flow, of a "Heat meter power"), but "phosphorus" is no quantity of
        # the "MLSS" point, whatever else mg/L measures
        lexicon = self.profiles.lexicon
        has = profile.concepts | profile.quantities | frozenset(
            q for q in profile.unit_quantities if not profile.named_quantities
            or lexicon.broader((q,)) & profile.named_quantities)
        if quantities & has or t.own & has or t.raw in profile.words or \
                t.word in profile.names or \
                canonical(t.raw) in _counted_in(profile.point.unit or ""):
            return False  # ("grate strokes per min" of a point in strokes/min: its unit's)
        return "thing" not in t.kinds or t.word in self.profiles.plant_words

    @staticmethod
    def quantities(term: Term) -> list[str]:
        found = [c for c in term.concepts if c.startswith("quantity.")]
        if term.unit and len(found) > 1:
            return []  # "%", "mg/L": a unit of many quantities names none for sure
        return found

    def _tells_apart(self, term: Term) -> bool:
        """A word of some point's own name, that is not a state, a role or a quantity: naming
        it says which thing is meant ("reservoir", "jaw", "carriage")."""
        if term.kinds & NOT_THINGS or term.unit or term.corrected or term.literal is False:
            return False  # nor a word read from Chinese, whose English is a near guess
        return any(w in self.profiles.name_words for w in term.alts)

    @staticmethod
    def _asked(a: Analysis, terms: list[Term]) -> str:
        return " ".join(t.shown for t in terms) or a.text

    # -- for the model -----------------------------------------------------------------------

    def offer_points(self, judgement: Judgement) -> list[str]:
        return judgement.candidates

    def describe(self, judgement: Judgement) -> dict[str, Any]:
        return {"why": judgement.why, "candidates": judgement.candidates}


def _phrased_things(words: list[str], lexicon: Lexicon) -> frozenset[str]:
    """The words of a name that a thing or medium of two words takes, whatever each means
    alone: "off" of the "Off-gas fan run" (off-gas is a gas; off alone, a state)."""
    out: set[str] = set()
    for a, b in pairwise(words):
        alone = {s.concept for s in lexicon.concepts(a) | lexicon.concepts(b)}
        if any(s.kind in ("thing", "medium") and s.concept not in alone
               for s in lexicon.concepts(f"{a} {b}")):
            out |= {a, b}
    return frozenset(out)


def _of_a_rate(toks: list[Token], i: int) -> bool:
    """Whether the word at `i` is a word of a rate said after a number, what is counted or
    its time: "40 strokes a minute", "12 strokes per minute", "200 bags an hour" (no quantity
    of its own asked: "strokes" is no valve's stroke)."""
    raw = [t.raw for t in toks]
    def rate(k: int) -> bool:  # a number, a word, per/a/an, a time, from `k`
        return k >= 0 and k + 3 < len(toks) and toks[k].number is not None and \
            raw[k + 2] in ("per", "a", "an") and raw[k + 3] in RATE_TIMES
    return rate(i - 1) or rate(i - 3)


#: the times a rate is said per
RATE_TIMES = frozenset("s sec second min minute h hr hour day shift".split())


@functools.cache
def _counted_in(unit: str) -> frozenset[str]:
    """The words of what a rate counts, as its unit spells them ("stroke" of "strokes/min")."""
    return frozenset(canonical(w) for w in re.findall(r"[a-z]{3,}", unit.casefold().split("/")[0]))
