"""Blind batch 67 (a fish farm's recirculating system, a cement kiln, an ammonia cold store), on
plants of my own:
- "running at all?" asks whether it runs: "at all" is no plural, and the pump's speed is not
  read beside its run signal;
- "how full is raceway two", where raceway 1 has a level and raceway 2 none, is no read of
  raceway 2's oxygen (the model's pick was kept: a level is a word of any measure, "full" is
  not);
- a point in strokes/min is asked for in strokes ("grate strokes per min");
- "tph" is tonnes an hour; "T1" of a point of tank 1 is tank 1, no second value and no
  unexplained letter, where no other thing numbered 1 begins with a T; "DO" in capitals is
  dissolved oxygen, no verb;
- "um" before a command is said before it, no question of it ("ok start the pump", "ok so
  pump 1 off" are still asked back: a repeat-back of an order, or a summing up of what was
  heard, perhaps);
- carbon dioxide is what a dissolved CO2 measures.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, model_checked, model_read_checked, routed_without_model

CONFIG = exec_plant("b67", {
    "pond1_o2": {"name": "Raceway 1 dissolved oxygen", "unit": "mg/L", "aliases": ["R1 DO"]},
    "pond2_o2": {"name": "Raceway 2 dissolved oxygen", "unit": "mg/L"},
    "pond1_temp": {"name": "Raceway 1 water temperature", "unit": "°C"},
    "pond2_temp": {"name": "Raceway 2 water temperature", "unit": "°C"},
    "pond1_level": {"name": "Raceway 1 level", "unit": "m"},
    "pond1_o2_sp": {"name": "Raceway 1 dissolved oxygen setpoint", "unit": "mg/L",
                    "writable": True, "min": 4, "max": 14},
    "loop_pump_speed": {"name": "Loop pump speed", "unit": "Hz"},
    "loop_pump_run": {"name": "Loop pump run", "type": "bool", "writable": True},
    "degasser_co2": {"name": "Degasser outlet dissolved CO2", "unit": "mg/L"},
    "grate_speed": {"name": "Cooler grate 2 speed", "unit": "strokes/min"},
    "grate_speed_sp": {"name": "Cooler grate 2 speed setpoint", "unit": "strokes/min",
                       "writable": True, "min": 4, "max": 25},
    "feed_rate": {"name": "Raw meal feed rate", "unit": "t/h"},
    "feed_sp": {"name": "Raw meal feed setpoint", "unit": "t/h", "writable": True,
                "min": 100, "max": 320},
    "hood_sp": {"name": "Firing hood draft setpoint", "unit": "Pa", "writable": True,
                "min": -100, "max": -5},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "name", "args"), [
    ("loop pump running at all?", "read", {"point": "loop_pump_run"}),
    ("is the loop pump running at all", "read", {"point": "loop_pump_run"}),
    ("any loop pump speed at all right now", "read", {"point": "loop_pump_speed"}),
    ("how much carbon dioxide is coming off the degasser outlet", "read",
     {"point": "degasser_co2"}),
    ("raw meal feed to 265 tph", "write", {"point": "feed_sp", "value": 265}),
    ("um what's the raw meal feed setpoint", "read", {"point": "feed_sp"}),
    ("um, set the firing hood draft setpoint to -62.5 Pa", "write",
     {"point": "hood_sp", "value": -62.5}),
])
async def test_the_rules_place_them(text: str, name: str, args: dict[str, object]) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == (name, args)


async def test_all_of_them_is_still_several() -> None:
    action = await routed_without_model(ROUTER, "temperatures of all the raceways")
    assert action.name == "read"
    assert set(action.args["points"]) == {"pond1_temp", "pond2_temp"}


@pytest.mark.parametrize("point", ["pond2_o2", "pond2_temp"])
def test_how_full_is_no_measure_of_a_pond_with_no_level(point: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, "how full is raceway two", point)
    assert checked.name == "respond", checked
    assert checked.args["reason"] == "unknown_point"


def test_how_full_is_still_the_level_of_a_pond_with_one() -> None:
    read = Action("read", {"point": "pond1_level"})
    assert model_checked(ROUTER, CONFIG, "how full is raceway one", read) == read


def test_the_oxygen_level_is_still_the_oxygen() -> None:
    read = Action("read", {"point": "pond2_o2"})
    assert model_checked(ROUTER, CONFIG, "oxygen level in raceway two", read) == read


def test_strokes_of_a_point_in_strokes_per_minute_are_its_unit() -> None:
    read = Action("read", {"point": "grate_speed"})
    assert model_checked(ROUTER, CONFIG, "grate strokes per min right now", read) == read


@pytest.mark.parametrize(("text", "point", "value"), [
    ("R1 DO setpoint to 12 mg/L", "pond1_o2_sp", 12),  # R1: raceway 1, by its first letter
    ("R1 dissolved oxygen setpoint to 12 mg/L", "pond1_o2_sp", 12),
    ("uh, set the firing hood draft setpoint to -60 Pa", "hood_sp", -60),
    ("um, erm set the firing hood draft setpoint to -60 Pa", "hood_sp", -60),
])
def test_the_gate_passes_them(text: str, point: str, value: float) -> None:
    assert gated(text, CONFIG.points[point], value, ROUTER.rules.profiles) is None


@pytest.mark.parametrize(("text", "point", "value", "problem"), [
    ("set the firing hood draft setpoint to -50, um, -60 Pa", "hood_sp", -60, "correction"),
    ("set the firing hood draft setpoint to -60 Pa ok", "hood_sp", -60, "question"),
    # a repeat-back of an order given to someone else, perhaps (review rv27)
    ("ok set the firing hood draft setpoint to -60 Pa", "hood_sp", -60, "question"),
    ("ok then set the firing hood draft setpoint to -60 Pa", "hood_sp", -60, "question"),
    # ...or a summing up of what was heard (review atk67)
    ("ok so set the firing hood draft setpoint to -60 Pa", "hood_sp", -60, "question"),
    ("right so firing hood draft setpoint -60 Pa", "hood_sp", -60, "question"),
])
def test_the_gate_still_refuses_these(text: str, point: str, value: float,
                                      problem: str) -> None:
    doubt = gated(text, CONFIG.points[point], value, ROUTER.rules.profiles)
    assert doubt is not None
    assert doubt.args["value_problem"] == problem


def test_a_letter_and_number_of_another_thing_are_refused() -> None:
    assert gated("R2 DO setpoint to 12 mg/L", CONFIG.points["pond1_o2_sp"], 12,
                 ROUTER.rules.profiles) is not None


def test_a_letter_two_things_of_that_number_begin_with_says_neither() -> None:
    """R1 of a plant with raceway 1 and reactor 1 is either: the first letter tells nothing."""
    config = exec_plant("r1", {
        "o2_sp": {"name": "Raceway 1 dissolved oxygen setpoint", "unit": "mg/L",
                  "writable": True, "min": 4, "max": 14},
        "reactor_o2_sp": {"name": "Reactor 1 dissolved oxygen setpoint", "unit": "mg/L",
                          "writable": True, "min": 0, "max": 14},
    })
    profiles = Router(config).rules.profiles
    assert gated("R1 dissolved oxygen setpoint to 12 mg/L", config.points["o2_sp"], 12,
                 profiles) is not None


def test_the_setpoint_of_a_value_aliased_otherwise_is_asked_in_its_words() -> None:
    """ "hood draft target" of the "Kiln hood pressure setpoint", beside the "Kiln hood
    pressure" aliased "hood draft": the setpoint of the draft asked, which the alias names
    (a draft is a pressure, whose unit the setpoint has)."""
    config = exec_plant("hood", {
        "hood_p": {"name": "Kiln hood pressure", "unit": "Pa", "aliases": ["hood draft"]},
        "hood_sp": {"name": "Kiln hood pressure setpoint", "unit": "Pa", "writable": True,
                    "min": -100, "max": -5},
        "feed_sp": {"name": "Kiln feed setpoint", "unit": "t/h", "writable": True,
                    "min": 0, "max": 300},
    })
    router = Router(config)
    read = Action("read", {"point": "hood_sp"})
    assert model_checked(router, config, "what's the hood draft target", read) == read
    write = Action("write", {"point": "hood_sp", "value": -35})
    assert model_checked(router, config, "hood draft setpoint minus 35 Pa", write) == write
    # the draft alone is the measured value's
    assert model_checked(router, config, "what's the hood draft", read).name == "respond"
