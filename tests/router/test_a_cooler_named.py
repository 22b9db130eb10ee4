"""A "cooler" with more said after it is a machine, no change asked: "aerial cooler gas outlet
temp" reads the cooler's outlet temperature (blind batch 42), where before the comparative
"cooler" made it a write nobody could place; "make it cooler" still asks a change."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

ROUTER = Router(exec_devices("station", {"plc": {
    "ac1_out": {"name": "AC1_Gas_Out_Temp", "unit": "°C",
                "description": "Aerial cooler AC-1 gas outlet temperature"},
    "ac1_sp": {"name": "AC1_Gas_Out_Temp_SP", "unit": "°C", "writable": True, "min": 20,
               "max": 60, "description": "AC-1 louver/fan control setpoint for gas outlet temp"},
}}))


@pytest.mark.parametrize("text", ["aerial cooler gas outlet temp",
                                  "what's the aerial cooler gas outlet temperature"])
async def test_a_cooler_named_is_read(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": "ac1_out"}), text


@pytest.mark.parametrize("text", ["make the gas outlet a bit cooler",
                                  "gas outlet a little cooler please",
                                  "gas outlet slightly cooler now"])
async def test_a_cooler_asked_for_is_still_a_change(text: str) -> None:
    # (review atk48: "a little cooler please" was read as the machine, and so as a read)
    action = await routed_without_model(ROUTER, text)
    assert action.name != "read", (text, action)
    assert ROUTER.rules.analyse(text).wants_write, text  # what the model is offered: writes
