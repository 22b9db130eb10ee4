"""Classes of wrong answers found on a second batch of plants written blind (a district heating
plant, a ski resort's snowmaking, a textile dyehouse) and closed in general.

Each class is tested on one of those plants, on an older plant, and on a plant generated here
(a bakery: ovens with setpoints in the hundreds) that nobody tuned on; a class that can make a
write comes with commands that must make none.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config.model import Config
from hermesd.router import Router
from tests.support.daemon import fake_device
from tests.support.plants import config_of, model_read_checked, own_plant, routed_without_model


def _bakery() -> Config:
    return config_of({"node": {"id": "bakery"}, "devices": {
        "ovens": fake_device({
            "oven1_temp": {"name": "Oven 1 temperature", "type": "float", "unit": "°C"},
            "oven1_sp": {"name": "Oven 1 temperature setpoint", "type": "float", "unit": "°C",
                         "writable": True, "min": 100, "max": 300},
            "oven2_temp": {"name": "Oven 2 temperature", "type": "float", "unit": "°C"},
            "oven2_sp": {"name": "Oven 2 temperature setpoint", "type": "float", "unit": "°C",
                         "writable": True, "min": 100, "max": 300},
            "proofer_fan": {"name": "Proofer fan", "type": "bool", "writable": True},
            "proofer_mode": {"name": "Proofer mode", "type": "int", "writable": True,
                             "map": {0: "off", 1: "proof", 2: "retard"}},
            "flour_silo_level": {"name": "Flour silo level", "type": "float", "unit": "%"},
            "heating_mode": {"name": "Weather compensation mode", "type": "int",
                             "writable": True, "map": {0: "off", 1: "winter", 2: "summer"}},
            "compressor1": {"name": "Compressor 1", "type": "bool", "writable": True},
            "makeup_fan": {"name": "Make-up air fan", "type": "bool", "writable": True},
            "oven1_damper": {"name": "Oven 1 flue damper", "type": "int", "unit": "%",
                             "writable": True, "min": 0, "max": 100},
        }),
    }})


def _finishing() -> Config:
    """A textile finishing line named otherwise than the dyehouse: a tenter frame and chemical
    metering pumps."""
    return config_of({"node": {"id": "finishing"}, "devices": {
        "line": fake_device({
            "tenter_speed": {"name": "Tenter frame line speed", "type": "float",
                             "unit": "m/min", "writable": True, "min": 5, "max": 60},
            "tenter_zone1_temp": {"name": "Tenter zone 1 temperature", "type": "float",
                                  "unit": "°C"},
            "meter_pump1": {"name": "Chemical metering pump 1", "type": "bool",
                            "writable": True},
            "meter_pump2": {"name": "Chemical metering pump 2", "type": "bool",
                            "writable": True},
            "padder_pressure": {"name": "Padder nip pressure", "type": "float", "unit": "bar"},
        }),
    }})


def _resort() -> Config:
    """A ski resort named otherwise than the snowmaking plant: pistes and snow cannons."""
    return config_of({"node": {"id": "resort"}, "devices": {
        "pistes": fake_device({
            "piste1_cannons": {"name": "Piste 1 snow cannons", "type": "bool",
                               "writable": True},
            "piste2_cannons": {"name": "Piste 2 snow cannons", "type": "bool",
                               "writable": True},
            "piste2_depth": {"name": "Piste 2 snow depth", "type": "float", "unit": "cm"},
            "booster_pump": {"name": "Booster pump", "type": "bool", "writable": True},
        }),
    }})


PLANTS: dict[str, Config] = {
    "bakery": _bakery(),
    "resort": _resort(),
    "finishing": _finishing(),
    **{name: config_of(own_plant(name)) for name in (
        "dyehouse", "engine_room", "district_heating", "snowmaking", "cold_store",
        "feed_mill", "sawmill", "mine_conveyor")}}
ROUTERS = {name: Router(config) for name, config in PLANTS.items()}


async def routed(plant: str, text: str) -> Action:
    """What the whole router answers without a model: the stages, then the write gate."""
    return await routed_without_model(ROUTERS[plant], text)


def checked(plant: str, text: str, point: str) -> Action:
    """What the model stage's check makes of the model reading `point` for this command."""
    return model_read_checked(ROUTERS[plant], PLANTS[plant], text, point)


