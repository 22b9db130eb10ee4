"""When the model says none of the candidates is meant ("respond out_of_scope") to a question,
the one candidate that explains all the command names, alone of them, is read: the 0.5B model
declines paraphrases whose point the words name by themselves. Its refusal stands for any
write, where two candidates explain the words, where the check refuses the one, and where a
word said names another point of the plant and not it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import Analysis
from tests.support.plants import NoWorker, config_of, own_plant


def _handed_on(plant: str, text: str) -> tuple[ModelStage, Analysis]:
    """The stage and the analysis the model gets, as the router hands them on."""
    config = config_of(own_plant(plant))
    router = Router(config)
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    assert router.rules.place(a) is None and judged.placement is None, text
    return ModelStage(config, NoWorker(), rules=router.rules), replace(
        a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)


def _after_a_refusal(plant: str, text: str) -> Action | None:
    stage, a = _handed_on(plant, text)
    return stage._the_one_meant(a, stage.offer(a))


@pytest.mark.parametrize(("plant", "text", "expected"), [
    ("quarry", "how high is the stockpile", Action("read", {"point": "stockpile_level"})),
])
def test_the_one_candidate_the_words_name_is_taken(plant: str, text: str,
                                                   expected: Action) -> None:
    assert _after_a_refusal(plant, text) == expected


@pytest.mark.parametrize(("plant", "text"), [
    # the clearcoat booth has no RH setpoint; the basecoat booth's explains all but "clearcoat"
    ("paint_shop", "set the clearcoat booth RH setpoint to 65"),
    # a write is the model's alone, whatever one candidate explains (review atk45: "set the
    # oven to 250 F" of a setpoint in °C)
    ("resin_plant", "set reactor 1 to 280 degrees"),
    ("coffee_roastery", "switch the green feed over to silo two"),
    # a metering roll and a plenum temperature setpoint explain it, and the moisture
    # setpoint (which "target … out of the dryer" names since blind batch 72)
    ("grain_elevator", "fifteen and a half percent out of the dryer"),
])
def test_the_refusal_stands_where_the_words_do_not_name_one(plant: str, text: str) -> None:
    assert _after_a_refusal(plant, text) is None
