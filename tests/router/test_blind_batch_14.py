"""What blind batch 14 (tests/data/plants: diecast, carwash, mushroom) found wrong: each test says
what a person on that plant would expect. Batch 14 scored 124/150 with the model before anything
was changed for it, with 5 confidently wrong, three by the rules: below."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from tests.support.plants import NoWorker, config_of, own_plant, routed_without_model

CONFIGS = {name: config_of(own_plant(name)) for name in ("diecast", "carwash", "mushroom")}
ROUTERS = {name: Router(config) for name, config in CONFIGS.items()}


async def _routed(plant: str, text: str) -> tuple[str, Any]:
    action = await routed_without_model(ROUTERS[plant], text)
    return action.name, action.args.get("point", action.args.get("points",
                                                                  action.args.get("reason")))


async def test_a_quantity_asked_of_a_pump_named_after_it_is_the_pumps_measure() -> None:
    """Before: "HP1 pressure" read the on/off of High pressure pump 1 (alias HP1), whose name
    has the word "pressure" — not its pressure."""
    assert await _routed("carwash", "HP1 pressure") == ("read", "hp_pump1_pressure")
    assert await _routed("carwash", "is HP1 running") == ("read", "hp_pump1")
    assert await _routed("carwash", "is high pressure pump 1 on") == ("read", "hp_pump1")


async def test_how_many_counts_it_names_no_several_points() -> None:
    """Before: "how many cars" read both the car counter and the cars per hour, as if "cars"
    were several points."""
    assert await _routed("carwash", "how many cars have we put through so far") == \
        ("read", "car_count")


async def test_a_holding_furnace_in_chinese_is_no_temperature() -> None:
    """Before: 保温炉液位 (the holding furnace's level) counted as a temperature, by the 温 of
    保温 ("keeping warm"), so "holder metal temp and bath level" read the level alone."""
    assert await _routed("diecast", "holder metal temp and bath level please") == \
        ("read", ["melt_temp", "furnace_level"])


def test_a_unit_the_point_cannot_measure_is_no_read_of_it() -> None:
    """Before: the model read room 1's CO2 for "how many kilos did we pick from room 1
    yesterday" — kilos measure no CO2."""
    router = ROUTERS["mushroom"]
    a = router.rules.analyse("how many kilos did we pick from room 1 yesterday")
    judged = router.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    stage = ModelStage(CONFIGS["mushroom"], NoWorker())
    assert stage.check(a, Action("read", {"point": "room1_co2"})).name == "respond"
    b = router.rules.analyse("room 1 temperature in fahrenheit")
    judged = router.semantic.judge(b)
    b = replace(b, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    assert stage.check(b, Action("read", {"point": "room1_air_temp"})) == \
        Action("read", {"point": "room1_air_temp"})


async def test_a_switch_named_by_a_noun_is_switched_by_its_thing() -> None:
    """After the rule for switches named by an action ("Feeder 3 isolate"), "turn the tri-foam
    off" was refused: "arch" of "Triple foam arch" is a thing, not what the switch does."""
    assert await _routed("carwash", "turn the tri-foam off") == ("write", "triple_foam")


async def test_a_switch_named_by_a_word_said_otherwise_is_switched_as_said() -> None:
    """The action said in other words by no on/off (打开上站供暖: 供暖, heating, of "Summit
    station heating") is switched as said; one said by an on/off word ("disable feeder 3" of
    "Feeder 3 isolate") is refused (tests/data/attacks/rv31.jsonl)."""
    router = Router(config_of(own_plant("aerial_ropeway")))
    action = await routed_without_model(router, "打开上站供暖")
    assert (action.name, action.args) == ("write", {"point": "summit_heating", "value": True})
