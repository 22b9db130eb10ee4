"""What the words of a command and of a point's text mean: concepts, their kinds, and units.

A concept is a meaning shared across synonyms and languages ("temperature" for "temp", "how
hot", "温度"); its kind says what it does: a measured `quantity`, a `thing` or a `location`, the
`role` of a point (setpoint), a `state`, a `unit`. The senses of each token come from a
`Lexicon`; `VocabularyLexicon` is the small built-in one (vocabulary.py), which the plant lexicon
extends. Units are matched by symbol ("kilowatts" and "kW" are one unit) and by the quantity they
measure. Pure functions; nothing here depends on a config.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from hermesd.router.normalize import Token, unit_symbol
from hermesd.router.vocabulary import KINDS, UNIT_QUANTITIES


@dataclass(frozen=True, slots=True)
class Sense:
    concept: str  # "temperature", "pump", "setpoint"
    kind: str  # quantity | thing | location | role | state | unit | other


class Lexicon(Protocol):
    """Where senses come from."""

    def senses(self, toks: Sequence[Token]) -> list[frozenset[Sense]]:
        """The senses of each token of a normalised text (a phrase gives each of its tokens
        the sense of the whole)."""

    def unit_senses(self, unit: str) -> frozenset[Sense]:
        """What a point's unit says: the unit itself and the quantity it measures."""


class VocabularyLexicon:
    """The built-in vocabulary: a canonical word is its own concept, of the kind KINDS says."""

    def senses(self, toks: Sequence[Token]) -> list[frozenset[Sense]]:
        out = []
        for t in toks:
            kind = KINDS.get(t.text)
            senses = {Sense(t.text, kind)} if kind and not t.is_id else set()
            if t.unit:
                senses |= unit_senses(t.unit)
            out.append(frozenset(senses))
        return out

    def unit_senses(self, unit: str) -> frozenset[Sense]:
        symbol = unit_symbol(unit)
        return unit_senses(symbol) if symbol else frozenset()


def unit_senses(symbol: str) -> frozenset[Sense]:
    senses = {Sense(f"unit:{symbol}", "unit")}
    quantity = UNIT_QUANTITIES.get(symbol)
    if quantity is not None:
        senses.add(Sense(quantity, "quantity"))
    return frozenset(senses)
