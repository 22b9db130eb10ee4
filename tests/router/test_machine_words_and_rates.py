"""Blind batches 49 and 50 (a cement works, a paper mill, a sugar factory, an asphalt plant, a
dye house; here on plants of my own): a unit said tells a setpoint from a fan's; a terse value
of a measured speed is its setpoint's; "speed X up to", "bring X to"; a unit with a slash
("kN/m", "°C/min", "degrees per minute"); a fire lit or put out, neither read nor written; a
pressure drop; Chinese words of machines."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

DRYER = Router(exec_plant("drier", {
    "drum_speed": {"name": "Drum speed", "unit": "rpm"},
    "drum_speed_sp": {"name": "Drum speed setpoint", "unit": "rpm", "writable": True,
                      "min": 1, "max": 8},
    "drum_fan_sp": {"name": "Drum exhaust fan speed setpoint", "unit": "%", "writable": True,
                    "min": 20, "max": 100},
    "calender_load_sp": {"name": "Calender nip load setpoint", "unit": "kN/m",
                         "writable": True, "min": 20, "max": 300},
    "oven_ramp": {"name": "Oven 1 heating ramp", "unit": "°C/min", "writable": True,
                  "min": 0.5, "max": 10},
    "oven_temp": {"name": "Oven 1 air temperature", "unit": "°C"},
    "oven_temp_sp": {"name": "Oven 1 temperature setpoint", "unit": "°C", "writable": True,
                     "min": 20, "max": 250},
    "line_speed": {"name": "Line speed", "unit": "m/min"},
    "line_speed_sp": {"name": "Line speed setpoint", "unit": "m/min", "writable": True,
                      "min": 0, "max": 900},
    "pilot": {"name": "Pilot burner", "type": "bool", "writable": True},
    "hall_light": {"name": "Hall light", "type": "bool", "writable": True},
    "collector_dp": {"name": "Dust collector differential pressure", "unit": "Pa"},
    "lift_pump": {"name": "Effluent lift pump", "type": "bool", "writable": True},
    "fire_pump": {"name": "Fire pump", "type": "bool", "writable": True},
    "fire_alarm": {"name": "Fire alarm", "type": "bool", "writable": True},
    "deluge": {"name": "Fire deluge valve", "type": "bool", "writable": True},
    "boiler": {"name": "Boiler", "type": "bool", "writable": True},
    "room_lights": {"name": "Boiler room lights", "type": "bool", "writable": True},
    "tank_level": {"name": "Tank level", "unit": "%"},
    "grate_speed": {"name": "Cooler grate speed", "unit": "strokes/min"},
    "grate_speed_sp": {"name": "Cooler grate speed setpoint", "unit": "strokes/min",
                       "writable": True, "min": 4, "max": 22},
    "tank_level_sp": {"name": "Tank level setpoint", "unit": "%", "writable": True,
                      "min": 0, "max": 100},
    "stock_pump_1": {"name": "Thick stock pump 1", "type": "bool", "writable": True},
    "stock_pump_2": {"name": "Thick stock pump 2", "type": "bool", "writable": True},
    "diffuser_temp": {"name": "Beet diffuser temperature", "unit": "°C"},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    # the fan's speed is in %: "rpm" tells them apart, as does the fan's name, unsaid
    ("set drum speed to 3.5 rpm", "drum_speed_sp", 3.5),
    ("set the drum to 3.5 rpm", "drum_speed_sp", 3.5),
    ("set the drum speed to 3.5", "drum_speed_sp", 3.5),
    # a value said to a measured speed, without a verb: its own setpoint's
    ("drum speed 3.5 rpm", "drum_speed_sp", 3.5),
    ("drum speed three point five", "drum_speed_sp", 3.5),
    # "speed ... up to": a verb and its value, no bound
    ("speed the drum up to 4", "drum_speed_sp", 4),
    ("set calender nip load to 80 kN/m", "calender_load_sp", 80),
    ("set oven 1 heating ramp to 2 degrees per minute", "oven_ramp", 2),
    ("set oven 1 heating ramp to 2 °C/min", "oven_ramp", 2),
    ("ramp oven 1 at 2.5 degrees a minute", "oven_ramp", 2.5),
    # "bring"/"take" ... "up to": a verb and its value
    ("bring the line speed up to eight hundred and fifty", "line_speed_sp", 850),
    ("bring the line speed to 850", "line_speed_sp", 850),
    ("knock the line speed down to 600", "line_speed_sp", 600),
    ("take oven 1 up to 150 °C", "oven_temp_sp", 150),
    # its setpoint, not the ramp, whose unit is another
    ("set oven 1 temperature to 150", "oven_temp_sp", 150),
    ("turn the hall light on", "hall_light", True),
    ("启动污水提升泵", "lift_pump", True),
    ("停掉二号浓浆泵", "stock_pump_2", False),
])
async def test_writes(text: str, point: str, value: Any) -> None:
    action = await routed_without_model(DRYER, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize(("text", "point"), [
    ("pressure drop across the dust collector", "collector_dp"),
    ("dust collector pressure drop", "collector_dp"),
    ("渗出器温度", "diffuser_temp"),
    ("what is the oven 1 air temperature in °C", "oven_temp"),
    # the "many" of a rate that counts what is said, per its time
    ("how many strokes a minute is the cooler grate doing", "grate_speed"),
    ("how many strokes per minute is the cooler grate doing", "grate_speed"),
])
async def test_reads(text: str, point: str) -> None:
    action = await routed_without_model(DRYER, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


@pytest.mark.parametrize(("text", "value"), [
    # a flame lit or put out: the switch of that very burner (blind batches 50-52)
    ("light the pilot burner", True),
    ("please ignite the pilot burner", True),
    ("fire the pilot burner", True),
    ("fire up the pilot burner", True),
    ("extinguish the pilot burner", False),
])
async def test_a_flame_lit_switches_its_burner(text: str, value: bool) -> None:
    action = await routed_without_model(DRYER, text)
    assert action.to_dict() == {"name": "write", "args": {"point": "pilot", "value": value}}


@pytest.mark.parametrize("text", [
    "set the drum to 3.5",  # its speed, or its fan's: no one can tell
    "drum speed up to 4",  # a bound, or a report
    "set calender nip load to 80 kN/mm",  # another unit
    "set oven 1 heating ramp to 2 degrees",  # a temperature, not a rate
    "drop the dust collector pressure",  # a change asked of a measured value
    "light 2 status",  # a light, no fire lit
    # a fire lit or put out of no burner: neither read nor written (reviews atk55, atk55b)
    "extinguish the fire pump fire",
    "light the alarm",
    "fire the deluge",
    "fire the alarm",
    # a change, or a report, of a measured value, said with its name and a number
    "drum speed change 0.5 rpm",
    "oven 1 air temperature drops 5 °C",
    "tank level 20 % full",
])
async def test_nothing_is_written(text: str) -> None:
    action = await routed_without_model(DRYER, text)
    assert action.name != "write", (text, action)


async def test_lighting_a_boiler_up_starts_no_boiler() -> None:
    """ "light the boiler up": its room's lights, perhaps; never the boiler (review atk55)."""
    action = await routed_without_model(DRYER, "light the boiler up")
    assert action.point != "boiler", action



