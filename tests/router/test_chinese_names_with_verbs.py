"""加 is "add" (an increase, which the write gate refuses), but 加酸泵, 加碱泵 and 加氯机 are
the machines that add acid, lye and chlorine: their names, no increase asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.context import RequestContext
from hermesd.router import Router

CONFIG = validate({
    "node": {"id": "n"},
    "access": {"roles": {"viewer": {"read": True}, "operator": {"read": True, "write": True}}},
    "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "points": {
        "acid_pump": {"name": "Acid dosing pump", "table": "coil", "address": 0,
                      "writable": True},
        "acid_rate": {"name": "Acid dosing rate", "unit": "L/h", "table": "holding",
                      "address": 0, "type": "float32", "writable": True, "min": 0, "max": 20},
    }}}}, Path("/etc/hermesd/hermesd.yaml"))
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    routed = await ROUTER.route(RequestContext.make("control", "operator"), text)
    return routed.action.to_dict()


@pytest.mark.parametrize("text", ["打开加酸泵", "加酸泵启动"])
async def test_the_machine_that_adds_is_named(text: str) -> None:
    assert await _route(text) == {"name": "write", "args": {"point": "acid_pump", "value": True}}


@pytest.mark.parametrize("text", ["加酸流量加到5", "把加酸流量加一点"])
async def test_an_increase_is_still_refused(text: str) -> None:
    assert (await _route(text))["name"] != "write"
