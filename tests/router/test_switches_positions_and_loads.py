"""Three ways operators speak that the rules had taken for something else, on a combined heat
and power plant made up here:

- an on/off word followed by where the thing is ("jacket pump off on engine 1") switches it;
- "how far open" asks how much, which an open/closed point cannot answer: its position does;
- the "load" of a generating set is its power, in kW or MW.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import modbus_plant, routed

CONFIG = modbus_plant({
        "eng1_power": {"name": "Engine 1 electrical output", "unit": "MW", "table": "input",
                       "address": 0, "type": "float32"},
        "eng1_power_sp": {"name": "Engine 1 output setpoint", "unit": "MW", "table": "holding",
                          "address": 0, "type": "float32", "writable": True, "min": 0,
                          "max": 2.5},
        "eng1_jacket_pump": {"name": "Engine 1 jacket water pump", "table": "coil",
                             "address": 0, "writable": True},
        "flue_damper": {"name": "Flue damper", "table": "coil", "address": 1,
                        "writable": True},
        "flue_damper_pos": {"name": "Flue damper position", "unit": "%", "table": "input",
                            "address": 2, "type": "float32"},
        "hall_temp": {"name": "Engine hall temperature", "unit": "°C", "table": "input",
                      "address": 4, "type": "float32"},
})
ROUTER = Router(CONFIG)


async def _route(text: str) -> dict[str, Any]:
    return await routed(ROUTER, text, "operator")


@pytest.mark.parametrize(("text", "value"), [
    ("jacket water pump off on engine 1", False),
    ("jacket water pump on in engine 1", True),
    ("engine 1 jacket water pump off", False),  # as before
])
async def test_a_switch_followed_by_where_is_a_write(text: str, value: bool) -> None:
    assert await _route(text) == {"name": "write",
                                  "args": {"point": "eng1_jacket_pump", "value": value}}


@pytest.mark.parametrize("text", [
    "jacket water pump off on engine 1 at 5",  # a time: not now
    "is the jacket water pump off on engine 1",  # asked
])
async def test_no_switch_but_a_plain_one(text: str) -> None:
    assert (await _route(text))["name"] != "write"


@pytest.mark.parametrize("text", ["how far open is the flue damper",
                                  "how wide open is the flue damper",
                                  "how open is the flue damper"])
async def test_how_far_open_is_the_position(text: str) -> None:
    assert await _route(text) == {"name": "read", "args": {"point": "flue_damper_pos"}}


async def test_whether_it_is_open_is_the_switch() -> None:
    assert await _route("is the flue damper open") == {
        "name": "read", "args": {"point": "flue_damper"}}


async def test_the_load_of_a_generating_set_is_its_power() -> None:
    assert await _route("set engine 1 load to two megawatts") == {
        "name": "write", "args": {"point": "eng1_power_sp", "value": 2}}
    # a read of it is the model's to choose between the output and its setpoint; both fit
    a = ROUTER.rules.analyse("what's the load on engine 1")
    assert [f.point for f in ROUTER.semantic.judge(a).fits[:2]] == ["eng1_power",
                                                                    "eng1_power_sp"]


async def test_kick_on_switches_on() -> None:
    assert await _route("kick on the jacket water pump on engine 1") == {
        "name": "write", "args": {"point": "eng1_jacket_pump", "value": True}}


async def test_kick_off_is_no_value() -> None:
    """ "kick off" is switched off (a pump kicks off) or begun (a meeting is kicked off): blind
    batch 23's "kick off the auto doff" asked to start it. Neither is written."""
    assert (await _route("kick off engine 1 jacket water pump"))["name"] != "write"


async def test_hold_off_on_doing_it_is_a_wait() -> None:
    assert (await _route("hold off on starting the jacket water pump on engine 1"))["name"] \
        != "write"


GAS = modbus_plant({
        "gas_sp": {"name": "Gas flow setpoint", "unit": "Nm³/h", "table": "holding",
                   "address": 0, "type": "float32", "writable": True, "min": 0, "max": 3000},
})


@pytest.mark.parametrize(("text", "written"), [
    ("gas flow setpoint to 1800 Nm3/h", True),  # its own unit, not 1800 and 3
    ("gas flow setpoint to 1800 Nm³/h", True),
    ("gas flow setpoint to 1800 m3/h", False),  # cubic metres at another state: asked back
])
async def test_normal_cubic_metres_are_a_unit(text: str, written: bool) -> None:
    action = await routed(Router(GAS), text)
    assert (action == {"name": "write", "args": {"point": "gas_sp", "value": 1800}}) is written


async def test_an_on_off_word_asked_is_a_read() -> None:
    assert await _route("flue damper open?") == {"name": "read",
                                                   "args": {"point": "flue_damper"}}
    assert await _route("engine 1 jacket water pump on?") == {
        "name": "read", "args": {"point": "eng1_jacket_pump"}}


@pytest.mark.parametrize("text", ["oil pressure on engine 1",  # no point has an oil pressure
                                  "how thick is the flue damper"])
async def test_a_quantity_no_point_has_is_answered_so(text: str) -> None:
    assert (await _route(text))["args"].get("reason") == "unknown_point"


async def test_a_request_asked_is_still_a_request() -> None:
    assert await _route("can you turn the flue damper on?") == {
        "name": "write", "args": {"point": "flue_damper", "value": True}}


SPRAY = modbus_plant({
        "spray": {"name": "Coating pan 1 spray rate", "unit": "g/min", "table": "holding",
                  "address": 0, "type": "float32", "writable": True, "min": 0, "max": 400},
})


@pytest.mark.parametrize(("text", "written"), [
    ("spray rate 180 g/min on pan 1", True),  # its own unit, as the config spells it
    ("spray rate 180 g on pan 1", False),  # grams are no rate
    ("spray rate 180 kg/min on pan 1", False),
])
async def test_a_unit_the_vocabulary_lacks_is_the_points_own(text: str, written: bool) -> None:
    action = await routed(Router(SPRAY), text)
    assert (action == {"name": "write", "args": {"point": "spray", "value": 180}}) is written


@pytest.mark.parametrize("text", ["is the flue damper closed", "is engine 1 jacket water pump stopped",
                                  "is engine 1 jacket water pump spinning"])
async def test_a_state_asked_of_an_on_off_point_is_its_read(text: str) -> None:
    assert (await _route(text))["name"] == "read"


@pytest.mark.parametrize("text", ["jacket water pump on at start-up on engine 1",
                                  "engine 1 jacket water pump off on stop",
                                  "engine 1 jacket water pump on at restart"])
async def test_a_switch_on_an_event_is_a_condition(text: str) -> None:
    action = await _route(text)
    assert action["name"] != "write" and action["args"].get("value_problem") in ("when", None), \
        action
