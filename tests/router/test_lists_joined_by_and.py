"""Several things asked in one breath, joined by commas and "and": "feed, permeate and
concentrate pressure on train 1" reads each, with what the list shares (the pressure, train 1);
"ammonia and CO2 in house 1" shares where. A write to such a list changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import modbus_plant, routed


def _input(name: str, address: int, unit: str) -> dict[str, Any]:
    return {"name": name, "table": "input", "address": address, "type": "float32",
            "unit": unit}


POINTS = {f"t{n}_{what}_p": _input(f"Train {n} {what} pressure", 10 * n + k, "bar")
          for n in (1, 2) for k, what in enumerate(("feed", "permeate", "concentrate"))}
POINTS |= {f"h{n}_{what}": _input(f"House {n} {label}", 40 + 2 * n + k, "ppm")
           for n in (1, 2) for k, (what, label) in enumerate((("nh3", "ammonia"),
                                                                ("co2", "CO2")))}
POINTS["t1_feed_sp"] = {**_input("Train 1 feed pressure setpoint", 60, "bar"),
                        "table": "holding", "writable": True, "min": 0, "max": 80}
CONFIG = modbus_plant(POINTS)
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "operator")


@pytest.mark.parametrize(("text", "points"), [
    ("feed, permeate and concentrate pressure on train 1",
     ["t1_feed_p", "t1_permeate_p", "t1_concentrate_p"]),
    ("feed and concentrate pressure on train 2", ["t2_feed_p", "t2_concentrate_p"]),
    ("ammonia and CO2 in house 1", ["h1_nh3", "h1_co2"]),
])
async def test_each_thing_listed_is_read(text: str, points: list[str]) -> None:
    assert await _route(text) == {"name": "read", "args": {"points": points}}


@pytest.mark.parametrize("text", ["set feed and permeate pressure on train 1 to 50",
                                  "ammonia and CO2 in house 3"])
async def test_no_write_to_a_list_and_no_thing_that_is_not_there(text: str) -> None:
    action = await _route(text)
    assert action["name"] != "write" and "points" not in action["args"], action
