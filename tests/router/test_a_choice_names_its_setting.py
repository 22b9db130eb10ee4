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
    "kiln_run": {"name": "Kiln run", "type": "bool", "writable": True},
    "mx_mode": {"name": "Mixer 1 mode", "type": "int", "writable": True,
                "map": {0: "off", 1: "run", 2: "jog"}},
    "mx_run": {"name": "Mixer 1", "type": "bool", "writable": True},
    "wb_run": {"name": "Rinse bay pump run", "type": "bool", "writable": True},
    "wb_mode": {"name": "Rinse bay pump mode", "type": "int", "writable": True,
                "map": {0: "rinsing", 1: "drying", 2: "off"}},
    "mx_speed": {"name": "Mixer 1 speed", "unit": "rpm", "writable": True, "min": 0,
                 "max": 120},
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


@pytest.mark.parametrize("text", [
    # an on/off, start or stop word switches the thing; it names no choice of its mode
    # (atk25r: "turn off the standby generator" had put its mode at `off`, out of auto)
    "turn off the kiln", "kiln off", "stop the kiln", "start the kiln", "kiln start",
    "turn off mixer 1", "stop mixer 1", "start mixer 1", "run mixer 1", "mixer 1 off",
    # a place said after the thing, whose word a choice holds (atk26r: "turn off the pump in
    # the wash bay" had set `washing`)
    "turn off mixer 1 at the jog station", "switch on the kiln in the auto shop",
    "turn off the kiln on manual line 2", "turn off the pump in the rinse bay",
    "turn on the pump in the rinse bay", "switch off the pump at the rinse bay",
])
async def test_switching_a_thing_sets_no_choice_of_its_mode(text: str) -> None:
    action = await routed_without_model(FORGE, text)
    assert action.args.get("point") not in ("kiln_mode", "mx_mode", "wb_mode"), action


@pytest.mark.parametrize(("text", "point", "value"), [
    # a verb's word after "the" that no name says so stays a verb (atk25r)
    ("set the run speed of mixer 1 to 60", "mx_speed", 60),
])
async def test_a_verb_after_the_that_no_name_says_so_is_still_a_verb(text: str, point: str,
                                                                    value: int) -> None:
    action = await routed_without_model(FORGE, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


async def test_a_question_of_the_thing_is_still_a_reading() -> None:
    action = await routed_without_model(FORGE, "drop hammer blows today?")
    assert (action.name, action.args.get("point")) == ("read", "dh_blows"), action


async def test_a_cooler_said_is_a_machine_not_a_comparative() -> None:
    """"switch the kiln cooler to manual" on a plant with a kiln and no kiln cooler: "cooler"
    had been taken for "make it cooler" and dropped, and the kiln's mode written (atk25r)."""
    action = await routed_without_model(FORGE, "switch the kiln cooler to manual")
    assert action.name != "write", action
    with_cooler = Router(exec_plant("cement", {
        "kiln_mode": {"name": "Kiln mode", "type": "int", "writable": True, "map": MODES},
        "cooler_mode": {"name": "Kiln cooler mode", "type": "int", "writable": True,
                        "map": MODES},
    }))
    action = await routed_without_model(with_cooler, "switch the kiln cooler to manual")
    assert (action.name, action.args) == ("write", {"point": "cooler_mode",
                                                    "value": "manual"}), action


OVEN = Router(exec_plant("bakehouse", {
    "cv5_mode": {"name": "Conveyor 5 mode", "type": "int", "writable": True,
                 "map": {0: "off", 1: "run", 2: "jog"}},
    "cv5_speed": {"name": "Conveyor 5 speed", "unit": "m/min"},
    "ov1_mode": {"name": "Oven 1 mode", "type": "int", "writable": True,
                 "map": {0: "heat", 1: "cool", 2: "hold"}},
    "ov1_temp": {"name": "Oven 1 temperature", "unit": "°C"},
    "ov1_alarm": {"name": "Oven 1 high temperature alarm", "type": "bool"},
}))


@pytest.mark.parametrize("text", ["jog conveyor 5", "jog the conveyor 5 please",
                                  "cool oven 1", "heat oven 1", "hold oven 1"])
async def test_a_choice_said_as_the_verb_is_no_reading(text: str) -> None:
    """A choice of a thing's mode said first, as its verb, asks for something done: it had
    been read ("jog conveyor 5" the conveyor's mode, "cool oven 1" its temperature)."""
    action = await routed_without_model(OVEN, text)
    assert action.name != "read", action


@pytest.mark.parametrize(("text", "point"), [
    ("oven 1 temperature", "ov1_temp"), ("what mode is conveyor 5 in", "cv5_mode"),
    ("high temperature alarm on oven 1?", "ov1_alarm"), ("conveyor 5 speed", "cv5_speed"),
])
async def test_the_thing_asked_of_is_still_read(text: str, point: str) -> None:
    action = await routed_without_model(OVEN, text)
    assert (action.name, action.args) == ("read", {"point": point}), action
