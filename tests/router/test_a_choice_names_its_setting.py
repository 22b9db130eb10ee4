"""A choice said of a thing tells its setting from the thing's other points: "put the drop
hammer in manual" sets the "Drop hammer mode" though "Drop hammer blows today" shares every word
the command says of it, and "drop" after "the" is the thing's name, not the verb. Said of
nothing the plant has, or with no choice, nothing is written."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

MODES = {0: "off", 1: "manual", 2: "auto"}
FORGE = Router(exec_plant("forge", {
    "dh_mode": {"name": "Drop hammer mode", "type": "int", "writable": True, "map": MODES},
    "dh_blows": {"name": "Drop hammer blows today", "type": "int", "unit": "blows"},
    "dh_temp": {"name": "Drop hammer die temperature", "unit": "°C"},
    "kiln_mode": {"name": "Kiln operating mode", "type": "int", "writable": True,
                  "map": MODES},
    "kiln_cycles": {"name": "Kiln cycles", "type": "int"},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("put the drop hammer in manual", "dh_mode", "manual"),
    ("set the drop hammer to auto", "dh_mode", "auto"),
    ("put the kiln in auto", "kiln_mode", "auto"),
    ("switch the kiln to manual", "kiln_mode", "manual"),
])
async def test_a_choice_said_of_a_thing_sets_its_mode(text: str, point: str, value: str) -> None:
    action = await routed_without_model(FORGE, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


@pytest.mark.parametrize("text", [
    "put the drop hammer in turbo",  # no such choice
    "put the press in auto",  # no press here
    "drop the hammer",
])
async def test_no_choice_or_no_thing_writes_nothing(text: str) -> None:
    action = await routed_without_model(FORGE, text)
    assert action.name != "write", action


async def test_a_question_of_the_thing_is_still_a_reading() -> None:
    action = await routed_without_model(FORGE, "drop hammer blows today?")
    assert (action.name, action.args.get("point")) == ("read", "dh_blows"), action
