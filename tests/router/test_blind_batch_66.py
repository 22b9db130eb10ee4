"""Blind batch 66 (a district heating network, a paper mill's wet end, a ski resort's
snowmaking), on plants of my own:
- 一次网, 二次侧 are the primary network and the secondary side, not the number 1 or 2 ("把一次
  网供水温度设定值调到九十度" heard two values, 1 and 90);
- a make-up valve is one thing (补水阀); the "up" of "make-up" is no action the switch is named
  by, so 打开补水阀 opens it;
- a ratio, peak, mean or deviation of what is asked is no answer to it: the model's read of
  the "Jet-to-wire speed ratio" for 车速 (machine speed), beside the "Wire speed", is refused;
- "what's the consistency", where the pulper's, the thick stock's and the white water's are
  points: no word says which, and the model's pick of one is refused;
- first pass retention is a quantity of its own, no flow of retention aid.
"""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, model_read_checked, routed_without_model

CONFIG = exec_plant("b66", {
    "supply_temp": {"name": "Primary supply temperature", "unit": "°C"},
    "supply_sp": {"name": "Primary supply temperature setpoint", "unit": "°C",
                  "writable": True, "min": 65, "max": 120},
    "ss1_supply_temp": {"name": "Substation 1 secondary supply temperature", "unit": "°C"},
    "makeup_valve": {"name": "Pressurisation make-up valve", "type": "bool", "writable": True},
    "wire_speed": {"name": "Wire speed", "unit": "m/min"},
    "jet_wire": {"name": "Jet-to-wire speed ratio"},
    "steam_flow": {"name": "Steam flow", "unit": "t/h"},
    "steam_flow_max": {"name": "Steam flow daily maximum", "unit": "t/h"},
    "pulper_cy": {"name": "Pulper consistency", "unit": "%"},
    "thick_cy": {"name": "Thick stock consistency", "unit": "%"},
    "ww_cy": {"name": "Whitewater consistency", "unit": "g/L"},
    "ra_flow": {"name": "Retention aid dosing flow", "unit": "L/h"},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "name", "args"), [
    ("把一次网供水温度设定值调到九十度", "write", {"point": "supply_sp", "value": 90}),
    ("一次网供水温度是多少", "read", {"point": "supply_temp"}),
    ("1号换热站二次侧供水温度多少", "read", {"point": "ss1_supply_temp"}),
    ("打开补水阀", "write", {"point": "makeup_valve", "value": True}),
    ("关闭补水阀门", "write", {"point": "makeup_valve", "value": False}),
    ("open the make-up valve", "write", {"point": "makeup_valve", "value": True}),
])
async def test_the_rules_place_the_words_of_a_heating_network(text: str, name: str,
                                                               args: dict[str, object]) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == (name, args)


async def test_once_is_still_a_number() -> None:
    """一次 after a verb is "once": a number said, which no switch takes."""
    action = await routed_without_model(ROUTER, "补水阀打开一次")
    assert action.name == "respond"


def test_a_make_up_valve_in_another_name_is_the_same_valve() -> None:
    config = exec_plant("dh", {"makeup": {"name": "Make-up water valve", "type": "bool",
                                          "writable": True},
                               "volume": {"name": "Make-up water volume today", "unit": "m³"}})
    router = Router(config)
    assert model_read_checked(router, config, "补水阀开着吗", "makeup").to_dict() == {
        "name": "read", "args": {"point": "makeup"}}


@pytest.mark.parametrize(("text", "wrong", "right"), [
    ("现在车速多少", "jet_wire", "wire_speed"),
    ("machine speed?", "jet_wire", "wire_speed"),
    ("what's the wire doing in m/min", "jet_wire", "wire_speed"),
    ("steam flow?", "steam_flow_max", "steam_flow"),
])
def test_a_ratio_or_peak_of_what_is_asked_is_no_answer(text: str, wrong: str,
                                                      right: str) -> None:
    refused = model_read_checked(ROUTER, CONFIG, text, wrong)
    assert refused.name == "respond", refused
    assert model_read_checked(ROUTER, CONFIG, text, right).to_dict() == {
        "name": "read", "args": {"point": right}}


@pytest.mark.parametrize(("text", "point"), [
    ("jet to wire ratio?", "jet_wire"),
    ("what's the max steam flow today", "steam_flow_max"),
    ("射流与网速之比多少", "jet_wire"),
])
def test_the_ratio_or_peak_asked_is_read(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point).to_dict() == {
        "name": "read", "args": {"point": point}}


@pytest.mark.parametrize("text", ["what's the consistency", "consistency?", "浓度多少"])
def test_a_quantity_of_several_things_said_alone_is_asked_back(text: str) -> None:
    for point in ("pulper_cy", "thick_cy", "ww_cy"):
        assert model_read_checked(ROUTER, CONFIG, text, point).name == "respond"


@pytest.mark.parametrize(("text", "point"), [
    ("pulper consistency?", "pulper_cy"),
    ("thick stock cy", "thick_cy"),
    ("what's the wire speed", "wire_speed"),  # the only speed: no thing need be said
    ("how much retention aid are we dosing", "ra_flow"),
    ("助留剂加药量多少", "ra_flow"),
])
def test_a_thing_said_or_a_quantity_of_one_point_is_read(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point).to_dict() == {
        "name": "read", "args": {"point": point}}


def test_first_pass_retention_is_no_flow_of_retention_aid() -> None:
    refused = model_read_checked(ROUTER, CONFIG, "what's first pass retention on the wet end",
                                 "ra_flow")
    assert refused.name == "respond", refused


@pytest.mark.parametrize(("text", "point"), [
    ("bag filter dp?", "bf_dp"), ("袋式除尘器压差多少", "bf_dp"),
    ("gas flow in Nm3/h", "gas"),
])
def test_a_differential_or_corrected_quantity_is_the_quantity(text: str, point: str) -> None:
    """Review atk66: "differential" and "corrected" are words of a deadband and a calibration
    too, which the first rule took for what the point was a deadband or calibration of."""
    config = exec_plant("kiln", {
        "bf_dp": {"name": "Bag filter differential pressure", "unit": "Pa"},
        "bf_fan": {"name": "Bag filter fan speed", "unit": "%"},
        "gas": {"name": "Corrected gas flow", "unit": "Nm³/h"},
        "air": {"name": "Air flow", "unit": "Nm³/h"},
    })
    assert model_read_checked(Router(config), config, text, point).to_dict() == {
        "name": "read", "args": {"point": point}}
