"""Points named alike but for their numbers (feed pumps 1 and 2): a command that says none of
the numbers does not say which is meant. The model, handed such a command, tends to take number
1; its read is refused by the model check, and its write by the model check and, whatever
proposed it, by the write gate."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import Analysis
from hermesd.router.write_gate import gated
from tests.support.plants import NoWorker, modbus_plant


def _number(name: str, address: int, **more: Any) -> dict[str, Any]:
    return {"name": name, "table": "holding", "address": address, "type": "float32",
            **more}


CONFIG = modbus_plant({
        "fp1_speed": _number("Feed pump 1 speed", 0, unit="rpm"),
        "fp2_speed": _number("Feed pump 2 speed", 2, unit="rpm"),
        "fp1_speed_sp": _number("Feed pump 1 speed setpoint", 4, unit="rpm", writable=True,
                                min=0, max=3000, names={"zh": "1号给水泵转速设定"}),
        "fp2_speed_sp": _number("Feed pump 2 speed setpoint", 6, unit="rpm", writable=True,
                                min=0, max=3000),
        "kiln1_temp": _number("Kiln 1 temperature", 8, unit="°C"),
})
ROUTER = Router(CONFIG)


class Proposing:
    """Stands in for the model: proposes `action` for every command it is handed."""

    def __init__(self, action: Action) -> None:
        self.action = action

    async def __call__(self, ctx: RequestContext, text: str, a: Analysis) -> Routed:
        return Routed(self.action, "llm")


def _checked(text: str, action: Action) -> Action:
    """What the model stage's check makes of the model answering `action`."""
    a = ROUTER.rules.analyse(text)
    judged = ROUTER.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    return ModelStage(CONFIG, NoWorker()).check(a, action)


def _routed(text: str, proposal: Action) -> Action:
    router = Router(CONFIG)
    router.model = Proposing(proposal)
    return asyncio.run(router.route(RequestContext.make("control", "operator"), text)).action


@pytest.mark.parametrize(("text", "action"), [
    ("set the feed pump speed to 1300", Action("write", {"point": "fp1_speed_sp", "value": 1300})),
    ("feed pump to 1 rpm", Action("write", {"point": "fp1_speed_sp", "value": 1})),
    ("what's the feed pump speed", Action("read", {"point": "fp1_speed"})),
    ("给水泵转速多少", Action("read", {"point": "fp2_speed"})),
])
def test_the_model_taking_one_of_several_is_refused(text: str, action: Action) -> None:
    assert _checked(text, action).name == "respond"


@pytest.mark.parametrize(("text", "action"), [
    ("set feed pump 1 speed to 1300", Action("write", {"point": "fp1_speed_sp", "value": 1300})),
    ("second feed pump to 1 rpm", Action("write", {"point": "fp2_speed_sp", "value": 1})),
    ("把1号给水泵转速设为1300", Action("write", {"point": "fp1_speed_sp", "value": 1300})),
    ("feed pump two speed", Action("read", {"point": "fp2_speed"})),
    ("what's the kiln temperature", Action("read", {"point": "kiln1_temp"})),  # the one kiln
])
def test_a_number_said_is_enough(text: str, action: Action) -> None:
    assert _checked(text, action) == action


def test_the_gate_asks_which_one_whatever_proposed_the_write() -> None:
    text = "set the feed pump speed to 1300"
    action = _routed(text, Action("write", {"point": "fp2_speed_sp", "value": 1300}))
    assert action.name == "respond" and action.args["value_problem"] == "which"
    assert action.args["unreadable"] and all(w in text for w in action.args["unreadable"])
    assert "which one" in action.args["text"]
    point = CONFIG.points["fp1_speed_sp"]
    assert gated("set feed pump 1 speed to 1300", point, 1300, ROUTER.rules.profiles) is None
    asked = gated("给水泵转速设为1300", point, 1300, ROUTER.rules.profiles)
    assert asked is not None and asked.args["value_problem"] == "which"
    assert "不止一个" in asked.args["text"]
