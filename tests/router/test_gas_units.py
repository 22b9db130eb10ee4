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
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("sales meter in mmscfd", "sales_flow"),
    ("sales meter volume in mcf", "sales_volume"),
    ("sales meter, psig", "sales_press"),
])
async def test_a_gas_unit_names_its_point(text: str, point: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": point}), text
