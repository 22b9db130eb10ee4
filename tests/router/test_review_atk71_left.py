"""What review atk71 left, mended on plants written here:
- a letter the plant tags things with, said against another number ("heater h2" where only a
  "Heater H1" is), is no hydrogen: the model's pick of heater H1 is refused;
- 改 alone between a quantity and a number sets it ("转速改1000", "设定改一百"); 调 alone is a
  change by the number as often as to it, and before anything else (调一, 调一调, 调一点) both
  ask a change with no value: refused, and no read;
- a quantity said apart from a thing's name that holds it ("the pressure on pump 2" of a
  "High pressure pump 2", "the temperature on the low temp heater" of its flow, "the pressure on
  the pressure filter" of its sump level) is no read of that point.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, model_checked, routed_without_model

TAGGED = exec_plant("tagged", {
    "furnace_h2_sp": {"name": "Furnace hydrogen setpoint", "unit": "%", "writable": True,
                      "min": 0, "max": 10},
    "heater_h1_sp": {"name": "Heater H1 temperature setpoint", "unit": "°C", "writable": True,
                     "min": 0, "max": 900},
    "heater_h1_temp": {"name": "Heater H1 temperature", "unit": "°C"},
    "oven_o1_temp": {"name": "Oven O1 temperature", "unit": "°C"},
    "bath_h_temp": {"name": "Bath H temperature", "unit": "°C"},
})
TAGGED_ROUTER = Router(TAGGED)


@pytest.mark.parametrize(("text", "point"), [
    ("heater h2 temperature", "heater_h1_temp"),
    ("what's heater H2 at", "heater_h1_temp"),
    ("oven o2 temperature", "oven_o1_temp"),
    ("bath h2 temperature", "bath_h_temp"),
])
def test_another_tag_of_a_lettered_thing_is_no_formula(text: str, point: str) -> None:
    action = Action("read", {"point": point})
    assert model_checked(TAGGED_ROUTER, TAGGED, text, action).name == "respond"


@pytest.mark.parametrize(("text", "point"), [
    ("heater h1 temperature", "heater_h1_temp"),
    ("what's oven O1 at", "oven_o1_temp"),
    ("furnace hydrogen setpoint?", "furnace_h2_sp"),
])
def test_its_own_tag_passes(text: str, point: str) -> None:
    action = Action("read", {"point": point})
    assert model_checked(TAGGED_ROUTER, TAGGED, text, action) == action


BOILERS = exec_plant("boilers", {
    "boiler3_sp": {"name": "Boiler 3 temperature setpoint", "unit": "°C", "writable": True,
                   "min": 0, "max": 200},
    "boiler3_temp": {"name": "Boiler 3 temperature", "unit": "°C"},
    "pump1_speed": {"name": "Feed pump 1 speed", "unit": "rpm", "writable": True,
                    "min": 0, "max": 3000},
})
BOILERS_ROUTER = Router(BOILERS)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("1号给水泵转速改1500", "pump1_speed", 1500),
    ("1号给水泵转速改一千", "pump1_speed", 1000),
    ("3号锅炉温度设定改90", "boiler3_sp", 90),
    ("3号锅炉温度设定改一百", "boiler3_sp", 100),
])
async def test_zh_change_alone_before_a_number_sets(text: str, point: str, value: int) -> None:
    assert await routed_without_model(BOILERS_ROUTER, text) == \
        Action("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", [
    # 调 alone: a change by the number as often as to it (review atk72)
    "1号给水泵转速调1000",
    "3号锅炉温度调2度",
    "3号锅炉温度设定调1度",
    "3号锅炉温度设定调一百",
    # a thing or a count where the value goes, a step below zero
    "3号锅炉温度设定改3#",
    "3号锅炉温度设定改第2",
    "1号给水泵转速改2#泵",
    "3号锅炉温度改-5",
    "3号锅炉温度设定调一",
    "3号锅炉温度设定调一调",
    "3号锅炉温度设定调一点",
    "1号给水泵转速调一下",
    "3号锅炉温度调两度",
])
async def test_zh_adjust_with_no_value_is_neither_written_nor_read(text: str) -> None:
    assert (await routed_without_model(BOILERS_ROUTER, text)).name == "respond"


PUMPS = exec_plant("pumps", {
    "hp1": {"name": "High pressure pump 1", "type": "bool", "writable": True},
    "hp1_press": {"name": "High pressure pump 1 discharge pressure", "unit": "bar"},
    "hp2": {"name": "High pressure pump 2", "type": "bool", "writable": True},
    "lt_temp": {"name": "Low temperature heater outlet temperature", "unit": "°C"},
    "lt_flow": {"name": "Low temperature heater flow", "unit": "m³/h"},
    "pf_dp": {"name": "Pressure filter differential pressure", "unit": "kPa"},
    "pf_level": {"name": "Pressure filter sump level", "unit": "%"},
})
PUMPS_ROUTER = Router(PUMPS)


@pytest.mark.parametrize(("text", "point"), [
    ("what's the pressure on pump 2", "hp2"),
    ("what's the pressure on the high pressure pump 2", "hp2"),
    ("what's the temperature on the low temp heater", "lt_flow"),
    ("what's the pressure on the pressure filter", "pf_level"),
])
async def test_a_quantity_of_a_things_name_asked_apart(text: str, point: str) -> None:
    action = Action("read", {"point": point})
    assert model_checked(PUMPS_ROUTER, PUMPS, text, action).name == "respond"
    assert await routed_without_model(PUMPS_ROUTER, text) != action


@pytest.mark.parametrize(("text", "action"), [
    ("is high pressure pump 2 running", Action("read", {"point": "hp2"})),
    ("low temperature heater flow?", Action("read", {"point": "lt_flow"})),
    ("pressure filter sump level", Action("read", {"point": "pf_level"})),
    ("high pressure pump 1 discharge pressure", Action("read", {"point": "hp1_press"})),
])
async def test_the_things_own_name_still_reads(text: str, action: Action) -> None:
    assert await routed_without_model(PUMPS_ROUTER, text) == action


MIXERS = exec_plant("mixers72", {
    "mixer_speed": {"name": "Mixer speed setpoint", "unit": "rpm", "writable": True,
                    "min": 0, "max": 300},
    "kiln_feed": {"name": "Kiln feed rate setpoint", "unit": "t/h", "writable": True,
                  "min": 0, "max": 300},
    "pump2_speed": {"name": "Pump 2 speed setpoint", "unit": "rpm", "writable": True,
                    "min": 0, "max": 3000},
})
MIXERS_ROUTER = Router(MIXERS)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("drop the mixer speed to mixer 1", "mixer_speed", 1),
    ("lower the mixer speed to mixer one", "mixer_speed", 1),
    ("cut the kiln feed to kiln 1's", "kiln_feed", 1),
])
async def test_a_things_number_is_no_value(text: str, point: str, value: int) -> None:
    """Review atk72: "to mixer 1" says which mixer to match, never 1 rpm."""
    action = Action("write", {"point": point, "value": value})
    # (the model's write, through the gate every write passes)
    assert gated(text, MIXERS.points[point], value, MIXERS_ROUTER.rules.profiles,
                 MIXERS_ROUTER.rules.analyse(text).toks) is not None
    assert await routed_without_model(MIXERS_ROUTER, text) != action


async def test_its_own_number_and_then_a_value() -> None:
    assert await routed_without_model(MIXERS_ROUTER, "set pump 2 speed to 1500") == \
        Action("write", {"point": "pump2_speed", "value": 1500})


@pytest.mark.parametrize("text", [
    "1号给水泵转速改2泵", "1号给水泵转速给到#2", "3号锅炉温度设定改.5", "3号锅炉温度设定改五六",
    "3号锅炉温度设定给到2罐",
])
async def test_zh_a_thing_or_an_about_is_no_value(text: str) -> None:
    """Review atk72b: 2泵 is pump 2, #2 a thing, .5 read as 5, 五六 "five or six"."""
    assert (await routed_without_model(BOILERS_ROUTER, text)).name == "respond"


HEATERS = exec_plant("heaters72", {
    "heater_kw": {"name": "Heater power setpoint", "unit": "kW", "writable": True,
                  "min": 0, "max": 50},
    "light_stage": {"name": "Lighting stage", "type": "int", "writable": True,
                    "min": 0, "max": 4},
})
HEATERS_ROUTER = Router(HEATERS)


async def test_a_step_of_a_scale_is_a_value_only_of_a_point_without_a_unit() -> None:
    assert (await routed_without_model(HEATERS_ROUTER, "lower the heater to setting 3")).name \
        == "respond"
    assert await routed_without_model(HEATERS_ROUTER, "drop the lighting to stage 2") == \
        Action("write", {"point": "light_stage", "value": 2})


@pytest.mark.parametrize("text", ["set the mixer speed to the mixer 1",
                                  "set the mixer speed to that of mixer 1"])
def test_a_things_number_after_the_is_no_value(text: str) -> None:
    assert gated(text, MIXERS.points["mixer_speed"], 1, MIXERS_ROUTER.rules.profiles,
                 MIXERS_ROUTER.rules.analyse(text).toks) is not None
