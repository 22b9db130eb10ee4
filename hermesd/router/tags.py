"""Tags spelled out: a point named by a PLC tag of short forms is named in words too.

An integrator names points "PM1_MTR_AMPS", "DRYR_OUT_TMP_SP" or "HM_FDR_SPD"; an operator asks
for "pellet mill 1 motor amps", "the dryer outlet temperature setpoint", "the hammer mill feeder
speed". Each short form of such a tag is spelled out, in this order of trust:

1. the point's own description: the form is one of its words ("IN" of "Boiler 1 in service"),
   or abbreviates one of them ("COND" of a conditioner's steam valve, "GEN" of "General
   status");
2. a short form the trade settles (`lexicon/tag_words.txt`: "TMP", "SPD", "IN");
3. before an equipment number, the initials of words its device writes ("HM1": "hammer mill",
   where a description or the device's id says "hammer mills");
4. a word the plant writes that the short form abbreviates, its letters in order from the first
   ("DRYR": "dryer", "FURN": "furnace"), looked for in its device's points, then the plant.

A letter and number its description writes as a word and that number is that ("Z5" of "…
zone 5 …"). Instrument letters ("PIC-302"), formulas ("CO2") and words the lexicon knows ("SP",
"CO") are kept as written, and so is a form that stays open (none, or two meanings alike).
A name in words with an acronym ("WS pot temp") has the acronym spelled where its own
description has the words of its initials, and only there.

The words spelled out are one more alias of the point, which the rules, the semantic stage and
the model's catalogue all read; a name that is not a tag, or whose tag spells out nothing, is
left as it is.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import replace
from importlib import resources

from hermesd.config.model import Point
from hermesd.router.concepts import concepts_of_text, singular
from hermesd.router.normalize import COMPOUND
from hermesd.router.vocabulary import COMPOUNDS

#: a name written as a tag: capitals and digits in pieces joined by _ - . / or spaces, with at
#: least one joint that is no space or one piece of letters and digits together ("PM1_RUN",
#: "RFL Z5 TEMP"; not "CIP RETURN PH", a name in capitals)
_TAG = re.compile(r"[A-Z0-9]+(?:[-_./ ]+[A-Z0-9]+)+|[A-Z]+\d+[A-Z0-9]*")
_JOINT = re.compile(r"[-_./]|[A-Z]\d|\d[A-Z]")
_PIECE = re.compile(r"([A-Z]+)(?:[-_ ]?(\d+))?|(\d+)")
#: an instrument's letters by ISA 5.1 before its loop number ("TT", "PIC", "FQI", "LSHH"): what
#: is measured, then what the instrument does; never spelled as the plant's words
_INSTRUMENT = re.compile(r"[ABCDEFHIJKLMNPQRSTUVWXYZ][DFJKQ]?[ACEGHIKLORSTVWYZ]{1,3}")
#: a name that is a tag and no more ("LT-203", "HS-012", "FIC-032 SP"), or a tag and a few
#: words in capitals that shorten what its description says ("PT-221 CONE", "LT-301 CST",
#: "KT_101_HOLD_SP", "M-221 SCREW PRESS 1", "BP-1 S/S")
TAG_ONLY = re.compile(
    r"\s*(?:[A-Z]{1,5}[-_ ]?[A-Z]?\d{1,5}[A-Z]?(?:[-_. /][A-Z0-9]+){0,3}"
    # a power plant's KKS code ("10LAC10AP001", "1 LAB20 CT001", "10LAC10AP001-XA01")
    r"|\d{0,3} ?[A-Z]{3} ?\d{2,3} ?[A-Z]{2} ?\d{3}(?:[-_. ]?[A-Z]{1,2}\d{0,3})?"
    r"(?:[-_. ][A-Z0-9]+){0,2}"
    # an IEC 81346 reference designation ("=WFI+LOOP-TT101", "=PW+RO1-PT203.SP")
    r"|(?:[=+][A-Z0-9]+(?:\.[A-Z0-9]+)*)+(?:-[A-Z]{1,4}\d{1,5}[A-Z]?)?(?:[-_.:][A-Z0-9]+){0,2}"
    r")\s*")
#: a KKS code or an IEC 81346 designation opening a name
_CODE = re.compile(r"\s*(?:\d{0,3} ?[A-Z]{3} ?\d{2,3} ?[A-Z]{2} ?\d{3}|[=+][A-Z0-9])")
#: a KKS code or an IEC 81346 designation, then a label of at most five words
_CODE_FIRST = re.compile(r"\s*(?:\d{1,3} ?[A-Z]{3} ?\d{2,3} ?[A-Z]{2} ?\d{3}[A-Z0-9]*"
                         r"|(?:[=+][A-Z0-9]+(?:\.[A-Z0-9]+)*)+(?:-[A-Z]{1,4}\d{1,5}[A-Z]?)?)"
                         r"\s+\S+(?:\s+\S+){0,4}\s*$")
#: letters of a tag paired by slashes, as building controllers name a point's two states
#: ("BP-1 S/S" is brine pump 1's start/stop, "DMPR-2 O/C" a damper's open/close); read only
#: inside a name written as a tag
_PAIRED = re.compile(r"(?<![A-Za-z0-9])[A-Z](?:/[A-Z])+(?![A-Za-z0-9/])")
_PAIRS = {"s/s": "start stop", "o/c": "open close", "e/d": "enable disable",
          "h/o/a": "hand off auto"}
#: where a description's first clause ends
_CLAUSE_END = re.compile(r"[(;,.:]| - ")


def without_brackets(description: str) -> str:
    """A description without what it says in brackets (a remark, not a name)."""
    return re.sub(r"\([^()]*\)", " ", description)


def named_by_code(name: str) -> bool:
    """Whether a name is a tag or code alone (`TAG_ONLY`), or a KKS code or IEC 81346
    designation with a few words of a label after it ("10HTC20CT001 Abs2 lean in T"): either
    way, what its description says is what people call it."""
    return bool(TAG_ONLY.fullmatch(name) or _CODE_FIRST.match(name))


def tag_described(point: Point) -> str:
    """What a point named by its tag alone is described as, up to its description's first
    stop ("Cooler fan 2 motor trip" of "XA-4342"): what a reading of it is asked by, whether
    or not the rules make it a name (an alarm's never is one, which a switching command could
    reach); "" of any other point."""
    if not point.description or not named_by_code(point.name):
        return ""
    return _CLAUSE_END.split(without_brackets(point.description), maxsplit=1)[0].strip()


#: the prose words initials are not made of ("the", "of"), and how words are found
_SMALL = frozenset("""a an and at by for from in into of on or the to with which what when where
    how that this these those is are was its""".split())
_WORD = re.compile(r"[A-Za-z]+")


@functools.cache
def tag_words() -> dict[str, str]:
    """The trade's settled short forms (lower case) and the words each stands for."""
    text = resources.files("hermesd.router.lexicon").joinpath("tag_words.txt").read_text(
        encoding="utf-8")
    rows = (line.split("\t") for line in text.splitlines()
            if line.strip() and not line.startswith("#"))
    return {short.strip(): words.strip() for short, words in rows}


