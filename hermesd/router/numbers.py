"""Reading the numbers of a command: a number is taken only where the words name exactly one.

Read exactly: digits (ASCII, or the full-width ones Chinese input methods produce), digit groups
with commas ("1,600,000") or single spaces ("1 600", kept apart as `Literal.groups`, because
"pump 1 600" is pump 1 and 600: only the router knows which words number things), decimals,
a leading minus, English number words ("nine hundred and fifty", "seventy-two and a half",
"two point five", "15 hundred") and Chinese numerals ("一千五", "两万三", "一五零零", "三点五").

Everything else that looks like a number is *unreadable* and kept as written, so that the
router can ask back naming it: exponents ("1e4"), hex, binary and octal ("0x5DD"), "1_000",
"1'000", "1,60", ranges and dates ("5-6", "10:30", "1/2"), digits of other scripts ("١٢", "²",
"①", "½"), an invisible character between digits ("1\u200b500"), "-0", a doubled, spaced,
trailing or explicit plus sign ("--5", "- 5", "5-", "+5", "±5"), "10k", decimals with more
digits than a value can carry, numbers past any register (more than 18 digits before the
point), a point that may group thousands ("1.000" is a thousand in some places), and ill-formed
runs of number words ("five five", "twenty
thirty", "三四百"). Nothing here ever turns one of those into some
other number. Pure functions; no knowledge of any plant.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from hermesd.router.vocabulary import EN_SCALES, EN_TENS, EN_UNITS, ZH_DIGITS, ZH_UNITS

Number = int | float

#: digits of other scripts (and superscripts, circled digits, fractions...) in the shadow text
_FOREIGN = "\ue000"
#: an invisible character (zero-width space, soft hyphen, a lone surrogate...) in the shadow
_HIDDEN = "\ue001"
#: the characters of Chinese numerals: numbers in their own right, never "foreign digits"
_ZH_NUMERAL_CHARS = frozenset(ZH_DIGITS) | frozenset(ZH_UNITS) | {"点"}
#: a sign, as it may be typed; only a lone "-" right before the digits is a minus
_SIGNS = "+-±<>≤≥"
#: the spaces that may join digit groups ("1 600", "1\u202f600"): one, never a tab or a newline
_GROUP_SPACES = frozenset(" \u00a0\u2007\u2009\u202f")
_MAX_DIGITS = 4000  # longer runs of digits are no value anyone says (and int() has a limit)
#: digits before the point: 18 keep every value inside a signed 64-bit register (and inside
#: what hermesd's strict JSON carries), so an answer can always say the value back
_MAX_WHOLE_DIGITS = 18

_D = "0-9" + _FOREIGN
_LITERAL = re.compile(
    r"0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+"  # hex, binary, octal
    r"|[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]+"  # an exponent
    rf"|(?:[{_D}]|(?<![\w.])\.(?=[{_D}]))"  # a digit, or a leading decimal point (".5")
    rf"(?:[{_D}]|[.,_'’:/+{_HIDDEN}-](?=[{_D}])|[a-zA-Z]+(?=[{_D}]))*"  # digits, what joins them
    r"(?:[kK](?![a-zA-Z]))?")  # "10k"
_INT = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]*\.[0-9]+")
_COMMAS = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?")
_THOUSANDS_POINT = re.compile(r"[1-9][0-9]{0,2}\.[0-9]{3}")
_FIRST_GROUP = re.compile(r"[1-9][0-9]{0,2}")
_NEXT_GROUP = re.compile(r"[0-9]{3}(?:\.[0-9]+)?")


@dataclass(frozen=True, slots=True)
class Literal:
    """A number written with digits, or something written like one that is not."""

    start: int  # where it is in the text
    end: int
    raw: str  # as written
    value: Number | None  # None: unreadable
    groups: tuple[str, ...] = ()  # digit groups written apart by single spaces ("1", "600")
    why: str = ""  # why it is unreadable, in a few words


def literals(text: str) -> list[Literal]:
    """Every number written with digits in `text` (which should be NFC), in order."""
    shadow = text if text.isascii() else "".join(_shadow(c) for c in text)
    found: list[Literal] = []
    for match in _LITERAL.finditer(shadow):
        start, end = match.span()
        sign, start = _sign_before(shadow, start, found[-1].end if found else 0)
        body = match.group(0)
        if end < len(shadow) and shadow[end] in "+-" and (
                end + 1 == len(shadow) or not shadow[end + 1].isalnum()):
            end += 1  # "5-", "5+": a dangling sign after it
            value, why = None, "a sign after the number"
        elif not sign and _VALUE_WORD_HYPHEN.search(shadow, 0, start):
            value, why = None, "a hyphen between 'to' and the number: a minus, or no sign?"
        else:
            value, why = _value(sign, body)
        found.append(Literal(start, end, text[start:end], value, why=why))
    return _join_groups(text, found)


def _shadow(c: str) -> str:
    """One character for each character: full-width forms folded, other scripts' digits marked."""
    if c.isascii():
        return c
    if c in "−–‐‑‒":  # minus sign, en dash, the hyphens a word processor writes
        return "-"
    if c == "，":  # the Chinese comma separates; it never groups digits
        return c
    if unicodedata.category(c)[0] == "N" and c not in _ZH_NUMERAL_CHARS:
        folded = unicodedata.normalize("NFKC", c)
        if "０" <= c <= "９":
            return folded
        return _FOREIGN
    if unicodedata.category(c) in ("Cf", "Cs"):
        return _HIDDEN
    if c in (_FOREIGN, _HIDDEN):
        return "?"
    folded = unicodedata.normalize("NFKC", c)
    if folded in "−–‐‑‒":  # "︲2": a vertical en dash is a minus as much as "–2"
        return "-"
    return folded if len(folded) == 1 and folded.isascii() else c


