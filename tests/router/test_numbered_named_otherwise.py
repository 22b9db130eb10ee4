"""Points of several numbered things named in different styles ("GKB1 bed temp SP" beside
"Germ box 2 bed temperature setpoint", as tag lists grow over the years): a write that says
no number is no one's guess between them, whichever name its words are closer to (review
atk64: "set the bed temperature to 15" wrote box 1's setpoint)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, routed_without_model

CONFIG = exec_plant("boxes", {
    "b1_sp": {"name": "GKB1 bed temp SP", "unit": "°C", "writable": True, "min": 5, "max": 30},
    "b2_sp": {"name": "Germ box 2 bed temperature setpoint", "unit": "°C", "writable": True,
              "min": 5, "max": 30},
    "b1_t": {"name": "GKB1 bed temp", "unit": "°C"},
    "b2_t": {"name": "GKB2 bed temp", "unit": "°C"},
    "fv1_sp": {"name": "FV1 temp SP", "unit": "°C", "writable": True, "min": 0, "max": 25},
    "fv2_sp": {"name": "Fermenter 2 temperature setpoint", "unit": "°C", "writable": True,
               "min": 0, "max": 25},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "point"), [
    ("set the bed temperature to 15", "b2_sp"),
    ("set the bed temperature setpoint to 15", "b2_sp"),
    ("set the fermentation temp setpoint to 12", "fv2_sp"),
])
async def test_no_number_said_is_asked_which(text: str, point: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action
    value = 15 if point == "b2_sp" else 12
    doubt = gated(text, CONFIG.points[point], value, ROUTER.rules.profiles)
    assert doubt is not None and doubt.args["value_problem"] == "which", doubt


@pytest.mark.parametrize(("text", "want"), [
    ("set the germ box 2 bed temperature to 15", Action("write", {"point": "b2_sp", "value": 15})),
    ("set GKB1 bed temp to 15", Action("write", {"point": "b1_sp", "value": 15})),
    ("set fermenter 2 temperature to 12", Action("write", {"point": "fv2_sp", "value": 12})),
    ("FV1 temp SP 12", Action("write", {"point": "fv1_sp", "value": 12})),
])
async def test_the_number_said_places_it(text: str, want: Action) -> None:
    assert await routed_without_model(ROUTER, text) == want
