"""Which words of a command a point explains, and how well.

A command's *terms* are its words that say which point is meant: not stop words, verbs, question
words, values, fillers or plural marks (numbers and letters that name things are ids, read apart).
A point explains a term by its own name (best), a concept they share ("how hot" and
"temperature", "温度" and "temperature"), its unit or the quantity the unit measures ("NTU",
"rpm"), a word of its description, id or device, or another form of one of those words
("filtration", "filtered"). A term may first be taken for the plant word it is one slip away
from ("turbidty"). The rules place a command only when one point explains every term exactly;
the semantic stage ranks points by how much of the command they explain.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass, replace

from hermesd.router.choices import CHOICE_MARKS
from hermesd.router.concepts import lexicon
from hermesd.router.meaning import Sense
from hermesd.router.normalize import (
    YES_NO_MARK,
    Token,
    canonical,
    flame_verb,
    quantity_noun,
    question_mark,
    unit_key,
)
from hermesd.router.profiles import Profile, Profiles, counted_by, stems_match
from hermesd.router.vocabulary import (
    BOOL_STATES,
    CHANGE_WORDS,
    FILLERS,
    GREETINGS,
    MEDIUM_QUALIFIERS,
    MOTION_AT,
    OFF_WORDS,
    ON_WORDS,
    PLURAL_MARKS,
    QUANTITIES,
    STOP,
    SUMMARY_WORDS,
    THANKS,
    UNIT_WORDS,
    WH_START,
    WRITE_VERBS,
    YES_NO_START,
)

#: how much of a substance there is in another, said of a point named by the substance
_AMOUNTS_IN = frozenset(("quantity.concentration",))
#: ...in a unit of how much of it is in a volume ("%" is not one: a tank's level in % is no
#: strength of what is in it)
#: (as `unit_key` folds them)
_AMOUNT_UNITS = frozenset("ppm ppb ppmv mg/l mg/m3 µg/m3 ug/m3 g/l g/m3 %vol vol% %lel".split())


def a_strength(p: Profile) -> bool:
    """Whether a point measures how much of a substance is in another, by its words or its
    unit (a "PAA concentration", a "Free chlorine" in ppm; not a level in %)."""
    return bool(p.quantities & _AMOUNTS_IN) or unit_key(p.point.unit or "") in _AMOUNT_UNITS


#: the states of a point that tell something is wrong, never whether its thing runs
FAULT_STATES = frozenset(("state.fault", "state.tripped", "state.alarm"))
#: how well a point explains a command's word, by how
EXACT, CONCEPT, UNIT_QUANTITY, FORM, TEXT, FEW, TEXT_FORM, MAYBE = \
    1.0, 0.9, 0.8, 0.8, 0.7, 0.7, 0.6, 0.5
PART = 0.75  # a concept of one word of a point's name, which its whole name means otherwise
#: a Chinese word whose concept's English forms share a telling word with the point's name:
#: 进水 (inlet: "intake side") of the "Intake pump", 排气阀 ("vent valve") of a "vent"
BRIDGE = 0.6
#: ...telling: a word of at most this many concepts' English forms ("side", "system", "unit",
#: "room" are of dozens), and not alone a form of a quantity, state, role or broad thing
BRIDGE_SPREAD = 6
#: kinds of concept a Chinese word may be bridged by (a quantity is what it is: 甲烷 is no
#: "limit" of a point because "lower explosive limit" is a form of methane)
_BRIDGED = frozenset(("thing", "modifier", "medium"))
FEW_QUANTITIES = 3  # a unit of at most this many quantities names each fairly well
NEAR, NEAR_PREFIX, NEAR_LENGTH = 0.3, 3, 5  # "salty" begins like "salinity": a hint
TYPO = 0.9  # a corrected word explains a little less than one written right
#: quantities many points answer by their unit: a level ("how full"), a volume, a count
GENERAL = frozenset(("quantity.level", "quantity.volume", "quantity.count"))
#: ...and their words, which explain no other word of a phrase ("chlorine level" is no level)
GENERAL_WORDS = frozenset("level amount volume count total value reading".split())
ALL = "modifier.all"
_THINGS = ("thing.", "medium.")  # "all", "every", "both", 所有, 两个, 都: marks a plural, names nothing
#: kinds of concept that make a word a term even where it is a stop word ("DO", "in")
_NAMING = frozenset(("quantity", "thing", "medium"))
#: concepts that say nothing about which point: "the reading", "what is"
#: what a device's "skid", "unit" or "system" is, as anything is (review atk41)
_ANY_MACHINE = "thing.machine"
_IGNORED = frozenset(("role.measured", "action.read", "role.status_word", ALL))
_NOT_TERMS = (WRITE_VERBS | ON_WORDS | OFF_WORDS | CHANGE_WORDS | YES_NO_START | WH_START
              | GREETINGS | THANKS | FILLERS | PLURAL_MARKS | SUMMARY_WORDS | STOP
              | {YES_NO_MARK, "?fix", "?not", "", "had", "bring", "take", "knock"})  # ("bring
# the wire speed up to 850", "take jet 1 up to 150 °C", "knock the fan down to 65 %")


@dataclass(frozen=True, slots=True)
class Term:
    """A word of a command that says which point is meant."""

    index: int  # its token's place in the command
    raw: str  # as written (a Chinese word: its English word)
    shown: str  # as the person wrote it
    word: str  # canonical, after a typo fix
    #: every word a Chinese word stands for ("给水": feed, water): any of them explains it
    alts: tuple[str, ...]
    concepts: frozenset[str]
    kinds: frozenset[str]
    unit: str  # a unit's symbol
    corrected: bool  # `word` is the plant word this one is a slip of
    weight: float  # how much naming it tells points apart
    #: the plant names points with this very word: only a point named by it explains it
    #: ("jaw crusher" is a crusher, but the cone crusher is no jaw); a quantity is the
    #: exception, which a point's unit may explain
    literal: bool = False
    #: its concepts and their broader ones: what a unit of the point may explain it by (a
    #: "tool temperature" by a point in °C)
    broader: frozenset[str] = frozenset()
    #: where the lexicon found the phrases it is part of (words of one phrase share them)
    spans: frozenset[tuple[int, int]] = frozenset()
    #: the kinds of what the lexicon finds in its own word, alone ("ammonia": a quantity)
    own_kinds: frozenset[str] = frozenset()
    #: ...and those concepts, with their broader ones ("exhaust" alone: exhaust air, air)
    own: frozenset[str] = frozenset()


#: a verb of what a machine draws, which says nothing of which point is asked ("drawing",
#: "making", "putting out" do: an import, a production, an output)
_DRAWING = frozenset(("pulling", "pushing", "shifting", "drawing"))
#: a change into a state ("gone into divert", "went into alarm"): the state is asked after
_GONE = frozenset(("gone", "went", "go", "gets", "got"))
_WHAT_HOW = frozenset("what what's whats how how's hows".split())

def terms(text: str, toks: list[Token], profiles: Profiles, *, spell: bool = True,
          senses: list[frozenset[Sense]] | None = None) -> list[Term]:
    """The terms of a command's tokens (`text`: the command, where the lexicon reads it;
    `senses`: of each token, when they are known already)."""
    slips: dict[int, str] = {}
    if senses is None:
        senses = profiles.lexicon.senses(text, toks)
        if spell:
            senses, slips = _phrases_of_slips(toks, senses, profiles)
    shared = Counter(s for found in senses for s in found)  # tokens of each match
    out: list[Term] = []
    # ("light the fire pump?" asks, and names no fire pump: review atk56)
    lit = None if any(question_mark(c) for c in text) else flame_verb(toks)
    for i, t in enumerate(toks):
        if i == lit:
            continue  # "light the flare": what is lit is named after the verb
        kinds = {s.kind for s in senses[i]}
        if t.zh and t.written and out and out[-1].index == i - 1 and \
                toks[i - 1].written == t.written:  # one Chinese word, several English words
            last = out[-1]
            out[-1] = replace(last, alts=(*last.alts, t.text),
                              concepts=last.concepts | {s.concept for s in senses[i]},
                              kinds=last.kinds | kinds,
                              weight=min(last.weight, profiles.weight(t.text)))
            continue
        # "DO" is dissolved oxygen, whatever the stop word "do" is; the "how" of "how hot" is
        # still a stop word (the phrase has its own word), and a verb is never a name
        named = (t.raw in STOP and any(s.kind in _NAMING and shared[s] == 1
                                       for s in senses[i])) \
            or quantity_noun(toks, i) or (t.zh and t.text in QUANTITIES) \
            or _a_name_after_an_article(t, i, toks, profiles) \
            or a_cooler(t, i, toks) \
            or _a_switch_word_named(t, i, toks, profiles) \
            or _a_setting_of(t, i, toks, senses)
        # ("motor current", in the rules too (no lexicon); 电流, "current", a quantity and never
        # the English "currently"; "put the lock in manual"; "the kiln cooler"; "the start
        # delay")
        # "flue gas O2": a letter the lexicon read with the number after it is a formula's,
        # not a letter naming one of several ("line a")
        formula = t.ident and i + 1 < len(toks) and bool(senses[i] & senses[i + 1])
        if t.raw.isdigit() and not t.is_number:
            continue  # the "2" of "CO2" (`Profiles.formula_words`): the letters' term has it
        if (t.is_id and not formula) or t.unreadable or (not t.unit and not named and (
                t.raw in _NOT_TERMS or t.text in _NOT_TERMS or t.raw in UNIT_WORDS)):
            continue
        if t.raw in MOTION_AT and i + 1 < len(toks) and toks[i + 1].raw == "at":
            continue
        if t.raw in ("times", "time") and i > 1 and toks[i - 1].raw == "many" and \
                toks[i - 2].raw == "how":
            continue  # "how many times has PS03 spilled": a count, no time
        if t.raw in _GONE and i + 1 < len(toks) and toks[i + 1].raw in ("into", "onto", "in"):
            continue  # "has the pasteuriser gone into divert": what it is in is asked
        if _predicate(t, i, toks, profiles):
            continue  # "what pressure is the press squeezing at", "how many pallets has the
            # wrapper handled"
        if _per_time(t, i, toks, senses):
            continue  # the "per" of "160 birds per minute" (its time is a term, which a
            # point in birds/min explains: `per_its_time`)
        if _how_it_goes(t, i, toks, senses):
            continue  # "how hot is the second stack running", "what's stack 1 pulling in amps",
            # "what tension are we running on the rewind", "how many cubes an hour are we
            # pushing into the ring main"
        found: set[Sense] = set(senses[i])
        if _remaining(t, i, toks):
            # "how much LOX have we got left": how much remains (a level, a volume, a
            # weight, a charge), no side (blind batch 52)
            out.append(Term(i, t.raw, t.shown, REMAINS_WORD, (REMAINS_WORD,), _REMAINS,
                            frozenset(("quantity",)), "", False,
                            _weight(REMAINS_WORD, _REMAINS, profiles),
                            broader=profiles.lexicon.broader(_REMAINS)))
            continue
        if not t.unit and senses[i] and all(s.kind == "action" or s.concept in _IGNORED
                                            for s in senses[i]):
            if not _noun_of_a_verb(t, i, toks, senses, profiles):
                continue  # a verb ("启动", "switch off"), or "the reading"
            # "fan speed up to 70": the speed of the fan, whatever "speed up" is alone
            found = {s for s in profiles.lexicon.senses(t.raw, [t])[0] if s.kind != "action"}
        word, corrected = (slips[i], True) if i in slips else (t.text, False)
        if spell and not corrected and not t.zh and not t.unit and word not in profiles.plant_words \
                and not found and not _inflected(word, profiles.plant_words):
            fixed = profiles.speller.correct(word)
            if fixed is not None:
                word, corrected = fixed, True
                found = set(profiles.lexicon.senses(word, [Token(word, word)])[0])
        concepts = frozenset(s.concept for s in found)
        out.append(Term(i, t.raw, t.shown, word, (word,), concepts,
                        frozenset(s.kind for s in found), t.unit, corrected,
                        _weight(word, concepts, profiles),
                        # (a quantity or a role is said in many words: "SP", "setpoint")
                        literal=not t.zh and word in profiles.name_words
                        and not {s.kind for s in found} & _SAID_MANY_WAYS,
                        broader=profiles.lexicon.broader(concepts),
                        spans=frozenset(s.span for s in found if s.span is not None),
                        own_kinds=_own_kinds(t, profiles) if found else frozenset(),
                        own=_own(t, profiles) if found else frozenset()))
    if all(t.word == REMAINS_WORD for t in out):
        return []  # "how much is left": of what, nothing says (review atk56b)
    return out


_SAID_MANY_WAYS = frozenset(("quantity", "role"))


def _slip(t: Token, found: frozenset[Sense], profiles: Profiles) -> str | None:
    """The plant word a word of no meaning is a slip of (as `terms` corrects it), if any."""
    word = t.text
    if t.zh or t.unit or found or word in profiles.plant_words or \
            _inflected(word, profiles.plant_words):
        return None
    return profiles.speller.correct(word)


def _phrases_of_slips(toks: list[Token], senses: list[frozenset[Sense]], profiles: Profiles
                      ) -> tuple[list[frozenset[Sense]], dict[int, str]]:
    """The senses of the tokens, where a slip broke a phrase: "nitrogen dioxde level" is a
    nitrogen dioxide level (blind batch 61), not nitrogen and an unknown word. The words of a
    phrase the corrected words make take its senses; every other keeps its own. With the
    slips that are in such a phrase, and their corrections."""
    fixed = {i: w for i, t in enumerate(toks) if (w := _slip(t, senses[i], profiles))}
    if not fixed:
        return senses, {}
    words = [fixed.get(i, t.raw) for i, t in enumerate(toks)]
    again = profiles.lexicon.senses(" ".join(words), [Token(w, w) for w in words])
    out = list(senses)
    slips = {}
    for i, word in fixed.items():
        phrase = {s.span for s in again[i] if s.span is not None}
        if not phrase or all(len([k for k in range(len(toks)) if span in {
                s.span for s in again[k]}]) < 2 for span in phrase):
            continue  # (a word alone is corrected as `terms` corrects it)
        slips[i] = word
        for k in range(len(toks)):
            if {s.span for s in again[k]} & phrase:
                out[k] = again[k]
    return out, slips


def _inflected(word: str, known: frozenset[str]) -> bool:
    """Whether a word is another form of a word the plant writes ("leading" of a description's
    "leads"), which is no slip of a word one letter away ("leaving": blind batch 31)."""
    for ending in ("ing", "ed", "es", "s", "er"):
        if len(word) > len(ending) + 2 and word.endswith(ending):
            stem = word[:-len(ending)]
            if {stem, stem + "e", stem + "s", stem + "es"} & known:
                return True
    return False


def _weight(word: str, concepts: frozenset[str], profiles: Profiles) -> float:
    """How much a word tells points apart (`Profiles.weight`); a unit the plant's names do
    not say ("cSt") as much as the points in that unit are few."""
    units = {c for c in concepts if c.startswith("unit.")}
    if not units or word in profiles.weights:
        return profiles.weight(word)
    having = sum(1 for p in profiles.all if p.point.unit and units & unit_ids(p.point.unit))
    return 1.0 + math.log(len(profiles.all) / having) if having else profiles.weight(word)


_ARTICLES = frozenset("the a an this that".split())


#: what remains is measured as: "how much is left" of a tank's level, a silo's weight, a
#: battery's charge
_REMAINS = frozenset(("quantity.level", "quantity.volume", "quantity.weight",
                      "quantity.state_of_charge", "quantity.time"))
REMAINS_WORD = "remaining"
#: words after which "left" is what remains ("is left", "have we got left")
_LEFT_AFTER = frozenset("is are got have has still much many".split())


def _remaining(t: Token, i: int, toks: list[Token]) -> bool:
    """ "left" said of what remains, asked "how much"/"how many" or after "is"/"got", at the
    end or before where it is ("how much water is left in tank 2"); not a side ("left burner
    temperature", "the left kiln")."""
    if t.raw != "left" or t.zh or i == 0:
        return False
    after = toks[i + 1].raw if i + 1 < len(toks) else None
    asked = any(x.raw in ("much", "many") for x in toks[:i])
    # (not "what is left on": what still runs)
    return (after is None or after in ("in", "at", "over", "for")) and \
        (asked or toks[i - 1].raw in _LEFT_AFTER)


def a_cooler(t: Token, i: int, toks: list[Token]) -> bool:
    """"cooler" with more said after it is the machine ("switch the kiln cooler to manual":
    a cooler the plant may not have), not "make it cooler" (atk25r), "a little cooler
    please", "cooler by 2 degrees" (review atk48)."""
    if t.raw not in ("cooler", "coolers") or not 0 < i < len(toks) - 1:
        return False
    before, after = toks[i - 1], toks[i + 1]
    return before.raw not in WRITE_VERBS and before.raw not in _COMPARED and \
        not after.is_number and after.raw not in _COMPARED


def a_drop(t: Token, i: int, toks: list[Token]) -> bool:
    """ "pressure drop across the baghouse", "voltage drop": a quantity, no verb (not "drop the
    pressure", "pressure, drop it to 2")."""
    after = toks[i + 1] if i + 1 < len(toks) else None
    return t.raw in ("drop", "drops") and i > 0 and toks[i - 1].raw in _DROPPING and \
        not (after is not None and (after.raw in ("it", "to", "by") or after.is_number))


#: what drops, in a quantity said so
_DROPPING = frozenset(("pressure", "voltage", "temperature", "head", "level"))


#: words said with a comparative "cooler" ("a bit cooler", "slightly cooler now", "cooler
#: than", "cooler by 2", "cooler please")
_COMPARED = frozenset("""it much bit little lot slightly somewhat way even far still touch
    degree degrees please now than by today tonight then""".split())


def _a_name_after_an_article(t: Token, i: int, toks: list[Token], profiles: Profiles) -> bool:
    """A verb's word right after an article, that is a word of a point's name said as that
    name says it: with the word after it there ("the drop hammer", "the lower gate"), or
    alone before where the value is said ("put the lock in manual"); never said last. "The run speed" of a
    "Mixer 1 speed" and "the release pressure" of a "Safety valve set pressure" keep their
    verb (atk25r)."""
    if i == 0 or t.zh or t.raw not in WRITE_VERBS or toks[i - 1].raw not in _ARTICLES or \
            t.text not in profiles.name_words:
        return False
    if i + 1 == len(toks):
        return False  # "is there a boat in the lock": a place, said last (atk26r, batch 21)
    after = toks[i + 1]
    return after.raw in CHOICE_MARKS or (t.text, after.text) in profiles.name_bigrams


#: the verbs that join a question's subject to its predicate ("is the press squeezing")
_AUXILIARIES = frozenset("is are was were has have had does do did".split())
_JOINED_WH = frozenset("what's whats how's hows".split())
#: verbs that say how a thing goes about what is asked, and nothing of which point: not those
#: of what is made, lost, wasted or rejected ("how much gas are we making" asks no pressure,
#: "how many bottles has the filler rejected" no bottle count)
_PREDICATES = frozenset("""doing squeezing squeezed cutting picking picked lined holding
    seeing showing shown sitting hitting managing managed achieving achieved handling handled
    working done""".split())
#: ...and of a flame burning, which no burner of the plant is ("how hot is the flare
#: burning"), though a speller would make one of it
_BURNT = frozenset(("burning",))
#: (not "using", "putting", "getting", "carrying", "done": they say which way, or what of it —
#: "how much power is the site using" is its import, not its export; "what payload is the
#: hoist carrying" no payload target: review atk45)


def _predicate(t: Token, i: int, toks: list[Token], profiles: Profiles) -> bool:
    """A verb after a question's subject that says how it goes about what is asked
    (`_PREDICATES`), where no name of the plant writes it and the lexicon knows it as no thing
    or quantity: it names no point ("what pressure is the press squeezing at", "how many
    pallets has the wrapper handled"). A plant's own word said as a verb still names ("what
    is the cutter cutting", of a plant with a cutter)."""
    if t.zh or not toks or toks[0].raw not in WH_START or t.raw not in _PREDICATES | _BURNT:
        return False
    if t.raw in _BURNT and (toks[0].raw != "how" or any(x.raw in ("much", "many")
                                                           for x in toks[:i])):
        # "how hot is the flare burning"; not "how much gas are we burning" (how fast, which
        # no total says), nor "what has burner 2 burnt" (review atk56)
        return False
    words = profiles.plant_words
    if t.text in words or t.raw in words:
        return False
    if t.raw not in _BURNT and (\
            any(s.kind != "action" for s in profiles.lexicon.concepts(t.raw)) or \
            profiles.speller.correct(t.text) is not None or
            any(stems_match(t.text, w) for w in words)):
        return False
    # the auxiliary, then its subject between it and the verb
    return (toks[0].raw in _JOINED_WH and i >= 2) or any(
        toks[j].raw in _AUXILIARIES and i - j >= 2 for j in range(1, i))


def _per_time(t: Token, i: int, toks: list[Token], senses: list[frozenset[Sense]]) -> bool:
    """Whether the token is the "per" of a rate said after what it counts, before its time
    ("birds per minute"; not "40 per minute", where a time is all that is said of what is
    set — review atk53)."""
    return t.raw == "per" and 0 < i < len(toks) - 1 and bool(senses[i + 1]) and all(
        s.concept in _PER_UNIT.values() for s in senses[i + 1]) and \
        toks[i - 1].raw.isalpha() and toks[i - 1].raw not in STOP


def per_its_time(term: Term, p: Profile, found: list[Term]) -> bool:
    """A time said of a point whose unit is a rate per that time, with what it counts ("minute"
    of "160 birds per minute", of a line speed in birds/min; not "40 a minute", which may be
    any rate: review atk32); and the "many" of "how many strokes a minute", so said."""
    per = _RATE_PER.search(p.point.unit or "")
    if per is None or not any(t.word in counted_by(p.point.unit) for t in found):
        return False
    time = _PER_UNIT[per.group(1).casefold()]
    # ...and the "many" of "how many strokes a minute", said with that time
    return time in term.concepts or (term.raw == "many" and any(
        time in t.concepts or t.raw in _TIME_SAID[time] for t in found))


#: a rate's time in its unit ("birds/min"), and the time's unit concept
_RATE_PER = re.compile(r"/\s*(s|sec|min|h|hr)\s*$", re.IGNORECASE)
_TIME_SAID = {"unit.second": frozenset(("second", "sec")), "unit.minute": frozenset(
    ("minute", "min")), "unit.hour": frozenset(("hour", "hr"))}
_PER_UNIT = {"s": "unit.second", "sec": "unit.second", "min": "unit.minute",
             "h": "unit.hour", "hr": "unit.hour"}


#: words before a question that are no part of it
_LEAD_IN = frozenset("ok okay so um uh erm er hmm well right alright and hey".split())


def _how_it_goes(t: Token, i: int, toks: list[Token], senses: list[frozenset[Sense]]) -> bool:
    """A verb of how a thing goes, in a question of how much ("how hot is the second stack
    running", "what's stack 1 pulling in amps", "what tension are we running on the rewind"):
    it names nothing. "pulling", "drawing" only beside a quantity said ("what's the mixer
    pulling" asks for no current, review atk44)."""
    first = next((x.raw for x in toks if x.raw not in _LEAD_IN), "")
    if t.raw not in MOTION_AT | _DRAWING or first not in _WHAT_HOW:
        return False  # (after "ok so", "um": "ok so how fast is the mill turning", batch 71)
    after = toks[i + 1].raw if i + 1 < len(toks) else None
    if toks[i - 1].raw in ("we", "you") and after in ("on", "with", "into", "through"):
        return True  # ("how many cubes an hour are we pushing into the ring main")
    if after is not None and after not in ("at", "in", "out", "now", "today"):
        return False
    return t.raw in MOTION_AT or any(
        x.unit or x.text in QUANTITIES or any(s.kind == "quantity" for s in senses[j])
        for j, x in enumerate(toks) if j != i)


def _a_switch_word_named(t: Token, i: int, toks: list[Token], profiles: Profiles) -> bool:
    """"start"/"stop" said with what follows it as a point's name says them ("set the
    conveyor start delay": of a "Conveyor start delay", not the verb; but "start air
    compressor 1" of a plant with a "Start air pressure" starts the compressor)."""
    if t.zh or t.raw not in ON_WORDS | OFF_WORDS or i + 1 >= len(toks):
        return False
    if (t.text, toks[i + 1].text) not in profiles.name_bigrams:
        # "drop the LS04 stop level to 0.6", "set the duty start level to 5 m", "what's the
        # LS04 start level", "LS04 duty start level 1.8 m": after the command's own verb, a
        # question's word or the word a name says before it, a word that begins a name's
        # pair ("LS04 duty stop SP"), before what is set at it, names (blind batch 35)
        nxt = toks[i + 1]
        return i > 0 and (any(x.raw in WRITE_VERBS for x in toks[:i])
                          or toks[0].raw in _WHAT_HOW
                          or (toks[i - 1].text, t.text) in profiles.name_bigrams) and \
            any(first == t.text for first, _ in profiles.name_bigrams) and \
            not nxt.is_id and not nxt.unit and any(
                s.kind in ("quantity", "role") for s in profiles.lexicon.concepts(nxt.raw))
    said = (t.text, toks[i + 1].text)
    after = toks[i + 2] if i + 2 < len(toks) else None
    if after is not None and after.is_id and any(
            trio[:2] == said and trio[2][:1].isdigit() for trio in profiles.name_trigrams):
        return (*said, after.text) in profiles.name_trigrams  # "start pump 2" of "Start pump 1"
    if after is None or after.is_id or after.unit or after.raw in _NOT_TERMS:
        return True
    return (*said, after.text) in profiles.name_trigrams


def _a_setting_of(t: Token, i: int, toks: list[Token], senses: list[frozenset[Sense]]) -> bool:
    """设定 beside a quantity (温度设定, 设定温度): the setting of it, a noun, not the verb "set"
    (二号冷库设定温度是多少 asks the room's setpoint, not its temperature)."""
    return t.zh and t.written in _ZH_SETTING and \
        any(s.concept == _SETPOINT_ROLE for s in senses[i]) and \
        any(0 <= k < len(toks) and toks[k].zh and toks[k].text in QUANTITIES
            for k in (i - 1, i + 1))


_ZH_SETTING = frozenset(("设定", "设置", "给定"))
_SETPOINT_ROLE = "role.setpoint"


def _noun_of_a_verb(t: Token, i: int, toks: list[Token], senses: list[frozenset[Sense]],
                    profiles: Profiles) -> bool:
    """A quantity word that a phrase of a verb took ("speed" of "speed up"), right after a
    word of a thing ("supply fan speed up to 70"): the noun, not the verb."""
    if not t.zh and t.text in profiles.name_words and i + 1 < len(toks) and \
            any(s.kind in ("quantity", "role") for s in senses[i + 1]):
        return True  # "change the rinse temperature": of a "rinse water temperature"; "tunnel
        # washer rinse setpoint?" (blind batch 56: read the main wash setpoint without it)
    if not t.zh and i > 0 and toks[i - 1].raw in ("which", "what") and \
            t.text in profiles.name_words:
        return True  # "which program is the tunnel running": the program a name says (blind
        # batch 36)
    if i == 0 or t.zh or not any(s.kind in ("thing", "medium") for s in senses[i - 1]):
        return False
    return any(s.kind == "quantity" for s in profiles.lexicon.senses(t.raw, [t])[0])


def explain(term: Term, p: Profile, *, exact: bool = False) -> float:
    """How well point `p` explains one term (0: not at all). `exact`: by its own words and
    unit only, as the rules require."""
    if len(term.alts) > 1:
        each = {w: _explain(replace(term, word=w, alts=(w,)), p, exact=exact) for w in term.alts}
        head = term.alts[-1]
        if (not each[head] and _another_medium(head, p)) or \
                (head not in p.words and _another_thing(term, p)):
            # 给水 is feed water: a "Mill ore feed rate" feeds ore, not water; 冷库 is a cold
            # store: "Chilled water supply temperature" is no store's
            return 0.0
        # 热水 is hot water: its "water" is not all it says; nor is it of 回水 (return water), of
        # a "PCW supply temperature" (blind batch 60)
        return min([max(each.values()), *(s for w, s in each.items()
                                           if w in MEDIUM_QUALIFIERS or w in _ENDS_OF_A_MEDIUM)])
    return _explain(term, p, exact=exact)


def _explain(term: Term, p: Profile, *, exact: bool) -> float:
    if term.word == REMAINS_WORD:
        # what is "left": of a point that has a level, volume, weight, charge or time by its
        # names or its one unit's meaning, never a guess from a unit of many ("how much is
        # left" is no isolator's pressure in Pa nor a methane content in %: review atk56b)
        return 0.0 if exact else CONCEPT if term.concepts & p.quantities else 0.0
    if term.word in p.names or in_its_unit(term, p):
        strength = EXACT
    elif _other_quantity_described(term, p):
        return 0.0
    elif term.word in p.words or (p.point.unit and term.word in unit_words(p.point.unit)):
        strength = TEXT  # ("solids" of a point in "% solids")
        if not exact and _named_otherwise(term, p):
            strength = CONCEPT
    elif term.word in BOOL_STATES and p.point.kind == "bool" and \
            not (p.concepts & FAULT_STATES and not term.concepts & p.concepts):
        strength = CONCEPT  # "is the fan running": what an on/off point says (but no fault,
        # trip or alarm tells whether its thing runs: "is P1 at LS04 running" of a "LS04 P1
        # flt" beside a "LS04 P1 run", blind batch 35)
    elif exact:
        return 0.0
    elif term.literal:
        if term.kinds == {"modifier"} and term.own and term.own <= p.concepts:
            return CONCEPT  # "aux" of an "Auxiliary boiler burner", where the plant says
            # "aux" in another point's alias ("aux boiler pressure"): one word in two forms
            # (blind batch 71)
        return _forms(term, p)
    elif term.concepts & p.concepts:
        strength = UNIT_QUANTITY if term.unit else CONCEPT
    elif term.concepts & p.part_concepts:
        strength = PART  # "backwash" of "Backwash blower" (a blower, by its whole name)
    elif term.broader & p.unit_quantities and not p.named_quantities:
        # a point whose text names no quantity ("TCU setpoint") is what its unit measures;
        # but a narrower quantity said ("outside temperature", "core temperature") is one of
        # where or what, which a unit does not say: a "Digester heating setpoint" in °C may
        # be meant, no more (review atk63). A word of such a phrase is explained where it
        # is alone what the point is ("tubing" of a "W2 TBG PSI") or what its unit measures
        # ("pressure"); a quantity said in one word ("vacuum") is a kind of its unit's.
        strength = MAYBE if not term.concepts & p.unit_quantities and \
            not _quantity_alone(term) and not (term.own - term.broader) & p.concepts and \
            not (term.own and term.own <= p.unit_quantities) else \
            UNIT_QUANTITY if p.unit_sure else \
            FEW if len(p.unit_quantities) <= FEW_QUANTITIES else MAYBE
    elif term.concepts & p.unit_quantities & _AMOUNTS_IN and \
            unit_key(p.point.unit or "") in _AMOUNT_UNITS and \
            p.named_quantities & p.unit_quantities - _AMOUNTS_IN:
        # 硫化氢浓度 of an "LS04 H2S" in ppm: how much of what it names there is, in its unit
        # (blind batch 35)
        strength = UNIT_QUANTITY
    elif term.concepts & p.unit_quantities:
        # a power of a load in kW (kW: power or heat flow); "how full" of a battery in %
        # (% is twenty quantities): a guess
        strength = FEW if len(p.unit_quantities) <= FEW_QUANTITIES else MAYBE
    elif broader := term.broader & p.concepts:
        # a "sand filter" is a filter; a "head pressure" of a point of pressure, perhaps; but
        # a Chinese word of one kind of a thing is no point of another kind of it that names
        # its own (砂仓, a sand bin, of the "Cement silo level": both silos, blind batch 35)
        strength = FORM if all(c.startswith(_THINGS) for c in broader) and not (
            not term.shown.isascii() and all(c.startswith("thing.") for c in broader)
            and any(c.startswith("thing.") for c in p.things - term.broader)) else MAYBE
    elif not term.shown.isascii() and any(p.names & bridge_words(c) for c in term.concepts):
        strength = BRIDGE  # 储气罐 (an air receiver) of the "Receiver drain valve"
    elif not term.shown.isascii() and term.concepts & device_things(p.point.device) and \
            not any(c.startswith("thing.") for c in p.things):
        # 印刷机 of the "Web speed" of device "press", as "press" would be; not of a point
        # whose name says its own thing ("Filter press feed pressure" of that device)
        strength = BRIDGE
    else:
        return _forms(term, p)
    return strength * (TYPO if term.corrected else 1.0)


def _quantity_alone(term: Term) -> bool:
    """Whether the term is a narrower quantity in a word of its own ("vacuum", "airflow"), not a
    word of a longer phrase ("outside" of "outside temperature"), nor a temperature: a
    narrower temperature in one word says where or of what it is measured ("superheat",
    "OAT", "EGT", "dewpoint"), and the only setpoint in °C of a plant is not meant by it
    (review atk64, C1: they wrote a digester's heating setpoint). A Chinese phrase is read a
    character a term, so none is alone (真空度: review atk64, left)."""
    return bool(term.own & term.concepts) and \
        not (term.broader - term.concepts) & _TEMPERATURES and \
        all(end - start <= len(term.shown) for start, end in term.spans)


#: the quantities a narrower temperature is one of
_TEMPERATURES = frozenset({"quantity.temperature", "quantity.temperature_difference"})


def _named_otherwise(term: Term, p: Profile) -> bool:
    """A word the point's text has only outside its names and description (its id
    "press_fault", a choice), whose concept its names say in other words: "fault" of a
    "Presse.Sammelstoerung" explains as the concept of the name does, not as a word of its
    id (review atk51: "Kuehlwasser.Pumpe2.Stoerung" explained it better)."""
    return term.word not in p.described and not term.literal and not term.unit and \
        bool(term.concepts & p.concepts)


def _other_quantity_described(term: Term, p: Profile) -> bool:
    """A quantity word only a setpoint's description says, of another quantity than its unit
    measures: "strength" of a water setpoint in L/h described as holding a loop's strength
    (blind batch 31); a measurement's description says what it stands for (a conductivity
    described as the caustic's strength, a drive in Hz as a fan's speed: review atk42)."""
    return p.role == "setpoint" and "quantity" in term.kinds and term.word in p.described \
        and bool(p.unit_quantities) \
        and not term.concepts & (p.quantities | p.unit_quantities) \
        and not term.broader & p.unit_quantities


def in_its_unit(term: Term, p: Profile) -> bool:
    """Whether the term is the point's own unit: as written, or a unit the lexicon knows said
    alone ("cSt", "centistokes") that the point's unit is, however the config writes it: the
    unit names the point as its symbol would ("NTU")."""
    return bool(term.unit and term.unit == p.unit) or (
        "unit" in term.kinds and p.point.unit is not None
        and bool(term.concepts & unit_ids(p.point.unit)))


@functools.cache
def unit_ids(unit: str) -> frozenset[str]:
    """The lexicon's unit concepts of a unit as a config writes it ("cSt": unit.cp)."""
    return frozenset(u.id for u in lexicon().units(unit))


def _forms(term: Term, p: Profile) -> float:
    """Another form of one of the point's words ("filtration", "filtered"); or, for a word
    nothing else explains, a name word that begins like it ("salty", "salinity"): a hint for
    ranking the candidates, no explanation."""
    if any(stems_match(term.word, w) for w in p.names):
        strength = FORM
    elif any(stems_match(term.word, w) for w in p.words):
        strength = TEXT_FORM
    elif not term.concepts and len(term.word) >= NEAR_LENGTH and \
            any(len(w) >= NEAR_LENGTH and w[:NEAR_PREFIX] == term.word[:NEAR_PREFIX]
                for w in p.names):
        return NEAR
    else:
        return 0.0
    return strength * (TYPO if term.corrected else 1.0)


def explained(term: Term, p: Profile, found: list[Term], *, phrases: bool = True) -> float:
    """How well `p` explains a term in its command (`found`: the command's terms): a word of a
    phrase is explained where another word of it, of the phrase's own kind, is by the point's
    own words ("ammonia level" of "Total ammonia nitrogen": "ammonia" is a quantity; but the
    battery of "电池电量", its charge, is no quantity). `phrases`: a word of the plant's names
    that means another thing in a phrase than alone may be explained as the phrase is (the
    write gate, stricter, does not)."""
    if said_otherwise(term, p, found):
        return 0.0
    if per_its_time(term, p, found):
        return UNIT_QUANTITY
    strength = explain(term, p)
    if strength > NEAR:
        return strength
    if not term.spans or (term.literal and (not phrases or not term.own
                                            or term.concepts & term.own)):
        return strength  # "jaw" of "jaw crusher" is a word the plant names points with
    if term.literal:
        # ...but a word that means another thing in the phrase than alone (the "blower main"
        # is an air main, no blower) is explained by a point of that thing whose own words
        # explain another word of the phrase
        if not term.concepts & p.concepts:
            return strength
        return max((explain(other, p) for other in found if other is not term
                    and other.spans & term.spans and other.word not in GENERAL_WORDS
                    and explain(other, p, exact=True) >= TEXT), default=strength)
    return max((explain(other, p) for other in found if other is not term
                and other.spans & term.spans and other.word not in GENERAL_WORDS
                and other.own_kinds & term.kinds and explain(other, p) >= TEXT),
               default=0.0)


@functools.cache
def unit_words(unit: str) -> frozenset[str]:
    """The words a per cent of something names after its sign ("solids" of "% solids", "lel"
    of "% LEL"); none of another unit ("bags", "% of max": review atk41)."""
    found = re.fullmatch(r"\s*[%％]\s*([a-z][a-z0-9]*(?:\s+[a-z][a-z0-9]*)?)\s*",
                         unit.casefold())
    if found is None or found.group(1).startswith("of "):
        return frozenset()
    words = found.group(1).split()
    # ("% CH4", "% O2": the formula, and its letters as a command's words part them)
    return frozenset(canonical(w) for w in words if len(w) >= 3) | frozenset(
        re.sub(r"\d.*", "", w) for w in words if re.search(r"\d", w))


@functools.cache
def device_things(device: str) -> frozenset[str]:
    """The things a word of a device's id is, alone and whole ("press", "dryer" of "dryer_2");
    not a word that only shares a word with a thing's forms ("skid", "roof": review atk41)."""
    text = " ".join(re.findall(r"[a-z]+", device.casefold()))
    found = [m for m in lexicon().concepts_of_text(text) if m.kind == "thing"
             and (m.start == 0 or text[m.start - 1] == " ")
             and (m.end == len(text) or text[m.end] == " ")]
    # the longest: a "filter_press" is a filter press, no printing press
    return frozenset(m.concept.id for m in found
                     if not any(o.start <= m.start and m.end <= o.end and o.end - o.start >
                                m.end - m.start for o in found)
                     and not broad(m.concept.id) and m.concept.id != _ANY_MACHINE)


@functools.cache
def bridge_words(concept: str) -> frozenset[str]:
    """The telling English words of a concept's forms (see BRIDGE), from the shipped lexicon."""
    lx = lexicon()
    if concept not in lx.concepts or lx.concept(concept).kind not in _BRIDGED:
        return frozenset()
    spread, broad = _spread()
    out = set()
    for form in lx.concept(concept).en_forms:
        for word in (w.strip("-'").casefold() for w in form.split()):
            if len(word) < 4 or not word.isalpha():
                continue
            alone = [m.concept for m in lx.concepts_of_text(word)
                     if m.start == 0 and m.end == len(word)]
            if any(c.id == concept for c in alone) or (spread[word] <= BRIDGE_SPREAD and not any(
                    c.kind != "thing" or c.id in broad for c in alone)):
                out.add(word)
    return frozenset(canonical(w) for w in out)


def broad(concept: str) -> bool:
    """A concept several others are kinds of (water, air, oil): naming it says little."""
    return concept in _spread()[1]


@functools.cache
def _spread() -> tuple[Counter[str], frozenset[str]]:
    """How many concepts' English forms each word is in; the things broader than several."""
    lx = lexicon()
    spread: Counter[str] = Counter()
    narrower: Counter[str] = Counter()
    for c in lx.concepts.values():
        spread.update({w.strip("-'").casefold() for f in c.en_forms for w in f.split()})
        if c.kind not in ("unit", "action"):
            narrower.update(c.links)
    return spread, frozenset(c for c, n in narrower.items() if n >= 2)


def substituted(term: Term, p: Profile, found: list[Term]) -> bool:
    """A word said where the point's name has another, before the same word: "exhaust fan
    speed" of "Supply fan speed", "tail drive current" of "Head drive motor current". It
    names something the point is not, whatever a shared concept says (an exhaust fan and a
    supply fan are both fans). Both words must be qualifiers the lexicon knows (a thing, a
    medium or a modifier: "exhaust", "supply", "head", "tail"): a word it does not know, a
    typo, a role ("total") or a particle names nothing else and vetoes nothing."""
    if term.word in p.words or any(w in p.words for w in term.alts) or term.unit or \
            not p.key or not term.shown.isascii() or len(term.raw) < _QUALIFIER_LENGTH:
        return False  # (a Chinese word's English order is no order of the point's name)
    if not term.own_kinds & _QUALIFIERS or term.own & p.concepts:
        return False  # "shop air" of "Compressed air": one thing, said another way
    if "thing" in term.own_kinds and term.concepts & p.concepts and any(
            end - start > len(term.raw) for start, end in term.spans):
        return False  # "methanol column" of a "Methanol stripper": the thing named by
        # another word in a phrase the lexicon reads as the point's own thing (not the
        # "exhaust" of an "exhaust fan", which qualifies a fan as "supply" does)
    after = next((t for t in found if t.index == term.index + 1), None)
    if after is None:
        return False
    said = {w for t in found for w in t.alts} | {t.word for t in found}
    key = p.key
    return any(key[j] in after.alts and not key[j - 1].isdigit() and key[j - 1] not in said
               and not stems_match(key[j - 1], term.word) and _qualifier(key[j - 1])
               for j in range(1, len(key)))


def said_otherwise(term: Term, p: Profile, found: list[Term]) -> bool:
    """The term names another thing than the point's own of the same kind (`substituted`,
    `other_medium`), or is a word of a phrase that means what the point is not
    (`phrase_apart`): the point does not explain it, however its words do."""
    return substituted(term, p, found) or other_medium(term, p) or \
        other_quantity(term, p) or other_kind_of_thing(term, p) or phrase_apart(term, p, found)


def other_kind_of_thing(term: Term, p: Profile) -> bool:
    """A kind of a thing said where the point's is another kind of the same one, in words the
    point's names do not have: 跳水池 (a diving pool) of a "Main pool temperature", both
    swimming pools (review atk73b: the model's read of the main pool passed)."""
    return "thing" in term.kinds and _another_kind(term, p, _THING)


def other_quantity(term: Term, p: Profile) -> bool:
    """A kind of a quantity said where the point measures another kind of the same one (one
    broader concept in common, neither broader than the other): "total chlorine" of a
    "Main pool free chlorine" or "… combined chlorine" (blind batch 73: all three are
    chlorine, and the read was of the combined). A kind said of a point that names the
    quantity broadly is its own ("free chlorine" of a "Chlorine residual")."""
    return _another_kind(term, p, _QUANTITY)


def _another_kind(term: Term, p: Profile, kind: str) -> bool:
    """Whether the term says a concept of `kind` ("quantity.", "thing.") that the lexicon
    ranks beside one of the point's (one broader concept in common, neither broader than the
    other), in words that are none of the point's own ("room temperature" of a "Plant room
    ambient temperature" is its own, however the lexicon ranks the two: review atk73)."""
    if term.concepts & p.concepts or term.word in p.words or term.raw in p.words:
        return False
    for said in term.concepts:
        if not said.startswith(kind):
            continue
        kin = _broader_of(said)
        if kin and any(other.startswith(kind) and other not in term.broader and
                       said not in _broader_of(other) and _broader_of(other) & kin
                       for other in p.concepts):
            return True
    return False


def phrase_apart(term: Term, p: Profile, found: list[Term]) -> bool:
    """A word of a phrase the lexicon reads as one thing ("hot" of "hot tub"), which the
    point's names say in another phrase ("HX-1 hot water supply"), where the point is not
    that thing nor what the word means alone, and its names do not say the phrase's other
    words ("hot water tank" of a "Hot water storage tank"): "hot tub temperature" asks no
    hot water's."""
    if not (term.literal and "thing" in term.kinds and term.concepts) or \
            term.concepts & p.concepts or term.own & p.concepts:
        return False
    phrase = [t for t in found if t.spans & term.spans]
    return any(end - start > len(term.raw) for start, end in term.spans) and \
        not all(t.word in p.names for t in phrase)


def other_medium(term: Term, p: Profile) -> bool:
    """A medium said in a phrase where the point's is another of the same kind: "hot water
    supply temperature" of "Chilled water supply temperature". Both are water, and every
    other word of the phrase may be the point's ("hot" is a temperature word), but the
    hot water is not the chilled water. Only a medium the lexicon ranks beside the point's
    (one broader concept in common, neither broader than the other) vetoes: "water" of
    "Chilled water ..." is the chilled water said broadly. A word that may also mean what the
    point says is no other medium (出风, supply air or an outlet, of a "Dryer outlet temp"
    described as its exhaust air)."""
    if term.concepts & p.concepts:
        return False
    for said in term.concepts:
        if said in p.concepts or not said.startswith(_MEDIUM):
            continue
        if said in _QUALIFIED and any(w in p.words for w, m in MEDIUM_QUALIFIERS.items()
                                      if m != said):
            return True  # "chilled water" of "Resurfacer hot water tank", which the lexicon
            # reads as a hot liquor tank
        kin = _broader_of(said)
        if any(other.startswith(_MEDIUM) and other not in term.broader and
               _broader_of(other) & kin for other in p.concepts):
            return True
    return False


_MEDIUM = "medium."
_QUANTITY = "quantity."
_THING = "thing."
_QUALIFIED = frozenset(MEDIUM_QUALIFIERS.values())
#: the end of a flow a Chinese word of a medium says with it (回水, 供水, 进水, 出水)
_ENDS_OF_A_MEDIUM = frozenset(("return", "supply", "inlet", "outlet"))


def _another_medium(head: str, p: Profile) -> bool:
    """Whether the last word of a Chinese word's translation ("water" of 给水, feed water) is
    a medium, and the point's own medium is another, neither a kind of the other: the point
    does not explain the word, however well it explains its qualifier ("feed")."""
    said = _media(head)
    if not said:
        return False
    mine = [c for c in p.concepts if c.startswith(_MEDIUM)]
    kinds = said | {b for s in said for b in _broader_of(s)}  # water, and what it is a kind of
    return bool(mine) and not any(c in kinds or _broader_of(c) & said for c in mine)


def _another_thing(term: Term, p: Profile) -> bool:
    """Whether a Chinese word the lexicon reads alone as a thing (冷库, a cold store) names a
    thing the point is not (though a word of its device may be part of that thing's name: a
    "chiller" of a "chiller room")."""
    things = {c for c in term.own if c.startswith(_THING)}
    return bool(things) and not things & p.concepts


_THING = "thing."


@functools.lru_cache(maxsize=1 << 10)
def _media(word: str) -> frozenset[str]:
    """The media a word alone names ("water": water)."""
    return frozenset(m.concept.id for m in lexicon().concepts_of_text(word)
                     if m.kind == "medium" and m.start == 0 and m.end == len(word))


def kin_thing(term: Term, p: Profile) -> bool:
    """The term names a kind of a thing of which the point names another kind, its own: an
    edger, of a headrig (both saws); not a booster pump of a "CIP supply pump", whose CIP is
    no kind of pump. (The model stage asks it of English words only.)"""
    shared = (term.broader - term.concepts) & p.things
    return bool(shared) and any(_kinds_of(c) & shared for c in p.things - term.broader)


@functools.cache
def _kinds_of(concept: str) -> frozenset[str]:
    """Every concept a concept is a kind of, however far up."""
    lx = lexicon()
    if concept not in lx.concepts:
        return frozenset()
    links = lx.concept(concept).links
    return frozenset(links).union(*(_kinds_of(c) for c in links))


@functools.lru_cache(maxsize=1 << 10)
def _broader_of(concept: str) -> frozenset[str]:
    """The concepts a medium is directly a kind of ("medium.hot_water": water)."""
    lx = lexicon()
    return frozenset(lx.concept(concept).links) if concept in lx.concepts else frozenset()


_QUALIFIERS = frozenset(("thing", "medium", "modifier"))
_QUALIFIER_LENGTH = 4


@functools.lru_cache(maxsize=1 << 12)
def _qualifier(word: str) -> bool:
    """A word the lexicon knows, alone, as a thing, medium or modifier ("supply", "head")."""
    return any(m.kind in _QUALIFIERS and m.start == 0 and m.end == len(word)
               for m in lexicon().concepts_of_text(word))


def lone_character(term: Term, tok: Token) -> bool:
    """A Chinese character read alone (池 is a pool, a tank or a basin: it says little), not
    one of a word the lexicon knows of several characters (浊 of 浊度, turbidity)."""
    return tok.zh and len(tok.written or tok.raw) == 1 and \
        not any(end - start > 1 for start, end in term.spans)


def _own(t: Token, profiles: Profiles) -> frozenset[str]:
    word = t.written or t.raw
    return profiles.lexicon.broader(s.concept for s in profiles.lexicon.concepts(word))


def _own_kinds(t: Token, profiles: Profiles) -> frozenset[str]:
    word = t.written or t.raw
    return frozenset(s.kind for s in profiles.lexicon.concepts(word))
