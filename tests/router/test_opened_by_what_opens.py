"""A thing is opened by what opens: "open dryer 2" beside a "Dryer 2 gate" does not switch the
dryer on, and "open provision store at 6" writes no 6 °C to the store's setpoint (atk29: both
had been written, whichever stage proposed them). A position is still opened to a number."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, routed_without_model

SHIP = Router(exec_plant("ship", {
    "store_door": {"name": "Provision store door", "type": "bool", "writable": True},
    "store_sp": {"name": "Provision store temperature setpoint", "unit": "°C",
                 "writable": True, "min": -25, "max": 10},
    "store_temp": {"name": "Provision store temperature", "unit": "°C"},
    "vent3": {"name": "Vent 3 position", "unit": "%", "writable": True, "min": 0, "max": 100},
    "gate2": {"name": "Sluice 2 opening", "unit": "mm", "writable": True, "min": 0, "max": 900},
    "dryer": {"name": "Dryer 2", "type": "bool", "writable": True},
    "dryer_gate": {"name": "Dryer 2 gate", "type": "bool", "writable": True},
    "jaw": {"name": "Jaw crusher closed side setting", "unit": "mm", "writable": True,
            "min": 50, "max": 300},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("open provision store at 6", "store_sp", 6), ("open the provision store at 6", "store_sp", 6),
    ("open dryer 2", "dryer", True), ("close dryer 2", "dryer", False),
])
async def test_what_opens_is_not_guessed(text: str, point: str, value: object) -> None:
    action = await routed_without_model(SHIP, text)
    assert action.name != "write", action
    # nor when a model proposes it: the write gate asks
    assert gated(text, SHIP.rules.points[point], value, SHIP.rules.profiles) is not None


@pytest.mark.parametrize(("text", "point", "value"), [
    ("open vent 3 to 40", "vent3", 40), ("open sluice 2 to 300 mm", "gate2", 300),
    ("open the jaw up to 250 mm", "jaw", 250),
    ("open the dryer 2 gate", "dryer_gate", True), ("start dryer 2", "dryer", True),
    ("set provision store to 6", "store_sp", 6), ("open provision store door", "store_door", True),
])
async def test_what_is_said_plainly_is_done(text: str, point: str, value: object) -> None:
    action = await routed_without_model(SHIP, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action
