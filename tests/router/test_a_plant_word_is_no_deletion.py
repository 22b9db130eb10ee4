""""Purge" deletes records, but on a plant it also names a mode of an air handler and a valve
that flushes a line: a word the plant names a point or a choice with is that point's, and a
request to delete anything else is still refused."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import modbus_plant, routed

HALL_TEMP = {"name": "Hall air temperature", "table": "input", "address": 1, "unit": "°C",
             "type": "float32"}
CONFIG = modbus_plant({
    "ahu_mode": {"name": "AHU mode", "table": "holding", "address": 0, "writable": True,
                 "map": {0: "stopped", 1: "occupied", 2: "purge"}},
    "n2_purge_valve": {"name": "Nitrogen purge valve", "table": "coil", "address": 0,
                       "writable": True},
    "hall_temp": HALL_TEMP,
})
PLAIN = modbus_plant({"hall_temp": HALL_TEMP})


async def _route(config: Any, text: str) -> dict[str, Any]:
    return await routed(Router(config), text)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("AHU to purge", "ahu_mode", "purge"),
    ("set the AHU mode to purge", "ahu_mode", "purge"),
    ("open the nitrogen purge valve", "n2_purge_valve", True),
])
async def test_a_purge_the_plant_names_is_written(text: str, point: str, value: Any) -> None:
    assert await _route(CONFIG, text) == {"name": "write",
                                          "args": {"point": point, "value": value}}


@pytest.mark.parametrize("text", ["purge the audit log", "delete the purge valve history",
                                  "erase the AHU mode log"])
async def test_a_deletion_of_anything_else_is_refused(text: str) -> None:
    action = await _route(CONFIG, text)
    assert action["name"] == "respond", (text, action)


async def test_where_the_plant_has_no_purge_it_is_a_deletion() -> None:
    assert await _route(PLAIN, "purge the hall history") == {
        "name": "respond", "args": {"reason": "not_allowed"}}
