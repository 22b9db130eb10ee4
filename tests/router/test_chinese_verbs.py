"""Chinese verbs the rules know (升起 raise, 降下 lower, 继续 resume, 暂停 pause, 释放 release,
隔离 isolate): a command with one is no read of the point it names, and no read of a point
whose Chinese name shares a character with it (review atk9, H9: 升起升降台, "raise the lift
table", read the hoist brake release, by the 起升 of 升起升降台)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

POINTS: dict[str, Any] = {
    "gate_lower": {"name": "Sluice gate lower", "type": "bool", "writable": True,
                   "names": {"zh": "闸门下降"}},
    "hoist_release": {"name": "Gate hoist brake release", "type": "bool", "writable": True,
                      "names": {"zh": "起升制动器释放"}},
    "belt_pause": {"name": "Screen belt pause", "type": "bool", "writable": True,
                   "names": {"zh": "格栅皮带暂停"}},
    "gate_position": {"name": "Sluice gate position", "unit": "%", "names": {"zh": "闸门开度"}},
}
ROUTER = Router(exec_plant("sluice", POINTS))


@pytest.mark.parametrize("text", ["升起闸门", "降下闸门", "释放起升制动器", "继续格栅皮带",
                                  "暂停格栅皮带"])
async def test_a_chinese_command_is_no_read(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name != "read", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("继续格栅皮带", "belt_pause", False),
    ("暂停格栅皮带", "belt_pause", True),
])
async def test_pause_and_resume_set_a_pause_switch_its_way(text: str, point: str,
                                                           value: bool) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args.get("point"), action.args.get("value")) == \
        ("write", point, value)


@pytest.mark.parametrize(("text", "point"), [
    ("闸门下降了吗", "gate_lower"), ("格栅皮带暂停了吗", "belt_pause"), ("闸门开度多少", "gate_position"),
])
async def test_questions_about_those_states_are_still_reads(text: str, point: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args.get("point")) == ("read", point)
