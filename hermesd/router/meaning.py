"""What the words of a command and of a point's text mean: the plant lexicon, token by token.

A concept is a meaning shared across synonyms and languages ("quantity.temperature" for "temp",
"how hot", "温度"); its kind says what it does: a `quantity` measured or set, a `thing`, a
`medium`, a `modifier` ("inlet", "raw"), the `role` of a value (setpoint), a `state`, an
`action`, a `unit`. The plant lexicon (`concepts`) finds them in text; this module gives each
token of a normalised command the senses of the lexicon matches it lies in, and a point's text
the concepts it names together with their broader ones (a point of "dry bulb temperature" is a
temperature). Units name the quantities they measure ("NTU": turbidity); a unit of many ("%")
names them all, weakly. Pure functions of their text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from hermesd.router import concepts
from hermesd.router.concepts import Match
from hermesd.router.normalize import Token, tokens

#: the media whose quantities a Chinese word says together (水温, 汽压) and a name apart
_COMPOUNDED = frozenset(("medium.water", "medium.steam"))
#: kinds whose links are broader concepts of the same kind (a unit's are its quantities, an
#: action's the state it brings about)
_BROADER = frozenset(("quantity", "thing", "medium", "role", "state", "modifier"))


@dataclass(frozen=True, slots=True)
class Sense:
    concept: str  # "quantity.temperature", "thing.pump", "role.setpoint"
    kind: str  # quantity | thing | medium | modifier | role | state | action | unit
    #: where the lexicon found it in the text (tokens of one match share it); None: not found
    #: as a phrase (a point's broader concepts)
    span: tuple[int, int] | None = None


class Lexicon(Protocol):
    """Where senses come from."""

    def senses(self, text: str, toks: Sequence[Token]) -> list[frozenset[Sense]]:
        """The senses of each token of `text` (tokens of a phrase share its senses)."""

    def concepts(self, text: str, measures: frozenset[str] = frozenset()) -> frozenset[Sense]:
        """The concepts a point's text names, with their broader ones; a word that is a form
        of several quantities is the ones of them the point's unit `measures`, if any is."""

    def broader(self, concepts: Iterable[str]) -> frozenset[str]:
        """These concepts and every broader one ("quantity.dry_bulb": a temperature)."""

    def unit(self, unit: str) -> tuple[frozenset[str], bool]:
        """The quantities a unit measures, and whether it is one (not a unit of many, "%")."""

    def words(self) -> frozenset[str]:
        """Every word of every form: what a typo may be corrected to."""

    def formulas(self) -> frozenset[str]:
        """The English forms written as letters and a number ("h2", "nh3", "pm10")."""


