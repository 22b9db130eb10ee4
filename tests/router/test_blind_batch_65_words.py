"""Blind batch 65 (a glucose syrup refinery, an oil tank battery, a vertical farm), on plants
of my own: what the model may not read for a question whose words say another point.
- a number said on its own numbers what has it ("how much syrup is in 502", where "TK-502
  level" is a point): a point of no number is not that one;
- degrees Baumé are a density's unit ("what Baumé is the slurry running at" asks the density,
  not whether its feed pump runs);
- sales gas is gas exported (外输气量: the sales meter, not the flare's).
"""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, model_read_checked

CONFIG = exec_plant("b65", {
    "slurry_pump": {"name": "P-201 starch slurry pump", "type": "bool", "writable": True},
    "slurry_density": {"name": "DT-201 starch slurry density", "unit": "°Bé"},
    "syrup_out": {"name": "Syrup to storage", "unit": "t/h"},
    "tk601_level": {"name": "TK-601 level", "unit": "%",
                    "description": "Finished syrup tank 1"},
    "tk602_level": {"name": "TK-602 level", "unit": "%",
                    "description": "Finished syrup tank 2"},
    "flare": {"name": "Flare gas meter", "unit": "Mscf/d"},
    "sales": {"name": "Sales gas meter", "unit": "Mscf/d"},
    "o2": {"name": "Nitrogen generator O2 content", "unit": "%"},
    "n2_line": {"name": "Line 2 nitrogen flow", "unit": "Nm³/h"},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "wrong", "right"), [
    ("how much syrup is in 602", "syrup_out", None),
    ("how much syrup is in 602.", "syrup_out", None),
    ("糖浆在602有多少", "syrup_out", None),
    ("syrup in 602 is how much", "syrup_out", None),  # no count of things (review atk65f)
    ("how much syrup is in 602 this morning", "syrup_out", None),
    ("how much syrup is in 602 pls", "syrup_out", None),
    ("what Baumé is the slurry running at", "slurry_pump", "slurry_density"),
    ("slurry baume?", "slurry_pump", "slurry_density"),
    ("外输气量现在多少", "flare", "sales"),
])
def test_a_word_of_another_point_is_no_read_of_this_one(text: str, wrong: str,
                                                         right: str | None) -> None:
    refused = model_read_checked(ROUTER, CONFIG, text, wrong)
    assert refused.name == "respond", refused
    if right is not None:
        assert model_read_checked(ROUTER, CONFIG, text, right).to_dict() == {
            "name": "read", "args": {"point": right}}


@pytest.mark.parametrize(("text", "point"), [
    ("what's the O2 in the nitrogen", "o2"),  # a formula's figure numbers nothing
    ("syrup to storage at 2 o'clock?", "syrup_out"),
    ("2点的成品糖浆外送量", "syrup_out"),
])
def test_a_figure_that_numbers_nothing_is_no_other_point(text: str, point: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, point).to_dict() == {
        "name": "read", "args": {"point": point}}