def no_effect(action: Action) -> bool:
    return action.name != "write"


# -- a number read out in hundreds ("one eighty") is that number ------------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("dyehouse", "stenter temp setpoint one eighty", "stenter_temp_sp", 180),
    ("bakery", "oven 2 setpoint two twenty", "oven2_sp", 220),
    ("bakery", "set oven 1 temperature to two fifty five", "oven1_sp", 255),
    ("engine_room", "fuel oil heater setpoint one twenty", "fuel_heater_sp", 120),
])
async def test_a_number_read_out_in_hundreds(plant: str, text: str, point: str,
                                             value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


# -- a value that cannot be read, said to a setpoint, is asked back: never a read --------------

@pytest.mark.parametrize(("plant", "text"), [
    ("dyehouse", "stenter temp setpoint twenty thirty"),
    ("dyehouse", "stenter temp setpoint five five"),
    ("bakery", "oven 1 setpoint one fifteen"),
    ("engine_room", "fuel oil heater setpoint 1e2"),
])
async def test_an_unreadable_value_to_a_setpoint_is_asked_back(plant: str, text: str) -> None:
    action = await routed(plant, text)
    assert action.name == "respond" and action.args.get("value_problem") == "unreadable", action


@pytest.mark.parametrize(("plant", "text"), [
    ("dyehouse", "is the stenter temp setpoint one eighty?"),
    ("dyehouse", "what was the stenter temp setpoint at one thirty"),
    ("dyehouse", "stenter temp setpoint at one thirty pm"),
    ("dyehouse", "don't set the stenter temp setpoint to one eighty"),
    ("bakery", "did oven 1 setpoint change to two twenty?"),
    ("bakery", "was oven 2 at two twenty"),
    ("bakery", "report oven 1 setpoint"),
    ("engine_room", "fuel oil heater setpoint one twenty tomorrow"),
])
async def test_no_write_where_none_was_asked_with_a_number_read_out(plant: str,
                                                                    text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- a formula ("O2") after a word is a quantity, not a letter naming one of several -----------

@pytest.mark.parametrize(("plant", "text", "point"), [
    ("district_heating", "what's the flue gas O2 on boiler 1", "boiler1"),
    ("engine_room", "exhaust gas O2 after the turbocharger", "exhaust_temp"),
    ("bakery", "flue gas O2 of oven 1", "oven1_temp"),
])
def test_a_formula_after_a_word_is_a_quantity_the_point_lacks(plant: str, text: str,
                                                             point: str) -> None:
    assert checked(plant, text, point).name == "respond"


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("district_heating", "is gas boiler 1 on", "boiler1"),
    ("engine_room", "exhaust gas temperature after the turbocharger", "exhaust_temp"),
    ("bakery", "oven 1 temperature", "oven1_temp"),
])
def test_a_point_named_without_a_formula_stands(plant: str, text: str, point: str) -> None:
    assert checked(plant, text, point) == Action("read", {"point": point})


# -- several numbered things are not answered by one of them -----------------------------------

@pytest.mark.parametrize(("plant", "text", "point"), [
    ("snowmaking", "are trails 1 and 2 making snow", "trail1_guns"),
    ("cold_store", "are compressors 1 and 2 doing anything", "compressor1"),
    ("bakery", "are ovens 1 and 2 hot enough", "oven1_temp"),
])
def test_one_point_of_a_numbered_list_is_no_answer(plant: str, text: str, point: str) -> None:
    assert checked(plant, text, point).name == "respond"


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("snowmaking", "is trail 1 making snow", "trail1_guns"),
    ("bakery", "is oven 1 hot enough", "oven1_temp"),
])
def test_one_numbered_thing_is_still_read(plant: str, text: str, point: str) -> None:
    assert checked(plant, text, point) == Action("read", {"point": point})


