"""Blind batch 51 (a brick works, an ice-cream factory, a copper tankhouse; here on a plant of
my own): Chinese words of their machines, 设定到 as "set to", a point's own setpoint written
from a Chinese name of the measurement, an amount asked of several burners, and an interval
said "every" so many minutes, which is never read, nor is a thing isolated or lit."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

WORKS = Router(exec_plant("works", {
    "dryer1_temp": {"name": "Drying chamber 1 temperature", "unit": "°C",
                    "names": {"zh": "1号干燥室温度"}},
    "dryer1_sp": {"name": "Drying chamber 1 temperature setpoint", "unit": "°C",
                  "writable": True, "min": 20, "max": 120},
    "dryer2_temp": {"name": "Drying chamber 2 temperature", "unit": "°C"},
    "box_feeder": {"name": "Box feeder run", "type": "bool", "writable": True},
    "setter_running": {"name": "Setting machine running", "type": "bool"},
    "mist_fan_1": {"name": "Acid mist fan 1", "type": "bool", "writable": True},
    "mist_fan_2": {"name": "Acid mist fan 2", "type": "bool", "writable": True},
    "receiver_level": {"name": "Ammonia receiver level", "unit": "%"},
    "freezer1_running": {"name": "Continuous freezer 1 running", "type": "bool"},
    "overrun_sp": {"name": "Freezer 1 overrun setpoint", "unit": "%", "writable": True,
                   "min": 20, "max": 130},
    "gas_flow": {"name": "Kiln burner gas flow", "unit": "m³/h"},
    "burners_a": {"name": "Burner group A enable", "type": "bool", "writable": True,
                  "description": "Releases gas to the side-wall burners of group A"},
    "push_interval": {"name": "Kiln car push interval", "unit": "min", "writable": True,
                      "min": 20, "max": 90},
    "copper": {"name": "Electrolyte copper concentration", "unit": "g/L"},
    "purge_flow": {"name": "Purge air flow", "unit": "m³/h"},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("把1号干燥室温度设定到85度", "dryer1_sp", 85),
    ("1号干燥室温度设定成85度", "dryer1_sp", 85),
    ("停掉箱式给料机", "box_feeder", False),
    ("启动2号酸雾风机", "mist_fan_2", True),
    ("一号凝冻机膨胀率设为95%", "overrun_sp", 95),
])
async def test_writes(text: str, point: str, value: Any) -> None:
    action = await routed_without_model(WORKS, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize(("text", "point"), [
    ("二号干燥室温度是多少", "dryer2_temp"),
    ("码坯机在运行吗", "setter_running"),
    ("氨贮液器液位多少", "receiver_level"),
    ("一号凝冻机在运行吗", "freezer1_running"),
    # an amount, which no on/off point tells, of several burners
    ("how much gas are the kiln burners burning", "gas_flow"),
])
async def test_reads(text: str, point: str) -> None:
    action = await routed_without_model(WORKS, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


async def test_an_interval_said_every_so_many_minutes_is_never_read() -> None:
    action = await routed_without_model(WORKS, "push a car every 42 minutes")
    assert action.name != "read", action


@pytest.mark.parametrize("text", [
    "isolate burner group A",  # the model had read the enable
    "light the kiln burners",
    "cobalt concentration in the electrolyte?",  # a metal no point measures: not copper
])
async def test_no_read_of_what_is_not_asked(text: str) -> None:
    action = await routed_without_model(WORKS, text)
    assert action.name == "respond", (text, action)


async def test_a_verb_of_a_point_s_own_name_still_reads() -> None:
    action = await routed_without_model(WORKS, "purge air flow")
    assert action.to_dict() == {"name": "read", "args": {"point": "purge_flow"}}