def _sign_before(shadow: str, start: int, floor: int) -> tuple[str, int]:
    """The sign written before a number ("-5", "- 5", "--5", "+5"), and where it starts
    (never before `floor`, the end of the number before it)."""
    j = start
    if j - 2 >= floor and shadow[j - 1] == " " and shadow[j - 2] in _SIGNS:
        j -= 1  # "- 5": a sign with a space after it
    k = j
    while k > floor and shadow[k - 1] in _SIGNS:
        k -= 1
    sign = shadow[k:start]
    if not sign.strip():
        return "", start
    before = shadow[k - 1] if k > 0 else ""
    if sign == "-" and (before in "_." or (before.isalnum() and not is_cjk(before))):
        return "", start  # "boiler-3": a hyphen in a name, not a minus ("设为-5" is minus)
    return sign, k


#: a word a value is said after, with a hyphen written onto it and the number ("to-20",
#: "(at-5)", "of-20", "go-to-3", "tO-5", "into-5"): a minus or a joining hyphen, which no one
#: can tell (reviews atk59, atk59b, atk59c, atk59d); not in capitals ("AT-101", an analyser's
#: tag)
_VALUE_WORD_HYPHEN = re.compile(r"(?<![A-Za-z0-9])(?-i:(?!(?:TO|AT|OF|BY|INTO|ONTO)-))"
                                r"(?:to|at|of|by|into|onto)-\Z", re.IGNORECASE)


def is_cjk(ch: str) -> bool:
    """A Chinese character (numerals included: 〇 too)."""
    return ch == "\u3007" or "\u3400" <= ch <= "\u4dbf" or "\u4e00" <= ch <= "\u9fff"


def _value(sign: str, body: str) -> tuple[Number | None, str]:
    if _FOREIGN in body:
        return None, "digits of another script"
    if _HIDDEN in body:
        return None, "an invisible character inside the number"
    if re.fullmatch(r"0[xXbBoO][0-9a-fA-F]+", body):
        return None, "a hex, binary or octal number"
    if re.search(r"[0-9][eE][+-]?[0-9]", body) and not re.search(r"[a-df-zA-DF-Z]", body):
        return None, "an exponent"
    if sign and sign != "-":
        return None, "a doubled, spaced or plus sign"
    if _THOUSANDS_POINT.fullmatch(body):
        # "1.000", "2.500": one (point zero zero zero) in some places, a thousand in others
        return None, "a point that may group thousands"
    if _INT.fullmatch(body) or _DECIMAL.fullmatch(body):
        number = exact(body)
    elif _COMMAS.fullmatch(body):
        number = exact(body.replace(",", ""))
    else:
        return None, "not a number as people write one"
    if number is None:
        return None, "more digits than a value can carry"
    if sign == "-":
        if number == 0:
            return None, "minus zero"
        number = -number
    return number, ""


