"""A strict reader of parsed YAML that collects every problem with its dotted path.

`Section` wraps one mapping of the config: each typed getter returns the value (or a default)
and records a problem instead of raising, so a user sees all mistakes at once. Keys nobody asked
for are reported by `finish()` with the nearest valid key suggested. Nothing here drops or
"fixes" a bad entry: a problem is always reported.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$")
_DURATION_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
#: the longest duration any key takes: nothing hermesd times runs longer, and a longer one is a
#: typo (`99999999999999999999h` would overflow every timer it met)
MAX_DURATION = 10 * 365 * 86400.0
MISSING: Any = object()


def parse_duration(text: str) -> float:
    """Seconds for a duration like `500ms`, `2s`, `15m`, `1h`, `7d`; ValueError otherwise."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a duration like 500ms, 2s, 15m, 1h")
    return float(match.group(1)) * _DURATION_UNITS[match.group(2)]


def describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


class Problems:
    """The list of (dotted path, message) found so far."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        self.items.append((path, message))


class Section:
    """One mapping at a dotted path. Getters record problems and return a usable stand-in."""

    def __init__(self, problems: Problems, path: str, data: Any, *, known: Iterable[str] = ()):
        self.problems = problems
        self.path = path
        self.known: set[str] = set(known)
        self.ok = isinstance(data, Mapping)
        if data is None:
            data = {}
            self.ok = True
        if not isinstance(data, Mapping):
            problems.add(path or "(top level)", f"expected a mapping, got {describe(data)}")
            data = {}
        self.data: Mapping[Any, Any] = data

    # -- structure --------------------------------------------------------------------------

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else str(key)

    def problem(self, key: str | None, message: str) -> None:
        self.problems.add(self.at(key) if key is not None else (self.path or "(top level)"), message)

    def has(self, key: str) -> bool:
        self.known.add(key)
        return key in self.data

    def raw(self, key: str, default: Any = MISSING, *, required: bool = False) -> Any:
        self.known.add(key)
        if key in self.data:
            return self.data[key]
        if required:
            self.problem(key, "is required")
        return default

    def section(self, key: str, *, required: bool = False) -> Section:
        return Section(self.problems, self.at(key), self.raw(key, None, required=required))

    def finish(self) -> None:
        """Report keys nobody asked for, suggesting the nearest known key."""
        for key in self.data:
            if not isinstance(key, str):
                self.problem(None, f"key {key!r} is not text")
            elif key not in self.known:
                near = difflib.get_close_matches(key, sorted(self.known), n=1, cutoff=0.6)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                valid = ", ".join(sorted(self.known)) if not near else ""
                tail = f"; valid keys: {valid}" if valid else ""
                self.problem(key, f"unknown key{hint}{tail}")

    # -- typed getters ------------------------------------------------------------------------

    def text(self, key: str, default: Any = MISSING, *, required: bool = False,
            pattern: re.Pattern[str] | None = None, what: str = "") -> Any:
        value = self.raw(key, MISSING, required=required)
        if value is MISSING:
            return default if default is not MISSING else None
        if not isinstance(value, str) or blank(value):
            self.problem(key, f"expected non-empty text, got {describe(value)}")
            return default if default is not MISSING else None
        if pattern is not None and not pattern.fullmatch(value):
            self.problem(key, f"{value!r} is not {what or 'valid'}")
            return default if default is not MISSING else None
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.raw(key, MISSING)
        if value is MISSING:
            return default
        if not isinstance(value, bool):
            self.problem(key, f"expected true or false, got {describe(value)}")
            return default
        return value

    def integer(self, key: str, default: Any = MISSING, *, required: bool = False,
            min: int | None = None, max: int | None = None) -> Any:
        value = self.raw(key, MISSING, required=required)
        if value is MISSING:
            return default if default is not MISSING else None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(key, f"expected a whole number, got {describe(value)}")
            return default if default is not MISSING else None
        return self._bounded(key, value, min, max, default)

    def number(self, key: str, default: Any = MISSING, *, required: bool = False,
               min: float | None = None, max: float | None = None,
               nonzero: bool = False, positive: bool = False) -> Any:
        value = self.raw(key, MISSING, required=required)
        if value is MISSING:
            return default if default is not MISSING else None
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            self.problem(key, f"expected a number, got {describe(value)}")
            return default if default is not MISSING else None
        if nonzero and value == 0:
            self.problem(key, "must not be zero")
            return default if default is not MISSING else None
        if positive and value <= 0:
            self.problem(key, f"must be greater than 0, got {value:g}")
            return default if default is not MISSING else None
        return self._bounded(key, value, min, max, default)

    def _bounded(self, key: str, value: Any, lo: Any, hi: Any, default: Any) -> Any:
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if lo is not None and hi is not None:
                self.problem(key, f"{value} is out of range {lo}..{hi}")
            elif lo is not None:
                self.problem(key, f"{value} is too small: at least {lo:g}")
            else:
                self.problem(key, f"{value} is too large: at most {hi:g}")
            return default if default is not MISSING else None
        return value

    def duration(self, key: str, default: Any = MISSING, *, required: bool = False,
                 min: float = 0.0, max: float | None = None) -> Any:
        value = self.raw(key, MISSING, required=required)
        if value is MISSING:
            return default if default is not MISSING else None
        if not isinstance(value, str):
            self.problem(key, f"expected a duration with its unit (e.g. 500ms, 2s, 15m), "
                              f"got {describe(value)}")
            return default if default is not MISSING else None
        try:
            seconds = parse_duration(value)
        except ValueError as exc:
            self.problem(key, str(exc))
            return default if default is not MISSING else None
        if max is None or max > MAX_DURATION:
            max = MAX_DURATION  # every duration is bounded: see MAX_DURATION
        if seconds < min or seconds > max:
            hi = f"{max:g}s" if max < MAX_DURATION else "10 years"
            why = " (no duration may be longer)" if seconds > max == MAX_DURATION else ""
            shown = value if len(value) <= 40 else f"{value[:36]}…"
            self.problem(key, f"{shown} is out of range {min:g}s..{hi}{why}")
            return default if default is not MISSING else None
        return seconds

    def choice(self, key: str, choices: Iterable[Any], default: Any = MISSING, *,
               required: bool = False) -> Any:
        options = list(choices)
        value = self.raw(key, MISSING, required=required)
        if value is MISSING:
            return default if default is not MISSING else None
        if isinstance(value, bool) or value not in options:
            listed = "|".join(str(o) for o in options)
            near = difflib.get_close_matches(str(value), [str(o) for o in options], n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            self.problem(key, f"{describe(value)} is not one of {listed}{hint}")
            return default if default is not MISSING else None
        return value

    def texts(self, key: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:
        value = self.raw(key, MISSING)
        if value is MISSING:
            return default
        if not isinstance(value, list):
            self.problem(key, f"expected a list of texts, got {describe(value)}")
            return default
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or blank(item):
                self.problems.add(f"{self.at(key)}[{i}]", f"expected non-empty text, got "
                                                           f"{describe(item)}")
            else:
                out.append(item)
        return tuple(out)

    def mapping_items(self, key: str | None = None) -> list[tuple[str, Any]]:
        """The (name, value) pairs of a mapping of named entries (devices, points, roles)."""
        data = self.data if key is None else self.raw(key, {})
        if data is None:
            return []
        if not isinstance(data, Mapping):
            self.problem(key, f"expected a mapping of named entries, got {describe(data)}")
            return []
        items = []
        for name, value in data.items():
            if not isinstance(name, str):
                self.problems.add(f"{self.at(key) if key else self.path}",
                                  f"entry name {name!r} must be text")
                continue
            items.append((name, value))
        return items


def shown_as_written(s: Section, **texts: str | tuple[str, ...] | None) -> None:
    """Words people read (a point's names, unit and choices; a node's, a device's and an
    intent's words) reach replies, Home Assistant's entity names, log lines and the model's
    prompt: a control or format character in them (ESC, a newline, a bidi override) would act
    on a terminal or a display, or hide what the text says. Refused, naming it."""
    for key, value in texts.items():
        for i, text in enumerate((value,) if isinstance(value, str) else value or ()):
            odd = unshown(text)
            if odd is not None:
                at = key if isinstance(value, str) else f"{key}[{i}]"
                s.problem(at, f"holds U+{ord(odd):04X}, {unshown_what(odd)}: words people read "
                              "are shown as written")


UNSHOWN_WHAT = "a control, format or line-breaking character"


def unshown_what(ch: str) -> str:
    """What `unshown` found, in words."""
    category = unicodedata.category(ch)
    if category == "Co":
        return "a private-use character (shown as a box or as nothing)"
    if category in ("Mn", "Me"):
        return "a combining mark with no letter before it"
    return UNSHOWN_WHAT


def unshown(text: str, *, one_word: bool = False) -> str | None:
    """The first character of `text` that is not shown as written (see `shown_as_written`), or
    None. A private-use character shows a box or nothing (a character this Python's Unicode
    does not know yet may be a newer emoji or ideograph, and is taken), and a combining mark
    before any letter has none to sit on (a word of marks shows nothing). `one_word` (an
    address): no space of any width and no joiner either."""
    for unit in text if one_word else _UNITS.findall(text):
        if len(unit) > 1:
            continue  # a flag's tag sequence (🏴 of Scotland) is its flag
        category = unicodedata.category(unit)
        if category in _NO_GLYPH or (category in _UNSHOWN
                                     and (one_word or unit not in _WRITING_MARKS)):
            return unit
        if one_word and (category == "Zs" or ignorable(unit)):
            return unit
    first = next((ch for ch in text if not _drawn_blank(ch)), None)
    return first if first and unicodedata.category(first) in ("Mn", "Me") else None


def blank(text: str) -> bool:
    """Whether `text` shows nothing at all: only spaces, characters shown as nothing (joiners,
    variation selectors) and letters that are drawn blank (the Hangul fillers, the blank
    Braille pattern), which str.strip() leaves."""
    return all(_drawn_blank(ch) for ch in text)


def _drawn_blank(ch: str) -> bool:
    return ch.isspace() or ignorable(ch) or ch in _BLANK_LETTERS


def folded(label: str) -> str:
    """A word as people tell it from another: in NFKC (full-width ａｕｔｏ is auto), its letters
    drawn as Latin ones as those (Cyrillic Р in "Рump"), its digits in any script as ASCII
    ones, casefolded, without what is shown as nothing (a zero-width joiner inside "auto", a
    hair space), and blank letters and runs of space read as one space. Labels that fold alike
    are one word to their reader. (Maße is Masse here as the router hears it: it casefolds
    what is said, and would take either for the other.)"""
    text = unicodedata.normalize("NFKC", label.replace(_HAIR_SPACE, ""))  # (NFKC: a space)
    text = "".join(unit if len(unit) > 1 else _skeleton(unit) for unit in _UNITS.findall(text))
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def _skeleton(ch: str) -> str:
    """One character as what it is drawn as (see `folded`)."""
    digit = unicodedata.decimal(ch, None)
    if digit is not None:
        return str(digit)
    if ch in _BLANK_LETTERS or unicodedata.category(ch) == "Zs":
        return " "
    return "" if ignorable(ch) else _LATIN_TWINS.get(ch, ch)


def ignorable(ch: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point: drawn as nothing where it is not understood."""
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


#: characters that act on a terminal or a display, or hide what a text says, rather than show:
#: controls (ESC, newline), format characters (bidi overrides, zero-width spaces), line and
#: paragraph separators, lone surrogates. Spaces of every width are shown (a spreadsheet's
#: no-break space, the Chinese full-width space)
_UNSHOWN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))
#: format characters that writing needs (Persian and Indic joiners, emoji sequences)
_JOINERS = frozenset("\u200c\u200d")
#: and the marks a name may carry as written: the left-to-right and right-to-left marks of a
#: Hebrew or Arabic name, the Mongolian vowel separator, the soft hyphen (atk29); each is
#: drawn as nothing, so `folded` leaves it out when names are compared
_WRITING_MARKS = _JOINERS | frozenset("\u200e\u200f\u180e\u00ad")
#: Default_Ignorable_Code_Point (Unicode 15, DerivedCoreProperties.txt): soft hyphen,
#: combining grapheme joiner, Arabic letter mark, Hangul fillers, Khmer inherent vowels,
#: Mongolian selectors, zero-width and bidi marks, word joiner and invisible operators,
#: variation selectors, BOM, the shorthand format controls, musical format marks, tags
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
              (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
              (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
              (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0000, 0xE0FFF))
#: private-use and unassigned characters: no font this text meets need draw them, and most
#: show a box or nothing
_NO_GLYPH = frozenset(("Co",))
#: letters and symbols drawn as blank space (str.isspace() says no): the Hangul fillers, the
#: blank Braille pattern, the Khitan filler and the musical null notehead
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U00016fe4\U0001d159")
#: a space drawn as good as no space: "Pump\u200a1" is Pump1 to its reader
_HAIR_SPACE = "\u200a"
#: the units of a text one at a time: a character, or a flag of tags (🏴 followed by tag
#: letters and ended by the cancel tag: Scotland, Wales, England), shown as one flag
_UNITS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f|.", re.S)
#: Cyrillic and Greek capitals drawn as a Latin capital ("Рump", "Οven") as that capital, and
#: their small letters as its small letter: a name's case stays one name in every script (the
#: small letter goes with its capital where it looks like another Latin letter: ν, η, υ)
_LATIN_TWINS = {twin: latin for pair in (
    "АA ВB ЕE ЅS ІI ЈJ КK МM НH ОO РP СC ТT УY ХX ԚQ ԜW "
    "ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX").split()
    for twin, latin in ((pair[0], pair[1]), (pair[0].lower(), pair[1].lower()))
    if twin != "μ"}  # (µ, the micro sign, is μ in NFKC: "10 µm" is no "10 mm" — atk29)