def spelled_out(points: Iterable[Point]) -> list[Point]:
    """The points, each one named by a tag given its tag in words as one more alias (and one
    described by none given its twin's description, `twins_described`)."""
    points = twins_described(points)
    plant = _Prose(points)
    return [_with_words(p, plant) for p in points]


def twins_described(points: Iterable[Point]) -> list[Point]:
    """The points, each one that has no description but a twin that has given the twin's, its
    number made the point's: "B_Desc_02.Marcha" beside a "B_Desc_01.Marcha" described
    "Underflow pump 1 run command" is underflow pump 2's. Twins are names alike but for their
    one number; the first clause of the twin's description must say its number once, and
    every described twin say the same of the point."""
    points = list(points)
    described: dict[str, list[tuple[int, str]]] = {}
    for p in points:
        numbers = _NUMBERS.findall(p.name)
        if p.description and len(numbers) == 1:
            described.setdefault(_NUMBERS.sub("#", p.name), []).append(
                (int(numbers[0]), p.description))
    out = []
    for p in points:
        numbers = _NUMBERS.findall(p.name)
        if p.description or len(numbers) != 1:
            out.append(p)
            continue
        number = int(numbers[0])
        # what the point's own thing is called by its described siblings ("Pump_2.Speed",
        # described "Transfer pump 2 speed", says what Pump_2 is: review atk53)
        prefix = p.name[:_NUMBERS.search(p.name).end()]  # type: ignore[union-attr]
        called = {_called(q.description, number) for q in points
                  if q.description and q is not p and q.name.startswith(prefix)
                  and not q.name[len(prefix):len(prefix) + 1].isdigit()} - {None}
        said: set[str | None] = set()
        for other, whole in described.get(_NUMBERS.sub("#", p.name), ()):
            # (its first clause: "Free chlorine in chiller tank 1, the pre-chiller" says of
            # tank 1 what it need not of tank 2)
            text = _CLAUSE_END.split(whole, maxsplit=1)[0].strip()
            at = [m for m in _SAID_NUMBER.finditer(text) if int(m.group(0)) == other]
            if other == number or len(at) != 1:
                said.add(None)  # (a twin of the same number; a number said twice or not)
                continue
            said.add(text[:at[0].start()] + str(number) + text[at[0].end():])
        if len(said) == 1 and None not in said and not called - {_called(next(iter(said)),
                                                                            number)}:
            out.append(replace(p, description=said.pop()))
        else:
            out.append(p)
    return out


