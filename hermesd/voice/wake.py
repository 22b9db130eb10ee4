"""The wake phrase, checked on a transcript: is this addressed to us, and what is the command?

"Hermes, what is the boiler 3 temperature?" -> command "what is the boiler 3 temperature?".
The phrase may follow a filler word or two ("hey Hermes", "OK so Hermes") or close the sentence
("what's the tank level, Hermes?"). Words are compared loosely (accents dropped, similarity
of at least `MIN_SIMILARITY`), because a small speech model spells names as it hears them
("Hermes", "Hermès", "Hermies"). A phrase written in Chinese is looked for near the start of
the text without spaces. Nothing here acts; it only decides whether to listen.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

MIN_SIMILARITY = 0.75
MAX_LEADING_WORDS = 2  # "hey", "ok so": filler words allowed before the phrase
FILLERS = frozenset("hey hi hello ok okay so um uh er well yo please and oh".split())
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff]")
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)


@dataclass(frozen=True)
class WakeMatch:
    command: str  # the text without the wake phrase ("" when only the phrase was said)


def fold(word: str) -> str:
    """Lower case without accents: "Hermès" -> "hermes"."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _similar(a: str, b: str) -> bool:
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= MIN_SIMILARITY


def match_wake(text: str, phrase: str) -> WakeMatch | None:
    """The command after (or before) the wake phrase, or None when it was not said."""
    if _CJK.search(phrase):
        return _match_cjk(text, phrase)
    wanted = [fold(w) for w in _WORD.findall(phrase)]
    if not wanted:
        return WakeMatch(text.strip())
    words = list(_WORD.finditer(text))
    n = len(wanted)
    lead = 0  # how many filler words may come first
    while lead < min(MAX_LEADING_WORDS, len(words)) and fold(words[lead].group(0)) in FILLERS:
        lead += 1
    starts = [*range(min(lead + 1, len(words) - n + 1))]
    if len(words) - n > MAX_LEADING_WORDS:
        starts.append(len(words) - n)  # at the very end: "..., Hermes?"
    for start in starts:
        if start < 0:
            continue
        found = words[start:start + n]
        if all(_similar(fold(m.group(0)), w) for m, w in zip(found, wanted, strict=True)):
            before = text[:found[0].start()]
            after = text[found[-1].end():]
            if start <= lead:
                return WakeMatch(_clean(after))
            return WakeMatch(_clean(before))
    return None


def _match_cjk(text: str, phrase: str) -> WakeMatch | None:
    target = _PUNCT.sub("", phrase)
    squeezed = _PUNCT.sub("", text)
    at = squeezed.find(target)
    if at < 0 or at > 4:
        return None
    # map the position in the squeezed text back to the original text
    count, cut = 0, len(text)
    for i, ch in enumerate(text):
        if not _PUNCT.fullmatch(ch):
            count += 1
            if count == at + len(target):
                cut = i + 1
                break
    return WakeMatch(_clean(text[cut:]))


def _clean(command: str) -> str:
    """Drop the punctuation left around the cut: ", what is..." -> "what is..."."""
    return command.strip().strip(",.;:!?，。；：！？、 ").strip()