FIRED = Router(exec_plant("fired", {
    "lob": {"name": "Light oil burner", "type": "bool", "writable": True},
    "hob": {"name": "Heavy oil burner", "type": "bool", "writable": True},
    "lob_rate": {"name": "Light oil burner firing rate", "unit": "%", "writable": True,
                 "min": 0, "max": 100},
    "kiln_speed": {"name": "Kiln speed", "unit": "rpm"},
    "kiln_speed_sp": {"name": "Kiln speed setpoint", "unit": "%", "writable": True,
                      "min": 0, "max": 100},
    "id_fan_sp": {"name": "Kiln ID fan speed setpoint", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "ffe_sp": {"name": "Falling film evaporator pressure setpoint", "unit": "bar",
               "writable": True, "min": 0, "max": 10},
    "p2_full": {"name": "Pump 2 full speed setpoint", "unit": "rpm", "writable": True,
                "min": 0, "max": 3000},
}))


@pytest.mark.parametrize("text", [
    # a burner named with "light", a pilot or a fan of a burner: no flame lit of that switch
    "light the light oil burner",
    "fire the light oil burner",
    "light the pilot of the heavy oil burner",
    "light the heavy oil burner firing rate",
    "is the heavy oil burner lit",
])
async def test_no_other_switch_is_lit(text: str) -> None:
    action = await routed_without_model(FIRED, text)
    assert action.name != "write", (text, action)


async def test_the_burner_named_is_lit() -> None:
    action = await routed_without_model(FIRED, "light the heavy oil burner")
    assert action.to_dict() == {"name": "write", "args": {"point": "hob", "value": True}}


@pytest.mark.parametrize(("text", "point", "value"), [
    # a point named with a verb of fire is named so (review atk55b)
    ("switch off the light oil burner", "lob", False),
    ("turn the light oil burner off", "lob", False),
    # "falling", "full" of a point's own name are no report
    ("falling film evaporator pressure setpoint 3 bar", "ffe_sp", 3),
    ("pump 2 full speed setpoint 1500", "p2_full", 1500),
])
async def test_names_with_words_of_fire_and_reports(text: str, point: str, value: Any) -> None:
    action = await routed_without_model(FIRED, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


async def test_a_setpoint_in_another_unit_is_no_own_setpoint() -> None:
    """ "kiln speed 3.6" of a kiln speed in rpm, whose "setpoint" is in %: not its own, and
    no more meant than the kiln ID fan's (review atk55b)."""
    action = await routed_without_model(FIRED, "kiln speed 3.6")
    assert action.name != "write", action
