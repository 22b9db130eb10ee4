"""Typos: a word one slip from exactly one known word is taken for it; nothing else is."""

from __future__ import annotations

import pytest

from hermesd.router.spelling import Speller, distance

KNOWN = Speller(["turbidity", "salinity", "temperature", "conveyor", "pressure", "tank",
                 "task", "flow", "filter", "fitter", "level", "bevel"])


@pytest.mark.parametrize(("typed", "meant"), [
    ("turbidty", "turbidity"),  # a letter left out
    ("salinty", "salinity"),
    ("temprature", "temperature"),
    ("tempreature", "temperature"),  # two swapped: one slip
    ("temperture", "temperature"),
    ("conveyer", "conveyor"),  # a letter changed
    ("presure", "pressure"),
])
def test_a_slip_of_one_known_word_is_corrected(typed: str, meant: str) -> None:
    assert KNOWN.correct(typed) == meant


@pytest.mark.parametrize("typed", [
    "tanx",  # short words are never corrected ("tank" or "task"?)
    "filtter",  # as near to "filter" as to "fitter": no guess between two
    "turbulence",  # too far from anything
    "temperature",  # known already
    "温度",  # not a Latin word
])
def test_nothing_else_is_corrected(typed: str) -> None:
    assert KNOWN.correct(typed) is None


def test_distance_is_bounded_and_counts_a_swap_as_one() -> None:
    assert distance("abcd", "abdc", 2) == 1
    assert distance("kitten", "sitting", 5) == 3
    assert distance("short", "a much longer word", 2) == 3  # past the limit: limit + 1


@pytest.mark.parametrize(("typed", "known", "meant"), [
    ("sulphur", ["sulfur", "burner"], "sulfur"),  # two slips apart, one spelling
    ("sulfur", ["sulphur", "burner"], "sulphur"),
    ("sulphate", ["sulfate"], "sulfate"),
    ("programme", ["program"], "program"),
    ("catalogue", ["catalog"], "catalog"),
    ("analyse", ["analyze"], "analyze"),
])
def test_the_other_spelling_of_a_known_word_is_taken_for_it(
        typed: str, known: list[str], meant: str) -> None:
    assert Speller(known).correct(typed) == meant


def test_a_spelling_twin_unknown_to_the_plant_is_no_guess() -> None:
    assert Speller(["sulfuric", "pump"]).correct("sulphur") is None
