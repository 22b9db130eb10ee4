"""Numbers in a name that number no thing: a specification written before its word ("2 pack
mixer", "3-way valve"), a Chinese plant word that opens with a numeral (一氧化碳, carbon
monoxide), the "2" of NO2 written in capitals. Said of another thing, none of them may stand
in for its number; said as the name writes it, the point is found."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.normalize import tokens
from tests.support.plants import exec_plant, routed_without_model

SPECS = Router(exec_plant("specs", {
    "bp": {"name": "2 pack mixer", "type": "bool", "writable": True},
    "tw": {"name": "3 way valve", "type": "bool", "writable": True},
    "m5": {"name": "5 axis mill", "type": "bool", "writable": True},
    "fs": {"name": "2-speed fan", "type": "bool", "writable": True},
    "p2": {"name": "Pump 2", "type": "bool", "writable": True},
    "p2s": {"name": "Pump 2 speed", "unit": "rpm", "writable": True, "min": 0, "max": 3000},
}))

DECKS = Router(exec_plant("decks", {
    "co_b1": {"name": "B1 CO level", "unit": "ppm", "names": {"zh": "负一层一氧化碳浓度"}},
    "co_b2": {"name": "B2 CO level", "unit": "ppm", "names": {"zh": "负二层一氧化碳浓度"}},
    "no2_b2": {"name": "B2 NO2 level", "unit": "ppm"},
    "lights_b1": {"name": "B1 lighting", "type": "bool", "writable": True},
    "lights_b2": {"name": "B2 lighting", "type": "bool", "writable": True},
    "t_out": {"name": "Outdoor air temperature", "unit": "°C"},
}))


async def _routed(router: Router, text: str) -> tuple[str, Any]:
    action = await routed_without_model(router, text)
    args = action.args
    return action.name, args.get("point", args.get("points", args.get("reason")))


@pytest.mark.parametrize("text", [
    "start mixer 2", "open valve 3", "open way 3", "turn on fan 2"])
async def test_a_specification_is_no_number_of_the_thing(text: str) -> None:
    name, _ = await _routed(SPECS, text)
    assert name == "respond"


@pytest.mark.parametrize(("text", "point"), [
    ("start the 2 pack mixer", "bp"),
    ("start 2 pack mixer", "bp"),
    ("open the 3 way valve", "tw"),
    ("open the 3-way valve", "tw"),
    ("start the 5 axis mill", "m5"),
    ("start the 2-speed fan", "fs"),
    ("start pump 2", "p2"),
])
async def test_a_name_said_as_written_is_found(text: str, point: str) -> None:
    assert await _routed(SPECS, text) == ("write", point)


async def test_a_thing_numbered_before_a_specification_word_keeps_its_number() -> None:
    action = await routed_without_model(SPECS, "set pump 2 speed to 1200")
    assert (action.name, action.args) == ("write", {"point": "p2s", "value": 1200})


@pytest.mark.parametrize(("text", "expect"), [
    ("B2 NO2 level", ("read", "no2_b2")),
    ("what's the NO2 reading", ("read", "no2_b2")),
    ("负一层一氧化碳浓度", ("read", "co_b1")),
    ("负二层一氧化碳浓度是多少", ("read", "co_b2")),
])
async def test_gases_are_read(text: str, expect: tuple[str, Any]) -> None:
    assert await _routed(DECKS, text) == expect


@pytest.mark.parametrize("text", ["B1 NO2 level", "what's the temperature down on B1"])
async def test_what_the_plant_lacks_is_not_read_of_another_deck(text: str) -> None:
    name, _ = await _routed(DECKS, text)
    assert name == "respond"


@pytest.mark.parametrize(("text", "ids"), [
    ("二氧化碳浓度", []),          # carbon dioxide: no thing 2
    ("二次风机转速", []),          # the secondary air fan
    ("3号三通阀", ["3"]),          # three-way valve 3
    ("一号泵", ["1"]),
    ("一楼温度", ["1"]),           # the first floor is numbered
    ("Pump No2 speed", ["2"]),    # a number sign, not a gas
    ("PUMP NO2 SPEED", ["2"]),
])
def test_which_numbers_number_a_thing(text: str, ids: list[str]) -> None:
    assert [t.text for t in tokens(text) if t.is_id] == ids


@pytest.mark.parametrize("text", ["浓度", "浊度多少", "二氧化碳浓度"])
def test_a_quantity_ending_in_du_is_no_temperature(text: str) -> None:
    assert "temperature" not in [t.text for t in tokens(text)]


def test_how_many_degrees_is_still_a_temperature() -> None:
    assert "temperature" in [t.text for t in tokens("锅炉多少度")]
