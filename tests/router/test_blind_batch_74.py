"""Lessons of blind batch 74 (a bakery, an asphalt plant, a canal lock), on plants written here:
- what is "left" in a bin or silo is its level, in tonnes as in per cent;
- a read that says no quantity, of a measure, where another measure explains every word said as
  well, is no sure read ("what's the water in the pond reading");
- a question may open after the thing is named ("kiln draft, whats it reading");
- of two hydraulic pumps 1, the one whose name shares a word with the command is not guessed;
- "hot oil heater going?" is no question of its temperature.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

WORKS = exec_plant("works74", {
    "kiln_draft": {"name": "Kiln draft pressure", "unit": "Pa"},
    "kiln_speed": {"name": "Kiln drive speed", "unit": "rpm"},
    "header_sp": {"name": "Air header pressure setpoint", "unit": "atm", "writable": True,
                  "min": 0, "max": 10},
    "sugar_bin": {"name": "Sugar bin level", "unit": "t"},
    "pond_level": {"name": "Cooling pond water level", "unit": "m"},
    "pond_temp": {"name": "Cooling pond water temperature", "unit": "°C"},
})
ROUTER = Router(WORKS)

HEATER = Router(exec_plant("heater74", {
    "hot_oil_temp": {"name": "Hot oil heater outlet temperature", "unit": "°C",
                    "type": "float32", "aliases": ["thermal oil temp"]},
    "hot_oil_running": {"name": "Hot oil heater running", "type": "bool"},
}))

HYDRAULICS = Router(exec_plant("hydraulics74", {
    "hpu1": {"name": "HPU pump 1", "type": "bool", "writable": True},
    "pack1": {"name": "Power pack pump 1", "type": "bool", "writable": True},
    "hpu_pressure": {"name": "Hydraulic power unit pressure", "unit": "bar"},
}))


def _read(point: str) -> Action:
    return Action("read", {"point": point})


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


@pytest.mark.parametrize("text", ["stop hydraulic power unit pump 1",
                                  "start hydraulic power pack 1", "start hydraulic pump one"])
async def test_one_of_two_hydraulic_pumps_is_not_guessed(text: str) -> None:
    """An "HPU pump 1" and a "Power pack pump 1" are both hydraulic pumps 1: the words said
    by one's name no more say it than the other's (review atk74: the power pack's was
    stopped)."""
    assert (await routed_without_model(HYDRAULICS, text)).name == "respond"


@pytest.mark.parametrize(("text", "point"), [("kiln draft, whats it reading", "kiln_draft"),
                                             ("air header, what's it set to", "header_sp")])
async def test_a_question_opened_after_the_thing_is_named(text: str, point: str) -> None:
    """(It was a write asked of the setting, with no value.)"""
    assert await routed_without_model(ROUTER, text) == _read(point)


@pytest.mark.parametrize("text", ["hot oil heater going?", "hot oil heater running?"])
async def test_whether_it_runs_is_no_temperature(text: str) -> None:
    """(Blind batch 74: the heater's hot oil temperature was read; its running status may
    be read, or the command asked back, never the measure.)"""
    action = await routed_without_model(HEATER, text)
    assert action.args.get("point") != "hot_oil_temp", action


async def test_a_measure_asked_while_it_runs_is_read() -> None:
    assert await routed_without_model(HEATER, "what temperature is the hot oil heater running at?") \
        == _read("hot_oil_temp")
