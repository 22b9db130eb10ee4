"""A gas plant counts in thousands and millions of cubic feet: "MMSCFD" is a flow, "MCF" a
volume. Said, the unit names the point it is of ("sales rate in mmscfd"); before, it was a word
nobody knew (blind batch 42's compressor station)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

ROUTER = Router(exec_devices("station", {"meter": {
    "sales_flow": {"name": "Sales meter flow", "unit": "MMSCFD"},
    "sales_volume": {"name": "Sales meter volume today", "unit": "MCF"},
    "sales_press": {"name": "Sales meter pressure", "unit": "psig"},
    "starts": {"name": "Compressor starts today", "type": "uint32"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("sales meter in mmscfd", "sales_flow"),
    ("sales meter volume in mcf", "sales_volume"),
    ("sales meter, psig", "sales_press"),
])
async def test_a_gas_unit_names_its_point(text: str, point: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("text", "point", "margin"), [
    ("how many mcf through the sales meter today", "sales_volume", 0.3),
    ("how many mcf today", "sales_volume", 0.3),
    ("how many starts today", "starts", 0.2),  # a count asked, of what it counts
])
def test_how_many_before_a_unit_asks_no_count(text: str, point: str, margin: float) -> None:
    # "how many mcf": the unit says what is asked, as "how many psi" does; "many" was taken
    # for a count where only the tokenizer's units were looked at, not the lexicon's, and
    # the starts counter came close
    judged = ROUTER.semantic.judge(ROUTER.rules.analyse(text))
    assert judged.fits[0].point == point, judged.fits[:3]
    assert judged.fits[0].score - judged.fits[1].score > margin, judged.fits[:3]
