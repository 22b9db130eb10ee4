"""A word of a thing's own name names the thing, not a value to set it to; a number a name
opens with numbers the thing; "NO2" after a thing is its number sign (atk21)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

MODES = Router(exec_plant("modes", {
    "sg": {"name": "Standby generator mode", "type": "int",
           "map": {0: "off", 1: "auto", 2: "run", 3: "standby"}, "writable": True},
    "ch": {"name": "Main chiller mode", "type": "int",
           "map": {0: "off", 1: "auto", 2: "maintenance"}, "writable": True},
    "rc": {"name": "Recirc fan mode", "type": "int",
           "map": {0: "off", 1: "on", 2: "recirculation"}, "writable": True},
    "wp": {"name": "Wash pump mode", "type": "int",
           "map": {0: "off", 1: "on", 2: "washdown"}, "writable": True},
}))


@pytest.mark.parametrize("text", [
    "start the main chiller", "turn on main chiller", "run the main chiller",
    "turn on the recirc fan", "turn on the wash pump", "start the standby generator",
    "start the standby diesel generator", "start the standby gen set"])  # (atk22)
async def test_a_word_of_the_name_is_no_choice(text: str) -> None:
    """"start the main chiller" had put it into maintenance ("main" cut short), "start the
    standby generator" on standby."""
    action = await routed_without_model(MODES, text)
    assert action.args.get("value") not in ("maintenance", "recirculation", "washdown",
                                            "standby"), action


@pytest.mark.parametrize(("text", "value"), [
    ("set the standby generator to standby", "standby"),
    ("put the main chiller in maintenance", "maintenance"),
    ("switch the wash pump to washdown", "washdown"),
    ("start the standby generator", "run"),
])
async def test_a_choice_said_as_the_value_is_taken(text: str, value: str) -> None:
    action = await routed_without_model(MODES, text)
    assert action.name == "write" and action.args["value"] == value, action


