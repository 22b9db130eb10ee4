"""What blind batch 29 (a copper concentrator, a flexo press with bracketed names, a
biodiesel plant) showed, on plants of the same styles written here."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

PRESS = Router(exec_devices("press", {"press": {
    "press_run": {"name": "Main drive run, press (start/stop command)", "type": "bool",
                  "writable": True, "aliases": ["press run"],
                  "description": "Start and stop command of the press main drive."},
    "pump1": {"name": "Ink pump 1 (start/stop)", "type": "bool", "writable": True},
    "web_speed": {"name": "Web speed, press (m/min)", "unit": "m/min"},
    "exhaust_fan": {"name": "Dryer exhaust fan speed (%)", "aliases": ["exhaust fan"],
                    "unit": "%", "writable": True, "min": 0, "max": 100},
    "rewind_tension": {"name": "Web tension, rewind (N)", "aliases": ["rewind tension"],
                       "unit": "N"},
    "unwind_tension": {"name": "Web tension, unwind (N)", "aliases": ["unwind tension"],
                       "unit": "N"},
}}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("start the press", "press_run", True),  # had written False: "stop" taken for its sense
    ("stop the press", "press_run", False),
    ("start ink pump 1", "pump1", True),
    ("stop ink pump 1", "pump1", False),
])
async def test_a_switch_named_by_both_actions_in_brackets_is_the_thing_s(
        text: str, point: str, value: bool) -> None:
    action = await routed_without_model(PRESS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), text


@pytest.mark.parametrize(("text", "name", "args"), [
    ("exhaust fan 80%", "write", {"point": "exhaust_fan", "value": 80}),  # no fan 80
    ("exhaust fan 80 %", "write", {"point": "exhaust_fan", "value": 80}),
    ("what tension are we running on the rewind", "read", {"point": "rewind_tension"}),
    ("what speed are we running on the press", "read", {"point": "web_speed"}),
])
async def test_terse_and_spoken_forms(text: str, name: str, args: dict[str, object]) -> None:
    action = await routed_without_model(PRESS, text)
    assert (action.name, action.args) == (name, args), text


PUMPS = Router(exec_devices("pumps", {"utilities": {
    "feed_run": {"name": "Feed pump run", "type": "bool", "writable": True,
                 "names": {"zh": "进料泵"}},
}}))


async def test_ting_xia_lai_stops() -> None:
    action = await routed_without_model(PUMPS, "把进料泵停下来")
    assert (action.name, action.args) == ("write", {"point": "feed_run", "value": False})


STRIPPER = Router(exec_devices("stripper", {"recovery": {
    "bottom_t": {"name": "Methanol stripper bottom temperature", "unit": "°C"},
    "top_t": {"name": "Methanol stripper top temperature", "unit": "°C"},
    "meoh_level": {"name": "Methanol tank level", "unit": "%"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("methanol column bottoms temp", "bottom_t"),  # the lexicon's methanol column: a stripper
    ("methanol column top temp", "top_t"),
])
async def test_a_phrase_of_the_point_s_own_thing_is_no_other(text: str, point: str) -> None:
    action = await routed_without_model(STRIPPER, text)
    assert (action.name, action.args) == ("read", {"point": point}), text
