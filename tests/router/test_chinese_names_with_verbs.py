"""加 is "add" (an increase, which the write gate refuses), but 加酸泵, 加碱泵 and 加氯机 are
the machines that add acid, lye and chlorine: their names, no increase asked."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import modbus_plant, routed

CONFIG = modbus_plant({
        "acid_pump": {"name": "Acid dosing pump", "table": "coil", "address": 0,
                      "writable": True},
        "acid_rate": {"name": "Acid dosing rate", "unit": "L/h", "table": "holding",
                      "address": 0, "type": "float32", "writable": True, "min": 0, "max": 20},
})
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "operator")


@pytest.mark.parametrize("text", ["打开加酸泵", "加酸泵启动"])
async def test_the_machine_that_adds_is_named(text: str) -> None:
    assert await _route(text) == {"name": "write", "args": {"point": "acid_pump", "value": True}}


@pytest.mark.parametrize("text", ["加酸流量加到5", "把加酸流量加一点"])
async def test_an_increase_is_still_refused(text: str) -> None:
    assert (await _route(text))["name"] != "write"
