"""A word that names something the point is not is never explained by that point, whichever stage
reads it: another qualifier of the same thing ("exhaust fan" of the supply fan), a number of a
unit that does not exist ("conveyor 2" where the one conveyor has none, "AHU 2" of a point on
device "ahu1"). What the rules and the semantic stage do not place, the model's choice is checked
against: a read of such a point comes back as unknown_point."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.write_gate import gated
from tests.support.plants import config_of, own_plant, placed_without_model

PLANTS = ("cleanroom", "mine_conveyor", "compressed_air")
ROUTERS = {name: Router(config_of(own_plant(name))) for name in PLANTS}
STAGES = {name: ModelStage(config_of(own_plant(name)), object()) for name in PLANTS}  # type: ignore[arg-type]


def placed(plant: str, text: str) -> Action | None:
    """What the rules, then the semantic stage, place without the model (None: the model's)."""
    return placed_without_model(ROUTERS[plant], text)


def checked(plant: str, text: str, point: str) -> Action:
    """What a model's read of `point` for `text` comes back as."""
    router = ROUTERS[plant]
    return STAGES[plant].check(router.rules.analyse(text), Action("read", {"point": point}))


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cleanroom", "exhaust fan speed", "supply_fan_speed"),  # another fan
    ("mine_conveyor", "what's the tail drive current", "drive_current"),  # another drive
    ("cleanroom", "AHU 2 supply fan speed", "supply_fan_speed"),  # the AHU is number 1
    ("mine_conveyor", "conveyor 2 belt speed", "belt_speed"),  # one conveyor, no number
    ("compressed_air", "compressor 3 discharge pressure", "comp1_discharge_pressure"),
])
def test_a_point_that_is_not_the_one_named_is_never_read(plant: str, text: str,
                                                         point: str) -> None:
    action = placed(plant, text)
    assert action is None or action.name == "respond", action
    back = checked(plant, text, point)
    assert back.name == "respond" and back.args["reason"] == "unknown_point", back


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cleanroom", "supply fan speed", "supply_fan_speed"),
    ("cleanroom", "AHU 1 supply fan speed", "supply_fan_speed"),  # its device's number
    ("mine_conveyor", "head drive current", "drive_current"),
    ("mine_conveyor", "trunk conveyor belt speed", "belt_speed"),
])
def test_the_point_named_is_still_placed(plant: str, text: str, point: str) -> None:
    action = placed(plant, text)
    assert action is not None and action.name == "read" and action.point == point, action
    assert checked(plant, text, point).name == "read"


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("compressed_air", "take compressor 1 offline", "comp1_enable", False),
    ("compressed_air", "put compressor 1 back in service", "comp1_enable", True),
    ("compressed_air", "停用1号空压机", "comp1_enable", False),
    ("mine_conveyor", "bring the dewatering pump back online", "dewater_pump", True),
    ("cleanroom", "take the supply fan out of service", "supply_fan", False),
])
def test_a_state_verb_switches_the_point(plant: str, text: str, point: str,
                                         value: bool) -> None:
    action = placed(plant, text)
    assert action is not None and action.name == "write", action
    assert action.point == point and action.args["value"] is value


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cleanroom", "supply air set temp?", "supply_temp_sp"),  # "set" names the setpoint
    ("cleanroom", "chilled water valve, how far open", "chw_valve"),  # a position asked
    ("mine_conveyor", "减速箱温度", "gearbox_temp"),
])
def test_a_question_about_a_setting_is_no_write(plant: str, text: str, point: str) -> None:
    router = ROUTERS[plant]
    analysis = router.rules.analyse(text)
    assert not analysis.wants_write
    action = placed(plant, text)
    if action is not None:
        assert action.name == "read" and action.point == point, action
    else:
        judged = router.semantic.judge(analysis)
        assert point in judged.candidates


def test_a_chinese_word_is_explained_by_the_english_forms_of_its_concept() -> None:
    """排气阀 is a vent valve in the lexicon: a "vent" of the point's name explains it, in the
    semantic stage and in the write gate alike."""
    router = Router(config_of(own_plant("sawmill")))
    action = router.semantic.judge(router.rules.analyse("一号窑排气阀开度设为百分之三十")).placement
    assert action is not None
    assert action.action == Action("write", {"point": "kiln1_vents", "value": 30})
    text = "一号窑排气阀开度设为百分之三十"
    analysis = router.rules.analyse(text)
    assert gated(text, router.rules.points["kiln1_vents"], 30, router.rules.profiles,
                 analysis.toks) is None


@pytest.mark.parametrize(("text", "point", "value"), [
    ("crash the supply air setpoint to 16 degrees", "supply_temp_sp", 16),
    ("dial the supply air setpoint to 18", "supply_temp_sp", 18),
    ("bring the supply fan speed up to 70 percent", "supply_fan_speed", 70),  # the fan's speed
    ("knock the humidifier back to 20%", "humidifier", 20),
])
def test_a_verb_of_setting_is_no_word_of_a_point(text: str, point: str, value: int) -> None:
    action = placed("cleanroom", text)
    assert action == Action("write", {"point": point, "value": value}), action
    analysis = ROUTERS["cleanroom"].rules.analyse(text)
    rules = ROUTERS["cleanroom"].rules
    assert gated(text, rules.points[point], value, rules.profiles, analysis.toks) is None


def test_a_verb_of_setting_writes_nothing_to_a_point_it_does_not_name() -> None:
    action = placed("cleanroom", "crash the exhaust fan speed to 20 percent")
    assert action is None or action.name == "respond", action
