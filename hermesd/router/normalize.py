"""Normalisation of command text (English or Chinese) into tokens the rule router can match.

Lower case, full-width forms folded, punctuation dropped; numbers in digits, English words
("fifteen hundred", "two point five") or Chinese numerals ("九百", "一千五") become one number
token; "#3", "no. 3", "number 3", "3号" and "第三" are ordinals placed after the thing they
number ("3号锅炉" -> "boiler 3"); letters and digits split ("boiler3" -> "boiler 3"); plural "s"
stripped; synonyms mapped to one canonical word ("temp", "hot" -> "temperature"); Chinese words
mapped to the English words of the bilingual vocabulary, so a Chinese command matches points
named in English. Pure functions; no knowledge of any plant.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from hermesd.router.vocabulary import (
    EN_ORDINALS,
    EN_SCALES,
    EN_TENS,
    EN_UNITS,
    MODIFIERS,
    STOP,
    SYNONYMS,
    THINGS,
    ZH_DIGITS,
    ZH_UNITS,
    ZH_WORDS,
)

YES_NO_MARK = "?yn"  # a Chinese yes/no question particle (吗, 是否, 有没有)
_STOP = STOP | {YES_NO_MARK}
_ZH_MAX = max(len(word) for word in ZH_WORDS)
_ZH_NUMERAL = set(ZH_DIGITS) | set(ZH_UNITS)
_NUMBER_WORDS = set(EN_UNITS) | set(EN_TENS) | set(EN_SCALES)

_PIECE = re.compile(
    r"(?P<cjk>[\u3400-\u4dbf\u4e00-\u9fff]+)"
    r"|(?P<num>-?\d+(?:\.\d+)?)"
    r"|(?P<word>[^\W\d_]+(?:'[^\W\d_]+)?)")
_SPLIT_ALNUM = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # canonical form
    raw: str  # as written (lower case); for Chinese, the English word it stands for
    number: float | None = None  # the value of a numeric token
    ident: bool = False  # a letter that names one of several things ("line A")
    zh: bool = False  # came from Chinese text

    @property
    def is_number(self) -> bool:
        return self.number is not None

    @property
    def is_id(self) -> bool:
        """A number or a letter: what tells boiler 3 from boiler 1, line A from line B."""
        return self.number is not None or self.ident


def tokens(text: str) -> list[Token]:
    """The canonical tokens of a command or a label."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    text = re.sub(r"#\s*(\d)", r" \1", text)  # "#3" -> "3"
    text = re.sub(r"\b(?:no|nr|number|num)\.?\s*(\d)", r" \1", text)  # "no. 3" -> "3"
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # "1,000" -> "1000"
    text = re.sub(r"(?<=[^\W_])-(?=\d)", " ", text)  # "boiler-3" is not minus 3
    text = re.sub(r"\bminus\s+(?=\d)", "-", text)
    text = _SPLIT_ALNUM.sub(" ", text)
    out: list[Token] = []
    for match in _PIECE.finditer(text):
        kind = match.lastgroup
        raw = match.group(0)
        if kind == "cjk":
            out.extend(_chinese(raw, out))
        elif kind == "num":
            out.append(_number(float(raw), raw))
        else:
            out.append(_word(raw, out))
    return _english_numbers(out)


def _word(raw: str, before: list[Token]) -> Token:
    prev = before[-1] if before else None
    if len(raw) == 1 and prev is not None and not prev.is_id and prev.raw not in _STOP \
            and raw not in ("i",):
        return Token(raw, raw, ident=True)  # "line a": a letter naming one of several
    return Token(canonical(raw), raw)


def _number(number: float, raw: str, *, zh: bool = False) -> Token:
    return Token(_num_text(number), raw, number, zh=zh)


def canonical(word: str) -> str:
    word = SYNONYMS.get(word, word)
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
        word = SYNONYMS.get(word, word)
    return word