class PlantLexicon:
    """The shipped plant lexicon (`hermesd.router.lexicon`)."""

    def __init__(self, lexicon: concepts.Lexicon | None = None) -> None:
        self.lexicon = lexicon or concepts.lexicon()

    def senses(self, text: str, toks: Sequence[Token]) -> list[frozenset[Sense]]:
        out: list[set[Sense]] = [set() for _ in toks]
        raws = [t.raw for t in toks]
        for m in self.lexicon.concepts_of_text(text):
            piece = [t.raw for t in tokens(text[m.start:m.end])]
            sense = Sense(m.concept.id, m.kind, m.span)
            for at in _places(raws, piece):
                for k in range(at, at + len(piece)):
                    out[k].add(sense)
            if m.kind != "action":  # (a Chinese word read otherwise than alone: 设定 of
                # 设定是多少 is "setpoint", no "set")
                for k, t in enumerate(toks):
                    if t.zh and t.written == text[m.start:m.end] and t.raw not in piece:
                        out[k].add(sense)
        for k, t in enumerate(toks):
            if t.unit and not any(s.kind == "unit" for s in out[k]):
                out[k] |= self._unit_senses(t.raw)
        return [frozenset(s) for s in out]

    def _unit_senses(self, unit: str) -> set[Sense]:
        quantities, _ = self.unit(unit)
        return {Sense(q, "quantity") for q in quantities}

    def concepts(self, text: str, measures: frozenset[str] = frozenset()) -> frozenset[Sense]:
        every = self.lexicon.concepts_of_text(text)
        found = [m for m in every if m.kind not in ("action", "unit")]
        if measures:
            # a word that is a quantity or something else ("duty": a heat flow or the duty
            # pump; "start": a count of starts or the verb) is the other where the unit
            # measures no quantity of it ("LS04 duty start SP" in m: blind batch 35)
            other = {m.span for m in every if m.kind != "quantity"}
            found = [m for m in self._as_measured(found, measures)
                     if m.kind != "quantity" or m.span not in other
                     or self.broader((m.concept.id,)) & measures]
        return self._closure({Sense(m.concept.id, m.kind) for m in found}
                             | self._composed(text, found))

    def _composed(self, text: str, found: list[Match]) -> set[Sense]:
        """The quantities a Chinese word says of a medium that the text names apart, its
        quantity's word after the medium's with no thing between: a "Wash water temperature"
        is a water temperature (水温), a "HP steam header pressure" a steam pressure (汽压). Of
        water and steam only ("Cooling water pump motor temperature" is a motor's, no water
        temperature; nor is a fuel pressure the lube oil's: review atk60)."""
        more: set[Sense] = set()
        things = [(t.start, t.end) for t in found if t.kind == "thing"]
        for m in found:
            if m.kind != "medium":
                continue
            said = set(m.form.casefold().split())
            for q in found:
                if q.kind != "quantity" or q.start < m.end or any(
                        end > m.start and start < q.start for start, end in things):
                    continue  # ("Heating water flow temperature" is one; a pump's is not,
                    # nor a "Boiler water pump bearing temperature", review atk60b)
                held = self.broader((q.concept.id,))
                more |= {Sense(c, "quantity") for (word, quantity), c in self._compounds.items()
                         if word in said and quantity in held}
        return more

    @functools.cached_property
    def _compounds(self) -> dict[tuple[str, str], str]:
        """(medium's word, quantity) -> the quantity whose label says the two ("water
        temperature") and that is a narrower one of that quantity, for `_COMPOUNDED` media."""
        out: dict[tuple[str, str], str] = {}
        for c in self.lexicon.concepts.values():
            words = c.en.split()
            if c.kind != "quantity" or len(words) != 2:
                continue
            first, second = words
            if not any(m.concept.id in _COMPOUNDED and (m.start, m.end) == (0, len(first))
                       for m in self.lexicon.concepts_of_text(first)):
                continue
            for m in self.lexicon.concepts_of_text(second):
                if m.kind == "quantity" and m.concept.id != c.id and \
                        m.concept.id in self.broader((c.id,)):
                    out[(first, m.concept.id)] = c.id
        return out

    def _as_measured(self, found: list[Match], measures: frozenset[str]
                     ) -> list[Match]:
        """ "dP" is a dew point or a differential pressure; of a point in inH2O, the latter."""
        by_span: dict[tuple[int, int], list[Match]] = {}
        for m in found:
            if m.kind == "quantity":
                by_span.setdefault(m.span, []).append(m)
        dropped: set[int] = set()
        for same in by_span.values():
            if len(same) < 2:
                continue
            fits = [m for m in same if self.broader((m.concept.id,)) & measures]
            if fits:
                dropped |= {id(m) for m in same if m not in fits}
        return [m for m in found if id(m) not in dropped]

    def broader(self, concepts: Iterable[str]) -> frozenset[str]:
        found = {Sense(c, self.lexicon.concept(c).kind) for c in concepts
                 if c in self.lexicon.concepts}
        return frozenset(s.concept for s in self._closure(found))

    def _closure(self, found: set[Sense]) -> frozenset[Sense]:
        todo = list(found)
        while todo:
            sense = todo.pop()
            if sense.kind not in _BROADER:
                continue
            for ident in self.lexicon.concept(sense.concept).links:
                broader = Sense(ident, self.lexicon.concept(ident).kind)
                if broader not in found:
                    found.add(broader)
                    todo.append(broader)
        return frozenset(found)

    def unit(self, unit: str) -> tuple[frozenset[str], bool]:
        quantities = {q for u in self.lexicon.units(unit) for q in u.links}
        return frozenset(quantities), len(quantities) == 1

    def words(self) -> frozenset[str]:
        return self.lexicon.words()

    def formulas(self) -> frozenset[str]:
        return frozenset(f for c in self.lexicon.concepts.values() for f in c.en_forms
                         if re.fullmatch(r"[a-z]+\d+", f))


def _places(seq: list[str], piece: list[str]) -> list[int]:
    """Where `piece` occurs in `seq` (contiguous), left to right, not overlapping."""
    if not piece:
        return []
    out, i, n = [], 0, len(piece)
    while i + n <= len(seq):
        if seq[i:i + n] == piece:
            out.append(i)
            i += n
        else:
            i += 1
    return out
