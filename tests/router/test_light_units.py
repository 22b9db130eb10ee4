"""A grower says a light level in micromoles ("dim rack 1 to 350 micromoles", "800 µmol"), the
short of µmol/m²/s: after a number it is the unit of a PPFD setpoint, not a word no point
explains (blind batch 40's vertical farm)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, exec_plant, model_read_checked, routed_without_model

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


FARM = exec_plant("vf", {
    "z1_ppfd": {"name": "Zone 1 canopy PPFD", "unit": "µmol/m²/s"},
    "z1_dli": {"name": "Zone 1 daily light integral", "unit": "mol/m²/d"},
    "z1_temp": {"name": "Zone 1 air temperature", "unit": "°C"},
})
FARM_ROUTER = Router(FARM)


@pytest.mark.parametrize(("text", "wrong", "right"), [
    ("light intensity at canopy in zone one, in umol", "z1_dli", "z1_ppfd"),
    ("zone 1 PPFD?", "z1_dli", "z1_ppfd"),
    ("zone 1 DLI?", "z1_ppfd", "z1_dli"),
    ("1区日累计光照多少", "z1_ppfd", "z1_dli"),
])
def test_a_daily_light_integral_is_no_light_intensity(text: str, wrong: str,
                                                       right: str) -> None:
    """Blind batch 65: the model's read of a zone's daily light integral (mol/m²/d, light
    summed over a day) for its light intensity in µmol was taken; the lexicon had the two as
    one light level and their units as one unit."""
    assert model_read_checked(FARM_ROUTER, FARM, text, wrong).name == "respond"
    assert model_read_checked(FARM_ROUTER, FARM, text, right).to_dict() == {
        "name": "read", "args": {"point": right}}
