"""Point profiles: what each point of the plant is, as the words and concepts that name it.

Built once per config from each point's name, aliases, localized names (`names`), `description`,
id, device, unit, kind and writability: its name words (what a command must name to mean it),
the other words that may explain a command's word (description, id, device), the concepts of all
of them (`meaning`), the quantity it measures or sets (from its words and its unit: a point in
NTU is a turbidity), its ids ("kiln 1": 1), and its role (a setpoint, a measurement, a command,
a state). The router matches commands against these; nothing here reads a command.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from hermesd.config.model import Point
from hermesd.replies import is_chinese
from hermesd.router.meaning import Lexicon, PlantLexicon, Sense
from hermesd.router.normalize import (
    Token,
    compounds_read,
    content,
    nitrogen_said,
    numbered_first,
    tokens,
    unit_symbol,
)
from hermesd.router.poles import point_poles
from hermesd.router.spelling import Speller
from hermesd.router.tags import a_machine, tag_described
from hermesd.router.vocabulary import (
    KINDS,
    OFF_WORDS,
    ON_WORDS,
    QUANTITIES,
    STOP,
    SYNONYMS,
    UNIT_SYMBOLS,
    WRITE_VERBS,
)
from hermesd.value_maps import spellings

#: words that make a point the target, not the measured value
SETPOINT_WORDS = frozenset(("setpoint", "sp", "target", "demand", "limit"))
SETPOINT = "role.setpoint"
COUNT = "quantity.count"
POSITION = "quantity.position"
MODE = "state.mode"
#: things whose value in a unit of position (%) is how far open they are
POSITIONED = frozenset(("thing.valve", "thing.damper"))
#: states a switch is in as much as a mode is
SWITCHED_STATES = frozenset(("state.on", "state.off", "state.running", "state.stopped"))
#: kinds of concept that say which thing a command is about, and which quantity of it
THING_KINDS = frozenset(("thing", "location"))
_SUFFIXES = ("ations", "ation", "itions", "ition", "ings", "ing", "ions", "ion", "ers", "er",
             "ors", "or", "ics", "ic", "ied", "ies", "ed", "es", "al", "ment", "s", "e", "y")
_ID_PART = re.compile(r"[a-z]+|\d+")


@functools.lru_cache(maxsize=1 << 13)
def stem(word: str) -> str:
    """A rough stem for matching word forms: "filtration", "filtered" and "filter" share
    "filt"; "dosing" and "dose" share "dos". Never shorter than three letters."""
    for _ in range(2):
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        else:
            break
    return word


@functools.lru_cache(maxsize=1 << 12)
def stems_match(a: str, b: str) -> bool:
    """Two word forms of one word: equal stems, or one stem (4+ letters) begins the other."""
    if not (a.isalpha() and b.isalpha()) or min(len(a), len(b)) < 4:
        return False
    sa, sb = stem(a), stem(b)
    if sa == sb:
        return True
    short, long_ = sorted((sa, sb), key=len)
    return len(short) >= 4 and long_.startswith(short)


@dataclass(frozen=True, slots=True)
class Profile:
    point: Point
    names: frozenset[str]  # canonical words of its name, aliases and localized names
    key: tuple[str, ...]  # the words of its name itself, ids included (what a command names)
    words: frozenset[str]  # every word that may explain a command's word (names, description,
    # id, device)
    concepts: frozenset[str]  # concepts of its text, and their broader ones
    quantities: frozenset[str]  # what it measures or sets, by its words and a sure unit
    named_quantities: frozenset[str]  # the quantities its text names
    unit: str | None  # its unit's symbol
    unit_quantities: frozenset[str]  # what its unit measures
    unit_sure: bool  # its unit measures one quantity (°C), not one of many (%)
    things: frozenset[str]  # the things and media it belongs to ("thing.tank", "medium.water")
    part_concepts: frozenset[str]  # concepts of single words of its names, not of the whole
    ids: frozenset[str]  # numbers and letters that tell it from its siblings
    pairs: frozenset[tuple[str, str]]  # ("kiln", "1"): the things it numbers
    role: str  # setpoint | measurement | command | state
    #: the concepts of its choices' names ("cleaning": the CIP), which a write of it may say
    choice_concepts: frozenset[str] = frozenset()
    #: the words only its description says (not its names, id, device or choices): what may
    #: tell which point a reading is, never enough alone for a rule to write
    described: frozenset[str] = frozenset()
    #: the opposite words its names say ("heat+", "pace-"): see `poles`
    poles: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.point.id


class Profiles:
    """Every point's profile, and what the plant's words are worth for telling points apart."""

    def __init__(self, points: Iterable[Point], lexicon: Lexicon | None = None,
                 spoken: Mapping[str, str] | None = None) -> None:
        self.lexicon: Lexicon = lexicon or default_lexicon()
        #: the names in words of points named by a tag alone ("TI-4101": "Preheater top
        #: cyclone gas outlet temperature"), which are their names as a command says them:
        #: "TI-4101" and "TI-4110" are no two gas temperatures numbered alike
        self._spoken = dict(spoken or {})
        self.by_id: dict[str, Profile] = {}
        points = list(points)
        #: the formulas the plant's names write ("co2", "l2"): one said is a word, no number
        written = {(m.group(1), m.group(2), label) for p in points
                   for label in (p.name, *p.aliases) for m in _FORMULA.finditer(label)}
        # (not a tag of a series, "Heater H1" and "Heater H2": H2 is no hydrogen there, nor
        # O2 beside an "Oven O1": review atk71)
        series = {letters.casefold() for letters, digits, label in written
                  if not self._formula(letters, digits, label)}
        named = {s.concept for p in points for label in (p.name, *p.aliases)
                 for s in self.lexicon.concepts(label)} if series else set()
        self.formulas = frozenset(
            (letters.casefold(), digits) for letters, digits, label in written
            if self._formula(letters, digits, label) and (
                letters.casefold() not in series or
                self._meant_by(letters.casefold() + digits) & named))
        # (where the gas is named in words too, "o2" is either, as said: no one point's)
        self._formula_letters = frozenset(letters for letters, _ in self.formulas)
        self.meant_formulas: frozenset[tuple[str, str]] = frozenset()
        borrowed = _machine_aliases(points, self.lexicon, self._spoken)
        called = _settings_said_as_readings(points)
        for point in points:
            self.by_id[point.id] = self._profile(point, borrowed.get(point.id, frozenset()),
                                                 called.get(point.id, ()))
        self.all = list(self.by_id.values())
        count: dict[str, int] = {}
        for profile in self.all:
            for feature in profile.words | profile.concepts:
                count[feature] = count.get(feature, 0) + 1
        n = max(1, len(self.all))
        #: how much naming a word tells points apart: rare words more than common ones
        self.weights = {f: 1.0 + math.log(n / c) for f, c in count.items()}
        self.plant_words = frozenset(w for p in self.all for w in p.words)
        self.name_words = frozenset(w for p in self.all for w in p.names)
        #: words that follow each other in a point's name ("drop", "hammer")
        self.name_bigrams = frozenset(pair for p in self.all
                                      for pair in zip(p.key, p.key[1:], strict=False))
        #: ...and three ("start", "air", "pressure")
        self.name_trigrams = frozenset(trio for p in self.all
                                       for trio in zip(p.key, p.key[1:], p.key[2:], strict=False))
        #: ("pump", "2"): the numbered things of the plant
        self.pairs = frozenset(pair for p in self.all for pair in p.pairs)
        self.speller = _speller(self.plant_words)
        self.quantities = frozenset(q for p in self.all for q in p.quantities | p.unit_quantities)
        #: ...and the formulas of gases its names write in words ("hydrogen": "h2")
        self.meant_formulas = self._formulas_of_meanings() - self.formulas
        self.formulas |= self.meant_formulas

    def spelled_in_full(self, said: dict[str, str]) -> None:
        """The words a plant's names shorten, in full (`said`: the word as said -> the name's
        short form, "slitter" -> "slit"): each point so named has the whole word, and what the
        lexicon knows it as, so that a word of the same meaning said in another language
        names it too (分切, a slitter, of "Slit tens": blind batch 32)."""
        wholes: dict[str, set[str]] = {}
        for whole, short in said.items():
            if len(whole) > len(short) and whole.startswith(short):
                wholes.setdefault(short, set()).add(whole)
        for pid, p in list(self.by_id.items()):
            full = {w for n in p.names for w in wholes.get(n, ())}
            if not full:
                continue  # (a word its device says already gives it no meaning yet)
            senses = {s for w in full for s in self.lexicon.concepts(w)}
            self.by_id[pid] = replace(
                p, words=p.words | full, concepts=p.concepts | {s.concept for s in senses},
                things=p.things | {s.concept for s in senses if s.kind in ("thing", "medium")},
                described=p.described - full)  # (its name's own word, if said in full)
        self.all = list(self.by_id.values())

    def described(self, point: Point) -> bool:
        """Whether the point's name in words is what its description says of a tag."""
        return point.id in self._spoken

    def spoken(self, point: Point) -> str:
        """The name a command says the point by: the words its description gave a tag, else
        its name."""
        return self._spoken.get(point.id, point.name)

    def thing_numbers(self, profile: Profile) -> frozenset[str]:
        """The numbers of the machines the point is of, as a command says them ("Transfer pump
        1": 1). A tag's loop number numbers no machine ("HS-408" "Transfer pump 1, run
        command": 1, not 408; "RG01 rain intensity", "FI-302": none)."""
        if self.described(profile.point):
            toks = content(tokens(self._without_formulas(self.spoken(profile.point))),
                           label=True)
            pairs = {(t.text, after.text) for t, after in itertools.pairwise(toks)
                     if after.is_id and not t.is_id}
        else:
            pairs = set(profile.pairs)
        return frozenset(n for word, n in pairs if a_machine(word))

    def siblings(self, profile: Profile) -> list[Profile]:
        """The points named as this one but for their numbers ("HP pump 2 speed setpoint" of
        "HP pump 1 speed setpoint"): which of them is meant only a number can say."""
        if not profile.ids:
            return []
        stem = _stem(profile)
        return [o for o in self.all if o is not profile and o.ids and o.ids != profile.ids
                and o.point.kind == profile.point.kind and _stem(o) == stem
                and o.poles == profile.poles]  # (the fast fill valve is no slow one's sibling)

    @functools.cached_property
    def _alternatives(self) -> dict[str, frozenset[str]]:
        by_shape: dict[tuple[int, int], list[tuple[str, ...]]] = {}
        for profile in self.all:
            key = tuple(w for w in profile.key if not w.isdigit())
            for i in range(len(key)):
                by_shape.setdefault((len(key), i), []).append(key)
        out: dict[str, set[str]] = {}
        for (_, i), keys in by_shape.items():
            rest: dict[tuple[str, ...], set[str]] = {}
            for key in keys:
                rest.setdefault(key[:i] + key[i + 1:], set()).add(key[i])
            for words in rest.values():
                if len(words) > 1:
                    for word in words:
                        out.setdefault(word, set()).update(words - {word})
        return {word: frozenset(others) for word, others in out.items()}

    def alternatives(self, word: str) -> frozenset[str]:
        """The words this plant names points with where it names others with `word`, the rest
        of their names alike ("main" and "leisure" of "Main pool pH" and "Leisure pool pH"):
        one said is not the other."""
        return self._alternatives.get(word, frozenset())

    def weight(self, feature: str) -> float:
        """How much naming it tells points apart: a word of one point much, a word of all
        little; a word of none (a filler, a word the plant does not use) as much as one of
        all: it must be explained for a rule to be sure, but it does not outweigh the rest."""
        return self.weights.get(feature, 1.0)

    def formula_words(self, toks: list[Token]) -> list[Token]:
        """ "boiler co2", "L2 current": the number of a formula of the plant's names, said, is
        a word of it and numbers nothing ("co" and "2" would make it boiler 2's, or phase L2
        feeder 2's). The tokens stay as many, where the lexicon reads "co 2" as CO2."""
        if not self.formulas:
            return toks
        out = list(toks)
        for i in range(len(out) - 1):
            t, after = out[i], out[i + 1]
            if not t.zh and not t.is_number and after.is_number and after.raw.isdigit() and (
                    (t.raw, after.raw) in self.formulas or (
                        len(t.raw) > 1 and t.raw in self._formula_letters)):
                # (and "so3" where the plant writes SO2: another formula, no thing 3)
                out[i + 1] = Token(t.raw + after.raw, after.raw)  # "co" "co2": no "2" of an id
                if t.ident and (t.raw, after.raw) in self.meant_formulas:
                    out[i] = replace(t, ident=False)  # nor is "h" of "H2" a bath H
        return out

    def other_formula(self, toks: list[Token], profile: Profile) -> str | None:
        """A formula said (`formula_words`: "l1", "co2") that the point's words do not write,
        nor its concepts mean: "feeder 1 l1 current" is no read of "Feeder 1 L3 current",
        whose "l" alone it shares (review atk11). None: every formula said is the point's."""
        said: dict[str, list[str]] = {}  # by letters: "l" -> ["l1", "l2"] ("L1 and L2 …")
        for t in toks:
            letters = t.text[:-len(t.raw)] if t.raw.isdigit() else ""
            if not t.zh and letters and t.text != t.raw and (
                    (letters, t.raw) in self.formulas or
                    (len(letters) > 1 and letters in self._formula_letters)):
                said.setdefault(letters, []).append(t.text)
        for letters, formulas in said.items():
            own = {w for w in profile.words if w[:len(letters)] == letters and
                   w[len(letters):].isdigit() and (letters, w[len(letters):]) in self.formulas}
            if len(own) > 1 and own != set(formulas):
                # "L2-L3 voltage" is no "L1-L2 voltage", nor is "l1" alone (atk12)
                return next((f for f in formulas if f not in own), formulas[0])
            if not any(f in profile.words or
                       self._meant_by(f) <= profile.concepts | profile.part_concepts or
                       self._meant_by(f) & profile.concepts  # (CO2 of a "Carbon dioxide
                       # dosing setpoint", whose concepts are the gas's and not CO2 measured)
                       for f in formulas):
                return formulas[0]  # (NH3 is the "ammonia" of an "Ammonia pump 1 running",
                # which the lexicon reads whole as a refrigerant pump: blind batch 56)
        return None

    def _sibling_named(self, concept: str, named: AbstractSet[str]) -> bool:
        """Whether the names say another kind of what `concept` is a kind of: the "total
        chlorine" a "Main pool combined chlorine" is described by ("the total chlorine minus
        the free chlorine", blind batch 73) is no quantity it measures."""
        mine = self.lexicon.broader((concept,)) - {concept}
        return any(n != concept and concept not in (kinds := self.lexicon.broader((n,)))
                   and n not in self.lexicon.broader((concept,)) and (kinds - {n}) & mine
                   for n in named)

    def by_description(self, word: str, concepts: frozenset[str], profile: Profile) -> bool:
        """Whether the point explains a command's word by its description alone (the word, or
        a concept of it, the description has and none of its names): a description tells the
        model what a point is; it does not make the rules sure (review atk12: "set dryer
        moisture to 15" wrote a "Metering roll speed" described "… out of the dryer; controls
        moisture")."""
        described = profile.described - profile.names
        if not described or word in profile.names:
            return False
        named = {s.concept for w in profile.names for s in self.lexicon.concepts(w)}
        if concepts & named or (profile.unit_sure and concepts & profile.unit_quantities):
            return False  # (nor what its unit surely measures: "dose" of a setpoint in kg/t;
            # a % measures too much to say)
        return word in described or bool(concepts & {
            s.concept for w in described for s in self.lexicon.concepts(w)})

    def _formulas_of_meanings(self) -> frozenset[tuple[str, str]]:
        """The formulas the lexicon knows ("h2", "o2", "nh3") whose meaning a point of the plant
        names in words: "tin bath H2 setpoint" of a "Tin bath hydrogen setpoint" (blind batch
        70: "h" and "2" were a bath H2). Not letters the plant letters or numbers a thing by
        ("H2" of a plant with a "Bath H" or a "Heater H1", "N2" of a "Line N1" and "Line N2":
        review atk71), nor a tag a point has."""
        meant = {c for p in self.all for c in p.concepts}
        ids = {i for p in self.all for i in p.ids}
        letters = {x for _, x in self.pairs} | {w for w, _ in self.pairs}
        out = set()
        for form in self.lexicon.formulas():
            m = re.fullmatch(r"([a-z]+)(\d+)", form)
            if m is not None and form not in ids and m.group(1) not in letters and \
                    self._meant_by(form) & meant and self._formula(m.group(1), m.group(2)):
                out.add((m.group(1), m.group(2)))
        return frozenset(out)

    def _meant_by(self, formula: str) -> frozenset[str]:
        """What the lexicon reads a formula as; the word itself when nothing (which no
        point's concepts hold)."""
        return frozenset(s.concept for s in self.lexicon.concepts(formula)) or \
            frozenset((formula,))

    def _formula(self, letters: str, digits: str, label: str = "") -> bool:
        """ "pO2", "CO2", "NH3", "L2" in a name: a measure of a gas or a phase, its number no
        thing's (the "2" of "BR1 pO2" is no bioreactor 2). A lower-case letter before capitals
        (pO2, pCO2), or a formula the lexicon knows whole as other than its letters (CO2 is no
        CO). "NO2" in capitals in a `label` that writes small letters too is nitrogen dioxide
        (as `normalize.tokens` reads it)."""
        if letters.casefold() in _NUMBER_MARKS and not (letters == "NO" and
                                                        nitrogen_said(label)):
            return False  # "Transfer pump No2" is pump 2, whatever NO2 is
        if re.fullmatch(r"[a-z][A-Z][A-Za-z]*", letters):
            return True
        whole = {s.concept for s in self.lexicon.concepts(letters + digits)}
        return bool(whole) and not whole & {s.concept for s in self.lexicon.concepts(letters)}

    def _without_formulas(self, label: str) -> str:
        """The label with each formula's digits left out ("Boiler 2 O2 trim": "Boiler 2 O
        trim")."""
        label = compounds_read(label)  # (the 3 of "H3PO4" numbers nothing)
        return _FORMULA.sub(lambda m: m.group(1) if self._formula(m.group(1), m.group(2), label)
                            else m.group(0), label)

    def _profile(self, point: Point, borrowed: frozenset[str] = frozenset(),
                 called: tuple[str, ...] = ()) -> Profile:
        labels = [point.name, *point.aliases, *point.names.values(), *called]
        label_toks = [self.formula_words(content(tokens(label), label=True))
                      for label in labels]
        names = {t.text for toks in label_toks for t in toks if not t.is_id}
        # the numbers of the names without their formulas: "Boiler 2 O2 trim" is boiler 2's,
        # by the 2 it writes apart, not the one of O2 (nor is the boiler unnumbered)
        numbered = [content(tokens(self._without_formulas(label)), label=True)
                    for label in labels]
        # (and a tag-named alarm's as its description numbers its thing: `_alarm_described`)
        numbered_too = [*numbered, *(content(tokens(self._without_formulas(label)), label=True)
                                     for label in _alarm_described(point))]
        ids = {t.text for toks in numbered_too for t in toks if t.is_id}
        pairs = {(t.text, toks[i + 1].text) for toks in numbered_too for i, t in
                 enumerate(toks[:-1]) if not t.is_id and toks[i + 1].is_id} | {
            # "#3 retort temperature": numbered first, retort 3
            (toks[1].text, toks[0].text) for toks, label in zip(numbered, labels, strict=True)
            if len(toks) > 1 and toks[0].is_id and not toks[1].is_id and numbered_first(label)
        } | {
            # "Storage tank T-1", "Hydrant pump P-101A": a tag's letter is its thing's first,
            # and the number after it numbers the thing (tank 1, pump 101: blind batch 32)
            (t.text, toks[i + 2].text) for toks in numbered_too for i, t in enumerate(toks[:-2])
            if not t.is_id and toks[i + 1].ident and toks[i + 1].text == t.text[:1]
            and toks[i + 2].text.isdigit()}
        own = self.formula_words(content(tokens(self._spoken.get(point.id, point.name)),
                                         label=True))
        key = tuple(t.text for t in own)
        extra = content(tokens(point.description or ""))
        id_words = [w for w in _ID_PART.findall(point.id.casefold()) if not w.isdigit()]
        device_words = [w for w in _ID_PART.findall(point.device.casefold())
                        if not w.isdigit()]
        choices = [t for _, said in spellings(point) for t in content(tokens(said))]
        unit_quantities, unit_sure = self.lexicon.unit(point.unit) if point.unit \
            else (frozenset(), False)
        senses: set[Sense] = set()
        for text in labels:
            senses |= self.lexicon.concepts(text, unit_quantities)
        if point.kind == "bool" or any(s.kind == "quantity" for s in senses):
            # "too cold" of a switch's description is no temperature it tells (see below),
            # nor is "leaving the cooler, target about 12 %" of a "Dried pasta moisture" a
            # temperature or a setpoint: a description tells the quantity of a point whose
            # names tell none
            extra = [t for t in extra if t.text not in QUANTITIES | SETPOINT_WORDS]
        words = names | {t.text for t in extra + choices if not t.is_id} | \
            {tok.text for w in id_words + device_words for tok in tokens(w)}
        # ("22 bags" of a point in bags/h; "40 minutes" of one in min)
        rated = counted_by(point.unit) | _TIME_SAID.get((point.unit or "").strip().casefold(),
                                                        frozenset())
        words = (words | borrowed | rated) - STOP
        described = words - names - borrowed - {t.text for t in choices} - rated - \
            {tok.text for w in id_words + device_words for tok in tokens(w)}
        unit = unit_symbol(point.unit) if point.unit else None
        if point.description:
            # a description's quantities are what the point measures or sets only where its
            # names say none and it holds a number ("TCU setpoint": "holds the mould
            # temperature"); an on/off switch "run when the seawater is too cold" tells no
            # temperature, nor does a mode "slow running in wind" a wind speed
            counted = point.kind in ("int", "float") and not point.choices and \
                not any(s.kind == "quantity" for s in senses)
            # ...or a kind of the quantity its names say, and its unit measures
            # ("B_Pasta_01.Presion" in bar, described as the pump's discharge pressure; not
            # the "DO loop" of an "O2 sparge flow setpoint")
            named = {s.concept for s in senses if s.kind == "quantity"}
            # ...and, of a setpoint whose unit says what it sets, only that: "Caustic demin
            # water setpoint" in L/h, described as holding the loop's strength, sets a flow,
            # no concentration (blind batch 31); a measurement's description says what it
            # stands for (a drive in Hz described as a fan's speed: review atk42)
            senses |= {s for s in self.lexicon.concepts(point.description, unit_quantities)
                       if s.kind != "quantity" or (counted and (
                           not unit_quantities or not names & SETPOINT_WORDS
                           or s.concept in unit_quantities
                           or self.lexicon.broader((s.concept,)) & unit_quantities))
                       or (point.kind in ("int", "float") and self.lexicon.broader(
                           (s.concept,)) & named & unit_quantities
                           and not self._sibling_named(s.concept, named))}
        # and of each word of its names alone, which explain less: "Backwash blower" is a
        # blower, of a backwash
        parts: set[Sense] = set()
        for word in {t.raw for toks in label_toks for t in toks if len(t.raw) >= 3}:
            parts |= self.lexicon.concepts(word)
        quantities = {s.concept for s in senses if s.kind == "quantity"}
        named_quantities = frozenset(quantities)
        if unit_sure:
            quantities |= unit_quantities
        if not quantities and POSITION in unit_quantities and \
                any(s.concept in POSITIONED for s in senses):
            quantities.add(POSITION)  # "Substation 1 control valve" in %: its position
        if point.kind == "int" and point.unit and not unit_quantities:
            quantities.add(COUNT)  # "bottles", "logs": a count of things
        concepts = {s.concept for s in senses} | quantities
        # "Pump 5 cmd": a switch's command, no value held ("cmd" sets a drive's speed)
        no_setting = point.kind == "bool" and not names & SETPOINT_WORDS
        if no_setting:
            concepts.discard(SETPOINT)
        if len(point.choices) >= 2 and point.writable:
            # a choice among named ones, set, is a mode ("Train wash programme"); one only
            # read is a state, a fault code, a position ("Kiln alarm priority" is no mode)
            concepts.add(MODE)
        if names & SETPOINT_WORDS or SETPOINT in concepts:
            role = "setpoint"
        elif point.kind == "bool":
            role = "command" if point.writable else "state"
        else:
            role = "measurement"
        things = {s.concept for s in senses if s.kind in ("thing", "medium")}
        part_concepts = {s.concept for s in parts} - concepts - ({SETPOINT} if no_setting else set())
        # (not on/off, running/stopped: said of a switch as much as of a mode's choice, they
        # name the choice only in its own words; "wash bay pump turned off" had set the pump's
        # mode to `off` beside its run switch)
        choice_concepts = {s.concept for _, said in spellings(point)
                           for s in self.lexicon.concepts(said)} - concepts - SWITCHED_STATES
        return Profile(point, frozenset(names), key, frozenset(words), frozenset(concepts),
                       frozenset(quantities), named_quantities, unit, unit_quantities, unit_sure,
                       frozenset(things), frozenset(part_concepts), frozenset(ids),
                       frozenset(pairs), role, frozenset(choice_concepts),
                       frozenset(described), point_poles(point))


