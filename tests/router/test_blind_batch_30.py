"""What blind batch 30 (a steel caster with tag-first names, a hatchery, a bilingual tea
factory) found wrong, on plants written here: lettered twins whose tag carries the letter too
("HS-5001B Hydraulic pump B run"), the sides of a dryer said in Chinese (进风, 出风), and
model picks that answer another thing than asked (a fan for 风温, a flow for a setpoint)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked, routed_without_model

CASTER_CONFIG = exec_devices("caster", {
    "hydraulics": {
        "pump_a": {"name": "HS-7001A Hydraulic pump A run", "type": "bool", "writable": True},
        "pump_b": {"name": "HS-7001B Hydraulic pump B run", "type": "bool", "writable": True},
        "pump_a_amps": {"name": "IT-7001A Hydraulic pump A motor current", "unit": "A"},
        "oil_temp": {"name": "TT-7010 Hydraulic oil temperature", "unit": "°C"},
    },
    "sprays": {
        "z1_flow": {"name": "FT-3301 Zone 1 spray water flow", "unit": "m3/h"},
        "z2_flow": {"name": "FT-3302 Zone 2 spray water flow", "unit": "m3/h"},
        "z2_flow_sp": {"name": "FIC-3302 Zone 2 spray water flow setpoint", "unit": "m3/h",
                       "writable": True, "min": 0, "max": 60},
    },
})
CASTER = Router(CASTER_CONFIG)

TEA_CONFIG = exec_devices("tea", {
    "withering": {
        "t1_fan": {"name": "Trough 1 fan", "names": {"zh": "1号萎凋槽风机"}, "type": "bool",
                   "writable": True},
        "t1_air": {"name": "Trough 1 air temp", "unit": "°C"},
    },
    "drying": {
        "inlet": {"name": "Dryer inlet temp", "names": {"zh": "烘干机进风温度"}, "unit": "°C"},
        "outlet": {"name": "Dryer outlet temp", "unit": "°C",
                   "description": "Temperature of the exhaust air leaving the dryer."},
        "inlet_sp": {"name": "Dryer inlet temp SP", "unit": "°C", "writable": True,
                     "min": 60, "max": 140},
    },
})
TEA = Router(TEA_CONFIG)



@pytest.mark.parametrize(("text", "point", "value"), [
    ("start hydraulic pump B", "pump_b", True),
    ("stop hydraulic pump a", "pump_a", False),
    ("kill the A hydraulic pump", "pump_a", False),
    ("start the B hydraulic pump", "pump_b", True),
    ("启动液压B泵", "pump_b", True),
])
async def test_a_twin_lettered_in_its_tag_and_its_name_is_named_by_its_letter(
        text: str, point: str, value: bool) -> None:
    """The letter said with the thing, before or after it, names the twin: the tag
    ("7001B") need not be said."""
    action = await routed_without_model(CASTER, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


@pytest.mark.parametrize("text", ["start a hydraulic pump", "start the hydraulic pump",
                                  "stop hydraulic pump c"])
async def test_a_twin_not_lettered_is_not_started(text: str) -> None:
    action = await routed_without_model(CASTER, text)
    assert action.name == "respond", action


async def test_the_a_pump_current_is_read() -> None:
    action = await routed_without_model(CASTER, "the a pump current")
    assert (action.name, action.args) == ("read", {"point": "pump_a_amps"}), action


@pytest.mark.parametrize(("text", "point"), [
    ("烘干机出风温度是多少", "outlet"),
    ("烘干机排风温度", "outlet"),
    ("烘干机进风温度是多少", "inlet"),
    ("dryer exhaust temp", "outlet"),
])
async def test_a_side_said_in_chinese_is_that_side(text: str, point: str) -> None:
    """出风 is the air coming out: never the inlet, whose Chinese name says 进风."""
    action = await routed_without_model(TEA, text)
    assert action.name == "respond" or action.args == {"point": point}, action
    assert action.args.get("point") != ("inlet" if point == "outlet" else "outlet"), action


async def test_the_outlet_said_in_chinese_is_read() -> None:
    action = await routed_without_model(TEA, "烘干机出风温度是多少")
    assert (action.name, action.args) == ("read", {"point": "outlet"}), action


def test_an_air_temperature_is_no_fan() -> None:
    """风温 asks a temperature: the model reading the trough's fan (named 1号萎凋槽风机) is
    refused, and its air temperature is not."""
    text = "1号萎凋槽风温多少"
    fan = model_checked(TEA, TEA_CONFIG, text, Action("read", {"point": "t1_fan"}))
    assert fan.name == "respond", fan
    air = model_checked(TEA, TEA_CONFIG, text, Action("read", {"point": "t1_air"}))
    assert air.args.get("point") == "t1_air" or air.args.get("model") == "read t1_air", air


@pytest.mark.parametrize("text", ["what's the zone 1 spray water setpoint",
                                  "zone 1 spray water flow setpoint?"])
def test_a_setpoint_asked_is_no_measurement(text: str) -> None:
    """Zone 1 has no setpoint (zone 2 has): its flow is not what was asked."""
    action = model_checked(CASTER, CASTER_CONFIG, text, Action("read", {"point": "z1_flow"}))
    assert action.name == "respond", action


def test_a_setpoint_asked_is_read() -> None:
    text = "what's the zone 2 spray water setpoint"
    action = model_checked(CASTER, CASTER_CONFIG, text, Action("read", {"point": "z2_flow_sp"}))
    assert (action.name, action.args) == ("read", {"point": "z2_flow_sp"}), action


MOULD_CONFIG = exec_devices("slab_caster", {"mould": {
    "level": {"name": "LT-2201 Mould level", "unit": "mm"},
    "stroke": {"name": "ZT-2302 Mould oscillation stroke", "unit": "mm"},
    "freq": {"name": "SI-2301 Mould oscillation frequency", "unit": "cpm"},
    "water": {"name": "FT-2401 Mould cooling water flow", "unit": "m3/h",
              "description": "Primary cooling water flow through the mould copper plates."},
}})
MOULD = Router(MOULD_CONFIG)


@pytest.mark.parametrize(("point", "kept"), [("level", True), ("stroke", False),
                                             ("water", False)])
def test_the_caster_mould_level_in_chinese(point: str, kept: bool) -> None:
    """结晶器液位 is the mould level: a mould's cooling water described by its "mould copper
    plates" is no more the mould's than the level is, and a stroke in mm is no level though a
    mm may measure one (the model had read the stroke)."""
    action = model_checked(MOULD, MOULD_CONFIG, "结晶器液位现在多少", Action("read", {"point": point}))
    assert (action.args.get("point") == point) is kept, action


async def test_the_mould_oscillation_in_chinese() -> None:
    action = await routed_without_model(MOULD, "结晶器振动频率")
    assert (action.name, action.args) == ("read", {"point": "freq"}), action


@pytest.mark.parametrize(("text", "point"), [("二冷1区水流量", "z1_flow"),
                                             ("二冷2区水流量设定值", "z2_flow_sp")])
async def test_a_numeral_that_names_a_thing_numbers_nothing(text: str, point: str) -> None:
    """二冷 is a caster's secondary cooling: the 二 of it is no zone 2, and the zone said after
    it is the one meant."""
    analysis = CASTER.rules.analyse(text)
    assert [t.number for t in analysis.toks if t.number is not None] == [int(text[2])]
    action = await routed_without_model(CASTER, text)
    assert action.name == "respond" or action.args == {"point": point}, action
    judged = CASTER.semantic.judge(analysis)
    assert judged.candidates[0] == point, judged.candidates


MOULDING_CONFIG = exec_devices("moulding", {"press": {
    "cycle": {"name": "Cycle time", "unit": "s"},
    "shots": {"name": "Shot counter", "unit": "shots"},
    "peak": {"name": "Peak injection pressure", "unit": "bar"},
}})
MOULDING = Router(MOULDING_CONFIG)


@pytest.mark.parametrize(("text", "point"), [("how many seconds is the cycle taking", "cycle"),
                                             ("peak injection pressure on the last shot",
                                              "peak")])
def test_a_quantity_said_beside_the_points_own_is_context(text: str, point: str) -> None:
    """A count said beside the seconds of a cycle time, or a shot beside its peak pressure,
    says which; the point measures what is asked, and the model's pick stands."""
    action = model_checked(MOULDING, MOULDING_CONFIG, text, Action("read", {"point": point}))
    assert (action.name, action.args) == ("read", {"point": point}), action
