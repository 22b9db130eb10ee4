"""Which words of a command a point explains, and how well.

A command's *terms* are its words that say which point is meant: not stop words, verbs, question
words, values, fillers or plural marks (numbers and letters that name things are ids, read apart).
A point explains a term by its own name (best), a concept they share ("how hot" and
"temperature", "温度" and "temperature"), its unit or the quantity the unit measures ("NTU",
"rpm"), a word of its description, id or device, or another form of one of those words
("filtration", "filtered"). A term may first be taken for the plant word it is one slip away
from ("turbidty"). The rules place a command only when one point explains every term exactly;
the semantic stage ranks points by how much of the command they explain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hermesd.router.meaning import Sense
from hermesd.router.normalize import YES_NO_MARK, Token
from hermesd.router.profiles import Profile, Profiles, stems_match
from hermesd.router.vocabulary import (
    BOOL_STATES,
    CHANGE_WORDS,
    FILLERS,
    GREETINGS,
    MOTION_AT,
    OFF_WORDS,
    ON_WORDS,
    PLURAL_MARKS,
    STOP,
    SUMMARY_WORDS,
    THANKS,
    UNIT_WORDS,
    WH_START,
    WRITE_VERBS,
    YES_NO_START,
)

#: how well a point explains a command's word, by how
EXACT, CONCEPT, UNIT_QUANTITY, FORM, TEXT, TEXT_FORM = 1.0, 0.9, 0.8, 0.8, 0.7, 0.6
TYPO = 0.9  # a corrected word explains a little less than one written right
_NOT_TERMS = (WRITE_VERBS | ON_WORDS | OFF_WORDS | CHANGE_WORDS | YES_NO_START | WH_START
              | GREETINGS | THANKS | FILLERS | PLURAL_MARKS | SUMMARY_WORDS | STOP
              | {YES_NO_MARK, "?fix", "?not", ""})


@dataclass(frozen=True, slots=True)
class Term:
    """A word of a command that says which point is meant."""

    index: int  # its token's place in the command
    raw: str  # as written (a Chinese word: its English word)
    shown: str  # as the person wrote it
    word: str  # canonical, after a typo fix
    #: every word a Chinese word stands for ("给水": feed, water): any of them explains it
    alts: tuple[str, ...]
    concepts: frozenset[str]
    kinds: frozenset[str]
    unit: str  # a unit's symbol
    corrected: bool  # `word` is the plant word this one is a slip of
    weight: float  # how much naming it tells points apart


def terms(toks: list[Token], profiles: Profiles, *, spell: bool = True) -> list[Term]:
    """The terms of a command's tokens."""
    senses = profiles.lexicon.senses(toks)
    out: list[Term] = []
    for i, t in enumerate(toks):
        if t.zh and t.written and out and out[-1].index == i - 1 and \
                toks[i - 1].written == t.written:  # one Chinese word, several English words
            last = out[-1]
            out[-1] = Term(last.index, last.raw, last.shown, last.word, (*last.alts, t.text),
                           last.concepts | {s.concept for s in senses[i]},
                           last.kinds | {s.kind for s in senses[i]}, last.unit, last.corrected,
                           min(last.weight, profiles.weight(t.text)))
            continue
        if t.is_id or t.unreadable or (not t.unit and (
                t.raw in _NOT_TERMS or t.text in _NOT_TERMS or t.raw in UNIT_WORDS)):
            continue
        if t.raw in MOTION_AT and i + 1 < len(toks) and toks[i + 1].raw == "at":
            continue
        word, corrected = t.text, False
        if spell and not t.zh and not t.unit and word not in profiles.plant_words \
                and not senses[i]:
            fixed = profiles.speller.correct(word)
            if fixed is not None:
                word, corrected = fixed, True
        found: set[Sense] = set(senses[i])
        if corrected:
            found |= profiles.lexicon.senses([Token(word, word)])[0]
        out.append(Term(i, t.raw, t.shown, word, (word,), frozenset(s.concept for s in found),
                        frozenset(s.kind for s in found), t.unit, corrected,
                        profiles.weight(word)))
    return out


def explain(term: Term, p: Profile, *, exact: bool = False) -> float:
    """How well point `p` explains one term (0: not at all). `exact`: by its own words and
    unit only, as the rules require."""
    if len(term.alts) > 1:
        return max(_explain(replace(term, word=w, alts=(w,)), p, exact=exact)
                   for w in term.alts)
    return _explain(term, p, exact=exact)


def _explain(term: Term, p: Profile, *, exact: bool) -> float:
    if term.word in p.names or (term.unit and term.unit == p.unit):
        strength = EXACT
    elif term.word in p.words:
        strength = TEXT
    elif term.word in BOOL_STATES and p.point.kind == "bool":
        strength = CONCEPT  # "is the fan running": what an on/off point says
    elif exact:
        return 0.0
    elif term.concepts & p.concepts:
        strength = UNIT_QUANTITY if term.unit else CONCEPT
    elif any(stems_match(term.word, w) for w in p.names):
        strength = FORM
    elif any(stems_match(term.word, w) for w in p.words):
        strength = TEXT_FORM
    else:
        return 0.0
    return strength * (TYPO if term.corrected else 1.0)
