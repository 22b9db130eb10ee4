"""Ways to say a value, generated: the words a person types or speaks for one number, and the
hostile ways that name none, several or an unreadable one.

`values()` draws a value with the decimal text of it; `said(value, text, zh)` one way to say it
that names it unambiguously (digits, grouped digits, full-width digits, English number words,
Chinese numerals and digit strings such as 一五零零); `hostile()` a way to say a value that must
place no write, with the words an answer must name and the problem it must report (`several`,
`correction`, `unreadable`). Shared by tests/hostile/test_command_values.py (generated plants)
and the soak's hostile mix (the dev plant's own points, tests/support/soak/hostile_inputs.py).
"""

from __future__ import annotations

import re
from decimal import Decimal

from hypothesis import assume
from hypothesis import strategies as st

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ZH = "零一二三四五六七八九"
FULL_WIDTH = str.maketrans("0123456789.-", "０１２３４５６７８９．－")


def en_below_hundred(n: int, hyphen: bool) -> str:
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + ("" if not ones else ("-" if hyphen else " ") + ONES[ones])


def en_below_thousand(n: int, hyphen: bool, and_: bool) -> str:
    hundreds, rest = divmod(n, 100)
    parts = [f"{ONES[hundreds]} hundred"] if hundreds else []
    if rest:
        parts += (["and"] if hundreds and and_ else []) + [en_below_hundred(rest, hyphen)]
    return " ".join(parts)


def english_words(n: int, hyphen: bool, and_: bool) -> str:
    if n == 0:
        return "zero"
    parts = []
    for size, name in ((10**6, "million"), (1000, "thousand")):
        big, n = divmod(n, size)
        if big:
            parts.append(f"{en_below_thousand(big, hyphen, and_)} {name}")
    if n:
        parts.append(en_below_thousand(n, hyphen, and_))
    return " ".join(parts)


def zh_section(n: int, two: bool, leading: bool = True) -> str:
    """A number below 10000 in standard Chinese (一千零五, 一百一十, 十五)."""
    out, zero = "", False
    for unit, char in ((1000, "千"), (100, "百"), (10, "十")):
        digit, n = divmod(n, unit)
        if digit:
            if zero:
                out += "零"
            if not (unit == 10 and digit == 1 and leading and not out):
                out += "两" if two and digit == 2 and unit >= 100 else ZH[digit]
            out += char
            zero = False
        elif out:
            zero = True
    if n:
        out += ("零" if zero else "") + ZH[n]
    return out or "零"


def zh_number(n: int, two: bool) -> str:
    if n < 10_000:
        return zh_section(n, two)
    wan, rest = divmod(n, 10_000)
    tail = "" if not rest else ("零" if rest < 1000 else "") + zh_section(rest, two, False)
    return zh_section(wan, two) + "万" + tail


@st.composite
def values(draw: st.DrawFn) -> tuple[int | float, str]:
    """A value, and a decimal text of it (as a person would type it)."""
    whole = draw(st.one_of(st.integers(0, 99), st.integers(100, 9999), st.integers(0, 10**7)))
    places = draw(st.sampled_from([0, 0, 0, 1, 2]))
    frac = draw(st.integers(0, 10**places - 1)) if places else 0
    sign = -1 if draw(st.integers(0, 4)) == 0 and (whole or frac) else 1
    if places and frac:
        text = f"{whole}.{frac:0{places}d}".rstrip("0")
        value: int | float = sign * float(Decimal(text))
    else:
        text, value = str(whole), sign * whole
    return value, ("-" if sign < 0 else "") + text


