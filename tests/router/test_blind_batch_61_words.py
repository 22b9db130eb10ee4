"""Blind batches 60 and 61, on plants of my own:
- a Chinese command that names a machine in English (关掉2号AHU的加湿器) says its Chinese
  words too: the humidifier of an "AHU 2 steam humidifier" is said, and a steam valve is no
  humidifier;
- a rate's unit is spelled by its two units (20升每小时 of a point in L/h), and another time
  (升每分钟) is no unit of it;
- a medium and a quantity a name says apart are the quantity a Chinese word says together:
  水温 of a "Cooling water temperature", 油压 of a "Hydraulic oil pressure";
- a slip inside a phrase is corrected before the phrase is read ("nitrogen dioxde level");
- "how wet" asks a moisture;
- the model's pick is refused where a quantity's word only says which thing ("fat tank level"
  of a "Fat tank temperature"), or an unknown word says another thing than the point's name
  ("wombat tank level" of a "Caustic tank level");
- words of the trade in Chinese: 洗车 wash, 撒砂 sanding, 模头 a die head, 膨化机 an extruder.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

UTILITY_CONFIG = exec_plant("utility", {
    "ahu2_hum": {"name": "AHU 2 steam humidifier", "type": "bool", "writable": True},
    "ahu2_fan": {"name": "AHU 2 supply fan", "type": "bool", "writable": True},
    "coag_dose": {"name": "Clarifier coagulant dosing rate", "unit": "L/h", "writable": True,
                  "min": 0, "max": 200},
    "cond_temp": {"name": "Cooling water temperature", "unit": "°C"},
    "hyd_press": {"name": "Hydraulic oil pressure", "unit": "bar"},
    "sump_level": {"name": "Sump 3 level", "unit": "%"},
    "no2": {"name": "NO2 at the face", "unit": "ppm", "aliases": ["nitrogen dioxide"]},
    "wash_temp_sp": {"name": "Train wash water temperature setpoint", "unit": "°C",
                     "writable": True, "min": 20, "max": 60},
    "sand_valve": {"name": "Sanding point delivery valve", "type": "bool", "writable": True},
    "die_press": {"name": "Extruder die pressure", "unit": "bar"},
    "kibble_moist": {"name": "Kibble moisture after dryer", "unit": "%"},
})
UTILITY = Router(UTILITY_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    ("关掉2号AHU的加湿器", {"name": "write", "args": {"point": "ahu2_hum", "value": False}}),
    ("关掉AHU2加湿器", {"name": "write", "args": {"point": "ahu2_hum", "value": False}}),
    ("混凝剂投加量调到20升每小时",
     {"name": "write", "args": {"point": "coag_dose", "value": 20}}),
    ("set the coagulant dose to 20 litres per hour",
     {"name": "write", "args": {"point": "coag_dose", "value": 20}}),
    ("冷却水水温多少", {"name": "read", "args": {"point": "cond_temp"}}),
    ("水温多少", {"name": "read", "args": {"point": "cond_temp"}}),
    ("油压多少", {"name": "read", "args": {"point": "hyd_press"}}),
    ("洗车水温设定改成45度", {"name": "write", "args": {"point": "wash_temp_sp", "value": 45}}),
    ("关闭撒砂阀", {"name": "write", "args": {"point": "sand_valve", "value": False}}),
    ("模头压力多少", {"name": "read", "args": {"point": "die_press"}}),
    ("膨化机模头压力多少", {"name": "read", "args": {"point": "die_press"}}),
    ("how wet is the kibble", {"name": "read", "args": {"point": "kibble_moist"}}),
])
async def test_words_of_batches_60_and_61(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(UTILITY, text)
    assert action.to_dict() == expect


@pytest.mark.parametrize("text", [
    "关掉2号AHU的蒸汽阀",  # a steam valve is no humidifier, whatever the "steam" of its name
    "混凝剂投加量调到20升每分钟",  # litres a minute are no unit of a rate in L/h
    "混凝剂投加量调到20公斤每小时",
])
async def test_what_the_words_do_not_say_is_not_written(text: str) -> None:
    action = await routed_without_model(UTILITY, text)
    assert action.name == "respond", action


def test_a_slip_inside_a_phrase_is_corrected_before_the_phrase_is_read() -> None:
    # "nitrogen dioxde level": a nitrogen dioxide level, not nitrogen and a word of no meaning
    # (which left the level unexplained, and the model's right read refused: blind batch 61)
    read = Action("read", {"point": "no2"})
    assert model_checked(UTILITY, UTILITY_CONFIG, "nitrogen dioxde level", read) == read
    assert model_checked(UTILITY, UTILITY_CONFIG, "nitrogen dioxde level",
                         Action("read", {"point": "sump_level"})).name == "respond"


async def test_two_water_temperatures_leave_water_temperature_open() -> None:
    plant = Router(exec_plant("two_waters", {
        "cond_temp": {"name": "Cooling water temperature", "unit": "°C"},
        "hw_temp": {"name": "Heating water flow temperature", "unit": "°C"},
    }))
    assert (await routed_without_model(plant, "水温多少")).name == "respond"
    heating = await routed_without_model(plant, "冷却水水温多少")
    assert heating.to_dict() == {"name": "read", "args": {"point": "cond_temp"}}


TANKS_CONFIG = exec_plant("tanks", {
    "fat_temp": {"name": "Fat tank temperature", "unit": "°C"},
    "o2_temp": {"name": "Oxygen tank temperature", "unit": "°C"},
    "flour_level": {"name": "Flour silo level", "unit": "%"},
    "rinse_level": {"name": "Rinse aid tank level", "unit": "%"},
    "caustic_level": {"name": "Caustic tank level", "unit": "%"},
    "clamps": {"name": "Axle box clamps engaged", "type": "bool"},
    "rad_fans": {"name": "Dump radiator fans", "type": "bool", "writable": True},
})
TANKS = Router(TANKS_CONFIG)


@pytest.mark.parametrize(("text", "point"), [
    ("fat tank level", "fat_temp"),  # the fat says which tank; a level is asked
    ("how full is the fat tank", "fat_temp"),
    ("oxygen tank level", "o2_temp"),
    ("wombat tank level", "caustic_level"),  # another tank than the caustic one
    ("surfactant tank level", "rinse_level"),
])
def test_the_model_reading_another_thing_is_refused(text: str, point: str) -> None:
    action = model_checked(TANKS, TANKS_CONFIG, text, Action("read", {"point": point}))
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "action"), [
    ("fat tank temperature", Action("read", {"point": "fat_temp"})),
    ("rinse tank level", Action("read", {"point": "rinse_level"})),
    ("caustic tank level", Action("read", {"point": "caustic_level"})),
    ("are the axlebox clamps on", Action("read", {"point": "clamps"})),  # its own words joined
    ("dump rad fans on", Action("write", {"point": "rad_fans", "value": True})),
])
def test_the_model_reading_the_thing_named_stands(text: str, action: Action) -> None:
    assert model_checked(TANKS, TANKS_CONFIG, text, action) == action
