"""Words that make a write without a verb ("lift pump mode manual") a question or a report: a tag
asking to confirm, a question mark of another script or emoji set, a subject that did or
wants it, a Chinese 过 (done once). Whichever stage proposes the write — the rules themselves,
or a model that proposes it for every command — nothing is written; the plain commands beside
them still are.

The plant is a sewage lift station written for these tests (a mode map, a valve command, a
pressure setpoint), not one the router was tuned on.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config.loader import validate
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.rules import Analysis

STATION = validate({
    "node": {"id": "lift"},
    "access": {"roles": {"viewer": {"read": True},
                        "operator": {"read": True, "write": True}}},
    "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "points": {
        "lift_pump_mode": {"name": "Lift pump mode", "table": "holding", "address": 0,
                           "writable": True, "map": {0: "off", 1: "manual", 2: "auto"}},
        "inlet_valve_cmd": {"name": "Inlet valve command", "table": "holding", "address": 1,
                            "writable": True, "map": {0: "close", 1: "open"}},
        "outlet_pressure_sp": {"name": "Outlet pressure setpoint", "table": "holding",
                               "address": 2, "type": "float32", "unit": "bar",
                               "writable": True, "min": 0, "max": 10},
        "wet_well_level": {"name": "Wet well level", "table": "input", "address": 3,
                           "type": "float32", "unit": "m"},
    }}}}, Path("/etc/hermesd/hermesd.yaml"))


class Proposes:
    """The model, proposing `proposal` for every command it is handed (None: no model)."""

    def __init__(self, proposal: Action) -> None:
        self.proposal = proposal

    async def __call__(self, ctx: RequestContext, text: str, analysis: Analysis) -> Routed:
        return Routed(self.proposal, "llm")


def route(text: str, proposal: Action | None) -> Action:
    router = Router(STATION)
    if proposal is not None:
        router.model = Proposes(proposal)
    return asyncio.run(router.route(RequestContext.make("control", "operator"), text)).action


ASKED_BACK = [
    # a tag that asks to confirm what was said (a voice transcript drops the "?")
    ("lift pump mode manual right", "lift_pump_mode", "manual"),
    ("lift pump mode manual, right", "lift_pump_mode", "manual"),
    ("set lift pump mode to manual right", "lift_pump_mode", "manual"),
    ("lift pump mode manual true", "lift_pump_mode", "manual"),
    ("outlet pressure setpoint 4 bar right", "outlet_pressure_sp", 4),
    # question marks of emoji sets and other scripts
    ("lift pump mode manual❓", "lift_pump_mode", "manual"),
    ("lift pump mode manual ❔", "lift_pump_mode", "manual"),
    ("set lift pump mode to manual❓", "lift_pump_mode", "manual"),
    ("inlet valve command open ՞", "inlet_valve_cmd", "open"),
    # who did it, or who wants it: a report or a question, not a request
    ("we set lift pump mode manual", "lift_pump_mode", "manual"),
    ("we set the outlet pressure setpoint to 4 bar", "outlet_pressure_sp", 4),
    ("you set the lift pump mode to manual", "lift_pump_mode", "manual"),
    ("you want lift pump mode manual", "lift_pump_mode", "manual"),
    # 过: it has been done once
    ("泵模式切换到手动过", "lift_pump_mode", "manual"),
    ("进水阀命令打开过", "inlet_valve_cmd", "open"),
]


@pytest.mark.parametrize(("text", "point", "value"), ASKED_BACK,
                         ids=[t for t, _, _ in ASKED_BACK])
@pytest.mark.parametrize("model", [False, True], ids=["rules", "model"])
def test_a_statement_asked_back_writes_nothing(text: str, point: str, value: Any,
                                               model: bool) -> None:
    proposal = Action("write", {"point": point, "value": value}) if model else None
    action = route(text, proposal)
    assert action.name != "write", (text, action)


PLAIN = [
    ("lift pump mode manual", "lift_pump_mode", "manual"),
    ("set lift pump mode to manual right now", "lift_pump_mode", "manual"),
    ("right, lift pump mode auto", "lift_pump_mode", "auto"),
    ("can you set lift pump mode to manual", "lift_pump_mode", "manual"),
    ("I need you to set lift pump mode to auto", "lift_pump_mode", "auto"),
    ("泵模式切换到手动", "lift_pump_mode", "manual"),
    ("set the outlet pressure setpoint to 4 bar", "outlet_pressure_sp", 4),
]


@pytest.mark.parametrize(("text", "point", "value"), PLAIN, ids=[t for t, _, _ in PLAIN])
def test_the_plain_commands_beside_them_still_write(text: str, point: str, value: Any) -> None:
    proposal = Action("write", {"point": point, "value": value})
    assert route(text, proposal).to_dict() == proposal.to_dict(), text


def test_a_choice_with_an_emoji_question_mark_is_read() -> None:
    # asked with a mark of an emoji set, as with "?": the setting is read, not written
    assert route("lift pump mode manual❓", None) == \
        Action("read", {"point": "lift_pump_mode"})
