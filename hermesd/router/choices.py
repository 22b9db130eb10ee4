"""Which of a point's choices a command names, by the words of any of its names.

A choice is named when all its content words are among the command's words, leaving out the
words that name the point when one of its names is said in full ("set the booth flash to off"
names `off`, not `flash off`). When a named choice's words are part of a longer named choice
said as one phrase ("set the booth mode to flash off" names `flash_off`, and `off` within it),
only the longer one is meant — if the shorter one's words are said nowhere else. A phrase is
said as the name is spelled, word after word, with no other word (not even "to": "from flash
to off" asks for `off`), no comma between, and no word that names the point ("turn the booth
flash off" is the booth flash turned off, not set to `flash off`). Otherwise two named choices
stay two ("turn off the flash" could be `off` or `flash_off`; "off, flash off" says both), and
the caller refuses them.

When no choice is named in words, one is named in meaning: all of a choice's words are forms of
the plant lexicon, and each of them names a concept the command names too, besides the
concepts of the point's own names ("生产线切换到清洗模式" names `cleaning`: 清洗 and "cleaning" are
both the CIP; "put the hoist in hand" names `manual`). A choice with a word the lexicon does not
know is named only in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from hermesd.config.model import Point
from hermesd.router.concepts import concepts_of_text
from hermesd.router.normalize import Token, content, preposition_on, tokens
from hermesd.router.vocabulary import (
    OFF_WORDS,
    ON_WORDS,
    RUN_WORDS,
    STOP,
    SYNONYMS,
    WRITE_VERBS,
)
from hermesd.value_maps import spellings


def named_choices(point: Point, said: Sequence[Token], text: str = "", *,
                  valued: bool = False) -> set[str]:
    """The choices of `point` that the command's tokens `said` (in order) name, a choice said
    only within a longer one's phrase left out; if none, those its `text` names in meaning.
    `valued`: `said` is the part of a command that says the value (after its "to")."""
    said = list(said)
    naming, in_full = _naming(point, said)
    # words of its names said together, before any word that says the value ("to", "in"),
    # name the thing: "start the standby generator" is no `standby`, nor "start the main
    # chiller" a `maintenance` (atk21, NAMECH); one said alone may be the value ("put the
    # withering on hot air" of the "Withering air mode")
    mark = -1 if valued else next((i for i, t in enumerate(said) if t.text in _VALUE_MARKS
                                   and (t.text != "on" or preposition_on(said, i))), len(said))
    places = [i for i, t in enumerate(said) if t.text not in _ARTICLES]
    # (one other word may come between, "the standby diesel generator", but no word of a
    # choice: "the withering hot air" of the "Withering air mode" names `hot air`)
    chosen = {_word(t) for _, spelled in spellings(point) for t in content(tokens(spelled))}
    together = {i for k, i in enumerate(places) if i in naming and any(
        places[j] in naming and (abs(j - k) == 1 or
                                 _word(said[places[(j + k) // 2]]) not in chosen)
        for j in (k - 2, k - 1, k + 1, k + 2) if 0 <= j < len(places))}
    if mark == len(said) and any(t.text in _STARTING | ON_WORDS for t in said):
        together = set(naming)  # "start the standby gen set": no value said, only a start
    # two words of a name said after the mark as the name has them are a place, not a value:
    # "run the pump in the wash bay" is no `washing` of the "Wash bay pump mode" (atk26r)
    pairs = _name_pairs(point)
    placed = {i for i in naming if i > mark and any(
        (j in naming and (said[min(i, j)].text, said[max(i, j)].text) in pairs)
        for j in (i - 1, i + 1))}
    heard = {w for i, t in enumerate(said)
             if i not in naming or (not in_full and i not in placed
                                    and (i > mark or i not in together))
             for w in (t.text, _word(t))}
    named: list[tuple[str, frozenset[str], tuple[str, ...]]] = []
    for choice, spelled in spellings(point):
        words = tokens(spelled)
        needed = frozenset(_word(t) for t in content(words))
        if needed and needed <= heard:
            named.append((choice, needed, tuple(t.text for t in words)))
    out: set[str] = set()
    for choice, needed, _ in named:
        within: set[int] = set()  # where a longer choice that holds these words is said
        for _, longer, phrase in named:
            if needed < longer:
                within |= said_at(phrase, said, naming)
        if not within or any(t.text in needed and i not in within and i not in naming
                             for i, t in enumerate(said)):
            out.add(choice)
    return out or _named_in_form(point, heard) or (
        _named_in_meaning(point, text) if text else out)


#: words after which a command says the value: "set the booth to flash off", "put it in hand"
_VALUE_MARKS = frozenset("to into in on onto at as =".split())
#: the words after which a choice is said as a value ("put the lock in auto")
CHOICE_MARKS = _VALUE_MARKS - {"as", "="}
_ARTICLES = frozenset(("the", "a", "an"))
#: verbs that start or stop a thing, which set no choice named by a word of its own name
_STARTING = frozenset("start restart stop run shut kill".split())


def _word(t: Token) -> str:
    """A choice's word as said: its own word where the vocabulary folds it into another
    ("cool" and "heat", both a temperature, are two choices of a heat pump's mode)."""
    return t.raw if t.raw in SYNONYMS and not t.zh else t.text


def _named_in_form(point: Point, heard: set[str]) -> set[str]:
    """The one one-word choice said in another form of its word ("hold" of "holding",
    "vent" of "venting", "ripened" of "ripen"); none if two are. (Not an on/off word: "stop
    the kiln" is no "stopped".)"""
    heard = heard - ON_WORDS - OFF_WORDS - RUN_WORDS
    found = set()
    for choice, spelled in spellings(point):
        words = content(tokens(spelled))
        if len(words) == 1 and any(said_in_form(w, words[0].text) for w in heard):
            found.add(choice)
    return found if len(found) == 1 else set()


def said_in_form(word: str, choice: str) -> bool:
    """Whether `word` is a one-word choice said in another form: of its verb ("hold" of
    "holding") or cut short as a faceplate writes it ("auto" of "automatic", "man" of
    "manual"; never a word of the sentence: "the" of "thermal", "set" of "setback")."""
    return word != choice and word.isalpha() and (
        word in verb_forms(choice) or (len(word) >= 3 and choice.startswith(word)
                                   and word not in STOP and word not in WRITE_VERBS))


def verb_forms(word: str) -> set[str]:
    """A verb's word and its -ing and -ed forms, either way round ("hold", "holding")."""
    if not word.isalpha() or len(word) < 3:
        return set()
    for end in ("ing", "ed"):
        root = word[:-len(end)]
        if word.endswith(end) and len(root) >= 3:
            return {root, root + "e"} | ({root[:-1]} if root[-1] == root[-2] else set())
    stem = word[:-1] if word.endswith("e") else word
    return {f"{form}{end}" for form in (stem, word + word[-1]) for end in ("ing", "ed")}


def _named_in_meaning(point: Point, text: str) -> set[str]:
    """The choices whose every word is a lexicon form of a concept `text` names, leaving out
    the concepts that name the point."""
    names = _names(point)
    # (of each word too: "standby" of the "Standby generator mode", which the lexicon reads
    # whole as a generator, is no choice of "turn on the standby diesel generator")
    own = {m.concept.id for text in (*names, *(w for n in names for w in n.split()))
           for m in concepts_of_text(text)}
    said = {m.concept.id for m in concepts_of_text(text)} - own
    out: set[str] = set()
    for choice, spelled in spellings(point):
        found = concepts_of_text(spelled)
        if not found:
            continue
        spans: dict[tuple[int, int], set[str]] = {}
        for m in found:
            spans.setdefault(m.span, set()).add(m.concept.id)
        rest = list(spelled)
        for a, b in spans:
            rest[a:b] = " " * (b - a)
        if content(tokens("".join(rest))):
            continue  # a word of the choice the lexicon does not know
        if all(ids & said for ids in spans.values()):
            out.add(choice)
    return out


def _names(point: Point) -> list[str]:
    return [n for n in (point.name, point.id.replace("_", " "), *point.aliases,
                        *point.names.values()) if n]


def _name_pairs(point: Point) -> set[tuple[str, str]]:
    """The words its names say one right after the other ("wash bay" of "Wash bay pump"),
    but for those a choice says so too ("hot water" of the "Hot water boiler mode", whose
    choices hold "hot water": said after "to", the choice — atk28)."""
    pairs: set[tuple[str, str]] = set()
    for name in _names(point):
        pairs.update(pairwise([t.text for t in content(tokens(name))]))
    for _, spelled in spellings(point):
        pairs.difference_update(pairwise([t.text for t in content(tokens(spelled))]))
    return pairs


def _naming(point: Point, said: list[Token]) -> tuple[set[int], bool]:
    """The positions of the words that name the point, and whether a name is said in full
    (else every word of its names is taken as naming it, wherever it stands)."""
    names = _names(point)
    at: set[int] = set()
    for name in names:
        at |= said_at(tuple(t.text for t in tokens(name)), said, set())
    if at:
        return at, True
    words = {t.text for name in names for t in content(tokens(name))}
    return {i for i, t in enumerate(said) if t.text in words}, False


def said_at(phrase: tuple[str, ...], said: list[Token], apart: set[int]) -> set[int]:
    """The positions of the tokens that say `phrase` word for word, without a break and
    without any position in `apart`."""
    n = len(phrase)
    at: set[int] = set()
    if not n:
        return at
    for i in range(len(said) - n + 1):
        span = range(i, i + n)
        if all(said[i + k].text == phrase[k] for k in range(n)) and \
                not any(said[i + k].after_break for k in range(1, n)) and \
                not any(j in apart for j in span):
            at.update(span)
    return at