#: a count per a time, as a faceplate writes it ("copies/h", "head/h", "strokes/min")
_A_RATE = re.compile(r"([^\W\d_]{3,})\s*/\s*(?:s|sec|min|h|hr|hour|d|day|shift)")


#: a time's unit as it is said, in tokens (plurals made singular)
_TIME_SAID = {unit: frozenset(said.split()) for units, said in (
    ("s sec secs", "s sec secs second"), ("min mins", "min mins minute"),
    ("h hr hrs", "h hr hrs hour"), ("d days", "d day")) for unit in units.split()}


def counted_by(unit: str | None) -> frozenset[str]:
    """What a rate's unit counts ("copies" of "copies/h"): "22000 copies" is said of it. (Its
    time, "an hour", is not read as its: atk32 found "set it to 4000 an hour" written to the
    one point in copies/h, of three per hour.)"""
    found = _A_RATE.fullmatch(unit.strip().casefold()) if unit else None
    return frozenset(t.text for t in content(tokens(found.group(1)))) if found else frozenset()


#: letters and the number written against them in a name ("pO2", "CO2", "BR1")
#: letters that say "number" before one ("No2", "Nr 3")
_NUMBER_MARKS = frozenset(("no", "nr", "num"))
_FORMULA = re.compile(r"(?<![^\W\d_])([A-Za-z]+)(\d+)(?![\d.])")