NUMBERED = Router(exec_plant("numbered-first", {
    "rs": {"name": "10 zone reflow oven conveyor speed", "unit": "cm/min", "writable": True,
           "min": 0, "max": 200},
    "z10": {"name": "Zone 10 temperature setpoint", "unit": "°C", "writable": True, "min": 0,
            "max": 300},
    "do": {"name": "3 deck oven 1 heat enable", "type": "bool", "writable": True},
    "d3": {"name": "Deck 3 heat enable", "type": "bool", "writable": True},
    "cp": {"name": "Car park NO2 trip level", "unit": "ppm", "writable": True, "min": 0,
           "max": 10},
    "t2": {"name": "Tunnel 2 fan start setpoint", "unit": "ppm", "writable": True, "min": 0,
           "max": 500},
    "tn": {"name": "Tunnel NO2 fan start setpoint", "unit": "ppm", "writable": True, "min": 0,
           "max": 10},
    "f1": {"name": "1 Feed pump run", "type": "bool", "writable": True},
    "f2": {"name": "2 Feed pump run", "type": "bool", "writable": True},
    "f3": {"name": "Feed pump 3 run", "type": "bool", "writable": True},
    "m2": {"name": "2 Mill main motor", "type": "bool", "writable": True},
    "x1": {"name": "2 pack mixer", "type": "bool", "writable": True},
    "n2": {"name": "Transfer pump NO2", "type": "bool", "writable": True},
    "g1": {"name": "B1 NO2 level", "unit": "ppm"},
    "c1": {"name": "Conveyor 2", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("text", "point"), [
    ("start feed pump 1", "f1"), ("start feed pump 2", "f2"), ("start feed pump 3", "f3"),
    ("start mill 2 main motor", "m2"), ("start the 2 pack mixer", "x1"),
    ("start transfer pump 2", "n2"), ("start transfer pump no2", "n2"),
])
async def test_a_number_before_or_after_numbers_the_thing(text: str, point: str) -> None:
    action = await routed_without_model(NUMBERED, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": True})


async def test_no2_of_a_gas_is_no_number() -> None:
    action = await routed_without_model(NUMBERED, "what is the B1 NO2 level")
    assert (action.name, action.args) == ("read", {"point": "g1"})


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the NO2 trip level to 3", "cp", 3), ("set car park NO2 trip level to 3", "cp", 3),
    ("set tunnel 2 fan start setpoint to 200", "t2", 200),
    ("set zone 10 to 250", "z10", 250), ("turn on deck 3 heat", "d3", True)])
async def test_a_gas_and_a_specification_number_no_thing(text: str, point: str,
                                                         value: object) -> None:
    """(atk22: "Car park NO2 trip level" had become car park 2's, "10 zone reflow oven" zone
    10's.)"""
    action = await routed_without_model(NUMBERED, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", ["put conveyor 2 on a hold", "put conveyor 2 on the hold"])
async def test_on_a_hold_switches_nothing_on(text: str) -> None:
    action = await routed_without_model(NUMBERED, text)
    assert action.name == "respond", action


async def test_an_inhibit_named_in_chinese_is_not_its_act() -> None:
    """1号炉点火 (ignite furnace 1) had switched on 1号炉禁止点火, the ignition inhibit."""
    plant = Router(exec_plant("inhibit", {
        "i1": {"name": "1号炉禁止点火", "type": "bool", "writable": True}}))
    action = await routed_without_model(plant, "1号炉点火")
    assert action.name == "respond", action


AHUS = Router(exec_plant("cross-numbered", {
    "a1": {"name": "AHU 1 supply fan", "aliases": ["Fan 4"], "type": "bool", "writable": True},
    "a2": {"name": "AHU 2 supply fan", "aliases": ["Fan 1"], "type": "bool", "writable": True},
    "t1": {"name": "AHU 1 supply air temperature setpoint", "aliases": ["Zone 3 supply setpoint"],
           "unit": "°C", "writable": True, "min": 12, "max": 30},
    "t3": {"name": "AHU 3 supply air temperature setpoint", "aliases": ["Zone 1 supply setpoint"],
           "unit": "°C", "writable": True, "min": 12, "max": 30},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("start AHU 1 supply fan", "a1", True), ("stop AHU 2 supply fan", "a2", False),
    ("start fan 4", "a1", True),
    ("set AHU 1 supply air temperature setpoint to 18", "t1", 18),
    ("set AHU 3 supply air temperature setpoint to 18", "t3", 18),
])
async def test_a_number_in_another_point_s_alias_does_not_make_a_full_name_ambiguous(
        text: str, point: str, value: object) -> None:
    """AHU 2's alias "Fan 1" carries a 1: "start AHU 1 supply fan" had been asked "which"
    (atk21 XLABEL)."""
    action = await routed_without_model(AHUS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


VERB_FIRST = Router(exec_plant("verb-first", {
    "h10": {"name": "Hold conveyor 10", "type": "bool", "writable": True},
    "i7": {"name": "Isolate feeder 7", "type": "bool", "writable": True},
    "l22": {"name": "Lower gate 22", "type": "bool", "writable": True},
    "orv2": {"name": "Open rack vaporiser 2", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", ["start conveyor 10", "turn on feeder 7", "open gate 22"])
async def test_a_switch_named_by_its_action_first_is_not_its_thing(text: str) -> None:
    """"start conveyor 10" had switched on "Hold conveyor 10", which holds it (atk20 VF)."""
    action = await routed_without_model(VERB_FIRST, text)
    assert action.name == "respond", action


async def test_a_longer_name_opening_with_such_a_word_is_still_its_thing() -> None:
    """"Open rack vaporiser 2" is a kind of vaporiser, which "put ORV 2 in service" starts."""
    action = await routed_without_model(VERB_FIRST, "put ORV 2 in service")
    assert (action.name, action.args) == ("write", {"point": "orv2", "value": True})


async def test_its_own_name_said_names_that_switch() -> None:
    """(Said whole, the name is taken for the switch itself: it is read, and no other point is
    written.)"""
    action = await routed_without_model(VERB_FIRST, "hold conveyor 10")
    assert action.args.get("point") == "h10" and action.args.get("value") in (None, True)


async def test_turning_on_the_standby_generator_starts_it() -> None:
    """"turn on the standby diesel generator" had put it on standby, and "switch on standby
    gen set" too: "on" before "standby" was read as "on standby" (atk23)."""
    plant = Router(exec_plant("standby", {
        "mode": {"name": "Standby generator mode", "type": "int",
                 "map": {0: "off", 1: "auto", 2: "run", 3: "standby"}, "writable": True},
        "run": {"name": "Standby generator start", "type": "bool", "writable": True},
    }))
    for text in ("turn on the standby diesel generator", "switch on standby gen set",
                 "turn on the standby generator"):
        action = await routed_without_model(plant, text)
        assert (action.name, action.args) == ("write", {"point": "run", "value": True}), text
