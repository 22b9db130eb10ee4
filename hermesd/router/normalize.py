"""Normalisation of command text into tokens the rule router can match.

Lower case, punctuation dropped, "#3"/"no. 3"/"three" made "3", letters and digits split
("boiler3" -> "boiler 3"), plural "s" stripped, and common plant words mapped to one canonical
word ("temp", "hot", "warm" -> "temperature"). Pure functions; no knowledge of any plant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "first": 1, "second": 2,
    "third": 3, "fourth": 4, "fifth": 5,
}

#: words people use for the same quantity or thing; mapped to one canonical token
SYNONYMS = {
    "temp": "temperature", "temps": "temperature", "hot": "temperature",
    "warm": "temperature", "cold": "temperature", "heat": "temperature",
    "degree": "temperature", "degrees": "temperature",
    "full": "level", "empty": "level",
    "fast": "speed", "slow": "speed", "rpm": "speed",
    "many": "count", "counter": "count", "number": "count", "total": "count",
    "heavy": "weight", "weigh": "weight", "weighs": "weight", "weighing": "weight",
    "outside": "outdoor", "outdoors": "outdoor", "exterior": "outdoor",
    "press": "pressure", "pres": "pressure",
    "lamp": "light", "lights": "light",
}

#: words that carry no meaning for matching a point
STOP = frozenset("""
    a an the of in on at to for from by with is are was be been it its this that there
    what whats what's how much which who me my our please could would you can tell show give
    get read check current currently right now value reading status state there's does do
    i we us just kindly
""".split())

_TOKEN = re.compile(r"-?\d+(?:\.\d+)?|[^\W\d_]+", re.UNICODE)
_SPLIT_ALNUM = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # canonical form
    raw: str  # as written (lower case)
    number: float | None = None  # the value of a numeric token

    @property
    def is_number(self) -> bool:
        return self.number is not None


def tokens(text: str) -> list[Token]:
    """The canonical tokens of a command or a label."""
    text = text.casefold().replace("’", "'")
    text = re.sub(r"#\s*(\d)", r" \1", text)  # "#3" -> "3"
    text = re.sub(r"\bno\.\s*(\d)", r" \1", text)  # "no. 3" -> "3"
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # "1,000" -> "1000"
    text = _SPLIT_ALNUM.sub(" ", text)
    out: list[Token] = []
    for match in _TOKEN.finditer(text):
        raw = match.group(0)
        if raw[0].isdigit() or (raw[0] == "-" and len(raw) > 1):
            number = float(raw)
            out.append(Token(_num_text(number), raw, number))
            continue
        if raw in NUMBER_WORDS:
            number = float(NUMBER_WORDS[raw])
            out.append(Token(_num_text(number), raw, number))
            continue
        out.append(Token(canonical(raw), raw))
    return out


def canonical(word: str) -> str:
    word = SYNONYMS.get(word, word)
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
        word = SYNONYMS.get(word, word)
    return word


def _num_text(number: float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"


def content(toks: list[Token]) -> list[Token]:
    """Tokens that can name a point (stop words dropped)."""
    return [t for t in toks if t.is_number or (t.raw not in STOP and t.text not in STOP)]