def _machine_aliases(points: list[Point], lexicon: Lexicon,
                     spoken: Mapping[str, str] | None = None) -> dict[str, frozenset[str]]:
    """ "Ironer" (a switch named by its machine) with the alias "flatwork ironer": the machine is
    called so on the plant, and every point named after it ("Ironer speed", "Ironer fault") may
    be named so too. The words of such aliases, by the points they explain besides their own."""
    def words(label: str) -> list[str]:
        return [t.text for t in content(tokens(label), label=True)]

    named = [(p.id, words(p.name)) for p in points]
    borrowed: dict[str, set[str]] = {}
    for point in points:
        if point.kind != "bool" or not point.aliases:
            continue
        machine = words(point.name)
        if not machine:
            continue
        extra = {w for alias in point.aliases for w in words(alias)} - set(machine)
        for pid, name in named:
            if pid != point.id and _names_thing(name, machine):
                borrowed.setdefault(pid, set()).update(extra)
    for pid, extra in _renamed_things(points, named, lexicon, spoken or {}).items():
        borrowed.setdefault(pid, set()).update(extra)
    for pid, extra in _twins_translated(points).items():
        borrowed.setdefault(pid, set()).update(extra)
    return {pid: frozenset(w) for pid, w in borrowed.items()}


#: the words a setting's name adds to the name of the reading it sets
_SETTING_AFTER = ("setpoint", "set point", "set-point", "sp", "target", "setting")