def _called(description: str | None, number: int) -> tuple[str, ...] | None:
    """The words a description's first clause says before a number ("transfer pump" of
    "Transfer pump 2 speed"), or None where it does not say the number."""
    clause = _CLAUSE_END.split(description or "", maxsplit=1)[0]
    at = [m for m in _SAID_NUMBER.finditer(clause) if int(m.group(0)) == number]
    if len(at) != 1:
        return None
    return tuple(w.casefold() for w in _WORD.findall(clause[:at[0].start()])[-2:])


_NUMBERS = re.compile(r"\d+")
_SAID_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _with_words(point: Point, plant: _Prose) -> Point:
    name = point.name.strip()
    if _CODE.match(name):
        return point  # a KKS code's or a designation's letters abbreviate no words of ours
    if " " not in name and (_CAMEL_CASE.search(name) or (
            _SYMBOL.search(name) and not _TAG.fullmatch(name))):
        return _camel_case_spelled(point, name, plant)
    if not _TAG.fullmatch(name) or not _JOINT.search(name):
        return _acronyms_spelled(point, plant)
    said: list[str] = []
    # a formula of several elements is what it is ("H3PO4": phosphoric acid), no letters and
    # numbers of the plant's
    compounds = list(COMPOUND.finditer(name))
    # a building controller's pairs of one letter ("BP-1 S/S": the pump's start/stop)
    paired = [m for m in _PAIRED.finditer(name) if m.group(0).casefold() in _PAIRS]
    # letters with their number, written with them or apart ("PM1", "PIC-302", "TK 1")
    for piece in _PIECE.finditer(name):
        within = next((c for c in compounds if c.start() <= piece.start() < c.end()), None)
        if within is not None:
            if within.start() == piece.start():
                said.append(COMPOUNDS[within.group(0).casefold()])
            continue
        pair = next((m for m in paired if m.start() <= piece.start() < m.end()), None)
        if pair is not None:
            if pair.start() == piece.start():
                said.append(_PAIRS[pair.group(0).casefold()])
            continue
        letters, number = piece.group(1) or "", piece.group(2) or piece.group(3) or ""
        marked = plant.marked(letters, number, point) if number else None
        if number and not marked and (tagged := plant.tags.get(f"{letters}{number}".casefold())):
            marked = f"{tagged} {number}"  # ("DH-1 RH-SP": the dehumidifier another
            # point's description writes "DH-1" after)
        if marked:
            said.append(marked)  # "Z5", "ST1" of a point described "… zone 5 …", "Steriliser 1"
        elif not letters or (len(letters) == 1 and number) or \
                (number and _known(f"{letters}{number}".casefold())):
            said.append(f"{letters.casefold()}{number}")  # "101"; "W2" alone: a mark; "NH3"
            # a gas, no instrument's letters and loop number
        elif number and _INSTRUMENT.fullmatch(letters) and letters.casefold() not in tag_words():
            said.append(f"{letters.casefold()} {number}")  # "PIC-302": an instrument's tag
        else:
            # (letters after the tag's number are a part of the loop, "TIC301.DL": spelled by
            # its own description or the trade's table only, not by another point's words —
            # "DL" is no "drum level" of a "Boiler drum level controller", review atk45b)
            words = plant.spelled(letters.casefold(), point, bool(number),
                                  own_only=not number and any(c.isdigit() for w in said for c in w))
            said.append(f"{words} {number}" if number else words)
    words = " ".join(said)
    if words.replace(" ", "") == re.sub(r"[^a-z0-9]", "", name.casefold()):
        return point  # nothing spelled out
    if words.casefold() in (a.casefold() for a in point.aliases):
        return point
    return replace(point, aliases=(*point.aliases, words))


