"""The rules and the semantic stage on plants the router was not written for, without a model.

What they place must be right (never a wrong point or value); what they are not sure of they hand
on to the model. The plants (tests/data/plants) are of other industries, with commands written
before the router ran on them: paraphrases, jargon, typos, units, number words, Chinese about
English-named points, refusals, plural writes and reads of several points.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action, respond
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.write_gate import doubt
from tests.support.plants import (
    OWN_PLANTS,
    PLANTS,
    config_of,
    dev_commands,
    dev_plant,
    own_commands,
    own_plant,
    placed_without_model,
)

#: every plant written for the router: those the other tests know, then the rest of the folder
ALL_OWN = (*OWN_PLANTS, *sorted(p.stem for p in PLANTS.glob("*.yaml")
                                if p.stem not in OWN_PLANTS and p.with_suffix(".jsonl").is_file()))
ROUTERS = {name: Router(config_of(own_plant(name))) for name in ALL_OWN}
ROUTERS["dev"] = Router(config_of(dev_plant()))


def decide(plant: str, text: str) -> Action | None:
    """What the rules, then the semantic stage, place without the model (None: the model's),
    as it leaves the router: a write the write gate refuses ("BIN 2 AER FAN: ON", a screen's
    text) is asked back, never sent, whichever stage placed it."""
    router = ROUTERS[plant]
    action = placed_without_model(router, text)
    if action is not None and action.name == "write" and doubt(
            text, router.rules.points[action.args["point"]], action.args["value"],
            router.rules.profiles) is not None:
        return respond("not_understood", value_problem="gate")
    return action


def right(action: Action, expect: dict[str, Any]) -> bool:
    if action.name != expect["action"]:
        return False
    if expect["action"] == "respond":
        return True
    if "points" in expect:
        return bool(action.args.get("points") == expect["points"])
    return action.point == expect["point"] and \
        ("value" not in expect or action.args.get("value") == expect["value"])


COMMANDS = [(plant, c) for plant in ALL_OWN for c in own_commands(plant)] + \
    [("dev", c) for c in dev_commands()]


@pytest.mark.parametrize(("plant", "command"), COMMANDS,
                         ids=[f"{p}: {c['text']}" for p, c in COMMANDS])
def test_what_is_placed_without_the_model_is_right(plant: str, command: dict[str, Any]) -> None:
    action = decide(plant, command["text"])
    if action is None or (action.name == "respond" and action.args.get("reason")
                          == "not_understood" and "value_problem" not in action.args):
        return  # handed on
    expect = command["expect"]
    # a refusal where a point was meant is a miss, never a wrong effect; a wrong read or
    # write is
    if action.name in ("read", "write"):
        assert right(action, expect), action


def test_most_of_every_plant_is_placed_without_the_model() -> None:
    for plant in (*OWN_PLANTS, "dev"):
        commands = own_commands(plant) if plant != "dev" else dev_commands()
        placed = [c for c in commands if (a := decide(plant, c["text"])) is not None
                  and right(a, c["expect"])]
        assert len(placed) >= 0.65 * len(commands), (plant, len(placed), len(commands))
    # the dev plant: all but what the model refuses ("what is the capital of France", "the
    # humidity in the office": a read of any point there is checked and refused)
    dev = [c for c in dev_commands() if (a := decide("dev", c["text"])) is not None
           and right(a, c["expect"])]
    assert len(dev) >= len(dev_commands()) - 3


@pytest.mark.parametrize(("plant", "text"), [
    ("waterworks", "what's the temperature of the reservoir"),  # no temperature at all
    ("sawmill", "what's the oil temperature of the carriage hydraulics"),  # nor of the carriage
    ("fishfarm", "what's the nitrate level"),
    ("quarry", "what's the moisture of the stockpile"),
])
def test_a_quantity_the_plant_lacks_is_an_unknown_point(plant: str, text: str) -> None:
    router = ROUTERS[plant]
    assert router.rules.place(text) is None  # sure or silent: the rules say nothing
    action = decide(plant, text)
    assert action is not None and action.name == "respond", action
    assert action.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("plant", "text"), [
    ("waterworks", "what is the chlorine dosing pump speed"),  # no such pump
    ("waterworks", "what's the temperature of the reservoir"),
    ("fishfarm", "what is the water temperature in the sump"),  # only the tanks have one
    ("quarry", "jaw crusher oil temperature"),  # only the cone crusher has one
    ("dev", "what's the humidity in the office"),
])
def test_a_point_that_lacks_what_is_named_is_never_the_answer(plant: str, text: str) -> None:
    """Whatever the model would choose among the candidates, a read of a point that lacks a
    quantity or thing the command names comes back as unknown_point."""
    router = ROUTERS[plant]
    assert router.rules.place(text) is None
    analysis = router.rules.analyse(text)
    judged = router.semantic.judge(analysis)
    if judged.placement is not None:
        assert judged.placement.action.args.get("reason") == "unknown_point"
        return
    stage = ModelStage(config_of(own_plant(plant) if plant != "dev" else dev_plant()),
                       _NoWorker())
    assert judged.candidates
    for point in router.rules.points:
        checked = stage.check(analysis, Action("read", {"point": point}))
        assert checked.name == "respond" and checked.args["reason"] == "unknown_point", \
            (point, checked)


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("waterworks", "intake pump 1100 rpm please", "intake_pump_speed", 1100),
    ("waterworks", "chlorine dose setpoint 1.8", "chlorine_dose_sp", 1.8),
    ("waterworks", "blower off", "backwash_blower", False),
    ("sawmill", "kiln 1 setpoint 65", "kiln1_setpoint", 65),
    ("sawmill", "dry bulb setpoint for kiln one, sixty two and a half", "kiln1_setpoint", 62.5),
    ("fishfarm", "uv steriliser on", "uv_steriliser", True),
    ("fishfarm", "give them 15 kilos an hour", "feed_rate", 15),
    ("quarry", "CSS 120", "jaw_gap", 120),
    ("dev", "3号锅炉设定温度 520", "boiler3_setpoint", 520),
])
def test_terse_writes_are_writes(plant: str, text: str, point: str, value: Any) -> None:
    assert decide(plant, text) == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("sawmill", "kiln 2 dry bulb temprature", "kiln2_dry_bulb"),  # a typo
    ("waterworks", "turbidty of the raw water", "raw_turbidity"),
    ("fishfarm", "salinty", "salinity"),
    ("quarry", "conveyer 2 speed", "conveyor2_speed"),
    ("quarry", "jaw crusher amps", "jaw_current"),  # a unit names the quantity
    ("quarry", "tonnes per hour on the belt", "belt_scale"),
    ("fishfarm", "mg/l of oxygen in tank one", "tank1_oxygen"),
    ("sawmill", "moisture content of the boards in the first kiln", "wood_moisture_1"),
    ("waterworks", "how clear is the water coming off the filters", "filtered_turbidity"),
    ("waterworks", "余氯是多少", "chlorine_residual"),  # Chinese, English names only
    ("waterworks", "清水池液位", "reservoir_level"),
    ("sawmill", "1号窑干球温度", "kiln1_dry_bulb"),  # its Chinese name
    ("sawmill", "what temp is kiln 2 set to", "kiln2_setpoint"),
    ("fishfarm", "DO in tank one?", "tank1_oxygen"),
])
def test_reads_by_meaning(plant: str, text: str, point: str) -> None:
    assert decide(plant, text) == Action("read", {"point": point})


@pytest.mark.parametrize(("plant", "text", "points"), [
    ("dev", "temperatures of all three boilers", ["boiler1_temp", "boiler2_temp",
                                                  "boiler3_temp"]),
    ("dev", "所有锅炉的温度", ["boiler1_temp", "boiler2_temp", "boiler3_temp"]),
    ("waterworks", "both filter differential pressures", ["filter1_dp", "filter2_dp"]),
    ("sawmill", "dry bulb temperatures of both kilns", ["kiln1_dry_bulb", "kiln2_dry_bulb"]),
    ("sawmill", "kiln 1 dry and wet bulb", ["kiln1_dry_bulb", "kiln1_wet_bulb"]),
    ("dev", "temperature and pressure of boiler 3", ["boiler3_temp", "boiler3_pressure"]),
    ("fishfarm", "water temperatures of all the tanks", ["tank1_temp", "tank2_temp"]),
])
def test_several_points_in_one_read(plant: str, text: str, points: list[str]) -> None:
    assert decide(plant, text) == Action("read", {"points": points})


def test_a_status_summary_reads_every_point() -> None:
    for text in ("状态汇总", "status summary"):
        action = decide("waterworks", text)
        assert action is not None and action.name == "read"
        assert action.args["points"] == list(ROUTERS["waterworks"].rules.points)


@pytest.mark.parametrize(("plant", "text", "meant"), [
    ("dev", "switch off all the pumps", ["pump1_speed"]),
    ("dev", "所有水泵都关掉", ["pump1_speed"]),
    ("waterworks", "turn off every blower and pump", ["backwash_blower", "intake_pump_speed"]),
    ("sawmill", "turn off all the kiln fans", ["kiln1_fans"]),
    ("quarry", "stop all the conveyors", ["conveyor2_speed"]),
    ("dev", "set pump 1 to 900 and open valve 2", ["pump1_speed", "valve2_open"]),
])
def test_plural_writes_are_refused_naming_the_points_meant(plant: str, text: str,
                                                          meant: list[str]) -> None:
    action = decide(plant, text)
    assert action is not None and action.name == "respond", action
    assert action.args["reason"] == "not_allowed" and action.args["points"] == meant
    reply = action.args["text"]
    assert "one point per command" in reply or "每条命令只能设置一个测点" in reply
    names = [ROUTERS[plant].rules.points[p].name for p in meant]
    assert all(name in reply for name in names), reply


def test_the_model_is_offered_no_write_for_a_plural_command() -> None:
    router = ROUTERS["dev"]
    stage = ModelStage(config_of(dev_plant()), _NoWorker())
    for text in ("switch the pumps off, all of them, 500", "set every boiler to 500"):
        analysis = router.rules.analyse(text)
        judged = router.semantic.judge(analysis)
        assert judged.plural
        from dataclasses import replace
        offered = stage.offer(replace(analysis, plural=judged.plural,
                                      scored=[(f.score, f.point) for f in judged.fits]))
        assert not [c for c in offered if c.name == "write"], offered


class _NoWorker:
    state = "down"

    async def call(self, action: str, args: dict[str, Any], timeout: float) -> Any:
        raise AssertionError("no model call expected")

    def kill(self, reason: str) -> None:
        raise AssertionError("no kill expected")