def _settings_said_as_readings(points: list[Point]) -> dict[str, tuple[str, ...]]:
    """ "Thermal oil flow temperature setpoint" beside a "Thermal oil flow temperature"
    aliased "hot oil flow temp": the setting may be called as its reading is, with its own
    word after ("hot oil flow temp setpoint"), by point (blind batch 72: "hot oil flow temp to
    300" was refused, "hot" being the reading's word alone)."""
    readings = {p.name.casefold().strip(): p for p in points if p.aliases}
    out: dict[str, tuple[str, ...]] = {}
    for point in points:
        if not point.writable or point.kind == "bool":
            continue
        name = " ".join(point.name.casefold().split())
        for after in _SETTING_AFTER:
            reading = readings.get(name[:-len(after)].strip()) if name.endswith(" " + after) \
                else None
            if reading is not None and reading is not point and not reading.writable:
                # (not an alias with a number: "R1 DO" of a "Raceway 1 dissolved oxygen"
                # says which raceway by its letter, which the setpoint's names do not write)
                out[point.id] = tuple(f"{alias} {after}" for alias in reading.aliases
                                      if not any(c.isdigit() for c in alias))
                break
    return out


def _twins_translated(points: list[Point]) -> dict[str, set[str]]:
    """A point with no Chinese name nor description whose English name is a twin's but for its
    number ("Oven Z4 temp" beside "Oven Z1 temp", 一区烘箱温度): where the twin's Chinese name
    says which place along the line its number counts (a zone), so does its (blind batch 32)."""
    def shape(label: str) -> tuple[str, ...]:
        return tuple("#" if t.is_id else t.text for t in content(tokens(label), label=True))

    translated: dict[tuple[str, ...], set[str]] = {}
    for p in points:
        zh = [n for n in p.names.values() if is_chinese(n)]
        if zh:
            translated.setdefault(shape(p.name), set()).update(
                t.text for n in zh for t in content(tokens(n), label=True)
                if not t.is_id and t.text in _PLACES)
    out: dict[str, set[str]] = {}
    for p in points:
        words = translated.get(shape(p.name))
        if words and "#" in shape(p.name) and not p.description and \
                not any(is_chinese(n) for n in p.names.values()):
            out[p.id] = words
    return out


