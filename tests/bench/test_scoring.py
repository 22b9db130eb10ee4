"""The routing benchmark's scoring follows the eval corpus's rule (shared/data/eval/README.md),
on hand-made actions and expectations (none of the corpus's commands)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action, respond
from scripts.bench.routing_score import Verdict, category, language, same_value, score

READ = {"action": "read", "point": "tank_level"}
READ_TWO = {"action": "read", "points": ["tank_level", "tank_temp"]}
WRITE_NUMBER = {"action": "write", "point": "pump_speed", "value": 1450}
WRITE_FRACTION = {"action": "write", "point": "oven_target", "value": 182.5}
WRITE_SWITCH = {"action": "write", "point": "lamp", "value": True}
RESPOND = {"action": "respond"}


def of(action: Action | None) -> dict[str, Any] | None:
    return action.to_dict() if action is not None else None


def refusal(point: str, value: Any) -> Action:
    return respond("not_allowed", refused={"name": "write",
                                           "args": {"point": point, "value": value}})


@pytest.mark.parametrize(("action", "expect", "verdict"), [
    # reads: the point id decides
    (Action("read", {"point": "tank_level"}), READ, Verdict(True)),
    (Action("read", {"points": ["tank_level"]}), READ, Verdict(True)),
    (Action("read", {"point": "tank_temp"}), READ, Verdict(False, True, "wrong point")),
    (Action("read", {"points": ["tank_level", "tank_temp"]}), READ,
     Verdict(False, True, "wrong point")),
    # a read of several points: all of them, in order
    (Action("read", {"points": ["tank_level", "tank_temp"]}), READ_TWO, Verdict(True)),
    (Action("read", {"points": ["tank_temp", "tank_level"]}), READ_TWO,
     Verdict(False, True, "wrong point")),
    (Action("read", {"point": "tank_level"}), READ_TWO, Verdict(False, True, "wrong point")),
    # writes: the point, and the value within 1e-6 or a boolean exactly
    (Action("write", {"point": "pump_speed", "value": 1450}), WRITE_NUMBER, Verdict(True)),
    (Action("write", {"point": "pump_speed", "value": 1450.0000005}), WRITE_NUMBER,
     Verdict(True)),
    (Action("write", {"point": "pump_speed", "value": 1450.00001}), WRITE_NUMBER,
     Verdict(False, True, "wrong value")),
    (Action("write", {"point": "oven_target", "value": 182.5}), WRITE_FRACTION, Verdict(True)),
    (Action("write", {"point": "oven_target", "value": 182}), WRITE_FRACTION,
     Verdict(False, True, "wrong value")),
    (Action("write", {"point": "lamp", "value": True}), WRITE_SWITCH, Verdict(True)),
    (Action("write", {"point": "lamp", "value": 1}), WRITE_SWITCH,
     Verdict(False, True, "wrong value")),
    (Action("write", {"point": "pump_speed", "value": True}), {**WRITE_NUMBER, "value": 1},
     Verdict(False, True, "wrong value")),
    (Action("write", {"point": "fan_speed", "value": 1450}), WRITE_NUMBER,
     Verdict(False, True, "wrong point")),
    (Action("write", {"point": "pump_speed"}), WRITE_NUMBER,
     Verdict(False, True, "wrong value")),
    # a refused write with the right point and value is the right write; a refusal is never sure
    (refusal("pump_speed", 1450), WRITE_NUMBER, Verdict(True, why="refused")),
    (refusal("pump_speed", 1450.0), WRITE_NUMBER, Verdict(True, why="refused")),
    (refusal("pump_speed", 1500), WRITE_NUMBER, Verdict(False, why="refused another write")),
    (refusal("fan_speed", 1450), WRITE_NUMBER, Verdict(False, why="refused another write")),
    (refusal("tank_level", 3), READ, Verdict(False, why="respond not_allowed")),
    (refusal("pump_speed", 1450), RESPOND, Verdict(True)),
    # a respond where an action was wanted is wrong, not confidently wrong
    (respond("not_understood"), READ, Verdict(False, why="respond not_understood")),
    (respond("unknown_point"), WRITE_SWITCH, Verdict(False, why="respond unknown_point")),
    (respond("greeting"), RESPOND, Verdict(True)),
    (respond("out_of_scope"), RESPOND, Verdict(True)),
    # any action where a respond was wanted, or the wrong verb, is confidently wrong
    (Action("read", {"point": "tank_level"}), RESPOND,
     Verdict(False, True, "read where respond was expected")),
    (Action("write", {"point": "lamp", "value": False}), RESPOND,
     Verdict(False, True, "write where respond was expected")),
    (Action("read", {"point": "pump_speed"}), WRITE_NUMBER,
     Verdict(False, True, "read where write was expected")),
    (Action("write", {"point": "tank_level", "value": 2}), READ,
     Verdict(False, True, "write where read was expected")),
    (Action("modbus.read_register", {"device": "plc1"}), READ,
     Verdict(False, True, "modbus.read_register where read was expected")),
    # no action at all (the router failed): wrong, not confident
    (None, READ, Verdict(False, why="no action (error)")),
    (None, RESPOND, Verdict(False, why="no action (error)")),
])
def test_the_verdict_follows_the_readme_rule(action: Action | None, expect: dict[str, Any],
                                             verdict: Verdict) -> None:
    assert score(of(action), expect) == verdict


def test_confidently_wrong_is_only_a_wrong_action() -> None:
    assert score(of(Action("read", {"point": "x"})), RESPOND).confidently_wrong
    assert not score(of(respond("not_understood")), READ).confidently_wrong
    assert not score(of(Action("read", {"point": "tank_level"})), READ).confidently_wrong


@pytest.mark.parametrize(("got", "want", "same"), [
    (1, 1.0, True), (0.1 + 0.2, 0.3, True), (-4, -4.0000009, True), (-4, -4.000002, False),
    (True, True, True), (False, 0, False), (1, True, False), (float("nan"), 1.0, False),
    (float("inf"), 1.0, False), ("auto", "auto", True), ("auto", "manual", False),
])
def test_values_compare_as_the_rule_says(got: Any, want: Any, same: bool) -> None:
    assert same_value(got, want) is same


def test_category_and_language() -> None:
    assert category(READ) == "read" and category(WRITE_SWITCH) == "write"
    assert category(RESPOND) == "respond"
    assert language("how full is the silo") == "en"
    assert language("1号水箱液位") == "zh"
    assert language("turn 泵 on") == "zh"
    assert language("set it to 20 °C") == "en"
