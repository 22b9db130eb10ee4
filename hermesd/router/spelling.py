"""Typos: an unknown word taken for a known one only when it is one slip away from exactly one.

"turbidty" -> "turbidity", "salinty" -> "salinity", "temprature" -> "temperature",
"conveyer" -> "conveyor". A slip is one letter left out, added, changed, or two neighbours
swapped (Damerau–Levenshtein, restricted); words of `LONG` letters or more may have two. Words
shorter than `SHORT` letters are never corrected ("tank" is not "task"), and a word two known
words are equally near to is left alone: a guess between two is no correction. Pure functions
and a small index; no knowledge of any plant (the caller gives the words it knows).
"""

from __future__ import annotations

from collections.abc import Iterable

SHORT = 5  # words shorter than this are never corrected
LONG = 9  # words this long may be two slips away


def distance(a: str, b: str, limit: int) -> int:
    """The restricted Damerau–Levenshtein distance of a and b, or limit + 1 when it exceeds
    `limit` (computed only as far as needed)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        best = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, prev2[j - 2] + 1)
            cur[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


#: British and American spellings that are more than one slip apart ("sulphur", "sulfur";
#: "programme", "program"); those one slip apart ("colour", "metre") are slips already
_TWINS = (("ph", "f"), ("f", "ph"))
_TWIN_ENDINGS = (("mme", "m"), ("m", "mme"), ("isation", "ization"), ("ization", "isation"),
                 ("yse", "yze"), ("yze", "yse"), ("ogue", "og"), ("og", "ogue"))


def twin_spellings(word: str) -> set[str]:
    """The word as the other side of the Atlantic would spell it, in the ways above."""
    out = {word.replace(a, b) for a, b in _TWINS if a in word}
    out |= {word[: -len(a)] + b for a, b in _TWIN_ENDINGS if word.endswith(a)}
    return out - {word}


class Speller:
    """The known words, indexed by length and first letter for a quick bounded search."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(w for w in words if w.isalpha() and w.isascii())
        self._by_start: dict[str, list[str]] = {}
        for word in sorted(self.words):
            if len(word) >= SHORT - 1:
                self._by_start.setdefault(word[0], []).append(word)

    def correct(self, word: str) -> str | None:
        """The one known word `word` is a slip of, or None (known already, too short, too far,
        or as near to two)."""
        if word in self.words or len(word) < SHORT or not word.isalpha() or not word.isascii():
            return None
        twins = {t for t in twin_spellings(word) if t in self.words}
        if len(twins) == 1:  # "sulphur" of a plant that writes "sulfur": no slip, a spelling
            return twins.pop()
        limit = 2 if len(word) >= LONG else 1
        found: dict[int, list[str]] = {}
        # a slip in the first letter is rare in typing and speech transcripts alike
        for known in self._by_start.get(word[0], ()):
            d = distance(word, known, limit)
            if d <= limit:
                found.setdefault(d, []).append(known)
        if not found:
            return None
        nearest = found[min(found)]
        return nearest[0] if len(nearest) == 1 else None
