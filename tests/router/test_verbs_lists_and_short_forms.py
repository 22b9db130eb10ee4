"""Classes of wrong answers found on three plants written blind (a cold store, an oil terminal,
a cement kiln) and closed in general: short forms in point ids, a verb that is a point's own
action, a stop that a measurement cannot take, resets of counters, lists of numbered things,
several points of one numbered family, terse writes after a setpoint's words; and of the
model's reads, what the check refuses: a measurement asked what it is "set to", a point of no
number for a numbered thing the plant has.

Each class is tested on one of those plants, on an older plant, and on a plant generated here
(a district heating substation) that nobody tuned on.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config.model import Config
from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.daemon import fake_device
from tests.support.plants import (
    config_of,
    model_read_checked,
    own_plant,
    placed_without_model,
    routed_without_model,
)


def _substation() -> Config:
    """A district heating substation: circulating pumps, heat exchangers with a flush, a heat
    meter, zones on a device named "zones", and a writable fault reset."""
    return config_of({"node": {"id": "dh-sub"}, "devices": {
        "plant": fake_device({
            "circpump1": {"name": "Circulating pump 1", "type": "bool", "writable": True},
            "circpump2": {"name": "Circulating pump 2", "type": "bool", "writable": True},
            "circ1_current": {"name": "Circulating pump 1 motor current", "type": "float",
                              "unit": "A"},
            "circ2_current": {"name": "Circulating pump 2 motor current", "type": "float",
                              "unit": "A"},
            "circ1_speed": {"name": "Circulating pump 1 speed", "type": "float", "unit": "%"},
            "hex1_flush": {"name": "Heat exchanger 1 flush", "type": "bool", "writable": True},
            "hex2_flush": {"name": "Heat exchanger 2 flush", "type": "bool", "writable": True},
            "hex1_dp": {"name": "Heat exchanger 1 differential pressure", "type": "float",
                        "unit": "kPa"},
            "heat_meter": {"name": "Heat meter total", "type": "float", "unit": "MWh"},
            "fill_batch_sp": {"name": "Fill batch volume setpoint", "type": "float",
                              "unit": "m³", "writable": True, "min": 0, "max": 10},
            "fault_reset": {"name": "Pump fault reset", "type": "bool", "writable": True},
            "supply_temp": {"name": "Supply temperature", "type": "float", "unit": "°C"},
            "supply_temp_sp": {"name": "Supply temperature setpoint", "type": "float",
                               "unit": "°C", "writable": True, "min": 60, "max": 95},
            "makeup_feed_sp": {"name": "Makeup water feed setpoint", "type": "float",
                               "unit": "L/min", "writable": True, "min": 0, "max": 50},
        }),
        "zones": fake_device({
            "zone1_temp": {"name": "Zone 1 return temperature", "type": "float", "unit": "°C"},
            "zone2_temp": {"name": "Zone 2 return temperature", "type": "float", "unit": "°C"},
            "zone3_temp": {"name": "Zone 3 return temperature", "type": "float", "unit": "°C"},
            "outdoor_temp": {"name": "Outdoor temperature", "type": "float", "unit": "°C"},
            "zone_pump": {"name": "Zone circulation pump", "type": "bool", "writable": True},
        }),
    }})


PLANTS: dict[str, Config] = {
    "substation": _substation(),
    **{name: config_of(own_plant(name)) for name in (
        "cold_store", "tank_farm", "cement_kiln", "compressed_air", "sawmill", "fishfarm",
        "engine_room", "waterworks")}}
ROUTERS = {name: Router(config) for name, config in PLANTS.items()}


def placed(plant: str, text: str) -> Action | None:
    return placed_without_model(ROUTERS[plant], text)


async def routed(plant: str, text: str) -> Action:
    """What the whole router answers without a model: the stages, then the write gate."""
    return await routed_without_model(ROUTERS[plant], text)


def refused(action: Action | None, reason: str) -> bool:
    return action is not None and action.name == "respond" and action.args["reason"] == reason


# -- a short form in point ids means the word of the names it shortens ---------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("cold_store", "stop comp 1", "compressor1", False),
    ("cold_store", "start comp 2", "compressor2", True),
    ("substation", "stop circ 1", "circpump1", False),
    ("substation", "circ 2 on", "circpump2", True),
])
async def test_a_short_form_of_the_ids_names_the_thing(plant: str, text: str, point: str,
                                                       value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cold_store", "comp 1 amps", "comp1_current"),
    ("compressed_air", "comp 2 amps", "comp2_current"),
    ("substation", "circ 1 amps", "circ1_current"),
])
def test_a_short_form_with_a_quantity_is_that_quantity(plant: str, text: str,
                                                       point: str) -> None:
    assert placed(plant, text) == Action("read", {"point": point})


def test_a_word_of_grammar_is_no_short_form() -> None:
    """ "WAS" (waste activated sludge) in ids is no short form of "waste" in "what was"."""
    assert "was" not in Router(config_of(own_plant("wastewater"))).rules.abbreviations


# -- a stop or an on/off verb is never a write to a read-only measurement ------------------------

@pytest.mark.parametrize(("plant", "text", "measurement"), [
    ("substation", "stop the circulating pump 1 current", "circ1_current"),
    ("substation", "switch off heat exchanger 1 differential pressure", "hex1_dp"),
    ("compressed_air", "stop compressor 2 motor current", "comp2_current"),
])
def test_a_verb_of_a_thing_writes_nothing_to_its_measurement(plant: str, text: str,
                                                             measurement: str) -> None:
    action = placed(plant, text)
    assert action is None or action.name != "write" or action.point != measurement, action


# -- a reset of a count or total is refused, a reset point is written ----------------------------

@pytest.mark.parametrize(("plant", "text"), [
    ("tank_farm", "reset the meter totaliser to zero"),
    ("tank_farm", "流量计累计量清零"),
    ("substation", "reset the heat meter"),
    ("substation", "clear the heat meter total please"),
    ("waterworks", "reset the treated water total"),
    ("fishfarm", "please clear the feed counter"),
])
def test_a_reset_of_a_count_is_refused(plant: str, text: str) -> None:
    assert refused(placed(plant, text), "not_allowed"), placed(plant, text)


async def test_a_point_named_for_a_reset_is_written_and_clear_may_be_an_adjective() -> None:
    assert await routed("substation", "pump fault reset on") == \
        Action("write", {"point": "fault_reset", "value": True})
    action = placed("waterworks", "how clear is the water coming off the filters")
    assert action == Action("read", {"point": "filtered_turbidity"})


# -- a point's own action word said first is the verb -------------------------------------------

@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cold_store", "defrost evap 2", "evap2_defrost"),
    ("cold_store", "defrost evaporator one please", "evap1_defrost"),
    ("substation", "flush heat exchanger 2", "hex2_flush"),
    ("substation", "flush hex 1", "hex1_flush"),
    ("substation", "please flush heat exchanger 1", "hex1_flush"),
])
async def test_a_points_action_said_first_starts_it(plant: str, text: str, point: str) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": True})


@pytest.mark.parametrize(("text", "value"), [
    ("defrost evap 2 tomorrow", True),  # a time: the gate asks back
    ("defrost evap 2", False),  # the words ask to start it, never to stop it
])
def test_the_gate_hears_a_points_action_as_starting_it_now(text: str, value: bool) -> None:
    router = ROUTERS["cold_store"]
    point = router.rules.points["evap2_defrost"]
    toks = router.rules.analyse(text).toks
    assert gated(text, point, value, router.rules.profiles, toks) is not None
    assert gated("defrost evap 2", point, True, router.rules.profiles,
                 router.rules.analyse("defrost evap 2").toks) is None


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cold_store", "evap 2 defrost", "evap2_defrost"),  # said last: its state
    ("substation", "is heat exchanger 1 flush on", "hex1_flush"),
    ("tank_farm", "pump discharge pressure", "pump_discharge_pressure"),  # a thing, no verb
    ("cement_kiln", "mill raw", "raw_mill"),
])
def test_a_points_action_said_otherwise_is_read(plant: str, text: str, point: str) -> None:
    action = placed(plant, text)
    assert action is None or action == Action("read", {"point": point}), action


# -- "X 1 and 2": every numbered thing of the list ------------------------------------------------

@pytest.mark.parametrize(("plant", "text", "points"), [
    ("cement_kiln", "cyclone 1 and 2 temperatures", ["cyclone1_temp", "cyclone2_temp"]),
    ("tank_farm", "levels in tanks 1 and 2", ["tank1_level", "tank2_level"]),
    ("tank_farm", "tanks 1, 2 and 3 levels", ["tank1_level", "tank2_level", "tank3_level"]),
    ("sawmill", "dry bulb in kilns 1 and 2", ["kiln1_dry_bulb", "kiln2_dry_bulb"]),
    ("substation", "zone 2 and 3 return temperature", ["zone2_temp", "zone3_temp"]),
    ("substation", "circulating pumps 1 and 2 current", ["circ1_current", "circ2_current"]),
])
def test_a_list_of_numbered_things_reads_each(plant: str, text: str,
                                              points: list[str]) -> None:
    assert placed(plant, text) == Action("read", {"points": points})


@pytest.mark.parametrize(("plant", "text"), [
    ("tank_farm", "start pumps 1 and 2"),
    ("substation", "turn off circulating pumps 1 and 2"),
])
def test_a_write_to_a_list_of_numbered_things_is_refused(plant: str, text: str) -> None:
    action = placed(plant, text)
    assert refused(action, "not_allowed") and action is not None and action.args["plural"]


@pytest.mark.parametrize(("plant", "text"), [
    ("tank_farm", "tank 1 and 5 level"),
    ("substation", "zones 3 and 4 return temperature"),
])
def test_a_list_with_a_number_the_plant_lacks_is_an_unknown_point(plant: str,
                                                                  text: str) -> None:
    assert refused(placed(plant, text), "unknown_point")


def test_a_number_after_a_comma_is_still_a_value() -> None:
    """ "kiln one, sixty two" is a kiln and a value: no list without an "and"."""
    assert placed("sawmill", "dry bulb setpoint for kiln one, sixty two and a half") == \
        Action("write", {"point": "kiln1_setpoint", "value": 62.5})


# -- several points of a numbered family are that family's --------------------------------------

@pytest.mark.parametrize(("plant", "text", "points"), [
    ("cold_store", "temps in all three chambers",
     ["chamber1_temp", "chamber2_temp", "chamber3_temp"]),
    ("substation", "return temperatures of all the zones",
     ["zone1_temp", "zone2_temp", "zone3_temp"]),
])
def test_a_plural_of_numbered_things_reads_only_them(plant: str, text: str,
                                                     points: list[str]) -> None:
    assert placed(plant, text) == Action("read", {"points": points})


# -- a number right after the words of a writable number is its value ---------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("cement_kiln", "cement mill feed one hundred and forty", "cement_mill_feed_sp", 140),
    ("cement_kiln", "raw mill feed 250", "raw_mill_feed_sp", 250),
    ("substation", "makeup water feed twelve", "makeup_feed_sp", 12),
])
async def test_a_number_after_a_setpoints_words_is_a_write(plant: str, text: str, point: str,
                                                           value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


# -- a change word that the plant names a thing by is that thing ----------------------------------

def test_a_plant_word_is_no_change_word() -> None:
    """ "cooler" asks for a colder room elsewhere; here it is the clinker cooler."""
    router = ROUTERS["cement_kiln"]
    assert not router.rules.analyse("cooler fans 2 and 3").wants_write
    assert placed("cement_kiln", "cooler fans 2 and 3") == \
        Action("read", {"points": ["cooler_fan2", "cooler_fan3"]})


# -- the model's read: what the check refuses ----------------------------------------------------

def checked(plant: str, text: str, point: str) -> Action:
    """What the model stage's check makes of the model reading `point` for this command."""
    return model_read_checked(ROUTERS[plant], PLANTS[plant], text, point)


