"""Numbers, abbreviations and Chinese plant words on plants the router was not written for
(tests/data/plants: a wastewater works, a paper machine, a compressed air station).

- A number with its unit after it is a value, never a thing's number: "fan pump 1200 rpm" is a
  write of the fan pump's speed, not a question about "pump 1200".
- A read is not sure while a number stands where a value does ("do setpoint 2"): the rules stay
  silent rather than answer a read where a write may be meant.
- "DO" opening a command is dissolved oxygen when a point measures it and no one is asked
  ("DO setpoint 1.5"); "do we have..." is still a question.
- A Chinese ordinal numbers the thing written after it: 2号消化池 of a plant with one
  unnumbered digester names a unit that does not exist.
- Chinese words of paper machines and compressed air (流浆箱, 网速, 烘缸, 损纸, 主管, 储气罐)
  reach English-named points, through the lexicon, and pass the write gate.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.write_gate import doubt
from tests.support.plants import config_of, own_plant, placed_without_model

PLANTS = ("wastewater", "paper_machine", "compressed_air")
CONFIGS = {name: config_of(own_plant(name)) for name in PLANTS}
ROUTERS = {name: Router(config) for name, config in CONFIGS.items()}
STAGES = {name: ModelStage(config, object()) for name, config in CONFIGS.items()}  # type: ignore[arg-type]


def placed(plant: str, text: str) -> Action | None:
    """What the rules, then the semantic stage, place without the model (None: the model's)."""
    return placed_without_model(ROUTERS[plant], text)


def offered(plant: str, text: str) -> list[str]:
    """The lines the model would be offered for `text` (candidates from the semantic stage)."""
    router = ROUTERS[plant]
    analysis = router.rules.analyse(text)
    judged = router.semantic.judge(analysis)
    analysis = replace(analysis, scored=[(f.score, f.point) for f in judged.fits],
                       plural=judged.plural)
    return [c.line for c in STAGES[plant].offer(analysis)]


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("paper_machine", "fan pump 1200 rpm", "fan_pump_speed_sp", 1200),
    ("paper_machine", "fan pump 900 rpm please", "fan_pump_speed_sp", 900),
])
def test_a_number_with_its_unit_is_a_value_not_a_things_number(
        plant: str, text: str, point: str, value: int) -> None:
    router = ROUTERS[plant]
    analysis = router.rules.analyse(text)
    assert analysis.unknown is None  # not "pump 1200", a pump the plant lacks
    assert f"write {point} {value}" in offered(plant, text)
    assert doubt(text, CONFIGS[plant].points[point], value, router.rules.profiles) is None


def test_a_number_of_a_thing_is_still_its_number() -> None:
    """ "vacuum pump 2" on a plant with vacuum pump 1 only: no unit follows, it is pump 2."""
    action = placed("paper_machine", "vacuum pump 2 running?")
    assert action is not None and action.name == "respond", action
    assert action.args["reason"] == "unknown_point"


@pytest.mark.parametrize("text", ["do setpoint 2", "DO setpoint to 2"])
def test_a_read_is_not_sure_while_a_number_stands_where_a_value_does(text: str) -> None:
    action = ROUTERS["wastewater"].rules.place(text)
    assert action is None or action.action.name != "read", action


@pytest.mark.parametrize(("text", "value"), [
    ("DO setpoint 1.5", 1.5),
    ("DO setpoint one point five", 1.5),
])
def test_do_opening_a_command_is_dissolved_oxygen(text: str, value: float) -> None:
    action = placed("wastewater", text)
    assert action == Action("write", {"point": "do_setpoint", "value": value}), action
    router = ROUTERS["wastewater"]
    assert doubt(text, CONFIGS["wastewater"].points["do_setpoint"], value,
                 router.rules.profiles) is None


@pytest.mark.parametrize("text", ["do we have a DO setpoint", "Do you know the DO in basin 1"])
def test_do_before_someone_asked_is_still_a_question(text: str) -> None:
    analysis = ROUTERS["wastewater"].rules.analyse(text)
    assert analysis.yes_no and not analysis.wants_write