def _acronyms_spelled(point: Point, plant: _Prose, *, symbol: bool = False) -> Point:
    """A name in words with an acronym ("WS pot temp" of a point described "Wave solder
    machine solder pot temperature"): the acronym spelled out where the point's own
    description has the words of its initials, and only one such phrase; the other words as
    they are."""
    words = point.name.split()
    own = plant.own.get(point.id, [])
    symbol = symbol or bool(_IN_CAPITALS.fullmatch(point.name.strip()))
    said = [found.pop() if _ACRONYM.fullmatch(w) and not _known_not_unit(w.casefold())
            and w.casefold() not in plant.described
            and len(found := _initials(w.casefold(), own)) == 1 else
            _tag_spelled(w, own, plant) or _terse(w, point, plant, symbol) for w in words]
    if said == words:
        return point
    return replace(point, aliases=(*point.aliases, " ".join(said)))


#: a name written in CamelCase, as a PLC's variable ("SingleFacerSpeed", "DB_HotPlate3Temp"):
#: a word of small letters runs into a capital
_CAMEL_CASE = re.compile(r"[a-z]{2}[A-Z]")
#: where its words meet: a capital after two small letters (not "pH"), a number after a word,
#: a word after a number ("Plate3Temp"), a word after an acronym ("DBHot"), and _ . -
_CAMEL_JOINTS = re.compile(r"(?<=[a-z]{2})(?=[A-Z])|(?<=[a-z])(?=\d)|(?<=\d)(?=[A-Z][a-z])"
                           r"|(?<=[A-Z])(?=[A-Z][a-z]{2})|[_.]+")


def _camel_case_spelled(point: Point, name: str, plant: _Prose) -> Point:
    """A CamelCase name in words, one more alias ("Single Facer Speed"), and that again with
    its acronyms spelled out where its description says them ("DB Hot Plate 3 Temp": "double
    backer hot plate 3 temp")."""
    words = " ".join(_CAMEL_JOINTS.sub(" ", name).split())
    spelled = _acronyms_spelled(replace(point, name=words), plant,
                                symbol=True).aliases[len(point.aliases):]
    thing = _thing_described(words.split(), point.description or "")
    extra = [a for a in dict.fromkeys((words, *spelled, *([thing] if thing else [])))
             if a.casefold() not in (b.casefold() for b in point.aliases)]
    return replace(point, aliases=(*point.aliases, *extra)) if extra else point


def _thing_described(words: list[str], description: str) -> str | None:
    """A symbol whose numbered thing is written in short forms no word of ours spells
    ("B_Desc_01.Marcha": bomba de descarga 1), with the thing as its description calls it
    before the same number ("Underflow pump 1 run command"): "underflow pump 01 Marcha".
    As many words as the symbol writes before its number, the last a thing the lexicon knows;
    None where the description says no such thing, or the symbol's words are known."""
    numbers = [i for i, w in enumerate(words) if w.isdecimal() and w.isascii()]
    if len(numbers) != 1 or not numbers[0] or any(
            _known(w.casefold()) for w in words[:numbers[0]]):
        return None
    at, number = numbers[0], int(words[numbers[0]])
    clause = _CLAUSE_END.split(description, maxsplit=1)[0]
    said = [m for m in _SAID_NUMBER.finditer(clause) if int(m.group(0)) == number]
    if len(said) != 1:
        return None
    before = _WORD.findall(clause[:said[0].start()])[-at:]
    if len(before) != at or any(w.casefold() in _SMALL for w in before) or \
            not thing_kinds(before[-1].casefold()) or \
            any(thing_kinds(w.casefold()) for w in _WORD.findall(clause[said[0].end():])):
        return None  # ("Ball mill 1 feed pump run command": the pump's, no mill's — review
        # atk53)
    return " ".join([*(w.casefold() for w in before), *words[at:]])


