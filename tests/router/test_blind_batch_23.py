"""What blind batch 23 (tests/data/plants: spinning_mill, rail_depot, sulfuric_acid) found
wrong: each test says what a person on that plant would expect. Batch 23 scored 134/150 with
the model before anything was changed for it, 4 confidently wrong (1 by the rules)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import config_of, exec_plant, own_plant, routed_without_model

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


KICKS = Router(exec_plant("brewhouse", {
    "mash_speed": {"name": "Mash pump speed", "unit": "rpm", "writable": True, "min": 0,
                   "max": 100},
    "mash_run": {"name": "Mash pump", "type": "bool", "writable": True},
    "kettle_sp": {"name": "Kettle temperature setpoint", "unit": "°C", "writable": True,
                  "min": 0, "max": 110},
    "cip": {"name": "CIP program", "type": "int", "writable": True,
            "map": {0: "rinse", 1: "caustic", 2: "off"}},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("kick off mash pump at 60", "mash_speed", 60), ("kick off the kettle at 100", "kettle_sp", 100),
    ("kick off CIP rinse", "cip", "rinse"), ("kick off cip program", "cip", "off"),
    ("kick off mash pump", "mash_run", False),
])
async def test_nothing_said_with_kick_off_is_written(text: str, point: str, value: Any) -> None:
    """atk30: the first version read "kick off" as a bare "switch", and wrote the number or
    choice said with it; the old words had refused them as two values."""
    action = await routed_without_model(KICKS, text)
    assert action.name != "write", action
    assert gated(text, KICKS.rules.points[point], value, KICKS.rules.profiles) is not None


async def test_kick_on_is_on() -> None:
    action = await routed_without_model(KICKS, "kick on mash pump")
    assert (action.name, action.args) == ("write", {"point": "mash_run", "value": True})


async def test_zero_with_its_unit_is_a_value() -> None:
    """ "0 Hz" is a value with its unit, no "zero frequency" reported (a hypothesis test found
    "set boiler 1 frequency 0 Hz" refused as a statement)."""
    plant = Router(exec_plant("boilers", {
        "b1f": {"name": "boiler 1 frequency", "unit": "Hz", "writable": True, "min": 0,
                "max": 60}}))
    action = await routed_without_model(plant, "set boiler 1 frequency 0 Hz")
    assert (action.name, action.args) == ("write", {"point": "b1f", "value": 0}), action
    action = await routed_without_model(plant, "boiler 1 zero frequency")
    assert action.name != "write", action