#: the words a twin's Chinese name may lend: where along a line it is ("zone" of 一区), which
#: its number says of the other too; never what it is (给水泵 of pump 1 is no word of pump 2,
#: which may be a condensate pump: review atk43)
_PLACES = frozenset("zone section stage area bay cell deck pass effect floor storey".split())


def _names_thing(name: list[str], thing: list[str]) -> bool:
    """Whether a name is of the thing these words name: it opens with them, or has them after
    what is measured ("Ironer speed" of the ironer, "Reactive power at the point of
    connection"); not after another word of a thing ("Station main transformer load" is no
    main transformer's, "Transfer pump 2 pressure" no pump 2's — review atk11)."""
    n = len(thing)
    return bool(thing) and any(name[i:i + n] == thing and (i == 0 or any(
        KINDS.get(w) in ("quantity", "role") for w in name[:i]))  # ("Power factor at the
        for i in range(len(name) - n + 1))                        # point of connection")


#: words that name no thing, whatever an alias has them beside ("load-out belt", "run back")
_NO_THING = STOP | WRITE_VERBS | ON_WORDS | OFF_WORDS | frozenset(
    "out in down back over through away run running".split())

#: a word of a name that numbers or letters its thing ("2", "b")
_NUMBERED = re.compile(r"\d+|[a-z]")
#: what a word means that is no thing's name: "rate", "auto", "air", "discharge"
_NO_THING_KINDS = frozenset(("quantity", "state", "role", "modifier", "medium"))


