"""What blind batch 15 (tests/data/plants: olive_mill, heat_treat, efw_plant) found wrong: each
test says what a person on that plant would expect. Batch 15 scored 126/150 with the model
before anything was changed for it, with 4 confidently wrong, all by the rules: below."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from tests.support.plants import NoWorker, config_of, own_plant, routed_without_model

ROUTERS = {name: Router(config_of(own_plant(name)))
           for name in ("olive_mill", "heat_treat", "efw_plant")}


async def _routed(plant: str, text: str) -> tuple[str, Any]:
    action = await routed_without_model(ROUTERS[plant], text)
    return action.name, action.args.get("point", action.args.get("points",
                                                                  action.args.get("reason")))


async def test_a_gas_only_a_description_mentions_is_no_read_of_that_point() -> None:
    """Before: "HCl at the stack?" read the bag filter bypass damper, whose description says
    the gas goes "to the stack" below the "acid" dew point: the plant measures no HCl."""
    name, _ = await _routed("efw_plant", "HCl at the stack?")
    assert name == "respond"
    assert await _routed("efw_plant", "is the bag filter bypass open") == \
        ("read", "bagfilter_bypass")


async def test_a_reset_said_first_with_where_after_it_is_the_reset() -> None:
    """Before: "reset the burner trip on tempering oven 1" read the reset coil: the "on" of
    where it is counted as a switch word, so the reset said first was no verb."""
    assert (await routed_without_model(ROUTERS["heat_treat"],
                                       "reset the burner trip on tempering oven 1")).args == \
        {"point": "temper1_burner_reset", "value": True}


async def test_an_interlock_said_off_writes_nothing() -> None:
    """ "Furnace 1 door interlock override": the interlock said off means the override on, a
    safeguard defeated, and is refused as such; the mode's "off" is the furnace's."""
    name, reason = await _routed("heat_treat", "switch the door interlock off on furnace 1")
    assert (name, reason) == ("respond", "not_allowed")
    assert (await routed_without_model(ROUTERS["heat_treat"], "switch furnace 1 off")).args == \
        {"point": "f1_mode", "value": "off"}


def _model_read(plant: str, text: str, point: str) -> Action:
    """What the model stage makes of the model's read of `point` for `text`."""
    router = ROUTERS[plant]
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    return ModelStage(router.config, NoWorker()).check(a, Action("read", {"point": point}))


def test_the_models_read_is_refused_where_the_rules_were_silent() -> None:
    """With the rules silent on these, the model read them as the rules had (batch 15 after
    its fixes: 3 confidently wrong, all by the model): one oven of two, the pulse switch asked
    to pulse, the damper described as sending gas to the stack."""
    assert _model_read("heat_treat", "what are the two tempering ovens reading",
                       "temper2_temp").name == "respond"
    assert _model_read("efw_plant", "pulse the bags", "bagfilter_pulse").name == "respond"
    assert _model_read("efw_plant", "HCl at the stack?", "bagfilter_bypass").name == "respond"
    assert _model_read("heat_treat", "tempering oven 2 temperature", "temper2_temp") == \
        Action("read", {"point": "temper2_temp"})
