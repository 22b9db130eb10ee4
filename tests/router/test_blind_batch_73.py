"""Lessons of blind batch 73 (an oil well pad, a spinning mill, an aquatic centre) and of the
leftovers of reviews atk72 and atk72b, on plants written here:
- 调 alone before a number is a change by it as often as to it, after a point's own Chinese
  name too (炉温调2度); 改 before a number after any Chinese word is the verb of setting;
- a quantity said apart from the thing's name that holds it is no value of another quantity
  ("set the high pressure pump pressure to 50" of its speed setpoint);
- a kind of a quantity is no other kind of it ("total chlorine" of the free or the combined
  chlorine), whatever a description says of the other;
- cd/m², mg/m³ and µg/m³ are units, not a unit, a letter and a second number;
- "三十六度半" is 36.5 degrees, "6 and a half" 6.5;
- what is told after a question of why it is asked is no part of what is asked.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.causes import cause_dropped
from hermesd.router.normalize import units_joined
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, model_checked, routed_without_model

WORKS = exec_plant("works73", {
    "furnace_temp": {"name": "Furnace temperature", "unit": "°C", "names": {"zh": "炉温"}},
    "furnace_sp": {"name": "Furnace temperature setpoint", "unit": "°C", "writable": True,
                   "min": 0, "max": 900, "names": {"zh": "炉温设定"}},
    "ac_on": {"name": "Air conditioner", "type": "bool", "writable": True,
              "names": {"zh": "空调"}},
    "ac_sp": {"name": "Air conditioner temperature setpoint", "unit": "°C", "writable": True,
              "min": 16, "max": 30, "names": {"zh": "空调温度设定"}},
    "boiler_temp": {"name": "Boiler 3 temperature", "unit": "°C"},
    "boiler_sp": {"name": "Boiler 3 temperature setpoint", "unit": "°C", "writable": True,
                  "min": 0, "max": 200},
    "pump1_speed": {"name": "Feed pump 1 speed", "unit": "rpm", "writable": True,
                    "min": 0, "max": 3000},
    "pump2_speed": {"name": "Feed pump 2 speed", "unit": "rpm", "writable": True,
                    "min": 0, "max": 3000},
    "tumbler": {"name": "Seasoning tumbler", "type": "bool", "writable": True,
                "names": {"zh": "调味滚筒"}},
    "hp_speed_sp": {"name": "High pressure pump speed setpoint", "unit": "rpm",
                    "writable": True, "min": 0, "max": 3000},
    "hp_press": {"name": "High pressure pump discharge pressure", "unit": "bar"},
    "lt_flow_sp": {"name": "Low temperature heater flow setpoint", "unit": "m³/h",
                   "writable": True, "min": 0, "max": 100},
    "tunnel_lum_sp": {"name": "Tunnel luminance setpoint", "unit": "cd/m2", "writable": True,
                      "min": 0, "max": 300},
    "dust": {"name": "Crusher house dust", "unit": "mg/m³"},
    "dust_limit": {"name": "Crusher house dust alarm limit", "unit": "mg/m³",
                   "writable": True, "min": 0, "max": 50},
    "spa_temp_sp": {"name": "Spa water temperature setpoint", "unit": "°C", "writable": True,
                    "min": 30, "max": 40, "names": {"zh": "按摩池水温设定"}},
    "hall_rh": {"name": "Pool hall relative humidity", "unit": "%RH"},
})
ROUTER = Router(WORKS)

POOLS = exec_plant("pools73", {
    "free_cl": {"name": "Teaching pool free chlorine", "unit": "mg/L"},
    "combined_cl": {"name": "Teaching pool combined chlorine", "unit": "mg/L",
                    "description": "Chloramines: the total chlorine less the free chlorine"},
    "ph": {"name": "Teaching pool pH", "unit": "pH"},
    "dry_bulb": {"name": "Plant room dry bulb temperature", "unit": "°C"},
})
POOL_ROUTER = Router(POOLS)


@pytest.mark.parametrize("text", [
    "炉温调2度",  # (by 2 degrees, or to 2? after the point's own Chinese name)
    "空调温度调2度",
    "空调温度设定调2度",
    "炉温设定调500",
    "3号锅炉温度调2度",
])
async def test_tiao_alone_before_a_number_writes_nothing(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond"


@pytest.mark.parametrize(("text", "point", "value"), [
    ("炉温调2度", "furnace_sp", 2),
    ("空调温度调2度", "ac_sp", 2),
])
def test_a_models_write_of_tiao_alone_is_asked_back(text: str, point: str, value: int) -> None:
    assert gated(text, WORKS.points[point], value, ROUTER.rules.profiles) is not None


@pytest.mark.parametrize(("text", "action"), [
    # (what still works: 调到, 改成, 改 after a quantity, 空调, 调 in a word)
    ("炉温设定调到500", Action("write", {"point": "furnace_sp", "value": 500})),
    ("炉温设定改成500", Action("write", {"point": "furnace_sp", "value": 500})),
    ("1号泵转速改1000", Action("write", {"point": "pump1_speed", "value": 1000})),
    ("打开空调", Action("write", {"point": "ac_on", "value": True})),
    ("打开调味滚筒", Action("write", {"point": "tumbler", "value": True})),
])
async def test_tiao_and_gai_that_set_still_set(text: str, action: Action) -> None:
    assert await routed_without_model(ROUTER, text) == action


@pytest.mark.parametrize("text", [
    "炉温改3#",  # (a thing's number as the value: asked back, no read of the furnace)
    "3号锅炉温度不用改150",  # (no need to change it: no read either)
])
async def test_gai_after_a_chinese_name_is_no_read(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond"


@pytest.mark.parametrize(("text", "action"), [
    ("set the high pressure pump pressure to 50",
     Action("write", {"point": "hp_speed_sp", "value": 50})),
    ("set the temperature on the low temperature heater to 60",
     Action("write", {"point": "lt_flow_sp", "value": 60})),
])
def test_a_quantity_in_a_things_name_is_no_value_of_another(text: str, action: Action) -> None:
    checked = model_checked(ROUTER, WORKS, text, action)
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("text", "action"), [
    ("set the high pressure pump speed to 1500",
     Action("write", {"point": "hp_speed_sp", "value": 1500})),
    ("low temperature heater flow to 60", Action("write", {"point": "lt_flow_sp", "value": 60})),
])
def test_the_quantity_of_the_point_itself_is_written(text: str, action: Action) -> None:
    assert model_checked(ROUTER, WORKS, text, action) == action


@pytest.mark.parametrize(("text", "action"), [
    ("set tunnel luminance to 100 cd/m2",
     Action("write", {"point": "tunnel_lum_sp", "value": 100})),
    ("set tunnel luminance to 100 cd/m²",
     Action("write", {"point": "tunnel_lum_sp", "value": 100})),
    ("set the crusher house dust alarm limit to 10 mg/m3",
     Action("write", {"point": "dust_limit", "value": 10})),
    ("crusher house dust in mg/m3?", Action("read", {"point": "dust"})),
])
async def test_units_per_square_and_cubic_metre(text: str, action: Action) -> None:
    assert await routed_without_model(ROUTER, text) == action


@pytest.mark.parametrize(("said", "meant"), [
    ("按摩池水温调到三十六度半", "按摩池水温调到三十六点五度"),
    ("水温36度半", "水温36.5度"),
    ("液位三米半", "液位三点五米"),
    ("一个半小时", "一个半小时"),  # (no degrees nor metres: as it was)
    ("两点半", "两点半"),
])
def test_a_half_after_degrees_or_metres(said: str, meant: str) -> None:
    assert units_joined(said) == meant


async def test_a_half_degree_is_written() -> None:
    assert await routed_without_model(ROUTER, "按摩池水温设定调到三十六度半") == \
        Action("write", {"point": "spa_temp_sp", "value": 36.5})


@pytest.mark.parametrize("point", ["free_cl", "combined_cl"])
async def test_a_kind_of_a_quantity_is_no_other_kind(point: str) -> None:
    text = "what's the total chlorine in the teaching pool"
    assert (await routed_without_model(POOL_ROUTER, text)).name == "respond"
    checked = model_checked(POOL_ROUTER, POOLS, text, Action("read", {"point": point}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("text", "point"), [
    ("what's the free chlorine in the teaching pool", "free_cl"),
    ("chloramines in the teaching pool?", "combined_cl"),
    ("teaching pool combined chlorine", "combined_cl"),
])
async def test_each_kind_is_its_own(text: str, point: str) -> None:
    assert await routed_without_model(POOL_ROUTER, text) == Action("read", {"point": point})


def test_another_kind_of_temperature_is_no_dry_bulb() -> None:
    action = Action("read", {"point": "dry_bulb"})
    checked = model_checked(POOL_ROUTER, POOLS, "plant room wet bulb temperature", action)
    assert checked.name == "respond"


@pytest.mark.parametrize(("text", "left"), [
    ("hall humidity? everybody is complaining", "hall humidity?"),
    ("spa temp? somebody's complaining", "spa temp?"),
    # (a thing said, even no word of the plant's: the question may be of it — review atk73b)
    ("hall humidity? windows are all sweating", "hall humidity? windows are all sweating"),
    ("free chlorine? the jacuzzi's smelling strongly",
     "free chlorine? the jacuzzi's smelling strongly"),
    ("water temp? the learner's freezing", "water temp? the learner's freezing"),
    ("pool temp? the other's freezing", "pool temp? the other's freezing"),
    # (what could add to the question, take it back or ask again stays)
    ("hall humidity? and the spa", "hall humidity? and the spa"),
    ("hall humidity? the other one is sweating", "hall humidity? the other one is sweating"),
    ("hall humidity? what about the spa", "hall humidity? what about the spa"),
    ("hall humidity? it says 80 on the panel", "hall humidity? it says 80 on the panel"),
    ("hall humidity? start the dehumidifier if it is high",
     "hall humidity? start the dehumidifier if it is high"),
    ("hall humidity? not the spa's", "hall humidity? not the spa's"),
])
def test_what_is_told_after_a_question(text: str, left: str) -> None:
    assert cause_dropped(text) == left


async def test_a_reason_after_a_question_reads() -> None:
    assert await routed_without_model(ROUTER, "pool hall humidity? everybody's complaining") \
        == Action("read", {"point": "hall_rh"})


@pytest.mark.parametrize("text", [
    "feed pump 1 speed to 1500? everybody's complaining",
    # (asked politely, a request: what is told after it is heard — review atk73b)
    "can you set feed pump 1 speed to 1500? nah, it's fine",
    "can you set feed pump 1 speed to 1500? everybody's complaining",
])
async def test_a_write_with_a_clause_after_its_question_mark_is_heard_whole(text: str) -> None:
    assert (await routed_without_model(ROUTER, text)).name == "respond"


@pytest.mark.parametrize(("said", "value"), [
    ("set the crusher house dust alarm limit to 6 and a half", 6.5),
    ("crusher house dust alarm limit 12 and a half mg/m3", 12.5),
])
async def test_a_number_and_a_half(said: str, value: float) -> None:
    assert await routed_without_model(ROUTER, said) == \
        Action("write", {"point": "dust_limit", "value": value})


@pytest.mark.parametrize("said", [
    "set the crusher house dust alarm limit to 6 and a half or 7",
    "set the crusher house dust alarm limit to 6, and a half",
])
async def test_a_half_that_is_no_part_of_the_number(said: str) -> None:
    assert (await routed_without_model(ROUTER, said)).name == "respond"


# -- review atk73 ---------------------------------------------------------------------------

COLD = exec_plant("cold73", {
    "cold_sp": {"name": "Cold store temperature setpoint", "unit": "°C", "writable": True,
                "min": -30, "max": 10, "names": {"zh": "冷库温度设定"}},
    "oven_sp": {"name": "Oven temperature setpoint", "unit": "°C", "writable": True,
                "min": 0, "max": 300, "names": {"zh": "烘箱温度设定"}},
    "lc_sp": {"name": "Level controller 1 setpoint", "unit": "%", "writable": True,
              "min": 0, "max": 100},
    "fc_sp": {"name": "Flow controller 3 setpoint", "unit": "m³/h", "writable": True,
              "min": 0, "max": 200},
    "ambient": {"name": "Plant room ambient temperature", "unit": "°C"},
    "density_sp": {"name": "Slurry density setpoint", "unit": "kg/m³", "writable": True,
                   "min": 1000, "max": 2000},
    "coat_sp": {"name": "Coat weight setpoint", "unit": "g/m²", "writable": True,
                "min": 0, "max": 200},
})
COLD_ROUTER = Router(COLD)


@pytest.mark.parametrize(("text", "point", "value"), [
    # (a minus before Chinese numerals, which the reader drops: asked back, never +4)
    ("冷库温度设定改成-四度", "cold_sp", 4),
    ("冷库温度设定改成-四度半", "cold_sp", 4.5),
    ("冷库温度设定调到－十八度半", "cold_sp", 18.5),
    ("冷库温度设定- 十度半", "cold_sp", 10.5),
    # (调整, 调节: adjust, by as often as to)
    ("烘箱温度设定调整20度", "oven_sp", 20),
    ("烘箱温度设定调节20度", "oven_sp", 20),
])
async def test_what_the_reader_cannot_sign_or_place_is_asked_back(
        text: str, point: str, value: float) -> None:
    assert (await routed_without_model(COLD_ROUTER, text)).name == "respond"
    assert gated(text, COLD.points[point], value, COLD_ROUTER.rules.profiles) is not None


@pytest.mark.parametrize(("text", "value"), [
    ("冷库温度设定改成负四度半", -4.5),
    ("冷库温度设定改成零下十八度半", -18.5),
])
async def test_a_half_degree_below_zero_said_in_words(text: str, value: float) -> None:
    assert await routed_without_model(COLD_ROUTER, text) == \
        Action("write", {"point": "cold_sp", "value": value})


@pytest.mark.parametrize("text", [
    "hall humidity? I mean the spa's sweating",
    "hall humidity? meaning the changing room's",
    "hall humidity? the one in the spa is sweating",
    "hall humidity? spa's too",
    "hall humidity? changing room's as well",
])
def test_a_clause_that_names_again_is_kept(text: str) -> None:
    assert cause_dropped(text) == text


@pytest.mark.parametrize("text", [
    "pool hall humidity? the feed pump is sweating",  # (a thing of the plant: which is asked?)
    "pool hall humidity? the boiler's roasting",
])
def test_a_clause_that_names_a_thing_of_the_plant_is_kept(text: str) -> None:
    assert cause_dropped(text, ROUTER.rules.profiles.plant_words) == text


@pytest.mark.parametrize(("text", "action"), [
    ("set level controller 1 level to 60", Action("write", {"point": "lc_sp", "value": 60})),
    ("set the flow on flow controller 3 to 50",
     Action("write", {"point": "fc_sp", "value": 50})),
])
def test_an_instrument_named_by_its_quantity_has_it(text: str, action: Action) -> None:
    assert model_checked(COLD_ROUTER, COLD, text, action) == action


def test_a_kind_said_in_the_points_own_words_is_its_own() -> None:
    action = Action("read", {"point": "ambient"})
    assert model_checked(COLD_ROUTER, COLD, "what's the room temperature in the plant room",
                         action) == action


@pytest.mark.parametrize(("text", "action"), [
    ("set the slurry density setpoint to 1500 kg/m3",
     Action("write", {"point": "density_sp", "value": 1500})),
    ("set coat weight setpoint to 50 g/m2", Action("write", {"point": "coat_sp", "value": 50})),
])
async def test_units_per_area_and_volume_by_mass(text: str, action: Action) -> None:
    assert await routed_without_model(COLD_ROUTER, text) == action


DOSING = exec_plant("dosing73", {
    "ci_sp": {"name": "Corrosion inhibitor rate setpoint", "unit": "qt/d", "writable": True,
              "min": 0, "max": 40},
    "mi_sp": {"name": "Methanol injection rate setpoint", "unit": "L/h", "writable": True,
              "min": 0, "max": 40},
})


@pytest.mark.parametrize(("text", "action"), [
    ("corrosion inhibitor rate to 6 and a half quarts a day",
     Action("write", {"point": "ci_sp", "value": 6.5})),
    ("corrosion inhibitor rate to 6 quarts a day", Action("write", {"point": "ci_sp", "value": 6})),
    # (a day is no hour: asked back)
    ("methanol injection rate to 6 litres a day", None),
])
async def test_a_rate_said_a_day(text: str, action: Action | None) -> None:
    got = await routed_without_model(Router(DOSING), text)
    assert got == action if action is not None else got.name == "respond"


@pytest.mark.parametrize(("text", "yes_no"), [
    ("2号泵开着没有", True),  # (is it on?)
    ("2号泵停了没有", True),  # (has it stopped?)
    ("2号泵没有开", False),  # (it is not on: told, no question)
])
def test_meiyou_after_a_state_asks_yes_or_no(text: str, yes_no: bool) -> None:
    assert ROUTER.rules.analyse(text).yes_no is yes_no


# -- review atk73b --------------------------------------------------------------------------

MIXED = exec_plant("mixed73", {
    "cold_sp": {"name": "Cold store temperature setpoint", "unit": "°C", "writable": True,
                "min": -30, "max": 10, "names": {"zh": "冷库温度设定"}},
    "oven_sp": {"name": "Oven temperature setpoint", "unit": "°C", "writable": True,
                "min": 0, "max": 300, "names": {"zh": "烘箱温度设定"}},
    "esp_on": {"name": "ESP 1 running", "type": "bool", "writable": True},
    "esp_sp": {"name": "ESP 1 current setpoint", "unit": "mA", "writable": True,
               "min": 0, "max": 1000},
    "ha_night": {"name": "Zone 3 heater A night setpoint", "unit": "°C", "writable": True,
                 "min": 5, "max": 30},
    "hb_day": {"name": "Zone 3 heater B day setpoint", "unit": "°C", "writable": True,
               "min": 5, "max": 30},
    "main_t": {"name": "Main pool water temperature", "unit": "°C"},
    "fc_out": {"name": "Flow controller 5 output", "unit": "%", "writable": True,
               "min": 0, "max": 100},
})
MIXED_ROUTER = Router(MIXED)


@pytest.mark.parametrize("text", [
    "冷库温度设定改成‒十八度半",  # (U+2012, U+2015: minus signs too)
    "冷库温度设定改成―四度",
    "烘箱温度设定调整：20度",
    "烘箱温度设定调节,20",
    "烘箱温度设定调个20度",
    "启动1号电泵",  # (an oil well's electric pump: no precipitator)
    "1号电泵电流设定改成500",
    "set zone 3 heater A day setpoint to 21",  # (heater A's: no "a day")
])
async def test_review_atk73b_writes_nothing(text: str) -> None:
    assert (await routed_without_model(MIXED_ROUTER, text)).name == "respond"


@pytest.mark.parametrize(("text", "action"), [
    ("跳水池水温", Action("read", {"point": "main_t"})),  # (a diving pool is no main pool)
    ("set zone 3 heater A day setpoint to 21", Action("write", {"point": "hb_day",
                                                                "value": 21})),
    ("set flow controller 5 flow to 50", Action("write", {"point": "fc_out", "value": 50})),
])
def test_review_atk73b_the_models_pick_is_refused(text: str, action: Action) -> None:
    assert model_checked(MIXED_ROUTER, MIXED, text, action).name == "respond"
