"""A written value in text must be a number as JSON writes it; nothing else is read as one."""

from __future__ import annotations

import pytest

from hermesd.config.model import Point
from hermesd.mqtt.requests import malformed_value

SPEED = Point(id="speed", device="d", driver="mqtt", name="Speed", kind="int", writable=True,
              min=0, max=3000)
LABEL = Point(id="label", device="d", driver="mqtt", name="Label", kind="string", writable=True)


@pytest.mark.parametrize("text", ["1000", "-0", "12.5", "1e3", "1E+3", "0.5", " 7 "])
def test_json_numbers_pass(text: str) -> None:
    assert malformed_value(SPEED, text) is None


@pytest.mark.parametrize("text", ["1_000", "١٢٣", "１２", "+5", ".5", "5.", "0012", "1e3_0"])
def test_what_a_number_parser_takes_but_json_does_not_write_is_refused(text: str) -> None:
    problem = malformed_value(SPEED, text)
    assert problem is not None and "not a number" in problem


@pytest.mark.parametrize("text", ["fast", "NaN", "inf", "0x5DD", "ON"])
def test_non_numbers_are_left_to_policy(text: str) -> None:
    assert malformed_value(SPEED, text) is None  # policy refuses them as OUT_OF_RANGE


def test_only_text_for_numeric_points_is_judged() -> None:
    assert malformed_value(SPEED, 1000) is None
    assert malformed_value(LABEL, "1_000") is None
