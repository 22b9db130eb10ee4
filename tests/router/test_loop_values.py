"""A loop's setpoint is no answer to a question of its value.

"oil feed rate into R101", where FIC-103.PV is described "REFINED OIL FEED TO R-101" and
FIC-103.SP "OIL FEED FLOW SP": the setpoint's description holds more of the words, but nothing
asks a setting, and the loop's own value is there (blind batch 43). A German PLC's "Soll" and
"Ist" are a setpoint and a measured value ("M_SOLL" "Drehmoment Sollwert"), so "torque?" is no
question of the torque setpoint either."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked, routed_without_model

CONFIG = exec_devices("cell", {"dcs": {
    "fic_103_pv": {"name": "FIC-103.PV", "unit": "kg/h",
                   "description": "REFINED OIL FEED TO R-101"},
    "fic_103_sp": {"name": "FIC-103.SP", "unit": "kg/h", "writable": True, "min": 0,
                   "max": 5000, "description": "OIL FEED FLOW SP"},
    "pic_201_pv": {"name": "PIC-201.PV", "unit": "bar", "description": "Separator pressure"},
    "pic_201_sp": {"name": "PIC-201.SP", "unit": "bar", "writable": True, "min": 0, "max": 20,
                   "description": "Separator pressure SP"},
    "inv_pv": {"name": "INV-01.PV", "unit": "kW", "description": "Inverter 1 PV power"},
    "inv_sp": {"name": "INV-01.SP", "unit": "kW", "writable": True, "min": 0, "max": 500,
               "description": "Inverter 1 power limit"},
    "m_ist": {"name": "M_IST", "unit": "Nm", "description": "Drehmoment Messflansch"},
    "m_soll": {"name": "M_SOLL", "unit": "Nm", "writable": True, "min": -50, "max": 800,
               "description": "Drehmoment Sollwert"},
}})
ROUTER = Router(CONFIG)


async def test_a_loops_value_question_is_not_placed_on_its_setpoint() -> None:
    action = await routed_without_model(ROUTER, "oil feed rate into R101")
    assert action.args.get("point") != "fic_103_sp", action


@pytest.mark.parametrize("text", ["oil feed setpoint", "what is FIC-103 SP"])
async def test_a_setting_asked_is_still_the_setpoint(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name != "read" or action.args.get("point") == "fic_103_sp", (text, action)
    checked = model_checked(ROUTER, CONFIG, text, Action("read", {"point": "fic_103_sp"}))
    assert checked == Action("read", {"point": "fic_103_sp"})


@pytest.mark.parametrize(("text", "point"), [
    ("what is the separator pressure setting", "pic_201_sp"),  # a setting worded otherwise
    ("inverter 1 power limit", "inv_sp"),  # "PV" of an inverter is its panels' power, no loop
])
async def test_a_setting_worded_or_no_loop_reads_the_setpoint(text: str, point: str) -> None:
    # (review atk48: both were read right before the loop rule, and must stay so)
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("text", "point", "passes"), [
    ("torque?", "m_soll", False),
    ("what's the torque", "m_soll", False),
    ("torque?", "m_ist", True),
    ("torque setpoint?", "m_soll", True),
])
def test_soll_is_a_setpoint_and_ist_a_value(text: str, point: str, passes: bool) -> None:
    action = Action("read", {"point": point})
    assert (model_checked(ROUTER, CONFIG, text, action) == action) is passes, (text, point)
