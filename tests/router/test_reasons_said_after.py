"""A reason said after a command ("stop dewatering pump 2, it's sucking air") names no point and
asks nothing more: the command is placed without it (blind batch 68: thirteen of its writes
were refused for the words of their reasons). A clause that could change what is asked is
never dropped: a number, a negation, a correction, a condition, another command, a question,
an override."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.reasons import reason_dropped
from tests.support.plants import exec_plant, routed_without_model

CONFIG = exec_plant("reasons", {
    "pump2": {"name": "Dewatering pump 2", "type": "bool", "writable": True},
    "pump3": {"name": "Dewatering pump 3", "type": "bool", "writable": True},
    "engine_sp": {"name": "Engine power setpoint", "unit": "kW", "writable": True,
                  "min": 0, "max": 500},
    "dig_sp": {"name": "Digester 1 temperature setpoint", "unit": "°C", "writable": True,
               "min": 30, "max": 60},
    "bypass": {"name": "Sump drain interlock bypass", "type": "bool", "writable": True},
    "paste_temp": {"name": "Malaxer 1 paste temperature", "unit": "°C"},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "name", "args"), [
    ("stop dewatering pump 2, it's sucking air", "write", {"point": "pump2", "value": False}),
    ("turn the engine power setpoint down to three hundred and twenty-five kW, the gas bag's "
     "emptying", "write", {"point": "engine_sp", "value": 325}),
    ("digester 1 temperature setpoint 55, we're going thermophilic", "write",
     {"point": "dig_sp", "value": 55}),
    ("engine power setpoint 400 kW; the DNO asked", "write",
     {"point": "engine_sp", "value": 400}),
    ("start dewatering pump 3 - because the sump is filling quick", "write",
     {"point": "pump3", "value": True}),
    ("what's the malaxer 1 paste temperature, the operator wants it", "read",
     {"point": "paste_temp"}),
])
async def test_the_command_is_placed_without_its_reason(text: str, name: str,
                                                        args: dict[str, object]) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == (name, args)


@pytest.mark.parametrize("text", [
    "stop dewatering pump 2, pump 3 is running",  # a number: perhaps the one meant
    "stop dewatering pump 2, no wait",  # a correction
    "stop dewatering pump 2, if the sump is low",  # a condition
    "stop dewatering pump 2, it's not that one",  # a negation
    "stop dewatering pump 2, is that ok",  # a question
    "stop dewatering pump 2, and pump 3",  # another thing
    "bypass the sump drain interlock, we need to keep going even with the level high",
    "engine power setpoint 400 kW, you know it's late",
])
def test_what_may_change_the_command_is_not_dropped(text: str) -> None:
    assert reason_dropped(text) == text


async def test_an_override_keeps_the_command_refused() -> None:
    action = await routed_without_model(
        ROUTER, "bypass the sump drain interlock, we need to keep making product even with "
                "the level high")
    assert action.name == "respond", action


def test_a_question_after_what_it_is_of_is_no_reason() -> None:
    assert reason_dropped("malaxer 1 - how warm is the paste") == \
        "malaxer 1 - how warm is the paste"
    assert reason_dropped("set holding register 40011 on plc1 to 1200 as a float, as an int") \
        == "set holding register 40011 on plc1 to 1200 as a float, as an int"