def test_a_chinese_ordinal_numbers_the_thing_after_it() -> None:
    router = ROUTERS["wastewater"]
    digester = router.rules.profiles.by_id["digester_temp"]
    # one digester, no number: "2号消化池" is a digester the plant does not have...
    assert STAGES["wastewater"].missing(router.rules.analyse("2号消化池温度"), digester)
    # ...and "1号" of a thing with no number may be that thing
    assert STAGES["wastewater"].missing(router.rules.analyse("1号消化池温度"), digester) is None
    action = STAGES["wastewater"].check(router.rules.analyse("2号消化池温度"),
                                        Action("read", {"point": "digester_temp"}))
    assert action.name == "respond" and action.args["reason"] == "unknown_point"


@pytest.mark.parametrize(("plant", "text", "expect"), [
    ("paper_machine", "网速是多少", {"action": "read", "point": "wire_speed"}),
    ("paper_machine", "断纸了吗", {"action": "read", "point": "web_break"}),
    ("paper_machine", "启动损纸碎浆机搅拌器",
     {"action": "write", "point": "broke_pulper_agitator", "value": True}),
    ("wastewater", "is the flare lit", {"action": "read", "point": "flare_burning"}),
])
def test_plant_words_of_other_industries_are_placed(plant: str, text: str,
                                                    expect: dict[str, Any]) -> None:
    action = placed(plant, text)
    assert action is not None and action.name == expect["action"], action
    assert action.point == expect["point"]
    if "value" in expect:
        assert action.args["value"] == expect["value"]


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    ("compressed_air", "把主管压力设定值设为七巴", "header_pressure_sp", 7),
    ("compressed_air", "打开储气罐排水阀", "receiver_drain", True),
    ("paper_machine", "把烘缸蒸汽压力设定为3巴", "dryer_steam_sp", 3),
    ("paper_machine", "启动损纸碎浆机搅拌器", "broke_pulper_agitator", True),
])
def test_chinese_writes_of_english_named_points_pass_the_gate(plant: str, text: str,
                                                              point: str, value: Any) -> None:
    router = ROUTERS[plant]
    assert doubt(text, CONFIGS[plant].points[point], value, router.rules.profiles) is None
    # the value the words give is the one offered (rules, semantic stage or model)
    action = placed(plant, text)
    assert (action is not None and action.point == point and action.args["value"] == value) \
        or f"write {point} {'on' if value is True else value}" in offered(plant, text)


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    # the gate stays strict: another thing of the kind, said in Chinese, is no write
    ("paper_machine", "把流浆箱压力设定为3巴", "dryer_steam_sp", 3),
    ("compressed_air", "打开凝结水箱排水阀", "receiver_drain", True),
])
def test_another_thing_said_in_chinese_is_still_no_write(plant: str, text: str, point: str,
                                                         value: Any) -> None:
    router = ROUTERS[plant]
    assert doubt(text, CONFIGS[plant].points[point], value, router.rules.profiles) is not None


def offered_on(plant: str, text: str) -> list[str]:
    config = config_of(own_plant(plant))
    router = Router(config)
    stage = ModelStage(config, object(), rules=router.rules)  # type: ignore[arg-type]
    analysis = router.rules.analyse(text)
    judged = router.semantic.judge(analysis)
    analysis = replace(analysis, scored=[(f.score, f.point) for f in judged.fits],
                       plural=judged.plural)
    return [c.line for c in stage.offer(analysis)]


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("quarry", "料堆有多高", "stockpile_level"),  # 多高: how high, a question word
    ("mine_conveyor", "水仓水位多高", "sump_level"),
    ("cleanroom", "particles in the room", "particle_count"),  # the room the points are in
])
def test_the_model_only_chooses_when_a_candidate_explains_what_is_asked(
        plant: str, text: str, point: str) -> None:
    lines = offered_on(plant, text)
    assert lines[0] == f"read {point}"
    assert not any(line.startswith("respond") for line in lines), lines


