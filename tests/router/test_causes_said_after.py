"""A cause said after a command to stop is no part of it ("stop the hot well pump, it's sucking
air", "stop exhaust fan 2, we're cleaning it", blind batches 68 to 71), when the whole clause is
a fault of the thing stopped, its servicing, something caught in it, or people going in; any
other clause, however like a cause it sounds (of another thing, a fault may be one the thing
stopped mends: review atk71), and any clause after a start, an open or a value, is heard with
the command, and a clause that could take it back, turn it round, name the point meant or give
the value's unit gets it refused (reviews atk67c, atk69, atk69b, atk69c).
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.causes import cause_dropped
from tests.support.plants import exec_plant, routed_without_model

CONFIG = exec_plant("causes", {
    "transfer_pump": {"name": "Transfer pump 3", "type": "bool", "writable": True},
    "hotwell_pump": {"name": "Hot well pump", "type": "bool", "writable": True},
    "fan2": {"name": "Exhaust fan 2", "type": "bool", "writable": True},
    "fan2_speed": {"name": "Exhaust fan 2 speed", "unit": "%", "writable": True,
                   "min": 0, "max": 100},
    "kiln_sp": {"name": "Kiln 1 temperature setpoint", "unit": "°C", "writable": True,
                "min": 100, "max": 900},
    "cold_sp": {"name": "Cold room 1 temperature setpoint", "unit": "°C", "writable": True,
                "min": -30, "max": 10},
    "dosing_rate": {"name": "Caustic dosing rate", "unit": "L/h", "writable": True,
                    "min": 0, "max": 50},
    "screws": {"name": "Feed screws", "type": "bool", "writable": True},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "point", "value"), [
    # a fault of the thing stopped: "it", or its own name again
    ("stop the hot well pump, it's sucking air", "hotwell_pump", False),
    ("stop transfer pump 3, it's cavitating", "transfer_pump", False),
    ("turn exhaust fan 2 off, it's vibrating badly", "fan2", False),
    ("stop exhaust fan 2, it's running rough", "fan2", False),
    ("stop the feed screws, they're blocked", "screws", False),
    ("stop exhaust fan 2, the fan's seized", "fan2", False),
    # it serviced, something caught in it, people going in (blind batches 68 to 71)
    ("stop exhaust fan 2, we're cleaning it", "fan2", False),
    ("stop exhaust fan 2 - we are servicing the fan", "fan2", False),
    ("turn off exhaust fan 2, we're doing a fan change", "fan2", False),
    ("stop transfer pump 3, there's a rock in the pump", "transfer_pump", False),
    ("shut off exhaust fan 2, there's a bird in it", "fan2", False),
    ("stop exhaust fan 2, someone's going in to clear it", "fan2", False),
    ("turn off exhaust fan 2, the fitter is going inside", "fan2", False),
])
async def test_the_command_without_its_cause(text: str, point: str, value: object) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action == Action("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", [
    # taken back, turned round, or another state wished
    "start transfer pump 3, boss wants it off",
    "start transfer pump 3, it's cancelled",
    "start transfer pump 3, it's a typo",
    "stop transfer pump 3, i'm kidding",
    "stop transfer pump 3, it's supposed to be running",
    "stop transfer pump 3, we're keeping it on",
    "start transfer pump 3, it isnt needed",
    "start transfer pump 3, the tank's not empty",
    "stop transfer pump 3, the other one's leaking",
    # the point meant, or the value's unit
    "start transfer pump 3, it's the hot well pump I want",
    "set exhaust fan 2 speed to 80, it's rpm",
    "set caustic dosing rate to 20, it's per batch",
    "set caustic dosing rate to 20, it's gallons",
    # a condition, a time, or a question
    "start transfer pump 3, if the day tank is empty",
    "start transfer pump 3, the day tank is empty by then",
    "start transfer pump 3, is the day tank empty?",
    "start transfer pump 3, assuming the tank's empty",
    "start transfer pump 3, whether the tank is full",
    # review atk69: a state that is a change to come, a correction, a second command
    "start transfer pump 3, we're getting it locked out",
    "stop transfer pump 3, it's due to restart",
    "stop transfer pump 3, it's coming back online",
    "start transfer pump 3, I'm changing that",
    "start transfer pump 3, it's going to be the hot well pump",
    "start transfer pump 3, the hot well pump's going too",
    "set exhaust fan 2 speed to 80, it's coming in rpm",
    # review atk69b: a correction, a time or a precondition without a comma of its own
    "start transfer pump 3, no tank's empty",
    "start transfer pump 3, never mind tank's empty",
    "start transfer pump 3, stop tank's empty",
    "start transfer pump 3, tomorrow tank's empty",
    "start transfer pump 3, not before tank's full",
    "start transfer pump 3, ensure tank's full",
    "stop transfer pump 3, we're flushing tomorrow",
    "stop transfer pump 3, we're cleaning the hot well pump instead",
    # review atk69c: after a start, an open or a value, a fault or a cleaning may say the
    # verb was a slip
    "start the hot well pump, it's sucking air",
    "start the hot well pump, hot well's overflowing",
    "start exhaust fan 2, we're cleaning the ductwork",
    "set exhaust fan 2 speed to 80, the kiln's overheating",
    "start transfer pump 3 at - the tank's full",
    # a fault, a jam or people going in after a start: the verb may be a slip
    "start exhaust fan 2, the bearing's running hot",
    "start transfer pump 3, there's a leak",
    "start exhaust fan 2, someone's going in to clear it",
    # after a stop: going in to restart it, a change of what is done, "running" alone
    "stop exhaust fan 2, someone's going in to restart it",
    "stop exhaust fan 2, we're changing the speed",
    "stop exhaust fan 2, it's running",
    "stop transfer pump 3, there's a leak on the hot well pump",
    # an "on" of a command to switch on, before the cause of a stop
    "stop exhaust fan 2 and turn the hot well pump on, the tank is full",
    "put the hot well pump back on, stop transfer pump 3, the tank is full",
    # review atk71: of another thing, a fault may be one the thing stopped is there to mend
    # (a fire pump in a fire, a sump pump in a flood, a fan of a hot motor)
    "stop transfer pump 3, the day tank is full",
    "shut off the hot well pump, hot well's overflowing",
    "turn exhaust fan 2 off, the kiln's overheating",
    "stop exhaust fan 2, the bearing's running hot",
    "stop transfer pump 3, there's a leak",
    "shut off exhaust fan 2, there's a fire in the duct",
    "stop exhaust fan 2, we're cleaning the ductwork",
    "turn off exhaust fan 2, we're doing a filter change",
    "stop the hot well pump, we're changing the strainer",
    "stop transfer pump 3, there's a blockage in the strainer",
    "stop exhaust fan 2, the motor's hot",
    # review atk71b: "it" may be what the thing stopped works on ("it's flooding" of a sump
    # pump, "it's running hot" of a cooling fan), and "they" other pumps
    "stop exhaust fan 2, it's running hot",
    "stop transfer pump 3, it's flooding",
    "stop the hot well pump, it's full",
    "stop exhaust fan 2, it's smoking",
    "stop transfer pump 3, they're cavitating",
    # "hold it", "hold up" said last: wait (review atk69, older)
    "start transfer pump 3, hold it",
    "start transfer pump 3, hold up",
])
async def test_a_clause_that_may_change_it_is_heard(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action


@pytest.mark.parametrize("text", [
    "stop pump 1, it's fine",  # no condition a plant is in
    "stop pump 1, the mixer's what matters",
    "stop pump 1, operator said so",
    "open valve 2, is that ok",
    "set fan 2 to 40, it's at 60 now",
    "pump 1 off, 2号泵漏水",  # a cause in Chinese is not read
    "stop pump 1, we're changing the plan",
    "start pump 1, tanker waiting at the bay",
    "set fan 2 to 40, that's high",
    "stop pump 1, pump 2's leaking",  # (a numbered thing: which is meant, perhaps)
])
def test_no_cause_is_taken_out_of_these(text: str) -> None:
    assert cause_dropped(text) == text


def test_the_command_is_kept_as_said() -> None:
    """A spaced minus sign is no dash, and the command before the cause is not rewritten
    (review atk69: "to - 5, the door's icing" wrote +5)."""
    said = "set cold room 1 temperature setpoint to - 5, the door's icing"
    assert cause_dropped(said) == said  # (no stop: heard whole)
    assert cause_dropped("stop transfer pump 3 - it's leaking") == "stop transfer pump 3"
    assert cause_dropped("stop the screws, the feeders, they're jammed") == \
        "stop the screws, the feeders"


async def test_a_minus_is_never_lost() -> None:
    action = await routed_without_model(
        ROUTER, "set cold room 1 temperature setpoint to - 5, the door's icing")
    assert action != Action("write", {"point": "cold_sp", "value": 5})
