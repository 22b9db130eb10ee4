"""Words to a point with a value map: its names (in English and, where the map gives them, in
Chinese) are its values; the write gate lets a write through only when exactly one name is
said and it is the value — never a number, another word, or a name said with a doubt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.context import RequestContext
from hermesd.replies import choice_question
from hermesd.router import Router
from hermesd.router.write_gate import gated

MODES = {0: {"name": "off", "names": {"zh": "停机"}},
         1: {"name": "auto", "names": {"zh": "自动"}},
         2: {"name": "manual", "names": {"zh": "手动"}}}
CONFIG = validate({
    "node": {"id": "n"},
    "access": {"roles": {"viewer": {"read": True}, "operator": {"read": True, "write": True}}},
    "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "points": {
        "chiller_mode": {"name": "Chiller mode", "names": {"zh": "冷水机模式"},
                         "table": "holding", "address": 0, "writable": True, "map": MODES},
        "pump_speed": {"name": "Pump speed", "table": "holding", "address": 1, "unit": "rpm",
                       "writable": True, "min": 0, "max": 1500},
        "boiler_temp": {"name": "Boiler temperature", "table": "input", "address": 2,
                        "unit": "°C"},
        # names of several words, one inside another: `off` within `flash_off`
        "booth_mode": {"name": "Booth mode", "table": "holding", "address": 3,
                       "writable": True, "names": {"zh": "喷房模式"},
                       "map": {0: {"name": "off", "names": {"zh": "停机"}}, 1: "spray",
                               2: {"name": "flash_off", "names": {"zh": "闪干停机"}},
                               3: "cure", 4: "flash off hold"}},
    }}}}, Path("/etc/hermesd/hermesd.yaml"))
ROUTER = Router(CONFIG)
MODE = CONFIG.points["chiller_mode"]


async def _route(text: str) -> dict[str, Any]:
    routed = await ROUTER.route(RequestContext.make("control", "operator"), text)
    return routed.action.to_dict()


@pytest.mark.parametrize(("text", "value"), [
    ("set the chiller mode to auto", "auto"),
    ("chiller mode to manual please", "manual"),
    ("switch the chiller mode to off", "off"),
    ("把冷水机模式设为自动", "auto"),
    ("冷水机模式设为手动", "manual"),
])
async def test_a_named_choice_is_written(text: str, value: str) -> None:
    assert await _route(text) == {"name": "write",
                                  "args": {"point": "chiller_mode", "value": value}}


@pytest.mark.parametrize("text", [
    "set the chiller mode to 1",             # a raw value is no name
    "set the chiller mode to turbo",         # no such name
    "set the chiller mode to auto or manual",
    "set the chiller mode to auto, no wait, manual",
    "don't set the chiller mode to auto",
    "set the chiller mode to auto tomorrow",
    "should I set the chiller mode to auto?",
    "如果温度高就把冷水机模式设为自动",
])
async def test_anything_but_one_name_plainly_asked_writes_nothing(text: str) -> None:
    action = await _route(text)
    assert action["name"] != "write", (text, action)


async def test_reads_of_a_mapped_point() -> None:
    for text in ("what is the chiller mode", "冷水机模式是什么"):
        assert await _route(text) == {"name": "read", "args": {"point": "chiller_mode"}}


@pytest.mark.parametrize(("text", "value", "passes"), [
    ("set the chiller mode to auto", "auto", True),
    ("set the chiller mode to auto", "manual", False),   # the value must be the name said
    ("set the chiller mode to auto", "1", False),
    ("把冷水机模式设为自动", "auto", True),
    ("把冷水机模式设为自动", "manual", False),
    ("set the chiller mode to auto and manual", "auto", False),
    ("set the chiller mode to 2", "manual", False),      # a number names no choice
])
def test_the_write_gate_takes_the_maps_names_and_nothing_else(text: str, value: str,
                                                              passes: bool) -> None:
    assert (gated(text, MODE, value) is None) is passes


@pytest.mark.parametrize("text", ["set the chiller mode to turbo", "set the chiller mode to 1",
                                  "set the chiller mode to auto or manual",
                                  "change the chiller mode"])
async def test_a_write_that_names_no_one_choice_is_answered_with_the_choices(text: str) -> None:
    action = await _route(text)
    assert action["name"] == "respond" and action["args"]["reason"] == "not_understood"
    assert action["args"]["choices"] == ["off", "auto", "manual"]
    assert action["args"]["text"] == ("Chiller mode takes off, auto or manual; nothing was "
                                      "changed. Say one of them, e.g. “set Chiller mode to "
                                      "off”.")


def test_the_choices_are_named_in_the_language_of_the_command() -> None:
    assert choice_question(MODE, zh=True) == ("冷水机模式可设为停机、自动、手动；未做任何更改。"
                                             "请说其中一个，例如“把冷水机模式设为停机”。")


@pytest.mark.parametrize(("text", "value"), [
    ("set the booth mode to flash off", "flash_off"),   # `off` is part of the phrase said
    ("booth mode to flash-off", "flash_off"),
    ("set the booth mode to off", "off"),
    ("set the booth mode to flash off hold", "flash off hold"),
    ("把喷房模式设为闪干停机", "flash_off"),
    ("把喷房模式设为停机", "off"),
])
async def test_a_choice_said_within_a_longer_one_is_the_longer_one(text: str,
                                                                    value: str) -> None:
    assert await _route(text) == {"name": "write",
                                  "args": {"point": "booth_mode", "value": value}}
    assert gated(text, CONFIG.points["booth_mode"], value) is None


@pytest.mark.parametrize("text", [
    "turn off the booth mode flash",        # `off` and `flash_off`, not said as one phrase
    "set the booth mode off, flash",
    "set the booth mode to off or flash off",
])
async def test_choices_whose_words_do_not_make_one_phrase_stay_in_doubt(text: str) -> None:
    action = await _route(text)
    assert action["name"] != "write", (text, action)
    for value in ("off", "flash_off"):
        assert gated(text, CONFIG.points["booth_mode"], value) is not None, (text, value)


@pytest.mark.parametrize("text", [
    "set the booth mode from flash to off",   # asks for off: "flash off" is not said
    "booth mode flash to off",
    "set the booth mode flash, off",          # a comma parts them
    "set the booth mode to off flash off",    # off said on its own too
    "set the booth mode to flash off hold off",
    "set the booth mode to flash off, hold",
    "把喷房模式设为闪干，停机",                # flash, then off: not 闪干停机 said as one
    "喷房模式从闪干改为停机",
])
async def test_a_longer_choice_is_meant_only_when_its_words_are_said_together(
        text: str) -> None:
    """The words of a longer choice, with stop words or a comma between them or with a shorter
    choice said apart as well, do not name only the longer one: before, "from flash to off"
    wrote flash_off (stop words were dropped before the phrase was looked for)."""
    action = await _route(text)
    assert action["name"] != "write", (text, action)
    for value in ("off", "flash_off", "flash off hold"):
        assert gated(text, CONFIG.points["booth_mode"], value) is not None, (text, value)


FLASH = validate({
    "node": {"id": "n"},
    "access": {"roles": {"viewer": {"read": True}, "operator": {"read": True, "write": True}}},
    "devices": {"plc": {"driver": "modbus", "host": "127.0.0.1", "points": {
        # a choice that begins with a word of the point's own name
        "booth_flash": {"name": "Booth flash", "table": "holding", "address": 0,
                        "writable": True, "map": {0: "off", 1: "on", 2: "flash off"}},
    }}}}, Path("/etc/hermesd/hermesd.yaml"))


@pytest.mark.parametrize(("text", "value"), [
    ("turn the booth flash off", "off"),     # the point's name, then off: not `flash off`
    ("set booth flash off", "off"),
    ("set the booth flash to off", "off"),
    ("set the booth flash to flash off", "flash off"),
    ("set the flash to flash off", None),     # the name not said in full: which flash is it?
    ("turn the flash off", None),
])
async def test_a_word_that_names_the_point_is_no_word_of_a_choice(
        text: str, value: str | None) -> None:
    """Before, "turn the booth flash off" wrote `flash off`: the point's name and the choice
    `off` read as the longer choice's phrase."""
    routed = await Router(FLASH).route(RequestContext.make("control", "operator"), text)
    action = routed.action.to_dict()
    point = FLASH.points["booth_flash"]
    if value is None:
        assert action["name"] != "write", (text, action)
        for choice in ("off", "flash off"):
            assert gated(text, point, choice) is not None, (text, choice)
    else:
        assert action == {"name": "write", "args": {"point": "booth_flash", "value": value}}
        assert gated(text, point, value) is None
