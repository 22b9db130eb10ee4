"""Which of a point's choices a command names, by the words of any of its names.

A choice is named when all its content words are among the command's words. When a named
choice's words are part of a longer named choice said as one phrase ("set the booth mode to
flash off" names `flash_off`, and `off` within it), only the longer one is meant — if the
shorter one's words are said nowhere else. A phrase is said as the name is spelled, word after
word, with no other word (not even "to": "from flash to off" asks for `off`) and no comma
between. Otherwise two named choices stay two ("turn off the flash" could be `off` or
`flash_off`; "off, flash off" says both), and the caller refuses them.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermesd.config.model import Point
from hermesd.router.normalize import Token, content, tokens
from hermesd.value_maps import spellings


def named_choices(point: Point, said: Sequence[Token]) -> set[str]:
    """The choices of `point` that the command's tokens `said` (in order) name, a choice said
    only within a longer one's phrase left out."""
    said = list(said)
    heard = {t.text for t in said}
    named: list[tuple[str, frozenset[str], tuple[str, ...]]] = []
    for choice, spelled in spellings(point):
        words = tokens(spelled)
        needed = frozenset(t.text for t in content(words))
        if needed and needed <= heard:
            named.append((choice, needed, tuple(t.text for t in words)))
    out: set[str] = set()
    for choice, needed, _ in named:
        within: set[int] = set()  # where a longer choice that holds these words is said
        for _, longer, phrase in named:
            if needed < longer:
                within |= _said_at(phrase, said)
        if not within or any(t.text in needed and i not in within for i, t in enumerate(said)):
            out.add(choice)
    return out


def _said_at(phrase: tuple[str, ...], said: list[Token]) -> set[int]:
    """The positions of the tokens that say `phrase` word for word, without a break."""
    n = len(phrase)
    at: set[int] = set()
    for i in range(len(said) - n + 1):
        if all(said[i + k].text == phrase[k] for k in range(n)) and \
                not any(said[i + k].after_break for k in range(1, n)):
            at.update(range(i, i + n))
    return at
