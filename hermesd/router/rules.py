"""The deterministic rule stage of routing: places everyday commands in well under a millisecond.

It matches point ids, names and aliases against the normalised command (English or Chinese),
finds the verb (read, set, on/off, open/close, start/stop, raise/lower) and the value, and
answers only when it is sure: one point clearly ahead of the others, a value where a write needs
one. Everything else is handed on (`None`) to the next stage, with the `Analysis` (candidate
points, values found in the text) that stage builds on. It knows nothing of any particular plant.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from hermesd.answer import Action, respond
from hermesd.config.model import Intent, Point
from hermesd.replies import (
    choice_question,
    gate_question,
    is_chinese,
    printable,
    value_question,
)
from hermesd.router.choices import CHOICE_MARKS, named_choices
from hermesd.router.concepts import Match, concepts_of_text, simplified, singular
from hermesd.router.coverage import CONCEPT, a_cooler, a_drop, a_strength, explain, terms
from hermesd.router.kin_names import kin_named
from hermesd.router.meaning import Lexicon, Sense
from hermesd.router.normalize import (
    LIGHTS,
    PUTS_OUT,
    YES_NO_MARK,
    Token,
    canonical,
    capitals,
    content,
    flame_verb,
    numbered_first,
    preposition_on,
    question_mark,
    tokens,
    unspaced,
    value_said,
)
from hermesd.router.numbers import exact
from hermesd.router.other_values import another_value_unsaid
from hermesd.router.poles import choice_words, opposed, point_poles, said_poles
from hermesd.router.profiles import (
    SETPOINT_WORDS,
    Profile,
    Profiles,
    counted_by,
    default_lexicon,
    stems_match,
)
from hermesd.router.tags import (
    a_machine,
    named_by_code,
    spelled_out,
    tag_described,
    thing_kinds,
    without_brackets,
)
from hermesd.router.unit_parts import part_read
from hermesd.router.vocabulary import (
    AFTER_NUMBER,
    AMOUNTS,
    ARMING,
    CALIBRATING,
    CHANGE_WORDS,
    CORRECTIONS,
    DELTA_BEFORE,
    DESTRUCTIVE,
    DISABLING,
    ENDING_WORDS,
    GREETINGS,
    INJECTION,
    NAMED_STATES,
    NEGATIONS,
    OFF_WORDS,
    ON_WORDS,
    PERCENT,
    PLURAL_MARKS,
    PROTECTIONS,
    QUANTITIES,
    QUESTION_SUBJECTS,
    RELATIVE_BEFORE,
    RELATIVE_VERBS,
    RESETS,
    RESETS_FIRST,
    RULE_BREAKING,
    RUN_WORDS,
    SAFEGUARDS,
    SENSE_OPPOSITES,
    SHORT_THANKS,
    STATE_SIGNALS,
    STATE_VERBS,
    STOP,
    STOP_WORDS,
    SUMMARY_WORDS,
    THANKS,
    UNDO_PREFIXES,
    UNDO_ZH,
    UNIT_SYMBOLS,
    UNIT_WORDS,
    VALUE_BEFORE,
    WEAK_QUANTITY,
    WH_START,
    WRITE_VERBS,
    YES_NO_START,
    sense_opposites,
)
from hermesd.value_maps import spellings

#: a label word that makes a point the target, not the measured value: "temperature" alone
#: means the measurement, so a setpoint must be named to win
SETPOINT = "setpoint"
SETPOINT_WEIGHT = 0.85
#: what keeps a command from giving a value, worst first (`ValueWords.problem`)
PROBLEMS = ("negation", "correction", "unreadable", "relative", "several")
#: the problems that leave an on/off write in doubt too ("open valve 2, no wait")
SWITCH_PROBLEMS = frozenset(("negation", "correction", "unreadable"))
MIN_SCORE = 0.6
MIN_MARGIN = 0.15
LONE_MIN_SCORE = 0.3
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Label:
    point: str
    toks: tuple[Token, ...]
    weight: float

    @property
    def ids(self) -> set[str]:
        return {t.text for t in self.toks if t.is_id}

    @property
    def pairs(self) -> set[tuple[str, str]]:
        """("boiler", "3"): the things this label numbers, and their numbers."""
        return _pairs(self.toks)


@dataclass(frozen=True, slots=True)
class Placement:
    action: Action
    score: float  # how sure the rules are (0..1)
    candidates: tuple[str, ...] = ()  # other points that were close, best first


@dataclass(frozen=True, slots=True)
class ValueWords:
    """What the words of a command say about the value of a write to one point."""

    numbers: tuple[Any, ...] = ()  # the distinct numbers that are no name, in order
    problem: str | None = None  # one of PROBLEMS: no value may be taken from these words
    words: tuple[str, ...] = ()  # the words that make the problem, as written

    def blocks(self, point: Point | None) -> bool:
        """Whether no value may be written to `point` (None: any point) from these words."""
        if self.problem is None:
            return False
        return point is None or point.kind in ("int", "float") or \
            self.problem in SWITCH_PROBLEMS


@dataclass(frozen=True)
class Analysis:
    """What the rules saw in a command; the model stage starts from it."""

    text: str
    toks: list[Token]
    words: frozenset[str]  # raw words (Chinese ones as their English word)
    yes_no: bool  # a yes/no question ("is valve 2 open", "...吗")
    wants_write: bool  # a verb that changes something, and not a question
    question: bool = False  # a question of any kind ("what...", "is...", "...?", "...吗")
    scored: list[tuple[float, str]] = field(default_factory=list)  # points sharing words
    unknown: str | None = None  # "boiler 7" where there are boilers but no 7
    plural: bool = False  # about several points (the semantic stage says): never a write
    #: tokens said as two words of a name in a row ("make-up" of "Make-up water valve"): a
    #: name's words, never a verb or an on/off word
    named: frozenset[int] = frozenset()

    @property
    def zh(self) -> bool:
        return any(t.zh for t in self.toks)

    @property
    def candidates(self) -> list[str]:
        return [p for _, p in self.scored]


#: an instrument or equipment tag opening a name ("TT-201 ocean tank temperature", "P-101
#: main pump speed")
_TAG_FIRST = re.compile(r"^\s*[A-Z]{1,5}[-_ ]?\d{1,5}[A-Z]?\s+(\S+\s+\S.*)$")


def _verb_of(verb: str, noun: str) -> bool:
    """Whether `verb` is the verb of the action `noun` names ("aerate" of "aeration", "inject"
    of "injection", "gas" of "gassing")."""
    if len(verb) < 3 or not verb.isalpha() or verb == noun:
        return False
    stem = verb[:-1] if verb.endswith("e") else verb
    return noun in (verb + "ion", stem + "ion", stem + "ing", verb + verb[-1] + "ing")


def _untagged(name: str) -> tuple[str, ...]:
    """The name without the tag it opens with, a name of the point as people say it ("ocean
    tank temperature" of "TT-201 ocean tank temperature"); none if it has no such tag."""
    found = _TAG_FIRST.match(name)
    return (found.group(1),) if found else ()


#: a tag that ends in a setpoint's letters ("FIC-032 SP", "TIC-4110.SP")
_TAG_SETPOINT = re.compile(r"[-_. ](?:SP|SV)\s*$")
#: ...in a mode's ("FIC-4501.MODE")
_TAG_MODE = re.compile(r"[-_. ](?:MODE|MD)\s*$")
#: a loop's parameter after its number ("TIC-202.OP", "LIC105_OUT", "TIC401.SPHILM"), which DCS
#: exports describe as the loop itself: only its value, setpoint and mode are named by that
#: (`_TAG_NAMED`), and an equipment tag's reading or switch ("JF-N01-AMP", "P-301-RUN")
_TAG_PARAMETER = re.compile(r"\d[A-Z]?[._][A-Z][A-Z0-9]*\s*$")
#: ...and a loop's output, however the parameter is joined or written ("10LAB40DL001-OUT",
#: "=PW+RO1-PIC203-MV", "FIC201:OUT", "… OUT1", "… Drum lvl out", a KKS "Y01"): described as
#: the loop, never its name (reviews atk46, atk46b)
#: the letters of a controller's tag: a measured variable, a modifier perhaps, and C ("FIC",
#: "TIC", "PDIC", "LC")
_CONTROLLER = re.compile(r"[ABCDEFHJKLMNPQRSTUVWXYZ][DFKQ]?[IR]?C", re.IGNORECASE)
#: a loop's tag and its value or setpoint after it ("FIC-103.PV", "TIC101_SP")
_LOOP_ROLE = re.compile(r"([A-Za-z]{2,4}[-_ ]?\d{2,5}[A-Za-z]?)[-_.: ](PV|SP|SV)", re.IGNORECASE)
_TAG_OUTPUT = re.compile(r"(?i)[-_.: ](?:OUT|OP|MV|CV|OUTPUT|Y)\d{0,2}\s*$")
_TAG_NAMED = re.compile(r"[-_. ](?:PV|SP|SV|MODE|MD|RUN|AMPS?|HRS|HOURS|SOC|KWH|KW|FLT|FAULT|"
                        r"TEMP|PRESS|FLOW|LVL|LEVEL|SPD|SPEED|CUR|FB|ON)\s*$")
#: a switch's description that says it is its thing's run command ("Thresher 2 motor run
#: command"): its true runs the thing
_RUN_COMMAND = re.compile(r"(?i)\brun\s+command$")
#: ...said as a clause of its own ("Dryer hood supply air fan, run command")
_RUN_CLAUSE = re.compile(r"(?i)run\s+command|start/stop|run/stop|on/off")
#: ...said first, of its thing ("Run command of jet fan JF-N01")
_RUN_COMMAND_OF = re.compile(r"(?i)run\s+command\s+(?:of|for)\s+(?:the\s+)?(\S.*)")


def _runs_its_thing(words: list[str]) -> bool:
    """Whether "<words> run command" runs the thing the words name, not a part of it: a
    number, where there is one, is followed by its motor's words alone ("Thresher 2 motor",
    "Screw press 1 main motor"; not "Pump 5 lube oil pump", pump 5's lube oil pump)."""
    if _kind_repeated(words):
        return False  # "Boiler feed pump lube oil pump", "Fire pump jockey pump": a pump's
        # own pump (review atk46)
    numbers = [i for i, w in enumerate(words) if any(c.isdigit() for c in w)]
    if not numbers:
        return len(words) <= 6  # ("Main burner primary air fan": its last word, the thing
        # switched, must be said to switch it, "start the main burner" is refused as a part)
    after = [w.casefold() for w in words[numbers[-1] + 1:]]
    if all(w in _MOTOR_WORDS for w in after):
        return len(words) <= 5
    # "Absorber 2 rich amine pump": a machine of its own kind that serves the numbered thing
    # (which is no pump: "start absorber 2" is refused as a part); not a pump's own pump
    head = singular(after[-1])
    return len(words) <= 7 and a_machine(head) and \
        head not in {singular(w.casefold()) for w in words[:numbers[-1]]}


@functools.cache
def _says_a_state(word: str) -> bool:
    """A word of an alarm's or a state's ("high", "trip", "fault", "running"): a point
    described with it beside the words said is no rival of one they name ("Tank level high
    alarm" of "tank level")."""
    return word in _NOT_NAMING or word in _BOUNDS or any(
        m.concept.kind in ("state", "role") for m in concepts_of_text(word))


def _kind_repeated(words: list[str]) -> bool:
    """Whether the last word's kind of thing is named before it too ("pump" … "pump",
    "blower" … "fan"): the switch is of a part of the first."""
    if len(words) < 2:
        return False
    head = thing_kinds(words[-1].casefold())
    return bool(head) and any(head & thing_kinds(w.casefold()) for w in words[:-1])


#: the words of a thing's own drive
_MOTOR_WORDS = frozenset(("motor", "main", "drive"))


#: a description that opens with what is done ("Start fan 2 at this speed"): no name
_VERB_OPENING = re.compile(r"\s*(?:start|stop|open|close|run|switch|turn|set|fill|drain|"
                           r"enable|disable|trip|reset|used)\b", re.IGNORECASE)


def _chinese_only(point: Point) -> bool:
    """A point named in Chinese alone, with no English alias ("EDI电流设定", described "EDI stack
    current setpoint"): its description is what an English command calls it, as a tag's is
    (blind batch 46)."""
    return is_chinese(point.name) and not any(a.isascii() for a in point.aliases)


def said_as_described(point: Point) -> Point:
    """A point named by its tag ("LT-203", "PT-221 CONE"), or in Chinese alone
    (`_chinese_only`), is said as its description begins
    ("Effect 2 level; radar on the body"): that, up to its first stop, without what it says in
    brackets and what it writes with a slash, is a name of it too, to the rules and the
    semantic stage alike. Only where the description names a thing and what is measured or
    set of it: none that says an action, a state, a condition or a protection ("Pump 5 stop",
    "Valve open command", "Burner 1 stop when tank low", "Emergency shutdown of boiler 1" name
    no pump, valve, burner or boiler to be started), and of a switch only one described as its
    thing's run command ("Brine well pump 2 start/stop", "Thresher 2 motor run command").
    Other points as they are."""
    if not point.description or not (named_by_code(point.name) or _chinese_only(point)) or \
            _loop_parameter(point.name) or (
                _chinese_only(point) and _VERB_OPENING.match(point.description)):
        return point  # ("TIC-202.OP", ".SPHILM", ".PVHI", ".DL", described as their loop: a
        # parameter of it other than its value, setpoint or mode is named by none of its words,
        # review atk45b)
    clauses = re.split(r"([(;,.:]| - )", without_brackets(point.description))
    said = clauses[0].split()
    if point.kind != "bool":
        after = clauses[2].split() if len(clauses) > 2 and clauses[1] in ",;" else []
        if 1 <= len(after) <= 3 and _measured(" ".join(after)):
            said += after  # "Kiln inlet gas analyser, oxygen": what of it is measured (not
            # "…, pump 2 side", "…, spare": review atk45)
        if len(clauses) > 2 and "".join(clauses[2:]).strip() and not any(
                m.concept.kind in ("quantity", "role") for m in concepts_of_text(" ".join(said))):
            return point  # "Feedwater pump 2 - recirculation valve position setpoint": what it
            # measures or sets is said after the thing, which is no name of it (review atk46)
        if len(said) > _DESCRIBED_WORDS:
            # "Kiln inlet gas temperature in the smoke chamber at the kiln back end": the
            # name, up to where it says where or when it is measured
            cut = [i for i, w in enumerate(said[:_DESCRIBED_WORDS + 1])
                   if i >= 2 and w.casefold() in _LINKING]
            said = said[:cut[-1]] if cut else said
    if point.kind == "bool" and len(clauses) > 2 and clauses[1] == "," and \
            _RUN_CLAUSE.fullmatch(clauses[2].strip()):
        said += clauses[2].split()  # "Broke pulper agitator, run command"
    kept = [w for w in said if "/" not in w]
    of = _RUN_COMMAND_OF.match(" ".join(kept))
    if point.kind == "bool" and of is not None:
        kept = [*of.group(1).split(), "run", "command"]  # "Run command of jet fan JF-N01"
    run_command = point.kind == "bool" and bool(_RUN_COMMAND.search(" ".join(kept))) and \
        not _INVERTED.search(point.description) and _runs_its_thing(kept[:-2])
    if run_command:
        kept = kept[:-1]  # "Thresher 2 motor run": what is said of it, not the "command"
    if point.kind == "bool" and not run_command and (
            not any(frozenset(w.casefold().split("/")) in _RUN_PAIRS for w in said if "/" in w)
            or _INVERTED.search(point.description) or not _runs_its_thing(kept)):
        return point  # ("Feed pump 4 on/off, inverted: 0 = on": its true is no start; "Pump
        # 5 lube oil pump start/stop" starts no pump 5)
    named = kept[:-1] if run_command else kept  # (its "run" is what the switch does)
    if len(named) < 2:
        return point  # "Pump, on/off", "Temperature": a kind, which names none of several
    words = {w.casefold().strip("'’\"") for w in named}
    # (of a number, "on"/"off" say where or when it is measured: "… on the kiln hood")
    verbs = _VERB_PARTS if point.kind == "bool" else _VERB_PARTS - ON_WORDS - OFF_WORDS
    if not 1 <= len(kept) <= _DESCRIBED_WORDS or words & (
            _NOT_NAMING | verbs | PROTECTIONS | DISABLING) or (
            point.kind == "bool" and _says_an_action(" ".join(named))):
        # (a number's description may hold words the lexicon reads as a state or an
        # action as well, "cooler", "fine coal", "burning zone": its value is no switching)
        return point
    kept = _initials_dropped(named)  # (a run command named by its thing alone, as a
    # start/stop is: "Feedwater pump 1", not "… run", which no sibling's name would say)
    if _TAG_MODE.search(point.name) and "mode" not in words:
        kept.append("mode")  # "FIC-4501.MODE", described as the loop: its mode
    if _TAG_SETPOINT.search(point.name) and not words & SETPOINT_SAID:
        # "KT_101_HOLD_SP", "Steriliser 1 holding time at peak …": "SP", as tags write it
        # (a "setpoint" of names would make the word one that names, no longer a role)
        kept.append("SP")
    return replace(point, aliases=(*point.aliases, " ".join(kept)))


#: how much less a reading may explain a word than a setpoint beside it and still be asked
_AS_WELL = 0.15
#: the words that ask a loop's output itself
_OUTPUT_SAID = frozenset("out output op mv cv manipulated demand".split())


def _raw_words(label: str) -> list[str]:
    """A name's words as written, every one ("Pump 1 Can Run": pump, 1, can, run)."""
    return [t.raw for t in tokens(label)]


#: words of a question of whether a thing runs, of what a switch was told, and the one word
#: of running a status adds to its switch's name ("Pump 1 Run", "Fan 2 running")
_RUNNING_ASKED = frozenset("running run on started going status state feedback fb".split())
_TOLD = frozenset("commanded command cmd switched set told requested request".split())
_RUNNING_STATUS = frozenset(("run", "running", "runs", "fb", "feedback",
                             # ("Molino en marcha", "Pompe en marche", "Pumpe in Betrieb")
                             "marcha", "marche", "marcia", "funcionamiento", "funcionando",
                             "funcionamento", "funzionamento", "funzione", "betrieb", "läuft",
                             "laeuft"))
#: a preposition before a running word of a language that says "in running" ("en marcha")
_RUNNING_IN = frozenset(("en", "em", "in"))
#: words a switch may begin with before its thing, in languages that say the verb first
#: ("Marcha molino", "Arranque bomba 2", "Avvio pompa", "Run pump 1")
_SWITCH_BEFORE = frozenset(("marcha", "marche", "marcia", "arranque", "avvio", "run", "start"))
#: words a status may end with after its words of running ("Pump 2 running status", 运行反馈,
#: 运行中), and words a switch may end with after its thing ("Pump 1 start/stop", "Fan 2
#: cmd", 启停, 启停控制; not "Fan 1 Run", which a question says as the switch: "is fan 1 run
#: on", review atk49): each a word as `_raw_words` gives it (a Chinese character)
_STATUS_AFTER = frozenset(("status", "state", "signal", "indication", "反", "馈", "中", "状",
                           "态"))
#: a first word that asks whether there is something ("any faults", "anything wrong")
_ANY = frozenset(("any", "anything"))  # (not "anyone in the booth? start the fan": review
# atk53)
_SWITCH_AFTER = frozenset(("start", "stop", "command", "cmd", "control", "ein", "marcha",
                           "marche", "marcia", "启", "控", "制", "令"))


def _more_than_status(point: Point) -> bool:
    """Whether a status's name or description says what kind of status it is, other than
    its thing's running: a trip, a fault, local or remote ("SF-3 L/R STS", "Pump 11 status"
    described as its overload trip — review atk54)."""
    text = f"{point.name} {point.description or ''}"
    return "/" in point.name or any(
        _says_a_state(t.raw) and t.raw not in _STATUS_AFTER for t in tokens(text)
        if not t.is_id and t.raw.isalpha())


#: what drives a machine, whose running is the machine's ("Pump 1 motor running")
_PRIME_MOVERS = ("engine", "motor", "drive")


def _statuses(points: list[Point], profiles: Profiles) -> dict[str, str]:
    """Each switch named by its thing or number ("Pump 1", "Pump 1 start/stop", 2号泵启停)
    and the one read-only on/off point named as that thing is, word for word, with one word
    of running after it ("Pump 1 Run", "Pump 2 running status", 2号泵运行反馈)."""
    spoken = {p.id: tuple(_raw_words(profiles.spoken(p))) for p in points if p.kind == "bool"}
    readings: dict[tuple[str, ...], list[str]] = {}
    #: ...and those named as a thing and "status" alone ("SF-1 STS", "Supply fan 1 status"),
    #: which only a start/stop of that thing has for its run status
    stated: dict[tuple[str, ...], list[str]] = {}
    for p in points:
        if p.kind == "bool" and not p.writable:
            # (a status named by its tag is said as described: "YL-1103B", "Brine feed pump B
            # running", of the "HS-1103B" described as its run command — blind batch 45)
            said = _raw_words(tag_described(p)) if named_by_code(p.name) else spoken[p.id]
            own = _trimmed(tuple(said), _STATUS_AFTER)
            thing = _trimmed(own, _RUNNING_STATUS)
            if thing != own and thing[-1:] and thing[-1] in _RUNNING_IN:
                thing = thing[:-1]
            if thing and thing != own:
                readings.setdefault(thing, []).append(p.id)
            elif own and own != tuple(said) and not _more_than_status(p):
                stated.setdefault(own, []).append(p.id)
    out: dict[str, str] = {}
    for p in points:
        if not p.writable or p.kind != "bool":
            continue
        # (a switch named by its tag as its status is: "BP-2 S/S", described as brine pump
        # 2's start/stop, beside a "BP-2 STS", its run status — blind batch 47)
        # (and one named in Chinese alone by that name, as its status is: 2号高压泵启动 beside
        # 2号高压泵运行, whatever its description calls it in English — blind batch 46)
        for said in (spoken[p.id], tuple(_raw_words(p.name)),
                     *([tuple(_raw_words(tag_described(p)))] if named_by_code(p.name) else [])):
            own = _trimmed(said, _SWITCH_AFTER)
            if own != said and len(own) > 1 and own[-1] == "run":
                own = own[:-1]  # "Jet fan bank 1 run command": a switch, its run told
            if not own or not (own[-1].isdigit() or a_machine(own[-1]) or (
                    len(own) > 1 and len(own[-1]) == 1 and own[-1].isalpha()
                    and a_machine(own[-2]))):  # ("Brine feed pump B")
                continue
            while len(own) > 1 and own[0] in _SWITCH_BEFORE:
                own = own[1:]
            # (or named as that thing's engine, motor or drive: "CHP engine running" of the
            # "CHP start command" — blind batch 52; no fan or pump of it is the thing)
            found = readings.get(own, []) or [
                s for mover in _PRIME_MOVERS for s in readings.get((*own, mover), [])]
            if not found and (unpaired(p.name) != p.name or {"start", "stop"} <= set(said)):
                found = stated.get(own, [])  # ("SF-1 S/S" beside "SF-1 STS", described as
                # supply fan 1's start/stop and status — review atk53)
            if len(found) == 1:
                out[p.id] = found[0]
                break
    # (one status of two switches said alike, "Feed pump run command" on two devices or as
    # two tags: the status of neither — review atk51; but "Pump 1 start" and "Pump 1 stop"
    # beside "Pump 1 running" are one pump's, review atk52)
    by_id = {p.id: p for p in points}
    claimers: dict[str, list[Point]] = {}
    for switch, status in out.items():
        claimers.setdefault(status, []).append(by_id[switch])
    return {switch: status for switch, status in out.items()
            if len(claimers[status]) == 1 or all(
                p.device == by_id[status].device and not named_by_code(p.name)
                for p in claimers[status])}


#: the steps of a scale a value is said on ("to stage two", "to gear 3")
_SCALE_STEPS = frozenset("stage step gear notch setting mode".split())


#: what a number before it counts, that numbers no thing: the ways of a valve ("Vanne 3
#: voies", "Valvola 3 vie": a three-way valve — review atk50)
WAYS = frozenset("way ways voies voie vias via vie wege weg".split())


#: what a command opening with it asks to be done, which no reading does
#: (not those that are nouns as often: "rinse conductivity", "fill level", "dose rate",
#: "freeze room", "bypass valve", "arm position", "switch room": review atk52)
_ORDERS = frozenset(f"action.{a}" for a in ("acknowledge", "calibrate", "reset"))


_ASKED_POLITELY = re.compile(r"^(?:(?:please|pls|kindly|just|(?:can|could|would) you)\s+)+",
                             re.IGNORECASE)


def _an_order(text: str) -> bool:
    """Whether a command opens with a word of doing that is no switching, setting or asking
    ("acknowledge the fault", "reset the trip"; not "clear well level", whose first words are
    a thing)."""
    text = _ASKED_POLITELY.sub("", text.strip())
    found = concepts_of_text(text)
    first = [m for m in found if m.start == min(x.start for x in found)] if found else []
    return bool(first) and first[0].start == 0 and all(
        m.concept.kind == "action" for m in first) and any(
        m.concept.id in _ORDERS for m in first)


def described_numbers(point: Point) -> list[tuple[str, str]]:
    """The words a point's description puts before a number its name has too ("chamber 1"
    of "Werkzeugofen.Kammer1.Temp_Soll", "Die oven chamber 1 setpoint")."""
    if not point.description:
        return []
    own = {t.text for t in tokens(point.name) if t.is_id}
    toks = tokens(point.description)
    return [(t.text, after.text) for t, after in itertools.pairwise(toks)
            if after.is_id and after.text in own and not t.is_id and t.raw.isalpha()
            and len(t.raw) > 2 and t.raw not in STOP and not _measure_word(t.raw)]


def _measure_word(word: str) -> bool:
    """Whether the lexicon reads a word as what is measured or set, or how ("speed" of "Belt
    speed 1 setpoint" numbers no speed: review atk51), not as a thing or a word it lacks."""
    return any(m.start == 0 and m.end == len(word) and m.concept.kind in (
        "quantity", "role", "state", "modifier", "unit") for m in concepts_of_text(word))


@functools.lru_cache(maxsize=4096)
def english_labels(word: str) -> frozenset[str]:
    """The English label of the machine a word is, whole, where the label is one word and
    another than the word ("bomba": pump; "Kessel": boiler)."""
    out: set[str] = set()
    for m in concepts_of_text(word):
        c = m.concept
        label = c.en.casefold()
        if m.start == 0 and m.end == len(word) and c.kind == "thing" and label.isalpha() \
                and label != word.casefold():
            out.add(label)
    return frozenset(out)


def _trimmed(words: tuple[str, ...], after: frozenset[str]) -> tuple[str, ...]:
    """The words without those of `after` they end with."""
    end = len(words)
    while end and words[end - 1] in after:
        end -= 1
    return words[:end]


def _setting_worded(text: str) -> bool:
    """Whether words the lexicon reads as a setting are said ("setting", "set value",
    "desired", "Sollwert"), as "setpoint" is (review atk48)."""
    return any(m.concept.id == "role.setpoint" for m in concepts_of_text(text))


def _loop_of(name: str) -> tuple[str, str] | None:
    """The loop a tag-named point is a value or a setpoint of, and which ("FIC-103.SP":
    ("fic-103", "setpoint"); "TIC101_PV": ("tic101", "value")); None of any other name."""
    found = _LOOP_ROLE.fullmatch(name.strip())
    if found is None or not _CONTROLLER.fullmatch(re.sub(r"[^A-Za-z]", "", found.group(1))):
        return None  # (a controller's tag only: "INV-01.PV" is an inverter's PV power)
    role = "setpoint" if found.group(2).upper() in ("SP", "SV") else "value"
    return found.group(1).casefold(), role


def _loop_parameter(name: str) -> bool:
    """A loop's parameter other than its value, setpoint and mode ("TIC-202.OP", "LIC105_OUT",
    "10LAB40DL001-OUT"), which DCS exports describe as the loop itself."""
    return bool((_TAG_PARAMETER.search(name) and not _TAG_NAMED.search(name))
                or _TAG_OUTPUT.search(name))


def _measured(text: str) -> bool:
    """Whether words say only what is measured, or of what: a quantity or a medium ("oxygen",
    "carbon monoxide", "instrument air"), no number, thing or place."""
    found = concepts_of_text(text)
    said = {w.casefold() for w in text.split()}
    return bool(found) and not any(c.isdigit() for c in text) and not said & _NOT_NAMING and \
        all(m.concept.kind in ("quantity", "medium") for m in found)


def _initials_dropped(words: list[str]) -> list[str]:
    """A tag after the words its letters are the initials of, said as its number: "jet fan
    JF-N01" is jet fan N01 (as "pump P-301" is pump 301: the words say the thing)."""
    out: list[str] = []
    for w in words:
        tag = _INITIALLED.fullmatch(w)
        letters = tag.group(1).casefold() if tag else ""
        if tag and len(out) >= len(letters) and \
                [x[:1].casefold() for x in out[-len(letters):]] == list(letters):
            out.append(tag.group(2))
        else:
            out.append(w)
    return out


#: a tag of letters and what numbers it ("JF-N01", "P-301")
_INITIALLED = re.compile(r"([A-Z]{1,4})-([A-Z]?\d{1,5}[A-Z]?)")


def _says_an_action(text: str) -> bool:
    """Whether words say an action or a state (not a mode), but as a thing's word: the
    "cooler" of "Cooler fan 2" is a cooler, no "make it cooler"."""
    found = concepts_of_text(text)
    things = {(m.start, m.end) for m in found if m.concept.kind == "thing"}
    return any(m.concept.kind in ("action", "state") and m.concept.id != "state.mode"
               and (m.start, m.end) not in things for m in found)


#: a switch's description that says it is its thing's run command ("Pump 2 start/stop")
_RUN_PAIRS = frozenset(frozenset(pair.split("/")) for pair in (
    "start/stop", "run/stop", "on/off", "running/stopped"))
#: a description that says which value is which ("1 = stop", "inverted", "active low"): a
#: switch that may be the other way round (and valves, "open/close", name their kind by an
#: action, "fill", "drain": no name is made of theirs)
_INVERTED = re.compile(r"(?i)invert|=|active[- ]low|normally|\bn\.?[co]\.?\b")
#: the most words of a description that make a name
_DESCRIBED_WORDS = 12
#: words that link a name to where or how it is measured ("… at the kiln back end")
_LINKING = frozenset("at in on of from to for by with via measured after before".split())
#: words of a description that say what a point does or when, not what it is
_NOT_NAMING = frozenset("""command cmd permissive pushbutton button emergency esd trip trips
    tripped reset inhibit inhibited interlock alarm fault when if unless while after before
    not no only starts stops opens closes runs shutdown shut-down standby spare unused
    reserved reserve future""".split())


#: verbs of a thing done that no read answers, opening a command: a fire lit or put out, a
#: thing isolated, purged or bypassed ("light" and "fire" only before "the" or "up": "light
#: 3", "fire alarm status" name things)
_DONE_VERBS = frozenset("""
    ignite relight reignite extinguish light fire isolate deisolate normalise normalize purge
    flush prime bypass override jog
""".split())


def _done_first(toks: list[Token], named: AbstractSet[str]) -> bool:
    """A command opening with one of _DONE_VERBS, which is no word of the point read ("purge
    air flow", "vent valve 2" name theirs)."""
    words = [t for t in toks if not t.zh and t.raw not in _POLITE]
    if len(words) < 2 or words[0].raw not in _DONE_VERBS or words[0].text in named:
        return False
    return words[0].raw not in LIGHTS | PUTS_OUT or flame_verb(toks) is not None


#: the things a flame is: "light the flare", "ignite burner 2", "extinguish the pilot" switch
#: that very thing on or off (blind batches 50-52)
LIT_THINGS = frozenset(("thing.flare", "thing.burner"))
#: ...of a point named by none of these: an alarm, a lockout, a fan of the burner is not lit
_NOT_LIT = frozenset("""alarm alm fault flt trip tripped lockout lock interlock reset bypass
    permissive purge fan blower pump valve damper motor status feedback fb light lamp stop
    shutdown off inhibit disable isolate isolation esd loss no kill block cutout
    hold failure fail""".split())
#: words of a flame's switch after its thing that say only that it is its switch ("Burner
#: group A enable")
LIT_ROLES = frozenset("run enable start command cmd on onoff switch group bank".split())
#: words between the verb and the thing lit that name nothing ("light up the burners")
_LIT_FILLERS = frozenset("the up a an out please now".split())


#: words a terse write may say besides a name, a value and its unit ("kiln speed 3.6 please")
_ONLY_POLITE = frozenset("the please pls plz kindly".split())
#: the words a setpoint's name adds to its measurement's ("Kiln speed setpoint")
_ITS_SETPOINT = frozenset(("setpoint", "sp", "target"))


class RuleRouter:
    def __init__(self, points: list[Point], intents: tuple[Intent, ...] = (),
                 lexicon: Lexicon | None = None) -> None:
        named, kin = kin_named(spelled_out(points))
        points = [said_as_described(p) for p in named]
        # (the name in words a description gave a tag: its name as a command says it)
        spoken = {p.id: p.aliases[-1] for p, before in zip(points, named, strict=True)
                  if p.aliases != before.aliases}
        #: the words of what each point named by a tag or code is described as, of those its
        #: description names to no command ("Pump, on/off", a 7-word switch, an alarm): they
        #: still say what it is, so a command all of whose words they hold may mean it
        self.described_unnamed = {
            p.id: described for p in points if p.id not in spoken
            and not _loop_parameter(p.name)
            and (described := frozenset(t.text for t in content(tokens(tag_described(p)))))}
        #: the setpoints named in Chinese by their reading's name, and that reading
        self.kin = kin
        self.points = {p.id: p for p in points}
        self.profiles = Profiles(points, lexicon, spoken)
        self.labels: list[Label] = []
        self.numbered: set[tuple[str, str]] = set()  # ("boiler", "3"): numbered things we have
        self.loosely_numbered: set[tuple[str, str]] = set()  # ("pump", "1") of "1 Feed pump"
        #: words written next to a number that names a thing ("pump" in "pump 1", "boiler" in
        #: "#3 boiler"): a number beside one of them names, it is no value
        self.id_words: set[str] = set()
        id_labelled: dict[str, int] = {}  # 1: a point's first label is its id's
        for p in points:
            for n, text in enumerate((p.id, unpaired(p.name), *p.aliases, *p.names.values(),
                                      *_untagged(p.name))):
                toks = tuple(self.profiles.formula_words(content(_ungrouped(tokens(text)),
                                                                 kept=capitals(text))))
                id_labelled.setdefault(p.id, int(n == 0 and bool(toks)))
                if toks:
                    weight = sum(2.0 if t.is_id else 1.0 for t in toks)
                    self.labels.append(Label(p.id, toks, weight))
                    for i, t in enumerate(toks[:-1]):
                        if toks[i + 1].is_id and not t.is_id and not (
                                i + 2 < len(toks) and toks[i + 2].raw in WAYS):
                            self.numbered.add((t.text, toks[i + 1].text))
                    # "Transfer pump P-202": a tag's letter is its thing's first, and the
                    # number after it numbers the thing ("pump 202" is no unknown pump), as
                    # the semantic stage has it (`Profiles`)
                    self.numbered |= {(t.text, toks[i + 2].text) for i, t in enumerate(toks[:-2])
                                      if not t.is_id and toks[i + 1].ident
                                      and toks[i + 1].text == t.text[:1]
                                      and toks[i + 2].is_number}
                    if len(toks) > 1 and toks[0].is_id and not toks[1].is_id and \
                            numbered_first(text):
                        # "#3 retort temperature": numbered first, retort 3
                        self.numbered.add((toks[1].text, toks[0].text))
                    elif len(toks) > 1 and toks[0].is_number and not toks[1].is_id:
                        # "1 Feed pump": numbered first unmarked, so some word of it is
                        # thing 1 (which, the name does not say): "feed pump 1" is no
                        # unknown pump
                        self.loosely_numbered |= {(t.text, toks[0].text) for t in toks[1:]
                                                  if not t.is_id}
                    for i, t in enumerate(toks):  # "pump 1"; "#3 boiler", a name's first
                        beside = toks[i - 1] if i > 0 else toks[1] if len(toks) > 1 else t
                        if t.is_number and not beside.is_id:
                            self.id_words.add(beside.text)
        #: the places the names call by a name and by a code ("Mill Lane" and "LS04")
        self.places = _places(points, self.profiles.lexicon)
        self.abbreviations = _abbreviations(points, self.profiles.name_words) | \
            _spelled_in_full(points, self.profiles.name_words, self.profiles.lexicon.words())
        self.profiles.spelled_in_full(self.abbreviations)
        # "circ 1" of "circ1_current" numbers the circulating pump as "circ" did
        self.numbered |= {(self.abbreviations[w], n) for w, n in self.numbered
                          if w in self.abbreviations}
        self.id_words |= {self.abbreviations[w] for w in self.id_words
                          if w in self.abbreviations}
        # "pump 3" of a "Velocidade bomba 3": the English words of a machine a name writes
        # in another language number it as the name's word does, so the 3 is no value
        # (review atk50: "pump 3 on" wrote 3 to the pump's speed)
        spoken_as = {w: english_labels(w) for w, _ in self.numbered}
        self.numbered |= {(e, n) for w, n in list(self.numbered) for e in spoken_as[w]}
        self.id_words |= {e for w in self.id_words for e in spoken_as.get(w, ())}
        # "chamber 1" of "Werkzeugofen.Kammer1.Temp_Soll", described as the "Die oven chamber
        # 1 setpoint": a word its description numbers as its name does is no value beside its
        # number (blind batch 45); no family of things, as the descriptions may say one of
        # several ("Paste temperature in malaxer 1", and malaxer 2 is described by nobody)
        self.id_words |= {word for p in points for word, _ in described_numbers(p)}
        # ...but a thing a description numbers is one the plant has ("paste pump 2" of a
        # "B_Pasta_02.Presion" described "Paste pump 2 discharge pressure")
        self.loosely_numbered |= {pair for p in points for pair in described_numbers(p)}
        #: each run switch's one read-only status, where it has one (`_status_instead`)
        self.statuses = _statuses(list(self.points.values()), self.profiles)
        #: the words of the points' names as written ("cooler", which means a temperature
        #: elsewhere, of a "Clinker cooler fan")
        self.written_names = frozenset(t.raw for label in self.labels for t in label.toks)
        #: ...and as read ("arm" of "Loading arms")
        self.name_texts = frozenset(t.text for label in self.labels for t in label.toks)
        #: two words in a row of a name, as written
        self.name_pairs = frozenset((label.toks[k].raw, label.toks[k + 1].raw)
                                    for label in self.labels for k in range(len(label.toks) - 1))
        #: ...and the points whose names have each pair
        self.pair_points: dict[tuple[str, str], set[str]] = {}
        for label in self.labels:
            for k in range(len(label.toks) - 1):
                self.pair_points.setdefault((label.toks[k].raw, label.toks[k + 1].raw),
                                            set()).add(label.point)
        #: the last word of a writable on/off point's name after the thing it is of ("defrost"
        #: of "Evaporator 2 defrost", "backwash" of "Filter 1 backwash"): what the point does,
        #: which a command said first is asked to do ("defrost evap 2")
        #: — a word no name has before others ("pump" of "Transfer pump discharge pressure"
        #: is a thing, never a verb)
        inner = {t.text for label in self.labels for t in label.toks[:-1]}
        self.action_heads: dict[str, set[str]] = {}
        self.phrasal_heads: dict[tuple[str, str], set[str]] = {}
        for label in self.labels:
            point, last = self.points[label.point], label.toks[-1]
            if point.writable and point.kind == "bool" and len(label.toks) > 1 \
                    and not last.is_id and last.text not in inner:
                self.action_heads.setdefault(last.text, set()).add(point.id)
            if point.writable and point.kind == "bool" and len(label.toks) > 2 and \
                    last.raw in _PARTICLES | {"up"} and not label.toks[-2].is_id:
                # "top up tank 2" of "Tank 2 top up": a phrasal action, its verb said first
                self.phrasal_heads.setdefault(
                    (label.toks[-2].text, last.raw), set()).add(point.id)
        #: the words that undo what a switch named by an action does ("normalise" of "Feeder
        #: 3 isolate", "release" of "Fan 5 brake"): said first, a verb, as its action is
        self.undoings: dict[str, set[str]] = {}
        for point in points:
            sense = point_sense(point) if point.writable else None
            if sense is not None and not sense.named:
                for word in sense.opposites:
                    self.undoings.setdefault(word, set()).add(point.id)
        #: a letter written against a number in the plant's own names ("EDO Z1 SP")
        self.glued = {(m.group(1).casefold(), m.group(2)) for p in points
                      for text in (p.name, *p.aliases) for m in _GLUED.finditer(text)}
        #: the thing each letter the names write against a number stands for: the one thing
        #: beginning with it that the descriptions of the points so marked (by name or by a
        #: choice) say, and no name or device does ("p": "pump" of "LS04 duty sel", choices
        #: P1, P2, described "Which pump at LS04 is the duty pump"; not the "sump pump" of
        #: another point's description, review atk44b; `_lettered_things`)
        device_words = frozenset(t.text for p in points
                                 for t in content(tokens(p.device.replace("_", " "))))
        prose_things: dict[str, set[str]] = {}
        for p in points:
            marked = {m.group(1).casefold() for text in (p.name, *p.aliases,
                                                         *(c for _, c in spellings(p)))
                      for m in _GLUED.finditer(text)}
            if not marked or not p.description:
                continue
            for t in content(tokens(p.description)):
                w = t.text
                if w[:1] in marked and len(w) >= 3 and w.isalpha() and w.isascii() and \
                        w not in self.profiles.name_words and w not in device_words and any(
                            s.kind == "thing" for s in self.profiles.lexicon.concepts(w)):
                    prose_things.setdefault(w[:1], set()).add(w)
        self._letter_things = {letter: next(iter(found))
                               for letter, found in prose_things.items() if len(found) == 1}
        #: the numbers of twins lettered after them, with their letters, as the names write
        #: them ("Pump 101A", "Feeder 1-B"; not "Side A conveyor 2")
        self.twin_letters = frozenset(
            (n.text, x.text) for label in self.labels
            for n, x in zip(label.toks, label.toks[1:], strict=False)
            if n.raw.isdigit() and x.ident and len(x.raw) == 1)
        # "boiler", "pump": words of numbered things; "line": of lettered ones ("line a")
        self.families = {w for w, i in self.numbered if i[0].isdigit() or i[0] == "-"}
        self.lettered = {w for w, i in self.numbered if not (i[0].isdigit() or i[0] == "-")}
        #: the numbers the names write as a specification of the word after them ("2 pack
        #: mixer", "3-way valve": `normalize._spec`), with that word
        self.specs = {tuple(t.raw.split("-", 1)) for label in self.labels for t in label.toks
                      if re.fullmatch(r"\d+-[a-z]+", t.raw)}
        #: words the names write with a hyphen ("wash-down"), by the word they make joined
        #: ("washdown"), unless a name writes that word too
        joined: dict[str, str] = {}
        whole: set[str] = set()  # the words the names, aliases and choices write (not ids)
        for point in points:
            for written in (point.name, *point.aliases, *(said for _, said in spellings(point))):
                whole.update(_A_WORD.findall(written.casefold()))
            for written in (point.name, *point.aliases):
                for m in _HYPHENATED.finditer(written):
                    joined[(m.group(1) + m.group(2)).casefold()] = m.group(0).casefold()
        # Only a word no one knows joined, of parts that are no verbs: "autostart" is no
        # "start" asked, "makeup" no "make", "shutoff" no "shut"; "bypass" and "standby"
        # are words already (a bypass is refused; a choice is said so)
        self.compounds = {w: h for w, h in joined.items() if w not in whole
                          and not set(h.split("-")) & _VERB_PARTS and not _known_word(w)}
        # and words the names write joined ("Feedwater pump"), said apart ("feed water
        # pump"), or apart ("Hammer mill 1 current"), said joined ("hammermill 1"): by the
        # pair said, the word written; by the word said, the pair written. Parts of three
        # letters or more, no verb among them ("shut off the gas shutoff valve"), and only
        # where the names do not write it both ways
        spaced: dict[str, str] = {}
        apart: set[tuple[str, str]] = set()  # the pairs the names write apart
        for point in points:
            for written in (point.name, *point.aliases):
                parts = _A_PART.findall(written.casefold())
                for a, b in itertools.pairwise(parts):
                    if re.search(rf"(?<![\w-]){a}\s+{b}(?![\w-])", written.casefold()):
                        apart.add((a, b))
                        if not {a, b} & _VERB_PARTS:
                            spaced[a + b] = f"{a} {b}"
        self.spaced = {w: pair for w, pair in spaced.items() if w not in whole
                       and w.removesuffix("s") not in whole and not _known_word(w)}
        # (not the words of ids and devices: a point on device "pumphouse" is no "pump house
        # temperature", and "pellet mill", "hammer mill" are the lexicon's words said apart)
        self.joined_pairs: dict[tuple[str, str], str] = {}
        for word in sorted(whole - self.spaced.keys()):
            for i in range(3, len(word) - 2):
                a, b = word[:i], word[i:]
                if {a, b} & _VERB_PARTS:
                    continue
                # (as the names write it, hyphenated or not: "pump over" of a "Pump-over
                # pump" whose id says "pumpover")
                for pair in ((a, b), (a, b + "s"), (a, b[:-1]) if b.endswith("s") else ()):
                    if pair and pair not in apart:
                        self.joined_pairs.setdefault(pair, joined.get(word, word))
        self.label_ids: dict[str, set[str]] = {}
        self.point_words: dict[str, set[str]] = {}  # every token of every label of a point
        self.point_labels: dict[str, list[Label]] = {}  # each point's labels
        #: the things each point's labels number, and their numbers
        self.point_pairs: dict[str, set[tuple[str, str]]] = {}
        for label in self.labels:
            self.point_pairs.setdefault(label.point, set()).update(label.pairs)
        #: the words of each name that says a word of haste ("Mixer 6 fast"), by that word
        #: the words beside it in each name that says a word of haste: ("6", "") of "Mixer 6
        #: fast", ("2", "stop") of "Line 2 fast stop"
        self.haste_names: dict[str, list[tuple[str, str]]] = {}
        for label in self.labels:
            raws = [t.raw for t in label.toks]
            for j, word in enumerate(raws):
                if word in _HASTE:
                    self.haste_names.setdefault(word, []).append(
                        (raws[j - 1] if j else "", raws[j + 1] if j + 1 < len(raws) else ""))
        #: the opposite words each point's names say ("heat", "slow"): `poles`
        self.poles = {pid: point_poles(p) for pid, p in self.points.items()}
        for label in self.labels:
            self.point_labels.setdefault(label.point, []).append(label)
            self.label_ids.setdefault(label.point, set()).update(label.ids)
            self.point_words.setdefault(label.point, set()).update(t.text for t in label.toks)
        #: the words only a point's id says ("fault" of a "Presse.Sammelstoerung" whose id is
        #: "press_fault"): the integrator's note, not a name the plant calls it by
        self.id_only_words = {
            p.id: only for p in points if (only := frozenset(
                t.text for t in content(tokens(p.id.replace("_", " "))) if not t.is_id)
                - {t.text for label in self.point_labels.get(p.id, ())[id_labelled[p.id]:]
                   for t in label.toks}
                - self.profiles.by_id[p.id].described)}
        #: the last word of a writable point's name ("setpoint", "speed", "CSS"): a number
        #: right after one is what to set it to
        self.setting_words = {label.toks[-1].text for label in self.labels
                              if self.points[label.point].writable and not label.toks[-1].is_id}
        #: every word of a writable number's names ("feed" of "Cement mill feed setpoint"): a
        #: number right after the words of one ("cement mill feed 140") may be its value
        self.number_words = {t.text for label in self.labels for t in label.toks
                             if self.points[label.point].writable and not t.is_id
                             and self.points[label.point].kind in ("int", "float")}
        self.intents = {" ".join(t.text for t in tokens(phrase)): intent
                        for intent in intents for phrase in intent.phrases}
        #: the words of writable points' choices ("auto", "manual"): one after "to" is a value
        self.choice_words = {t.text for p in points if p.writable
                             for _, said in spellings(p) for t in content(tokens(said))}
        #: the writable points of each choice as written without spaces or hyphens
        #: ("offline", "inservice")
        self.state_choices: dict[str, set[str]] = {}
        for p in points:
            for _, said in spellings(p) if p.writable else ():
                self.state_choices.setdefault(unspaced(said), set()).add(p.id)
        #: the writable points of choices each one-word choice is of, as said ("jog": the
        #: "Conveyor 5 mode"); its names' words
        self.one_word_choices: dict[str, set[str]] = {}
        for p in points:
            for _, said in spellings(p) if p.writable else ():
                if len(words := content(tokens(said))) == 1:
                    self.one_word_choices.setdefault(words[0].raw, set()).add(p.id)
        self.raw_name_words = {p.id: {t.raw for text in (p.name, *p.aliases)
                                      for t in content(tokens(text))} for p in points}
        #: the words of every point's choices, and the states a screen shows
        self.state_words = {t.text for p in points for _, said in spellings(p)
                            for t in content(tokens(said))} | _SHOWN_STATES
        #: the words of each point's names and choices ("ahu", "mode", "purge")
        self.own_words = {p.id: {t.text for t in content(tokens(" ".join(
            (*(label for label in p.aliases), p.name, p.id.replace("_", " "),
             *(said for _, said in spellings(p))))))} | self.point_words.get(p.id, set())
            for p in points}
        #: a choice right after the last word of a name of a point that takes it ("mode",
        #: "manual"): of writable points, a setting said; of read-only ones, a state reported
        self.choice_after: dict[bool, set[tuple[str, str]]] = {True: set(), False: set()}
        for label in self.labels:
            point = self.points[label.point]
            if label.toks and not label.toks[-1].is_id:
                self.choice_after[point.writable].update(
                    (label.toks[-1].text, t.text)
                    for _, said in spellings(point) for t in content(tokens(said)))

    # -- the stage ---------------------------------------------------------------------------

    def _urgency(self, toks: list[Token], text: str = "") -> list[Token]:
        """Words of haste say nothing of which point, nor of its speed: "stop pump 1 quickly"
        stops the pump, it never sets its speed to 0 (review atk20, QUICK)."""
        if not any(t.raw in _HASTE or t.written == "快" for t in toks):
            return toks
        quick_acting = _QUICK_ACTING.search(text) is not None  # 快开阀: no haste in it
        return [replace(t, raw="please", text="please")
                if t.text not in self.choice_words and not (t.zh and quick_acting)
                and _haste(toks, i, self.haste_names) else t
                for i, t in enumerate(toks)]  # ("put dryer 1 on quick": its quick cycle)

    def _twins_lettered(self, toks: list[Token]) -> list[Token]:
        """A letter said apart after a number whose twins the plant letters: the twin's
        ("start slurry pump 101 A" of a "Slurry pump 101A run"), not an article."""
        out = []
        for i, t in enumerate(toks):
            after_number = i > 0 and len(t.raw) == 1 and not t.zh and not t.unit \
                and toks[i - 1].raw.isdigit()
            twin = after_number and (toks[i - 1].text, t.raw) in self.twin_letters
            if after_number and not t.ident and twin \
                    and not (i > 1 and value_said(toks[i - 2].raw)) \
                    and (t.raw != "a" or i + 1 == len(toks)):  # ("give pump 2 a start")
                out.append(replace(t, text=t.raw, ident=True))  # ("current to 10 a": amps)
            elif after_number and t.ident and not twin:
                out.append(replace(t, text=canonical(t.raw), ident=False))  # "heater 10a"
            elif self.letter_before(toks, i):
                out.append(replace(t, text=t.raw, ident=True))
            else:
                out.append(t)
        return out

    def letter_before(self, toks: list[Token], i: int, *, said: bool = False) -> bool:
        """ "kill the A hydraulic pump": a letter after "the", before the thing it letters
        (a "Hydraulic pump A run"); after "the", even "a" is no article. `said`: the letter
        is already read so, and is asked whether it names (it does: "the B pump" is no pump
        A, review atk41)."""
        t = toks[i]
        if len(t.raw) != 1 or not t.raw.isalpha() or not t.raw.isascii() or \
                (t.ident and not said) or i == 0 or toks[i - 1].raw != "the" or \
                (i > 1 and toks[i - 2].raw in VALUE_BEFORE | {"into"}):
            return False  # ("set the lead pump to the B pump": a choice, `B`)
        return any((w.text, t.raw) in self.profiles.pairs for w in toks[i + 1:i + 4])

    def analyse(self, text: str) -> Analysis:
        row = self._screen_row(text)
        toks = self._split_groups([
            replace(t, text=self.abbreviations[t.text])
            if not t.zh and t.text in self.abbreviations else t
            for t in self.profiles.formula_words(tokens(text if row is None else row))])
        toks = self._lettered_things(self._initials(text, toks))
        toks = self._twins_lettered(toks)
        toks = _run_is_start(_get_going(toks), self._run_named)
        toks = self._states_chosen(toks)
        toks = _or_not(_still_so(_checked_state(self._urgency(toks, text))))
        words = frozenset(t.raw for t in toks)
        named = self._name_pairs(toks)
        # (a "cooler" with more said after it is the machine: "aerial cooler gas outlet temp"
        # asks no change, blind batch 42)
        spoken = frozenset(t.raw for i, t in enumerate(toks) if i not in named
                           and not a_cooler(t, i, toks) and not a_drop(t, i, toks))
        first = toks[0].raw if toks else ""
        # ("any fault on cooling water pump 2": "any" first asks whether there is one)
        yes_no = (first in YES_NO_START and not self._names_first(text, toks)) or \
            YES_NO_MARK in words or _either_state(toks) or (first in _ANY and len(toks) > 1)
        # "fan speed to 60": a value after "to" asks for a write even without a verb
        to_value = any((t.is_number or t.unreadable or t.text in self.choice_words) and i > 0
                       and toks[i - 1].raw in VALUE_BEFORE for i, t in enumerate(toks)) or any(
            # "freezer 2 into production", "route CIP to the media tank": a choice said after
            # "into", or after "to the"
            t.text in self.choice_words and i > 1 and not t.zh and (
                toks[i - 1].raw == "into" or (toks[i - 1].raw in _ARTICLES
                                              and toks[i - 2].raw in VALUE_BEFORE | {"into"}))
            for i, t in enumerate(toks))
        # "what...", "...?", and a Chinese question word anywhere ("温度多少", "是什么")
        asked = any(map(question_mark, text.rstrip()[-1:])) or row is not None  # ("fan 2 on?"
        # asks, sets nothing; so does a screen's row, "BIN 2 AER FAN: ON")
        # "bin 1 feeder, whats it set to": a question opened after the thing is named, with
        # no value said (blind batch 74: a write asked of a setting)
        asked_after = _asked_after_naming(toks)
        question = yes_no or first in WH_START or asked or asked_after or \
            any(t.zh and t.raw in WH_START for t in toks)
        # "pellet mill mode manual": a choice right after the setting it is a choice of, as
        # a number is in "setpoint 65" (not asked: "is the mill mode manual?"); not where a
        # read-only point's name ends so and takes that choice too ("sump pump mode manual"
        # beside a writable "feed pump mode": what the sump pump is in, perhaps)
        to_value = to_value or (not question and any(
            i > 0 and not t.zh and (toks[i - 1].text, t.text) in self.choice_after[True]
            and (toks[i - 1].text, t.text) not in self.choice_after[False]
            for i, t in enumerate(toks)))
        # "chiller 2 on defrost please": a one-word choice right after "on", not asked, of a
        # point whose name is said before it, is the choice to put it on (not a word of a
        # name: "pump 2 on wash bay" may be where it is; nor "tubing pressure on well 2", of
        # a test separator's selector no word names)
        to_value = to_value or (not question and any(
            i > 0 and not t.zh and toks[i - 1].raw == "on" and t.raw not in self.written_names
            and t.raw not in ON_WORDS | OFF_WORDS and any(
                self._names_alone(toks[:i - 1], p) for p in self.one_word_choices.get(t.raw, ()))
            for i, t in enumerate(toks)))
        # ("cooler" of a "Clinker cooler fan" is a thing, not a change asked for)
        wants_write = bool(spoken & (WRITE_VERBS | (CHANGE_WORDS - self.written_names)
                                     | (ARMING - self.name_texts))
                           or to_value
                           or ((_switched(toks) or _on_off_action(toks, self.action_heads))
                               and not asked)
                           or self._done_first(toks, question)
                           # "light the flare": a flame lit, if anything (`lit`)
                           or (not question and flame_verb(toks) is not None)
                           or self._button_pressed(toks, named)
                           # "give the bag filter a pulse clean" asks it done ("give me the
                           # temperature", "give boiler 2 pressure" ask it told)
                           or (first == "give" and len(toks) > 2
                               and toks[1].raw not in ("me", "us")
                               and any(t.raw in ("a", "an", "more", "less") for t in toks[2:]))
                           # "arm paster 1", where a name writes "arms" too (atk32); not
                           # "arm position", "arm temp" (atk33), but "arm the boiler
                           # pressure trip" (atk34)
                           or (first in ARMING and len(toks) > 1 and not toks[1].is_number
                               and toks[1].text not in QUANTITIES)
                           # "zero out every kiln setpoint", "zero the counter": a verb
                           or (first in ("zero", "nil") and len(toks) > 1
                               and toks[1].raw in ("out", "the", "all", "every", "each"))) \
            and not yes_no and first not in WH_START and not asked_after \
            and not _asks_of_a_setting(toks) \
            and not (asked and _state_last(toks, named)) and row is None
        return Analysis(text, toks, words, yes_no, wants_write, question=question,
                        scored=self._score(toks), unknown=self._unknown_numbered(toks),
                        named=named)

    def _initials(self, text: str, toks: list[Token]) -> list[Token]:
        """ "R2" of "Roaster 2", "T3" of "Tank 3": a letter written against a number is the
        first letter of the numbered thing it names, where the plant numbers exactly one
        thing so beginning with that number (not a letter the plant names things with: "line
        A", "EDO Z1 SP"; and not "P2" where both pumps and presses are numbered 2)."""
        glued = {(m.group(1).casefold(), m.group(2)) for m in _GLUED.finditer(text)}
        if not glued:
            return toks
        out = list(toks)
        for i, t in enumerate(toks[:-1]):
            number = toks[i + 1]
            if t.zh or len(t.raw) != 1 or (t.raw, number.raw) not in glued or \
                    not number.is_number or t.raw in self.lettered or \
                    (t.raw, number.raw) in self.glued:
                continue  # ("EDO Z1 SP": the plant's own names say "Z1")
            named = {w for w, n in self.numbered if n == number.text and w.startswith(t.raw)
                     and w.isalpha() and len(w) > 1}
            if len(named) != 1:
                continue
            word = named.pop()
            out[i] = replace(t, text=word, raw=word)
        return out

    def _lettered_things(self, toks: list[Token]) -> list[Token]:
        """ "pump 2" of a plant that names its pumps "P2" ("LS04 P2 run") and describes a point
        so marked as of pumps ("Which pump at LS04 is the duty pump", of choices P1 and P2): a
        thing said with a number is the letter its names write against that number, where the
        marked points' descriptions say that thing and no other thing beginning with the letter
        (`_letter_things`: no "pump 2" of a press shop's "P2", described "press"), no name or
        device says the thing's word ("W2 TBG PSI" on device "wells" is read by the device's
        word), and no other numbered word of the plant begins with that letter. One thing
        said, numbered after it or by an ordinal ("the second pump"); never a count ("start 2
        pumps"). The converse of `_initials` (blind batch 35; reviews atk44, atk44b)."""
        out = list(toks)
        for i, t in enumerate(toks):
            number = toks[i + 1] if i + 1 < len(toks) and toks[i + 1].is_number else \
                toks[i - 1] if i > 0 and toks[i - 1].ordinal else None
            if number is None or t.ident or t.is_number or not number.text.isdigit() or \
                    (not t.zh and t.raw != t.text):  # ("pumps": a count, or several)
                continue
            letter = t.text[:1]
            if self._letter_things.get(letter) != t.text or \
                    (letter, number.text) not in self.glued or letter in self.lettered or \
                    any(w == t.text or (w.startswith(letter) and len(w) > 2 and w.isalpha())
                        for w, _ in self.numbered):
                continue
            out[i] = replace(t, text=letter, raw=t.raw if t.zh else letter)
        return out

    def _screen_row(self, text: str) -> str | None:
        """The row of a screen pasted or read out ("BIN 2 AER FAN: ON", "SCADA banner: ACID
        TRANSFER PUMP RUNNING", "HMI shows 'RO UNIT: OFF', is that right"): what it shows is
        asked about, nothing is set. A row ends in a state or a choice and holds no verb;
        without a screen named first, it has a colon before its state."""
        folded = unicodedata.normalize("NFKC", text).strip()
        shown = _SCREEN.match(folded)
        row = folded if shown is None else shown.group("row")
        row = _TAG_QUESTION.sub("", row).strip().strip(_ROW_QUOTES).strip()
        if shown is None and not _ROW_COLON.search(row):
            return None  # "pump 2 on" is said to switch it (and no row is tokenized twice)
        toks = tokens(row)
        named = self._name_pairs(toks)  # ("make" of "make-up water valve" is a name's word)
        if not toks:
            return None
        value = toks[-2] if toks[-1].unit and len(toks) > 1 else toks[-1]
        if toks[-1].zh or any(t.raw in WRITE_VERBS | _KEEPS and i not in named
                              for i, t in enumerate(toks[:-1])) \
                or (toks[-1].raw not in _STATES_LAST and toks[-1].text not in self.state_words
                    and not value.is_number):
            return None  # (a row shows a state, a choice, or a number: "PUMP 2 SPEED: 100")
        return row

    def _name_pairs(self, toks: list[Token]) -> frozenset[int]:
        """A verb or on/off word said before the word that follows it in a name, and that
        word ("make up" of "Make-up water valve", "start up" of "Start-up counter"); not an
        action word after a thing ("Compressor 1 enable", "Supply fan enable")."""
        acting = WRITE_VERBS | CHANGE_WORDS | ON_WORDS | OFF_WORDS
        out: set[int] = set()
        for i in range(len(toks) - 1):
            first, second = toks[i], toks[i + 1]
            if first.raw in acting and not first.is_id and not second.is_id and \
                    (first.raw, second.raw) in self.name_pairs and \
                    self._pair_names(toks, i, (first.raw, second.raw)) and \
                    not self._another_numbered(toks, i):
                out.update((i, i + 1))
        return frozenset(out)

    def _button_pressed(self, toks: list[Token], named: frozenset[int]) -> bool:
        """ "start pump 1" of a plant whose "Start pump 1" is a writable on/off point (a push
        button): the command said first names the button, and pressing it is asked; not
        "start-up counter" or "start permissive" (no thing started), nor a command that says
        more or less than a button's whole name, word for word ("start fan" of a "Start fan
        3"; "start pump 7" of a "Start pump 7 enable": review atk41) (review atk37)."""
        if not {0, 1} <= named or toks[0].raw not in ("start", "stop") or \
                not any(s.kind == "thing" for s in self.profiles.lexicon.concepts(toks[1].raw)):
            return False  # (a thing started: not "start permissive", whose word is no thing)
        said = [t.text for t in toks]
        buttons = [self.points[p] for p in self.pair_points.get((toks[0].raw, toks[1].raw), ())
                   if any([t.text for t in label.toks] == said
                          for label in self.point_labels.get(p, ()))]
        return bool(buttons) and all(b.kind == "bool" and b.writable for b in buttons)

    def _another_numbered(self, toks: list[Token], i: int) -> bool:
        """The pair at `i` with a number after it that no name numbers it with: "start pump
        16" of a plant with a "Start pump 1" button starts pump 16 (review atk37)."""
        if i + 2 >= len(toks) or not toks[i + 2].is_id:
            return False
        said = (toks[i].text, toks[i + 1].text)
        trios = self.profiles.name_trigrams
        return any(trio[:2] == said and trio[2][:1].isdigit() for trio in trios) and \
            (*said, toks[i + 2].text) not in trios

    def _pair_names(self, toks: list[Token], i: int, pair: tuple[str, str]) -> bool:
        """Whether a point named with the pair ("turn off" of "Fan turn off delay") has a word
        said beside it, other than the pair: "turn off condensate pump 1" names no such point,
        and its "turn off" is the verb (review atk12)."""
        said = {t.text for k, t in enumerate(toks) if k not in (i, i + 1) and not t.is_id
                and t.raw not in _ARTICLES | _POLITE}
        if not said:
            return True  # ("start-up counter" said as "start up"? the name, alone)
        return any(said & self.point_words.get(p, set()) for p in self.pair_points[pair])

    def _run_named(self, toks: list[Token]) -> bool:
        """The words said with "run" name a point whose own name has it ("run blower 1 value":
        "Blower 1 run", whose own word it is); "run the condensate pump", where only the
        engines' "run command" points have it, asks to start the pump."""
        if "run" not in self.profiles.name_words:
            return False
        said = {t.text for t in content(toks) if t.raw != "run" and not t.is_number}
        return any("run" in words and said <= words for words in self.point_words.values())

    def numbered_list(self, toks: list[Token]) -> tuple[int, int, list[int]] | None:
        """ "cyclone 1 and 2 temperatures", "tanks 1, 2 and 3": a word of numbered things and a
        list of their numbers joined by "and" — several things, each of which the rest of the
        command is said of. (The word's place, where the list ends, and where its numbers are;
        None when there is none.) "kiln one, sixty two" is a kiln and a value: a list has an
        "and" in it, and no number of it stands before a unit."""
        def whole(k: int) -> bool:
            t = toks[k]
            return isinstance(t.number, int) and t.number >= 0 and not t.groups \
                and not t.ordinal and not unit_after(toks, k)

        for i, t in enumerate(toks[:-1]):
            if t.text not in self.families or not whole(i + 1):
                continue
            found, k, joined = [i + 1], i + 2, False
            while k < len(toks):
                if toks[k].raw == "and" and k + 1 < len(toks) and whole(k + 1):
                    found.append(k + 1)
                    joined, k = True, k + 2
                elif (toks[k].after_break or k == found[-1] + 1) and whole(k):
                    # "towers 1, 2 and 3", "towers 1 2 and 3"
                    found.append(k)
                    k += 1
                else:
                    break
            if joined and not (k < len(toks) and toks[k].raw in VALUE_BEFORE):
                return i, k, found
        return None

    def _done_first(self, toks: list[Token], question: bool) -> bool:
        """ "defrost evap 2": the command opens with what an on/off point does (the last word
        of its name, "Evaporator 2 defrost"), before the thing: said so, it is a verb, and the
        point is to be started. Not a question, nor a command with a number or an on/off word
        (whose value is the rest of the rules'), nor one that says anything but the point's
        own words after it: "defrost evap 2 status", "... show me" ask after it ("status" and
        "me" are stop words, which name no point but still say what is asked). A list of the
        things ("backwash filters 1 and 2") is the verb said of each: a write, which the
        semantic stage refuses as plural."""
        words = [t for t in toks if t.raw not in _POLITE]
        if not question and len(words) > 2 and (words[0].text, words[1].raw) in \
                self.phrasal_heads and not any((t.is_number and not t.is_id) or t.unreadable
                                               for t in words[2:]):
            # "lock out motor 4", "top up tank 2": the phrasal action a point is named by
            after = {t.text for t in words[2:] if not t.is_id and t.raw not in _ARTICLES}
            return any(after and after <= self.point_words[p]
                       for p in self.phrasal_heads[words[0].text, words[1].raw])
        listed = self.numbered_list(toks)
        in_list = set(listed[2]) if listed is not None else set()
        if question or len(words) < 2 or words[1].is_id or any(
                (t.is_number and i not in in_list
                 and not (i > 0 and toks[i - 1].text in self.id_words))
                or t.unreadable or (t.raw in ON_WORDS | OFF_WORDS and not preposition_on(toks, i))
                for i, t in enumerate(toks)):  # (not "reset the burner trip on oven 1")
            return False
        # ("backwash both filters", "defrost all the evaporators": the verb said of several,
        # a write the semantic stage refuses as plural, never a read of them)
        listing = {"and"} if listed is not None else set()
        where = {id(t) for i, t in enumerate(toks) if preposition_on(toks, i)}
        rest = [t for t in words[1:] if not t.is_id and id(t) not in where
                and t.raw not in _ARTICLES | listing | PLURAL_MARKS]
        several = any(t.raw in PLURAL_MARKS for t in words[1:])
        heads = self.action_heads.get(words[0].text, set()) | self.undoings.get(
            words[0].text, set())
        if words[0].raw in UNDO_PREFIXES and words[1].text in self.action_heads:
            # "de-isolate feeder 3": the undoing of what the point does, said first
            heads, rest = self.action_heads[words[1].text], rest[1:]
        return any((rest or several) and {t.text for t in rest} <= self.point_words[p]
                   for p in heads)

    def _names_first(self, text: str, toks: list[Token]) -> bool:
        """Whether a first word that could open a question ("do", "is") is a plant word's
        abbreviation ("DO setpoint 1.5": dissolved oxygen) rather than a question: it names
        what a point of this plant measures, and no one is asked about ("do we", "do the")."""
        if len(toks) < 2 or toks[1].raw in QUESTION_SUBJECTS:
            return False
        senses = {s.concept for s in self.profiles.lexicon.senses(text, toks)[0]
                  if s.kind in ("quantity", "thing")}
        return bool(senses) and any(senses & p.concepts for p in self.profiles.all)

    def place(self, text: str | Analysis) -> Placement | None:
        a = text if isinstance(text, Analysis) else self.analyse(text)
        placed = self._status_instead(a, self._place(a))
        if placed is not None and placed.action.name in ("read", "write") and \
                not self.covers(a, placed.action.args["point"], placed.action.args.get("value")):
            return None  # sure or silent: a word no one point explains is the next stage's
        if placed is not None and self.named_otherwise(a, placed.action):
            return None
        if placed is not None and placed.action.name in ("read", "write") and \
                self._said_by_id_alone(a, placed.action.args.get("point")):
            return None  # the semantic stage weighs the names too
        if placed is not None and placed.action.name in ("read", "write") and \
                _ZH_SETPOINT.search(a.text) and any(
                    self.profiles.by_id[p].role != "setpoint"
                    for p in _placed_points(placed.action)):
            return None  # 冷藏库设定温度: the room's setpoint, which a name of its reading
            # (冷藏库温度) does not say
        if placed is not None and placed.action.name in ("read", "write") and any(
                self.profiles.other_formula(a.toks, self.profiles.by_id[p])
                for p in _placed_points(placed.action)):
            return None  # "feeder 1 l1 current" of "Feeder 1 L3 current": another phase
        if placed is not None and placed.action.name in ("read", "write") and \
                isinstance(placed.action.args.get("point"), str) and \
                self._by_description(a, placed.action):
            return None  # "dryer moisture" of a roll speed its description says so of
        if placed is not None and placed.action.name == "read" and counted(a.toks):
            return None  # "what are the two tempering ovens reading": a count, not oven 2
        if placed is not None and placed.action.name == "read" and \
                self.said_to_do(a, placed.action.args.get("point")):
            return None  # "pulse the bags" of "Bag filter pulse cleaning": asked to do it
        if placed is not None and placed.action.name == "read" and \
                any(t.unreadable for t in a.toks):
            return None  # "tanks one two and three": a number no one can read may say which
        if placed is not None and placed.action.name == "read" and \
                self.stray_number(a, placed.action.args["point"]):
            return None  # "do setpoint 2": a number no read explains; a write, perhaps
        if placed is not None and placed.action.name == "read" and not a.yes_no and \
                self.points[placed.action.args["point"]].kind == "bool" and \
                MEASURE_ASKED.search(a.text):
            return None  # "how much is in the mixer", "how high's the water in the sump": a
            # measure, which no on/off point gives
        if placed is not None and placed.action.name == "read" and \
                self.amount_of_an_intensity(a, placed.action.args["point"]):
            return None  # "how much water's coming down the river" of a river temperature
        return placed

    def amount_of_an_intensity(self, a: Analysis, point: str) -> bool:
        """An amount of a medium asked ("how much water"), with no word naming a quantity, of a
        point that says how hot and no amount: "how much water's coming down the river" is no
        "River water temperature" (blind batch 56); the model stage weighs it."""
        asked = _HOW_MUCH.search(a.text)
        if asked is None or point not in self.profiles.by_id:
            return False
        lexicon = self.profiles.lexicon
        after = [re.sub(r"['’]s$", "", w) for w in a.text[asked.end():].split()[:2]]
        if not after or not any(s.kind == "medium" for s in (
                *lexicon.concepts(after[0]), *lexicon.concepts(" ".join(after)))):
            return False  # a medium asked of ("how much water"), not "how much is TI-101"
            # (review atk58)
        profile = self.profiles.by_id[point]
        measures = [lexicon.broader((q,)) for q in profile.quantities]
        said = terms(a.text, a.toks, self.profiles)
        if any("quantity" in t.kinds and t.raw not in WEAK_QUANTITY
               and any(lexicon.broader(t.concepts) & m for m in measures)
               for t in said):
            return False  # "how much pressure is on the header": its own quantity asked
        # (how hot only: "how much steam have we got on the header" asks its pressure)
        if a_strength(profile):
            # how much of a substance is in a medium: "how much fresh water is going into the
            # chillers" is no "Chiller PAA concentration" described as "in the chiller water",
            # the medium it is in (blind batch 63); "how much peracetic acid is in the chiller
            # water" is (review atk63)
            much = next((i for i, x in enumerate(a.toks) if x.raw == "much"), len(a.toks))
            # (the "water" of "how much water", a volume asked, is water all the same)
            media = [t.word for t in said if "medium" in t.kinds | t.own_kinds
                     and t.index <= much + 2]
            carrier = _carrier(profile.point.description or "")
            return bool(media) and not any(w in profile.names for w in media) and \
                any(w in carrier for w in media)
        return any(_TEMPERATURE in m for m in measures) and \
            not any(m & AMOUNTS for m in measures)

    def _status_instead(self, a: Analysis, placed: Placement | None) -> Placement | None:
        """ "is pump 1 running" placed on the switch "Pump 1", where "Pump 1 Run" is there too,
        read-only: whether it runs is what its status says, not what it was told (blind batch
        43: "1# Trough Fan" beside "1# Trough Fan Run"). Only from a switch named by its thing
        or number ("Pump 1", not a "Conveyor 1 Reverse" selector), to the one status named
        word for word as the switch and one word of running after it ("Pump 1 Can Run", "Pump
        3 A Run" and "Pump 6 Run In" are none: review atk49), and never where the words ask
        what the switch was told ("is pump 1 commanded on")."""
        if placed is None:
            return None
        return replace(placed, action=self.status_for(a, placed.action))

    def status_for(self, a: Analysis, action: Action) -> Action:
        """The read of a switch's status in place of the switch, where the words ask whether
        it runs (`_status_instead`); any other action as it is. The model stage asks it of the
        model's reads too."""
        if action.name != "read" or not a.words & _RUNNING_ASKED or a.words & _TOLD:
            return action
        point = action.args.get("point")
        status = self.statuses.get(point) if isinstance(point, str) else None
        return action if status is None else Action("read", {"point": status})

    def named_otherwise(self, a: Analysis, action: Action) -> bool:
        """A placement the next stage must weigh: a write of a loop's output the words do
        not ask for ("set the drum level to 50" of a "10HAD10DL001 Drum lvl out", review
        atk46b), a read of a setpoint no setting is asked of (`_setting_unasked`), a read of a
        unit's machine where the words name the unit (`unit_parts.part_read`), or a point
        another tag-named point is described as well as (`described_otherwise`: "start the
        belt press pump", review atk46)."""
        point = action.args.get("point")
        if action.name not in ("read", "write") or not isinstance(point, str) or \
                point not in self.points:
            return False
        if action.name == "write" and self.output_unasked(a, point):
            return True
        if action.name == "write" and \
                self._quantity_of_a_time(a, self.profiles.by_id[point]) is not None:
            return True  # "set the high temp trip to 80" of the trip's delay (review atk74c)
        if action.name == "read" and self._setting_unasked(a, point):
            return True  # "what is the electrical power" of a "CHP electrical power setpoint"
            # beside the "CHP gas engine generator active power" (blind batch 37)
        if action.name == "read" and self._another_value_asked(a, point):
            return True  # 3号冷库温度设定为多少 of the store's high limit (review atk69)
        if action.name == "read" and self.points[point].kind != "bool" and a.toks and \
                a.toks[-1].raw in _RUNNING_LAST and not a.words & (WH_START | {"how"}):
            return True  # "hot oil heater going?": whether it runs, which its hot oil's
            # temperature does not say (blind batch 74; no on/off point is preferred for it:
            # a fault's or a door's would be as much, review atk74b)
        if action.name == "read" and self.quantity_of_its_thing(a, point) is not None:
            return True  # "HP1 pressure" of "High pressure pump 1": its pressure is asked;
            # "the vacuum on pan one" of a pan's level (blind batch 71)
        if action.name == "read" and part_read(a.text, a.toks, self.points[point],
                                               self.profiles):
            return True  # "is chiller 1 running" of its condenser water pump (review atk46b)
        return self.described_otherwise(a, point, write=action.name == "write")

    def _another_value_asked(self, a: Analysis, point: str) -> bool:
        """A setting asked ("设定为多少", "what is it set to") of a point that is a limit, an
        alarm, a difference or a rate of change of what the words say."""
        if not (set_asked(a.toks) or a.words & SETPOINT_SAID or "设定" in a.text):
            return False
        return bool(another_value_unsaid(a.text, a.toks, self.points[point], self.profiles))

    def _said_by_id_alone(self, a: Analysis, point: Any) -> bool:
        """Every word of the command is one only the point's id says, and another point's
        names say them all in other words: "is there a fault" of a "Presse.Sammelstoerung"
        (id "press_fault") beside a "Kuehlwasser.Pumpe2.Stoerung" (review atk51). The rules
        see the id's word, the next stage both."""
        only = self.id_only_words.get(point) if isinstance(point, str) else None
        if not only or {t.text for t in content(a.toks)} & (self.point_words[point] - only):
            return False  # (a word of its name said: the name is what placed it)
        said = terms(a.text, a.toks, self.profiles, spell=False)
        if not said or not all(t.word in only and t.concepts for t in said):
            return False
        return any(all(explain(t, other) >= CONCEPT for t in said)
                   for other in self.profiles.all if other.point.id != point)

    def output_unasked(self, a: Analysis, point: str) -> bool:
        """A tag- or code-named loop's output (`_loop_parameter`) the words do not ask for
        by its own words (not a "Steam humidifier output" named in words)."""
        name = self.points[point].name
        return named_by_code(name) and _loop_parameter(name) and not a.words & _OUTPUT_SAID

    def described_otherwise(self, a: Analysis, point: Any, *, write: bool = False) -> bool:
        """Another point that a tag or code names, and its description to no command
        (`described_unnamed`), is described with every word and number the command names the
        placed point by, and with no other number nor a word of a state or an alarm: which of
        the two is meant is the next stage's to weigh (of a `write`, a writable one: "start
        circulation pump 2" sets no "CP-2 STS" described as its status)."""
        if not isinstance(point, str) or not self.described_unnamed:
            return False
        said = {t.word for t in terms(a.text, a.toks, self.profiles, spell=False)
                if not t.unit}
        numbers = {t.text for t in a.toks if t.is_number}
        return bool(said) and any(
            other != point and numbers == {w for w in words if w.isdigit()}
            and (not write or self.points[other].writable) and (
                (said <= words and not any(map(_says_a_state, words - said - numbers)))
                # ("Pump, on/off": a machine's kind alone, which may be any of it said)
                or (words - numbers <= said and len(words - numbers) == 1
                    and a_machine(next(iter(words - numbers)))))
            for other, words in self.described_unnamed.items())

    def _setting_unasked(self, a: Analysis, point: Any) -> bool:
        """A read of a setpoint whose words ask no setting ("setpoint", "SP", "target", "set",
        设定, 目标), where the plant measures what it sets: a reading of its quantity, numbered
        alike, that explains each word said about as well (`_AS_WELL`). Which of the two is
        asked is the next stage's to weigh (the setpoint's name may merely hold more of the
        words said)."""
        if not isinstance(point, str):
            return False
        profile = self.profiles.by_id[point]
        if profile.role != "setpoint" or a.words & SETPOINT_SAID or "set" in a.words or \
                "设定" in a.text or "目标" in a.text or _setting_worded(a.text):
            return False
        said = [t for t in terms(a.text, a.toks, self.profiles, spell=False) if not t.unit]
        # (a reading that explains each word about as well: no word of a setting is said,
        # "targeting", "curtailed to", "setting", which the setpoint alone explains; or the
        # loop's own value, "FIC-103.PV" of "FIC-103.SP", whatever its description says:
        # 'oil feed rate into R101', blind batch 43)
        loop = _loop_of(profile.point.name)
        return bool(said) and any(
            o.role == "measurement" and (
                (loop is not None and _loop_of(o.point.name) == (loop[0], "value")) or (
                    o.ids == profile.ids and o.quantities & profile.quantities and
                    all(explain(t, o) >= explain(t, profile) - _AS_WELL for t in said)))
            for o in self.profiles.all if o is not profile)

    def _by_description(self, a: Analysis, action: Action) -> bool:
        """A write with a word the point explains by its description alone
        (`Profiles.by_description`), or a read with all its words so: the next stage's to
        weigh."""
        profile = self.profiles.by_id[action.args["point"]]
        if not profile.described:
            return False
        said = [t for t in terms(a.text, a.toks, self.profiles, spell=False) if not t.unit]
        alone = [self.profiles.by_description(t.word, t.concepts, profile) for t in said]
        if action.name == "write":
            return any(alone)
        return bool(said) and all(alone)

    def said_to_do(self, a: Analysis, point: Any) -> bool:
        """ "pulse the bags": no question, and its first word is a word of the writable switch
        read that names no thing, quantity or state of it ("pulse" of "Bag filter pulse
        cleaning"): what the switch does is asked for, which a read does not do."""
        if not a.question and isinstance(point, str) and self._choice_said_first(a, point):
            return True
        if not a.question and _an_order(a.text) and isinstance(point, str) and not (
                (first := next((t for t in a.toks if t.raw not in _POLITE), None)) is not None
                and first.text in self.point_words.get(point, set())):
            return True  # "acknowledge the fault", "reset the trip": an order, which no
            # reading carries out (review atk51); not a word of the point's own name ("arm 1
            # position", "hold conveyor 10" of a "Hold conveyor 10")
        if isinstance(point, str) and self.points[point].writable and \
                _DO_A.match(a.text) and "?" not in a.text:
            return True  # "do a manual reversal now": asked done, which no read does (blind
            # batch 63; "do a" asks no question, as "do the pumps run" does; "do a check on
            # the boiler pressure" asks a reading: review atk63)
        if a.question or not isinstance(point, str) or not self.points[point].writable or \
                self.points[point].kind != "bool":
            return False
        if a.zh and _GIVEN_ORDER.match(text := a.text.strip()) and \
                not _GIVEN_WORD.search(text) and not _ASKED_TO_SEE.search(text):
            return True  # 给冷冻库化霜 ("defrost the freezer room"): 给 before the thing makes
            # an order of it, which no reading carries out (blind batch 62; not 给我看…, nor
            # the 给 of a word: 给水泵的状态)
        first = next((t for t in a.toks if t.raw not in _POLITE), None)
        words = self.point_words.get(point, set())
        if first is not None and not first.zh and first.text not in words and \
                any(_verb_of(first.raw, w) for w in words) and not a.wants_write:
            return True  # "aerate silo 1" of a "Silo 1 aeration": its verb, said first
        own = [t.text for t in content(tokens(self.points[point].name)) if not t.is_id]
        if first is not None and not first.zh and len(own) > 1 and first.text == own[-1] \
                and first is not a.toks[-1] and not a.wants_write:
            return True  # "backwash filter 2" of an "F2 backwash": what it does, said first
            # (review atk44)
        if first is None or first.is_number or first.zh or \
                first.text not in words or \
                first.raw in YES_NO_START | WH_START or any(
                    label.toks and label.toks[0].text == first.text
                    for label in self.point_labels.get(point, ())):
            return False  # (the name said as it opens: "make-up water valve")
        if first.text not in self.profiles.by_id[point].names:
            return True  # "gas room 1" of a "Room 1 Ethylene Inject" (id room1_gas_inject):
            # a word of its id alone opens the command, as its verb as likely as its thing
        return not any(s.kind in ("thing", "location", "medium", "quantity", "state", "role",
                                  "modifier")
                       for s in self.profiles.lexicon.concepts(first.raw))

    def _choice_said_first(self, a: Analysis, point: str) -> bool:
        """ "jog conveyor 5", "cool furnace 1": the command opens with a choice of the mode of
        a thing it names, as a verb; that is asked done, which no read of `point` does (it had
        been read: the mode, the furnace's temperature). Not a word of `point`'s own names
        ("high temperature alarm")."""
        first = next((t for t in a.toks if t.raw not in _POLITE), None)
        if first is None or first.zh or first.is_number or \
                first.raw in self.raw_name_words.get(point, set()):
            return False
        rest = {t.raw for t in a.toks if t is not first}
        return any(self.raw_name_words[p] & rest
                   for p in self.one_word_choices.get(first.raw, ()))

    def other_tag(self, a: Analysis, point: str) -> str | None:
        """ "heater h2" of a "Heater H1" point, "bath h2" of a "Bath H" one: a letter the
        plant's names write against a number ("H1"), said against a number the point's names
        do not write it with, and no formula the plant has (review atk71: it was hydrogen, and
        its 2 was lost). As said; None: every such tag said is the point's own."""
        said = {(m.group(1).casefold(), m.group(2)) for m in _GLUED.finditer(a.text)}
        letters = {letter for letter, _ in self.glued}
        said = {tag for tag in said if tag[0] in letters and tag not in self.profiles.formulas}
        if not said:
            return None
        p = self.points[point]
        own = {(m.group(1).casefold(), m.group(2)) for label in (p.name, *p.aliases)
               for m in _GLUED.finditer(label)} | {
            (word[0], number) for word, number in self.profiles.by_id[point].pairs
            if word.isalpha() and number.isdigit()}  # ("R1" of a "Reactor 1": its initial)
        return next((letter + number for letter, number in sorted(said - own)), None)

    def quantity_of_its_thing(self, a: Analysis, point: str) -> str | None:
        """A quantity asked of a point whose name only has the word in a name of its thing
        ("pressure" of "High pressure pump 1"), as said: a point that measures it is meant, if
        any; the next stage weighs them. None: no such word."""
        profile = self.profiles.by_id[point]
        toks = a.toks
        own = {(label.toks[k].raw, label.toks[k + 1].raw)
               for label in self.point_labels.get(point, ()) for k in range(len(label.toks) - 1)}
        apart = [t for i, t in enumerate(toks) if not t.zh
                 and not (i > 0 and (toks[i - 1].raw, t.raw) in own)
                 and not (i + 1 < len(toks) and (t.raw, toks[i + 1].raw) in own)]
        if profile.point.kind != "bool":
            return self._quantity_of_a_phrase(a, profile) or self._quantity_of_a_time(a, profile)
        # ("is high pressure pump 1 on": the name's word) — and only where a point named
        # after the switch ends its name with it ("High pressure pump 1 pressure"), never
        # another measure of the thing whose name has the word as the switch's does
        asked = {t.text for t in apart if t.text in QUANTITIES}
        n = len(profile.key)
        return next((o.key[-1] for o in self.profiles.all if o.key and o.key[-1] in asked
                     and o is not profile and any(o.key[k:k + n] == profile.key
                                                  for k in range(len(o.key) - n))), None) \
            or (None if a.yes_no else min(asked & set(profile.key), default=None))
        # ("what's the pressure on pump 2" of a "High pressure pump 2": its on/off is no
        # pressure, asked as a measure — review atk71)

    def _quantity_of_a_time(self, a: Analysis, profile: Profile) -> str | None:
        """ "set level switch 2 level to 30" of a "Level switch 2 delay setpoint" in s: a
        measure said more often than any name of the point says it, of a point that is a time
        (the switch's delay, an alarm's): no level is in seconds (review atk73b). By meaning:
        "lvl", "height" as "level" (review atk74). Of a point its name says is a time, a
        measure said with no time at all: "set the high temp trip to 80" of the trip's delay
        (review atk74c)."""
        if "quantity.time" not in profile.unit_quantities or \
                not all(q.endswith("time") for q in profile.unit_quantities):
            return None  # (a unit that is surely a time: no "mS", a conductivity's as often)
        lexicon = self.profiles.lexicon

        measures = frozenset(s.concept for w in QUANTITIES - {"count"}
                             for s in lexicon.concepts(w))

        def meant(t: Token) -> frozenset[str]:
            if t.zh and len(t.written) < 2:
                return frozenset()  # (the 压 of 压榨, pressing)
            senses = lexicon.concepts(t.text) or lexicon.concepts(t.raw)
            found = frozenset(s.concept for s in senses)
            return found if senses and all(s.kind == "quantity" for s in senses) and \
                found <= measures else frozenset()
            # (a measure, not a count said beside it: "the cycle time of the last shot")

        named: Counter[frozenset[str]] = Counter()
        for label in self.point_labels.get(profile.point.id, ()):
            named |= Counter(m for t in label.toks if (m := meant(t)))
            # (the most any one name says it)
        said = Counter(m for t in a.toks if not t.unit and (m := meant(t)))
        timed = any(t.raw in _TIME_SAID or t.text in _TIME_SAID for t in a.toks) or any(
            w in a.text for w in _TIME_SAID_ZH) or any(
            m.concept.id in profile.unit_quantities for m in concepts_of_text(a.text)) or not any(
            t.raw in _TIME_SAID for label in self.point_labels.get(profile.point.id, ())
            for t in label.toks)  # (only of a point its name says is a time: no "Rinse
        # conductivity limit" in mS, which a unit's case tells from ms)
        # (no time said at all, and a measure: "set the high temp trip to 80" of the trip's
        # delay in min, "set the pressure alarm setpoint to 5" of its delay: review atk74c)
        return next((t.raw for t in a.toks if not t.unit
                     and (m := meant(t)) and not m & profile.unit_quantities
                     and (said[m] > named[m] or not timed)), None)

    def _quantity_of_a_phrase(self, a: Analysis, profile: Profile) -> str | None:
        """ "what's the vacuum on pan one" of a "Vacuum pan 1 massecuite level": a word that is
        a quantity alone, which the point's name says only inside its thing's name ("vacuum
        pan"), said apart from that name and in no phrase of its own ("heat flow" of a "Heat
        meter power" is a heat flow: blind batch 71)."""
        if not profile.quantities:
            return None
        in_things = _words_of_named_things(profile.point.name)
        if not any(t.text in in_things for t in a.toks):
            return None  # (most commands: no word of its things' names said at all)
        has = ((profile.quantities | profile.concepts) - {
            m.concept.id for m in _quantities_naming_things(profile.point.name)}) | (
            profile.unit_quantities if profile.unit_sure else frozenset())
        # (what its unit surely measures it has, whatever names its thing: the flow of a
        # "Flow controller 3 output" in m³/h — review atk73)
        labels = [label.toks for label in self.point_labels.get(profile.point.id, ())]
        own = {(x.text, y.text) for toks in labels for x, y in itertools.pairwise(toks)}
        # (each word as often as a phrase of it is said: "the pressure on the pressure
        # filter" asks a pressure of a "Pressure filter sump level", review atk71)
        phrased = Counter(canonical(w) for m in concepts_of_text(a.text)
                          if " " in a.text[m.start:m.end].strip()
                          for w in a.text[m.start:m.end].casefold().split())
        # (the words beside it as the name spells them: "the oxygen seperator" is in its
        # name's "oxygen separator")
        toks = [t if t.zh or t.text in in_things else
                replace(t, text=self.profiles.speller.correct(t.text) or t.text) for t in a.toks]
        said = Counter(t.text for t in toks)
        # (a Chinese word of its own, 压力; not a character of one, the 冷 of 冷料仓 whose
        # English name, "cold feed bin", says the cold of its thing: a quantity word of the
        # name's pairs only in English order)
        for i, t in enumerate(toks):
            if t.unit or (t.zh and len(t.written) < 2) or t.text not in in_things or \
                    said[t.text] <= phrased[t.text] or \
                    (i > 0 and (toks[i - 1].text, t.text) in own) or \
                    (i + 1 < len(toks) and (t.text, toks[i + 1].text) in own):
                continue
            senses = self.profiles.lexicon.concepts(t.text)
            if senses and all(s.kind == "quantity" for s in senses) and \
                    not {s.concept for s in senses} & has:
                return t.raw
        return None

    def stray_number(self, a: Analysis, point: str) -> bool:
        """A number in a command read as a read that names no thing, is none of the point's
        own numbers and stands where a value does (after a setting word or "to", before a
        unit: "do setpoint 2"): a write may be meant, so no read is sure."""
        toks = a.toks
        naming = self._naming(toks, self.points[point])
        own = self.label_ids.get(point, set())
        counts = counted_by(self.points[point].unit)  # ("160 birds per minute" of a rate
        # in birds/min: a value of it — review atk53)
        return any(t.is_number and i not in naming and t.text not in own and (
            unit_after(toks, i) or (i + 1 < len(toks) and toks[i + 1].text in counts)
            or (i > 0 and (toks[i - 1].text in self.setting_words
                           or toks[i - 1].raw in VALUE_BEFORE))
            or (isinstance(t.number, float) and not t.number.is_integer()))
                   for i, t in enumerate(toks))  # (a fraction numbers no thing: "lime the
        # juice to a pH of seven point six" is no read of the juice's pH)

    def covers(self, a: Analysis, point: str, value: Any = None) -> bool:
        """Whether `point`'s own words (name, aliases, localized names, description, id,
        device, unit) explain every word of the command that says which point is meant, and
        the command speaks of one point ("all the pumps" speaks of several)."""
        if a.words & (PLURAL_MARKS | SUMMARY_WORDS):
            return False
        profile = self.profiles.by_id[point]
        # the point's own words, not meanings: the lexicon is not asked (it is the next
        # stage's), which keeps the rules fast
        plain = [frozenset[Sense]()] * len(a.toks)
        # (a write: by the point's names, not by what its description says of it — "target
        # 15.5 % out of the dryer" is no write of a metering roll "that lets grain out of the
        # dryer")
        return all(explain(t, profile, exact=True) and (
            value is None or t.word not in profile.described or t.word in profile.names)
                   for t in terms(a.text, a.toks, self.profiles, spell=False, senses=plain)) \
            and not self._numbers_another(a, profile, value) \
            and self.quantity_asked_again(a, point) is None

    def quantity_asked_again(self, a: Analysis, point: str) -> str | None:
        """A quantity said more often than any name of the point says it: "high pressure
        pump 1 pressure" asks the pressure of a pump whose name holds the word once, as a
        name; "temperature control 4 temperature" a temperature of a switch (review atk11).
        None: no quantity is asked beyond the point's own words."""
        said: dict[str, int] = {}
        for t in a.toks:
            if t.text in QUANTITIES and t.raw in QUANTITIES and not t.zh and not t.unit:
                said[t.text] = said.get(t.text, 0) + 1  # (as words: "amps" is a unit)
        if not said or max(said.values()) < 2:
            return None
        # (a choice says its own words: "set pressure control mode to constant pressure")
        chosen = [t.text for _, spelled in spellings(self.profiles.by_id[point].point)
                  for t in tokens(spelled)] if point in self.profiles.by_id else []
        labels = [[t.text for t in label.toks] + chosen
                  for label in self.point_labels.get(point, ())] or [chosen]
        for word, n in said.items():
            if n > 1 and all(words.count(word) < n for words in labels):
                return word
        return None

    def places_written(self, text: str) -> str:
        """The command with each place the names call by a name and by a code said by its
        code: "pump 2 at Mill Lane" of a plant whose "LS04 WW level" has the alias "Mill Lane
        wet well level" is LS04's pump 2 (`_places`); said with its code already, the name is
        left out."""
        for said, code in self.places:
            if said.search(text):
                coded = re.search(rf"(?i)(?<![^\W_]){re.escape(code)}(?![^\W_])", text)
                text = said.sub("" if coded else code, text)
        return text

    def specs_written(self, text: str) -> str:
        """The command with each number the names write as a specification written onto its
        word, as `normalize._spec` reads the names: "start the 2 pack mixer" says "2-pack",
        not mixer 2. Not after a word that numbers things here ("pump 2 speed" of a plant
        with a "Pump 2" is pump 2's speed, whatever a "2 speed fan" is)."""
        for number, word in self.specs:
            text = re.sub(rf"(?<![\w.#-])({number})\s+({word})\b",
                          functools.partial(self._spec_written, text), text,
                          flags=re.IGNORECASE)
        return text

    def _states_chosen(self, toks: list[Token]) -> list[Token]:
        """ "set analyser mode to offline", "take the analyser offline": a state phrase that
        `normalize` read as "switch ... off" is, where the words before it name a setting that
        takes it as a choice of its own, that choice said, set (it had written the analyser
        mode's `off`, not `offline`); of any other thing it stays a switch ("take the feed
        pump offline", beside the analyser mode — atk32)."""
        for i, t in enumerate(toks):
            if t.raw not in ("on", "off") or not t.written or t.written == t.raw:
                continue
            points = self.state_choices.get(unspaced(t.written), set())
            things = [x for x in toks[:i] if not (x.raw == "switch" and x.written)
                      and x.raw not in VALUE_BEFORE | {"into", "in", "on"}]
            if not any(self._names_alone(things, p) and self._named_whole(things, p)
                       for p in points):
                return toks  # ("take line 2 offline" is no "Line 2 analyser mode": atk33)
            said = [replace(x, text="set", raw="set") if x.raw == "switch" and x.written else x
                    for x in toks[:i]]  # (its verb still asks it: "take" it so, "put" it)
            return [*said, *tokens(t.written), *toks[i + 1:]]
        return toks

    def _named_whole(self, said: list[Token], point: str) -> bool:
        """Whether every word of one of the point's names (but "mode") is said."""
        words = {x.text if x.is_number else x.raw for x in said}
        return any(all((t.text if t.is_number else t.raw) in words or t.raw == "mode"
                       for t in content(list(label.toks), label=True))
                   for label in self.point_labels.get(point, ()))

    def _names_alone(self, before: list[Token], point: str) -> bool:
        """Whether the words before "on <choice>" name the point that takes the choice and
        nothing else, after a verb that asks a change if any: "chiller 2" (or "chiller 2
        mode", "chiller two", 把2号冷机) of the "Chiller 2 mode"; not "chiller 2 temperature
        on hold", "line 2 case count on hold", "check chiller 2 on defrost", "chiller 2 was
        on defrost"."""
        names = self.raw_name_words[point]
        said = [x.text if x.is_number else x.raw for x in before
                if x.raw not in _ASKING_ONLY and not (x.zh and x.raw in _ZH_ORDERING)]
        while said and said[0] in WRITE_VERBS | STATE_VERBS:
            said = said[1:]
        return bool(set(said) & (names - {"mode"})) and all(w in names for w in said)

    def compounds_written(self, text: str) -> str:
        """The command with a word the names write with a hyphen written so: "switch off the
        washdown pump" of a "Lairage wash-down pump" says its "wash-down" (joined, it was no
        word of the plant, and the switch's "down" unsaid); and a word the names write joined
        or apart written as they do ("feed water pump 1" of "Feedwater pump 1", "hammermill
        2" of "Hammer mill 2")."""
        if self.compounds:
            text = _A_WORD.sub(lambda m: self.compounds.get(m.group(0).casefold(), m.group(0)),
                               text)
        if self.spaced:
            text = _A_PART.sub(
                lambda m: self._spaced_said(m.group(0)), text)
        if not self.joined_pairs:
            return text
        words = list(_A_PART.finditer(text))
        said = [m.group(0).casefold() for m in words]
        # (start, end, word written) of each pair said apart, and of "head and tail water
        # levels": the first part of the pair said before "and" is of a word joined too
        joins: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words) - 1:
            m, n = words[i], words[i + 1]
            word = self.joined_pairs.get((said[i], said[i + 1]))
            if word is None or not text[m.end():n.start()].isspace():
                i += 1
                continue
            # the word before "and"/"or" ("and" is a word of three letters, "or" none)
            k = i - 2 if i >= 2 and said[i - 1] == "and" else i - 1
            if k >= 0 and text[words[k].end():m.start()].strip().casefold() in _JOINING and \
                    (said[k], said[i + 1]) in self.joined_pairs and \
                    (not joins or joins[-1][1] <= words[k].start()):
                before = self.joined_pairs[(said[k], said[i + 1])]
                joins.append((words[k].start(), words[k].end(), before))
            joins.append((m.start(), n.end(), word))
            i += 2
        out: list[str] = []
        last = 0
        for start, end, word in joins:
            out += [text[last:start], word]
            last = end
        return "".join(out) + text[last:]

    def _spaced_said(self, said: str) -> str:
        word = said.casefold()
        pair = self.spaced.get(word)
        if pair is None and word.endswith("s"):
            pair = self.spaced.get(word[:-1])
        return pair if pair is not None else said

    def _spec_written(self, text: str, m: re.Match[str]) -> str:
        before = re.findall(r"[^\W\d_]+", text[:m.start()].casefold())
        if before and canonical(before[-1]) in self.families:
            return m.group(0)
        return f"{m.group(1)}-{m.group(2)}"

    def _numbers_another(self, a: Analysis, profile: Profile, value: Any = None) -> bool:
        """A number after a thing of the point that is not the point's ("conveyor 2" where the
        one conveyor has no number, "AHU 2" of a point on device "ahu1"): a unit that does
        not exist. "1" of a thing that has no number may be that thing. Not the value of a
        write after the point's own number ("substation 2 valve 100", of "Substation 2
        control valve")."""
        toks = a.toks
        numbered = self.label_ids.get(profile.id, set()) | \
            set(_DIGITS.findall(profile.point.device))
        for i, t in enumerate(toks):
            if i == 0 or not t.text.isdigit() or t.text in numbered or \
                    (i + 1 < len(toks) and not toks[i + 1].ident and (
                        toks[i + 1].unit or toks[i + 1].raw in UNIT_WORDS
                        or toks[i + 1].raw in UNIT_SYMBOLS)):
                continue  # "valve 55 percent": a value
            before = toks[i - 1]
            if before.is_id or before.raw in VALUE_BEFORE or before.raw in PLURAL_MARKS or \
                    before.text not in profile.words:
                continue
            if value is not None and t.number == value and not isinstance(value, bool) and \
                    any(x.text in numbered for x in toks[:i - 1] if x.is_id):
                continue
            kinds = {s.kind for s in self.profiles.lexicon.concepts(before.raw)}
            if (numbered or t.text != "1") and "thing" in kinds:
                return True
            if numbered and not kinds:
                # "hearth draught on cremator 2" of the "CR1 hearth draught", whose
                # description names cremator 1: a thing the lexicon does not know, numbered
                # otherwise than the point
                return True
        return False

    def terse_write(self, a: Analysis, point: Point | None) -> bool:
        """A write said without a verb ("kiln 1 setpoint 65", "intake pump 1100 rpm please"):
        not a question, and exactly one number that names nothing, for a writable number
        (`point`; None: for any point)."""
        if a.wants_write or a.question:
            return False
        if point is not None and not (point.writable and point.kind in ("int", "float")):
            return False
        said = self.value_words(a, point)
        if said.problem is not None or len(said.numbers) != 1:
            return False
        # the value follows what is set ("setpoint 65", "hold pressure 650", "kiln one, 62"), or
        # comes with its unit ("1100 rpm"): right after a thing it numbers one ("fermenter 2
        # temperature")
        toks = a.toks
        naming = self._naming(toks, point)
        places = [i for i, t in enumerate(toks) if t.is_number and i not in naming]
        senses = self.profiles.lexicon.senses(a.text, toks)
        for i in places:
            if i + 1 < len(toks) and toks[i + 1].unit:
                continue
            k = i - 1
            while k >= 0 and toks[k].raw in _POLITE:  # "pump 1 please 600"
                k -= 1
            before = toks[k] if k >= 0 else None
            if before is None or before.text in self.id_words or not (
                    toks[i].after_break or before.is_number
                    or before.text in self.setting_words
                    or before.text in (self.point_words[point.id] if point is not None
                                       else self.number_words)
                    or any(s.kind in ("quantity", "role") for s in senses[k])):
                return False
        return True

    def is_intent(self, a: Analysis) -> bool:
        """The command is one of the config's intent phrases."""
        return " ".join(t.text for t in a.toks) in self.intents

    def _plant_words(self, a: Analysis, said: frozenset[str]) -> bool:
        """Each of these words (of a deletion) is a word of a point's names or choices, said
        with another word of that point: "AHU to purge", "open the nitrogen purge valve"; not
        "purge the hall temperature" (it has no purge, whatever the purge valve has), nor
        "purge" or "purge everything" alone."""
        heard = {t.text for t in content(a.toks)}
        return all(any(w in own and (own - said) & heard for own in self.own_words.values())
                   for w in said)

    def _place(self, a: Analysis) -> Placement | None:
        toks, words = a.toks, a.words
        if not toks:
            return Placement(respond("not_understood"), 1.0)
        intent = self.intents.get(" ".join(t.text for t in toks))
        if intent is not None:
            return Placement(_intent_action(intent), 1.0)
        # (a word the plant names a point or a choice with is no deletion: "AHU to purge",
        # "open the purge valve")
        if not self._plant_words(a, words & DESTRUCTIVE) \
                or ("ignore" in words and words & (INJECTION | SAFEGUARDS)) \
                or words & RULE_BREAKING - self.profiles.name_words \
                or (words & DISABLING and words & PROTECTIONS) or self._resets(a) \
                or (words & CALIBRATING - self.profiles.name_words and not a.question):
            return Placement(respond("not_allowed"), 1.0)
        if a.unknown:
            return Placement(respond("unknown_point", asked=a.unknown), 0.9)
        if self.numbered_list(toks) is not None:
            return None  # several things, each to be found: the semantic stage's
        scored = a.scored
        if words & THANKS and not a.question and not a.wants_write and len(toks) <= 4 and \
                "please" not in words and \
                all(t.raw in THANKS | SHORT_THANKS for t in content(toks)):
            return Placement(respond("thanks"), 1.0)  # "ta, cheers": not the total acid
        if not a.wants_write and _greeting_only(toks):
            return Placement(respond("greeting"), 1.0)  # "good evening": not the good copies
        if not scored and not a.wants_write:
            # short and opening with it: "hello, who are you?", not a story that has a "hi"
            opening = {t.raw for t in toks[:2]}
            if opening & GREETINGS or ({"who", "you"} <= words and len(toks) <= 6):
                return Placement(respond("greeting"), 1.0)
            if words & THANKS and len(toks) <= 5:
                return Placement(respond("thanks"), 1.0)
            return None

        every = scored
        if a.wants_write:
            scored = self._prefer_chosen(a, scored)
            writable = [(s, p) for s, p in scored if self.points[p].writable]
            if writable and not self.points[scored[0][1]].writable:
                # the best match is read-only: a writable point may stand in for it only if it
                # is about the same thing ("boiler 3 temperature" -> its setpoint), never another
                # thing that shares a word ("boiler 3 speed"): policy refuses the read-only one
                if not words & WRITE_VERBS and any(
                        t.raw == "at" and a.toks[i + 1].is_number
                        for i, t in enumerate(a.toks[:-1])):
                    return None  # "kiln speed at 3 rpm": where it is, said (review atk55c)
                writable = self._standing_in(a, scored[0][1], writable)
            if writable:
                scored = writable
            target = self.points[scored[0][1]] if scored else None
            said = self.value_words(a, target)
            if said.problem is not None:  # a switch given two numbers is in doubt too
                return Placement(self._ask_back(a, said, target), 1.0)
        else:
            scored = self._unsaid_setpoints_out(a, self._prefer_kind(scored, yes_no=a.yes_no))
        if not scored:
            return None
        best_score, best = scored[0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        others = tuple(p for _, p in scored[1:4])
        # one point alone shares words with the command: low coverage is still unambiguous
        floor = LONE_MIN_SCORE if len(scored) == 1 else MIN_SCORE
        if best_score < floor or best_score - second < MIN_MARGIN:
            return None
        if not self._mostly_about(a, best):
            return None
        point = self.points[best]
        if a.wants_write and not point.writable and self._settable_instead(a, best):
            return None  # a read-only point, and a writable one of what is named may be meant
        if a.question and "set" in a.words and not a.wants_write and \
                self.profiles.by_id[best].role != "setpoint":
            return None  # "what is the tank set to": its setpoint, if it has one
        if not a.wants_write and not point.writable and self.terse_write(a, None) and \
                {t.raw for t in a.toks if not t.is_number and not t.unit
                 and t.raw not in _ONLY_POLITE | {"percent"}} <= self.own_words[best]:
            # "kiln speed 3.6 rpm" of a read-only "Kiln speed" and its "Kiln speed setpoint":
            # the one setpoint that stands in for it, as in "set kiln speed to 3.6 rpm"; its
            # name, a value and its unit alone ("kiln speed change 0.5 rpm", "tank level at
            # 20 %", "… 20 % full" say a change or report one: review atk55)
            fits = [p for _, p in self._standing_in(
                a, best, [(s, p) for s, p in every if self.points[p].writable])
                if self._own_setpoint(best, p)]
            if len(fits) == 1 and self._settable_instead(a, best):
                point, best = self.points[fits[0]], fits[0]
        if not a.wants_write and self.terse_write(a, point):
            values = self.values(a, point)
            return Placement(Action("write", {"point": best, "value": values[0]}), best_score,
                             others) if len(values) == 1 else None
        if not a.wants_write:
            if self.terse_write(a, None):
                return None  # a number said to a point that takes none: not a read
            if point.kind == "bool" and asks_degree(a.toks):
                return None  # "how far open is the gate": a position, no open/closed
            unread = self.unread_value(a, point)
            if unread is not None:
                return Placement(unread, best_score, others)
            if self._setpoint_unasked(a, best):
                return None
            return Placement(Action("read", {"point": best}), best_score, others)
        values = self.values(a, point)
        if not values and point.writable and point.choices and \
                self.value_words(a, point).problem is None and \
                (self.covers(a, best) or not self._value_places(a.toks)):
            # "set the chiller mode to turbo": a point of choices asked to be set, and none of
            # them said (or two): nothing is written, and the answer names the choices (but a
            # number said beside words it does not explain is another point's value: "set the
            # secondary on cremator 2 to 900" is its secondary chamber's setpoint)
            zh = is_chinese(a.text)
            return Placement(respond("not_understood", value_problem="not_stated",
                                     choices=list(point.choices),
                                     text=choice_question(point, zh)), best_score, others)
        if not values and point.writable and point.kind == "bool" and \
                not self._value_places(a.toks):  # (not "bump the tank 2 setpoint up to 18")
            refused = self._sense_refused(a, point)
            if refused is not None:
                return Placement(refused, best_score, others)
        if len(values) != 1:
            return None
        return Placement(Action("write", {"point": best, "value": values[0]}), best_score,
                         others)

    def _sense_refused(self, a: Analysis, point: Point) -> Action | None:
        """The answer to on/off said of the thing of a switch named by an action the command
        does not say ("turn on fan 5" of "Fan 5 brake", the best match): nothing is written,
        and the answer names the switch and its action. None: no such refusal."""
        try:
            _state_of(a, point)
        except StateConflict as conflict:
            if conflict.sense is not None and conflict.args[0] is None:
                zh = is_chinese(a.text)
                label = point.label("zh" if zh else "en")
                example = f"打开{label}" if zh else f"switch on {label}"
                shown = sense_shown(point, conflict.sense, zh)
                problem = sense_problem(point)
                return respond("not_understood", unreadable=[shown], value_problem=problem,
                               text=gate_question(problem, (shown,), label, "", example,
                                                  zh=zh))
        return None

    def unread_value(self, a: Analysis, point: Point) -> Action | None:
        """ "stenter setpoint twenty thirty", "intake pump speed -100": not a question, and a
        value said to a writable number that cannot be read or says a change: asked back, never
        read instead (None: no such value); nor is a value said "every" so many (a time)."""
        if not a.question and any(t.raw == "every" and a.toks[i + 1].is_number
                                  for i, t in enumerate(a.toks[:-1])):
            # "push a car every 42 minutes": an interval to set, asked by no verb the rules
            # know; never a read of it (blind batch 51)
            return respond("not_understood")
        if not a.question and _done_first(a.toks, self.point_words.get(point.id, set())) \
                and self.lit(a, point) is None:
            # "light the drum burner", "extinguish the flare", "isolate burner group A": a
            # thing done, which no read answers (the model read the enable: blind batch 51);
            # nor is it written, whatever burner, pilot, lockout or fan the words go on to
            # name (reviews atk55, atk55b)
            return respond("not_understood")
        if a.question or not point.writable or point.kind not in ("int", "float"):
            return None
        said = self.value_words(a, point)
        return self._ask_back(a, said, point) if said.problem in ("unreadable", "relative") \
            else None

    def _resets(self, a: Analysis) -> bool:
        """ "reset the meter totaliser to zero", "clear the counter", 流量计清零: a command to
        put something back to nothing (not a question: "how clear is the water"), with a
        reset word that is no word of the point it names best (a writable "Alarm reset" is
        what it says) — and that point must be what the rest of the command names: "reset
        everything", "reset the plc", a bare 清零 name no point that a reset word alone
        would bring to the top."""
        verbs = [t for t in a.toks if t.raw not in _POLITE]
        said = {t.raw for t in a.toks if t.raw in RESETS} | \
            ({verbs[0].raw} & RESETS_FIRST if verbs else set())
        if not said or a.question:
            return False
        rest = {t.text for t in content(a.toks) if not t.is_id and t.raw not in said}
        # a point that is such a reset and that the rest of the command names whole: "reset
        # the burner trip" of a "Dryer burner trip reset", though the trip itself scores
        # first ("clear the jam" of a "Sorter jam reset" is not what it says)
        return not rest or not any(
            self.point_words[pid] & said and rest <= self.point_words[pid]
            for _, pid in a.scored)

    def _numbers_said(self, point: str, named: AbstractSet[str]) -> bool:
        """Whether every number of one of the point's numbered names is `named` ("Kiln firing
        zone 2 temperature setpoint" of "firing zone 2", though its id says "z2")."""
        labels = self.point_labels.get(point, ())
        numbered = [set(label.ids) for label in labels if label.ids]
        # (a name whose only number is its tag's, "SIC-4001 Casting speed setpoint", is named
        # without it too)
        return not numbered or len(numbered) < len(labels) or \
            any(ids <= named for ids in numbered)

    def _standing_in(self, a: Analysis, read_only: str,
                     writable: list[tuple[float, str]]) -> list[tuple[float, str]]:
        """Of these writable points, those that may stand in for the read-only one in a
        write: about the same thing, with the numbers said (`_stands_in`)."""
        about = {t.text for t in content(a.toks)} & self.point_words[read_only]
        named = self._named_ids(a.toks, self._value_places(a.toks))
        # (its own setpoint stands in whatever words said it: 把1号干燥室温度设定到85度 of a
        # "Dryer chamber 1 temperature" named so in Chinese, and its English-named setpoint)
        fits = [(s, p) for s, p in writable
                if (self._stands_in(p, about) or self._own_setpoint(read_only, p))
                and self._numbers_said(p, named)]
        # its own setpoint before any other that stands in
        mine = [(s, p) for s, p in fits if self._own_setpoint(read_only, p)]
        return mine if len(mine) == 1 else fits

    def _own_setpoint(self, read_only: str, point: str) -> bool:
        """Whether `point` is the measurement's own setpoint: named exactly as it is but for
        "setpoint" ("Kiln speed setpoint"), and in its unit (review atk55b, atk55c)."""
        return set(self.profiles.by_id[point].key) - _ITS_SETPOINT == \
            set(self.profiles.by_id[read_only].key) and \
            self.points[point].unit == self.points[read_only].unit

    def _settable_instead(self, a: Analysis, read_only: str) -> bool:
        """Whether a writable point of the same numbered thing has every quantity the command
        names ("set the tool temperature to 160 °C" and a temperature setpoint): the next
        stage chooses, rather than a write to a read-only point that policy refuses. (Pump
        1's speed never stands in for the pump's.)"""
        found = terms(a.text, a.toks, self.profiles, spell=False)
        quantities = [t for t in found if "quantity" in t.kinds or t.unit]
        profile = self.profiles.by_id[read_only]
        ids = profile.ids
        if not quantities:
            # "set the sheet to -6.5" of an "Ice surface temperature" (alias "sheet
            # temperature") that has a setpoint: the setpoint may be meant, never the reading
            own = set(profile.key) - SETPOINT_WORDS
            return any(p.point.writable and p.ids == ids and p.role == "setpoint"
                       and own <= set(p.key) for p in self.profiles.all)
        return any(all(explain(t, p) for t in quantities)
                   for p in self.profiles.all if p.point.writable and p.ids == ids)

    def _stands_in(self, point: str, about: set[str]) -> bool:
        """Whether writable `point` is about what `about` names: all of it, or all but the
        quantity when it is a setpoint of no quantity of its own ("Deck oven setpoint"). (Its
        numbers must be said too: "pump speed" is not pump 1's.)"""
        words = self.point_words[point]
        return about <= words or (SETPOINT in words and not words & QUANTITIES
                                  and about - words <= QUANTITIES)

    # -- values ------------------------------------------------------------------------------

    def values(self, a: Analysis, point: Point) -> list[Any]:
        """The values the command's own words give for a write to `point` (none: it gives none).

        On/off from on/off words; a number only when the words name exactly one that is not
        the name of a thing ("pump 1") — nothing when they name two, correct themselves, ask
        for a change ("by 10", whose base we never guess) or hold what is no number anyone
        says ("1e4"); "stop" a number that may be zero: 0. The model stage offers the model
        only these, so it never invents a value nor picks one of two.
        """
        said = self.value_words(a, point)
        if said.blocks(point):
            return []
        verb = flame_verb(a.toks)
        if point.kind != "bool" and verb is not None:
            return []  # "light the burner 1", "fire the kiln to 1450", "light the roaster 1"
            # (a roast profile "light"): a flame lit is no number nor choice (review atk56)
        words = a.words
        if point.kind == "bool":
            if said.numbers:
                # "up the flavour to 7.5%": a number is said, which no switch takes; the words
                # are about another point, or a timed action we cannot do ("on for 10 min")
                return []
            if verb is not None:
                # a flame lit or put out: only of a switch that is that flame ("light the
                # boiler up": its lights, perhaps, review atk55; "fire up the burner 1 pilot"
                # of burner 1, review atk56b) — but "fire up compressor two" starts it, as
                # "fire up" starts what has no flame
                lit = self.lit(a, point)
                if lit is not None:
                    return [lit]
                if not (verb + 1 < len(a.toks) and a.toks[verb + 1].raw == "up") or any(
                        {s.concept for s in self.profiles.lexicon.concepts(w)} & LIT_THINGS
                        for w in self.point_words.get(point.id, ())):
                    return []
            on = any(t.raw in ON_WORDS and not preposition_on(a.toks, i) and i not in a.named
                     for i, t in enumerate(a.toks))
            off = any(t.raw in OFF_WORDS and i not in a.named for i, t in enumerate(a.toks))
            try:
                by_state = _state_of(a, point)
            except StateConflict:
                return []  # "close barrier 1 off": two values, none taken
            if by_state is not None:
                return [by_state]
            if not on and not off and self._done_first(a.toks, a.question) and \
                    next(t for t in a.toks if t.raw not in _POLITE).text \
                    in self.point_words[point.id]:
                return [True]  # "defrost evap 2": what the point does, asked for
            if not on and not off and self._button_pressed(a.toks, a.named):
                return [True]  # "stop pump 1" of a "Stop pump 1" button: pressed
            return [] if on == off else [on]
        if point.kind == "string":
            # a choice only when the command names it ("set the mode to auto"), never one it
            # does not say: the model is offered these and must not pick a mode for us
            named = named_choices(point, a.toks, a.text)
            return list(named) if len(named) == 1 else []
        if said.numbers:
            return list(said.numbers)
        if not point.writable:
            # "stop comp 1": a verb of a thing, which a measurement of it (its current) does
            # not take; what is stopped is for the next stage to find, never a read-only 0
            return []
        if self._bound(point):
            return []  # "stop pump 1" of its minimum speed, "close damper 3" of its minimum
            # position: a limit of the thing, which stopping it sets to no zero
        concepts = self.profiles.by_id[point.id].concepts
        if words & STOP_WORDS and (point.min is None or point.min <= 0) and \
                concepts & _STOPPED_AT_ZERO:
            return [0]  # "stop feed pump 1": its speed (not a freezer's setpoint, 0 °C)
        if words & CLOSE_WORDS and point.unit == "%" and point.min is not None \
                and point.min <= 0 and not words & ON_WORDS:
            return [0]  # "close vent 1": a position in % to zero
        return []

    def lit(self, a: Analysis, point: Point) -> bool | None:
        """ "light the flare", "ignite the drum burner", "light up the group A burners": on
        (off: "extinguish the flare") of the one writable switch that is a flame (`_a_flame`)
        named by every word after the verb. None for any other command or point: "light the
        pilot of burner 2" of burner 2's switch, "light the alarm", "switch off the light oil
        burner" (reviews atk55, atk55b); "light the burner" of a left and a right burner, or
        of a "Burner stop" (review atk56)."""
        if a.question or point.kind != "bool" or not point.writable:
            return None
        verb = flame_verb(a.toks)
        if verb is None or a.toks[verb].text in self.point_words.get(point.id, set()):
            return None
        said = {t.text for t in a.toks[verb + 1:] if t.raw not in _LIT_FILLERS and not t.zh}
        if not self._a_flame(point, said) or any(
                other.id != point.id and other.writable and other.kind == "bool"
                and self._a_flame(other, said) for other in self.points.values()):
            return None
        return a.toks[verb].raw in LIGHTS

    def _a_flame(self, point: Point, said: set[str]) -> bool:
        """Whether `said` names `point` as a flame: every word said is one of its names', and
        each of its names (not its id) ends in a burner or flare, whatever ids and run words
        follow ("Burner group A enable"; not "Burner stop", "Burner 2 isolate", "Burner
        manual": reviews atk56, atk56b), and none is an alarm, a lockout, a fan or a lamp."""
        own = self.point_words.get(point.id, set())
        if not said or said - own or own & _NOT_LIT:
            return False
        lexicon = self.profiles.lexicon
        ident = {t.text for t in tokens(point.id.replace("_", " "))}
        labels = [label for label in self.point_labels.get(point.id, ())
                  if {t.text for t in label.toks} != ident]  # (not its id, "bl")
        # (each of its names: a "Burner 2 stop" aliased "burner two" is a stop — atk56b)
        return bool(labels) and all(
            (words := [t for t in label.toks if not t.is_id and t.text not in LIT_ROLES])
            and {s.concept for s in lexicon.concepts(words[-1].raw)} & LIT_THINGS
            for label in labels)

    def _bound(self, point: Point) -> bool:
        """Whether a point's name says it is a limit, an offset or a time of its thing, not
        what the thing does ("Pump 1 minimum speed", "Heater 3 high limit")."""
        return any(label.toks and any(t.text in _BOUNDS or t.raw in _BOUNDS for t in label.toks)
                   for label in self.point_labels.get(point.id, ()))

    def value_words(self, a: Analysis, point: Point | None) -> ValueWords:
        """The numbers a command gives as a value for `point` (None: for no point in
        particular), or the problem that keeps it from giving one, naming its words."""
        toks = a.toks
        raw = [t.raw for t in toks]
        spoken = speech_problem(toks)
        if spoken is not None:
            return spoken
        naming = self._naming(toks, point)
        own_words = self.point_words.get(point.id, set()) if point is not None else set()
        unreadable = tuple(t.raw for t in toks if t.unreadable and t.text not in own_words)
        if unreadable:
            return ValueWords(problem="unreadable", words=unreadable)
        numbers: list[tuple[int, Token]] = []
        odd: list[str] = []
        relative: list[str] = []
        minus: list[tuple[int, Token]] = []  # "-100" alone may be a decrease
        for i, t in enumerate(toks):
            if not t.is_number or i in naming:
                continue
            after = raw[i + 1] if i + 1 < len(toks) else ""
            if after in AFTER_NUMBER or (after in PERCENT and raw[i + 2:i + 3] == ["of"]):
                odd.append(f"{t.shown} {toks[i + 1].shown}")
            elif i > 0 and (raw[i - 1] in DELTA_BEFORE or raw[i - 1] in RELATIVE_BEFORE):
                relative.append(f"{toks[i - 1].shown} {t.shown}")
            elif _minus_as_change(t, point, raw[:i]):
                minus.append((i, t))
            else:
                numbers.append((i, t))
        if odd:
            return ValueWords(problem="unreadable", words=tuple(odd))
        if numbers and minus:  # "to 0, -1": two values, the second no change
            numbers = sorted(numbers + minus, key=lambda n: n[0])
        else:
            relative += [t.shown for _, t in minus]
        verbs = [t.shown for t in toks if t.raw in RELATIVE_VERBS]
        # (a value said after a step of the point's own scale, after "to", of a point with no
        # unit: "drop the entrance lights to stage two" of a "lighting stage" — blind batch
        # 72; never a thing's word, "to mixer 1", nor a measure's, "lower the heater to
        # setting 3" of one in kW — reviews atk72, atk72b)
        if numbers and verbs and not any((i > 0 and raw[i - 1] in VALUE_BEFORE) or (
                i > 1 and raw[i - 2] in VALUE_BEFORE and toks[i - 1].text in own_words
                and toks[i - 1].text in _SCALE_STEPS and point is not None and not point.unit)
                for i, _ in numbers):
            relative += [f"{verbs[0]} … {t.shown}" for _, t in numbers]  # "raise … 100"
        if relative:
            return ValueWords(problem="relative", words=tuple(relative))
        values: list[Any] = []
        shown: list[str] = []
        for _, t in numbers:
            if t.number not in values:
                values.append(t.number)
                shown.append(t.shown)
        if len(values) > 1:
            return ValueWords(problem="several", words=tuple(shown))
        return ValueWords(numbers=tuple(values))

    def _naming(self, toks: list[Token], point: Point | None) -> set[int]:
        """The numbers that name a thing rather than give a value: one beside a word that
        numbers things here ("pump 1", "#3 boiler"), not after "to"/"at"; and one of the
        point's own numbers said beside another of its words ("set speed 1 to 900") unless
        it is already named beside its thing — "set pump 1 to 1" and "set pump 1 1" write 1."""
        naming: set[int] = {i for i, t in enumerate(toks) if t.ordinal}  # "1号", "第二"
        for i, t in enumerate(toks):
            if not t.is_number or not isinstance(t.number, int) or t.number < 0 or t.groups:
                continue
            before = toks[i - 1] if i > 0 else None
            after = toks[i + 1] if i + 1 < len(toks) else None
            if before is not None and before.raw in VALUE_BEFORE:
                continue
            if after is not None and after.ident and (t.text, after.text) in self.twin_letters:
                naming.add(i)  # "101a speed to 85": twin 101A's (whatever unit "a" is)
                continue
            if unit_after(toks, i):
                continue  # "fan pump 1200 rpm": a number with its unit is a value
            if (before is not None and before.text in self.id_words) or \
                    (after is not None and after.text in self.id_words):
                naming.add(i)
        if point is not None:
            own = self.label_ids.get(point.id, set())
            words = self.point_words.get(point.id, set()) - own
            named = {toks[i].text for i in naming}
            for i, t in enumerate(toks):
                beside = {x.text for x in toks[max(0, i - 1):i + 2] if x is not t}
                if i + 2 < len(toks) and toks[i + 1].raw == "s":
                    beside.add(toks[i + 2].text)  # "drop 104's target voltage"
                if t.is_number and t.text in own and t.text not in named and i not in naming \
                        and (beside & words or any(  # ("rectifier 1" of "Rect 1 run")
                            len(w) >= 3 and b.startswith(w) for b in beside for w in words)
                            # "stop the crust breaker on 110": a switch takes no number
                            or (point.kind == "bool" and i > 0
                                and toks[i - 1].raw in ("on", "of"))) \
                        and not (i > 0 and toks[i - 1].raw in VALUE_BEFORE):
                    naming.add(i)
        return naming

    def _split_groups(self, toks: list[Token]) -> list[Token]:
        """ "pump 1 600": the first digit group names the pump, the rest is the number; after
        any other word the groups are one number ("to 1 600" is 1600)."""
        out: list[Token] = []
        for t in toks:
            if t.groups and out and out[-1].text in self.id_words:
                out += _split(t)
            else:
                out.append(t)
        return out

    def _ask_back(self, a: Analysis, said: ValueWords, point: Point | None) -> Action:
        """A question back that names the words no value could be taken from; nothing is sent."""
        example = _example(point)
        assert said.problem is not None
        return respond("not_understood", unreadable=[printable(w) for w in said.words],
                       value_problem=said.problem,
                       text=value_question(said.problem, said.words, example,
                                           zh=is_chinese(a.text)))

    # -- matching ---------------------------------------------------------------------------

    def _mostly_about(self, a: Analysis, point: str) -> bool:
        """At least half of the command's own words name the point ("order more flour from the
        supplier" shares one word with "flour silo level" and is not about it). A word of one
        of its choices is of it too: "put the lock in manual" of the "Lock operating mode"."""
        names = self.own_words[point]
        words = {t.text for t in content(a.toks) if not t.is_number
                 and t.raw not in WRITE_VERBS and t.raw not in ON_WORDS | OFF_WORDS
                 and t.raw not in UNIT_WORDS}
        covered = words & names
        return len(words - covered) <= len(covered)

    def _score(self, toks: list[Token]) -> list[tuple[float, str]]:
        # a value names no point: "set boiler 1 frequency to 3" is not about boiler 3
        places = self._value_places(toks)
        text = {t.text for t in content([t for i, t in enumerate(toks) if i not in places])}
        ids = self._named_ids(toks, places)
        stray = ids
        said = {(w, n) for w, n in _pairs([t for i, t in enumerate(toks) if i not in places])
                if w in self.families or w in self.lettered}  # "boiler 1", "line a"
        best: dict[str, float] = {}
        poles = said_poles(toks)
        for label in self.labels:
            if poles and opposed(self.poles[label.point], poles) and (
                    not (point := self.points[label.point]).choices
                    or opposed(self.poles[label.point], said_poles(toks, choice_words(point)))):
                continue  # "AHU 1 cool" is not "AHU 1 heat", though both are temperatures
            matched = sum(2.0 if t.is_id else 1.0 for t in label.toks if t.text in text)
            words_matched = sum(1 for t in label.toks if not t.is_id and t.text in text)
            if not words_matched:
                continue
            missing_ids = label.ids - ids
            if missing_ids and stray:
                continue  # the text names another number ("boiler 7" is not "boiler 1")
            if any(w == word and n != number and (word, number) not in said
                   for word, number in self.point_pairs[label.point] for w, n in said):
                continue  # "boiler 1 ... 3" names boiler 1, whatever else says 3; nor is
                # "B1 NO2 level" the "NO2 level" of "B2 NO2 level"
            score = matched / label.weight
            numbered = {w for w, _ in label.pairs}
            if missing_ids or any(w not in numbered and t.text == w for w, _ in said
                                  for t in label.toks):
                score *= 0.8  # "compressor 1 frequency" is less "compressor frequency"
            if SETPOINT not in text and any(t.text == SETPOINT for t in label.toks):
                score *= SETPOINT_WEIGHT
            if score > best.get(label.point, 0.0):
                best[label.point] = score
        return sorted(((s, p) for p, s in best.items()), key=lambda sp: (-sp[0], sp[1]))

    def _named_ids(self, toks: list[Token], values: set[int]) -> set[str]:
        """Numbers, and letters that follow a word that has lettered things here ("line b"),
        except the numbers at `values`."""
        out = set()
        for i, t in enumerate(toks):
            if (t.is_number and i not in values) or \
                    (t.ident and i > 0 and (toks[i - 1].text in self.lettered
                                            or toks[i - 1].raw.isdigit()  # ("pump 101a")
                                            or self.letter_before(toks, i, said=True))):
                out.add(t.text)  # (and "the B pump", `letter_before`)
        return out

    @staticmethod
    def _value_places(toks: list[Token]) -> set[int]:
        """Where numbers look like a value to set (after "to", "at", "by")."""
        return {i for i, t in enumerate(toks) if t.is_number and i > 0
                and toks[i - 1].raw in VALUE_BEFORE | DELTA_BEFORE}

    def _prefer_kind(self, scored: list[tuple[float, str]], *, yes_no: bool) -> list[tuple[float, str]]:
        """Among equally good matches, a yes/no question wants an on/off point, others a number."""
        top = scored[0][0]
        tied = [(s, p) for s, p in scored if top - s < MIN_MARGIN]
        if len(tied) < 2:
            return scored
        fits = [(s, p) for s, p in tied if (self.points[p].kind == "bool") == yes_no]
        if len(fits) == 1:
            rest = [(s, p) for s, p in scored if p != fits[0][1]]
            return [(top + 2 * MIN_MARGIN, fits[0][1]), *rest]
        return scored

    def _setpoint_unasked(self, a: Analysis, best: str) -> bool:
        """ "what's the stenter chamber temperature", of the "Stenter chamber temperature
        setpoint" beside chambers 1 and 4: no word asks a setting the point is named by, and a
        measurement of its things and quantity is there, numbered where nobody said a number
        (blind batch 69; `_setting_unasked` weighs a reading numbered alike)."""
        profile = self.profiles.by_id[best]
        point = profile.point
        said = {t.text for t in a.toks} | {t.raw for t in a.toks}
        if profile.role != "setpoint" or said & (SETPOINT_WORDS | {"set", "setting"}) or \
                not any({t.text for t in tokens(label)} & SETPOINT_WORDS
                        for label in (point.name, *point.aliases)):
            return False  # (a setting asked, or one named so: "PS03 duty start level")
        return any(o.role == "measurement" and o.things >= profile.things
                   and o.quantities & profile.quantities and o.ids - profile.ids
                   for o in self.profiles.all)

    def _unsaid_setpoints_out(self, a: Analysis, scored: list[tuple[float, str]]
                              ) -> list[tuple[float, str]]:
        """A read that says no setting: a setpoint named in Chinese by the best match's name
        (`kin_names`: "流化床出风温度 SP" of 流化床出风温度's setpoint, close in score, a
        character a token) is no rival of it."""
        if not scored or a.words & SETPOINT_SAID or "设定" in a.text or "set" in a.words:
            return scored
        return [(s, p) for s, p in scored if self.kin.get(p) != scored[0][1]]

    def _prefer_chosen(self, a: Analysis, scored: list[tuple[float, str]]
                       ) -> list[tuple[float, str]]:
        """Among equally good matches, the one writable point a choice of which the command
        names: "put the lock in auto" sets the lock's mode, not its count of cycles."""
        if not scored:
            return scored
        top = scored[0][0]
        tied = [(s, p) for s, p in scored if top - s < MIN_MARGIN]
        if len(tied) < 2:
            return scored
        # the choice said as the value, word for word, after "to", "in", "at", "on" (where);
        # never in a command that switches ("turn off the standby generator" stops it, and
        # does not put its mode at `off`; "turn off the pump in the wash bay" is no `washing`),
        # nor a choice named in meaning or in part only (atk25r, atk26r)
        if any(t.raw in _SWITCHING and not (t.raw == "on" and preposition_on(a.toks, i))
               for i, t in enumerate(a.toks)):
            return scored
        mark = next((i for i, t in enumerate(a.toks) if t.raw in CHOICE_MARKS
                     and (t.raw != "on" or preposition_on(a.toks, i))), None)
        if mark is None:
            return scored
        said = [t.text for t in content(a.toks[mark + 1:])]
        fits = [p for _, p in tied if (point := self.points[p]).writable and point.choices
                and len({choice for choice, spelled in spellings(point)
                         if [t.text for t in content(tokens(spelled))] == said}) == 1]
        if len(fits) != 1:
            return scored
        return [(top + 2 * MIN_MARGIN, fits[0]), *((s, p) for s, p in scored if p != fits[0])]

    def _unknown_numbered(self, toks: list[Token]) -> str | None:
        """ "boiler 7" when there are boilers but no boiler 7: an unknown point, not a guess."""
        values = self._value_places(toks)
        for i, t in enumerate(toks[:-1]):
            nxt = toks[i + 1]
            family = self.families if nxt.is_number else self.lettered if nxt.ident else ()
            if nxt.is_number and unit_after(toks, i + 1):
                continue  # "pump 1200 rpm": a value in its unit, not pump number 1200
            if t.text in family and i + 1 not in values and \
                    (t.text, nxt.text) not in self.numbered | self.loosely_numbered and \
                    not (t.zh and any(n == nxt.text for _, n in self.numbered)) and \
                    not any((w, nxt.text) in self.numbered for w in english_labels(t.text)):
                # (a Chinese word is a translation: 1号火化炉 may be "Cremator 1" where only
                # 2号火化炉 is named in Chinese; a number nothing has is unknown all the same;
                # "FV2" of a plant whose "FV1 temp" is of "Fermenter 1", and that has a
                # fermenter 2, is a form of the same machine, numbered as it is)
                return f"{t.raw} {nxt.raw}"
        return None


#: words that switch a thing (on, off, start, stop, run): after "to", a switch's state, never
#: a choice of a mode beside it
_SWITCHING = ON_WORDS | OFF_WORDS | frozenset("run running stop stopped start started".split())
#: what stopping a thing sets to zero: how fast it goes, how much it moves or gives
_STOPPED_AT_ZERO = frozenset(f"quantity.{q}" for q in (
    "speed line_speed screw_speed wire_speed injection_speed stroke_rate flow air_flow "
    "gas_flow steam_flow mass_flow fill_rate frequency power".split()))
#: words of a limit, an offset or a time of a thing, which stopping or closing it never zeroes
_BOUNDS = frozenset("min minimum max maximum limit limits offset bias alarm trip high low "
                    "deadband hysteresis delay time duration threshold ramp".split())

_POLITE = frozenset(("please", "now", "then", "just", "kindly"))
#: a command that opens by asking something done: "do a manual reversal", "perform a purge",
#: "carry out the bump test"
_DO_A = re.compile(r"^(?:(?:please|pls|kindly|just|now|(?:can|could|would) you)\s+)*"
                   r"(?:do\s+(?:a|an|another)|(?:perform|carry\s+out|trigger|initiate)\s+"
                   r"(?:a|an|the|another))\b(?!\s+(?:quick\s+)?(?:check|reading|read|scan|"
                   r"report|look)\b)",
                   re.IGNORECASE)
#: the words that name a setpoint as such (a number right after one is its value)
SETPOINT_SAID = frozenset(("setpoint", "sp", "target"))
#: a quantity's setpoint said in Chinese, 设定 before the quantity or 设定值 after it (not
#: 温度设定为, "set the temperature to")
_ZH_SETPOINT = re.compile(r"设定(?:值|点)?(?:温度|压力|转速|速度|流量|液位|湿度|频率|功率)|"
                          r"(?:温度|压力|转速|速度|流量|液位|湿度|频率|功率)设定(?:值|点)")
_ARTICLES = frozenset(("the", "a", "an"))
#: "close the damper": a position (a number in %) to zero
CLOSE_WORDS = frozenset(("close", "shut"))


#: words of a command's grammar, never a plant word's short form
_FUNCTION_WORDS = STOP | WRITE_VERBS | ON_WORDS | OFF_WORDS | YES_NO_START | WH_START


#: a code that opens a name ("LS04", "PS-12", "SS3"): letters and a number written together
_CODE_FIRST = re.compile(r"([A-Z]{1,4}[-_]?\d{1,4})\s+\S")
#: words in capitals that open an alias, a place's name ("Mill Lane", "Harbour Road"), before
#: words in small letters
_TITLED_FIRST = re.compile(r"((?:[A-Z][a-z]+\s+){1,3})(?=[a-z])")


@functools.lru_cache(maxsize=4096)
def _words_of_named_things(name: str) -> frozenset[str]:
    """The words of a name's things named in more than one word ("vacuum", "pan" of "Vacuum
    pan 1 massecuite level"), and a quantity's words that name the thing after them
    (`_quantities_naming_things`: "temperature" of "Low temperature heater flow")."""
    words = name.casefold().split()
    return frozenset(canonical(w) for m in concepts_of_text(name)
                     if m.kind in ("thing", "medium") and " " in name[m.start:m.end]
                     for w in name[m.start:m.end].casefold().split()) | frozenset(
        canonical(w) for m in _quantities_naming_things(name)
        for w in name[m.start:m.end].casefold().split()) | frozenset(
        # (a quantity word right before a thing's, inside a phrase the lexicon reads as a
        # whole: the "pressure" of a "High pressure pump speed setpoint", review atk72)
        canonical(w) for w, after in itertools.pairwise(words)
        if _kinds_alone(w) == {"quantity"} and "thing" in _kinds_alone(after)
        and not _an_instruments_setting(name, after))


#: instruments named by the quantity they measure or control, whose setting is of it: the
#: level of a "Level controller 1 setpoint" (review atk73); not the flow of a "Flow controller
#: 5 output", a "Flow control valve 2 opening" (review atk73b), a "High pressure pump"
_INSTRUMENTS = frozenset("""
    controller transmitter meter sensor gauge indicator analyser analyzer regulator recorder
""".split())


def _an_instruments_setting(name: str, thing: str) -> bool:
    """Whether `name` is a setting (its words say so) of an instrument among `thing`'s words."""
    return bool(set(map(canonical, thing.casefold().split())) & _INSTRUMENTS) and \
        bool(set(map(canonical, name.casefold().split())) & SETPOINT_WORDS)


@functools.lru_cache(maxsize=4096)
def _kinds_alone(word: str) -> frozenset[str]:
    """The kinds of concept a word is, alone."""
    return frozenset(m.kind for m in concepts_of_text(word) if m.start == 0 and m.end == len(word))


@functools.lru_cache(maxsize=4096)
def _quantities_naming_things(name: str) -> tuple[Match, ...]:
    """The quantities a name says only right before a thing, naming it: the "temperature" of
    a "Low temperature heater flow" (a flow, of the low temperature heater: review atk71)."""
    found = concepts_of_text(name)
    before_thing = [m for m, after in itertools.pairwise(found) if m.kind == "quantity"
                    and after.kind == "thing" and not name[m.end:after.start].strip()
                    and not _an_instruments_setting(name, name[after.start:after.end])]
    return tuple(m for m in before_thing
                 if not any(o.concept == m.concept and o.start != m.start for o in found))


def _places(points: list[Point], lexicon: Lexicon) -> list[tuple[re.Pattern[str], str]]:
    """The places of a plant named by a code in its points' names and by a name in their
    aliases ("LS04 WW level" alias "Mill Lane wet well level"): a name in capitals that opens
    an alias of a point whose name opens with a code, always of that code wherever it opens an
    alias, and no word of any other name (blind batch 35); whose last word is no word of a
    plant the lexicon knows ("Main Pump", "North Tank", "Hot Well" are things, review
    atk44b)."""
    found: dict[str, set[str]] = {}
    for p in points:
        opening = _CODE_FIRST.match(p.name)
        for alias in p.aliases:
            titled = _TITLED_FIRST.match(alias)
            if titled is None:
                continue
            place = " ".join(titled.group(1).split())
            found.setdefault(place.casefold(), set()).add(opening.group(1) if opening else "")
    out = []
    for place, codes in found.items():
        if len(codes) != 1 or "" in codes or len(place.split()) < 2:
            continue
        code = next(iter(codes))
        if lexicon.concepts(place.split()[-1]):
            continue
        # (a place whose words name a point of no code of its, too, is no place of its own:
        # "Main Pump" of a "Main pump pressure", "Canal Wharf" of a "Canal Wharf crane")
        if any(place in label.casefold() for p in points for label in (p.name, *p.aliases)
               if not re.match(rf"{re.escape(code)}(?![^\W_])", p.name)):
            continue
        out.append((re.compile(rf"(?i)(?<![^\W_]){re.escape(place)}(?![^\W_])"), code))
    return out


def _abbreviations(points: list[Point], name_words: frozenset[str]) -> dict[str, str]:
    """ "comp" -> "compressor" where ids shorten a word of their points' names ("comp1_current"
    of "Compressor 1 motor current", "evap2_defrost" of "Evaporator 2 defrost"): a command
    that says the short form means the word, whichever point it is of ("stop comp 1" is
    compressor 1, not the current its id shares the word with). Only where every id that
    shortens it agrees, and no point is named by the short form itself."""
    found: dict[str, set[str]] = {}
    for p in points:
        names = {t.text for t in content(tokens(p.name)) if not t.is_id}
        for t in tokens(p.id.replace("_", " ")):
            short = t.text
            if t.is_id or not short.isalpha() or len(short) < 3 or short in names or \
                    t.raw in _FUNCTION_WORDS:  # "was" of "WAS" is no "waste" in "what was"
                continue
            longer = {n for n in names if n.isalpha() and n.startswith(short)}
            if longer:
                found.setdefault(short, set()).update(longer)
    return {short: next(iter(full)) for short, full in found.items()
            if len(full) == 1 and short not in name_words}


def _spelled_in_full(points: list[Point], name_words: frozenset[str],
                     known: frozenset[str]) -> dict[str, str]:
    """ "rectifier" -> "rect" where a name shortens a word its own description spells in full
    ("Rect 1 run", described as "Rectifier unit 1 on line"): a command that says the whole
    word names what the short form does. Only where every such point agrees, no name has
    the whole word, and the short form is no word of the lexicon ("turn" of "turning" is a word
    of its own). (Not a word of its device: "Ext temp" on an extruder's PLC may be the
    outside air's, review atk43.)"""
    found: dict[str, set[str]] = {}
    for p in points:
        if not p.description:
            continue
        short = {t.text for t in content(tokens(p.name)) if not t.is_id and t.text.isalpha()
                 and len(t.text) >= 4 and t.text not in known}  # (not "int" of "interlocked")
        for t in content(tokens(p.description)):
            whole = t.text
            if not whole.isalpha() or whole in name_words:
                continue
            for w in short:
                if len(whole) > len(w) + 1 and whole.startswith(w):
                    found.setdefault(whole, set()).add(w)
    return {whole: next(iter(s)) for whole, s in found.items() if len(s) == 1}


#: a word of running said last ("kiln fan going?"): whether it runs is asked
_RUNNING_LAST = frozenset("going running turning spinning".split())
#: words that say a time is meant, of a point that is one ("delay", "timer", "minutes")
_TIME_SAID = frozenset("""
    delay time timer duration period dwell interval hold s sec secs second seconds min mins
    minute minutes h hr hrs hour hours
""".split())
_TIME_SAID_ZH = ("时间", "延时", "延迟", "间隔", "时长", "周期", "秒", "分钟", "小时")


def _asked_after_naming(toks: list[Token]) -> bool:
    """Whether a question opens after a comma, after words that only name the thing ("bin 1
    feeder, whats it set to"), and no number is said after it: no verb, switch word or "to"
    before it ("set boiler 3 to 100, what's the temp", "open valve 2, what's it at" are
    commands, and a question after them is no read: review atk74c)."""
    k = next((i for i, t in enumerate(toks) if i and t.after_break and t.raw in WH_START), None)
    if k is None:
        return False
    doing = WRITE_VERBS | ON_WORDS | OFF_WORDS | VALUE_BEFORE
    valued = any(t.is_number and (t.unit or (i and (canonical(toks[i - 1].raw) in QUANTITIES
                                                     or toks[i - 1].raw in ("setpoint", "sp"))))
                 for i, t in enumerate(toks[:k]))  # ("pump 3 speed 80, what's that in rpm")
    return not valued and not any(t.raw in doing for t in toks[:k]) and \
        not any(t.is_number for t in toks[k:])


def _asks_of_a_setting(toks: list[Token]) -> bool:
    """A question about a setting that states no value: "supply air set temp?" ("set" names
    the setpoint), "chilled water valve, how far open" (a position asked after). Nothing is
    to be written where no number is said, no on/off word ends the command, and the words ask
    "how" or use "set" as a noun before a quantity."""
    if _zh_set_to_what(toks):
        return True  # 1号冷库温度设定为多少: "set to how much", the setting asked
    if any(t.is_number or t.unreadable for t in toks):
        return False
    if "how" in (t.raw for t in toks if not t.zh):
        return True  # "how far open": an on/off word at the end asks after a state
    if _switched(toks):
        return False
    if any(t.raw in ("to", "into") and not t.zh and i + 1 < len(toks)
           for i, t in enumerate(toks[2:], 2)):
        return False  # "set pressure control mode to constant pressure": a choice to set
    verbs = [t for t in toks if t.raw in WRITE_VERBS and not t.zh]
    return len(verbs) == 1 and verbs[0].raw == "set" and any(
        t.raw == "set" and i + 1 < len(toks) and (toks[i + 1].text in QUANTITIES
                                                  or toks[i + 1].raw == "point")
        for i, t in enumerate(toks))


def _switched(toks: list[Token]) -> bool:
    """ "blower off", "uv steriliser on please": an on/off word that ends what names the point
    is a write ("pressure on the boiler", "alarms on the lamp" are not)."""
    for i, t in enumerate(toks):
        if t.zh and t.raw in ("on", "off"):
            return True  # 开, 关掉: a Chinese verb, before what it switches
        if t.raw in ON_WORDS | OFF_WORDS and t.raw not in ("up",) and i > 0:
            rest = [x for x in toks[i + 1:] if x.raw not in ENDING_WORDS - {"then", "again"}]
            if not rest or (_where(toks, i + 1) and toks[i - 1].raw not in _PHRASAL_OFF):
                return True  # (but "hold off on opening valve 2" is a wait)
    return False


def _on_off_action(toks: list[Token], heads: Mapping[str, object]) -> bool:
    """ "take scrubber pump 2 off bypass", "put the line on hold": on or off said before the
    action a switch is named by (its name's last word) puts it in or out of that state."""
    return any(t.raw in ("on", "off") and not t.zh and i > 0 and any(
        x.text in heads and not any(y.is_id or y.is_number for y in toks[i + 1:j + 1])
        for j, x in enumerate(toks[i + 1:i + 4], i + 1)) for i, t in enumerate(toks))


#: words that make "off on" a verb of their own: "hold off on" (wait), "back off on" and "ease
#: off on" (do less of it), "sign off on" (approve): none switches anything off
_PHRASAL_OFF = frozenset(("hold", "hang", "back", "ease", "lay", "sign"))


#: what a degree of opening is asked with: "how far open", "how wide open", "how open"
_DEGREE = frozenset(("far", "wide", "much"))
_OPENED = frozenset(("open", "opened", "closed", "shut"))


def asks_degree(toks: list[Token]) -> bool:
    """ "how far open is the intake gate": how much, which an open/closed state cannot say."""
    for i, t in enumerate(toks[:-1]):
        if t.raw == "how" and not t.zh:
            j = i + 1 + (toks[i + 1].raw in _DEGREE)
            if j < len(toks) and toks[j].raw in _OPENED:
                return True
    return False


#: states a thing is asked to be in, said last ("damper open?", "fan 2 on?")
_STATES_LAST = frozenset(("on", "off", "open", "opened", "closed", "shut", "running", "stopped"))


#: the states a switch is in, as people put them against each other ("on or off")
_EITHER = (frozenset(("on", "running", "run", "started", "open", "enabled", "active")),
           frozenset(("off", "stopped", "closed", "shut", "disabled", "inactive", "tripped")))


#: what "run" is a noun of ("run hours of pump 2", "run status"): no start asked
_RUN_NOUNS = frozenset("hours hour time times status state feedback count counter mode signal "
                       "light indication".split())


def set_asked(toks: list[Token]) -> bool:
    """ "what is the kiln set to", "is it set", "the oven 1 set temperature", 设定为多少:
    "set" asks for a setting, not as a noun ("generator set 1", "booster set 2 pressure",
    "generator set temperature": a set of machines)."""
    return _zh_set_to_what(toks) or any(
        t.raw == "set" and not t.zh and (
            k + 1 == len(toks) or toks[k + 1].raw in _SET_AFTER or (
                toks[k + 1].text in QUANTITIES and k > 0
                and (toks[k - 1].is_number or toks[k - 1].raw in _BEFORE_A_SETTING)))
        for k, t in enumerate(toks))


def _zh_set_to_what(toks: list[Token]) -> bool:
    """设定为多少, 设定到几: a setting asked in Chinese, its value a question word."""
    return any(t.zh and t.raw == "set" and k + 2 < len(toks) and toks[k + 1].zh
               and toks[k + 1].raw == "to" and toks[k + 2].zh and toks[k + 2].raw in ("what", "几")
               for k, t in enumerate(toks))


#: words before "set" that make it an adjective of the quantity after ("the set temperature")
_BEFORE_A_SETTING = frozenset(("the", "its", "their", "what's", "whats", "current", "present"))


_SET_AFTER = frozenset(("to", "at", "for", "on", "up", "now"))


#: words that make "run" an ending: "run down", "run out"
_RUN_AWAY = frozenset(("down", "out", "dry", "empty"))


#: words of haste: "stop conveyor 2 fast", "close valve 3 quickly", 快停1号泵
_HASTE = frozenset("fast quick quickly rapidly asap immediately urgently".split())
#: ...that also name a kind of thing before another word ("fast start", "quick release"):
#: haste only last, or before a comma
_HASTE_ADJECTIVES = frozenset(("fast", "quick"))
_TRAILING = frozenset("please now pls plz thanks thank you".split())
#: a quick-opening or quick-closing valve or door (快开阀, 快关阀门), a thing, no haste
_QUICK_ACTING = re.compile(r"快[开关启停闭](?:断|电磁)?[阀门]")
#: verbs 快 before says "quickly" of, not "fast" of a thing
_HASTE_ZH_VERBS = frozenset("stop off close on open start".split())


def _haste(toks: list[Token], i: int, named: Mapping[str, list[tuple[str, str]]]) -> bool:
    """Whether the word at `i` says how soon, not what: "quickly" always; "fast" and "quick"
    unless said as a name says them, before the word after them there ("fast stop" of "Line
    2 fast stop"), or after the word before them where they end it ("run mixer 6 fast" of a
    "Mixer 6 fast"), or the speed is asked ("how fast", "too fast"); 快 before a verb (快停,
    快关; `_QUICK_ACTING` is not asked: 快开阀 is a quick-opening valve)."""
    t = toks[i]
    if t.zh:
        return t.written == "快" and i + 1 < len(toks) and toks[i + 1].zh and \
            toks[i + 1].text in _HASTE_ZH_VERBS
    if t.raw not in _HASTE or (i and toks[i - 1].raw in ("how", "too", "so", "very", "as")):
        return False
    rest = [x for x in toks[i + 1:] if x.raw not in _TRAILING]
    if t.raw in _HASTE_ADJECTIVES and rest and not rest[0].after_break:
        return False  # "line 5 fast start": a kind of start, whether or not the plant has it
    before = toks[i - 1].raw if i else ""
    after = toks[i + 1].raw if i + 1 < len(toks) else ""
    return not any(after == nxt if nxt else before == prev
                   for prev, nxt in named.get(t.raw, ()))


def _run_is_start(toks: list[Token], named: Callable[[list[Token]], bool]) -> list[Token]:
    """ "run sump pump 2": a command opening with "run" asks to start the thing (never a
    "run" elsewhere: "pump 2 run" may be a clipped question, "run hours" a noun), unless
    `named` says the words name a point whose own name has "run" (asked only then)."""
    first = next((i for i, t in enumerate(toks) if t.raw not in _POLITE), None)
    if first is None or toks[first].raw != "run" or toks[first].zh or first + 1 >= len(toks) \
            or toks[first + 1].raw in _RUN_NOUNS or any(t.raw in _RUN_AWAY for t in toks[first + 1:]) \
            or named(toks):
        return toks  # ("run down the fans", "run the tank out": to stop, to empty)
    return [*toks[:first], replace(toks[first], raw="start", text="start"), *toks[first + 1:]]


def _get_going(toks: list[Token]) -> list[Token]:
    """ "get the shaker going on table two", "get pump 3 started": a command opening with "get"
    whose thing is then "going", "started" or "running" asks to start it (blind batch 35);
    not "get me the …" (asked told) nor a question ("can you get …?" is none either way)."""
    first = next((i for i, t in enumerate(toks) if t.raw not in _POLITE), None)
    if first is None or toks[first].raw != "get" or toks[first].zh or \
            first + 1 >= len(toks) or toks[first + 1].raw in ("me", "us"):
        return toks
    going = next((i for i in range(first + 2, len(toks)) if toks[i].raw in _GOING), None)
    after = toks[going + 1:] if going is not None else []
    # (where, said with an article: "on the DAF"; not "in reverse", "at high speed", "on
    # night mode", which set something of their own: review atk59c)
    placed = len(after) > 1 and after[0].raw in _WHERE_AFTER and after[1].raw == "the" and \
        not any(t.is_number for t in after)
    if going is None or any(t.is_number or t.raw in _GOING_NOT for t in toks[first + 1:going]) \
            or (not placed and any(t.raw not in _POLITE | _GOING_AFTER and not t.is_id
                                   for t in after)):
        return toks  # ("get the transfer pump running hours": a reading, review atk44; "get
        # the skimmer going on the DAF": where it is, blind batch 60)
    return [*toks[:first], replace(toks[first], raw="start", text="start"),
            *toks[first + 1:going], *toks[going + 1:]]


#: what a thing got is when it is started ("get the fans going"), and words that make the
#: "get" another verb ("get the level going up", a number: no start)
_GOING = frozenset(("going", "started", "running", "moving", "turning"))
_GOING_NOT = frozenset(("up", "down", "to", "at", "back"))
#: ...and where it is, after it ("on the DAF", "in hall 2")
_WHERE_AFTER = frozenset(("on", "in", "at"))
#: ...and what may follow it: where, and when (not "hours", "speed": a reading of it)
_GOING_AFTER = frozenset(("again", "asap", "on", "in", "at", "the", "table", "line", "a",
                          "please", "right", "away", "straight"))


def _either_state(toks: list[Token]) -> bool:
    """One state or its opposite ("chiller on or off", "damper open or closed?"): which of
    the two it is in is asked, nothing is switched."""
    return any(t.raw == "or" and 0 < i < len(toks) - 1 and not t.zh and (
        {toks[i - 1].raw, toks[i + 1].raw} & _EITHER[0]
        and {toks[i - 1].raw, toks[i + 1].raw} & _EITHER[1]) for i, t in enumerate(toks))


#: verbs that open a request to find out whether something is so, never to make it so
_CHECKS = frozenset("check confirm verify".split())
_CHECK_OPENERS = frozenset("please pls plz can could would you u just quickly".split())
#: words after a check verb that make it ask what is so ("confirm pump 2 is off")
_CHECKED = frozenset(("is", "are", "was", "has", "have", "if", "whether", "still"))
#: what a thing did, said after a check verb: "confirm the reclaim belt stopped", "check the
#: burners went to auto" (whether it did is asked)
_CHECKED_PAST = frozenset("stopped started tripped closed opened shut went came changed "
                          "switched turned dropped stayed remained".split())


def _checked_state(toks: list[Token]) -> list[Token]:
    """ "confirm heating pump 2 is stopped", "check that the press is on", "verify if the
    valve is open": what it is in is asked, nothing is switched. The verb becomes the mark of a
    yes/no question (as 吗 does), so that it is no word a point must explain ("check valve"
    said otherwise stays a thing)."""
    raw = [t.raw if not t.zh else "" for t in toks]
    k = 0
    while k < len(raw) and raw[k] in _CHECK_OPENERS:
        k += 1
    if k >= len(raw) or raw[k] not in _CHECKS or raw[k + 1:k + 2] in (["valve"], ["weigher"]):
        return toks  # a check valve, a check weigher: things
    rest = raw[k + 1:]
    if not any(w in _CHECKED or w in _CHECKED_PAST for w in rest) or \
            any(w in WRITE_VERBS and w not in _STATES_LAST for w in rest):
        return toks  # ("confirm mixer 2 stopped and start it" asks for a start too; "check
        # the SSV is open" asks a state)
    mark = replace(toks[k], text=YES_NO_MARK, raw=YES_NO_MARK)
    toks = [*toks[:k + 1], *_moved_to_is(toks[k + 1:])]
    if rest[:1] in (["if"], ["whether"]):
        return [*toks[:k], mark, *toks[k + 2:]]  # "check if ...": the "if" asks as well
    return [*toks[:k], mark, *toks[k + 1:]]


#: verbs of a thing moving into a state ("went to auto", "switched off"): once asked about,
#: they say what it is in, as "is" does
_MOVED = frozenset("went came changed switched turned got".split())


def _moved_to_is(toks: list[Token]) -> list[Token]:
    """ "the burners went to auto" → "the burners is auto": the state it is in is the one it
    moved to (asked after a check verb only)."""
    out: list[Token] = []
    skip = False
    for t in toks:
        if skip and t.raw in ("to", "into", "over"):
            continue
        skip = False
        if t.raw in _MOVED and not t.zh:
            out.append(replace(t, raw="is", text="is"))
            skip = True
            continue
        out.append(t)
    return out


def _still_so(toks: list[Token]) -> list[Token]:
    """ "degreaser heater still off", "is fan 2 still running": a state said to be kept asks
    whether it is; with no verb before it, "still" becomes the mark of a yes/no question."""
    for i, t in enumerate(toks):
        if t.raw == "still" and not t.zh and 0 < i < len(toks) - 1 and \
                toks[-1].raw in _STATES_LAST and not toks[-1].zh and \
                all(x.raw not in WRITE_VERBS and x.raw not in _KEEPS for x in toks[:-1]):
            # (not "mixer 2 still off, turn it on": a command after it)
            return [*toks[:i], replace(t, text=YES_NO_MARK, raw=YES_NO_MARK), *toks[i + 1:]]
    return toks


#: an amount asked ("how much water"; 多少 asks any measure)
_HOW_MUCH = re.compile(r"\bhow\s+much\b", re.IGNORECASE)


def _carrier(description: str) -> frozenset[str]:
    """The words a point's description says what it measures is in: "water" and "chiller" of
    "Peracetic acid in the chiller water"."""
    found = _IN.search(description)
    return frozenset(t.text for t in tokens(description[found.end():])) if found else \
        frozenset()


_IN = re.compile(r"\b(?:in|within|inside)\b", re.IGNORECASE)
#: ...which is never how hot (`RuleRouter.amount_of_an_intensity`)
_TEMPERATURE = "quantity.temperature"
#: an amount asked, which no on/off point gives, whatever the question names ("how much is
#: in the mixer" of a mixer's run switch: blind batch 35)
AMOUNT_ASKED = re.compile(r"\bhow\s+(?:much|full)\b|多重|多满", re.IGNORECASE)
#: ...and the words that ask any measure (how high, hot, long), which no on/off point answers
#: either ("how high's the water in the sump" is no high-level switch's)
MEASURE_ASKED = re.compile(r"多少|多久|多高|多大|多重|多长|多快|多深|多满|几(?:度|个|米|吨|bar|公斤)"
                           r"|\bhow\s+(?:much|many|high|low|hot|cold|warm|fast|far|long|full|"
                           r"deep)\b", re.IGNORECASE)
#: a letter written against a number ("R2", "t3"), not inside a longer word ("CO2", "H2O")
_GLUED = re.compile(r"(?<![^\W\d_])([A-Za-z])(\d{1,3})(?![^\W_])")

#: a screen named before the row it shows ("SCADA banner:", "the HMI shows")
_SCREEN = re.compile(
    r"(?i)^(?:the\s+|my\s+|our\s+)?(?:scada|hmi|dcs|plc|screen|panel|display|banner|pop-?up|"
    r"readout|status\s+(?:line|bar|page))(?:\s+(?:banner|screen|page|display|message|panel))?"
    r"(?:\s+(?:says|shows|reads|displays|is\s+showing|showing|is\s+saying))?\s*[:：]?\s*"
    r"(?P<row>.+)$")
#: a question tagged on after a row ("…, is that right")
_TAG_QUESTION = re.compile(r"(?i)[,，]?\s*(?:is\s+(?:that|this|it)\s+(?:right|correct|true|"
                           r"ok|normal)|right|correct|true)\s*[?？]*\s*$|[?？]+\s*$")
_ROW_QUOTES = "'\"“”‘’「」『』«»`"
#: a name and its state apart by a colon or an equals sign, as screens show them
_ROW_COLON = re.compile(r"[^:：=]\s*[:：=]\s*\S+(?:\s+\S+)?\s*[.!]?$")
#: states a screen shows of a thing
_SHOWN_STATES = frozenset("on off open opened closed shut running run stopped stop tripped "
                          "fault faulted alarm normal healthy ok ready auto manual local remote "
                          "enabled disabled active inactive standby".split())

def _or_not(toks: list[Token]) -> list[Token]:
    """ "aux drive engaged or not", "burner lit or not?": whether it is so is asked; the
    "or not" becomes the mark of a yes/no question."""
    if len(toks) > 2 and [t.raw for t in toks[-2:]] == ["or", "not"] and not toks[-1].zh:
        return [*toks[:-2], replace(toks[-1], text=YES_NO_MARK, raw=YES_NO_MARK)]
    raw = [t.raw if not t.zh else "" for t in toks]
    for pair in _EITHER_SAID:
        n = len(pair)
        for i in range(len(raw) - n + 1):
            if tuple(raw[i:i + n]) == pair:  # "in service or out of service": on or off
                either = [replace(toks[i], text=w, raw=w) for w in ("on", "or", "off")]
                return [*toks[:i], *either, *toks[i + n:]]
    return toks


#: a state and its opposite said in words of more than one ("ORV 1 in service or out of service")
_EITHER_SAID = (("in", "service", "or", "out", "of", "service"),
                ("online", "or", "offline"), ("on", "line", "or", "off", "line"))


#: verbs that ask for a state to be kept ("leave pump 2 still running" is no question)
_KEEPS = frozenset("keep leave hold let make".split())


def _state_last(toks: list[Token], named: AbstractSet[int] = frozenset()) -> bool:
    """A state said last, after what it is of, and no verb before it: "flue damper open?"
    asks whether it is (and a "?" is there), not to open it ("can you turn it on?" asks to).
    A verb that is a word of a name (`named`: "make" of "make-up valve") is no verb."""
    return len(toks) > 1 and toks[-1].raw in _STATES_LAST and not toks[-1].zh and \
        not any(t.raw in WRITE_VERBS and i not in named for i, t in enumerate(toks[:-1]))


def _where(toks: list[Token], i: int) -> bool:
    """Whether the words from `i` on only say where ("curtain pump off on the enrober", "fan
    off in hall 2"): a preposition of place, then no other on/off word, and no number but one
    that numbers the thing before it (not "at 5", "in 10 minutes")."""
    if i >= len(toks) or toks[i].raw not in _PLACE or toks[i].zh:
        return False
    if toks[i].raw == "on" and not preposition_on(toks, i):
        return False
    rest = toks[i + 1:]
    return bool(rest) and not any(
        x.raw in ON_WORDS | OFF_WORDS or x.raw in WRITE_VERBS or x.raw.endswith("ing")
        or (x.is_number and (toks[i + k].is_number or toks[i + k].raw in _PLACE
                             or toks[i + k].raw in STOP))
        for k, x in enumerate(rest))


_PLACE = frozenset(("on", "in", "at"))


def _pairs(toks: list[Token] | tuple[Token, ...]) -> set[tuple[str, str]]:
    """A word and the number right after it: ("pump", "1") in "feed pump 1 speed"."""
    return {(t.text, toks[i + 1].text) for i, t in enumerate(toks[:-1])
            if not t.is_id and toks[i + 1].is_id}


def speech_problem(toks: list[Token]) -> ValueWords | None:
    """A "don't" anywhere, or a change of mind after the first number ("1500, no wait, 100"):
    no value may be taken from such words, whatever they name."""
    negation = [t.shown for t in toks if t.raw in NEGATIONS]
    if negation:
        return ValueWords(problem="negation", words=tuple(negation))
    raw = [t.raw for t in toks]
    first_number = next((i for i, t in enumerate(toks) if t.is_number or t.unreadable),
                        len(toks))
    for i in range(first_number + 1, len(toks)):
        for phrase in CORRECTIONS:
            if tuple(raw[i:i + len(phrase)]) == phrase:
                said = " ".join(dict.fromkeys(t.shown for t in toks[i:i + len(phrase)]))
                return ValueWords(problem="correction", words=(said,))
    return None


def _split(t: Token) -> list[Token]:
    """ "1 600" after "pump": pump 1, and 600. A minus before the name is no one value."""
    rest = " ".join(t.groups[1:])
    value = exact(rest.replace(" ", ""))
    if value is None or t.number is None or t.number < 0:
        return [replace(t, groups=(), unreadable=True, number=None, text=t.raw)]
    name = int(t.groups[0])
    return [Token(str(name), t.groups[0], name), Token(str(value), rest, value)]


def _ungrouped(toks: list[Token]) -> list[Token]:
    """Names are split at every digit group ("Zone 1 200" names zone 1 200, not zone 1200)."""
    out: list[Token] = []
    for t in toks:
        if t.groups and t.number is not None and t.number >= 0:
            out += [Token(g, g, exact(g)) for g in t.groups]
        else:
            out.append(t)
    return out


#: verbs that say the number after them is the value, whatever its sign ("set X -5")
_SET_VERBS = frozenset("set change adjust make put write".split())


def _minus_as_change(t: Token, point: Point | None, before: list[str]) -> bool:
    """ "intake pump speed -100": a minus on a point that is never below zero says a decrease
    as often as a value; asked back unless "to"/"at" or a verb of setting says it is the value
    ("set X to -100" is written, and the policy names the range)."""
    if t.number is None or t.number >= 0 or point is None or point.min is None \
            or point.min < 0 or not t.raw.startswith(("-", "−", "minus")):
        return False
    return not (before and before[-1] in VALUE_BEFORE) and not _SET_VERBS & set(before)


def _example(point: Point | None) -> str:
    """A value to show in a question back: inside the point's range when it has one."""
    if point is None or point.kind not in ("int", "float") or point.min is None \
            or point.max is None:
        return "1500"
    lo, hi = point.min, point.max
    mid = lo + (hi - lo) * 0.8
    step = 10 ** max(0, len(str(int(abs(mid)))) - 2)
    value = min(max(round(mid / step) * step, lo), hi)
    return str(int(value)) if value == int(value) else repr(float(value))  # never "1.2e+06"


def _intent_action(intent: Intent) -> Action:
    if intent.action == "respond":
        return respond("intent", text=intent.reply, intent=intent.name)
    args: dict[str, Any] = {"point": intent.point}
    if intent.action == "write":
        args["value"] = intent.value
    return Action(intent.action, args)


def counted(toks: list[Token]) -> bool:
    """ "the two tempering ovens", "both three zones": a number said in words after "the",
    "these", "all" or "both" and before a plural noun counts things, it numbers none."""
    for i, t in enumerate(toks):
        if i == 0 or not t.is_number or not t.raw.isalpha() or t.ordinal or \
                toks[i - 1].raw not in ("the", "these", "those", "all", "both"):
            continue  # (not "the second press")
        if any(x.raw.endswith("s") and not x.raw.endswith("ss") and x.raw.isalpha()
               and not x.is_number and len(x.raw) > 3 for x in toks[i + 1:i + 4]):
            return True
    return False


def _placed_points(action: Action) -> list[str]:
    """The point or points a read or write names."""
    point = action.args.get("point")
    return [point] if isinstance(point, str) else list(action.args.get("points", ()))


def _state_of(a: Analysis, point: Point) -> bool | None:
    """`state_named` of the command's words: those it says of the thing (not a verb that is
    a word of a name, "make up" of "Make-up water valve"), all it heard, in order."""
    return state_named(point, {t.raw for i, t in enumerate(a.toks) if i not in a.named},
                       a.words | {t.text for t in a.toks}, [t.text for t in a.toks], a.text)


def named_state(words: list[str]) -> str | None:
    """The state a switch is named by ("closed" of "Lane 1 closed signal", "stopped" of
    "Feeder stopped"): one of `NAMED_STATES` said last in its name, or before only words of
    a signal (`STATE_SIGNALS`); not one that qualifies a thing ("Closed loop pump", "Fuel
    shut-off valve"), nor one of an alias or a description. `words`: its name's, canonical."""
    words = _joined_de(words)
    for i, w in enumerate(words):
        if w in NAMED_STATES and all(x in STATE_SIGNALS for x in words[i + 1:]):
            return w
    return None


def _joined_de(words: list[str]) -> list[str]:
    """ "de energise" (of "de-energise") as one word."""
    out: list[str] = []
    for w in words:
        if out and out[-1] == "de" and w.startswith("energi"):
            out[-1] = "de" + w
        else:
            out.append(w)
    return out


def state_named(point: Point, said: AbstractSet[str], heard: AbstractSet[str],
                order: Sequence[str] = (), text: str = "") -> bool | None:
    """The value a command gives a switch named by a state (`named_state`) with the verb of
    that state or of the other one ("close lane 1" sets the "Lane 1 closed signal"; "reopen
    lane 1" clears it); None when the switch is named by no such state, or the words say
    neither verb nor on/off, or both verbs, or on/off with the state itself said ("switch off
    the lane 1 closed signal": the switch's own words). `StateConflict` when the verb and an
    on/off word say two values, or on/off are said of the thing without its state ("turn on
    the feeder" of "Feeder stopped": on may mean running, or the stop).

    A switch named by any other action after its thing ("Feeder 3 isolate", "Fan 5 brake":
    `point_sense`) is decided by `_by_sense`. `order`: the command's words in order (its
    first, and "de" before an action); `text`: the command as said (its Chinese)."""
    if point.kind != "bool":
        return None
    words = [t.text for t in tokens(unpaired(point.name))]  # (once, for both questions)
    name = set(words)
    if said & {"start", "run", "stop"} and "stop" in name and not name & {"start", "run"}:
        # "start the conveyor" of its "Conveyor stop button": on would press the stop, and
        # "stop the conveyor" release it
        raise StateConflict(None)
    sense = point_sense(point)
    if sense is not None and not sense.named and sense.thing and \
            _alias_said_whole(point, order, sense.word):
        return None  # "switch the main pulper on" of a "Hydrapulper agitator" aliased "main
        # pulper": its alias names the switch, which on and off switch
    if sense is not None and not sense.named:
        return _by_sense(sense, said, heard, order, text)
    state = sense.word if sense is not None else named_state(words)
    if state is None:
        return None
    to_state, from_state = NAMED_STATES[state]
    if said & to_state and _undone_state(to_state, order, text, words):
        # "解除暂停3号输送机", "release the pause on conveyor 3", "take pump 4 off hold": the
        # state's word said as what is lifted
        if said & from_state or "on" in said:
            raise StateConflict(False)
        return False
    # (any other verb of on or off: "kill the burner" of "Burner inhibit", 打开 of "Hall
    # lights off", "open the door" of "Door unlock" say no value of the switch)
    switched = said & (ON_WORDS | OFF_WORDS) - to_state - from_state
    if switched and not (to_state or from_state):
        raise StateConflict(None)  # "turn on the hall lights" of "Hall lights off"
    if bool(said & to_state) == bool(said & from_state):
        if switched and not said & (to_state | from_state) and state not in heard:
            raise StateConflict(None)
        return None
    value = bool(said & to_state)
    if ("on" in said and not value) or ("off" in said and value):
        raise StateConflict(value)
    return value


def _undone_state(to_state: AbstractSet[str], order: Sequence[str], text: str,
                  name: Sequence[str] = ()) -> bool:
    """Whether the state a switch is named by is said as what is lifted: 解除/退出/复位 in
    Chinese; in English "release", "lift", "clear", "remove" or "end" before its word, or
    "off"/"out of" right before it ("take pump 4 off hold")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if any(undo in folded for undo in UNDO_ZH):
        return True
    at = next((i for i, w in enumerate(order) if w in to_state), None)
    if at is None:
        return False
    # (a word of the name said beside its neighbour in the name is the name's: "set lift 2
    # lock"; "lift the lock on lift 2", "end the pause on conveyor 4" lift — atk12-14)
    name = list(name)

    def of_name(i: int) -> bool:  # said beside the word it has beside it in the name
        w = order[i]
        if w not in name:
            return False
        j = name.index(w)
        return (i + 1 < len(order) and j + 1 < len(name) and order[i + 1] == name[j + 1]) or \
            (i > 0 and j > 0 and order[i - 1] == name[j - 1])
    lifting = {i for i, w in enumerate(order[:at]) if w in _LIFTING - to_state and not of_name(i)}
    return bool(lifting) or (
        at >= 1 and order[at - 1] in ("off", "of") and (order[at - 1] == "off" or (
            at >= 2 and order[at - 2] == "out")))


#: words that lift a state said after them ("release the pause", "lift the lock")
_LIFTING = frozenset(("release", "lift", "clear", "remove", "end"))


@dataclass(frozen=True, slots=True)
class ActionSense:
    """What a switch named by an action after its thing does when on ("isolate" of "Feeder 3
    isolate", "brake" of "Fan 5 brake"): a generic on/off said of the thing says nothing of
    it (on may start the fan, or brake it)."""

    word: str  # the action, canonical
    opposites: frozenset[str]  # the words that undo it ("deisolate", "normalise")
    #: the words between the thing's number and a state word that make it an action of its
    #: own ("fail", "safe" of "Damper 2 fail-safe close": "close damper 2" is no fail-safe)
    qualifiers: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()  # the action as its Chinese names end in it ("隔离")
    #: a state of `NAMED_STATES`, unqualified: its own verbs decide (`state_named`)
    named: bool = False
    #: what the lexicon reads the action as ("heating" of 供暖 too)
    concepts: frozenset[str] = frozenset()
    #: the word is a thing of its own, a part of what is named before it ("heater" of "Tank 2
    #: heater", "defrost" of "Freezer 3 defrost"): switched by on/off said of it, never by
    #: on/off said of the tank alone; nothing undoes it but off
    thing: bool = False
    #: the other words of its name, which say no undoing ("trip" of "Heater trip reset")
    before: frozenset[str] = frozenset()
    #: of a thing: its words between the number and it, any of which names it too ("dasher"
    #: of "Freezer 2 dasher motor", "cooling" of "Tank 2 cooling jacket valve")
    part: tuple[str, ...] = ()


#: a name ended by both of its switch's actions, the one of on first ("Pump 1 start/stop",
#: "Valve 16 open/close", "Fan 3 on-off command", "5号泵启停"): the thing, switched both ways
_PAIRED = re.compile(
    r"(?:(?:\s*[,(\[]\s*|\s+)(?:(?:start|run|open|on)\s*[/\\&+-]?\s*(?:stop|close|off)|s/s)"
    r"(?:\s+(?:command|cmd|control|ctrl|request|req|signal|output|coil|bit))?\s*[)\]]?"
    r"|[(（]?(?:启停|启/停|启动/停止|开/关|开/停|开启/关闭|打开/关闭)(?:控制|命令|指令|信号)?[)）]?)\s*$",
    re.IGNORECASE)


#: what says a valve is shut unpowered, the usual way, which no command need say ("Valve 3
#: normally closed solenoid", "NC valve 3", "Valve 3 fail closed solenoid")
_CLOSED_UNPOWERED = re.compile(r"\b(?:normally|fail)[\s-]*(?:closed?|shut)\b|\bNC\b")


def unpaired(label: str) -> str:
    """A switch's name without the pair of actions it ends in ("Pump 1 start/stop" -> "Pump
    1"): on starts it and off stops it as on/off of the thing does (not "stop/start", whose
    on is not said); nor with the words that say it is shut unpowered ("normally closed")."""
    label = " ".join(_CLOSED_UNPOWERED.sub(" ", label).split()) or label
    found = _PAIRED.search(label)
    if found is None or not label[:found.start()].strip():
        return label
    return label[:found.start()].rstrip(" -_/")


def _alias_said_whole(point: Point, order: Sequence[str], word: str) -> bool:
    """Whether one of the point's aliases without `word` is said, word for word."""
    for alias in point.aliases:
        words = [t.text for t in tokens(alias)]
        n = len(words)
        if n and word not in words and any(list(order[i:i + n]) == words
                                           for i in range(len(order) - n + 1)):
            return True
    return False


def point_sense(point: Point) -> ActionSense | None:
    """The action a writable on/off point is named by after the thing it acts on, or None:
    the last word of its name (before signal words: "command", "coil"), when something is
    named before it and it is neither a number, a thing the lexicon knows ("Kiln exhaust
    fan", "Boiler 1 burner") nor a word of running ("Pump 1 run", "Boiler 2 enable"); a
    state word before a word of running ("inhibit" of "Pump 7 inhibit run"). Its Chinese
    names' last two characters are the same action said in Chinese ("3号馈线隔离")."""
    if point.kind != "bool":
        return None
    return _sense(simplified(unpaired(point.name)),
                  tuple(simplified(unpaired(n)) for n in point.names.values()))


#: a word of two parts joined by a hyphen in a name ("wash-down", "pull-down")
_HYPHENATED = re.compile(r"(?<![\w-])([^\W\d_]{2,})-([^\W\d_]{2,})(?![\w-])")
_A_WORD = re.compile(r"(?<![\w-])[^\W\d_]{4,}(?![\w-])")
#: a word of letters alone, three or more, written apart ("feed" of "Feed water pump 2",
#: not of "wash-down" nor of "HM1")
_A_PART = re.compile(r"(?<![\w-])[A-Za-z]{3,}(?![\w-])")
#: what joins two words that share the last part ("head and tail water")
_JOINING = frozenset(("and", "or", "&", "/", ","))

#: words around a command that ask nothing of their own
_ASKING_ONLY = _POLITE | frozenset("the a an can could would will you u".split())
#: Chinese words that make an order of what follows (把2号冷机...), naming nothing
_ZH_ORDERING = frozenset("把 将 请 给".split())
#: 给 opening a command, for a thing (给2号罐加热), not for whoever asks (给我看看)
_GIVEN_ORDER = re.compile(r"(?:请|麻烦)?给(?![我咱您你他她大个])")
#: ...nor a word that opens with it (给水泵, 给煤机, 给料斗, 给定值: review atk60b)
_GIVEN_WORD = re.compile(r"^(?:请|麻烦)?给[水煤料粉定矿浆药气风油汽]")
#: ...nor a status asked to be shown (给冷冻库灯状态, 给查一下)
_ASKED_TO_SEE = re.compile(r"状态|状况|情况|看|查|显示|读数|多少|几")

#: parts of a hyphenated name word that make it no word to rewrite ("auto-start")
_VERB_PARTS = WRITE_VERBS | STATE_VERBS | ON_WORDS | OFF_WORDS | ARMING


def _known_word(word: str) -> bool:
    """Whether the rules, or the lexicon as an action or a state, read `word` alone
    ("bypass", "override", "standby"; not "blowdown", a thing written either way)."""
    return word in DESTRUCTIVE | DISABLING | RULE_BREAKING | INJECTION | PROTECTIONS | \
        WRITE_VERBS | STATE_VERBS or any(
            m.start == 0 and m.end == len(word) and m.concept.kind in ("action", "state")
            for m in concepts_of_text(word))


#: words said with a greeting and nothing else ("good evening all", "hi there team")
_GREETED = frozenset("good night day there all everyone everybody team folks guys mate".split())


def _greeting_only(toks: list[Token]) -> bool:
    """Whether the command is a greeting and nothing more: "good evening", "hello there",
    "good night" (a word of a point's name in it, "good" of "Good copies", names nothing)."""
    said = {t.raw for t in toks if t.raw not in STOP}
    if not said or not said <= GREETINGS | _GREETED:
        return False
    return bool(said & GREETINGS) or ("good" in said and bool(said & {"night", "day"}))


@functools.lru_cache(maxsize=4096)
def _sense(name: str, names: tuple[str, ...]) -> ActionSense | None:
    every = tokens(name)
    # (what the lexicon reads each word as, in its phrase: "guns" of "snow guns" is a thing)
    things = [any(s.kind in _THING_KINDS for s in senses)
              for senses in default_lexicon().senses(name, every)]
    kept = {id(t) for t in content(every, label=True)}
    zh = tuple(tail for label in (name, *names) if (tail := _zh_tail(label)))
    if any(t.zh for t in every):
        folded = unicodedata.normalize("NFKC", name).casefold()
        act = next((a for a in _ZH_ACTS if a in folded[1:] and
                    folded.index(a, 1) + len(a) < len(folded)), None)
        if act is not None:
            # "12号阀关闭电磁阀", "9号卷帘门下降电机": a device that does the action in its
            # name, set only by that action (atk14)
            return ActionSense(act, frozenset(), zh=(act,))
        # a name said in Chinese alone: its last two characters, when they are no word the
        # tokens know (a thing, a number, "启动": start)
        last = [(t, thing) for t, thing in zip(every, things, strict=True) if t.zh or t.is_id]
        words = [(t, thing) for t, thing in last if not t.is_id]
        if len(words) >= 2 and words[-1][1] and zh and any(t.is_id for t, _ in last) and \
                words[-1][0].written != words[0][0].written and \
                _strict_thing(words[0][0].raw) and not _own_power_zh(name) and not (
                    _concepts_of(words[-2][0].raw) & _concepts_of(words[-1][0].raw)):
            # "1号锅炉给水泵": a part of a numbered thing, which 停止1号锅炉 does not name (not
            # "3号车间照明灯", whose 照明 and 灯 are one thing, the lights)
            part = words[-1][0].written if len(words[-1][0].written) > 1 else zh[0]
            return ActionSense(part, frozenset(), zh=(part, *zh), thing=True)
        if not last or last[-1][0].is_id or last[-1][1] or last[-1][0].text in RUN_WORDS \
                or last[-1][0].text in NAMED_STATES or not zh or not is_chinese(name[-1:]):
            return None
        return ActionSense(zh[0], frozenset(), zh=zh)
    of = next((i for i, t in enumerate(every) if t.raw in ("for", "of") and i > 0 and
               any(x.is_id for x in every[i + 1:])), None)
    if of is not None and things[of - 1] and not every[of - 1].is_id and (
            every[of - 1].text not in _OWN_POWER | _WHOLE or any(
                id(t) in kept for t in every[:of - 1])):
        # "Heater for tank 6": the heater, which "turn on tank 6" does not name (atk12)
        acts = [a for t in every[:of - 1] if (a := _act_of(t.text))]
        if acts:  # "Close solenoid for valve 5": closes it (atk14)
            return ActionSense(acts[-1], frozenset(), zh=zh)
        head = every[of - 1]
        return ActionSense(head.text, frozenset(), zh=zh, thing=True,
                           concepts=default_lexicon().broader(
                               s.concept for s in default_lexicon().concepts(head.raw)),
                           part=tuple(t.text for t in every[:of - 1] if id(t) in kept))
    texts: list[str] = []
    ids: list[bool] = []
    known: list[bool] = []
    meant: list[frozenset[str]] = []
    for t, thing, senses in zip(every, things, default_lexicon().senses(name, every),
                                strict=True):
        if id(t) not in kept and t.text not in RUN_WORDS:
            continue  # (a stop word; not "on" of "ED Rect On", which says it runs)
        if texts and texts[-1] == "de" and t.text.startswith("energi"):
            texts[-1] = "de" + t.text  # ("de-energise" as one word, as `named_state` reads it)
        else:
            texts.append(t.text)
            ids.append(t.is_id)
            known.append(thing)
            meant.append(frozenset(x.concept for x in senses))
    while texts and texts[-1] in STATE_SIGNALS:
        texts, ids, known = texts[:-1], ids[:-1], known[:-1]
    k = len(texts) - 1
    tag = k
    while tag > 0 and ids[tag]:
        tag -= 1
    if tag < k - 1 and tag >= 2 and any(ids[:tag]):
        # "Door 6 close motor M1": the device's tag after it names no thing
        texts, ids, known, meant = texts[:tag + 1], ids[:tag + 1], known[:tag + 1], \
            meant[:tag + 1]
        k = tag
    if k >= 2 and ids[k] and not ids[k - 1] and any(ids[:k - 1]) and (acts := [
            a for w in texts[max(i for i in range(k - 1) if ids[i]) + 1:k]
            if (a := _act_of(w))]):
        # "Boiler 2 close valve 2": the action of a numbered device (atk14)
        return ActionSense(acts[-1], frozenset(), zh=zh, before=frozenset(texts[:k]))
    if k >= 2 and ids[k] and known[k - 1] and not ids[k - 1] and any(ids[:k - 1]) and \
            texts[k - 1] not in _OWN_POWER:
        # "Boiler 2 feed pump 2": a numbered part of a numbered thing
        j = max(i for i in range(k - 1) if ids[i])
        return ActionSense(texts[k - 1], frozenset(), zh=zh, concepts=meant[k - 1],
                           thing=True, part=tuple(texts[j + 1:k - 1]))
    if k == 2 and ids[k] and not ids[0] and texts[0] not in RUN_WORDS and (
            texts[0] in NAMED_STATES or (not known[0] and (
                texts[0] in SENSE_OPPOSITES or texts[0] in _PART_ACTS))):
        # "Hold conveyor 10", "Isolate feeder 7", "Lower gate 22": the action said first, of
        # the thing after it, which "start conveyor 10" does not say (atk20 VF); not the
        # first word of a longer name ("Open rack vaporiser 2" is a kind of vaporiser)
        return ActionSense(texts[0], frozenset(), zh=zh)
    if k < 1 or ids[k] or not texts[k].isalpha():
        return None
    if texts[k] in _PARTICLES and k >= 2 and not ids[k - 1] and texts[k - 1].isalpha() and \
            (texts[k - 1] in _PHRASAL or not known[k - 1]):  # (not "Hall lights off")
        # "Gas 2 shut off", "Boiler 1 shut down", "Pump 6 turn off": the phrase is the
        # action, which no on/off said of the thing may set ("shut gas 2 off" — atk10 J1)
        return ActionSense(texts[k - 1] + texts[k], frozenset(), zh=zh)
    if texts[k] in RUN_WORDS:
        # "Pump 7 inhibit run": the action said before the running it acts on
        j = k - 1
        while j >= 1 and texts[j] in RUN_WORDS and not ids[j]:
            j -= 1
        if j >= 1 and not ids[j] and known[j] and any(ids[:j]) and texts[j] not in _OWN_POWER and \
                texts[j] not in NAMED_STATES.keys() | SENSE_OPPOSITES.keys():
            # "Boiler 3 ID fan run": the part runs, not the boiler
            n = max(i for i in range(j) if ids[i])
            return ActionSense(texts[j], frozenset(), zh=zh, concepts=meant[j], thing=True,
                               part=tuple(texts[n + 1:j]))
        if j < 1 or ids[j] or texts[j] not in NAMED_STATES.keys() | SENSE_OPPOSITES.keys():
            return None
        k = j
    word = texts[k]
    numbered = [j for j in range(k) if ids[j]]
    if word not in NAMED_STATES and word not in SENSE_OPPOSITES and known[k]:
        start = numbered[-1] + 1 if numbered else 0
        joined = {m.group(2).casefold() for m in _HYPHENATED.finditer(name)}
        acts = [a for j, w in enumerate(texts[start:k], start)
                if (a := _act_of(w, past=bool(numbered))) and (a not in ("up", "down") or (
                    j == k - 1 and w not in joined))]  # (not the "up" of "make-up valve")
        if acts:
            # "Valve 8 close solenoid", "Gate 3 lowering motor", "Engine 14 kill switch": the
            # device does the action in its name, which only that action sets (atk13, atk14)
            return ActionSense(acts[-1], frozenset(), zh=zh, before=frozenset(texts[:k]))
        if word in _ACTUATORS and k >= 1 and (
                _concepts_of(texts[k - 1]) & _ACTUATED or (
                    k >= 2 and ids[k - 1] and _concepts_of(texts[k - 2]) & _ACTUATED)):
            return None  # "Valve 19 actuator", "CV-7 solenoid": the valve, switched
        if word in _OWN_POWER and k - 1 > (numbered[-1] if numbered else 0) and \
                _strict_thing(texts[k - 1]) and not ids[k - 1]:
            # "Tank 2 agitator motor", "Boiler 1 ID fan VFD": the motor of a part is the part
            # (atk14)
            word, k = texts[k - 1], k - 1
        if numbered and word not in _OWN_POWER and (word not in _WHOLE or numbered[-1] != k - 1):
            # "Tank 2 heater", "Freezer 3 defrost": a part of a numbered thing, which "turn
            # on tank 2" says nothing of
            # (its broader concepts too: 风机, a fan, names the "Backwash blower")
            return ActionSense(word, frozenset(), zh=_zh_part(names, zh), thing=True,
                               concepts=default_lexicon().broader(meant[k]),
                               part=tuple(texts[numbered[-1] + 1:k]))
        # the first word before it the lexicon knows as a thing of its own ("boiler" of
        # "Boiler feed pump", "pump" of "Hot water pump recirculation valve" — atk14)
        # (never the word right before it: "spray pump" of "Dust suppression spray pump" is
        # one thing)
        owner = next((j for j in range(k) if not ids[j] and _strict_thing(texts[j]) and
                      not _concepts_of(texts[j]) & meant[k] and (j == 0 or j < k - 1)), None)
        if owner is not None and word not in _OWN_POWER and (word not in _WHOLE or k > 1):
            # "Boiler feed pump", "Furnace ID fan": a part of the thing named first, which
            # "stop the boiler" does not name; "feed" or "pump" does (atk12)
            return ActionSense(word, frozenset(), zh=_zh_part(names, zh), thing=True,
                               concepts=default_lexicon().broader(meant[k]),
                               part=tuple(texts[owner + 1:k]))
        return None  # "Dust suppression spray pump", "Fogging system": the thing switched
    if any(word == verb + particle for verb in _PHRASAL for particle in _PARTICLES):
        # "Gas 2 shutoff", "Burner fuel cutoff": the phrasal action written as one word
        return ActionSense(word, frozenset(), zh=zh, before=frozenset(texts[:k]))
    if word not in NAMED_STATES and word not in SENSE_OPPOSITES and not meant[k] and \
            not _VERB_SHAPED.fullmatch(word):
        if numbered:
            # "Door 4 latch", "Turbine 1 feather": a word no lexicon knows after a numbered
            # thing, which is a thing of its own — the door is not its latch
            return ActionSense(word, frozenset(), zh=zh, thing=True,
                               part=tuple(texts[numbered[-1] + 1:k]),
                               before=frozenset(texts[:k]))
        return None  # "Triple foam arch", "Tire shine": a word no lexicon knows, no verb's
    # "Damper 2 fail-safe close", "Damper 2 fail open": words between the thing's number and
    # a state or an on/off, which make it an action of its own ("open damper 2" is no
    # fail-open; "kill roll cooling on stand 3" is the "Stand 3 work roll cooling")
    qualifiers = tuple(texts[numbered[-1] + 1:k]) \
        if numbered and (word in NAMED_STATES or word in _ON_SAID | _OFF_SAID) else ()
    if word in NAMED_STATES:
        if not qualifiers:
            return ActionSense(word, frozenset(), zh=zh, named=True)
        return ActionSense(word, NAMED_STATES[word][1] | sense_opposites(word), qualifiers, zh,
                           before=frozenset(texts[:k]))
    return ActionSense(word, sense_opposites(word), qualifiers, zh=zh, concepts=meant[k],
                       before=frozenset(texts[:k]))


#: what runs a machine, named after it: "Pump 3 motor", "Conveyor 2 drive" are the pump and
#: the conveyor switched, not a part of them (atk12)
_OWN_POWER = frozenset("motor drive starter contactor vfd inverter".split())
#: what opens and closes a valve, damper or gate, named after it: "Valve 19 actuator", "CV-7
#: solenoid" are the valve switched (a tank's solenoid is a part of the tank)
_ACTUATORS = frozenset(("actuator", "solenoid"))
_ACTUATED = frozenset(("thing.valve", "thing.damper", "thing.penstock"))  # (not a door:
# energising a door's solenoid, a maglock, locks it)
_ACTUATORS_ZH = ("电动执行机构", "执行机构", "执行器", "电磁阀", "电动头")
#: last words that name the whole of what is named before them ("Fogging system")
_WHOLE = frozenset("system unit machine package skid plant equipment set station".split())
#: ...in Chinese: a switch, a VFD, a motor, a starter, a contactor of the machine named before
_OWN_POWER_ZH = ("开关", "变频器", "电机", "马达", "电动机", "启动器", "接触器", "驱动")


def _own_power_zh(name: str) -> bool:
    """A Chinese name of one thing and what powers it ("1号泵开关", "3号风机变频器"): the
    thing switched (not "9号发动机急停开关", whose 急停 is another part)."""
    suffix = next((x for x in _OWN_POWER_ZH if name.endswith(x)), None)
    actuator = next((x for x in _ACTUATORS_ZH if name.endswith(x)), None)
    if actuator is not None:
        # (3号阀执行器: the valve's; 1号罐电磁阀 is a part of the tank)
        stem = re.sub(r"\d+号", "", name[:-len(actuator)])
        return bool(stem) and all(_concepts_of(t.raw) & _ACTUATED for t in tokens(stem)
                                  if not t.is_id)
    if suffix is None:
        return False
    stem = re.sub(r"\d+号", "", name[:-len(suffix)])
    return len({frozenset(s.concept for s in found) for found in default_lexicon().senses(
        stem, tokens(stem))}) <= 1


def _concepts_of(word: str) -> frozenset[str]:
    """What the lexicon reads a word as, with the broader concepts."""
    return default_lexicon().broader(s.concept for s in default_lexicon().concepts(word))


def _strict_thing(word: str) -> bool:
    """Whether the lexicon knows the word as a thing (not a medium, place or modifier)."""
    return any(s.concept.startswith("thing.") for s in default_lexicon().concepts(word))


#: words of an action a device named after them does ("close" of "Valve 8 close solenoid")
_PART_ACTS = frozenset("open close shut start stop kill trip lower raise up down forward "
                       "reverse brake release lock unlock hold descend ascend retract extend "
                       "rev".split())


def _act_of(word: str, past: bool = False) -> str | None:
    """The action a word of a device's name says ("close", "closing", "lowering"), or None."""
    if word in _PART_ACTS:
        return word
    if not word.endswith("ing") and not (past and word.endswith("ed")):
        return None  # ("closed" of "Closed loop cooling valve" says what loop, no action;
        # after a thing's number it is the device's: "Valve 10 closed solenoid")
    return next((act for act in _PART_ACTS if len(act) >= 4 and stems_match(word, act)), None)
#: Chinese actions a device named after them does ("关闭" of 12号阀关闭电磁阀)
_ZH_ACTS = ("禁止", "屏蔽", "闭锁", "关闭", "打开", "开启", "下降", "上升", "制动", "急停",
            "停止", "启动", "反转", "正转", "锁定", "解锁")  # (禁止点火: an inhibit, atk21 ZHINH)
#: verbs whose up/down is their own ("start up", "power down"), no direction
_UP_VERBS = frozenset("start power slow speed warm cool wind ramp step back".split())
#: the word that ends a phrasal action ("shut off", "shut down", "lock out")
_PARTICLES = frozenset(("off", "down", "out"))
_PHRASAL = frozenset("shut cut turn switch power hold lock close run kick cool burn".split())
#: a word shaped as an action ("isolate", "energise", "unlatch", "purging"), which a switch
#: named by it may do to its thing (an unknown noun, "arch", "shine", is the thing)
_VERB_SHAPED = re.compile(r"(?:de|un|dis|re|non)[a-z]{3,}|[a-z]{2,}(?:ate|ise|ize|ify|ess|ed|ing)")
#: what the lexicon knows a switch is of, never what it does: a thing, a place, a medium
_THING_KINDS = frozenset(("thing", "location", "medium", "modifier"))


def _zh_part(names: tuple[str, ...], zh: tuple[str, ...]) -> tuple[str, ...]:
    """The Chinese of a part, as its Chinese names write it last ("加热器" of "2号罐加热器",
    not the two characters "热器"), before the names' last two characters."""
    words = [t.written for name in names if is_chinese(name[-1:])
             for t in [x for x in tokens(name) if x.zh and not x.is_id][-1:]
             if len(t.written) > 1 and name.endswith(t.written)]
    return tuple(dict.fromkeys([*words, *zh]))


def _zh_tail(label: str) -> str:
    """The last two characters of a Chinese name ("隔离" of "3号馈线隔离", "雪机" of
    "4号雪道造雪机"): said in a command, its name is (a Chinese command that names the thing
    without them does not name a switch named by an action)."""
    folded = unicodedata.normalize("NFKC", label).strip().casefold()
    if len(folded) < 3 or not all(is_chinese(c) for c in folded[-2:]):
        return ""
    return folded[-2:]


def _said_of(sense: ActionSense, said: AbstractSet[str], heard: AbstractSet[str],
             order: Sequence[str], text: str) -> tuple[bool, bool]:
    """Whether the command says the action a switch is named by (or a name of the switch that
    says no action), and whether it says its undoing."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    qualified = all(w in heard for w in sense.qualifiers)
    # its undoing: a word of it, "de"/"un" before the action, 解除 before its Chinese (a
    # thing has none: off)
    undone = qualified and not sense.thing and (bool(said & sense.opposites - sense.before) or any(
        w in UNDO_PREFIXES and said_as(order[i + 1], sense.word)
        for i, w in enumerate(order[:-1])) or any(
        undo in folded[:folded.find(tail)] for undo in UNDO_ZH for tail in sense.zh
        if tail in folded))  # (解除灌装机隔离: the undoing said before the thing)
    # (an alias that names the thing alone is no saying of the action: "turn on the fire
    # alarm" of "Fire alarm suppress" with the alias "fire alarm" would suppress it — atk10 J3)
    if sense.word in ("up", "down") and any(
            w == sense.word and i > 0 and order[i - 1] in _PHRASAL | _UP_VERBS and
            order[i - 1] not in sense.before  # (not "start up" of "Generator 2 start up")
            for i, w in enumerate(order)) and order.count(sense.word) == 1:
        return False, False  # "start up lift 2" of "Lift 2 up motor": a verb's particle
    own = qualified and (any(said_as(w, sense.word) for w in heard) or any(
        tail in folded for tail in sense.zh) or any(
        a + b == sense.word for a, b in itertools.pairwise(order)) or _phrasal_said(
        sense.word, order) or any(  # ("shut off", "shut boiler 1 down")
        said_as(w, p) for w in heard for p in sense.part))  # ("the dasher on freezer 2")
    return own, undone


def _meant_of(sense: ActionSense, text: str) -> str | None:
    """The action said in other words: "said" when by a word that is no on/off ("打开上站供暖"
    of "Summit station heating": 供暖 is the heating, 打开 switches it); "switched" when the
    word is an on/off itself ("disable feeder 3" of "Feeder 3 isolate": "disable" means
    isolate to the lexicon, and off as well — which way is not said, atk10 J2)."""
    if not sense.concepts:
        return None
    toks = tokens(text)
    carriers = [t for t, senses in zip(toks, default_lexicon().senses(text, toks), strict=True)
                if sense.concepts & {x.concept for x in senses}]
    if not carriers:
        return None
    if not sense.thing and any(not t.zh for t in carriers):
        # "open boiler 1 drain" of "Boiler 1 purge": an English word of the same concept is
        # another action (the lexicon's groups are loose: drain, purge, bleed, flush), which
        # the switch is not named by; only its own word says it (atk11)
        return "switched"
    return "switched" if any(t.raw in _ON_SAID | _OFF_SAID | _SENSE_VERBS or t.text in
                             _ON_SAID | _OFF_SAID | _SENSE_VERBS for t in carriers) else "said"


def _by_sense(sense: ActionSense, said: AbstractSet[str], heard: AbstractSet[str],
              order: Sequence[str], text: str) -> bool | None:
    """The value a command gives a switch named by an action (`point_sense`): true when it
    says the action itself as its verb ("isolate feeder 3", 隔离3号馈线), false when it says
    its undoing ("de-isolate feeder 3", "normalise feeder 3", 解除隔离); on/off said with the
    action named ("turn on the fan 5 brake", "fan 5 brake off") as said. Any other on/off,
    of the thing alone ("turn on fan 5", "start compressor 2", 打开火灾报警), says nothing of
    it: `StateConflict`, naming the action. None: no value is said."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    own, undone = _said_of(sense, said, heard, order, text)
    meant = _meant_of(sense, text) if not own and not undone and all(
        w in heard for w in sense.qualifiers) else None
    spoken = [w for w in order if w not in _POLITE]
    # ("cut off" of "Burner fuel cutoff": the two words are the action, and "off" no off)
    phrased = {w for pair in itertools.pairwise(order) if "".join(pair) == sense.word
               for w in pair} if own else set()
    around = own and _phrasal_first(sense.word, spoken)  # ("shut boiler 1 down")
    if around:
        phrased |= {spoken[0], sense.word[len(spoken[0]):]}
    verb = own and not undone and (said_as(spoken[0] if spoken else "", sense.word) or
                                   "".join(spoken[:2]) == sense.word or around or any(
        folded.lstrip("请您把马上立即现在").startswith(tail) for tail in sense.zh))
    # (on/off besides the action and its undoing: "disengage" is an off word, and the
    # action of "Winch clutch disengage")
    # (the action's words count as on/off only when they do not say it: "close damper 2" of
    # "Damper 2 fail-safe close" is a plain close)
    switches = {w for w in said if not (undone and w in sense.opposites)
                and not (own and said_as(w, sense.word)) and w not in phrased}
    on, off = bool(switches & _ON_SAID), bool(switches & _OFF_SAID)
    if meant == "switched":
        raise StateConflict(None, sense.word)  # "disable feeder 3": which way, unsaid
    if meant == "said":
        return None if on == off else on  # "打开上站供暖": the heating, switched on
    if undone:
        if on:
            raise StateConflict(False, sense.word)
        return False
    if verb and not sense.thing:  # (a part said first, "defrost freezer 3": `_done_first`)
        if off:
            raise StateConflict(True, sense.word)  # "isolate feeder 3 off"
        return True
    if own:
        # "turn on the fan 5 brake", "fan 5 brake off": the switch said with its action
        return None if on == off else on
    if on or off or said & _SENSE_VERBS or any(w in folded for w in _SENSE_VERBS_ZH):
        raise StateConflict(None, sense.word)  # "turn on fan 5" of "Fan 5 brake"
    return None


def sense_unsaid(point: Point, heard: AbstractSet[str], text: str) -> str | None:
    """The action a switch is named by (`point_sense`) when the command says neither it nor
    its undoing ("set fan 5 to 1" of "Fan 5 brake"): a value said to the thing is none of
    the switch. None: the switch is named by no such action, or the command says it."""
    sense = point_sense(point)
    if sense is None or sense.named:
        return None
    own, undone = _said_of(sense, heard, heard, [], text)
    return None if own or undone or _meant_of(sense, text) is not None else sense.word


def sense_problem(point: Point) -> str:
    """What an on/off said beside the switch's own word is answered with: "part" of a switch
    named by a thing after the thing it is part of ("Tank 2 heater"), "sense" of one named by
    an action ("Fan 5 brake")."""
    sense = point_sense(point)
    return "part" if sense is not None and sense.thing else "sense"


def sense_shown(point: Point, word: str, zh: bool) -> str:
    """The action a switch is named by as an answer names it: its Chinese name's (屏蔽) to a
    command said in Chinese."""
    sense = point_sense(point)
    if zh and sense is not None and sense.zh:
        return sense.zh[0]
    verb = next((v for v in _PHRASAL if word.startswith(v) and word[len(v):] in _PARTICLES),
                None)
    if verb is None or word in point.name.casefold():
        return word
    return f"{verb} {word[len(verb):]}"  # ("turn off" of "Pump 6 turn off", not "turnoff")


def _phrasal_said(action: str, order: Sequence[str]) -> bool:
    """Whether a phrasal action ("shutdown" of "Boiler 1 shut down") is said around its thing:
    its verb, then its particle ("shut boiler 1 down"; "turn … on" is no "turn off")."""
    for verb in _PHRASAL:
        if action.startswith(verb) and action[len(verb):] in _PARTICLES and verb in order:
            return action[len(verb):] in order[order.index(verb) + 1:]
    return False


def _phrasal_first(action: str, spoken: Sequence[str]) -> bool:
    """A phrasal action said around its thing as the command's verb ("shut boiler 1 down")."""
    return bool(spoken) and action.startswith(spoken[0]) and spoken[0] in _PHRASAL and \
        _phrasal_said(action, spoken)


def said_as(word: str, action: str) -> bool:
    """A form of the action ("isolated", "isolating" of "isolate"); a phrasal action in one
    word only as itself ("turn" is no "turnoff": "turn on pump 6" of "Pump 6 turn off")."""
    if word == action:
        return True
    if any(action.startswith(verb) and action[len(verb):] in _PARTICLES for verb in _PHRASAL):
        return False
    return stems_match(word, action)


#: what says on or off of a switch, besides the verbs ("set … to true")
_ON_SAID = ON_WORDS | {"true"}
_OFF_SAID = OFF_WORDS | {"false"}
#: verbs that say on or off of a thing in other words ("bring … online", "kill")
_SENSE_VERBS = frozenset(("kill", "run", "restart", "reopen"))
#: ...in Chinese, which the tokens read as no on/off word (投入: put in service, 切除: cut out)
_SENSE_VERBS_ZH = ("投入", "投运", "切除", "恢复")


class StateConflict(ValueError):
    """A state's verb and an on/off word that say two values ("close barrier 1 off"), or
    on/off said of a thing whose switch is named by a state ("turn on the feeder"). `sense`:
    the action the switch is named by, when that is what on/off did not say ("brake" of
    "Fan 5 brake")."""

    def __init__(self, value: bool | None, sense: str | None = None) -> None:
        super().__init__(value)
        self.sense = sense


def unit_after(toks: list[Token], i: int) -> bool:
    """Whether a unit follows the number at `i` ("1200 rpm", "55 percent", "3巴"): then the
    number is a value in that unit, never the number of a thing."""
    if i + 1 >= len(toks):
        return False
    after = toks[i + 1]
    if i + 2 < len(toks) and toks[i + 2].text == after.raw + toks[i + 2].raw and \
            toks[i + 2].raw.isdigit():
        return False  # "feeder 2 l3 current": the l of the formula L3, no litres
    return bool(after.unit) or (after.raw in UNIT_WORDS and after.raw not in _NOT_UNITS) \
        or after.raw in UNIT_SYMBOLS


#: words after a number that say it is a value without being its unit ("up", "please")
_NOT_UNITS = frozenset(("up", "down", "please"))
