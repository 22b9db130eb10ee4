"""Classes of confidently wrong answers found on plants written after the router (a ferry's
engine room, a feed mill) and closed in general: what the model's read must answer, what a read of
several points takes, and writes said without a verb.

Each class is tested on one of those plants and on a plant generated here that nobody tuned on.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config.loader import validate
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import Analysis
from tests.support.daemon import fake_device
from tests.support.plants import NoWorker, config_of, own_plant, placed_without_model


def _hydraulics() -> Config:
    """A press's hydraulic power unit: oil, pumps, an accumulator, a pressure setpoint."""
    return config_of({"node": {"id": "hpu"}, "devices": {"hpu": fake_device({
        "oil_visc": {"name": "Hydraulic oil viscosity", "type": "float", "unit": "cSt"},
        "oil_temp": {"name": "Hydraulic oil temperature", "type": "float", "unit": "°C"},
        "pump1_flow": {"name": "Pump 1 flow", "type": "float", "unit": "L/min"},
        "pump2_flow": {"name": "Pump 2 flow", "type": "float", "unit": "L/min"},
        "pump1_running": {"name": "Pump 1 running", "type": "bool"},
        "pump2_running": {"name": "Pump 2 running", "type": "bool"},
        "system_pressure": {"name": "System pressure", "type": "float", "unit": "bar"},
        "system_pressure_sp": {"name": "System pressure setpoint", "type": "float",
                               "unit": "bar", "writable": True, "min": 50, "max": 250},
        "tank_level": {"name": "Oil tank level", "type": "float", "unit": "%"},
        "cooler_fan": {"name": "Oil cooler fan", "type": "bool", "writable": True},
    })}})


PLANTS: dict[str, Config] = {
    "hydraulics": _hydraulics(),
    **{name: config_of(own_plant(name))
       for name in ("engine_room", "feed_mill", "compressed_air", "wastewater")}}
ROUTERS = {name: Router(config) for name, config in PLANTS.items()}


def handed_on(plant: str, text: str) -> tuple[ModelStage, Analysis]:
    """The model stage and the analysis the model would get for this command."""
    router = ROUTERS[plant]
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    return ModelStage(PLANTS[plant], NoWorker()), replace(
        a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)


def refused(plant: str, text: str, point: str) -> bool:
    stage, a = handed_on(plant, text)
    checked = stage.check(a, Action("read", {"point": point}))
    return checked.name == "respond" and checked.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("plant", "text", "wrong", "right"), [
    # a unit the lexicon knows, said alone, is the point in that unit ("cSt": the viscosity)
    ("engine_room", "cSt reading?", "me_load", "fuel_viscosity"),
    ("hydraulics", "what's the cSt now", "oil_temp", "oil_visc"),
    # a Chinese word of a thing another point is of, whose characters' English words a wrong
    # point is named by (分油机, a purifier: its 油 is the "oil" of the lube oil pressure)
    ("engine_room", "1号分油机运行吗", "lube_oil_pressure", "purifier1"),
    # a setpoint, when the question asks for no setting and the measurement is a candidate
    ("compressed_air", "what's the header pressure", "header_pressure_sp", "header_pressure"),
    ("hydraulics", "what's the system pressure", "system_pressure_sp", "system_pressure"),
    ("engine_room", "jacket water temp", "jacket_water_sp", "jacket_water_temp"),
    # "how much" of a point that says how hot, how hard or how fast
    ("engine_room", "how much fuel is in the service tank", "fuel_viscosity", "service_tank"),
    ("hydraulics", "how much oil is in the tank", "oil_temp", "tank_level"),
    # a number between a thing and a unit numbers the thing when the plant has that number
    ("engine_room", "genset 2 kW", "gen1_power", "gen2_power"),
    ("hydraulics", "pump 2 L/min", "pump1_flow", "pump2_flow"),
])
def test_the_wrong_read_is_refused_and_the_right_one_stands(plant: str, text: str, wrong: str,
                                                           right: str) -> None:
    assert refused(plant, text, wrong)
    assert not refused(plant, text, right)


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("engine_room", "2号分油机运行吗", "gen2_power"),  # there is no purifier 2
    ("engine_room", "2号分油机运行吗", "lube_oil_pressure"),
    ("engine_room", "how much steam is the boiler making", "boiler_pressure"),
    # only a broad medium explains the point; the rest are words nobody here knows
    ("engine_room", "what's the crankcase oil mist reading", "lube_oil_pressure"),
    ("hydraulics", "what's the oil foaming index", "oil_temp"),
    # a word nobody knows said with the point's words may be what is asked of it: the model
    # picked the setpoint, and the one left (the measurement) is no gradient or deviation
    ("hydraulics", "what's the system pressure gradient", "system_pressure_sp"),
    ("hydraulics", "what is the system pressure deviation", "system_pressure_sp"),
    ("hydraulics", "system pressure ripple", "system_pressure_sp"),
    ("hydraulics", "what's the system pressure error", "system_pressure_sp"),
    ("compressed_air", "what's the header pressure offset", "header_pressure_sp"),
])
def test_a_read_that_does_not_answer_is_refused(plant: str, text: str, point: str) -> None:
    assert refused(plant, text, point)