@st.composite
def said(draw: st.DrawFn, value: int | float, text: str, zh: bool) -> str:
    """One way to say `value` that names it unambiguously."""
    negative = text.startswith("-")
    digits = text.lstrip("-")
    whole, _, frac = digits.partition(".")
    n = int(whole)
    forms = ["digits", "full width"]
    if n >= 1000 and not zh:
        forms += ["commas", "spaces"]
    if zh:
        forms += ["chinese"] + (["digit string"] if not frac and n >= 10 and not negative else [])
    elif not negative or draw(st.booleans()):
        forms += ["english"]
    form = draw(st.sampled_from(forms))
    if form == "full width":
        return text.translate(FULL_WIDTH)
    if form in ("commas", "spaces"):
        grouped = f"{n:,}" if form == "commas" else f"{n:,}".replace(",", " ")
        return ("-" if negative else "") + grouped + (f".{frac}" if frac else "")
    if form == "english":
        words = english_words(n, draw(st.booleans()), draw(st.booleans()))
        if frac == "5" and n:
            words += " and a half"
        elif frac:
            words += " point " + " ".join(ONES[int(d)] for d in frac)
        return ("minus " if negative else "") + words
    if form == "chinese":
        numeral = zh_number(n, draw(st.booleans()))
        if frac:
            numeral += "点" + "".join(ZH[int(d)] for d in frac)
        return (draw(st.sampled_from(["负", "零下"])) if negative else "") + numeral
    if form == "digit string":
        return "".join(ZH[int(d)] for d in whole)
    return text


#: hostile ways to say a value: (text, the words the answer must name)
@st.composite
def hostile(draw: st.DrawFn) -> tuple[str, list[str], str]:
    value, text = draw(values())
    other_value, other = draw(values())
    positive = text.lstrip("-")
    kind = draw(st.sampled_from([
        "two values", "correction", "exponent", "hex", "underscore", "other script",
        "minus zero", "sign", "words", "chinese words", "chinese correction"]))
    if kind == "two values":
        assume(value != other_value)
        joined = draw(st.sampled_from(["{a}, {b}", "{a} and {b}", "{a} then {b}", "{a} {b}"]))
        shown = joined.format(a=text, b=other)
        # "{a} {b}" may be one number written in groups ("1 600", "-1 100.5"): one value
        assume(not (joined == "{a} {b}" and re.fullmatch(r"-?[1-9][0-9]{0,2}", text)
                    and re.fullmatch(r"[0-9]{3}(?:\.[0-9]+)?", other)))
        return shown, [text, other], "several"
    if kind == "correction":
        mark = draw(st.sampled_from(["no wait", "I mean", "actually", "sorry", "make that",
                                     "or rather"]))
        return f"{text} rpm, {mark}, {other} rpm", [mark.casefold()], "correction"
    if kind == "exponent":
        shown = draw(st.sampled_from([f"{positive}e{draw(st.integers(0, 9))}",
                                      f"{positive}E{draw(st.integers(0, 9))}",
                                      f"{positive}e-{draw(st.integers(1, 9))}"]))
        return shown, [shown], "unreadable"
    if kind == "hex":
        shown = draw(st.sampled_from([f"0x{abs(int(value)):X}", f"0x{abs(int(value)):x}",
                                      f"0b{abs(int(value)):b}"]))
        return shown, [shown], "unreadable"
    if kind == "underscore":
        n = abs(int(value)) + 1000
        shown = f"{n:_}"
        return shown, [shown], "unreadable"
    if kind == "other script":
        script = draw(st.sampled_from([0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0x1D7CE]))
        shown = "".join(chr(script + int(d)) if d.isdigit() else d for d in positive)
        if draw(st.booleans()):
            shown = draw(st.sampled_from(["²", "³", "¹", "①", "⑳", "½", "Ⅻ", "₂"]))
        return shown, [shown], "unreadable"
    if kind == "minus zero":
        shown = draw(st.sampled_from(["-0", "-0.0", "-00", "minus zero", "−0"]))
        return shown, [shown], "unreadable"
    if kind == "sign":
        shown = draw(st.sampled_from([f"--{positive}", f"+-{positive}", f"- {positive}",
                                      f"{positive}-", f"+{positive}", f"±{positive}",
                                      f"minus minus {positive}"]))
        return shown, [shown], "unreadable"
    if kind == "chinese correction":
        mark = draw(st.sampled_from(["不对", "我是说", "错了", "应该是"]))
        return f"{text}，{mark}，{other}", [mark], "correction"
    if kind == "chinese words":
        shown = draw(st.sampled_from(["三四百", "一千一千", "五百零", "两个半", "负负五", "负零",
                                      "二千5", "5五", "零下负五", "一万二百"]))
        return shown, [shown], "unreadable"
    shown = draw(st.sampled_from(["five five", "twenty thirty", "one two three",
                                  "hundred hundred", "one thousand one thousand",
                                  "minus minus five", "a third", "two point fifteen"]))
    return shown, [shown], "unreadable"
