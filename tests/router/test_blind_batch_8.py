"""What blind batch 8 (tests/data/plants: landfill_gas, battery_formation, paint_shop) found
wrong before anything was changed for it, and one older fault found beside it: each test says
what a person on that plant would expect."""

from __future__ import annotations

import pytest

from hermesd.config.model import Config
from hermesd.router import Router
from tests.support.plants import (
    config_of,
    model_read_checked,
    own_plant,
    placed_without_model,
    routed_without_model,
)

CONFIGS: dict[str, Config] = {name: config_of(own_plant(name)) for name in (
    "hospital_utilities", "ice_rink", "battery_formation", "landfill_gas", "paint_shop")}
ROUTERS = {name: Router(config) for name, config in CONFIGS.items()}


def _placed(plant: str, text: str) -> tuple[str, str | None] | None:
    action = placed_without_model(ROUTERS[plant], text)
    return None if action is None else (action.name, action.args.get("point"))


# -- a temperature word that qualifies a medium is part of its name ------------------------------

@pytest.mark.parametrize("text", ["hot water supply temperature",
                                  "what's the hot water supply temperature"])
def test_hot_water_is_not_the_chilled_water(text: str) -> None:
    """The hospital has chilled water only: "hot" made a temperature word of the command and
    the rules read the chilled water supply temperature for it."""
    assert _placed("hospital_utilities", text) != ("read", "chw_supply_temp")
    checked = model_read_checked(ROUTERS["hospital_utilities"], CONFIGS["hospital_utilities"],
                                 text, "chw_supply_temp")
    assert checked.name == "respond", checked  # the model may not read it either


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("hospital_utilities", "how hot is the chilled water supply", "chw_supply_temp"),
    ("ice_rink", "hot water tank temp", "hot_water_temp"),
    ("ice_rink", "how hot is the resurfacer hot water", "hot_water_temp"),
])
def test_how_hot_still_asks_the_temperature(plant: str, text: str, point: str) -> None:
    assert _placed(plant, text) == ("read", point)


async def test_warm_and_cool_said_first_still_set_a_temperature() -> None:
    router = ROUTERS["ice_rink"]
    for text in ("cool the hot water tank to 60", "warm the hot water tank to 60"):
        action = await routed_without_model(router, text)
        assert (action.name, action.args) == ("write", {"point": "hot_water_temp_sp",
                                                        "value": 60}), text


# -- a setting asked for ------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["what current is rack three set to",
                                  "rack 3 current setpoint"])
def test_the_current_of_a_current_setpoint_is_the_quantity(text: str) -> None:
    """ "Formation rack 3 current setpoint": its "current" was read as "now" (before a word it
    could qualify), so the point was not named by it and the rack's charge current was read."""
    assert _placed("battery_formation", text) == ("read", "rack3_current_sp")


def test_the_current_setpoint_said_with_the_is_still_the_setting_now() -> None:
    assert _placed("battery_formation", "what's the current setpoint on rack 3") == \
        ("read", "rack3_current_sp")


def test_a_setting_asked_is_not_read_from_the_output() -> None:
    """ "genset" names only the engine's output (its alias): sure of that, the semantic stage
    read the output where the load setpoint was asked."""
    assert _placed("landfill_gas", "what load is genset 3 set to") != ("read", "engine3_power")
    assert _placed("landfill_gas", "what is engine 3 load set to") == \
        ("read", "engine3_load_sp")


# -- thanks ------------------------------------------------------------------------------------

def test_ta_beside_cheers_is_thanks_not_the_total_acid() -> None:
    action = placed_without_model(ROUTERS["paint_shop"], "ta, cheers")
    assert action is not None and action.name == "respond" and \
        action.args["reason"] == "thanks", action
    assert _placed("paint_shop", "TA?") == ("read", "znph_total_acid")
    assert _placed("paint_shop", "cheers, TA please") == ("read", "znph_total_acid")


# -- the model's pick, checked -------------------------------------------------------------------

def test_a_word_only_another_point_is_named_with_refuses_the_pick() -> None:
    """Only the basecoat booth has a downdraft; the clearcoat booth's humidity is not asked."""
    checked = model_read_checked(ROUTERS["paint_shop"], CONFIGS["paint_shop"],
                                 "CC booth downdraft?", "cc_rh")
    assert checked.name == "respond" and checked.args.get("asked") == "downdraft", checked