@pytest.mark.parametrize(("plant", "text", "point"), [
    # a setting asked for in words: "setpoint", "set to"
    ("compressed_air", "what's the header pressure setpoint", "header_pressure_sp"),
    ("feed_mill", "what's the feeder set to on the hammer mill", "mill_feeder_sp"),
    # how much there is: a volume, a flow
    ("engine_room", "how much fuel are we burning per hour", "fuel_consumption"),
    ("hydraulics", "how much oil is pump 1 delivering", "pump1_flow"),
    # a word after "how" asks for the measure, known or not
    ("wastewater", "how cloudy is the effluent", "effluent_turbidity"),
    ("hydraulics", "how thick is the hydraulic oil", "oil_visc"),
])
def test_a_read_that_answers_stands(plant: str, text: str, point: str) -> None:
    assert not refused(plant, text, point)


@pytest.mark.parametrize(("plant", "text"), [
    ("engine_room", "genset 2 kW"),
    ("hydraulics", "pump 2 L/min"),
])
def test_a_verbless_number_is_no_write_of_a_read_only_point(plant: str, text: str) -> None:
    stage, a = handed_on(plant, text)
    assert not [c for c in stage.offer(a) if c.name == "write"]


@pytest.mark.parametrize(("plant", "text", "points"), [
    ("engine_room", "power of both generators", ["gen1_power", "gen2_power"]),
    ("hydraulics", "flow of both pumps", ["pump1_flow", "pump2_flow"]),
])
def test_several_points_of_a_quantity_are_its_measurements(plant: str, text: str,
                                                            points: list[str]) -> None:
    action = placed_without_model(ROUTERS[plant], text)
    assert action == Action("read", {"points": points})


def test_the_state_of_several_things_is_still_their_states() -> None:
    action = placed_without_model(ROUTERS["hydraulics"], "are both pumps running")
    assert action == Action("read", {"points": ["pump1_running", "pump2_running"]})


MILL = validate({
    "node": {"id": "mill"},
    "access": {"roles": {"viewer": {"read": True}, "operator": {"read": True, "write": True}}},
    "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "points": {
        # a map in English only: Chinese commands reach it through the words of modes
        "pump_mode": {"name": "Pump mode", "table": "holding", "address": 0,
                       "writable": True, "map": {0: "off", 1: "manual", 2: "auto"}},
        "pump_current": {"name": "Pump motor current", "table": "input", "address": 1,
                          "unit": "A"},
    }}}}, Path("/etc/hermesd/hermesd.yaml"))


async def _route(router: Router, text: str) -> dict[str, Any]:
    routed = await router.route(RequestContext.make("control", "operator"), text)
    return routed.action.to_dict()


@pytest.mark.parametrize(("text", "value"), [
    ("pump mode manual", "manual"),   # a choice right after its setting, as "setpoint 65"
    ("pump mode auto please", "auto"),
    ("把泵模式切换到自动", "auto"),     # 自动/手动 are the modes' words; 切换到 is "set to"
    ("泵模式设为手动", "manual"),
])
async def test_a_choice_said_after_its_setting_is_written(text: str, value: str) -> None:
    assert await _route(Router(MILL), text) == {
        "name": "write", "args": {"point": "pump_mode", "value": value}}


@pytest.mark.parametrize("text", [
    "pump mode manual?",          # asked
    "is the pump mode manual",
    "pump mode manual or auto",   # two choices
    "泵模式是自动吗",
])
async def test_a_choice_asked_about_writes_nothing(text: str) -> None:
    action = await _route(Router(MILL), text)
    assert action["name"] != "write", (text, action)


