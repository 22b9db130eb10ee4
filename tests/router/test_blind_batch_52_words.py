"""Blind batch 52 (a fish hatchery, a reheat furnace, a biogas plant; here on a plant of my
own): what is left, tonnes a day, a machine
numbered before its name ("the number 1 pump"), "on the" after a number, 孵化槽, 养殖池, and
whether a CHP runs."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.normalize import tokens
from tests.support.plants import exec_plant, routed_without_model

WORKS = Router(exec_plant("works", {
    "lox_level": {"name": "Liquid oxygen tank level", "aliases": ["LOX tank level"],
                  "unit": "%"},
    "silo2_level": {"name": "Silo 2 level", "unit": "%"},
    "left_burner_temp": {"name": "Left burner temperature", "unit": "°C"},
    "gen_power": {"name": "Generator electrical output", "unit": "kW"},
    "gen_power_sp": {"name": "Generator power setpoint", "unit": "kW", "writable": True,
                     "min": 0, "max": 800},
    "gas_today": {"name": "Natural gas consumed today", "unit": "Nm³"},
    "lime_feed_sp": {"name": "Lime feed rate setpoint", "unit": "t/d", "writable": True,
                     "min": 0, "max": 60},
    "cw_pump1": {"name": "Cooling water pump 1", "type": "bool", "writable": True},
    "cw_pump2": {"name": "Cooling water pump 2", "type": "bool", "writable": True},
    "cw_pump1_speed": {"name": "Cooling water pump 1 speed", "unit": "%"},
    "incubator_temp": {"name": "Incubator water temperature", "names": {"zh": "孵化槽水温"},
                       "unit": "°C"},
    "incubator_sp": {"name": "Incubator temperature setpoint", "unit": "°C",
                     "writable": True, "min": 4, "max": 12},
    "chp_run": {"name": "CHP start command", "aliases": ["gas engine start"], "type": "bool",
                "writable": True},
    "chp_running": {"name": "CHP engine running", "type": "bool"},
    "comp1_start": {"name": "Compressor 1 start", "type": "bool", "writable": True},
    "comp1_fan_running": {"name": "Compressor 1 fan running", "type": "bool"},
    "tank_lights": {"name": "Rearing tank lights", "type": "bool", "writable": True},
    "freezer1_overrun": {"name": "Freezer 1 overrun", "unit": "%"},
    "freezer1_overrun_sp": {"name": "Freezer 1 overrun setpoint", "unit": "%",
                            "writable": True, "min": 20, "max": 120},
    "kiln_speed": {"name": "Kiln speed", "unit": "rpm"},
    "kiln_speed_sp": {"name": "Kiln speed setpoint", "unit": "rpm", "writable": True,
                      "min": 0.5, "max": 5},
    "kiln_fan_sp": {"name": "Kiln ID fan speed setpoint", "unit": "%", "writable": True,
                    "min": 20, "max": 100},
}))


@pytest.mark.parametrize(("text", "point"), [
    # "left": what remains, asked so; a side, said before a name
    ("how much LOX have we got left", "lox_level"),
    ("how much liquid oxygen is left", "lox_level"),
    ("how much is left in silo 2", "silo2_level"),
    ("what's the left burner temperature", "left_burner_temp"),
    # whether it runs: the status of the CHP's engine, not the start command's state
    ("is the gas engine actually running", "chp_running"),
    ("is the CHP running", "chp_running"),
])
async def test_reads(text: str, point: str) -> None:
    action = await routed_without_model(WORKS, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


@pytest.mark.parametrize(("text", "point", "value"), [
    ("lime feed to 22.5 tonnes a day", "lime_feed_sp", 22.5),
    ("set the lime feed rate to 30 tonnes per day", "lime_feed_sp", 30),
    ("set the lime feed rate to 30 t/d", "lime_feed_sp", 30),
    ("set the lime feed rate to 30 tpd", "lime_feed_sp", 30),
    # a number after a number sign numbers the machine, never a value
    ("stop the number 1 cooling water pump", "cw_pump1", False),
    ("stop the number two cooling water pump", "cw_pump2", False),
    ("start the no. 2 cooling water pump", "cw_pump2", True),
    ("stop the #1 cooling water pump", "cw_pump1", False),
    # "on the" after a thing's number says where, not "on"
    ("stop pump number one on the cooling water", "cw_pump1", False),
    ("stop pump 2 on the cooling water", "cw_pump2", False),
    # 孵化槽 is an incubator
    ("把孵化槽温度设定改成8度", "incubator_sp", 8),
    # 养殖池 is a rearing tank
    ("关掉养殖池的灯", "tank_lights", False),
    # a number word owning what follows, as a number does (blind batch 51)
    ("knock freezer one's overrun down to eighty five", "freezer1_overrun_sp", 85),
    # the setpoint whose name leaves least unsaid: the kiln's, not its fan's (blind batch 49)
    ("speed the kiln up to 3.5", "kiln_speed_sp", 3.5),
    ("set the kiln fan speed to 60", "kiln_fan_sp", 60),
])
async def test_writes(text: str, point: str, value: Any) -> None:
    action = await routed_without_model(WORKS, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize("text", [
    "lime feed to 22.5 tonnes an hour",  # another time than the point's
    "how much gas are we burning",  # now, or today: the plant has no gas flow
])
async def test_nothing_is_written_or_read_wrong(text: str) -> None:
    action = await routed_without_model(WORKS, text)
    assert action.name not in ("write",) and action.point != "gas_today", (text, action)


@pytest.mark.parametrize(("text", "ordinal"), [
    ("stop the number 1 pump", True),
    ("stop the no. 1 pump", True),
    ("stop the #1 pump", True),
    ("stop the number one pump", True),
    # after a word a value follows, a number sign marks a value ("the fan on number 3")
    ("put the fan on number 3", False),
    ("set the fan to number three", False),
])
def test_a_number_after_a_number_sign(text: str, ordinal: bool) -> None:
    numbers = [t for t in tokens(text) if t.is_number]
    assert len(numbers) == 1 and numbers[0].ordinal is ordinal, numbers


async def test_no_fan_runs_for_its_machine() -> None:
    """A fan of compressor 1 running says nothing of whether compressor 1 runs."""
    action = await routed_without_model(WORKS, "is compressor 1 running")
    assert action.point != "comp1_fan_running", action
