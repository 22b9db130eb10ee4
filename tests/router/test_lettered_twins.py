"""Twins lettered after their number ("Pump 101A", "Pump 101B", "Feeder 1-B"): the letter is
the twin's, whatever word it spells alone ("a"), so the number alone names neither."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

TWINS = Router(exec_devices("twins", {"pumps": {
    "p101a_run": {"name": "Pump 101A", "type": "bool", "writable": True},
    "p101b_run": {"name": "Pump 101B", "type": "bool", "writable": True},
    "p101a_amps": {"name": "Pump 101A current", "unit": "A"},
    "p101b_amps": {"name": "Pump 101B current", "unit": "A"},
    "p102a_speed": {"name": "Pump 102A speed", "unit": "%", "writable": True,
                    "min": 0, "max": 100},
    "p102b_speed": {"name": "Pump 102B speed", "unit": "%", "writable": True,
                    "min": 0, "max": 100},
    "f1a": {"name": "Feeder 1-A", "type": "bool", "writable": True},
    "f1b": {"name": "Feeder 1-B", "type": "bool", "writable": True},
    "heater_sp": {"name": "Heater setpoint", "unit": "°C", "writable": True,
                  "min": 0, "max": 90},
    "motor_limit": {"name": "Motor current limit", "unit": "A", "writable": True,
                    "min": 0, "max": 30},
}}))


@pytest.mark.parametrize("text", [
    "is pump 101 running", "what is the current of pump 101", "pump 101 amps",
    "pump 102 speed", "set pump 102 to 50", "start pump 101", "start feeder 1",
])
async def test_the_number_alone_names_neither_twin(text: str) -> None:
    action = await routed_without_model(TWINS, text)
    assert action.name == "respond", (text, action)


@pytest.mark.parametrize(("text", "name", "args"), [
    ("is pump 101A running", "read", {"point": "p101a_run"}),
    ("is pump 101B running", "read", {"point": "p101b_run"}),
    ("pump 101a amps", "read", {"point": "p101a_amps"}),
    ("what's the current on pump 101b", "read", {"point": "p101b_amps"}),
    ("set pump 102A to 50", "write", {"point": "p102a_speed", "value": 50}),
    ("set pump 102b to 40", "write", {"point": "p102b_speed", "value": 40}),
    ("start pump 101 b", "write", {"point": "p101b_run", "value": True}),
    ("start feeder 1b", "write", {"point": "f1b", "value": True}),
    ("start feeder 1-A", "write", {"point": "f1a", "value": True}),
])
async def test_the_twin_said_with_its_letter_is_the_one(text: str, name: str,
                                                        args: dict[str, object]) -> None:
    action = await routed_without_model(TWINS, text)
    assert (action.name, action.args) == (name, args), text


@pytest.mark.parametrize(("text", "point", "value"), [
    ("heater setpoint 60c", "heater_sp", 60),  # after a setting word, its degrees
    ("set the heater setpoint to 60C", "heater_sp", 60),
    ("set the motor current limit to 20a", "motor_limit", 20),  # after "to", its amps
])
async def test_a_letter_after_a_value_is_its_unit(text: str, point: str, value: int) -> None:
    action = await routed_without_model(TWINS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), text


async def test_a_letter_no_twin_has_writes_nothing() -> None:
    action = await routed_without_model(TWINS, "start feeder 1c")
    assert action.name == "respond", action


SLURRY = Router(exec_devices("slurry", {"grinding": {
    "sp101a_run": {"name": "Slurry pump 101A run", "type": "bool", "writable": True},
    "sp101b_run": {"name": "Slurry pump 101B run", "type": "bool", "writable": True},
    "sp101a_speed": {"name": "Slurry pump 101A speed", "unit": "%", "writable": True,
                     "min": 0, "max": 100},
    "sp101a_press": {"name": "Slurry pump 101A discharge pressure", "unit": "bar"},
    "uf301b_run": {"name": "Underflow pump 301B run", "type": "bool", "writable": True},
}}))


@pytest.mark.parametrize(("text", "name", "args"), [
    ("start slurry pump 101 A", "write", {"point": "sp101a_run", "value": True}),
    ("101a speed to eighty five percent", "write", {"point": "sp101a_speed", "value": 85}),
    ("启动101B泵", "write", {"point": "sp101b_run", "value": True}),
    ("启动101B渣浆泵", "write", {"point": "sp101b_run", "value": True}),
    ("101A泵转速是多少", "read", {"point": "sp101a_speed"}),
])
async def test_a_tag_lettered_twin_said_as_operators_do(text: str, name: str,
                                                        args: dict[str, object]) -> None:
    """The letter apart, the tag first, the tag before a Chinese thing (not the letter of
    a "B包装机", which names the thing after it)."""
    action = await routed_without_model(SLURRY, text)
    assert (action.name, action.args) == (name, args), text


async def test_a_twin_without_the_point_is_not_its_twin_s() -> None:
    """Only 101A has a discharge pressure; the point ids' "sp101a" (a tag written onto the
    setpoint-like "sp") is no setting word that makes the letter a unit."""
    action = await routed_without_model(SLURRY, "discharge pressure on slurry pump 101B")
    assert action.name == "respond", action
