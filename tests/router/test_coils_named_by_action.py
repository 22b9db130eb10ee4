"""Coils named by what ON does, for any action (review atk9 H1/H2 as a class, not a word list),
on a bottling hall and a canal lock made up here: "Heater 2 trip", "Gate 4 lockout", "Press 2
retract", "Filler isolate", "Conveyor 3 hold", "Pump 7 inhibit run", "Damper 2 fail-safe close".

- on/off said of the thing alone ("turn on heater 2", "start pump 7", 打开灌装机) writes nothing,
  whichever stage proposes it: the answer names the switch and its action;
- the action itself sets the coil ("trip heater 2"), a known opposite clears it ("extend press
  2", "resume conveyor 3"), and on/off said with the action ("heater 2 trip off", 关闭4号闸门锁定)
  is written as said;
- plain coils ("Pump 6", "Fan 4 run", "Chiller enable", "Capper start") are written as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.rules import Analysis
from hermesd.router.write_gate import doubt
from tests.support.plants import modbus_plant, routed

_COILS = [
    ("heater2_trip", "Heater 2 trip", "2号加热器跳闸"),
    ("gate4_lockout", "Gate 4 lockout", "4号闸门锁定"),
    ("press2_retract", "Press 2 retract", None),
    ("filler_isolate", "Filler isolate", "灌装机隔离"),
    ("conveyor3_hold", "Conveyor 3 hold", "3号输送机保持"),
    ("pump7_inhibit", "Pump 7 inhibit run", None),
    ("damper2_fs_close", "Damper 2 fail-safe close", None),
    ("pump6", "Pump 6", "6号泵"),
    ("fan4_run", "Fan 4 run", None),
    ("chiller_enable", "Chiller enable", None),
    ("capper_start", "Capper start", None),
]
CONFIG = modbus_plant({
    **{pid: {"name": name, **({"names": {"zh": zh}} if zh else {}), "table": "coil",
             "address": n, "writable": True}
       for n, (pid, name, zh) in enumerate(_COILS)},
})
ROUTER = Router(CONFIG)
POINTS = CONFIG.points


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "engineer")


@pytest.mark.parametrize(("text", "point", "action"), [
    ("turn on heater 2", "heater2_trip", "trip"),
    ("switch heater 2 off", "heater2_trip", "trip"),
    ("open gate 4", "gate4_lockout", "lockout"),
    ("close gate 4", "gate4_lockout", "lockout"),
    ("start press 2", "press2_retract", "retract"),
    ("enable the filler", "filler_isolate", None),
    ("bring the filler back online", "filler_isolate", "isolate"),
    ("start pump 7", "pump7_inhibit", None),
    ("close damper 2", "damper2_fs_close", None),
    ("open damper 2", "damper2_fs_close", None),
    ("start conveyor 3", "conveyor3_hold", None),
    ("打开2号加热器", "heater2_trip", "跳闸"),
    ("打开灌装机", "filler_isolate", "隔离"),
    ("启用灌装机", "filler_isolate", None),
    ("关闭4号闸门", "gate4_lockout", "锁定"),
])
async def test_on_or_off_of_the_thing_writes_no_coil_named_by_an_action(
        text: str, point: str, action: str | None) -> None:
    answer = await _route(text)
    assert answer["name"] != "write", answer
    if action is not None:  # the answer names the switch and what it does
        assert answer["args"].get("value_problem") == "sense", answer
        assert answer["args"]["unreadable"] == [action], answer
        assert POINTS[point].label("zh" if action[0] > "\u4e00" else "en") in \
            answer["args"]["text"], answer
    for value in (True, False):  # nor may the model write it, either way
        assert doubt(text, POINTS[point], value, ROUTER.rules.profiles) is not None, \
            (text, value)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("trip heater 2", "heater2_trip", True),
    ("retract press 2", "press2_retract", True),
    ("isolate the filler", "filler_isolate", True),
    ("hold conveyor 3", "conveyor3_hold", True),
    ("resume conveyor 3", "conveyor3_hold", False),
    ("inhibit pump 7", "pump7_inhibit", True),
    ("enable pump 7", "pump7_inhibit", False),
    ("turn on the heater 2 trip", "heater2_trip", True),
    ("gate 4 lockout off", "gate4_lockout", False),
    ("set gate 4 lockout to on", "gate4_lockout", True),
    ("switch off the pump 7 inhibit run", "pump7_inhibit", False),
    ("打开2号加热器跳闸", "heater2_trip", True),
    ("关闭4号闸门锁定", "gate4_lockout", False),
])
async def test_the_action_or_its_opposite_says_the_value(text: str, point: str,
                                                         value: bool) -> None:
    assert await _route(text) == {"name": "write", "args": {"point": point, "value": value}}
    assert doubt(text, POINTS[point], value, ROUTER.rules.profiles) is None
    assert doubt(text, POINTS[point], not value, ROUTER.rules.profiles) is not None


@pytest.mark.parametrize(("text", "point", "value"), [
    ("extend press 2", "press2_retract", False),
    ("de-isolate the filler", "filler_isolate", False),
    ("normalise the filler", "filler_isolate", False),
    ("解除灌装机隔离", "filler_isolate", False),
    ("set heater 2 trip to 1", "heater2_trip", True),
    ("set heater 2 trip to false", "heater2_trip", False),
])
def test_the_model_may_write_what_the_words_say(text: str, point: str, value: bool) -> None:
    assert doubt(text, POINTS[point], value, ROUTER.rules.profiles) is None
    assert doubt(text, POINTS[point], not value, ROUTER.rules.profiles) is not None


@pytest.mark.parametrize(("text", "point"), [
    ("set heater 2 to 1", "heater2_trip"),
    ("filler true", "filler_isolate"),
    ("2号加热器设为开", "heater2_trip"),
])
def test_a_value_said_to_the_thing_is_none_of_the_coil(text: str, point: str) -> None:
    for value in (True, False):
        found = doubt(text, POINTS[point], value, ROUTER.rules.profiles)
        assert found is not None and found.problem == "sense", (text, value, found)


class _Proposing:
    """A model stage that proposes `proposal` whatever it is asked."""

    def __init__(self, proposal: Action) -> None:
        self.proposal = proposal

    async def __call__(self, ctx: RequestContext, text: str, analysis: Analysis) -> Routed:
        return Routed(self.proposal, "llm")


@pytest.mark.parametrize(("text", "point", "value"), [
    ("turn on heater 2", "heater2_trip", True),
    ("heater two on please", "heater2_trip", True),
    ("get the filler going", "filler_isolate", True),
    ("start pump 7", "pump7_inhibit", True),
    ("打开灌装机", "filler_isolate", True),
    ("关闭2号加热器", "heater2_trip", False),
])
async def test_a_model_proposing_the_write_is_refused(text: str, point: str, value: bool) -> None:
    router = Router(CONFIG)
    router.model = _Proposing(Action("write", {"point": point, "value": value}))
    routed_ = await router.route(RequestContext.make("control", "engineer"), text)
    assert routed_.action.name != "write", routed_.action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("turn on pump 6", "pump6", True),
    ("stop pump 6", "pump6", False),
    ("打开6号泵", "pump6", True),
    ("start fan 4", "fan4_run", True),
    ("switch fan 4 off", "fan4_run", False),
    ("enable the chiller", "chiller_enable", True),
    ("start the capper", "capper_start", True),
    ("turn off the capper", "capper_start", False),
])
async def test_plain_coils_are_written_as_before(text: str, point: str, value: bool) -> None:
    assert await _route(text) == {"name": "write", "args": {"point": point, "value": value}}
    assert doubt(text, POINTS[point], value, ROUTER.rules.profiles) is None