def exact(digits: str) -> Number | None:
    """ "1600" -> 1600, "2.5" -> 2.5: an int, or a float that is exactly the decimal written
    (its shortest repr reads back as the same number); None if no value carries it."""
    whole, _, frac = digits.partition(".")
    if len(whole.lstrip("0")) > _MAX_WHOLE_DIGITS or len(frac) > _MAX_DIGITS:
        return None  # beyond any register or setpoint: not a value anyone means
    if not frac:
        return int(whole)
    return _of_decimal(Decimal(digits))


def _of_decimal(d: Decimal) -> Number | None:
    if d == d.to_integral_value():
        return int(d)
    f = float(d)  # Decimal saturates to inf rather than raising
    if not math.isfinite(f) or Decimal(repr(f)) != d:
        return None
    return f


def _join_groups(text: str, found: list[Literal]) -> list[Literal]:
    """ "1 600": digit groups of three after a first group of one to three, each after one space,
    become one literal that keeps its groups (the router may split off a first that names)."""
    out: list[Literal] = []
    i = 0
    while i < len(found):
        first = found[i]
        j = i + 1
        body = _ascii(first.raw).lstrip("-")
        if first.value is not None and isinstance(first.value, int) and \
                _FIRST_GROUP.fullmatch(body):
            while j < len(found) and found[j].value is not None and \
                    found[j].start == found[j - 1].end + 1 and \
                    text[found[j - 1].end] in _GROUP_SPACES and \
                    _NEXT_GROUP.fullmatch(_ascii(found[j].raw)) and \
                    "." not in _ascii(found[j - 1].raw):
                j += 1
        if j == i + 1:
            out.append(first)
            i += 1
            continue
        parts = [_ascii(lit.raw) for lit in found[i:j]]
        groups = (parts[0].lstrip("-"), *parts[1:])
        value = exact("".join(groups))
        if value is not None and parts[0].startswith("-"):
            value = -value
        out.append(Literal(first.start, found[j - 1].end, text[first.start:found[j - 1].end],
                           value, groups))
        i = j
    return out


def _ascii(raw: str) -> str:
    return "".join(_shadow(c) for c in raw)


# -- English number words --------------------------------------------------------------------

_ONES = {w: v for w, v in EN_UNITS.items() if 1 <= v <= 9}
_TEENS = {w: v for w, v in EN_UNITS.items() if v >= 10}
_DIGIT_WORDS = {w: v for w, v in EN_UNITS.items() if v <= 9}
_BIG = {w: v for w, v in EN_SCALES.items() if v >= 1000}


def english(items: Sequence[str | Number]) -> Number | None:
    """The value of one run of English number words, or None if the run is not one number.

    `items` are words, except that the first may be a number written in digits when a scale
    word follows it ("15 hundred", "2.5 million"). Well-formed only: "nine hundred and fifty",
    "one thousand two hundred", "fifteen hundred", "seventy-two and a half", "two point five",
    "point five", "a hundred", "zero". "five five", "twenty thirty", "hundred", "one two three"
    are not one number. "one eighty", "two fifty five": a digit and the tens after it say the
    hundreds as people read a number out (180, 255), as do a teen and tens of sixty or more
    ("eleven sixty five", 1165); not a digit and a teen, nor a teen and fewer tens ("one
    fifteen", "twelve thirty" may be times).
    """
    said = _hundreds_read_out(items)
    if said is None:
        said = _digits_read_out(items)
    return said if said is not None else _English(list(items)).parse()


_ZERO_WORDS = frozenset(("oh", "zero", "nought"))


def _digits_read_out(items: Sequence[str | Number]) -> int | None:
    """ "one oh one" 101, "two zero seven" 207: three or four digits read one by one, a zero
    among them (as a pot, a room or a tag is numbered); not "one two three", a count."""
    words = [w for w in items if isinstance(w, str)]
    if len(words) != len(items) or len(words) not in (3, 4) or words[0] not in _ONES or \
            not any(w in _ZERO_WORDS for w in words[1:-1]) or \
            not all(w in _ZERO_WORDS or w in _DIGIT_WORDS for w in words):
        return None
    return int("".join("0" if w in _ZERO_WORDS else str(_DIGIT_WORDS[w]) for w in words))


