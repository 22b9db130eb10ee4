"""Lessons of blind batch 74 (a bakery, an asphalt plant, a canal lock), on plants written here:
- "X going?" asks whether X runs, as "is X going" does;
- a chat's "atm" or "rn" said last is "now", no unit of pressure;
- what is "left" in a bin or silo is its level, in tonnes as in per cent;
- a read that says no quantity, of a measure, where another measure explains every word said as
  well, is no sure read ("what's the water in the pond reading");
- a word of the plant's names said in a phrase of a thing the point is in another form
  ("hydraulic pump 1" of an "HPU pump 1") explains it, for the write gate too.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

WORKS = exec_plant("works74", {
    "pot_running": {"name": "Glue pot heater running", "type": "bool"},
    "pot_temp": {"name": "Glue pot heater temperature", "unit": "°C"},
    "kiln_draft": {"name": "Kiln draft pressure", "unit": "Pa"},
    "kiln_speed": {"name": "Kiln drive speed", "unit": "rpm"},
    "header_sp": {"name": "Air header pressure setpoint", "unit": "atm", "writable": True,
                  "min": 0, "max": 10},
    "sugar_bin": {"name": "Sugar bin level", "unit": "t"},
    "pond_level": {"name": "Cooling pond water level", "unit": "m"},
    "pond_temp": {"name": "Cooling pond water temperature", "unit": "°C"},
    "hpu_p1_run": {"name": "HPU pump 1 run command", "type": "bool", "writable": True},
    "hpu_p1_running": {"name": "HPU pump 1 running", "type": "bool"},
    "hpu_pressure": {"name": "Hydraulic power unit pressure", "unit": "bar"},
})
ROUTER = Router(WORKS)


def _read(point: str) -> Action:
    return Action("read", {"point": point})


@pytest.mark.parametrize("text", ["glue pot heater going?", "glue pot heater running?",
                                  "is the glue pot heater going"])
async def test_going_asked_is_whether_it_runs(text: str) -> None:
    assert await routed_without_model(ROUTER, text) == _read("pot_running")


async def test_the_heaters_temperature_is_still_read() -> None:
    assert await routed_without_model(ROUTER, "glue pot heater temp?") == _read("pot_temp")


@pytest.mark.parametrize("text", ["what's the kiln draft atm", "kiln draft rn",
                                  "what's the kiln draft atm please"])
async def test_atm_said_last_is_now(text: str) -> None:
    assert await routed_without_model(ROUTER, text) == _read("kiln_draft")


async def test_atm_after_a_value_is_its_unit() -> None:
    assert await routed_without_model(ROUTER, "set the air header pressure setpoint to 2 atm") \
        == Action("write", {"point": "header_sp", "value": 2})


@pytest.mark.parametrize("text", ["how many tonnes of sugar left in the bin",
                                  "how much sugar is left in the bin, roughly"])
def test_what_is_left_is_the_level(text: str) -> None:
    assert model_checked(ROUTER, WORKS, text, _read("sugar_bin")) == _read("sugar_bin")


@pytest.mark.parametrize("point", ["pond_temp", "pond_level"])
def test_no_quantity_said_of_two_measures_is_no_sure_read(point: str) -> None:
    got = model_checked(ROUTER, WORKS, "what's the water in the cooling pond reading", _read(point))
    assert got.name == "respond", got


@pytest.mark.parametrize(("text", "point"), [
    ("what's the cooling pond water level reading", "pond_level"),
    ("how warm is the water in the cooling pond", "pond_temp"),
    ("what's the kiln doing speed-wise", "kiln_speed"),
])
def test_a_quantity_said_reads_its_measure(text: str, point: str) -> None:
    assert model_checked(ROUTER, WORKS, text, _read(point)) == _read(point)


@pytest.mark.parametrize(("text", "action"), [
    ("start hydraulic pump one", Action("write", {"point": "hpu_p1_run", "value": True})),
    ("stop the hydraulic pump 1", Action("write", {"point": "hpu_p1_run", "value": False})),
    ("is hydraulic pump 1 running", _read("hpu_p1_running")),
    ("hydraulic pressure", _read("hpu_pressure")),
])
async def test_a_things_phrase_of_its_abbreviation(text: str, action: Action) -> None:
    assert await routed_without_model(ROUTER, text) == action
