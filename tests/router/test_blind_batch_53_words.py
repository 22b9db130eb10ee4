"""Blind batch 53 (a flour mill, a district heating substation, a paint shop; here on a plant
of my own): what several things are set to is their setpoints, never their readings."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

LINE = Router(exec_plant("line", {
    **{f"dryer{n}_temp": {"name": f"Dryer {n} temperature", "unit": "°C"} for n in (1, 2, 3)},
    **{f"dryer{n}_sp": {"name": f"Dryer {n} temperature setpoint", "unit": "°C",
                        "writable": True, "min": 20, "max": 220} for n in (1, 2, 3)},
    "cabin1_rh": {"name": "Cabin 1 humidity", "unit": "%RH"},
    "cabin2_rh": {"name": "Cabin 2 humidity", "unit": "%RH"},
    "cabin_rh_sp": {"name": "Cabin humidity setpoint", "unit": "%RH", "writable": True,
                    "min": 40, "max": 80},
}))


@pytest.mark.parametrize(("text", "points"), [
    ("what temperature are the dryers set to",
     ["dryer1_sp", "dryer2_sp", "dryer3_sp"]),
    ("what are the dryer temperatures", ["dryer1_temp", "dryer2_temp", "dryer3_temp"]),
    ("what are the cabin humidities", ["cabin1_rh", "cabin2_rh"]),
])
async def test_several_read(text: str, points: list[str]) -> None:
    action = await routed_without_model(LINE, text)
    assert action.to_dict() == {"name": "read", "args": {"points": points}}


async def test_the_one_setting_of_several_things() -> None:
    action = await routed_without_model(LINE, "what humidity are the cabins set for")
    assert action.to_dict() == {"name": "read", "args": {"point": "cabin_rh_sp"}}
