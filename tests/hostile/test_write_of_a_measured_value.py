"""A word for the measured value ("feedback", "actual", "PV", 反馈) names the measurement, not the
setpoint beside it: "separator speed feedback 90" is no write of 90 to "Separator speed" when
the plant has a read-only "Separator speed feedback". Such words name no point by themselves
(the lexicon's role.measured), so the rules and the gate's word check passed over them; the gate
now holds them against a write to a point whose own names do not say them. Whichever stage
proposes the write — the rules, or a model that proposes it for every command.

The plant is a grinding plant generated here: setpoints named without "setpoint" next to their
measured values, as many PLCs name them.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.rules import Analysis
from tests.support.daemon import fake_device
from tests.support.plants import config_of


def _setting(name: str, unit: str, hi: float) -> dict[str, Any]:
    return {"name": name, "type": "float", "unit": unit, "writable": True, "min": 0, "max": hi}


def _measured(name: str, unit: str) -> dict[str, Any]:
    return {"name": name, "type": "float", "unit": unit}


GRINDING = config_of({"node": {"id": "grinding"}, "devices": {"plc": fake_device({
    "separator_speed_sp": _setting("Separator speed", "rpm", 150),
    "separator_speed": _measured("Separator speed feedback", "rpm"),
    "water_spray_sp": _setting("Water spray rate", "m³/h", 10),
    "water_spray": _measured("Water spray rate actual", "m³/h"),
    "damper_sp": _setting("Fan damper position", "%", 100),
    "damper_pv": _measured("Fan damper position PV", "%"),
})}})


class Proposes:
    def __init__(self, proposal: Action) -> None:
        self.proposal = proposal

    async def __call__(self, ctx: RequestContext, text: str, analysis: Analysis) -> Routed:
        return Routed(self.proposal, "llm")


def route(text: str, proposal: Action | None = None) -> Action:
    router = Router(GRINDING)
    if proposal is not None:
        router.model = Proposes(proposal)
    return asyncio.run(router.route(RequestContext.make("control", "engineer"), text)).action


@pytest.mark.parametrize(("text", "setpoint", "value"), [
    ("separator speed feedback 90", "separator_speed_sp", 90),
    ("separator speed 90 rpm feedback", "separator_speed_sp", 90),
    ("set separator speed feedback to 90", "separator_speed_sp", 90),
    ("water spray rate actual 5", "water_spray_sp", 5),
    ("set the actual water spray rate to 5", "water_spray_sp", 5),
    ("fan damper position pv 40", "damper_sp", 40),
    ("把分离器转速反馈设为90", "separator_speed_sp", 90),
])
def test_a_measured_values_word_is_no_write_to_the_setpoint(text: str, setpoint: str,
                                                           value: Any) -> None:
    assert route(text).name != "write", route(text)
    proposed = Action("write", {"point": setpoint, "value": value})
    assert route(text, proposed).name != "write", route(text, proposed)


@pytest.mark.parametrize(("text", "setpoint", "value"), [
    ("set separator speed to 90", "separator_speed_sp", 90),
    ("separator speed 90", "separator_speed_sp", 90),
    ("water spray rate 5", "water_spray_sp", 5),
    ("把分离器转速设为90", "separator_speed_sp", 90),
])
def test_the_setpoint_named_plainly_is_still_written(text: str, setpoint: str,
                                                     value: Any) -> None:
    assert route(text) == Action("write", {"point": setpoint, "value": value})