def _renamed_things(points: list[Point], named: list[tuple[str, list[str]]],
                    lexicon: Lexicon, spoken: Mapping[str, str]) -> dict[str, set[str]]:
    """ "MPT top oil", "GSU oil temperature" of "Main transformer top oil temperature": an alias
    that says the point's own words but calls the thing they are of by a word no name has names
    that thing so ("MPT", "GSU" = "main transformer"), and every point named after the same thing
    may be called so too ("WTI on the GSU" of "Main transformer winding hot spot temperature").
    The thing is the run of the name's words the alias leaves out, bar the quantity and role
    it may drop ("temperature", "setpoint"), cut to what other points' names share."""
    def words(label: str) -> list[str]:
        return [t.text for t in content(tokens(label), label=True)]

    in_names = {w for _, name in named for w in name}
    said: dict[tuple[str, ...], set[str]] = {}
    for point in points:
        # (a tag's name as its description says it: "natatorium supply air" of an "AHU2-SAT"
        # described as AHU-2's supply air temperature calls AHU-2 the natatorium's)
        name = words(spoken.get(point.id, point.name))
        for alias in point.aliases:
            own = words(alias)
            extra = [w for w in own if w not in name]
            if any(w in in_names or w in _NO_THING or KINDS.get(w) or not w.isalpha()
                   or len(w) < 2 or any(s.kind in _NO_THING_KINDS for s in lexicon.concepts(w))
                   for w in extra):
                continue  # "tank" a name says of another thing; "2" of "O2"
            left = [i for i, w in enumerate(name) if w not in own and KINDS.get(w) not in
                    ("quantity", "role")]
            if not extra or len(extra) > 2 or len(extra) == len(own) or not left or \
                    left != list(range(left[0], left[-1] + 1)):
                continue  # a new name for the whole point, or words left out here and there
            run = name[left[0]:left[-1] + 1]
            things = [i for i, w in enumerate(run) if any(
                s.kind == "thing" for s in lexicon.concepts(w))]
            while run and not any(pid != point.id and _names_thing(other, run)
                                  for pid, other in named):
                # "main transformer top" to "main transformer"; never "boiler 2" to
                # "boiler": the word names boiler 2, not every boiler; never "steam boiler"
                # to "steam" (atk11): a run that has lost its thing names none
                run = run[:-1] if not _NUMBERED.fullmatch(run[-1]) and not any(
                    _NUMBERED.fullmatch(w) for w in run[:-1]) and (
                    not things or len(run) - 1 > things[-1]) else []
            if run:
                said.setdefault(tuple(run), set()).update(extra)
    renamed: dict[str, set[str]] = {}
    for thing, calls in said.items():
        for pid, name in named:
            if _names_thing(name, list(thing)):
                renamed.setdefault(pid, set()).update(calls)
    return renamed


def _stem(profile: Profile) -> tuple[str, ...]:
    """The words of a point's own name without its numbers: ("unit", "active", "power",
    "setpoint") of "Unit 2 active power setpoint"."""
    return tuple(k for k in profile.key if k not in profile.ids)


@functools.cache
def default_lexicon() -> Lexicon:
    """The shipped plant lexicon, loaded once."""
    return PlantLexicon()


def _speller(plant_words: frozenset[str]) -> Speller:
    """What a typo may be taken for: the plant's own words and the synonyms' (never any word
    of the lexicon: "timber" is no slip of "timer", though one letter apart)."""
    known = set(plant_words) | set(SYNONYMS) | set(UNIT_SYMBOLS)
    return Speller(w for w in known if len(w) >= 4 and w.isalpha() and w.isascii())


def _alarm_described(point: Point) -> tuple[str, ...]:
    """A read-only on/off point named by its tag alone is numbered as its description numbers
    its thing ("XA-4342", "Cooler fan 2 motor trip": cooler fan 2's), though its description
    names it to no switching command (`said_as_described`)."""
    if point.kind != "bool" or point.writable:
        return ()
    described = tag_described(point)
    return (described,) if described else ()
