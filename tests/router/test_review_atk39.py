"""Review atk39 of the lettered twins, the per cent sign, start/stop words of names and a
point's own Chinese name: what it found, mended, on plants of its kind."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

ARTICLES = Router(exec_devices("articles", {"line": {
    "c2_speed": {"name": "Conveyor 2 speed", "unit": "m/min", "writable": True,
                 "min": 0, "max": 60},
    "c2a_speed": {"name": "Side A conveyor 2 speed", "unit": "m/min", "writable": True,
                  "min": 0, "max": 60},
    "o1_sp": {"name": "Oven 1 setpoint", "unit": "°C", "writable": True, "min": 0, "max": 300},
    "o1a_sp": {"name": "Oven 1 zone A setpoint", "unit": "°C", "writable": True,
               "min": 0, "max": 300},
    "p2": {"name": "Pump 2", "type": "bool", "writable": True},
    "p2a": {"name": "Pump 2A", "type": "bool", "writable": True},
    "p2_speed": {"name": "Pump 2 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "p2a_speed": {"name": "Pump 2A speed", "unit": "%", "writable": True, "min": 0, "max": 100},
}}))

AMPS = Router(exec_devices("amps", {"mcc": {
    "m10a_ilim": {"name": "Motor 10A current limit", "unit": "A", "writable": True,
                  "min": 0, "max": 100},
    "m10b_ilim": {"name": "Motor 10B current limit", "unit": "A", "writable": True,
                  "min": 0, "max": 100},
    "m2_ilim": {"name": "Motor 2 current limit", "unit": "A", "writable": True,
                "min": 0, "max": 100},
    "m10a_run": {"name": "Motor 10A run", "type": "bool", "writable": True},
    "m10a_i": {"name": "Motor 10A current", "unit": "A"},
    "heater_ilim": {"name": "Heater current limit", "unit": "A", "writable": True,
                    "min": 0, "max": 100},
    "heater_i": {"name": "Heater current", "unit": "A"},
    "rect2_i": {"name": "Rectifier 2 current setpoint", "unit": "A", "writable": True,
                "min": 0, "max": 500},
    "tank1_sp": {"name": "Tank 1 level setpoint", "unit": "m", "writable": True,
                 "min": 0, "max": 5},
}}))

WATER = Router(exec_devices("water", {"d": {
    "water_pump": {"name": "Water pump", "names": {"zh": "水泵"}, "type": "bool",
                   "writable": True},
    "makeup_pump": {"name": "Make-up water pump", "type": "bool", "writable": True},
    "sewage_pump": {"name": "Sewage pump", "type": "bool", "writable": True},
    "rh_sp": {"name": "Room humidity setpoint", "unit": "%RH", "writable": True,
              "min": 20, "max": 80},
    "v2": {"name": "Valve 2 position", "unit": "%", "writable": True, "min": 0, "max": 100},
    "air_comp1": {"name": "Air compressor 1", "type": "bool", "writable": True},
    "start_air": {"name": "Start air pressure", "unit": "bar"},
    "ramp_pump": {"name": "Ramp pump", "type": "bool", "writable": True},
    "soft_ramp": {"name": "Soft start ramp time", "unit": "s", "writable": True,
                  "min": 1, "max": 30},
}}))


@pytest.mark.parametrize(("router", "text", "not_point"), [
    (ARTICLES, "set conveyor 2 a speed of 10", "c2a_speed"),  # "a": an article
    (ARTICLES, "give oven 1 a setpoint of 200", "o1a_sp"),
    (ARTICLES, "give pump 2 a start", "p2a"),
    (ARTICLES, "set pump 2 a speed of 50", "p2a_speed"),
    (WATER, "启动补水泵", "water_pump"),  # 水泵 is the end of 补水泵, no name said
    (WATER, "停止补水泵", "water_pump"),
    (WATER, "启动污水泵", "water_pump"),
])
async def test_no_twin_nor_part_name_is_written(router: Router, text: str,
                                                not_point: str) -> None:
    action = await routed_without_model(router, text)
    assert not (action.name == "write" and action.args.get("point") == not_point), \
        (text, action)


@pytest.mark.parametrize(("router", "text", "point", "value"), [
    (AMPS, "motor 2 current to 10a", "m2_ilim", 10),  # amps, though motor 10A exists
    (AMPS, "motor 2 at 10a", "m2_ilim", 10),
    (AMPS, "motor 2 current limit 10a", "m2_ilim", 10),
    (AMPS, "set heater current 10a", "heater_ilim", 10),
    (AMPS, "set rectifier 2 current 200a", "rect2_i", 200),  # no twin after a quantity
    (AMPS, "tank 1 level 3m", "tank1_sp", 3),
    (AMPS, "start motor 10a", "m10a_run", True),
    (WATER, "set room humidity to 45%", "rh_sp", 45),  # per cent of a %RH point
    (WATER, "room humidity 45%", "rh_sp", 45),
    (WATER, "set room humidity to 45 percent", "rh_sp", 45),
    (WATER, "set valve 2 %50", "v2", 50),  # no "2 percent"
    (WATER, "start air compressor 1", "air_comp1", True),  # no "start air pressure"
    (WATER, "start ramp pump", "ramp_pump", True),  # no "soft start ramp time"
    (WATER, "set the soft start ramp time to 5", "soft_ramp", 5),
    (WATER, "启动水泵", "water_pump", True),
])
async def test_the_write_meant_is_made(router: Router, text: str, point: str,
                                       value: object) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), text


async def test_a_twin_s_letter_no_twin_of_that_number_has_is_no_read() -> None:
    """ "heater 10a": the heater has no number; a read would drop the 10 A said."""
    action = await routed_without_model(AMPS, "heater 10a")
    assert action.name == "respond", action


async def test_a_twin_read_in_amps() -> None:
    action = await routed_without_model(AMPS, "motor 10a amps")
    assert (action.name, action.args) == ("read", {"point": "m10a_i"})