#: a PLC's symbol of words joined by underscores or dots ("Dig2_Temp_SP", "Hoist.Drive.Speed")
_SYMBOL = re.compile(r"[A-Za-z]{2}[_.][A-Za-z0-9]|[A-Za-z0-9][_.][A-Za-z]{2}")
#: an acronym in a name of words: two to five capitals
_ACRONYM = re.compile(r"[A-Z]{2,5}")


def _tag_spelled(word: str, own: list[list[str]], plant: _Prose) -> str | None:
    """A P&ID tag in a name of words ("ST-1 speed", "VP-501 run") in the words its own
    description gives its letters ("Shaft speed of steam turbine ST-1": "steam turbine 1"),
    or else those any description writes it after ("ST-1 load SP" of a plant that describes
    "steam turbine ST-1"), its number kept; None where none says one such phrase (blind batch
    34)."""
    tag = _TAG_WORD.fullmatch(word)
    if tag is None or _known(tag.group(1).casefold()):
        return None
    short = tag.group(1).casefold()
    found = {f for f in _initials(short, own) if short not in f.split()}  # ("ST-1 tripped")
    whole = f"{short}{tag.group(2).casefold()}"
    if not found and whole in plant.tags:
        found = {plant.tags[whole]}  # (that tag's own: FP-1 described "feed pump FP-1" says
        # nothing of an FP-2, review atk44)
    return f"{found.pop()} {tag.group(2)}" if len(found) == 1 else None


#: a SCADA label written in capitals, words and short forms ("DAM HW LVL", "DISCH HDR
#: PRESS"): its short forms are spelled as a PLC symbol's are
_IN_CAPITALS = re.compile(r"[A-Z0-9][A-Z0-9 ./&#-]*\s[A-Z0-9 ./&#-]*[A-Z]{3}[A-Z0-9 ./&#-]*")


@functools.cache
def thing_kinds(word: str) -> frozenset[str]:
    """The things the lexicon knows `word`, whole, as, with their broader ones."""
    return frozenset(c for m in concepts_of_text(word)
                     if m.kind == "thing" and m.start == 0 and m.end == len(word)
                     for c in (m.concept.id, *m.concept.links))


def a_machine(word: str) -> bool:
    """Whether the lexicon knows `word`, whole, as a thing."""
    return bool(thing_kinds(word))


#: a code in a name, letters and a number written together ("LS04", "P2")
_CODED = re.compile(r"\b[A-Za-z]{1,4}\d")
#: a tag of letters and a number in a name of words ("ST-1", "VP-501", "P-301B")
_TAG_WORD = re.compile(r"([A-Z]{2,4})[-_]?(\d{1,4}[A-Z]?)")


def _terse(word: str, point: Point, plant: _Prose, symbol: bool = False) -> str:
    """A short form in a name of words ("LS07 P2 VSD fbk", "Speed ref"), spelled out where
    its own description abbreviates to it ("ref" of "Speed reference sent to …") or the trade
    settles it ("fbk": feedback), and no word the lexicon knows ("cut", "mill"); else as it
    is (blind batch 35)."""
    short = word.casefold()
    if len(short) < 3 or not short.isalpha() or not short.isascii() or _known(short) or \
            short in plant.described or not (symbol or _CODED.search(point.name)):
        return word  # (only in a name of codes or a PLC's symbol: "Ret pump" may be a
        # retentate's, review atk44)
    full = plant.spelled(short, point, False)
    return word if full == short else full