@pytest.mark.parametrize(("plant", "text", "wrong", "right"), [
    ("cement_kiln", "what's the kiln rpm set to", "kiln_speed", "kiln_speed_sp"),
    ("engine_room", "what's the jacket water temp set to", "jacket_water_temp",
     "jacket_water_sp"),
    ("substation", "what is the supply temp set to", "supply_temp", "supply_temp_sp"),
])
def test_what_a_thing_is_set_to_is_its_setpoint(plant: str, text: str, wrong: str,
                                                right: str) -> None:
    assert refused(checked(plant, text, wrong), "unknown_point")
    assert checked(plant, text, right) == Action("read", {"point": right})


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("tank_farm", "how much water is in the bottom of tank 1", "loading_preset"),
    # one pump for all the zones is not zone 1's, where the plant numbers its zones
    ("substation", "is the zone 1 pump running", "zone_pump"),
    ("cold_store", "5号冷库温度", "glycol_return_temp"),  # an ordinal numbers a thing
])
def test_a_numbered_thing_is_no_point_of_no_number(plant: str, text: str, wrong: str) -> None:
    assert refused(checked(plant, text, wrong), "unknown_point")


@pytest.mark.parametrize(("plant", "text", "right"), [
    ("fishfarm", "tank 2 water temperature", "tank2_temp"),
    ("substation", "zone 1 return temp", "zone1_temp"),
])
def test_the_numbered_things_own_point_stands(plant: str, text: str, right: str) -> None:
    assert checked(plant, text, right) == Action("read", {"point": right})


