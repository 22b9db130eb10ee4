"""Reads the model proposes that answer another value than the one asked (review atk67b):
- noise ("ok", "well", a number alone, "set 50") names nothing: the model's guess of a point is
  no answer to it;
- "the oven 1 set temperature" and 温度设定为多少 ask for a setting: a measured value is no
  answer, and the rules read the setpoint where there is one;
- a temperature setting asked of a point that is a heating rate, a high limit or an alarm
  setpoint of that temperature is another value, unless the words say that too ("heating
  rate", "temperature limit", 高温报警设定).
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_read_checked, routed_without_model

CONFIG = exec_plant("settings", {
    "bin1_level": {"name": "Bin 1 level", "unit": "%"},
    "bin1_level_sp": {"name": "Bin 1 level setpoint", "unit": "%", "writable": True,
                      "min": 0, "max": 100},
    "fan1": {"name": "Fan 1", "type": "bool", "writable": True},
    "fan1_speed": {"name": "Fan 1 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "dryer1_temp": {"name": "Dryer 1 temperature", "unit": "°C"},
    "dryer1_ramp": {"name": "Dryer 1 heating rate setpoint", "unit": "°C/min",
                    "aliases": ["1号干燥机升温速率设定"], "writable": True, "min": 0, "max": 10},
    "dryer2_temp": {"name": "Dryer 2 temperature", "unit": "°C", "aliases": ["2号干燥机温度"]},
    "dryer2_sp": {"name": "Dryer 2 temperature setpoint", "unit": "°C",
                  "aliases": ["2号干燥机温度设定值"], "writable": True, "min": 20, "max": 120},
    "room3_temp": {"name": "Room 3 temperature", "unit": "°C", "aliases": ["3号房间温度"]},
    "room3_limit": {"name": "Room 3 temperature high limit", "unit": "°C",
                    "aliases": ["3号房间温度上限"], "writable": True, "min": 0, "max": 40},
    "room4_temp": {"name": "Room 4 temperature", "unit": "°C", "aliases": ["4号房间温度"]},
    "room4_alarm": {"name": "Room 4 high temperature alarm setpoint", "unit": "°C",
                    "aliases": ["4号房间高温报警设定"], "writable": True, "min": 0, "max": 40},
    "pump5_dp_sp": {"name": "Pump 5 differential pressure setpoint", "unit": "kPa",
                    "aliases": ["5号泵压差设定"], "writable": True, "min": 0, "max": 500},
    "mould6_dt_sp": {"name": "Mould 6 temperature difference setpoint", "unit": "°C",
                     "aliases": ["6号模具温差设定"], "writable": True, "min": 0, "max": 30},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize("text", [
    "ok", "okay", "ok ok", "ok then", "well", "50", "2", "set 50", "um 50", "um 50 percent",
])
@pytest.mark.parametrize("point", ["bin1_level", "fan1_speed"])
def test_noise_reads_nothing(text: str, point: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, text, point)
    assert checked.name == "respond", checked
    assert checked.args["reason"] == "not_understood"


@pytest.mark.parametrize(("text", "point"), [
    ("bin 1?", "bin1_level"),
    ("fan one", "fan1_speed"),
    ("is the fan ok", "fan1"),
])
def test_a_word_of_the_point_is_still_enough(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point) == Action("read", {"point": point})


@pytest.mark.parametrize(("text", "point"), [
    ("what is the dryer 2 set temperature", "dryer2_sp"),
    ("2号干燥机温度设定为多少", "dryer2_sp"),
])
async def test_the_rules_read_the_setting_asked(text: str, point: str) -> None:
    assert await routed_without_model(ROUTER, text) == Action("read", {"point": point})


@pytest.mark.parametrize(("text", "point"), [
    ("what is the dryer 1 set temperature", "dryer1_temp"),
    ("what is the dryer 2 set temperature", "dryer2_temp"),
    ("2号干燥机温度设定为多少", "dryer2_temp"),
])
def test_a_measured_value_is_no_setting(text: str, point: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, text, point)
    assert checked.name == "respond", checked
    assert checked.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("text", "point", "asked"), [
    ("dryer 1 temperature setpoint?", "dryer1_ramp", "temperature"),
    ("what is the dryer 1 set temperature", "dryer1_ramp", "temperature"),
    ("1号干燥机设定温度", "dryer1_ramp", "温度"),
    ("3号房间设定温度是多少", "room3_limit", "温度"),
    ("room 3 temperature setpoint", "room3_limit", "temperature"),
    ("4号房间温度设定", "room4_alarm", "温度"),
    ("room 4 temperature setpoint", "room4_alarm", "temperature"),
])
def test_a_setting_asked_is_no_rate_limit_or_alarm_of_it(text: str, point: str,
                                                          asked: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, text, point)
    assert checked.name == "respond", checked
    assert (checked.args["reason"], checked.args["asked"]) == ("unknown_point", asked)


@pytest.mark.parametrize(("text", "point"), [
    ("dryer 1 heating rate?", "dryer1_ramp"),
    ("1号干燥机升温速率", "dryer1_ramp"),
    ("dryer 1 setpoint?", "dryer1_ramp"),
    ("room 3 temperature limit?", "room3_limit"),
    ("3号房间温度上限", "room3_limit"),
    ("room 4 alarm setpoint", "room4_alarm"),
    ("4号房间高温报警设定", "room4_alarm"),
])
def test_the_rate_limit_or_alarm_said_is_still_read(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point) == Action("read", {"point": point})


@pytest.mark.parametrize(("text", "point"), [
    ("3号房间温度设定为多少", "room3_limit"),
    ("4号房间温度设定为多少", "room4_alarm"),
    ("5号泵压力设定为多少", "pump5_dp_sp"),
    ("6号模具温度设定为多少", "mould6_dt_sp"),
])
async def test_a_setting_asked_in_chinese_is_no_limit_alarm_or_difference(text: str,
                                                                        point: str) -> None:
    """设定为多少 asks a setting (review atk69: the rules read the high limit, the alarm, the
    differential pressure and the temperature difference setpoints for it)."""
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action
    checked = model_read_checked(ROUTER, CONFIG, text, point)
    assert checked.name == "respond", checked


@pytest.mark.parametrize(("text", "point"), [
    ("5号泵压差设定为多少", "pump5_dp_sp"),
    ("6号模具温差设定为多少", "mould6_dt_sp"),
])
async def test_the_difference_said_is_still_read(text: str, point: str) -> None:
    assert await routed_without_model(ROUTER, text) == Action("read", {"point": point})
