"""Blind batches 55-56, on plants of my own:
- a numbered machine switched by its number alone ("fire up unit 2") is the machine's own
  start/stop, not a machine of its own on it (its cooler fan), whatever verb switches it;
  where two machines of their own stand on it and the machine has no start of its own, which
  one is meant is asked.
"""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

SKID_CONFIG = exec_plant("skid", {
    "chiller1_enable": {"name": "Chiller 1 start/stop command", "type": "bool", "writable": True},
    "chiller2_enable": {"name": "Chiller 2 start/stop command", "type": "bool", "writable": True},
    "chiller2_fan": {"name": "Chiller 2 condenser fan run", "type": "bool", "writable": True},
    "chiller2_running": {"name": "Chiller 2 running", "type": "bool"},
    "line3_conveyor": {"name": "Line 3 infeed conveyor run", "type": "bool", "writable": True},
    "line3_blower": {"name": "Line 3 dust blower run", "type": "bool", "writable": True},
})


@pytest.mark.parametrize(("text", "value"), [
    ("fire up chiller 2", True),
    ("switch on chiller 2", True),
    ("turn on chiller two", True),
    ("start chiller 2", True),
    ("turn off chiller 2", False),
    ("shut chiller 2 down", False),
])
async def test_a_machine_switched_by_its_number_is_its_own_start(text: str, value: bool) -> None:
    action = await routed_without_model(Router(SKID_CONFIG), text)
    assert action.to_dict() == {"name": "write",
                                "args": {"point": "chiller2_enable", "value": value}}


@pytest.mark.parametrize("text", ["switch on chiller 2 condenser fan", "turn on chiller 2's fan"])
async def test_the_machine_on_it_said_is_that_one(text: str) -> None:
    action = await routed_without_model(Router(SKID_CONFIG), text)
    assert action.to_dict() == {"name": "write", "args": {"point": "chiller2_fan", "value": True}}


@pytest.mark.parametrize("text", ["switch on line 3", "fire up line 3"])
async def test_two_machines_on_a_line_with_no_start_of_its_own_are_asked(text: str) -> None:
    action = await routed_without_model(Router(SKID_CONFIG), text)
    assert action.name == "respond", action
