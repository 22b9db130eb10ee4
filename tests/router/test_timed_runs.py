"""A thing run for a time ("start pump 1 10 min", "irrigate zone 4 15 minutes", 启动1号泵十分钟)
asks for a run now, for that long: writing the number to the thing's on-time setting would not
start it (atk20 DUR2). A time said as a setting ("set pump 1 run time to 10 minutes", "defrost
timer 20 min") is written."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

TIMED = Router(exec_plant("timed", {
    "p1": {"name": "Pump 1", "names": {"zh": "1号泵"}, "type": "bool", "writable": True},
    "p1t": {"name": "Pump 1 run time", "unit": "min", "writable": True, "min": 0, "max": 120},
    "z4": {"name": "Zone 4 irrigation", "type": "bool", "writable": True},
    "z4t": {"name": "Zone 4 irrigation time", "names": {"zh": "4区灌溉时间"}, "unit": "min",
            "writable": True, "min": 0, "max": 120},
    "df": {"name": "Evaporator 5 defrost timer", "unit": "min", "writable": True, "min": 0,
           "max": 60},
}))


@pytest.mark.parametrize("text", [
    "start pump 1 10 min", "start pump 1 for a 10 minute run", "energise pump 1 for 10 minutes",
    "启动1号泵十分钟", "开1号泵十分钟", "irrigate zone 4 15 minutes", "4区灌溉15分钟",
    "run a 20 minute defrost on evaporator 5", "zone 4 irrigation on 15 min"])
async def test_a_run_for_a_time_sets_no_time(text: str) -> None:
    action = await routed_without_model(TIMED, text)
    assert action.name != "write" or action.args["point"] not in ("p1t", "z4t", "df"), action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set pump 1 run time to 10 minutes", "p1t", 10), ("pump 1 run time 10 min", "p1t", 10),
    ("zone 4 irrigation time 15 minutes", "z4t", 15), ("4区灌溉时间设为15分钟", "z4t", 15),
    ("evaporator 5 defrost timer 20 min", "df", 20), ("pump 1 run time 30", "p1t", 30)])
async def test_a_time_said_as_a_setting_is_written(text: str, point: str, value: int) -> None:
    action = await routed_without_model(TIMED, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


OTHER_UNITS = Router(exec_plant("timed-units", {
    "f1t": {"name": "Freezer 1 defrost duration", "unit": "minutes", "writable": True,
            "min": 0, "max": 60},
    "m1t": {"name": "Mixer 1 mix time", "unit": "seconds", "writable": True, "min": 0,
            "max": 600},
    "z3t": {"name": "Zone 3 irrigation time", "names": {"zh": "3区灌溉时间"}, "unit": "分钟",
            "writable": True, "min": 0, "max": 120},
}))


@pytest.mark.parametrize("text", [
    "defrost freezer 1 20 minutes", "mix mixer 1 90 seconds", "3区灌溉15分钟"])
async def test_a_time_in_any_unit_s_spelling_is_no_timed_run_s_setting(text: str) -> None:
    """(atk23: a unit written "minutes", "seconds" or 分钟 had let these through.)"""
    action = await routed_without_model(OTHER_UNITS, text)
    assert action.name != "write", action