# -- "over to" of a change of state is no bound ("over 60" is) ---------------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("snowmaking", "switch snowmaking over to manual", "snowmaking_mode", "manual"),
    ("feed_mill", "change the pellet mill mode over to auto", "pellet_mill_mode", "auto"),
    ("bakery", "switch the proofer mode over to retard", "proofer_mode", "retard"),
])
async def test_over_to_a_choice_is_a_change(plant: str, text: str, point: str,
                                            value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("plant", "text"), [
    ("snowmaking", "switch snowmaking over to manual?"),
    ("snowmaking", "did someone switch snowmaking over to manual"),
    ("snowmaking", "don't switch snowmaking over to manual"),
    ("snowmaking", "set air pressure setpoint over to 7"),
    ("snowmaking", "set the air pressure setpoint to over 7"),
    ("feed_mill", "switch the pellet mill mode over to auto at 5 pm"),
    ("bakery", "set oven 1 setpoint over 200"),
    ("bakery", "was the proofer mode switched over to retard"),
])
async def test_over_to_makes_no_write_where_none_was_asked(plant: str, text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- degrees with the degree sign left out ("60c") are the point's own unit ---------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("dyehouse", "jet 3 sp 60c", "jet3_setpoint", 60),
    ("engine_room", "fuel oil heater setpoint 120C", "fuel_heater_sp", 120),
    ("bakery", "oven 2 setpoint 210c", "oven2_sp", 210),
])
async def test_degrees_glued_to_the_value(plant: str, text: str, point: str,
                                          value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("plant", "text"), [
    ("dyehouse", "jet 3 sp 60f"),  # Fahrenheit, of a point in °C
    ("dyehouse", "jet 3 sp 2b"),
    ("dyehouse", "is jet 3 sp 60c"),
    ("engine_room", "did the fuel oil heater setpoint go to 120c?"),
    ("bakery", "oven 2 setpoint 210c tomorrow"),
    ("bakery", "proofer fan 2c"),
])
async def test_a_glued_letter_that_is_not_the_unit_writes_nothing(plant: str,
                                                                   text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- a valve or damper in % is said by its position ----------------------------------------------

@pytest.mark.parametrize(("plant", "text", "point"), [
    ("district_heating", "substation 2 valve position", "sub2_valve"),
    ("district_heating", "how far open is the substation 1 valve", "sub1_valve"),
    ("bakery", "oven 1 damper position", "oven1_damper"),
    ("bakery", "what's the opening of the oven 1 flue damper", "oven1_damper"),
])
async def test_a_valve_in_percent_has_a_position(plant: str, text: str, point: str) -> None:
    assert await routed(plant, text) == Action("read", {"point": point})


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("district_heating", "substation 2 valve temperature", "sub2_valve"),
    ("district_heating", "make-up valve position", "makeup_valve"),  # open or shut, no position
    ("bakery", "flour silo position", "flour_silo_level"),
])
async def test_a_position_is_not_read_of_what_has_none(plant: str, text: str,
                                                       point: str) -> None:
    action = await routed(plant, text)
    assert action.name != "write" and action.point != point


