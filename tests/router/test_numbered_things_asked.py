"""A thing asked of by its number is one of the numbered ones, not a point that only mentions it.

"malaxer 4 temp", on a mill of three malaxers, was read by the model as the hot water "from
the boiler to the malaxer jackets" (blind batch 44): the description says "malaxer", and the
number said was checked only against points that have numbers. A read whose words number a
thing the plant numbers on other points is refused when the point the model picked has no
number at all."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_read_checked

# (a thing the lexicon does not know, named in the descriptions only)
CONFIG = exec_devices("mill", {"plc": {
    "m1_temp": {"name": "Temp. batidora 1", "unit": "°C",
                "description": "Paste temperature in malaxer 1"},
    "m2_temp": {"name": "Temp. batidora 2", "unit": "°C",
                "description": "Paste temperature in malaxer 2"},
    "hw_temp": {"name": "Temp. agua caliente", "unit": "°C",
                "description": "Hot water from the boiler to the malaxer jackets"},
    "mill_amps": {"name": "Intensidad molino", "unit": "A"},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize("text", ["malaxer 4 temp", "what's the temperature in malaxer 3"])
def test_a_numbered_thing_is_not_read_from_a_point_of_no_number(text: str) -> None:
    checked = model_read_checked(ROUTER, CONFIG, text, "hw_temp")
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    assert "malaxer" in checked.args["asked"], checked


@pytest.mark.parametrize(("text", "point"), [
    ("malaxer 2 temp", "m2_temp"),  # the numbered one itself
    ("hot water temperature to the malaxers", "hw_temp"),  # no number said
])
def test_reads_of_the_thing_meant_pass(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point) == Action("read", {"point": point})
