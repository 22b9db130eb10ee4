"""On/off of a thing switches a point only where the point's name says no more than that thing
(hostile review atk15): its other words are the switch's own ("motor", "run", "solenoid"), say
which ("main"), qualify what is said, or are the machine of a function said ("Caustic dosing
pump" of "start caustic dosing"). Any other word names a part or an action the command did not
say, and the write is asked back, whichever stage proposed it (the write gate)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import doubt
from tests.support.plants import exec_plant, routed_without_model


def _plant(name: str) -> Router:
    return Router(exec_plant("parts", {"p": {"name": name, "type": "bool", "writable": True}}))


@pytest.mark.parametrize(("name", "text"), [
    ("Valve 3 shutdown solenoid", "open valve 3"),      # an action word no list had
    ("Valve 12 closure solenoid", "open valve 12"),
    ("Feed pump - Boiler 1", "stop boiler 1"),          # a tag list's order, device first
    ("Brake, Hoist 9", "start hoist 9"),
    ("Close solenoid - Valve 8", "open valve 8"),
    ("Closing coil Valve 4", "open valve 4"),           # an action said before the thing
    ("Fan 23 backward starter", "start fan 23"),        # "start" is no "starter" said
    ("Tank 2 heater", "turn on tank 2"),
    ("Raw water tank mixer", "start the raw water tank"),
    ("Reactor quench system", "start the reactor"),
    ("3号阀关阀电磁阀", "打开3号阀"),                       # the Chinese name says more
    ("给水泵(1号锅炉)", "停止1号锅炉"),
    ("8号卷扬机抱闸", "停止8号卷扬机"),
    ("2号罐加热器", "启动2号罐"),
    ("Pump 22 start horn", "start pump 22"),           # after the action: a signal of it
    ("Pump 9 start bypass", "start pump 9"),
])
async def test_a_part_or_action_not_said_is_asked_back(name: str, text: str) -> None:
    action = await routed_without_model(_plant(name), text)
    assert action.name == "respond", action
    # the model's write of it is stopped too
    router = _plant(name)
    found = doubt(text, router.rules.points["p"], True, router.rules.profiles)
    assert found is not None and found.problem in ("part", "sense")


@pytest.mark.parametrize(("name", "text", "value"), [
    ("Pump 1 motor run", "start pump 1", True),
    ("Mill 6 main motor", "stop mill 6", False),
    ("Hot oil circulation pump 1", "start pump 1", True),
    ("Collector belt A", "start collector A", True),
    ("Caustic dosing pump", "start caustic dosing", True),
    ("ESD valve", "close the ESD valve", False),
    ("Open rack vaporiser 2", "start open rack vaporiser 2", True),
    ("Fogging system", "start the foggers", True),
    ("CHP engine", "start the chp", True),
    ("Steam valve 2", "open valve 2", True),
    ("1号泵开关", "启动1号泵", True),
    ("3号车间照明灯", "打开3号车间照明", True),
    ("Fresh oil make-up valve", "open the fresh oil make-up valve", True),
    ("Conveyor 3 hold", "hold conveyor 3", True),
])
async def test_the_switch_of_the_thing_said_is_written(name: str, text: str, value: Any) -> None:
    action = await routed_without_model(_plant(name), text)
    assert (action.name, action.args) == ("write", {"point": "p", "value": value})
