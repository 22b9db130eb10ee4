"""Normalisation of command text (English or Chinese) into tokens the rule router can match.

Lower case, full-width forms folded, punctuation dropped; numbers in digits, English words
("nine hundred and fifty", "two point five") or Chinese numerals ("九百", "一千五", "负五") become
one number token, read by `numbers` strictly: what looks like a number but names no one value
("1e4", "0x5DD", "five five", "三四百", "-0", "minus minus 5") becomes one *unreadable* token
that keeps the words as written, never some other number. Digit groups written apart ("1 600")
stay one token that remembers its groups, for the router to split when the first names a thing.
"#3", "no. 3", "number 3", "3号" and "第三" are ordinals placed after the thing they number
("3号锅炉" -> "boiler 3"); digits come apart from letters ("boiler3" -> "boiler 3"); plural "s"
stripped; synonyms mapped to one canonical word ("temp", "hot" -> "temperature"); Chinese words
mapped to the English words of the bilingual vocabulary, so a Chinese command matches points
named in English. Pure functions; no knowledge of any plant.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, replace
from decimal import Decimal

from hermesd.router.concepts import lexicon, simplified, singular
from hermesd.router.numbers import Literal, Number, chinese, english, exact, is_cjk, literals
from hermesd.router.vocabulary import (
    CASED_UNITS,
    COMPOUNDS,
    CORRECTION_MARK,
    DELTA_BEFORE,
    EN_MINUS,
    EN_ORDINALS,
    EN_SCALES,
    EN_TENS,
    EN_UNITS,
    ENDING_WORDS,
    MODIFIERS,
    NEGATION_MARK,
    QUANTITIES,
    STATE_PHRASES,
    STATE_VERBS,
    STOP,
    SYNONYMS,
    THINGS,
    UNIT_QUANTITIES,
    UNIT_SYMBOLS,
    VALUE_BEFORE,
    WRITE_VERBS,
    ZH_DIGITS,
    ZH_MINUS,
    ZH_UNITS,
    ZH_WORDS,
)

YES_NO_MARK = "?yn"  # a Chinese yes/no question particle (吗, 是否, 有没有)
_STOP = STOP | {YES_NO_MARK, CORRECTION_MARK, NEGATION_MARK}
_ZH_MAX = max(len(word) for word in ZH_WORDS)
_ZH_NUMERAL = set(ZH_DIGITS) | set(ZH_UNITS)
_NUMBER_WORDS = set(EN_UNITS) | set(EN_TENS) | set(EN_SCALES)
_DIGIT_WORDS = {w for w, v in EN_UNITS.items() if v <= 9}
#: "this one", "the big one": a pronoun, not the number 1
_ONE_AFTER = frozenset("this that the which each every any another other big small new old "
                       "last next left right same".split()) | frozenset(EN_ORDINALS)
#: private-use characters stand in for the numbers found first (`numbers.literals`)
_SLOT = 0xF0000
#: ...and others for the units found before them ("m3/h" holds no number 3)
_UNIT_SLOT = 0xF8000
_SLOT_CHAR = re.compile("[\U000F0000-\U000FFFFD]")
#: units written or spoken: one token each, whose text is the quantity it measures when we
#: know it ("rpm" -> "speed"). Never a single letter ("line A", "0x5A" are no amperes).
_UNIT = re.compile(
    r"(?<![^\W\d]|[°℃])(?:"
    r"(?P<phrase>(?:cubic\s+met(?:re|er)s?|m[3³]|cubes?)\s+(?:per|an|a)\s+"
    r"(?:hour|day|second|minute)"
    r"|lit(?:re|er)s?\s+(?:per|a|an)\s+(?:second|minute|hour)"
    r"|(?:tonnes?|tons?)\s+(?:per|an|a)\s+(?:hour|day)"
    r"|(?:kilos?|kilograms?|kg)\s+(?:per|an|a)\s+hour"
    r"|met(?:re|er)s?\s+(?:per|a)\s+(?:second|minute)"
    r"|(?:millilit(?:re|er)s?|ml)\s+(?:per|a)\s+lit(?:re|er)"
    r"|(?:millilit(?:re|er)s?|ml)\s+(?:per|a)\s+(?:kilo(?:gram)?|kg)"
    r"|(?:millilit(?:re|er)s?|ml)\s+(?:per|an|a)\s+(?:second|minute|hour)"
    r"|degrees?\s+(?:c\s+|celsius\s+)?(?:per|an|a)\s+(?:minute|hour))"
    r"|(?P<symbol>[ns]?m[3³]\s?/\s?(?:h(?:r|our)?|d(?:ay)?|min(?:ute)?)|m[3³]\s?/\s?s(?:ec)?"
    r"|(?:(?<=\d)|(?<=\d\s))(?:[ns]?m³|[ns]?m3(?=\s*(?:$|[.,;:!?)]|(?:of|per|please|pls|now"
    r"|thanks)\b)))|m?l\s?/\s?(?:s|min|h)"
    r"|ml\s?/\s?kg|m?[gl]\s?/\s?l|kg\s?/\s?h"
    r"|k?w\s?/\s?m[2²]|cd\s?/\s?m[2²]|[mµμuk]?g\s?/\s?m[3³2²]|(?<!\d)(?<!\d\s)%"
    r"|t\s?/\s?(?:h|d(?:ay)?)|tpd|tph|m\s?/\s?(?:s|min)|km\s?/\s?h|[µμu]s\s?/\s?cm|ms\s?/\s?cm"
    r"|(?:°\s?c|℃|k)\s?/\s?(?:min|h)|°\s?[cf]|℃"
    r"|kwh|mwh|kw|mw|kn|kpa|mpa|mbar|psi|hz|ntu|rpm|ppm|lpm|gpm|(?:kilo|mega|milli)watts?"
    r"|kilonewtons?|knots?|kts"
    r"|amps?|amperes?|volts?|hertz|degrees?(?:\s+(?:celsius|centigrade|c))?|celsius"
    r"|(?:(?<=\d)|(?<=\d ))degs?\s*c"  # ("30 deg C"; not "45 deg", an angle as often, nor
    # "DEG-1", a degasser: review atk53)
    r"|(?:milli|centi)?(?:metres?|meters)|(?:milli|mega)?lit(?:re|er)s?|tonnes?|kilograms?"
    r"|kilos?))(?![\w/])",
    re.IGNORECASE)
#: "pressure-wise", "temperature wise": the quantity asked about ("clockwise" is a word)
_WISE = re.compile(r"(?i)\b([a-z]{3,})(?<!clock)(?:-|\s)wise\b")
#: "how much vacuum have we got": asked as "have we" asks (not "I got pump 2 off", a report)
_HAVE_GOT = re.compile(
    r"(?i)\b(ha(?:ve|s)\s+(?:we|you|they|it|i))\s+got\b|\b(we|you|they)'ve\s+got\b")
#: a building controller's start/stop ("BP-1 S/S")
_START_STOP = re.compile(r"(?<![\w/])[Ss]/[Ss](?![\w/])")
#: "all the way": fully, of one thing (blind batch 55: "close the recycle on unit one all the
#: way" was refused as a write of several points)
_ALL_THE_WAY = re.compile(r"(?i)\ball\s+the\s+way\b")
#: "is the pump running at all?": an intensifier, no plural (not "at all times", "at all pumps")
_AT_ALL = re.compile(r"(?i)\bat\s+all\b(?=\s*(?:$|[?.!,;:)]|(?:or|then|now|right|today|still|"
                     r"please|pls|mate)\b))")
_TAG_BEFORE = re.compile(r"[A-Z]+-?\d+\s*$")


def _start_stop(found: re.Match[str]) -> str:
    """ "S/S" after a tag is its start/stop ("BP-1 S/S"); after anything else it stays what
    it says ("influent S/S", "clarifier 2 S/S": suspended solids — review atk53)."""
    before = found.string[max(0, found.start() - 16):found.start()]
    return "start/stop" if _TAG_BEFORE.search(before) else found.group(0)
#: "e-stop", "e-brake": an emergency stop, an emergency brake
_EMERGENCY = re.compile(r"(?i)\be-(?=(?:stop|brake|shutdown|shut-down|off)\b)")
#: "de-energise", "de energize": one word, which says the opposite of its second half
_DE_ENERGISE = re.compile(r"(?i)\bde[-\s]?energi(?=[sz]e|[sz]ed|[sz]ing)")
_PHRASE_UNITS = (("hour", ("cubic", "m3", "m³", "cube"), "m³/h"),
                 ("second", ("cubic", "m3", "m³", "cube"), "m³/s"),
                 ("minute", ("cubic", "m3", "m³", "cube"), "m³/min"),
                 ("day", ("cubic", "m3", "m³", "cube"), "m³/d"), ("second", ("lit",), "l/s"),
                 ("minute", ("lit",), "l/min"), ("hour", ("lit",), "l/h"),
                 ("hour", ("ton",), "t/h"), ("day", ("ton",), "t/d"),
                 ("hour", ("kilo", "kg"), "kg/h"),
                 ("second", ("met",), "m/s"), ("minute", ("met",), "m/min"),
                 ("litre", ("ml", "milli"), "ml/l"), ("liter", ("ml", "milli"), "ml/l"),
                 ("second", ("ml", "milli"), "ml/s"), ("minute", ("ml", "milli"), "ml/min"),
                 ("hour", ("ml", "milli"), "ml/h"), ("kilo", ("ml", "milli"), "ml/kg"),
                 ("kilogram", ("ml", "milli"), "ml/kg"), ("kg", ("ml", "milli"), "ml/kg"),
                 ("minute", ("degree",), "°c/min"),
                 ("hour", ("degree",), "°c/h"))

_PIECE = re.compile(
    r"(?P<cjk>[\u3007\u3400-\u4dbf\u4e00-\u9fff]+)"
    r"|(?P<unit>[\U000F8000-\U000FFFFD])"
    r"|(?P<lit>[\U000F0000-\U000FFFFD])"
    r"|(?P<stray>\d+)"
    r"|(?P<word>[^\W\d_\u3007\u3400-\u4dbf\u4e00-\u9fff]+"
    r"(?:'[^\W\d_\u3007\u3400-\u4dbf\u4e00-\u9fff]+)?)")  # "pH值": pH, then 值
#: "1st", "2nd", "4th": an ordinal ("4th effect vacuum" is the fourth effect's)
_ORDINAL_SUFFIX = re.compile(r"(?:st|nd|rd|th)(?![^\W\d_])", re.IGNORECASE)
#: "no. 3", "number 3", "#3", "number one": the word only says that a number follows ("the
#: number one compressor": no "the one", a pronoun)
_NUMBER_SIGN = re.compile(r"\b(?:no|nr|number|num)\.?\s*(?=[\U000F0000-\U000FFFFD])"
                          r"|\b(?:the\s+)?(?:number|num|nr|no\.)\s*(?=(?:one|two|three|four|five|six|seven"
                          r"|eight|nine|ten|eleven|twelve)\b)", re.IGNORECASE)
#: ...and a number so marked, which numbers a thing and is no value ("stop the number 1 recirc
#: pump", "#2 mill"), unless it follows a word a value follows ("put the fan on number 3")
_SIGNED = re.compile(r"(?:#|\b(?:no|nr|number|num)\.?)\s*([\U000F0000-\U000FFFFD])", re.IGNORECASE)
_SIGNED_WORD = re.compile(r"\b(?:the\s+)?(?:number|num|nr|no\.)\s*(one|two|three|four|five|six"
                          r"|seven|eight|nine|ten)\b(?=\s+(?!(?:please|pls|now|thanks|thank)\b)"
                          r"[^\W\d_])", re.IGNORECASE)
#: ...before a word that names the thing: "the number 1 pump", "pump #2 speed"; not at the
#: end, nor before "please" ("set the tap position number 9", "set preset #3": a value)
_A_NAME_AFTER = re.compile(r"\s*(?!(?:please|pls|now|thanks|thank)\b)[^\W\d_]", re.IGNORECASE)
#: a word in capitals ending where a number is written onto it, or after a hyphen
_CAPITAL_TAG = re.compile(r"(?<![A-Za-z0-9])([A-Z]{2,3})[-_]?\Z")
_VALUE_BEFORE_SIGN = re.compile(r"\b(?:to|at|on|onto|into)\s*$", re.IGNORECASE)
_ORDINAL_WORDS = {n: w for w, n in EN_ORDINALS.items()}
#: "NO2" written in capitals against its digits, in a text that writes small letters too:
#: nitrogen dioxide, no number sign ("B2 NO2 level", "Tunnel NO2 fan start setpoint"; "Pump
#: No2", "PUMP NO2" and "Feed pump NO2" are pump 2: see `_nitrogen`)
_NITROGEN = re.compile(r"\bNO(?=2\b)")
#: words of a measure of a gas, after which "NO2" is the gas wherever it stands
_GAS_MEASURE = re.compile(r"2\s+(?:level|ppm|concentration|conc|sensor|detector|alarm|reading|"
                          r"analy[sz]er|content|limit|setpoint|sp|high|value|gas)\b",
                          re.IGNORECASE)


#: the formulas of several elements (`COMPOUNDS`), written alone or in a tag ("H3PO4_FLOW_SP")
COMPOUND = re.compile(
    r"(?<![A-Za-z0-9])(?:" + "|".join(map(re.escape, sorted(COMPOUNDS, key=len, reverse=True)))
    + r")(?![A-Za-z0-9])", re.IGNORECASE)


#: where the words of a CamelCase name meet ("SingleFacerSpeed"): a capital after two small
#: letters (not "pH", "kWh"; an acronym is left whole, "HMIStatus": review atk43b)
_CAMEL = re.compile(r"(?<=[a-z]{2})(?=[A-Z])")


def compounds_read(text: str) -> str:
    """`text` with each formula of several elements written as the words of what it is
    ("H3PO4_FLOW_SP": " phosphoric acid _FLOW_SP")."""
    return COMPOUND.sub(lambda m: f" {COMPOUNDS[m.group(0).casefold()]} ", text)


def _nitrogen(text: str) -> str:
    """ "NO2" said as the gas marked (a zero-width joiner inside) so no number is read in it:
    wherever it stands, but right after a machine it numbers ("Feed pump NO2", "car park fan
    NO2"), unless a measure of the gas follows ("Fan NO2 level")."""
    def sub(m: re.Match[str]) -> str:
        before = re.search(r"(\S+)\s*$", text[:m.start()])
        word = before.group(1).casefold() if before else ""
        gas = _GAS_MEASURE.match(text, m.end()) is not None or word not in _NUMBERED_MACHINES
        return "N\N{ZERO WIDTH JOINER}O" if gas else m.group(0)
    return _NITROGEN.sub(sub, text)


#: machines a "NO2" right after numbers ("Feed pump NO2": pump number 2)
_NUMBERED_MACHINES = frozenset("""
    pump pumps fan fans motor motors compressor compressors blower blowers boiler boilers
    conveyor conveyors mixer mixers heater heaters valve valves feeder feeders chiller chillers
    burner burners agitator agitators generator generators engine engines drive drives unit
    units line lines tank tanks silo silos kiln kilns oven ovens press presses mill mills
    crusher crushers screen screens filter filters dryer dryers cooler coolers tower towers
    elevator elevators screw screws""".split())


def nitrogen_said(label: str) -> bool:
    """Whether a name says "NO2" as the gas (as `tokens` reads it), not as a number sign."""
    return bool(re.search("[a-z]", label)) and "\N{ZERO WIDTH JOINER}" in _nitrogen(label)


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # canonical form
    raw: str  # as written (lower case; numbers exactly as written); for Chinese, the English word
    number: Number | None = None  # the value of a numeric token
    ident: bool = False  # a letter that names one of several things ("line A")
    zh: bool = False  # came from Chinese text
    #: looks like a number but is none a person means ("1e4", "0x5DD", "五五百", "-0")
    unreadable: bool = False
    #: digit groups written apart ("1 600" -> ("1", "600")): the router decides whether the
    #: first names a thing ("pump 1 600") or the groups are one number ("to 1 600")
    groups: tuple[str, ...] = ()
    written: str = ""  # for a Chinese word, the characters it came from (replies name them)
    unit: str = ""  # a unit's symbol ("rpm", "m³/h"); its text is the quantity it measures
    #: a comma or semicolon comes before it: a run of number words ends there ("kiln one,
    #: sixty two" is kiln 1 and 62, never "one sixty two")
    after_break: bool = False
    #: a number said as an ordinal ("3号", "第三", "first"): it numbers a thing, it is never a
    #: value to set
    ordinal: bool = False

    @property
    def shown(self) -> str:
        """The token as the person wrote it, for a reply that names it."""
        return self.written or self.raw

    @property
    def is_number(self) -> bool:
        return self.number is not None

    @property
    def is_id(self) -> bool:
        """A number or a letter: what tells boiler 3 from boiler 1, line A from line B."""
        return self.number is not None or self.ident


#: marks of a question in any script (a Greek question mark becomes ";" under NFKC); any other
#: character Unicode names a question mark ("❓", "❔", "՞") asks too (`question_mark`)
QUESTION_MARKS = "?？؟¿⸮\u037e⁇⁈⁉‽﹖"


def question_mark(c: str) -> bool:
    """Whether a character asks: a question mark of any script, or an emoji of one."""
    return c in QUESTION_MARKS or "QUESTION MARK" in unicodedata.name(c, "")


#: a number word owning what follows ("freezer one's overrun"), as "freezer 1's" does
_NUMBER_OWNS = re.compile(r"(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                          r"twelve)['’]s\b")


#: words before "one's" that make it a pronoun ("no one's running", "which one's on")
_ONE_PRONOUN = frozenset("no which the every any some each that this no-one someone".split())


def _owned(m: re.Match[str]) -> str:
    """ "freezer one's" -> "freezer one"; "no one's", "which one's" stay as they are."""
    before = re.findall(r"[^\W\d_]+", m.string[:m.start()])
    return m.group(0) if not before or before[-1].casefold() in _ONE_PRONOUN else m.group(1)


#: a verb's -ing said without its g ("pullin", "runnin'"): the verbs of how a thing goes that
#: commands ask after (blind batch 35)
_G_DROPPED = re.compile(r"(?i)\b(pull|push|draw|runn|go|do|work|sitt|spinn|turn|pump|heat|"
                        r"cool|burn|blow|fill|leak|flow|shift|look|com|hold|idl|tripp)in'?(?![\w'])")


def tokens(text: str) -> list[Token]:
    """The canonical tokens of a command or a label (traditional Chinese read as simplified)."""
    text = simplified(unicodedata.normalize("NFC", _SLOT_CHAR.sub(" ", text)))
    text = _HAVE_GOT.sub(lambda m: m.group(1) or f"{m.group(2)} have", text)
    text = _NUMBER_OWNS.sub(_owned, text)  # "freezer one's overrun": freezer 1's
    text = _G_DROPPED.sub(r"\1ing", text)  # "how many amps is the mixer pullin'
    text = _DE_ENERGISE.sub("deenergi", _EMERGENCY.sub("emergency ", _WISE.sub(r"\1", text)))
    text = _START_STOP.sub(_start_stop, text)  # ("BP-1 S/S": no letter S numbering it)
    text = _ALL_THE_WAY.sub("fully", text)  # "close the recycle all the way": no plural
    text = _AT_ALL.sub(" ", text)
    if re.search("[a-z]", text):
        text = _nitrogen(text)
    text = compounds_read(_CAMEL.sub(" ", text))
    text, units = _units(text)
    if not any(is_cjk(c) for c in text):
        text = _PERCENT_AFTER.sub(" percent", text)  # "exhaust fan 80%": a value, no fan 80
    found = literals(text)
    # a bare number that opens the text, unmarked, may qualify the word after it ("2 pack
    # mixer", "3 way valve"): see `_spec`
    leading = bool(found) and not text[:found[0].start].strip() and not numbered_first(text)
    # (not a number written onto letters before it: the "2" of a tag's "CL2-SP", "AHU2-SAT")
    hyphened = {k for k, lit in enumerate(found) if re.match(r"-[a-z]", text[lit.end:lit.end + 2],
                                                            re.IGNORECASE)
                and not (lit.start and text[lit.start - 1].isalpha())}
    # the numbers written with one letter onto them ("Pump 101A", "feeder 1b", "Pump 1-B"):
    # after a thing's word, the letter names one of the twins so numbered, whatever word it
    # spells alone ("a"); after a setting word it is a unit ("setpoint 60c")
    lettered = {k for k, lit in enumerate(found) if isinstance(lit.value, int)
                and re.match(r"-?[a-z](?![a-z0-9])", text[lit.end:lit.end + 3], re.IGNORECASE)
                and text[lit.start:lit.end].isdigit()}
    # ...and of those, the ones written onto a word before too: a tag ("SP101A", "P101B")
    tagged = {k for k in lettered if found[k].start and text[found[k].start - 1].isalpha()}
    # the numbers written onto letters ("no2", "NR3"): no number sign of them is sure
    glued = {k for k, lit in enumerate(found) if lit.start and text[lit.start - 1].isalpha()}
    # the numbers written onto a stop word in capitals, or after it and a hyphen: a tag's
    # ("AT-101", "BE2", and "TO50", refused as a tag; not "at 101", nor "AT 101": "TO50" was
    # read as 50, which "START PUMP TO2" made a speed of 2 %: review atk59b)
    capital_tag = {k for k, lit in enumerate(found)
                   if (m := _CAPITAL_TAG.search(text, 0, lit.start)) and m.end() == lit.start
                   and text[lit.start].isdigit() and m.group(1).casefold() in _STOP}
    # the numbers written with an ordinal's ending ("4th"), and where that ending is
    suffixed = {k for k, lit in enumerate(found) if isinstance(lit.value, int)
                and _ORDINAL_SUFFIX.match(text, lit.end)}
    slotted = []
    last = 0
    for k, lit in enumerate(found):
        slotted += [text[last:lit.start], f" {chr(_SLOT + k)} " if not _hugs_cjk(text, lit)
                    else chr(_SLOT + k)]
        last = lit.end
    slotted.append(text[last:])
    text = unicodedata.normalize("NFKC", "".join(slotted))
    signed = {ord(m.group(1)) - _SLOT for m in _SIGNED.finditer(text)
              if not _VALUE_BEFORE_SIGN.search(text, 0, m.start())
              and _A_NAME_AFTER.match(text, m.end())} - glued
    text = _SIGNED_WORD.sub(_signed_word, text)
    text = _NUMBER_SIGN.sub(" ", text).replace("\N{ZERO WIDTH JOINER}", "")
    text = text.casefold().replace("’", "'")
    out: list[Token] = []
    end = -1  # where the piece before ended: Chinese numerals and digits written together
    ending = False  # the number before was written with an ordinal's ending ("4th")
    literal = -1  # which number the piece before was
    for match in _PIECE.finditer(text):
        kind = match.lastgroup
        raw = match.group(0)
        touching = match.start() == end
        broken = end >= 0 and any(c in ",;" for c in text[end:match.start()])
        before = len(out)
        if kind == "cjk":
            letter = None
            if touching and out and len(out[-1].raw) == 1 and out[-1].raw.isascii() \
                    and out[-1].raw.isalpha() and not out[-1].zh \
                    and not (len(out) > 1 and out[-2].raw.isdigit() and out[-1].ident):
                # "B包装机": bagger B, as "2号包装机" is bagger 2 (but "101B泵" is 101B's)
                gone = out.pop()
                letter = Token(gone.raw, gone.raw, ident=True, zh=True,
                               after_break=gone.after_break)
            out.extend(_chinese(raw, out, after_digits=touching and bool(out)
                                and _was_literal(out[-1]), letter=letter))
        elif kind == "unit":
            written, symbol = units[ord(raw) - _UNIT_SLOT]
            out.append(Token(UNIT_QUANTITIES.get(symbol, symbol), written.casefold(),
                             unit=symbol))
        elif kind == "lit":
            if ord(raw) - _SLOT in capital_tag and out and out[-1].raw in _STOP:
                # a tag's letters, kept in capitals: no word a rule reads as "at" or "be"
                letters = out[-1].raw.upper()
                out[-1] = replace(out[-1], text=letters, raw=letters)
            _literal(found[ord(raw) - _SLOT], out, touching)
            literal = ord(raw) - _SLOT
            if ord(raw) - _SLOT in signed and out and out[-1].is_number:
                out[-1] = replace(out[-1], ordinal=True)
            if ord(raw) - _SLOT in suffixed and out and out[-1].is_number:
                out[-1] = replace(out[-1], ordinal=True)
                ending = True
                end = match.end()
                continue
        elif kind == "stray":  # digits that only NFKC made ("㏠"): none a person typed
            out.append(_unreadable(raw))
        elif ending and raw in ("st", "nd", "rd", "th"):
            ending = False  # the "th" of "4th", said with its number
            end = match.end()
            continue
        else:
            between = text[end:match.start()].strip()
            if out and _spec(out[-1], raw, hyphen=literal in hyphened and between == "-",
                             leading=leading and literal == 0 and len(out) == 1 and not between):
                out[-1] = Token(f"{out[-1].raw}-{raw}", f"{out[-1].raw}-{raw}")
            if literal in lettered and between in ("", "-") and len(raw) == 1 \
                    and raw not in _DEGREE_LETTERS and (len(out) == 1 or literal in tagged or (
                        out[-2].number is None and not out[-2].unit
                        and not value_said(out[-2].raw))):
                out.append(Token(raw, raw, ident=True))
            else:
                out.append(_word(raw, out))
        ending = False
        if kind != "lit":
            literal = -1
        if broken and len(out) > before:
            out[before] = replace(out[before], after_break=True)
        end = match.end()
    return _set_quantity_asked(_zh_changed_to(_a_little(_kicked_off(_state_verbs(_attributive(
        _said_units(_signs(_english_numbers(out)))))))))


def _set_quantity_asked(toks: list[Token]) -> list[Token]:
    """ "dryer 1 set temp?", "what's AHU2 set temp": a thing, numbered, then "set" and a
    quantity with no value after it is its setting asked (blind batch 72: the verb "set" with no
    value left it to no one); with a value after it the verb stays ("dryer 1 set temp 180")."""
    for i in range(1, len(toks) - 1):
        t, before, after = toks[i], toks[i - 1], toks[i + 1]
        if t.zh or t.raw != "set" or before.zh or not (before.is_id or before.is_number) or \
                after.zh or canonical(after.raw) not in QUANTITIES:
            continue
        if any(x.is_number or x.raw in VALUE_BEFORE for x in toks[i + 2:]):
            continue
        return [*toks[:i], replace(t, text="setpoint", raw="setpoint", written=t.raw),
                *toks[i + 1:]]
    return toks


def _zh_changed_to(toks: list[Token]) -> list[Token]:
    """ "1号泵转速改1000", "温度设定改30": 改 alone after a quantity (or a setting) and before
    a number is the verb of setting it to that number (it was no word, and the command a read
    of the speed). 调 alone is a change by a number as often as to it (温度调2度, review
    atk72), and 改 before anything else (改了, 改一改) or a number below zero (改-5: a step
    down as often) asks a change with no value, or tells one done: unreadable, and never a
    read of the setting. Not the 调 of 空调 (an air conditioner). Before a number, after any
    other Chinese word too: a point's own Chinese name (炉温改3#, review atk72b: 温 is no word
    of ours, and the command was a read of the furnace's temperature) or a negation (不用改
    150) or an English quantity or setting ("boiler 3 setpoint 改 150"); after a thing's number
    (1号泵改30, review atk73: a read of the pump) it is unreadable, a change over to pump 30
    as often (review atk74); not the first character of a word we do not know (打开调味滚筒:
    seasoning)."""
    out: list[Token] = []
    for i, t in enumerate(toks):
        before = toks[i - 1] if i else None
        after = toks[i + 1] if i + 1 < len(toks) else None
        latin = before is not None and not before.zh and (
            (after is not None and after.is_number) or (
                (before.is_number or before.is_id) and any(x.zh for x in toks[:i - 1])))
        # (after a thing's number, 1号泵改30, whose tokens put the number after the thing, or
        # an English word before a number: "boiler 3 setpoint 改 150")
        setting = before is not None and (
            before.raw in ("setpoint", "sp") or canonical(before.raw) in QUANTITIES
            or (before.raw == "point" and i > 1 and toks[i - 2].raw == "set"))
        if not t.zh or t.raw not in ("调", "改") or before is None or not (
                before.zh or latin) or (t.raw == "调" and before.raw == "空") or not (
                setting or (after is not None and (after.is_number or after.unreadable))):
            out.append(t)
            continue
        value = toks[i + 1] if i + 1 < len(toks) else None
        out.append(Token("set", "set", zh=True, written=t.raw))
        if ((latin or before.is_number or before.is_id or canonical(before.raw) in THINGS)
                and not setting) or \
                not (t.raw == "改" and value is not None and value.is_number and not value.ordinal
                and value.raw not in ("一", "两") and not (value.number or 0) < 0
                and not (i + 2 < len(toks) and toks[i + 2].raw in ("调", "改", "下"))):
            # (a verb still, whose value no one can read: "3号锅炉温度调一下" is no read; nor
            # after a thing or its number, 1号泵改2, 二号泵改30, a change over to pump 2 as
            # often: reviews atk74, atk74c)
            out.append(Token(t.raw, t.raw, zh=True, unreadable=True))
    return out


#: what "a" says an amount of, after a word ("make the ice a bit harder"): no letter "A"
_LITTLE = frozenset("bit little lot touch tad few couple notch fraction smidge".split())
#: ...and the time a rate is per, after a value and its unit ("6.5 quarts a day")
_PER_TIMES = frozenset("day hour minute second week shift month year".split())


def _a_little(toks: list[Token]) -> list[Token]:
    """The tokens with an "a" read as a letter ("line a") made the article it is before a
    word of an amount ("the ice a bit harder", "pump 2 a touch faster"), or before a time
    after a number and a word ("6 and a half quarts a day": blind batch 73)."""
    return [Token(t.raw, t.raw) if t.ident and t.raw == "a" and i + 1 < len(toks) and (
        toks[i + 1].raw in _LITTLE or (toks[i + 1].raw in _PER_TIMES and i >= 2
                                       and toks[i - 2].is_number and not toks[i - 1].is_number
                                       and all(x.raw in _AFTER_A_RATE for x in toks[i + 2:])))
        else t for i, t in enumerate(toks)]


#: what may follow "a day" that ends a rate said ("6 quarts a day please"); a name's word may
#: not ("zone 3 heater A day setpoint": heater A's, review atk73b)
_AFTER_A_RATE = frozenset("please pls now thanks then ok".split())


#: words a number written before them still numbers: "Zone 2-North", "Pump 1-left"
_NUMBERED_SIDES = frozenset("north south east west left right upper lower top bottom front "
                            "rear inner outer inlet outlet main standby duty".split())


def _spec(number: Token, word: str, *, hyphen: bool, leading: bool) -> bool:
    """Whether a number is a specification of the word after it, and numbers no thing: written
    onto it ("3-way valve", "4-stroke engine", "7-roll straightener") or opening a name
    unmarked ("2 pack mixer", "100 mesh screen", "3216 temperature controller"; not "3 pumps",
    nor "#3 retort", which `numbered_first` reads as retort 3). Its token becomes a word of its
    own ("3-way"), and the word after it stays a word: "start mixer 2" is then no "2 pack
    mixer", and "open valve 3" no "3 way valve"."""
    if not (number.is_number and number.raw.isdigit() and not number.ordinal and
            (hyphen or leading)):
        return False
    if not (word.isascii() and word.isalpha() and len(word) > 1) or word in _STOP or \
            word in _NUMBER_WORDS or word in _NUMBERED_SIDES:
        return False
    if not hyphen and len(number.raw) < 3 and word not in _SPEC_WORDS:
        return False  # "1 Feed pump run", "2 Mill main motor": numbered first, as many write
    return hyphen or singular(word) == word or word.endswith("ss")


#: words a small number opening a name unmarked specifies rather than numbers ("2 pack mixer",
#: "4 stroke engine"); a number of three digits or more opening one is a model or a size
#: ("3216 temperature controller", "100 mesh screen")
_SPEC_WORDS = frozenset("pack way stroke speed phase pole stage axis roll mesh ply wire port "
                        "gang cylinder layer tier zone deck arm head bank lane cavity nozzle "
                        "blade shaft".split())


def _units(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text with each unit replaced by a slot, and the units (as written, symbol)."""
    units: list[tuple[str, str]] = []

    def slot(match: re.Match[str]) -> str:
        written = match.group(0).strip()
        if match.group("phrase"):
            words = written.casefold().split()
            symbol = next(sym for last, firsts, sym in _PHRASE_UNITS
                          if words[-1] == last and words[0].startswith(firsts))
        else:
            symbol = unit_symbol(written) or written.casefold()
        units.append((written, symbol))
        return f" {chr(_UNIT_SLOT + len(units) - 1)} "

    return _UNIT.sub(slot, text), units


#: a per cent sign written after a number, as its unit (read as "percent", which is said so)
_PERCENT_AFTER = re.compile(r"(?i)(?<=\d)\s*%(?!\s*rh\b)(?!\s*\d)")
_PERCENT_RH = re.compile(r"(?i)(\d\s*)%\s+(rh)\b")


#: a half said after the unit of a whole number of degrees or metres: "三十六度半" is 36.5 °C,
#: "三米半" 3.5 m (blind batch 73); not after any other word ("一个半", "两点半": a time)
_ZH_WHOLE = "零〇一二两三四五六七八九十百千"
_UNIT_AND_A_HALF = re.compile(rf"(?<![\d.点])(\d+|[{_ZH_WHOLE}]+)(度|米)半(?![\d{_ZH_WHOLE}])")
#: the characters written as a minus sign (the write gate asks back one before Chinese
#: numerals, which the reader drops: -四度, review atk73)
MINUS_SIGNS = "-－−‐‑‒–—―⁻₋﹣﹘"
#: ...and no half is joined to a number signed (-四度半)
_SIGNS = MINUS_SIGNS + "+＋"


def units_joined(text: str) -> str:
    """The text with a unit written in two pieces written as one: "45% RH" is "45%RH", a
    relative humidity (its "RH" alone had been left over, and the command asked back); "三十
    六度半" is "三十六点五度"."""
    text = _UNIT_AND_A_HALF.sub(lambda m: m.group(0) if m.string[:m.start()].rstrip().endswith(
        tuple(_SIGNS)) else m.group(1) + (".5" if m.group(1).isdigit() else "点五") + m.group(2),
        text)
    return _PERCENT_RH.sub(r"\1%\2", text)


def unit_symbol(unit: str) -> str | None:
    """One symbol for a unit however it is written ("kW", "kilowatts" -> "kw"), or None.
    Letter case tells some units apart (`CASED_UNITS`): "kN" (or "KN") is a force, "kn"
    knots; "mW" a milliwatt, "MW" (or "mw") a megawatt."""
    cased = CASED_UNITS.get(unit.strip())
    if cased is not None:
        return cased
    return UNIT_SYMBOLS.get(unit_key(unit))


def unit_key(unit: str) -> str:
    """A unit as written, folded for comparing: no case or spaces, "³" as "3", "μ" as "µ"
    ("mg/m³", "MG/M3" and "mg / m3" alike)."""
    key = "".join(unit.casefold().split()).replace("³", "3").replace("²", "2")
    return key.replace("℃", "°c").replace("μ", "µ")


#: the letters of the units letter case tells apart, case-folded ("mw" of mW and MW)
_CASED_FOLDED = frozenset(u.casefold() for u in CASED_UNITS)


def case_matters(unit: str) -> bool:
    """Whether the unit's letters mean another unit in another case ("mW" and "MW", "mL" and
    "ML", "kN" and "kn"): a command must write it as its point does."""
    return unit.strip().casefold() in _CASED_FOLDED


def _hugs_cjk(text: str, lit: Literal) -> bool:
    """A number written against Chinese ("3号", "负5", "1.5万") stays against it."""
    before = text[lit.start - 1] if lit.start else ""
    after = text[lit.end] if lit.end < len(text) else ""
    return is_cjk(before) or is_cjk(after)


def _was_literal(t: Token) -> bool:
    return (t.is_number or t.unreadable) and not t.zh


def _literal(lit: Literal, out: list[Token], touching: bool) -> None:
    prev = out[-1] if out else None
    if touching and prev is not None and prev.zh and (prev.is_number or prev.unreadable):
        out[-1] = _unreadable(prev.raw + lit.raw, zh=True)  # "两千5", "五5": no one number
    elif touching and prev is not None and prev.text == "-" and prev.zh:  # "负5", "零下5"
        out[-1] = _negative(prev, _literal_token(lit))
    else:
        out.append(_literal_token(lit))


#: a power plant's KKS code written whole ("10HTC10CQ001"): a name of a point, no number
_KKS = re.compile(r"\d{1,3}[A-Za-z]{3}\d{2,3}[A-Za-z]{2}\d{3}(?:[A-Za-z]{1,2}\d{0,3})?")


def _literal_token(lit: Literal) -> Token:
    if lit.value is None and _KKS.fullmatch(lit.raw):
        return Token(lit.raw.casefold(), lit.raw.casefold())  # "read 10HTC10CQ001"
    if lit.value is None:
        return _unreadable(lit.raw)
    return Token(_num_text(lit.value), lit.raw, lit.value, groups=lit.groups)


def _unreadable(raw: str, *, zh: bool = False) -> Token:
    return Token(raw, raw, zh=zh, unreadable=True)


def _negative(sign: Token, t: Token) -> Token:
    """ "minus 5", "负5": -5; "minus -5", "minus zero" are no number anyone says."""
    raw = f"{sign.raw}{'' if sign.zh else ' '}{t.raw}"
    if t.number is None or t.number <= 0 or t.groups:
        return _unreadable(raw, zh=sign.zh or t.zh)
    return Token(_num_text(-t.number), raw, -t.number, zh=sign.zh or t.zh)


#: the words of an amount, after which "a" is "per" ("10 minutes a turn", "3 times a day")
_PER_A = frozenset("""second seconds minute minutes min mins hour hours hr hrs day days week weeks
    time times kilo kilos tonne tonnes ton tons litre litres liter liters metre metres meter meters
    cubes cube bags bales sheets cycles strokes shots pieces units""".split())


def _word(raw: str, before: list[Token]) -> Token:
    prev = before[-1] if before else None
    if raw in _PACE and prev is not None and prev.raw in ("how", "too", "so"):
        return Token("speed", raw)  # "how fast": a speed asked (alone, "fast" names things)
    if len(raw) == 1 and prev is not None and not prev.is_id and prev.raw not in _STOP \
            and raw not in ("i",) and not (raw == "a" and (
                prev.raw in WRITE_VERBS or prev.unit or prev.raw in _PER_A)):
        return Token(raw, raw, ident=True)  # "line a": a letter naming one of several
        # (not the "a" of "10 minutes a turn", "5 kilos a batch": a rate's "per")
    return Token(canonical(raw), raw)


_PACE = frozenset(("fast", "quick", "slow"))
#: letters written onto a number that are its degrees ("60c"), never a twin's letter
_DEGREE_LETTERS = frozenset("cf")
#: words after which a number is a value, and a letter written onto it a unit ("to 10a")
_VALUE_SAID = VALUE_BEFORE | DELTA_BEFORE | frozenset(
    "setpoint sp target set setting limit demand".split())


def value_said(word: str) -> bool:
    """Whether a number right after `word` is a value, so that a letter written onto it is its
    unit: after "to", a setting word, or a quantity ("current 200a", "level 3m")."""
    return word in _VALUE_SAID or canonical(word) in QUANTITIES or any(
        m.kind == "quantity" and m.start == 0 and m.end == len(word)
        for m in lexicon().concepts_of_text(word))


def _number(number: Number, raw: str, *, zh: bool = False) -> Token:
    return Token(_num_text(number), raw, number, zh=zh)


def unspaced(text: str) -> str:
    """A choice or a state as written without spaces, hyphens or case ("off-line",
    "off line", "Offline": "offline")."""
    return re.sub(r"[\W_]+", "", text.casefold())


def canonical(word: str) -> str:
    if len(word) > 3 and word.endswith("'s"):
        word = word[:-2]  # "how warm's the must", "the pump's speed": the word itself
    word = SYNONYMS.get(word, word)
    one = singular(word)  # the lexicon's rule: "presses" of the "Press 1", "batteries"
    if one != word:
        word = SYNONYMS.get(one, one)
    return word


def _num_text(number: Number) -> str:
    return str(number) if isinstance(number, int) else repr(number)


def content(toks: list[Token], *, label: bool = False,
            kept: frozenset[str] = frozenset()) -> list[Token]:
    """Tokens that can name a point (stop words dropped, but a quantity said as a noun:
    "motor current"). `label`: the tokens are a point's name (see `quantity_noun`); `kept`:
    words kept all the same (a name's abbreviation written in capitals: "DO" of "Tank 2 DO")."""
    return [t for i, t in enumerate(toks) if t.is_id or (t.raw not in _STOP and t.text
                                                          not in _STOP)
            or quantity_noun(toks, i, label=label) or t.raw in kept]


def _signed_word(m: re.Match[str]) -> str:
    """ "the number one compressor": the first compressor (not "the one", a pronoun); "on
    number three" is a value."""
    if _VALUE_BEFORE_SIGN.search(m.string, 0, m.start()):
        return f" {m.group(1)}"
    return f" {_ORDINAL_WORDS[EN_UNITS[m.group(1).casefold()]]}"


#: verbs of a flame lit, and put out, opening a command ("light" and "fire" only before "the"
#: or "up": "light 3", "fire alarm status" name things)
LIGHTS = frozenset("light ignite relight reignite fire".split())
PUTS_OUT = frozenset(("extinguish",))
_OPENING = frozenset(("please", "now", "then", "just", "kindly"))


def flame_verb(toks: list[Token]) -> int | None:
    """Where a command opens with a verb of a flame lit or put out ("light the flare",
    "ignite burner 2", "extinguish the pilot"): a verb, never a word of what is lit."""
    words = [(i, t) for i, t in enumerate(toks) if not t.zh and t.raw not in _OPENING]
    if len(words) < 2 or words[0][1].raw not in LIGHTS | PUTS_OUT:
        return None
    if words[0][1].raw in ("light", "fire") and words[1][1].raw not in ("the", "up"):
        return None
    return words[0][0]


def numbered_first(text: str) -> bool:
    """Whether a name writes its thing's number first, marked as one ("#3 retort", "No. 1
    boiler feed pump", "1# pump"; not "2 pack mixer", "4 stroke engine")."""
    return re.match(r"\s*(?:#\s*\d|no\.?\s*\d|n°\s*\d|\d+\s*#)", text, re.IGNORECASE) is not None


def capitals(text: str) -> frozenset[str]:
    """The stop words a name writes in capitals, as abbreviations ("DO" of "ocean tank DO":
    dissolved oxygen, no verb)."""
    return frozenset(w.casefold() for w in re.findall(r"\b[A-Z]{2,3}\b", text)
                     if w.casefold() in _STOP)


#: verbs an "on" after them is the particle of ("switch on the fan", "turn on pump 1")
ON_VERBS = frozenset("turn switch put power bring come go kick fire".split())


def preposition_on(toks: list[Token], i: int) -> bool:
    """Whether the "on" at `i` says where, not "switched on": between a thing and another
    ("stop the defrost on evaporator 1", "the pressure on pump 2"), never after a verb it
    completes ("switch on the fan") nor at the end ("fan 1 on please")."""
    t = toks[i]
    if t.raw != "on" or t.zh or i == 0:
        return False
    rest = [x for x in toks[i + 1:] if x.raw not in ENDING_WORDS]
    state = next((x for x in rest if x.raw not in ("a", "an", "the")), None)
    before = toks[i - 1]
    if state is not None and state.raw in _ON_STATES and (
            before.raw not in ON_VERBS or before.raw == "put"):  # ("put on hold pump 2")
        # "put conveyor 2 on hold": a state it is put in, never switched on (but "switch on
        # standby gen set" switches on the standby generator)
        return True
    # (after a thing's number, before "the", where the thing is stopped: "stop pump 1 on the
    # recirc", blind batch 52; but "put pump 1 on the auto", "pump 2 on a timer": review
    # atk56; nor before "in", "at", "for": "pump on in hall 2", "turn oscillation on for fan
    # gun 1", blind batch 55)
    return bool(rest) and before.raw not in ON_VERBS and (
        not before.is_number or (rest[0].raw == "the"
                                 and any(x.raw in _STOPPING for x in toks[:i]))) \
        and before.raw not in _STOP and rest[0].raw not in ("in", "at", "for")


#: words that stop a thing, before which an "on" is no value
_STOPPING = frozenset("stop halt shut kill off".split())
#: states of waiting a thing is put "on": "on hold", "on standby" (no "on" of a switch; but
#: "on bypass", "on duty" may be a switch's own state)
_ON_STATES = frozenset("hold holding standby pause idle".split())

#: stop words that are also the name of a quantity: "current" is "now" before a noun ("the
#: current temperature") and the electric current after one ("compressor 1 current")
_QUANTITY_STOPS = frozenset(("current",))
#: stop words that are nouns: "the current reading" is the reading now
_STOP_NOUNS = frozenset("value reading status state".split())
#: words of a setting or a limit of a quantity: "current setpoint", "current limit"
_ROLES_AFTER = frozenset("setpoint sp limit trip alarm".split())


def quantity_noun(toks: list[Token], i: int, *, label: bool = False) -> bool:
    """Whether the stop word at `i` is a quantity said as a noun: last, or before no word
    it could qualify ("current of pump 1", "电流", "motor current"), never before one ("the
    current flow", "current reading")."""
    t = toks[i]
    if t.text not in _QUANTITY_STOPS:
        return False
    after = toks[i + 1] if i + 1 < len(toks) else None
    if label and after is not None and after.text in _ROLES_AFTER and i > 0:
        # a point named "Rack 3 current setpoint", "Motor current limit": the current's
        # setting, after the thing it is of. Said in a command, "kiln current setpoint" is the
        # kiln's setting now, and "the current setpoint" is always
        before = toks[i - 1]
        return before.is_number or (before.raw not in _STOP and before.text not in _STOP)
    return after is None or after.is_number or (
        (after.raw in _STOP or after.text in _STOP) and after.raw not in _STOP_NOUNS)


# -- units said alone -----------------------------------------------------------------------------


def _said_units(toks: list[Token]) -> list[Token]:
    """ "head pressure on pump 2, in bar", "room pressure in Pa": a unit said as the last word,
    after "in" or a comma, is a unit (it names what is asked for) wherever a number is not
    before it. Never a single letter ("in A" may be a tank)."""
    if not toks:
        return toks
    i = len(toks) - 1
    t = toks[i]
    if t.zh or t.unit or t.is_id or len(t.raw) < 2 or not (
            t.after_break or (i > 0 and toks[i - 1].raw == "in")):
        return toks
    symbol = unit_symbol(t.raw)
    if symbol is None:
        return toks
    return [*toks[:i], Token(UNIT_QUANTITIES.get(symbol, symbol), t.raw, unit=symbol)]


# -- verbs of a state ---------------------------------------------------------------------------

_STATE_LONGEST = max(len(p) for p in STATE_PHRASES)
#: what may come before the verb of a command ("please", "can you", "go ahead and")
_BEFORE_VERB = frozenset("please kindly can could would will you u go ahead and just now ok okay "
                         "then".split())


def _attributive(toks: list[Token]) -> list[Token]:
    """ "hot water", "cold store", "warm side": a temperature word before the thing it
    qualifies is part of that thing's name, not a question of temperature, and stays the word
    it is (so "hot water supply temperature" is not explained by "Chilled water supply
    temperature", whose words have a temperature too). "how hot is the tank", "tank 2 hot?",
    "warm up the oven" keep the temperature. "warm" and "cool" are verbs too: first, or
    after "please" or "you", they still set a temperature ("cool tank 2 to 12")."""
    for i in range(len(toks) - 1):
        t, after = toks[i], toks[i + 1]
        if t.text != "temperature" or t.raw not in _THERMAL or after.number is not None or \
                after.unit or after.ident or after.raw in _STOP or after.text in _STOP or \
                after.text in _NOT_QUALIFIED:
            continue
        before = toks[i - 1].raw if i else ""
        if before in _DEGREE or (t.raw in _THERMAL_VERBS and (not i or before in _ASKING)):
            continue
        toks[i] = replace(t, text=_QUALIFYING.get(t.raw, t.raw))
    return toks


#: temperature words that qualify a thing when said before it ("hot water")
_THERMAL = frozenset("hot cold warm cool chilly".split())
_THERMAL_VERBS = frozenset("warm cool".split())
#: ...but not before these: "how hot", "too cold", "cold enough"
_DEGREE = frozenset("how too so very".split())
_ASKING = frozenset("please pls you".split())
_NOT_QUALIFIED = frozenset("temperature setpoint enough outdoor indoor yet now already still "
                           "again today tonight here there anymore".split())
#: the thing word a cold word before a thing is ("cold water": the chilled water)
_QUALIFYING = {"cold": "chilled", "cool": "chilled", "chilly": "chilled"}


def _kicked_off(toks: list[Token]) -> list[Token]:
    """ "kick off the auto doff": begun, as a meeting is kicked off, or switched off, as a
    pump "kicks off"? Either is said on a plant: the two words are read as one that says no
    value (it had been switched off, asked to start — blind batch 23): a switch, and a word
    no one can read which way, so that nothing said with it is written either ("kick off mash
    pump at 60" — atk30)."""
    for i, t in enumerate(toks[:-1]):
        if t.raw in ("kick", "kicks") and not t.zh and toks[i + 1].raw == "off":
            said = f"{t.raw} off"
            return [*toks[:i], replace(t, text="switch", raw="switch", written=t.raw),
                    Token(said, said, unreadable=True, written="off"), *toks[i + 2:]]
    return toks


def _state_verbs(toks: list[Token]) -> list[Token]:
    """ "take pump 1 offline", "put the fan back in service": the verb and the state said after
    the thing become "switch ... off/on" (each keeping its words as written, for replies), so
    the rest of the router reads a switch. Only a command that starts with the verb (after
    words of politeness), and only a state after at least one word of the thing."""
    start = 0
    while start < len(toks) and not toks[start].zh and toks[start].raw in _BEFORE_VERB:
        start += 1
    if start >= len(toks) or toks[start].zh or toks[start].raw not in STATE_VERBS:
        return toks
    raws = [t.raw if not t.zh else "" for t in toks]
    for i in range(start + 2, len(toks)):
        for n in range(_STATE_LONGEST, 0, -1):
            state = STATE_PHRASES.get(tuple(raws[i:i + n]))
            if state is None:
                continue
            verb = toks[start]
            phrase = " ".join(t.raw for t in toks[i:i + n])
            return [*toks[:start], replace(verb, text="switch", raw="switch",
                                           written=verb.raw),
                    *toks[start + 1:i], Token(state, state, written=phrase),
                    *toks[i + n:]]
    return toks


# -- English number words and signs ----------------------------------------------------------


def _english_numbers(toks: list[Token]) -> list[Token]:
    """A run of number words becomes one number ("nine hundred and fifty" -> 950, "two point
    five", "15 hundred"), or, when it is not one well-formed number ("five five"), one
    unreadable token: never the sum of its words."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.raw in EN_ORDINALS and not t.zh and out and out[-1].raw == "per":
            out.append(t)  # "per second": a unit of time, no number
            i += 1
            continue
        if t.raw in EN_ORDINALS and not t.zh:
            if out and (out[-1].raw == "a" or out[-1].is_number):  # "a third", "two fifths"
                out[-1] = _unreadable(f"{out[-1].raw} {t.raw}")
            else:
                out.append(replace(_number(EN_ORDINALS[t.raw], t.raw), ordinal=True))
            i += 1
            continue
        if t.is_number and not t.zh and not t.ordinal and not t.groups and \
                isinstance(t.number, int) and t.raw.isdigit() and \
                [x.raw for x in toks[i + 1:i + 4]] == ["and", "a", "half"] and \
                not any(x.zh or x.after_break for x in toks[i + 1:i + 4]):
            # "6 and a half quarts a day": 6.5, as "six and a half" is (blind batch 73)
            out.append(_number(t.number + 0.5, f"{t.raw} and a half"))
            i += 4
            continue
        j = _run_end(toks, i)
        if j == i:
            out.append(t)
            i += 1
            continue
        run = toks[i:j]
        value = english([x.number if x.number is not None and k == 0 else x.raw
                         for k, x in enumerate(run)])
        raw = " ".join(x.raw for x in run)
        out.append(_number(value, raw) if value is not None else _unreadable(raw))
        i = j
    return out


def _run_end(toks: list[Token], i: int) -> int:
    """Where a run of number words that starts at `i` ends (`i`: none starts there)."""
    def raw(k: int) -> str:
        return toks[k].raw if 0 <= k < len(toks) and not toks[k].zh else ""

    t = toks[i]
    if t.zh:
        return i
    if t.raw == "one" and (raw(i - 1) in _ONE_AFTER or raw(i + 1) == "of") \
            and raw(i + 1) not in _NUMBER_WORDS:
        return i  # "this one", "one of them"
    starts = (t.raw in _NUMBER_WORDS
              or (t.raw == "a" and raw(i + 1) in EN_SCALES)
              or (t.raw == "point" and raw(i + 1) in _DIGIT_WORDS and raw(i - 1) != "set")
              or (t.number is not None and not t.groups and raw(i + 1) in EN_SCALES))
    if not starts:
        return i
    k = i + 1
    while k < len(toks) and not toks[k].after_break:
        word, before, after = raw(k), raw(k - 1), raw(k + 1)
        number = word in _NUMBER_WORDS or (word == "point" and (
            after in _NUMBER_WORDS or (after == "oh" and raw(k + 2) in _NUMBER_WORDS)))
        joins = word == "and" and ((before in EN_SCALES and after in _NUMBER_WORDS)
                                   or (after == "a" and raw(k + 2) == "half") or after == "half")
        half = (word == "a" and before == "and" and after == "half") or \
            (word == "half" and before in ("a", "and"))
        # "pot one oh one": a zero read out between digits
        oh = word == "oh" and (before in _NUMBER_WORDS or before == "point") and \
            after in _NUMBER_WORDS  # ("one point oh five": 1.05)
        if not (number or joins or half or oh):
            break
        k += 1
    return k


def _signs(toks: list[Token]) -> list[Token]:
    """ "minus 5", "negative five": -5. A sign word before another sign, or before what is no
    number anyone says ("minus minus 5", "minus zero", "minus 1e4"), is unreadable."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.raw in EN_MINUS and not t.zh and nxt is not None and \
                (nxt.is_number or nxt.unreadable or nxt.raw in EN_MINUS):
            if nxt.raw in EN_MINUS:
                j = i + 1
                while j < len(toks) and toks[j].raw in EN_MINUS:
                    j += 1
                end = min(j + 1, len(toks))
                out.append(_unreadable(" ".join(x.raw for x in toks[i:end])))
                i = end
                continue
            out.append(_negative(t, nxt))
            i += 2
            continue
        if out and out[-1].raw in _SIGNED_AFTER and not t.zh:
            plus = _positive(t, nxt)
            if plus is not None:  # "to plus 12": a value's sign, no change by it
                out.append(plus)
                i += 2
                continue
        out.append(t)
        i += 1
    return out


#: the words after which a sign is the value's ("set the room to plus 4"), no change by it
_SIGNED_AFTER = frozenset(("to", "at"))


def _positive(t: Token, nxt: Token | None) -> Token | None:
    """ "plus 12": 12, said as a value is (after "to"); None when not so said. ("+12" stays
    unreadable: a sign written on a number is as often a change by it.)"""
    if t.raw == "plus" and nxt is not None and nxt.number is not None and nxt.number > 0 \
            and not nxt.groups and not nxt.unreadable:
        return Token(nxt.text, f"plus {nxt.raw}", nxt.number)
    return None


# -- Chinese ---------------------------------------------------------------------------------


def _chinese(run: str, before: list[Token], *, after_digits: bool = False,
             letter: Token | None = None) -> list[Token]:
    """One run of Chinese characters: longest dictionary words, numerals, ordinals.

    An ordinal ("3号", "第三") waits for the thing it numbers and goes after it, as English
    says it: "1号给水泵" -> "feed water pump 1". Numerals are read strictly (`numbers.chinese`);
    one that is not one well-formed number stays one unreadable token, as written.
    """
    out: list[Token] = []
    #: an ordinal waiting for the end of the thing it numbers (or a letter written against it)
    pending: Token | None = letter
    thing_seen = False  # ...and a word of a thing came after it
    held = 0  # ...which goes on at least until here (a plant word read character by character)
    i = 0
    if after_digits and run[0] in ZH_UNITS and before and before[-1].is_number \
            and not before[-1].groups and not run.startswith(_UNIT_WORDS):  # "1.5万", "3千"
            # (not "13.8千安": 13.8 kA)
        n = _numeral_length(run, 0)
        digits = before.pop()
        if n == 1 and digits.number is not None:
            product = _times(digits.number, ZH_UNITS[run[0]])
            token = _number(product, digits.raw + run[0], zh=True) if product is not None \
                else _unreadable(digits.raw + run[0], zh=True)
        else:  # "2千5", "1万2千": digits and numerals mixed
            token = _unreadable(digits.raw + run[:n], zh=True)
        before.append(token)
        i = n
    elif after_digits and _numeral_length(run, 0) and before and before[-1].is_number \
            and not run.startswith(_UNIT_WORDS):
        digits = before.pop()  # "5五": no one number
        n = _numeral_length(run, 0)
        before.append(_unreadable(digits.raw + run[:n], zh=True))
        i = n
    if i == 0 and run.startswith("号") and before and before[-1].is_number:
        pending = replace(before.pop(), ordinal=True)  # "3号", the digits written in ASCII
        i = 1
    while i < len(run):
        if run.startswith("百分之", i):  # "百分之五十": 50 (percent)
            i += 3
            continue
        sign = next((m for m in ZH_MINUS if run.startswith(m, i)), "")
        if sign:
            signed, used = _zh_signed(run, i, sign)
            if signed is not None:
                if pending is not None:
                    out.append(pending)
                    pending = None
                out.append(signed)
                i += used
                continue
        ordinal = run[i] == "第"
        if ordinal:
            i += 1
            if i == len(run):
                break
        word_len = next((n for n in range(min(_ZH_MAX, len(run) - i), 0, -1)
                         if run[i:i + n] in ZH_WORDS), 0)
        num_len = _numeral_length(run, i)
        if word_len == 1 and not num_len and _plant_word(run, i) > 1 and not any(
                w in THINGS or w in MODIFIERS or canonical(w) in QUANTITIES
                for w in ZH_WORDS[run[i]].split()):
            # 减 of 减速箱 (a gearbox) is no "subtract", 加 of 加湿器 no "add": a character
            # that begins a longer plant word of the lexicon is that word's, as written
            held = i + _plant_word(run, i)
            out.append(Token(run[i], run[i], zh=True))
            i += 1
            continue
        if num_len and _numbered_word(run, i) > num_len:
            # 一氧化碳 (carbon monoxide), 二次风机, 三通阀: a plant word that opens with a
            # numeral numbers nothing, and the numeral is read as written
            if pending is not None and thing_seen and i >= held:
                # (after the thing a number numbers: "1号房二氧化碳" is room 1's CO2)
                out.append(pending)
                pending = None
            out.append(Token(run[i:i + num_len], run[i:i + num_len], zh=True))
            i += num_len
            continue
        if word_len == 1 and run[i] == "度" and _degree_ends(run, i):
            # 浓度 (concentration), 浊度, 密度: no degrees, no temperature
            out.append(Token(run[i], run[i], zh=True))
            i += 1
            continue
        if num_len and num_len >= word_len:
            token, num_len = _zh_number(run, i, num_len)
            i += num_len
            if i < len(run) and run[i] == "号":
                ordinal = True
                i += 1
            if pending is not None:
                out.append(pending)
                pending = None
            if ordinal and token.is_number:
                pending = replace(token, ordinal=True)
            else:
                out.append(token)
            continue
        if i and run.startswith("设定", i) and run[i + 2:i + 3] in ("是", "多", "改", "调", "设"):
            # 发电功率设定是多少: a setting asked ("what is the power setpoint"), none given;
            # 温度设定改成30度: a setting, changed by the verb after it
            out.append(Token("setpoint", "setpoint", zh=True, written="设定"))
            i += 2
            if run[i] == "改" and run[i + 1:i + 2] not in ("一", "两", "过", "下", "了") and \
                    not any(run[i:i + n] in ZH_WORDS for n in range(2, _ZH_MAX + 1)):
                # 设定改7: the verb alone, a change (blind batch 70 read it); not 改成, which
                # is a word of its own, nor 改一改, 改过 (atk71); nor 调 alone, by as often
                # as to (设定调1度, review atk72: `_zh_changed_to` leaves it unreadable)
                out.append(Token("set", "set", zh=True, written=run[i]))
                i += 1
            continue
        if word_len:
            english_words = ZH_WORDS[run[i:i + word_len]]
            if pending is not None and _plant_word(run, i, things=True) > word_len:
                # "2号包装机": 包装 (packaging) begins the thing 包装机, which its number follows
                # whole
                held = max(held, i + _plant_word(run, i, things=True))
            i += word_len
            words = [Token(canonical(w), w, zh=True, written=run[i - word_len:i])
                     for w in english_words.split()]
            last = out[-1] if out else before[-1] if before else None
            if english_words == "degrees" and last is not None and last.is_number:
                # "30度": degrees as "30 degrees" says them, a temperature's unit
                words = [replace(words[0], unit=unit_symbol("degrees") or "")]
            if pending is not None and words and i > held and (not all(
                    w.raw in THINGS or w.raw in MODIFIERS for w in words) or (
                    thing_seen and not any(w.raw in THINGS for w in words)
                    and not _thing_at(run, i))):
                # the thing ended: its number follows it ("2号罐油温": a modifier after the
                # tank that qualifies no thing after it is the next word's, tank 2's oil)
                out.append(pending)
                pending = None
            thing_seen = pending is not None and (
                thing_seen or any(w.raw in THINGS for w in words))
            out.extend(words)
            continue
        if pending is not None and i >= held and (thing_seen or not _thing_after_unknown(run, i)):
            # (unknown characters before a thing qualify it: "2号射流风机" is jet fan 2, "射 流
            # fan 2"; not after the thing it numbers: "二号仓下料阀" is silo 2's valve)
            out.append(pending)
            pending = None
        out.append(Token(run[i], run[i], zh=True))  # an unknown character matches itself
        i += 1
    if pending is not None:
        out.append(pending)
    return out


#: unknown characters an ordinal looks past to the thing it numbers ("2号射流风机")
_UNKNOWN_BEFORE_THING = 3


def _thing_after_unknown(run: str, i: int) -> bool:
    """Whether the characters from `run[i]` are a few that no dictionary word or numeral
    begins, then a thing ("射流风机": a jet fan)."""
    for j in range(i, min(len(run), i + _UNKNOWN_BEFORE_THING + 1)):
        if _numeral_length(run, j) or run[j] in "第号":
            return False
        if any(run[j:j + n] in ZH_WORDS for n in range(1, min(_ZH_MAX, len(run) - j) + 1)):
            return j > i and _thing_at(run, j)
    return False


def _thing_at(run: str, i: int) -> bool:
    """Whether the longest dictionary word at `run[i]` is a thing ("泵" of "给水泵")."""
    word_len = next((n for n in range(min(_ZH_MAX, len(run) - i), 0, -1)
                     if run[i:i + n] in ZH_WORDS), 0)
    return bool(word_len) and any(w in THINGS for w in ZH_WORDS[run[i:i + word_len]].split())


@functools.cache
def _plant_words(kinds: tuple[str, ...] = ("thing", "medium", "quantity")
                 ) -> tuple[frozenset[str], int]:
    """The lexicon's Chinese words of things, media and quantities (of `kinds`), of two
    characters or more."""
    words = frozenset(f for c in lexicon().concepts.values() if c.kind in kinds
                      for f in c.zh_forms if len(f) > 1)
    return words, max(map(len, words), default=0)


@functools.cache
def _zh_forms() -> tuple[frozenset[str], frozenset[str]]:
    """The lexicon's Chinese forms of three characters or more that open with a numeral and
    are no unit (一氧化碳, 二次风机, 三通阀; not 一楼, the first floor, nor 千瓦), and its
    forms of a quantity other than a temperature that end in 度 (浓度, 浊度; not 多少度)."""
    concepts = lexicon().concepts.values()
    numbered = frozenset(f for c in concepts if c.kind != "unit" for f in c.zh_forms
                         if len(f) > 2 and f[0] in _ZH_NUMERAL)
    degrees = frozenset(f for c in concepts if c.kind == "quantity" and
                        "temperature" not in c.id for f in c.zh_forms
                        if len(f) > 1 and f.endswith("度"))
    return numbered, degrees


def _numbered_word(run: str, i: int) -> int:
    """The length of the longest of the lexicon's words that open with a numeral at `run[i]`
    (`_zh_forms`, `_zh_pairs`), or 0."""
    numbered = _zh_forms()[0]
    return next((n for n in range(min(8, len(run) - i), 2, -1) if run[i:i + n] in numbered),
                2 if run[i:i + 2] in _zh_pairs() and not (i and run[i - 1] == "第")
                and _plant_word(run, i + 1) < 2 else 0)  # (第二冷却塔, 二冷凝器: a number)


@functools.cache
def _zh_pairs() -> frozenset[str]:
    """The lexicon's things of two characters that open with a numeral numbering nothing: 二冷
    (a caster's secondary cooling: 二冷1区 is its zone 1, no "2 冷 1 区"). Not where the
    numeral numbers: its second character is a thing alone (一楼, the first floor), or the
    lexicon has the same word with another numeral (一效, 二效: evaporator effects)."""
    lx = lexicon()
    forms = {f: c for c in lx.concepts.values() for f in c.zh_forms}
    things = {f for f, c in forms.items() if c.kind == "thing"}
    return frozenset(
        f for f, c in forms.items()
        if len(f) == 2 and f[0] in _ZH_NUMERAL and c.kind in ("thing", "medium")
        and f[1] not in _ZH_NUMERAL and f[1] != "点" and f[1] not in things
        and not any(n + f[1] in forms for n in _ZH_NUMERAL if n != f[0])
        and not any(w in THINGS for w in ZH_WORDS.get(f[1], "").split()))


def _degree_ends(run: str, i: int) -> bool:
    """Whether the 度 at `run[i]` ends a quantity of the lexicon other than a temperature."""
    degrees = _zh_forms()[1]
    return any(run[j:i + 1] in degrees for j in range(max(0, i - 7), i))


def _plant_word(run: str, i: int, *, things: bool = False) -> int:
    """The length of the longest plant word (`things`: of a thing) of the lexicon at `run[i]`,
    or 0."""
    words, longest = _plant_words(("thing",)) if things else _plant_words()
    return next((n for n in range(min(longest, len(run) - i), 1, -1)
                 if run[i:i + n] in words), 0)


def _times(number: Number, unit: int) -> Number | None:
    """ "1.5万": 15000, exactly."""
    if isinstance(number, int):
        return number * unit
    return exact(format(Decimal(repr(number)) * unit, "f"))


def _zh_signed(run: str, i: int, sign: str) -> tuple[Token | None, int]:
    """ "负五", "零下五": -5; "负负五", "负零": unreadable; "负" at the end of the run: a sign
    for digits written right after it ("负5"); "负载" (load): no sign at all."""
    j = i + len(sign)
    while any(run.startswith(m, j) for m in ZH_MINUS):
        j += len(next(m for m in ZH_MINUS if run.startswith(m, j)))
    n = _numeral_length(run, j)
    if j == len(run):
        if j - i > len(sign):
            return _unreadable(run[i:j], zh=True), j - i
        return Token("-", sign, zh=True), j - i
    if not n:
        return (_unreadable(run[i:j], zh=True), j - i) if j - i > len(sign) else (None, 0)
    token, n = _zh_number(run, j, n)
    if j - i > len(sign) or token.number is None or token.number == 0:
        return _unreadable(run[i:j + n], zh=True), j + n - i
    return _number(-token.number, run[i:j + n], zh=True), j + n - i


def _zh_number(run: str, i: int, n: int) -> tuple[Token, int]:
    """The numeral at run[i:i+n] (and a "半" or "个半" after it, which makes it unreadable)."""
    numeral = run[i:i + n]
    for half in ("个半", "半"):
        if run.startswith(half, i + n):
            return _unreadable(numeral + half, zh=True), n + len(half)
    value = chinese(numeral)
    if value is None:
        return _unreadable(numeral, zh=True), n
    return _number(value, numeral, zh=True), n


def _numeral_length(run: str, i: int) -> int:
    n = 0
    while i + n < len(run):
        ch = run[i + n]
        if ch == "点":
            if not (n > 0 and i + n + 1 < len(run) and run[i + n + 1] in ZH_DIGITS):
                break
        elif ch not in _ZH_NUMERAL or run.startswith("零下", i + n) or (
                ch in ZH_UNITS and n > 0 and any(run.startswith(w, i + n) for w in _UNIT_WORDS)):
            break  # "五千克" is 5 kg, not 5000 g; "零下" is a sign
        n += 1
    return n


#: dictionary words that start with a numeral unit ("千克"): a numeral stops before them
_UNIT_WORDS = tuple(w for w in ZH_WORDS if len(w) > 1 and w[0] in ZH_UNITS)
