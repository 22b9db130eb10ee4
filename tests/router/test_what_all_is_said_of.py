""""All", "every" and "both" are said of something: a read of several is of the points that
something names. A word after them that none of the points explains ("every OR" where no point
is an OR) makes no read of every point of the quantity: which ones are meant is not known."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import modbus_plant, routed


def _temp(name: str, address: int) -> dict[str, Any]:
    return {"name": name, "table": "input", "address": address, "type": "float32",
            "unit": "°C"}


CONFIG = modbus_plant({
        "zone1_temp": _temp("Zone 1 temperature", 0),
        "zone2_temp": _temp("Zone 2 temperature", 2),
        "chw_temp": _temp("Chilled water supply temperature", 4),
        "time_to_reversal": {"name": "Time to next reversal", "unit": "min", "table": "input",
                             "address": 6, "type": "uint16",
                             "description": "Minutes until the firing swaps ports"},
        "reversal_request": {"name": "Manual reversal", "table": "coil", "address": 0,
                             "description": "Swaps the firing to the other port now"},
})
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "viewer")


@pytest.mark.parametrize(("text", "points"), [
    ("temps in all zones", ["zone1_temp", "zone2_temp"]),
    ("temperature of both zones", ["zone1_temp", "zone2_temp"]),
    ("all the temperatures", ["zone1_temp", "zone2_temp", "chw_temp"]),
])
async def test_all_of_what_the_points_are(text: str, points: list[str]) -> None:
    assert await _route(text) == {"name": "read", "args": {"points": points}}


@pytest.mark.parametrize("text", ["temps in every OR", "temperatures of all the kilns",
                                  "temperature in both ovens"])
async def test_all_of_what_no_point_is_reads_nothing(text: str) -> None:
    action = await _route(text)
    assert action["name"] == "respond", (text, action)


async def test_a_plural_only_a_description_shares_is_no_read_of_several() -> None:
    # "fires": the firing of the descriptions, no thing the points are
    action = await _route("reverse the fires now")
    assert not (action["name"] == "read" and "points" in action["args"]), action


async def test_both_is_two() -> None:
    three = Router(modbus_plant({f"zone{n}_temp": _temp(f"Zone {n} temperature", 2 * n)
                                 for n in (1, 2, 3)}))
    action = await routed(three, "temperature of both zones", "viewer")
    assert not (action["name"] == "read" and len(action["args"].get("points", [])) == 3), action