def _num_text(number: float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"


def content(toks: list[Token]) -> list[Token]:
    """Tokens that can name a point (stop words dropped)."""
    return [t for t in toks if t.is_id or (t.raw not in _STOP and t.text not in _STOP)]


# -- English number words --------------------------------------------------------------------


def _english_numbers(toks: list[Token]) -> list[Token]:
    """Runs of number words become one number: "fifteen hundred" -> 1500, "two point five"."""
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.raw in EN_ORDINALS:
            out.append(_number(float(EN_ORDINALS[t.raw]), t.raw))
            i += 1
            continue
        if t.raw not in _NUMBER_WORDS:
            out.append(t)
            i += 1
            continue
        j = i
        while j < len(toks) and toks[j].raw in _NUMBER_WORDS:
            j += 1
        value = _en_value([toks[k].raw for k in range(i, j)])
        raw = " ".join(toks[k].raw for k in range(i, j))
        if j + 1 < len(toks) and toks[j].raw == "point" and toks[j + 1].raw in EN_UNITS:
            k = j + 1
            digits = ""
            while k < len(toks) and toks[k].raw in EN_UNITS and EN_UNITS[toks[k].raw] < 10:
                digits += str(EN_UNITS[toks[k].raw])
                k += 1
            if digits:
                value += float("0." + digits)
                j = k
        out.append(_number(value, raw))
        i = j
    return out


def _en_value(words: list[str]) -> float:
    total = 0
    current = 0
    for word in words:
        if word in EN_UNITS:
            current += EN_UNITS[word]
        elif word in EN_TENS:
            current += EN_TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        else:  # thousand
            total += max(current, 1) * 1000
            current = 0
    return float(total + current)


# -- Chinese ---------------------------------------------------------------------------------


def _chinese(run: str, before: list[Token]) -> list[Token]:
    """One run of Chinese characters: longest dictionary words, numerals, ordinals.

    An ordinal ("3号", "第三") waits for the thing it numbers and goes after it, as English
    says it: "1号给水泵" -> "feed water pump 1".
    """
    out: list[Token] = []
    pending: Token | None = None  # an ordinal waiting for the end of the thing it numbers
    i = 0
    if run.startswith("号") and before and before[-1].is_number:
        pending = before.pop()  # "3号", the digits written in ASCII
        i = 1
    while i < len(run):
        if run.startswith("百分之", i):  # "百分之五十": 50 (percent)
            i += 3
            continue
        ordinal = run[i] == "第"
        if ordinal:
            i += 1
        word_len = next((n for n in range(min(_ZH_MAX, len(run) - i), 0, -1)
                         if run[i:i + n] in ZH_WORDS), 0)
        num_len = _numeral_length(run, i)
        if num_len and num_len >= word_len:
            token = _number(_zh_value(run[i:i + num_len]), run[i:i + num_len], zh=True)
            i += num_len
            if i < len(run) and run[i] == "号":
                ordinal = True
                i += 1
            if pending is not None:
                out.append(pending)
                pending = None
            if ordinal:
                pending = token
            else:
                out.append(token)
            continue
        if word_len:
            english = ZH_WORDS[run[i:i + word_len]]
            i += word_len
            words = [Token(canonical(w), w, zh=True) for w in english.split()]
            if pending is not None and words and not all(w.raw in THINGS or w.raw in MODIFIERS
                                                         for w in words):
                out.append(pending)  # the thing ended: its number follows it
                pending = None
            out.extend(words)
            continue
        if pending is not None:
            out.append(pending)
            pending = None
        out.append(Token(run[i], run[i], zh=True))  # an unknown character matches itself
        i += 1
    if pending is not None:
        out.append(pending)
    return out


def _numeral_length(run: str, i: int) -> int:
    n = 0
    while i + n < len(run) and (run[i + n] in _ZH_NUMERAL or
                                (run[i + n] == "点" and n > 0 and i + n + 1 < len(run)
                                 and run[i + n + 1] in ZH_DIGITS)):
        n += 1
    return n


def _zh_value(numeral: str) -> float:
    """一千五 -> 1500, 一百零五 -> 105, 九百 -> 900, 二十 -> 20, 十五 -> 15, 三点五 -> 3.5."""
    whole, _, frac = numeral.partition("点")
    total = section = digit = 0
    unit_before = 0  # the unit written just before the current digit ("千" in "一千五")
    for ch in whole:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
            if ch in "零〇":
                unit_before = 0
            continue
        unit = ZH_UNITS[ch]
        if unit == 10000:
            total = (total + section + digit) * 10000
            section = digit = unit_before = 0
            continue
        section += (digit or (1 if unit == 10 else 0)) * unit
        digit = 0
        unit_before = unit
    if digit:
        # "一千五" is 1500: a digit right after 百/千 counts in the next lower unit
        section += digit * (unit_before // 10 if unit_before >= 100 else 1)
    value = float(total + section)
    if frac:
        value += float("0." + "".join(str(ZH_DIGITS.get(ch, 0)) for ch in frac))
    return value
