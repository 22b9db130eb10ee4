"""Writes review atk37 found that the base made too: a point's own words said as its name
says them, a reading whose quantity the words name, a point's own Chinese name."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

DELAYS = Router(exec_devices("delays", {"line": {
    "start_delay": {"name": "Conveyor start delay", "unit": "s", "writable": True,
                    "min": 0, "max": 300},
    "stop_delay": {"name": "Conveyor stop delay", "unit": "min", "writable": True,
                   "min": 0, "max": 60},
    "conv_run": {"name": "Conveyor", "type": "bool", "writable": True},
}}))

HOIST = Router(exec_devices("hoist", {"hoist": {
    "speed_sp": {"name": "Hoist speed setpoint", "unit": "m/s", "writable": True,
                 "min": 0, "max": 5},
    "speed": {"name": "Hoist speed", "unit": "m/s"},
    "wind": {"name": "Wind speed", "unit": "m/s"},
    "mode": {"name": "Hoist mode", "type": "uint16", "writable": True,
             "map": {0: "running", 1: "stopped", 2: "holding"}},
    "run": {"name": "Hoist run", "type": "bool", "writable": True},
    "rope_temp": {"name": "Hoist rope temperature", "unit": "°C"},
}}))

PUMPS = Router(exec_devices("pumps", {"utilities": {
    "fw_pump": {"name": "Boiler feed water pump", "type": "bool", "writable": True,
                "names": {"zh": "给水泵"}},
    "feed_pump": {"name": "Feed pump", "type": "bool", "writable": True,
                  "names": {"zh": "进料泵"}},
    "oil_temp": {"name": "Oil tank temperature", "unit": "°C", "names": {"zh": "油罐温度"}},
    "oil_temp_sp": {"name": "Oil tank temperature setpoint", "unit": "°C", "writable": True,
                    "min": 20, "max": 90},
}}))


@pytest.mark.parametrize(("router", "text", "not_point"), [
    (DELAYS, "set the conveyor start delay to 5 minutes", "stop_delay"),
    (DELAYS, "conveyor start delay 2 min", "stop_delay"),
    (HOIST, "wind 15", "speed_sp"),  # the wind's speed is read-only: no stand-in
    (HOIST, "wind speed 15", "speed_sp"),
    (HOIST, "set the wind to 15", "speed_sp"),
    (PUMPS, "启动给水泵", "feed_pump"),  # 给水泵 is its own name
    (PUMPS, "给水泵停止", "feed_pump"),
])
async def test_no_other_point_is_written(router: Router, text: str, not_point: str) -> None:
    action = await routed_without_model(router, text)
    assert not (action.name == "write" and action.args.get("point") == not_point), \
        (text, action)


@pytest.mark.parametrize(("router", "text", "name", "args"), [
    (DELAYS, "set the conveyor start delay to 5 seconds", "write",
     {"point": "start_delay", "value": 5}),
    (DELAYS, "set the conveyor stop delay to 5 minutes", "write",
     {"point": "stop_delay", "value": 5}),
    (DELAYS, "what is the start delay", "read", {"point": "start_delay"}),
    (DELAYS, "start the conveyor", "write", {"point": "conv_run", "value": True}),
    (HOIST, "what is the wind speed", "read", {"point": "wind"}),
    (HOIST, "set the hoist speed to 2", "write", {"point": "speed_sp", "value": 2}),
    (HOIST, "stop the hoist", "write", {"point": "run", "value": False}),
    (PUMPS, "启动给水泵", "write", {"point": "fw_pump", "value": True}),
    (PUMPS, "给水泵的状态", "read", {"point": "fw_pump"}),
    (PUMPS, "启动进料泵", "write", {"point": "feed_pump", "value": True}),
    (PUMPS, "油罐温度是多少", "read", {"point": "oil_temp"}),
    (PUMPS, "油罐温度设定为50度", "write", {"point": "oil_temp_sp", "value": 50}),
])
async def test_the_point_named_is_the_one(router: Router, text: str, name: str,
                                          args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == (name, args), text