def test_the_other_booths_downdraft_is_no_answer_either() -> None:
    """With the humidity refused the model read the basecoat booth's downdraft: "CC" stands
    where that point's name says "BC"."""
    router, config = ROUTERS["paint_shop"], CONFIGS["paint_shop"]
    checked = model_read_checked(router, config, "CC booth downdraft?", "bc_downdraft")
    assert checked.name == "respond" and checked.args.get("asked") == "cc", checked
    own = model_read_checked(router, config, "BC booth downdraft?", "bc_downdraft")
    assert (own.name, own.args) == ("read", {"point": "bc_downdraft"})


def test_such_a_word_beside_what_the_point_measures_only_says_which() -> None:
    """ "last" names the last cycle time, and here says which shot's peak pressure."""
    plant = {"node": {"id": "n"}, "access": {"roles": {"viewer": {"read": True}}},
             "devices": {"press": {"driver": "modbus", "host": "127.0.0.1", "points": {
                 "peak_pressure": {"name": "Peak injection pressure", "unit": "bar",
                                   "table": "input", "address": 0, "type": "float32"},
                 "cycle_time": {"name": "Last cycle time", "unit": "s", "table": "input",
                                "address": 2, "type": "float32"}}}}}
    config = config_of(plant)
    checked = model_read_checked(Router(config), config,
                                 "what was the injection pressure peak on the last shot",
                                 "peak_pressure")
    assert (checked.name, checked.args) == ("read", {"point": "peak_pressure"})


def test_the_point_named_with_that_word_passes() -> None:
    checked = model_read_checked(ROUTERS["paint_shop"], CONFIGS["paint_shop"],
                                 "how hot is the oxidiser running", "rto_temp")
    assert (checked.name, checked.args) == ("read", {"point": "rto_temp"})


# -- words of the trade in Chinese ----------------------------------------------------------------

def test_clearcoat_spray_booth_in_chinese_is_the_clearcoat_booth() -> None:
    checked = model_read_checked(ROUTERS["paint_shop"], CONFIGS["paint_shop"],
                                 "清漆喷房温度是多少", "cc_temp")
    assert (checked.name, checked.args) == ("read", {"point": "cc_temp"})
    bath = model_read_checked(ROUTERS["paint_shop"], CONFIGS["paint_shop"],
                              "清漆喷房温度是多少", "ed_temp")  # "coat" of "e-coat" is no clearcoat
    assert bath.name == "respond", bath
    wrong = model_read_checked(ROUTERS["paint_shop"], CONFIGS["paint_shop"],
                               "电泳烘炉一区温度", "ed_temp")  # the oven's zone, not the bath
    assert wrong.name == "respond", wrong


async def test_a_gas_booster_in_chinese_is_started() -> None:
    action = await routed_without_model(ROUTERS["landfill_gas"], "启动1号增压风机")
    assert (action.name, action.args) == ("write", {"point": "booster1_run", "value": True})


# -- "run" and "vs" ------------------------------------------------------------------------------

async def test_run_starts_a_thing_no_point_named_with_run_is_of() -> None:
    """The engines have "run command" points, so "run" was no start anywhere on the site: "run
    the condensate pump" offered the model nothing but refusals."""
    action = await routed_without_model(ROUTERS["landfill_gas"], "run the condensate pump")
    assert (action.name, action.args) == ("write", {"point": "condensate_pump", "value": True})


def test_actual_vs_setpoint_reads_both() -> None:
    action = placed_without_model(ROUTERS["battery_formation"], "fill weight actual vs setpoint")
    assert action is not None and action.name == "read", action
    assert action.args["points"] == ["fill_weight", "fill_weight_sp"]


# -- a setting read where none was asked ---------------------------------------------------------

def test_air_speed_is_the_downdraft_not_the_bell_speed_setpoint() -> None:
    """The model read the bell speed setpoint: no setting was asked, a measurement ranked
    first, and the setpoint leaves "air" unexplained. "air speed" is a velocity (m/s)."""
    router, config = ROUTERS["paint_shop"], CONFIGS["paint_shop"]
    text = "air speed in the basecoat booth"
    assert _placed("paint_shop", text) == ("read", "bc_downdraft")
    checked = model_read_checked(router, config, text, "bc_bell_speed_sp")
    assert checked.name == "respond" and checked.args.get("asked") == "air", checked
    assert model_read_checked(router, config, "bell speed?", "bc_bell_speed_sp").name == "read"
