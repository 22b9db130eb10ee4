"""Which of a point's choices a command names, by the words of any of its names.

A choice is named when all its content words are among the command's words. When a named
choice's words are part of a longer named choice said as one phrase, in its own order ("set the
booth mode to flash off" names `flash_off`, and `off` within it), only the longer one is meant.
Otherwise two named choices stay two ("turn off the flash" could be `off` or `flash_off`), and
the caller refuses them.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermesd.config.model import Point
from hermesd.router.normalize import Token, content, tokens
from hermesd.value_maps import spellings


def named_choices(point: Point, said: Sequence[Token]) -> set[str]:
    """The choices of `point` that the command's tokens `said` (in order) name, a choice said
    within a longer one's phrase left out."""
    heard = {t.text for t in said}
    words = [t.text for t in content(list(said))]
    named: list[tuple[str, tuple[str, ...]]] = []
    for choice, spelled in spellings(point):
        phrase = tuple(t.text for t in content(tokens(spelled)))
        if phrase and set(phrase) <= heard:
            named.append((choice, phrase))
    return {choice for choice, phrase in named
            if not any(set(phrase) < set(longer) and _said_as_phrase(longer, words)
                       for _, longer in named)}


def _said_as_phrase(phrase: tuple[str, ...], words: list[str]) -> bool:
    n = len(phrase)
    return any(tuple(words[i:i + n]) == phrase for i in range(len(words) - n + 1))