def _hundreds_read_out(items: Sequence[str | Number]) -> int | None:
    """ "one eighty" 180, "two fifty five" 255, "eighteen seventy" 1870: a digit or teen word,
    a tens word, perhaps a digit."""
    words = [w for w in items if isinstance(w, str)]
    hundreds = {**_ONES, **_TEENS}
    if len(words) != len(items) or len(words) not in (2, 3) or words[0] not in hundreds \
            or words[1] not in EN_TENS or (len(words) == 3 and words[2] not in _ONES):
        return None
    if words[0] in _TEENS and EN_TENS[words[1]] < 60:
        return None  # "twelve thirty", "ten fifty" may be times of day (review atk43)
    return hundreds[words[0]] * 100 + EN_TENS[words[1]] + (_ONES[words[2]] if len(words) == 3
                                                           else 0)


class _English:
    def __init__(self, items: list[str | Number]) -> None:
        self.items = items
        self.i = 0

    def peek(self, k: int = 0) -> str | Number | None:
        j = self.i + k
        return self.items[j] if j < len(self.items) else None

    def parse(self) -> Number | None:
        value: Decimal
        if self.peek() == "point":
            value = Decimal(0)
        elif self.peek() in ("zero", "nought", "naught"):
            self.i += 1
            value = Decimal(0)
        else:
            whole = self.whole()
            if whole is None:
                return None
            value = whole
        if self.peek() == "point":
            self.i += 1
            digits = ""
            while isinstance(self.peek(), str) and (self.peek() in _DIGIT_WORDS
                                                    or self.peek() == "oh"):  # "point oh five"
                digits += "0" if self.peek() == "oh" else str(_DIGIT_WORDS[str(self.peek())])
                self.i += 1
            if not digits or value != value.to_integral_value():
                return None
            value = Decimal(f"{value}.{digits}")
        elif self.items[self.i:] in (["and", "a", "half"], ["and", "half"]):
            if self.items[self.i - 1] in _BIG or self.items[self.i - 1] == "hundred":
                return None  # "a thousand and a half": 1500 as often as 1000.5 (atk73b)
            self.i = len(self.items)
            value += Decimal("0.5")
        if self.i != len(self.items):
            return None
        return _of_decimal(value)

    def whole(self) -> Decimal | None:
        total = Decimal(0)
        limit: int | None = None
        first = True
        while True:
            start = self.i
            joined = not first and self.peek() == "and" and self.peek(1) not in ("a", "half")
            if joined:
                self.i += 1  # "one thousand and five"
            chunk = self.chunk()
            if chunk is None:
                self.i = start
                return total if not first else None
            if not first and not joined and self.i == start + 1 and chunk < 10 and \
                    self.peek() is None:
                return None  # "one thousand two": 1002 as written, 1200 as often meant
            first = False
            scale = self.peek()
            if isinstance(scale, str) and scale in _BIG:
                size = _BIG[scale]
                if limit is not None and size >= limit:
                    return None
                total += chunk * size
                limit = size
                self.i += 1
                continue
            return total + chunk

    def chunk(self) -> Decimal | None:
        """A number below a thousand ("nine hundred and fifty"; "fifteen hundred" too)."""
        word = self.peek()
        if isinstance(word, int | float) and not isinstance(word, bool):
            nxt = self.peek(1)
            if nxt == "hundred" and isinstance(word, int) and 1 <= word <= 99:
                self.i += 2
                return Decimal(word * 100)
            if isinstance(nxt, str) and nxt in _BIG:
                self.i += 1
                return Decimal(repr(word)) if isinstance(word, float) else Decimal(word)
            return None
        if word == "a" and (self.peek(1) == "hundred" or self.peek(1) in _BIG):
            value = 1
            self.i += 1
        else:
            below = self.below_hundred()
            if below is None:
                return None
            value = below
        if self.peek() == "hundred":
            self.i += 1
            value *= 100
            save = self.i
            if self.peek() == "and" and self.peek(1) not in ("a", "half"):
                self.i += 1
            rest = self.below_hundred()
            if rest is None:
                self.i = save
            else:
                value += rest
        return Decimal(value)

    def below_hundred(self) -> int | None:
        word = self.peek()
        if not isinstance(word, str):
            return None
        if word in EN_TENS:
            self.i += 1
            nxt = self.peek()
            if isinstance(nxt, str) and nxt in _ONES:
                self.i += 1
                return EN_TENS[word] + _ONES[nxt]
            return EN_TENS[word]
        if word in _ONES or word in _TEENS:
            self.i += 1
            return _ONES.get(word) or _TEENS[word]
        return None


