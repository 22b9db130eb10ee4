""""Stop", "off" and "close" said of a thing that has no on/off point: zero is written only to
what stopping it zeroes (its speed, flow, power; a position in % by "close"), never to a
setpoint of a temperature ("turn off freezer 1" is no 0 °C) nor to a limit, an offset or a
minimum of the thing (atk20)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

PLANT = Router(exec_plant("stopping", {
    "f1": {"name": "Freezer 1 temperature setpoint", "unit": "°C", "writable": True,
           "min": -40, "max": 10},
    "o1": {"name": "Oven 1 setpoint", "unit": "°C", "writable": True, "min": 0, "max": 300},
    "p1": {"name": "Pump 1 minimum speed", "unit": "rpm", "writable": True, "min": 0,
           "max": 3000},
    "d3": {"name": "Damper 3 minimum position", "unit": "%", "writable": True, "min": 0,
           "max": 100},
    "h3": {"name": "Heater 3 high limit", "unit": "°C", "writable": True, "min": 0, "max": 200},
    "c4": {"name": "Conveyor 4 speed offset", "unit": "%", "writable": True, "min": -10,
           "max": 10},
    "p2": {"name": "Pump 2 speed", "unit": "rpm", "writable": True, "min": 0, "max": 3000},
    "v5": {"name": "Valve 5 position", "unit": "%", "writable": True, "min": 0, "max": 100},
}))


@pytest.mark.parametrize("text", [
    "turn off freezer 1", "turn off oven 1", "stop pump 1", "close damper 3",
    "turn off heater 3", "stop conveyor 4"])
async def test_no_zero_to_what_stopping_does_not_zero(text: str) -> None:
    action = await routed_without_model(PLANT, text)
    assert action.name == "respond"


@pytest.mark.parametrize(("text", "point"), [("stop pump 2", "p2"), ("close valve 5", "v5")])
async def test_a_speed_or_a_position_is_zeroed(text: str, point: str) -> None:
    action = await routed_without_model(PLANT, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": 0})


SWITCHES = Router(exec_plant("holding", {
    "c2": {"name": "Conveyor 2", "type": "bool", "writable": True},
    "p1": {"name": "Pump 1", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", ["put conveyor 2 on hold", "put pump 1 on standby",
                                  "set conveyor 2 on hold for now"])
async def test_on_hold_switches_nothing_on(text: str) -> None:
    action = await routed_without_model(SWITCHES, text)
    assert action.name == "respond"


@pytest.mark.parametrize("text", ["turn conveyor 2 on", "switch on conveyor 2", "conveyor 2 on"])
async def test_on_still_switches_on(text: str) -> None:
    action = await routed_without_model(SWITCHES, text)
    assert (action.name, action.args) == ("write", {"point": "c2", "value": True})


ZEROS = Router(exec_plant("zeros", {
    "f2w": {"name": "Filler 2 fill weight", "unit": "kg", "writable": True, "min": 0, "max": 50},
    "p2s": {"name": "Pump 2 speed", "unit": "rpm", "writable": True, "min": 0, "max": 3000},
    "g1": {"name": "Generator 1 load setpoint", "unit": "kW", "writable": True, "min": 0,
           "max": 500},
    "v8": {"name": "Valve 8 opening", "names": {"zh": "8号阀开度"}, "unit": "%", "writable": True,
           "min": 0, "max": 100},
    "v3": {"name": "Valve 3", "names": {"zh": "3号阀"}, "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", [
    "zero the filler 2 load cell", "tare the filler 2 scale",  # a tare, not 0 kg (ZEROCAL)
    "pump 2 0 speed", "generator 1 zero load", "8号阀零开度",  # a state said (ZERO3)
    "停止关闭3号阀", "3号阀停止关闭",  # "stop closing valve 3" closes nothing (STOPZ)
    "set filler 2 load cell to zero", "put filler 2 load cell at zero",  # a tare (atk23)
])
async def test_no_zero_nor_close_is_written_for_these(text: str) -> None:
    action = await routed_without_model(ZEROS, text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set pump 2 speed to 0", "p2s", 0), ("set filler 2 fill weight to 0 kg", "f2w", 0),
    ("关闭3号阀", "v3", False)])
async def test_a_zero_or_a_close_said_plainly_is_written(text: str, point: str,
                                                        value: object) -> None:
    action = await routed_without_model(ZEROS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})
