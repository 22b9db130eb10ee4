"""A command to write a point no one may write (a counter, a total, a measurement) is refused
by the router itself, naming the write it refused: nothing is done, and the engine answers
NOT_WRITABLE as policy does for the write (tests/test_engine.py)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

PLANT = Router(exec_plant("bottling", {
    "bottle_count": {"name": "Packed bottle count", "type": "int"},
    "zone2_temp": {"name": "Zone 2 temperature", "unit": "°C"},
    "line_speed_sp": {"name": "Line speed setpoint", "unit": "bpm", "writable": True,
                      "min": 0, "max": 600},
    "filler": {"name": "Filler run", "type": "bool", "writable": True},
    "filler_running": {"name": "Filler running", "type": "bool"},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("zero the bottle count", "bottle_count", 0),
    ("set the packed bottle count to 0", "bottle_count", 0),
    ("set zone 2 temperature to 21", "zone2_temp", 21),
])
async def test_a_write_of_a_read_only_point_is_refused_by_name(text: str, point: str,
                                                               value: Any) -> None:
    action = await routed_without_model(PLANT, text)
    assert action.to_dict() == {"name": "respond", "args": {
        "reason": "not_allowed", "refused": {"name": "write",
                                             "args": {"point": point, "value": value}}}}


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set line speed to 400", "line_speed_sp", 400),
    ("start the filler", "filler", True),
])
async def test_writes_of_writable_points_are_still_writes(text: str, point: str,
                                                          value: Any) -> None:
    action = await routed_without_model(PLANT, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}