# -- Chinese numerals --------------------------------------------------------------------------

_SMALL_UNITS = {c: v for c, v in ZH_UNITS.items() if v < 10_000}
_BIG_UNITS = (("亿", 100_000_000), ("万", 10_000))


def chinese(numeral: str) -> Number | None:
    """The value of a Chinese numeral, or None if it is not one well-formed number.

    一千五 1500, 一百零五 105, 两万三 23000, 一万二千 12000, 十五 15, 三点五 3.5, and digit
    strings read digit by digit (一五零零 1500). Not: 三四百 ("three or four hundred"), 一千一千,
    五百零, 点五.
    """
    whole, dot, frac = numeral.partition("点")
    if not whole or (dot and (not frac or any(c not in ZH_DIGITS or c == "两" for c in frac))):
        return None
    value = _zh_integer(whole)
    if value is None:
        return None
    if not dot:
        return value
    return _of_decimal(Decimal(f"{value}." + "".join(str(ZH_DIGITS[c]) for c in frac)))


def _zh_integer(s: str) -> int | None:
    if all(c in ZH_DIGITS for c in s):
        if len(s) == 1:
            return ZH_DIGITS[s]
        if "两" in s:
            return None  # 两 counts things; it is not read out in a string of digits
        return int("".join(str(ZH_DIGITS[c]) for c in s))
    return _zh_big(s, _BIG_UNITS)


def _zh_big(s: str, bigs: tuple[tuple[str, int], ...]) -> int | None:
    if not bigs:
        return _zh_section(s)
    (char, unit), lower = bigs[0], bigs[1:]
    if s.count(char) > 1:
        return None
    if char not in s:
        return _zh_big(s, lower)
    head, _, tail = s.partition(char)
    multiple = _zh_big(head, lower) if head else None
    if not multiple:
        return None
    if not tail:
        rest = 0
    elif tail[0] in "零〇":
        rest_or_none = _zh_big(tail[1:], lower) if len(tail) > 1 else None
        if rest_or_none is None or rest_or_none >= unit // 10:
            return None  # 零 stands for a skipped place: 一万零五百, not 一万零五千
        rest = rest_or_none
    elif len(tail) == 1 and tail in ZH_DIGITS and tail not in "零〇":
        rest = ZH_DIGITS[tail] * unit // 10  # 两万三: 23000
    else:
        rest_or_none = _zh_big(tail, lower)
        if rest_or_none is None or rest_or_none < unit // 10:
            return None  # 一万二百 leaves out the 零 that says which place 二百 is in
        rest = rest_or_none
    return multiple * unit + rest


def _zh_section(s: str) -> int | None:
    """A number below ten thousand with 千, 百, 十."""
    if not s:
        return None
    i, value, last, zero = 0, 0, 10_000, False
    if s[0] == "十":  # 十, 十五
        i, value, last = 1, 10, 10
    while i < len(s):
        ch = s[i]
        if ch in "零〇":
            if zero or value == 0 or i == len(s) - 1:
                return None  # doubled, leading or trailing 零
            zero = True
            i += 1
            continue
        if ch not in ZH_DIGITS:
            return None
        digit = ZH_DIGITS[ch]
        i += 1
        if i < len(s) and s[i] in _SMALL_UNITS:
            unit = _SMALL_UNITS[s[i]]
            i += 1
            if unit >= last or (zero and unit * 10 >= last) or \
                    (not zero and last != 10_000 and unit * 10 != last) or \
                    (ch == "两" and unit == 10):
                return None
            value += digit * unit
            last, zero = unit, False
            continue
        if i != len(s) or (ch == "两" and last != 10_000):
            return None  # 三四百; 两 after a unit
        if zero:
            if last < 100:
                return None
            value += digit
        elif last == 10_000:
            value = digit
        elif last == 10:
            value += digit
        else:
            value += digit * last // 10  # 一千五: 1500
    return value
