"""Blind batch 69 (pharmaceutical utilities, a grain terminal, a dye house), on plants of my own:
- a rate, limit or ratio asked of a point that is none ("kettle 2 heating ramp rate?" of its
  agitator's run signal, where kettle 1 has a ramp rate) reads nothing;
- "what's the oven zone temperature" is no read of the zones' one setpoint by the rules, where
  zones 1 and 3 have temperatures whose numbers nobody said;
- two points alike in meaning but for an end, or not at all, that explain every word said as
  well ("what's the tank level": the demin water tank's or the RO water tank's;
  "motor one bearing temperature": the drive end's or the other) are asked back, never one of
  them guessed;
- what goes out to a loop is its supply, never its return ("the brine going out to the
  coolers"), and the air leaving a dryer never its inlet;
- a room differential pressure is a differential pressure ("set filling room DP to 15 Pa");
- "cool kettle two down to 60" is a change to 60, no bound; the "'s" of "kettle 1's" is no
  second; 每分钟1.5度 and 1.5度每分钟 are °C per minute.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import (
    exec_plant,
    model_checked,
    model_read_checked,
    routed_without_model,
)

CONFIG = exec_plant("b69", {
    "k1_temp": {"name": "Kettle 1 batch temperature", "unit": "°C"},
    "k1_sp": {"name": "Kettle 1 batch temperature setpoint", "unit": "°C", "writable": True,
              "min": 20, "max": 140},
    "k1_ramp": {"name": "Kettle 1 heating ramp rate", "unit": "°C/min", "writable": True,
                "min": 0, "max": 5, "aliases": ["1号釜升温速率"]},
    "k2_temp": {"name": "Kettle 2 batch temperature", "unit": "°C"},
    "k2_sp": {"name": "Kettle 2 batch temperature setpoint", "unit": "°C", "writable": True,
              "min": 20, "max": 140},
    "k2_agitator": {"name": "Kettle 2 agitator running", "type": "bool"},
    "k2_agitator_speed": {"name": "Kettle 2 agitator speed", "unit": "rpm"},
    "zone1_temp": {"name": "Oven zone 1 temperature", "unit": "°C"},
    "zone3_temp": {"name": "Oven zone 3 temperature", "unit": "°C"},
    "zone_sp": {"name": "Oven zone temperature setpoint", "unit": "°C", "writable": True,
                "min": 100, "max": 250},
    "demin_level": {"name": "Demin water storage tank level", "unit": "%"},
    "ro_level": {"name": "RO water tank level", "unit": "%"},
    "acid_level": {"name": "Acid tank level", "unit": "%"},
    "caustic_level": {"name": "Caustic tank level", "unit": "%"},
    "m1_de": {"name": "Motor 1 bearing temperature, drive end", "unit": "°C"},
    "m1_nde": {"name": "Motor 1 bearing temperature, non-drive end", "unit": "°C"},
    "brine_supply": {"name": "Brine loop supply temperature", "unit": "°C"},
    "brine_return": {"name": "Brine loop return temperature", "unit": "°C"},
    "spray_exhaust": {"name": "Spray dryer exhaust air temperature", "unit": "°C"},
    "spray_inlet": {"name": "Spray dryer inlet air temperature", "unit": "°C"},
    "filling_dp_sp": {"name": "Filling room differential pressure setpoint", "unit": "Pa",
                      "writable": True, "min": 5, "max": 30},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize("point", ["k2_agitator", "k2_agitator_speed", "k2_temp"])
def test_a_ramp_rate_is_no_other_value(point: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, "kettle 2 heating ramp rate?", point)
    assert checked.name == "respond", checked
    assert checked.args["reason"] == "unknown_point"


def test_the_ramp_rate_there_is_still_read() -> None:
    read = Action("read", {"point": "k1_ramp"})
    assert model_read_checked(ROUTER, CONFIG, "kettle 1 heating ramp rate?", "k1_ramp") == read


def test_the_time_of_a_rate_is_its_own_unit() -> None:
    write = Action("write", {"point": "k1_ramp", "value": 0.8})
    text = "set kettle 1 heating ramp rate to 0.8 deg C per minute"
    assert model_checked(ROUTER, CONFIG, text, write) == write


async def test_the_rules_read_no_setpoint_nobody_asked() -> None:
    action = await routed_without_model(ROUTER, "what's the oven zone temperature")
    assert action.name == "respond", action


@pytest.mark.parametrize("text", [
    "what's the oven zone temperature setpoint", "what is the oven zone temperature set to",
])
async def test_the_setpoint_asked_is_still_read(text: str) -> None:
    assert await routed_without_model(ROUTER, text) == Action("read", {"point": "zone_sp"})


@pytest.mark.parametrize(("text", "point"), [
    ("what's the tank level", "demin_level"),
    ("what's the tank level", "ro_level"),
    ("what's the tank level", "acid_level"),  # (alike but for what is in them)
    ("what's the tank level", "caustic_level"),
    ("motor one bearing temperature", "m1_de"),
    ("what's the bearing temp on motor 1", "m1_nde"),
])
def test_one_of_two_alike_is_asked_back(text: str, point: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, text, point)
    assert checked.name == "respond", checked
    assert checked.args["reason"] == "not_understood"


@pytest.mark.parametrize(("text", "point"), [
    ("what's the demin water tank level", "demin_level"),
    ("RO water tank level?", "ro_level"),
    ("caustic tank level?", "caustic_level"),
    ("motor one bearing temperature at the drive end", "m1_de"),
])
def test_the_one_said_is_still_read(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point) == Action("read", {"point": point})


@pytest.mark.parametrize(("text", "point"), [
    ("how hot is the brine going out to the coolers", "brine_return"),
    ("how hot is the air leaving the spray dryer", "spray_inlet"),
])
def test_another_end_is_no_read_of_it(text: str, point: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, text, point)
    assert checked.name == "respond", checked
    assert checked.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("text", "point"), [
    ("how hot is the brine going out to the coolers", "brine_supply"),
    ("brine return temperature?", "brine_return"),
])
def test_the_end_said_is_still_read(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point) == Action("read", {"point": point})


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set filling room DP to 15 Pa", "filling_dp_sp", 15),
    ("set the filling room differential pressure to 12.5 Pa", "filling_dp_sp", 12.5),
    ("cool kettle two down to 60", "k2_sp", 60),
    ("drop kettle 2 temperature down to 85", "k2_sp", 85),
    ("slow kettle 1's heating ramp rate to 0.8 deg C per minute", "k1_ramp", 0.8),
    ("1号釜升温速率设为每分钟1.5度", "k1_ramp", 1.5),
    ("1号釜升温速率设为1.5度每分钟", "k1_ramp", 1.5),
])
def test_the_gate_passes_them(text: str, point: str, value: float) -> None:
    assert gated(text, CONFIG.points[point], value, ROUTER.rules.profiles) is None


@pytest.mark.parametrize(("text", "point", "value", "problem"), [
    ("kettle two down to 60", "k2_sp", 60, "approximate"),  # a bound: no verb makes it one
    ("cool kettle two down to about 60", "k2_sp", 60, "approximate"),
    ("1号釜升温速率设为每小时1.5度", "k1_ramp", 1.5, "when"),  # per hour, of one per minute
    ("1号釜温度设为每分钟60度", "k1_sp", 60, "when"),
])
def test_the_gate_still_refuses_these(text: str, point: str, value: float,
                                      problem: str) -> None:
    doubt = gated(text, CONFIG.points[point], value, ROUTER.rules.profiles)
    assert doubt is not None
    assert doubt.args["value_problem"] == problem
