"""Whether a thing runs is what its status says, not what its switch was told.

"is pump 1 running", where "Pump 1" is the run switch and "Pump 1 Run" its read-only status,
read the switch: "run" and "running" were no word of each other to the rules (blind batch 43's
"1# Trough Fan" beside "1# Trough Fan Run"). The rules now read the status of the same thing,
one named as the switch is with only a word of running after it."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

ROUTER = Router(exec_devices("works", {"plc": {
    "p1": {"name": "Pump 1", "type": "bool", "writable": True},
    "p1_run": {"name": "Pump 1 Run", "type": "bool"},
    "fan": {"name": "1# Trough Fan", "type": "bool", "writable": True},
    "fan_fb": {"name": "1# Trough Fan running fb", "type": "bool"},
    "p2": {"name": "Pump 2", "type": "bool", "writable": True},
    "p2_trip": {"name": "Pump 2 trip", "type": "bool"},
    "p3": {"name": "Pump 3", "type": "bool", "writable": True},
    "p3_run": {"name": "Pump 3 run", "type": "bool"},
    "p3_run_hours": {"name": "Pump 3 run hours", "unit": "h"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("is pump 1 running", "p1_run"),
    ("is pump 1 on", "p1_run"),
    ("is the no.1 trough fan running", "fan_fb"),
    ("is pump 3 running", "p3_run"),
])
async def test_a_running_question_reads_the_status(text: str, point: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("text", "action", "args"), [
    ("is pump 2 running", "read", {"point": "p2"}),  # a trip is no status of running
    ("start pump 1", "write", {"point": "p1", "value": True}),  # the switch is still switched
])
async def test_no_status_no_redirect(text: str, action: str, args: dict[str, object]) -> None:
    routed = await routed_without_model(ROUTER, text)
    assert (routed.name, routed.args) == (action, args), text
