"""A thing an alias calls by another word ("MPT top oil" of "Main transformer top oil
temperature") may be called so in a command about any point named after that thing — and only
about those: the word names the thing, not every point near it."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, placed_without_model

POINTS: dict[str, Any] = {
    "kiln_shell_temp": {"name": "Rotary kiln shell temperature", "unit": "°C",
                        "aliases": ["RK shell temp"]},
    "kiln_drive_current": {"name": "Rotary kiln drive current", "unit": "A"},
    "kiln_inlet_o2": {"name": "Rotary kiln inlet oxygen", "unit": "%"},
    "cooler_fan_speed": {"name": "Clinker cooler fan speed", "unit": "rpm",
                         "aliases": ["grate fan speed"]},
    "cooler_grate_speed": {"name": "Clinker cooler grate speed", "unit": "spm"},
    "burner_coal_flow": {"name": "Main burner coal flow", "unit": "t/h"},
}
ROUTER = Router(exec_plant("kiln", POINTS))


@pytest.mark.parametrize(("text", "point"), [
    ("RK drive amps", "kiln_drive_current"),
    ("what's the inlet oxygen on the RK", "kiln_inlet_o2"),
    ("RK shell temp", "kiln_shell_temp"),  # the alias itself still names its point
])
def test_the_other_word_names_the_thing_of_every_point_named_after_it(text: str,
                                                                      point: str) -> None:
    action = placed_without_model(ROUTER, text)
    assert action is not None and action.name == "read" and action.point == point, action


@pytest.mark.parametrize("text", [
    "RK fan speed",  # the kiln has no fan: the cooler's is no answer
    "RK coal flow",  # nor is the main burner's coal
])
def test_the_other_word_names_no_point_of_another_thing(text: str) -> None:
    action = placed_without_model(ROUTER, text)
    assert action is None or action.name == "respond", action
