"""A choice of a mapped point named by what it means rather than its own word: "put the filler
in CIP" is its `cleaning`, 灌装机切换到手动 its `manual`, where the map has English names only.
One choice meant, and it is the value written; never two, nor a choice the point lacks."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.choices import named_choices
from hermesd.router.normalize import tokens
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, modbus_plant, routed

CONFIG = modbus_plant({
        "filler_mode": {"name": "Filler mode", "table": "holding", "address": 0,
                        "writable": True,
                        "map": {0: "off", 1: "production", 2: "cleaning", 3: "manual"}},
        "filler_output": {"name": "Filler output", "table": "input", "address": 1,
                          "unit": "bottles/h", "type": "uint16"},
        "filler_running": {"name": "Filler running", "table": "discrete", "address": 0},
})
ROUTER = Router(CONFIG)
MODE = CONFIG.points["filler_mode"]


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "operator")


@pytest.mark.parametrize(("text", "value"), [
    ("灌装机切换到清洗模式", "cleaning"),  # 清洗: cleaning in place, the CIP
    ("put the filler in CIP", "cleaning"),
    ("灌装机切到手动", "manual"),
    ("put the filler in hand", "manual"),
    ("filler mode to manual", "manual"),  # its own word, as before
])
async def test_a_choice_meant_is_written(text: str, value: str) -> None:
    assert await _route(text) == {"name": "write",
                                  "args": {"point": "filler_mode", "value": value}}


@pytest.mark.parametrize("text", [
    "put the filler in CIP, then hand",  # two choices meant
    "灌装机切换到自动",  # auto: no choice of this filler
    "is the filler in CIP?",  # asked, not set
    "don't put the filler in CIP",
])
async def test_no_write_unless_one_choice_is_plainly_meant(text: str) -> None:
    action = await _route(text)
    assert action["name"] != "write", (text, action)


@pytest.mark.parametrize(("text", "named"), [
    ("put the filler in CIP", {"cleaning"}),
    ("灌装机切到手动", {"manual"}),
    ("put the filler in CIP, then hand", {"cleaning", "manual"}),
    ("filler to auto", set()),
    ("set the filler to cleaning", {"cleaning"}),  # words first: the meaning is not asked
])
def test_which_choices_a_command_names(text: str, named: set[str]) -> None:
    assert named_choices(MODE, tokens(text), text) == named


@pytest.mark.parametrize(("text", "value", "passes"), [
    ("put the filler in CIP", "cleaning", True),
    ("put the filler in CIP", "manual", False),  # the value must be the choice meant
    ("put the filler in CIP", "production", False),
    ("灌装机切到手动", "manual", True),
    ("灌装机切到手动", "off", False),
])
def test_the_write_gate_takes_only_the_choice_meant(text: str, value: str,
                                                    passes: bool) -> None:
    assert (gated(text, MODE, value, ROUTER.rules.profiles) is None) is passes


MAX_MODE = modbus_plant({
        "vent_mode": {"name": "House 2 ventilation mode", "table": "holding", "address": 0,
                      "writable": True,
                      "map": {0: "off", 1: "minimum", 2: "transition", 3: "tunnel"}},
})


@pytest.mark.parametrize(("text", "value"), [("house 2 vent mode minimum", "minimum"),
                                             ("set house 2 ventilation mode to minimum",
                                              "minimum")])
async def test_a_choice_named_like_a_bound_is_a_choice(text: str, value: str) -> None:
    assert await routed(Router(MAX_MODE), text) == {
        "name": "write", "args": {"point": "vent_mode", "value": value}}


async def test_a_bound_said_of_a_choice_is_still_no_write() -> None:
    action = await routed(Router(MAX_MODE), "house 2 vent mode to at least transition")
    assert action["name"] != "write"


@pytest.mark.parametrize(("choices", "text", "unwanted"), [
    (("off", "heat", "cool", "auto", "setback"), "set zone 1 thermostat mode automatic",
     "setback"),                        # "set" is no cut-short "setback"
    (("thermal", "catalytic", "standby"), "put the oxidizer on hold", "thermal"),  # nor "the"
])
def test_a_word_of_the_sentence_is_no_choice_cut_short(choices: tuple[str, ...], text: str,
                                                       unwanted: str) -> None:
    config = exec_plant("cut", {"m": {"name": "Mode", "type": "int", "writable": True,
                                      "map": dict(enumerate(choices))}})
    assert unwanted not in named_choices(config.points["m"], tokens(text), text)
