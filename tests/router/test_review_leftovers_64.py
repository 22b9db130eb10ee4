"""Leftovers of reviews atk73 and atk73b, on a plant written here:
- a quantity said in Chinese apart from the thing's name that holds it is no value of another
  quantity (高压泵压力设为50 of the pump's speed setpoint), as in English;
- a number marked as a thing's ("#3", "no. 3") is no value, wherever it stands;
- 改 after an English quantity or setting is the verb of setting ("boiler 3 setpoint 改 150");
  after a thing's number (1号泵改30) it is asked back;
- a quantity said of a point that is a time (a switch's delay) is no value of it;
- "a thousand and a half" is no number to write.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

WORKS = exec_plant("works64", {
    "hp_speed_sp": {"name": "High pressure pump speed setpoint", "unit": "rpm",
                    "writable": True, "min": 0, "max": 3000, "names": {"zh": "高压泵转速设定"}},
    "hp_press": {"name": "High pressure pump discharge pressure", "unit": "bar"},
    "cv_pos": {"name": "Control valve opening", "unit": "%", "names": {"zh": "调节阀开度"}},
    "cv_sp": {"name": "Control valve opening setpoint", "unit": "%", "writable": True,
              "min": 0, "max": 100, "names": {"zh": "调节阀开度设定"}},
    "no2_lim": {"name": "Tunnel NO2 alarm limit", "unit": "mg/m3", "writable": True,
                "min": 0, "max": 20},
    "p1": {"name": "Pump 1", "type": "bool", "writable": True, "names": {"zh": "1号泵"}},
    "p1_hz": {"name": "Pump 1 frequency setpoint", "unit": "Hz", "writable": True,
              "min": 0, "max": 50, "names": {"zh": "1号泵频率设定"}},
    "boiler_sp": {"name": "Boiler 3 setpoint", "unit": "°C", "writable": True,
                  "min": 0, "max": 200},
    "ls_delay": {"name": "Level switch 2 delay setpoint", "unit": "s", "writable": True,
                 "min": 0, "max": 60},
    "ta_delay": {"name": "Temperature alarm 3 delay setpoint", "unit": "s", "writable": True,
                 "min": 0, "max": 120},
    "tank_level": {"name": "Tank 1 level", "unit": "%"},
    "fan_speed": {"name": "Exhaust fan speed setpoint", "unit": "rpm", "writable": True,
                  "min": 0, "max": 3000},
})
ROUTER = Router(WORKS)


def _write(point: str, value: float) -> Action:
    return Action("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", ["高压泵压力设为50", "高压泵压力改成50", "把高压泵的压力调到50"])
def test_a_pressure_said_in_chinese_is_no_speed_to_write(text: str) -> None:
    got = model_checked(ROUTER, WORKS, text, _write("hp_speed_sp", 50))
    assert got.name == "respond", got


@pytest.mark.parametrize(("text", "value"), [("高压泵转速设为1500", 1500),
                                             ("set the high pressure pump speed to 1500", 1500)])
def test_the_pumps_own_speed_is_still_written(text: str, value: float) -> None:
    got = model_checked(ROUTER, WORKS, text, _write("hp_speed_sp", value))
    assert got == _write("hp_speed_sp", value)


@pytest.mark.parametrize("text", ["调节阀开度#3", "control valve opening #3",
                                  "set control valve opening # 3", "control valve opening no. 3",
                                  "control valve opening number 3",
                                  # glued, and in words (review atk74)
                                  "control valve opening No3", "control valve opening Nº3",
                                  "control valve opening nr3", "control valve opening number three"])
async def test_a_number_marked_as_a_things_is_no_value(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action
    assert action.args.get("value_problem") == "other_thing"


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the NO2 alarm limit to 2 mg/m3", "no2_lim", 2),  # (NO2 is no "number 2")
    ("set control valve opening setpoint to 30", "cv_sp", 30),
    ("调节阀开度改50", "cv_sp", 50),
])
async def test_values_beside_such_words_are_written(text: str, point: str, value: float) -> None:
    assert await routed_without_model(ROUTER, text) == _write(point, value)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("1号泵频率改30", "p1_hz", 30),
    ("boiler 3 setpoint 改 150", "boiler_sp", 150),
])
async def test_gai_after_a_quantity_or_setting_sets(text: str, point: str, value: float) -> None:
    """("boiler 3 setpoint 改 150" was a read of the setpoint.)"""
    assert await routed_without_model(ROUTER, text) == _write(point, value)


@pytest.mark.parametrize("text", ["1号泵改30", "1号泵改30赫兹", "1号泵改2", "boiler 3 改 2",
                                  "pump 1 改 2"])
async def test_gai_after_a_things_number_is_asked_back(text: str) -> None:
    """A change over to pump 2 as often as a value (review atk74): nothing is read or written
    (it was a read of the pump)."""
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action
    assert action.args.get("unreadable") == ["改"]


@pytest.mark.parametrize(("text", "point"), [("set level switch 2 level to 30", "ls_delay"),
                                             ("set level switch 2 lvl to 30", "ls_delay"),
                                             ("液位开关2液位设为30", "ls_delay"),
                                             ("set temperature alarm 3 temperature to 60",
                                              "ta_delay")])
def test_a_quantity_is_no_value_of_a_delay(text: str, point: str) -> None:
    value = 60 if point == "ta_delay" else 30
    got = model_checked(ROUTER, WORKS, text, _write(point, value))
    assert got.name == "respond", got


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the level switch 2 delay to 30", "ls_delay", 30),
    ("set temperature alarm 3 delay to 60 s", "ta_delay", 60),
])
def test_the_delay_itself_is_written(text: str, point: str, value: float) -> None:
    got = model_checked(ROUTER, WORKS, text, _write(point, value))
    assert got == _write(point, value)


@pytest.mark.parametrize("text", ["set exhaust fan speed to 1 thousand and a half",
                                  "set exhaust fan speed to one thousand and a half",
                                  "set exhaust fan speed to a hundred and a half"])
async def test_a_thousand_and_a_half_is_asked_back(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action


async def test_fifteen_hundred_is_still_written() -> None:
    assert await routed_without_model(ROUTER, "set exhaust fan speed to fifteen hundred") == \
        _write("fan_speed", 1500)
