"""Opposite words that tell points apart (heat and cool, fast and slow, full and empty) are not
one word because the vocabulary folds both into a quantity: "turn on AHU 1 cool" had switched
the heating on, "open tank 7 slow fill valve" the fast one (atk20, SYNC). And a word of haste
says nothing of a speed: "stop pump 1 quickly" had written 0 to the pump's speed (atk20, QUICK).
"""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

HVAC = Router(exec_plant("opposites", {
    "h1": {"name": "AHU 3 heat enable", "type": "bool", "writable": True},
    "d1": {"name": "AHU 3 DX enable", "type": "bool", "writable": True},
    "zh": {"name": "Room 4 heat setpoint", "unit": "°C", "writable": True, "min": 5,
           "max": 30},
    "zc": {"name": "Room 4 cool setpoint", "unit": "°C", "writable": True, "min": 15,
           "max": 35},
    "rt": {"name": "Room 4 temperature", "unit": "°C"},
    "cw": {"name": "Chilled water supply temperature", "unit": "°C"},
    "ff": {"name": "Hopper 5 fast feed gate", "type": "bool", "writable": True},
    "sf": {"name": "Hopper 5 slow feed gate", "type": "bool", "writable": True},
    "tf": {"name": "Hopper 8 fast feed gate", "type": "bool", "writable": True},
    "fb": {"name": "Full crate conveyor 2", "type": "bool", "writable": True},
    "eb": {"name": "Empty crate conveyor 2", "type": "bool", "writable": True},
    "hb": {"name": "Hot air blower 6", "names": {"zh": "6号热风机"}, "type": "bool",
           "writable": True},
}))


@pytest.mark.parametrize("text", [
    "turn on AHU 3 cool", "AHU 3 cool on",  # only the heating is named with a pole
    "open hopper 8 slow feed gate",  # hopper 8 has only a fast one
    "启动6号冷风机",  # a cold-air fan 6 there is not
])
async def test_a_point_of_the_opposite_word_is_never_taken(text: str) -> None:
    action = await routed_without_model(HVAC, text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set room 4 cool setpoint to 24", "zc", 24),
    ("set room 4 heat setpoint to 20", "zh", 20),
    ("open hopper 5 slow feed gate", "sf", True),
    ("open hopper 5 fast feed gate", "ff", True),
    ("start the full crate conveyor 2", "fb", True),
    ("stop empty crate conveyor 2", "eb", False),
    ("启动6号热风机", "hb", True),
])
async def test_the_point_of_the_word_said_is_written(text: str, point: str, value: object
                                                     ) -> None:
    action = await routed_without_model(HVAC, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


@pytest.mark.parametrize(("text", "point"), [
    ("room 4 cool setpoint?", "zc"),
    ("how hot is the chilled water supply", "cw"),  # "how hot" asks, names no pole
    ("how warm is the chilled water supply", "cw"),
    ("what is the room 4 temperature", "rt"),
])
async def test_a_read_takes_the_pole_said_and_a_question_says_none(text: str, point: str
                                                                   ) -> None:
    action = await routed_without_model(HVAC, text)
    assert (action.name, action.args) == ("read", {"point": point})


QUICK = Router(exec_plant("haste", {
    "c2": {"name": "Conveyor 2", "type": "bool", "writable": True},
    "c2s": {"name": "Conveyor 2 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "v3": {"name": "Valve 3", "names": {"zh": "3号阀"}, "type": "bool", "writable": True},
    "v3s": {"name": "Valve 3 stroke speed", "unit": "%", "writable": True, "min": 0,
            "max": 100},
    "m6": {"name": "Mixer 6 fast", "type": "bool", "writable": True},
    "m6s": {"name": "Mixer 6 slow", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("stop conveyor 2 quickly", "c2", False), ("stop conveyor 2 fast", "c2", False),
    ("quick, stop conveyor 2", "c2", False), ("close valve 3 immediately", "v3", False),
    ("快关3号阀", "v3", False),
    # where the plant names a thing by it, "fast" is that thing
    ("run mixer 6 fast", "m6", True), ("start mixer 6 slow", "m6s", True),
])
async def test_haste_is_no_speed(text: str, point: str, value: object) -> None:
    action = await routed_without_model(QUICK, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


async def test_how_fast_still_asks_the_speed() -> None:
    action = await routed_without_model(QUICK, "how fast is conveyor 2 going")
    assert (action.name, action.args) == ("read", {"point": "c2s"})


CHOSEN = Router(exec_plant("haste-and-choices", {
    "dr": {"name": "Dryer 1 run", "type": "bool", "writable": True},
    "dc": {"name": "Dryer 1 cycle", "type": "int", "map": {0: "normal", 1: "quick", 2: "delicate"},
           "writable": True},
    "fr": {"name": "Fan 3 run", "type": "bool", "writable": True},
    "fs": {"name": "Fan 3 speed", "type": "int", "map": {0: "slow", 1: "fast"}, "writable": True},
    "l2": {"name": "Line 2 run", "type": "bool", "writable": True},
    "l2fs": {"name": "Line 2 fast stop", "type": "bool", "writable": True},
    "l2s": {"name": "Line 2 speed", "unit": "m/min", "writable": True, "min": 0, "max": 60},
    "hp": {"name": "Heat pump 1 mode", "aliases": ["HP1 mode"], "type": "int",
           "map": {0: "off", 1: "heat", 2: "cool"}, "writable": True},
    "q1": {"name": "Quick open valve 1", "names": {"zh": "1号快开阀"}, "type": "bool",
           "writable": True},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    # a choice of a point is no haste, nor is it "speed" (atk22)
    ("put dryer 1 on quick", "dc", "quick"), ("set dryer 1 to quick", "dc", "quick"),
    ("put fan 3 on fast", "fs", "fast"), ("switch fan 3 to slow", "fs", "slow"),
    # "cool" and "heat" are two choices, though both are temperatures
    ("set HP1 mode to cool", "hp", "cool"), ("set heat pump 1 to heat", "hp", "heat"),
    ("打开1号快开阀", "q1", True),  # a quick-opening valve, no haste
])
async def test_choices_and_names_that_say_fast_or_quick(text: str, point: str,
                                                       value: object) -> None:
    action = await routed_without_model(CHOSEN, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", ["line 2 fast stop", "stop line 2 fast", "turn off line 2 fast"])
async def test_a_fast_stop_never_zeroes_the_speed(text: str) -> None:
    """"line 2 fast stop" had set Line 2 speed to 0 ("fast" was a speed) (atk22)."""
    action = await routed_without_model(CHOSEN, text)
    assert action.args.get("point") != "l2s", action


async def test_a_quick_opening_valve_is_no_high_speed_door() -> None:
    """关闭1号快开阀 (close quick-opening valve 1) had closed 1号快速门, a high-speed door
    (atk23)."""
    plant = Router(exec_plant("quick-acting", {
        "qv1": {"name": "Quick open valve 1", "names": {"zh": "1号快开阀"}, "type": "bool",
                "writable": True},
        "d1": {"name": "High speed door 1 close", "names": {"zh": "1号快速门关闭"},
               "type": "bool", "writable": True},
    }))
    for text in ("关闭1号快开阀", "1号快开阀关闭"):
        action = await routed_without_model(plant, text)
        assert (action.name, action.args) == ("write", {"point": "qv1", "value": False})
