"""A formula in a point's name ("O2", "CO2", "NH3", phase "L2") is a word, never a number: it
neither numbers the thing the point is of ("Kiln 2 O2 setpoint" is kiln 2's, "H2 blower 2" is
blower 2) nor is "CO2" said in a command the number 2 (review atk9, H3-H5: "set the O2 trim to
2.5 %" wrote kiln 2's setpoint of two kilns; "feeder 3 L2 current" read feeder 3's L1)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, placed_without_model

POINTS: dict[str, Any] = {
    "k1_o2": {"name": "Kiln 1 O2", "unit": "%"},
    "k2_o2": {"name": "Kiln 2 O2", "unit": "%"},
    "k1_o2_sp": {"name": "Kiln 1 O2 setpoint", "unit": "%", "writable": True, "min": 0,
                 "max": 10},
    "k2_o2_sp": {"name": "Kiln 2 O2 setpoint", "unit": "%", "writable": True, "min": 0,
                 "max": 10},
    "k1_co2": {"name": "Kiln 1 CO2", "unit": "%"},
    "k2_co2": {"name": "Kiln 2 CO2", "unit": "%"},
    "h2b1": {"name": "H2 blower 1", "type": "bool", "writable": True},
    "h2b2": {"name": "H2 blower 2", "type": "bool", "writable": True},
    "m1_l1": {"name": "Motor 1 L1 current", "unit": "A"},
    "m1_l3": {"name": "Motor 1 L3 current", "unit": "A"},
    "m2_l1": {"name": "Motor 2 L1 current", "unit": "A"},
    "m2_l2": {"name": "Motor 2 L2 current", "unit": "A"},
    "pump2": {"name": "Transfer pump No2", "type": "bool", "writable": True},
    "pump3": {"name": "Transfer pump No3", "type": "bool", "writable": True},
}
ROUTER = Router(exec_plant("kilns", POINTS))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("kiln 2 co2", "k2_co2", None),
    ("what's the O2 on kiln 1", "k1_o2", None),
    ("set kiln 2 o2 setpoint to 3", "k2_o2_sp", 3),
    ("motor 2 L2 current", "m2_l2", None),
    ("start transfer pump no 3", "pump3", True),
])
def test_a_formula_names_no_number_and_the_thing_keeps_its_own(text: str, point: str,
                                                                value: Any) -> None:
    action = placed_without_model(ROUTER, text)
    assert action is not None and action.point == point, action
    assert action.args.get("value") == value, action


@pytest.mark.parametrize("text", [
    "set the O2 setpoint to 2.5 %",  # two kilns, none named: not kiln 2 for the 2 of O2
    "turn off the h2 blower",  # blower 1 or 2
    "kiln co2",
    "motor 1 L2 current",  # motor 1 has L1 and L3 only: not its L1
    "L1 current",  # motors 1 and 2 both have one
])
def test_a_formula_said_numbers_nothing(text: str) -> None:
    action = placed_without_model(ROUTER, text)
    assert action is None or action.name == "respond", action
