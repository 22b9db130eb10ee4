""""What's kiln 2 set to" asks the one setting of kiln 2, however many measurements kiln 2 has;
where it has two settings, the words do not say which."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import modbus_plant, routed


def _number(name: str, address: int, unit: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "table": "holding", "address": address, "type": "float32",
            "unit": unit, **more}


CONFIG = modbus_plant({
        "kiln2_temp": _number("Kiln 2 temperature", 0, "°C"),
        "kiln2_temp_sp": _number("Kiln 2 temperature setpoint", 2, "°C", writable=True,
                                 min=0, max=1200),
        "kiln2_speed": _number("Kiln 2 speed", 4, "rpm"),
        "kiln2_draft": _number("Kiln 2 draft", 6, "Pa"),
        "dryer_temp": _number("Dryer temperature", 8, "°C"),
        "dryer_temp_sp": _number("Dryer temperature setpoint", 10, "°C", writable=True,
                                 min=0, max=300),
        "dryer_speed_sp": _number("Dryer belt speed setpoint", 12, "m/min", writable=True,
                                  min=0, max=20),
})
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "viewer")


@pytest.mark.parametrize("text", ["what's kiln 2 set to", "what is kiln two set at?"])
async def test_the_one_setting_is_read(text: str) -> None:
    assert await _route(text) == {"name": "read", "args": {"point": "kiln2_temp_sp"}}


async def test_of_two_settings_neither_is_guessed() -> None:
    action = await _route("what's the dryer set to")
    assert action["name"] != "read", action


SHEET = modbus_plant({
        "ice_temp": {**_number("Ice surface temperature", 0, "°C"),
                     "aliases": ["sheet temperature"]},
        "ice_temp_sp": _number("Ice surface temperature setpoint", 2, "°C", writable=True,
                               min=-9, max=-2),
})


async def test_a_write_to_a_reading_by_its_alias_is_never_the_reading() -> None:
    # "the sheet" is the reading's alias; its setpoint may be meant, never a write to it
    action = await routed(Router(SHEET), "set the sheet to -6.5")
    assert action["args"].get("point") != "ice_temp", action