# -- a unit's jargon ------------------------------------------------------------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("tank_farm", "loading preset 32 cubes", "loading_preset", 32),  # cubic metres
    ("substation", "fill batch volume setpoint 6 cubes", "fill_batch_sp", 6),
])
async def test_cubes_are_cubic_metres(plant: str, text: str, point: str, value: Any) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


# -- an "on" that says where is no switch word ----------------------------------------------------

@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("cold_store", "stop the defrost on evaporator 1", "evap1_defrost", False),
    ("substation", "stop the flush on heat exchanger 2", "hex2_flush", False),
    ("substation", "start the flush on heat exchanger 1", "hex1_flush", True),
    ("substation", "switch on circulating pump 2", "circpump2", True),  # a verb's particle
    ("substation", "turn circulating pump 1 on now", "circpump1", True),
])
async def test_an_on_that_says_where_switches_nothing(plant: str, text: str, point: str,
                                                      value: bool) -> None:
    assert await routed(plant, text) == Action("write", {"point": point, "value": value})


# -- cement makers' Chinese (lexicon words of the trade, not of one plant's names) ---------------

def _kiln_line() -> Config:
    """Another cement line, named otherwise than the blind cement kiln."""
    return config_of({"node": {"id": "line-3"}, "devices": {"kiln": fake_device({
        "kiln_rpm": {"name": "Rotary kiln drive speed", "type": "float", "unit": "rpm"},
        "idf_mode": {"name": "Induced draft fan mode", "type": "int", "writable": True,
                     "map": {0: "off", 1: "manual", 2: "auto"}},
        "backend_o2": {"name": "Kiln back end oxygen", "type": "float", "unit": "%"},
        "stage4_temp": {"name": "Preheater stage 4 gas temperature", "type": "float",
                        "unit": "°C"},
        "cooler_fan": {"name": "Grate cooler fan", "type": "bool", "writable": True},
    })}})


PLANTS["kiln_line"] = _kiln_line()
ROUTERS["kiln_line"] = Router(PLANTS["kiln_line"])


@pytest.mark.parametrize(("plant", "text", "action"), [
    ("cement_kiln", "窑尾氧含量是多少", Action("read", {"point": "kiln_inlet_o2"})),
    ("cement_kiln", "高温风机切换到手动", Action("write", {"point": "id_fan_mode",
                                                          "value": "manual"})),
    ("cement_kiln", "把窑速调到3.6转", Action("write", {"point": "kiln_speed_sp", "value": 3.6})),
    ("kiln_line", "窑速多少", Action("read", {"point": "kiln_rpm"})),
    ("kiln_line", "窑尾氧含量", Action("read", {"point": "backend_o2"})),
    ("kiln_line", "高温风机切换到自动", Action("write", {"point": "idf_mode", "value": "auto"})),
])
async def test_cement_makers_chinese(plant: str, text: str, action: Action) -> None:
    assert await routed(plant, text) == action
