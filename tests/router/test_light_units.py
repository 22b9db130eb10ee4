"""A grower says a light level in micromoles ("dim rack 1 to 350 micromoles", "800 µmol"), the
short of µmol/m²/s: after a number it is the unit of a PPFD setpoint, not a word no point
explains (blind batch 40's vertical farm)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

ROUTER = Router(exec_devices("farm", {"lighting": {
    "rack1_ppfd": {"name": "Rack 1 PPFD", "unit": "µmol/m²/s"},
    "rack1_ppfd_sp": {"name": "Rack 1 PPFD setpoint", "unit": "µmol/m²/s", "writable": True,
                      "min": 0, "max": 900},
    "rack1_temp": {"name": "Rack 1 LED temperature", "unit": "°C"},
}}))


@pytest.mark.parametrize(("text", "value"), [
    ("dim rack 1 to 350 micromoles", 350), ("set rack 1 light intensity to 800 µmol", 800),
    ("rack 1 ppfd setpoint 600 umol", 600)])
async def test_micromoles_are_a_light_level(text: str, value: float) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("write", {"point": "rack1_ppfd_sp", "value": value})