class _Prose:
    """The words a plant writes in sentences and plain names: what its tags abbreviate."""

    def __init__(self, points: list[Point]) -> None:
        self.own: dict[str, list[list[str]]] = {}  # point id -> its description's runs of words
        self.device: dict[str, list[list[str]]] = {}  # device -> its points' prose
        self.all: list[list[str]] = []
        for p in points:
            texts = [p.description or ""]
            texts += [t for t in (p.name, *p.aliases) if not _TAG.fullmatch(t.strip())]
            runs = [r for t in texts for r in _runs(t)]
            self.own[p.id] = _runs(p.description or "")
            self.device.setdefault(p.device, []).extend(runs)
            self.all.extend(runs)
        #: every word the plant writes in prose
        self.words = frozenset(w for run in self.all for w in run)
        #: ...and in its descriptions (where "WS" of a name "WS pot temp" is not)
        self.described = frozenset(w for runs in self.own.values() for run in runs for w in run)
        #: the words a description writes a tag after, that its letters are the initials of
        #: ("steam turbine ST-1": "st1" -> "steam turbine"), where every description agrees
        said: dict[str, set[str]] = {}
        for p in points:
            prose = p.description or ""
            for tag in _TAG_WORD.finditer(prose):
                short = tag.group(1).casefold()
                before = [w.casefold() for w in _WORD.findall(prose[:tag.start()])]
                if [w[0] for w in before[-len(short):]] == list(short):
                    said.setdefault(f"{short}{tag.group(2)}".casefold(), set()).add(
                        " ".join(before[-len(short):]))
                elif before and len(before[-1]) > len(short) + 1 and \
                        before[-1][0] == short[0] and _in_order(short, before[-1]):
                    # ("Arena dehumidifier DH-1": one word, whose letters the tag takes in
                    # order)
                    said.setdefault(f"{short}{tag.group(2)}".casefold(), set()).add(before[-1])
        self.tags = {short: found.pop() for short, found in said.items() if len(found) == 1}
        devices = {p.device for p in points}
        for device in devices:  # "hammermills", "pellet_mills": a device says its machines
            runs = _runs(_compound_split(device))
            self.device[device].extend(runs)
            self.all.extend(runs)

    def marked(self, letter: str, number: str, point: Point) -> str | None:
        """ "zone 5" for the "Z5" of a point whose description says "zone 5", "steriliser 1"
        for an "ST1" described "Steriliser 1 …"."""
        if not letter or not point.description or _known(f"{letter}{number}"):
            return None  # ("CO2", "O2": a gas, no thing 2)
        # in the description's first clause, and not after a preposition ("Discharge conveyor
        # of crusher 4" is no "C4" crusher)
        clause = re.split(r"[(;,.:]| - ", point.description, maxsplit=1)[0]
        found = {m.group(2).casefold() for m in re.finditer(
            rf"(?i)(\w+\s+)?\b({letter}[a-z]+)\s*(?:no\.?\s*|#\s*)?0*{int(number)}\b", clause)
            if not (m.group(1) and m.group(1).strip().casefold() in _SMALL)}
        return f"{found.pop()} {number}" if len(found) == 1 else None

    def spelled(self, short: str, point: Point, numbered: bool, own_only: bool = False) -> str:
        """`short` in words, or itself where it stays open (see the module's order; `own_only`:
        by the point's own description and the trade's table alone)."""
        own = self.own.get(point.id, [])
        if any(short in run for run in own):
            return short  # "IN" of "Boiler 1 in service": its own word
        if len(short) == 1 and not numbered and point.kind != "bool":
            # "BRINE-SUP-T" described "Brine supply temperature …": the one quantity of its
            # description that begins with the letter (not of a switch or trip, "BLR-1-P"
            # described as a low gas pressure switch: review atk53)
            said = {w for run in own for w in run if w[0] == short and _a_quantity(w)}
            return said.pop() if len(said) == 1 else short
        mine = _abbreviated(short, own) if len(short) >= 3 else set()
        if len(mine) == 1:
            return mine.pop()  # "GEN" of "General status healthy", "COND" of a conditioner
        if short in tag_words():
            return tag_words()[short]
        if own_only:
            initials = _initials(short, own)
            return initials.pop() if len(initials) == 1 else short
        if short in self.words:
            return short  # "DRY" of a plant that writes "dry sawdust": a word, no "dryer"
        # "SP", "PPM" alone: no "screw press", no "parts per million"; "PM1" a pellet mill
        known = _known(short) and not numbered
        initials = set() if known else _initials(short, own)
        if len(initials) == 1:
            return initials.pop()  # "MC" of "Moisture content of …"
        device = self.device.get(point.device, [])
        if numbered:  # "HM1": a machine, by the initials of its device's words (another
            # device's "pellet mill" is no packing machine's "PM1")
            found = _first_unique([_initials(short, device)])
            if found:
                return found
        if mine or initials or known:
            return short  # two meanings alike, or a word the lexicon knows
        return _first_unique(_initials(short, runs) for runs in (device, self.all)) or (
            len(short) >= 3 and _first_unique(_abbreviated(short, runs)
                                              for runs in (device, self.all))) or short