#: a read-only point of choices beside a writable one whose name ends the same way
PUMPS = validate({
    "node": {"id": "sump"},
    "access": {"roles": {"viewer": {"read": True}, "operator": {"read": True, "write": True}}},
    "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "points": {
        "sump_pump_mode": {"name": "Sump pump mode", "table": "input", "address": 0,
                           "map": {0: "manual", 1: "auto"}},
        "feed_pump_mode": {"name": "Feed pump mode", "table": "holding", "address": 1,
                           "writable": True, "map": {0: "manual", 1: "auto"}},
    }}}}, Path("/etc/hermesd/hermesd.yaml"))


@pytest.mark.parametrize(("text", "read"), [
    ("sump pump mode manual", "sump_pump_mode"),  # the state it is in, said or asked
    ("sump pump mode auto", "sump_pump_mode"),
])
async def test_a_choice_after_a_read_only_point_s_name_is_its_state(text: str,
                                                                    read: str) -> None:
    assert await _route(Router(PUMPS), text) == {"name": "read", "args": {"point": read}}


async def test_a_choice_said_of_points_of_both_kinds_writes_nothing() -> None:
    # which pump is not said, and the one that cannot be set may be meant
    action = await _route(Router(PUMPS), "pump mode manual")
    assert action["name"] != "write", action


async def test_the_engine_room_and_feed_mill_writes_by_choice() -> None:
    mill = Router(PLANTS["feed_mill"])
    assert await _route(mill, "pellet mill mode manual") == {
        "name": "write", "args": {"point": "pellet_mill_mode", "value": "manual"}}
    assert await _route(mill, "制粒机切换到自动") == {
        "name": "write", "args": {"point": "pellet_mill_mode", "value": "auto"}}


class Answers:
    """A worker whose model answers one fixed line (what the model picked is the input here;
    the check and what follows it are under test)."""

    state = "ready"

    def __init__(self, line: str) -> None:
        self.line = line

    async def call(self, action: str, args: dict[str, Any], timeout: float) -> Any:
        assert action == "complete"
        return {"text": self.line, "finish_reason": "stop", "eval_ms": 0.0,
                "generate_ms": 0.0}

    def kill(self, reason: str) -> None:
        raise AssertionError("no kill expected")


async def _decided(plant: str, text: str, line: str) -> Action:
    stage, a = handed_on(plant, text)
    stage = ModelStage(PLANTS[plant], Answers(line))
    routed = await stage(RequestContext.make("control", "operator"), text, a)
    assert routed is not None
    return routed.action


@pytest.mark.parametrize(("plant", "text", "picked", "meant"), [
    # the check refuses the model's pick; one candidate is left that explains it all
    ("hydraulics", "what's the system pressure", "system_pressure_sp", "system_pressure"),
    ("compressed_air", "what's the header pressure", "header_pressure_sp", "header_pressure"),
    # ...whatever word nobody knows is said beside it
    ("hydraulics", "what's the system pressure doing, roughly", "system_pressure_sp",
     "system_pressure"),
])
async def test_when_the_pick_is_refused_the_one_candidate_left_is_read(
        plant: str, text: str, picked: str, meant: str) -> None:
    assert await _decided(plant, text, f"read {picked}") == Action("read", {"point": meant})


@pytest.mark.parametrize(("plant", "text", "picked"), [
    ("engine_room", "2号分油机运行吗", "me_running"),  # no candidate is left
    ("engine_room", "what's the crankcase oil mist reading", "lube_oil_pressure"),
    ("hydraulics", "what's the oil foaming index", "oil_temp"),
    # a word nobody knows said with the point's words may be what is asked of it: the model
    # picked the setpoint, and the one left (the measurement) is no gradient or deviation
    ("hydraulics", "what's the system pressure gradient", "system_pressure_sp"),
    ("hydraulics", "what is the system pressure deviation", "system_pressure_sp"),
    ("hydraulics", "system pressure ripple", "system_pressure_sp"),
    ("hydraulics", "what's the system pressure error", "system_pressure_sp"),
    ("compressed_air", "what's the header pressure offset", "header_pressure_sp"),
])
async def test_when_no_one_candidate_is_left_the_refusal_stands(plant: str, text: str,
                                                                picked: str) -> None:
    action = await _decided(plant, text, f"read {picked}")
    assert action.name == "respond" and action.args["reason"] == "unknown_point", action