@pytest.mark.parametrize(("plant", "text"), [
    ("cleanroom", "what's the CO2 in the room"),  # no CO2: the model may refuse
    ("compressed_air", "what is the humidity in the compressor room"),
])
def test_a_place_of_the_plant_does_not_hide_what_it_lacks(plant: str, text: str) -> None:
    assert "respond unknown_point" in offered_on(plant, text)


def test_a_place_only_one_point_names_is_still_a_word_to_refuse_on() -> None:
    """The dev plant's one "boiler house alarm" makes no plant room of the boiler house."""
    from tests.support.plants import dev_plant
    config = config_of(dev_plant())
    router = Router(config)
    stage = ModelStage(config, object(), rules=router.rules)  # type: ignore[arg-type]
    analysis = router.rules.analyse("how hot is it in the plant room")
    judged = router.semantic.judge(analysis)
    analysis = replace(analysis, scored=[(f.score, f.point) for f in judged.fits])
    assert "respond unknown_point" in [c.line for c in stage.offer(analysis)]


def test_an_and_the_semantic_stage_could_not_split_leaves_the_model_a_refusal() -> None:
    """ "turbidity before and after filtration" asks for two points: one read is half an
    answer, so the model is not forced to choose one."""
    lines = offered_on("waterworks", "turbidity before and after filtration")
    assert "respond unknown_point" in lines


def test_a_production_total_is_what_tonnes_produced_says() -> None:
    """产量 (production) of "Tonnes produced today": the plant has it, so no unknown_point."""
    router = Router(config_of(own_plant("quarry")))
    judged = router.semantic.judge(router.rules.analyse("今天产量多少吨"))
    assert judged.placement is None or judged.placement.action.name == "read"
    assert judged.fits and judged.fits[0].point == "tonnes_today"


def test_a_quantity_a_points_unit_measures_is_no_unknown_point() -> None:
    """A totaliser (a flow total) of "Treated water total" in m³: the unit (volume or flow
    total, one of a few quantities) says the plant has it, and only that point."""
    router = Router(config_of(own_plant("waterworks")))
    judged = router.semantic.judge(router.rules.analyse("what's the totaliser reading"))
    assert judged.placement is not None
    assert judged.placement.action.args == {"point": "treated_volume"}
    # a quantity no unit or name of the plant has is still unknown
    judged = router.semantic.judge(router.rules.analyse("what's the temperature of the reservoir"))
    assert judged.placement is not None
    assert judged.placement.action.args["reason"] == "unknown_point"


def test_how_many_before_a_unit_asks_for_what_the_unit_measures() -> None:
    lines = offered_on("waterworks", "how many m3/h are coming out of the outlet")
    assert lines[0] == "read outlet_flow"
    assert not any(line.startswith("respond") for line in lines), lines


def test_the_plant_itself_leaves_the_model_a_refusal() -> None:
    """ "the temperature of the plant" of a plant with several temperatures: none is meant."""
    from tests.support.plants import dev_plant
    config = config_of(dev_plant())
    router = Router(config)
    stage = ModelStage(config, object(), rules=router.rules)  # type: ignore[arg-type]
    analysis = router.rules.analyse("what's the temperature of the plant")
    judged = router.semantic.judge(analysis)
    analysis = replace(analysis, scored=[(f.score, f.point) for f in judged.fits])
    assert judged.placement is None or judged.placement.action.name == "respond"
    assert "respond unknown_point" in [c.line for c in stage.offer(analysis)]


def test_a_medium_no_point_names_is_still_one_the_plant_lacks() -> None:
    """ "sewage temperature" at a wastewater works: no point is of sewage, and the digester's
    heating setpoint is no answer, whatever the plant's name says."""
    router = ROUTERS["wastewater"]
    heating = router.rules.profiles.by_id["digester_heating_sp"]
    assert STAGES["wastewater"].missing(router.rules.analyse("what's the sewage temperature"),
                                        heating) == "sewage"