def _runs(text: str) -> list[list[str]]:
    """The runs of words of `text` between punctuation, lower case, plurals made singular."""
    return [[_one(w.casefold()) for w in _WORD.findall(part)]
            for part in re.split(r"[,;:.()/\[\]]| - ", text) if part.strip()]


def _one(word: str) -> str:
    """One of a word written plural ("mills": "mill"), but for one that only looks it
    ("molasses", "gases": an alias is read by people and the model too)."""
    return word if word.endswith(("sses", "ses")) else singular(word)


def _initials(short: str, runs: list[list[str]]) -> set[str]:
    """The phrases of `runs` whose words' initials are `short` ("mc": "moisture content")."""
    n = len(short)
    if n < 2:
        return set()
    found = set()
    for run in runs:
        for i in range(len(run) - n + 1):
            phrase = run[i:i + n]
            if all(w not in _SMALL and len(w) > 1 for w in phrase) and \
                    "".join(w[0] for w in phrase) == short:
                found.add(" ".join(phrase))
    return found


def _abbreviated(short: str, runs: list[list[str]]) -> set[str]:
    """The words of `runs` that `short` abbreviates: it starts them and its letters follow in
    order ("dryr": "dryer"; "scrn": "screener")."""
    found = set()
    for run in runs:
        for w in run:
            if len(w) > len(short) and w[0] == short[0] and w not in _SMALL and \
                    _in_order(short, w):
                found.add(w)
    return found


@functools.cache
def _a_quantity(word: str) -> bool:
    """Whether the lexicon knows `word`, whole, as a quantity ("temperature", "pressure")."""
    return any(m.concept.kind == "quantity" and m.start == 0 and m.end == len(word)
               for m in concepts_of_text(word))


def _in_order(short: str, word: str) -> bool:
    rest = iter(word)
    return all(c in rest for c in short)


def _first_unique(candidates: Iterable[set[str]]) -> str | None:
    """The one candidate of the nearest scope that has any; None where it has two or more."""
    for found in candidates:
        if found:
            return next(iter(found)) if len(found) == 1 else None
    return None


def _known(short: str) -> bool:
    """Whether the lexicon knows `short` as a word ("amps", "run", "mode"), or in capitals
    ("CO", carbon monoxide)."""
    return any(m.start == 0 and m.end == len(short) for text in (short, short.upper())
               for m in concepts_of_text(text))


def _known_not_unit(short: str) -> bool:
    """`_known`, but not as a unit alone: "DB" in capitals in a name, described as the double
    backer's, is no decibel."""
    found = [m for text in (short, short.upper()) for m in concepts_of_text(text)
             if m.start == 0 and m.end == len(short)]
    return bool(found) and not all(m.kind == "unit" for m in found)


def _compound_split(ident: str) -> str:
    """A device id in words: "pellet_mills" and "hammermills" (where the lexicon knows
    "hammer mill") as "pellet mills" and "hammer mills"."""
    words = re.split(r"[-_.\s]+", ident)
    out = []
    for w in words:
        split = next((f"{w[:i]} {w[i:]}" for i in range(3, len(w) - 2)
                      if _known_phrase(f"{w[:i]} {w[i:]}")), w)
        out.append(split)
    return " ".join(out)


def _known_phrase(text: str) -> bool:
    return any(m.start == 0 and m.end == len(text) for m in concepts_of_text(text))
