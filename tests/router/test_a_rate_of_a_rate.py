"""A rate of change said to the rate itself ("120 t/h/h" of a feed setpoint in t/h, "1200 rpm per
minute" of a fan in rpm) is a ramp, another unit: written as the setpoint it would be a value
nobody asked for. The write gate passed these were the model to propose them (review atk66).
A point whose own unit is a rate of change ("rpm/min", "°C/h") takes it, and a point's own
rate spelled another way ("l/hr", "kg/day", "degC per hour") is its unit, not a refusal."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, routed_without_model

CONFIG = exec_plant("ramps", {
    "feed_sp": {"name": "Feed rate setpoint", "unit": "t/h", "writable": True,
                "min": 0, "max": 500},
    "fan_sp": {"name": "ID fan speed setpoint", "unit": "rpm", "writable": True,
               "min": 0, "max": 3000},
    "ramp_sp": {"name": "Drive ramp rate", "unit": "rpm/min", "writable": True,
                "min": 0, "max": 3000},
    "heat_sp": {"name": "Kiln heat-up rate", "unit": "°C/h", "writable": True,
                "min": 0, "max": 300},
    "kiln_sp": {"name": "Kiln temperature setpoint", "unit": "°C", "writable": True,
                "min": 0, "max": 1500},
    "belt_sp": {"name": "Belt speed setpoint", "unit": "m/s", "writable": True,
                "min": 0, "max": 10},
    "dose_sp": {"name": "Dosing flow setpoint", "unit": "L/h", "writable": True,
                "min": 0, "max": 500, "names": {"zh": "加药流量设定"}},
    "lime_sp": {"name": "Lime usage target", "unit": "kg/d", "writable": True,
                "min": 0, "max": 500},
    "damper_sp": {"name": "Damper position", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "air_sp": {"name": "Air flow setpoint", "unit": "m³/min", "writable": True,
               "min": 0, "max": 100},
})
PROFILES = Router(CONFIG).rules.profiles


@pytest.mark.parametrize(("point", "text", "value", "said"), [
    ("feed_sp", "set the feed rate setpoint to 120 t/h/h", 120, "t/h/h"),
    ("feed_sp", "feed rate setpoint 120 t/h per hour", 120, "t/h per hour"),
    ("fan_sp", "set the ID fan speed setpoint to 1200 rpm/min", 1200, "rpm/min"),
    ("fan_sp", "ID fan speed setpoint 1200 rpm per minute", 1200, "rpm per minute"),
    ("belt_sp", "belt speed setpoint 2 m/s/s", 2, "m/s/s"),
])
def test_a_rate_of_change_of_the_rate_is_another_unit(point: str, text: str, value: float,
                                                      said: str) -> None:
    doubt = gated(text, CONFIG.points[point], value, PROFILES)
    assert doubt is not None
    assert doubt.args["value_problem"] == "unit"
    assert doubt.args["unreadable"] == [said]


@pytest.mark.parametrize(("point", "text", "value"), [
    ("ramp_sp", "set the drive ramp rate to 1200 rpm/min", 1200),
    ("ramp_sp", "drive ramp rate 1200 rpm per minute", 1200),
    ("heat_sp", "kiln heat-up rate 50 °C/h", 50),
    ("heat_sp", "kiln heat-up rate 50 °C/hr", 50),
    ("heat_sp", "kiln heat-up rate 50 degC per hour", 50),
    ("heat_sp", "kiln heat-up rate to 50 degrees an hour", 50),
    ("dose_sp", "dosing flow setpoint 50 l/hr", 50),
    ("dose_sp", "dosing flow setpoint 50 L/hr", 50),
    ("dose_sp", "加药流量设定50升每小时", 50),
    ("lime_sp", "lime usage target 50 kg/day", 50),
])
def test_a_points_own_rate_spelled_another_way_passes(point: str, text: str,
                                                      value: float) -> None:
    assert gated(text, CONFIG.points[point], value, PROFILES) is None


@pytest.mark.parametrize(("point", "text", "value", "said"), [
    ("heat_sp", "kiln heat-up rate 50 degrees a minute", 50, "degrees a minute"),
    ("heat_sp", "kiln heat-up rate 50 degrees", 50, "degrees"),
    ("kiln_sp", "kiln temperature setpoint 50 degrees per hour", 50, "degrees per hour"),
    ("damper_sp", "damper position to 80 revolutions", 80, "revolutions"),
    ("damper_sp", "damper position to 8 turns", 8, "turns"),
    ("air_sp", "air flow setpoint to 30 in cfm", 30, "cfm"),
    ("air_sp", "air flow setpoint to 30, in cfm", 30, "cfm"),
    ("dose_sp", "dosing flow setpoint 20 h", 20, "h"),  # a time, no rate
    ("fan_sp", "ID fan speed setpoint 1200 min", 1200, "min"),
])
def test_a_rate_per_another_time_or_a_count_is_still_refused(
        point: str, text: str, value: float, said: str) -> None:
    doubt = gated(text, CONFIG.points[point], value, PROFILES)
    assert doubt is not None
    assert doubt.args["value_problem"] == "unit"
    assert doubt.args["unreadable"] == [said]


def test_a_rate_of_change_said_in_chinese_is_refused() -> None:
    assert gated("加药流量设定50升/小时每小时", CONFIG.points["dose_sp"], 50, PROFILES) is not None


async def test_the_rules_do_not_write_a_ramp_as_the_setpoint() -> None:
    action = await routed_without_model(Router(CONFIG), "set the feed rate setpoint to 120 t/h/h")
    assert action.name == "respond", action
    assert action.args.get("value_problem") == "unit", action.args