# -- a number after a thing said with the point's own number is a terse write's value -----------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("district_heating", "sub2 valve 100", "sub2_valve", 100),
    ("sawmill", "kiln 1 vents 40", "kiln1_vents", 40),
    ("bakery", "oven 1 damper 40", "oven1_damper", 40),
])
async def test_a_value_after_the_numbered_things_part(plant: str, text: str, point: str,
                                                      value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("plant", "text"), [
    ("district_heating", "substation 2 valve 100?"),
    ("district_heating", "is substation 2 valve 100"),
    ("district_heating", "what was substation 2 valve at 100"),
    ("district_heating", "substation 3 valve 100"),
    ("district_heating", "don't set substation 2 valve 100"),
    ("sawmill", "kiln 1 vents 40 at 6 pm"),
    ("bakery", "oven 1 damper 40 yesterday?"),
    ("bakery", "oven 2 damper 40"),  # oven 2 has no damper
])
async def test_no_value_taken_after_a_numbered_things_part_unasked(plant: str,
                                                                   text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- a clipped word of one name word of the plant explains it ("weather comp") ------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("district_heating", "weather comp to summer", "weather_mode", "summer"),
    ("bakery", "weather compens to winter", "heating_mode", "winter"),
    ("feed_mill", "condit temperature setpoint 80", "conditioner_sp", 80),
])
async def test_a_clipped_word_of_the_point(plant: str, text: str, point: str,
                                           value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("plant", "text"), [
    ("bakery", "weather comp to summer"),  # compressor or compensation
    ("district_heating", "weather comp summer?"),
    ("district_heating", "is weather comp in summer"),
    ("district_heating", "don't put weather comp to summer"),
    ("district_heating", "weather comp to summer at 6 am"),
    ("bakery", "weather compens winter yesterday?"),
])
async def test_a_clipped_word_writes_nothing_unasked_or_in_doubt(plant: str,
                                                                 text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- dyers' Chinese: 定型机 (the stenter), 加料泵 (a dosing pump) --------------------------------

@pytest.mark.parametrize(("plant", "text", "action"), [
    ("dyehouse", "定型机车速多少", Action("read", {"point": "stenter_speed"})),
    ("dyehouse", "打开1号加料泵", Action("write", {"point": "dosing_pump1", "value": True})),
    ("finishing", "定型机车速多少", Action("read", {"point": "tenter_speed"})),
    ("finishing", "打开2号加料泵", Action("write", {"point": "meter_pump2", "value": True})),
])
async def test_dyers_chinese(plant: str, text: str, action: Action) -> None:
    assert await routed(plant, text) == action


@pytest.mark.parametrize(("plant", "text"), [
    ("dyehouse", "1号加料泵开着吗"),
    ("dyehouse", "不要打开1号加料泵"),
    ("dyehouse", "打开3号加料泵"),  # there are two
    ("finishing", "加料泵开了吗"),
    ("finishing", "定型机车速是多少？"),
])
async def test_dyers_chinese_writes_nothing_unasked(plant: str, text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- snowmakers' Chinese: 雪道 (a trail, a piste), 造雪机 (a snow gun, a cannon) -------------------

@pytest.mark.parametrize(("plant", "text", "action"), [
    ("snowmaking", "3号雪道的造雪机开着吗", Action("read", {"point": "trail3_guns"})),
    ("snowmaking", "打开4号雪道造雪机", Action("write", {"point": "trail4_guns", "value": True})),
    ("resort", "2号雪道的造雪机开着吗", Action("read", {"point": "piste2_cannons"})),
    ("resort", "关闭1号雪道造雪机", Action("write", {"point": "piste1_cannons", "value": False})),
])
async def test_snowmakers_chinese(plant: str, text: str, action: Action) -> None:
    assert await routed(plant, text) == action


@pytest.mark.parametrize(("plant", "text"), [
    ("snowmaking", "5号雪道造雪机开着吗"),
    ("snowmaking", "不要关3号雪道造雪机"),
    ("resort", "2号雪道造雪机开了吗？"),
    ("resort", "3号雪道造雪机打开"),  # no piste 3
])
async def test_snowmakers_chinese_writes_nothing_unasked(plant: str, text: str) -> None:
    assert no_effect(await routed(plant, text))


# -- a verb said as a word of a name ("make-up", "start level") is the name, no verb -------------

@pytest.mark.parametrize(("plant", "text", "point"), [
    ("district_heating", "make-up water valve", "makeup_valve"),
    ("district_heating", "make-up valve", "makeup_valve"),
    ("mine_conveyor", "sump pump start level", "sump_level_sp"),
    ("bakery", "make-up air fan", "makeup_fan"),
])
async def test_a_name_that_says_a_verb_is_read(plant: str, text: str, point: str) -> None:
    assert await routed(plant, text) == Action("read", {"point": point})


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("district_heating", "close the make-up valve", "makeup_valve", False),
    ("district_heating", "open make-up water valve", "makeup_valve", True),
    ("district_heating", "make-up valve off please", "makeup_valve", False),
    ("bakery", "stop the make-up air fan", "makeup_fan", False),
    ("bakery", "make-up air fan on", "makeup_fan", True),
])
async def test_a_verb_before_such_a_name_still_writes(plant: str, text: str, point: str,
                                                      value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})
