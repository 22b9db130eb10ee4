"""What blind batch 23 (tests/data/plants: spinning_mill, rail_depot, sulfuric_acid) found
wrong: each test says what a person on that plant would expect. Batch 23 scored 134/150 with
the model before anything was changed for it, 4 confidently wrong (1 by the rules)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import config_of, own_plant, routed_without_model

ROUTERS = {name: Router(config_of(own_plant(name)))
           for name in ("spinning_mill", "rail_depot", "sulfuric_acid")}


async def _routed(plant: str, text: str) -> tuple[str, Any]:
    action = await routed_without_model(ROUTERS[plant], text)
    return action.name, (action.args.get("point"), action.args.get("value"))


@pytest.mark.parametrize("text", ["kick off the auto doff on ring frame 1",
                                  "kicks off the auto doff on ring frame 1 please"])
async def test_kick_off_says_no_value(text: str) -> None:
    """ "kick off" is begun (a meeting) or switched off (a pump that kicks off): its "off" had
    switched the doffer off, asked to start it. Neither is written."""
    name, _ = await _routed("spinning_mill", text)
    assert name != "write"
    router = ROUTERS["spinning_mill"]
    for value in (True, False):  # nor when a model proposes either: the gate asks
        assert gated(text, router.rules.points["rf1_auto_doff"], value,
                     router.rules.profiles) is not None


@pytest.mark.parametrize(("text", "value"), [
    ("start the auto doff on ring frame 1", True), ("stop the auto doff on ring frame 1", False),
])
async def test_start_and_stop_still_say_it(text: str, value: bool) -> None:
    assert await _routed("spinning_mill", text) == ("write", ("rf1_auto_doff", value))
