"""A setpoint named by a narrower quantity than the one said (a dew point, in °C, is no
temperature of the room) never stands in for the measurement said, in the rules nor in the
model's answer (review atk55c); a setpoint of no quantity of its own still does."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

CONFIG = exec_plant("booth", {
    "booth_temp": {"name": "Spray booth temperature", "names": {"zh": "喷漆房温度"},
                   "unit": "°C"},
    "booth_dewpoint": {"name": "Spray booth dew point", "unit": "°C"},
    "booth_dewpoint_sp": {"name": "Spray booth dew point setpoint", "unit": "°C",
                          "writable": True, "min": -10, "max": 15},
    "oven_temp": {"name": "Curing oven temperature", "unit": "°C"},
    "oven_sp": {"name": "Curing oven setpoint", "unit": "°C", "writable": True,
                "min": 20, "max": 200},
})
BOOTH = Router(CONFIG)


@pytest.mark.parametrize("text", [
    "set the spray booth temperature to 12",
    "spray booth temperature 12",
    "喷漆房温度设为12",
    "把喷漆房温度设定到12",
    "喷漆房温度12",
])
async def test_a_temperature_said_writes_no_dew_point(text: str) -> None:
    action = await routed_without_model(BOOTH, text)
    assert action.point != "booth_dewpoint_sp", (text, action)
    # nor is the model's answer of it taken
    checked = model_checked(BOOTH, CONFIG, text, Action(
        "write", {"point": "booth_dewpoint_sp", "value": 12}))
    assert checked.name == "respond", (text, checked)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the spray booth dew point to 8", "booth_dewpoint_sp", 8),
    # a setpoint that names no quantity stands in for its thing's measurement
    ("set the curing oven temperature to 180", "oven_sp", 180),
])
async def test_the_quantity_said_is_written(text: str, point: str, value: float) -> None:
    action = await routed_without_model(BOOTH, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}
    checked = model_checked(BOOTH, CONFIG, text, action)
    assert checked == action
