"""Hostile review of rv22 (f016d82..ee8df41..243518e): commands the new code gets wrong.

Each test says what should happen; they fail on the branch as reviewed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from tests.support.plants import NoWorker, modbus_plant, routed


def _coil(name: str, address: int, **extra: Any) -> dict[str, Any]:
    return {"name": name, "table": "coil", "address": address, "writable": True, **extra}


async def _route(router: Router, text: str) -> dict[str, Any]:
    return await routed(router, text, "operator")


# -- feature 1: a state word anywhere in a name, as an adjective, inverts open/close -------------

VALVES = modbus_plant({
    "fuel_sov": _coil("Fuel shut-off valve", 0),
    "cl_valve": _coil("Closed loop cooling valve", 1),
    "drain": _coil("Drain valve", 2, aliases=["normally closed drain"]),
})
VALVE_ROUTER = Router(VALVES)


async def test_open_a_shut_off_valve_is_not_false() -> None:
    # "shut" in "shut-off valve" names the kind of valve, not a state the coil reports; before
    # rv22 this wrote True. Now "open the fuel shut-off valve" writes False: the valve is
    # commanded SHUT when the operator asked to open it (inverted write)
    answer = await _route(VALVE_ROUTER, "open the fuel shut-off valve")
    assert answer != {"name": "write", "args": {"point": "fuel_sov", "value": False}}, answer


async def test_open_the_closed_loop_valve_is_not_false() -> None:
    # "closed loop" is a kind of cooling circuit; "open the closed loop cooling valve" now
    # writes False (close), "close ..." writes True (open)
    answer = await _route(VALVE_ROUTER, "open the closed loop cooling valve")
    assert answer != {"name": "write", "args": {"point": "cl_valve", "value": False}}, answer
    answer = await _route(VALVE_ROUTER, "close the closed loop cooling valve")
    assert answer != {"name": "write", "args": {"point": "cl_valve", "value": True}}, answer


async def test_an_alias_saying_normally_closed_does_not_invert_the_valve() -> None:
    # an alias "normally closed drain" (how the valve fails) makes "open the drain valve" -
    # which does not even say "closed" - write False
    answer = await _route(VALVE_ROUTER, "open the drain valve")
    assert answer == {"name": "write", "args": {"point": "drain", "value": True}}, answer


# -- feature 1 + 2: "run" is an ON word but not the opposite of "stopped" ------------------------

STATES = modbus_plant({
    "feeder_stopped": _coil("Feeder stopped", 0),
    "dosing_disabled": _coil("Dosing disabled", 1),
    "lane1_closed": _coil("Lane 1 closed signal", 2),
})
STATE_ROUTER = Router(STATES)


async def test_run_the_feeder_does_not_set_feeder_stopped() -> None:
    # new in rv22: "run" is an ON word, and NAMED_STATES["stopped"] knows only start/restart as
    # its opposite, so "run the feeder" writes Feeder stopped = True: it STOPS the feeder
    answer = await _route(STATE_ROUTER, "run the feeder")
    assert answer != {"name": "write", "args": {"point": "feeder_stopped", "value": True}}, answer


async def test_on_off_of_the_thing_is_not_the_switch_named_by_its_state() -> None:
    # (pre-existing, left by the feature) on/off said of the THING, with the state word not
    # said, is taken as the switch's own value: "turn on the feeder" writes Feeder stopped =
    # True (stops it), "switch off dosing" writes Dosing disabled = False (enables it), "turn on
    # lane 1" closes the lane. Only with the state word said ("switch off the lane 1 closed
    # signal") do on/off plainly say the switch itself; otherwise ask.
    for text, point, wrong in (("turn on the feeder", "feeder_stopped", True),
                               ("switch off dosing", "dosing_disabled", False),
                               ("turn on lane 1", "lane1_closed", True)):
        answer = await _route(STATE_ROUTER, text)
        assert answer != {"name": "write", "args": {"point": point, "value": wrong}}, (text, answer)


# -- feature 4: told_apart counts a word of one sibling's DESCRIPTION ---------------------------

PUMPS = modbus_plant({
    "hp_pump1_sp": {"name": "HP pump 1 speed setpoint", "unit": "rpm", "table": "holding",
                    "address": 0, "type": "float32", "writable": True, "min": 0, "max": 1500,
                    "description": "Set from the DCS via drive A"},
    "hp_pump2_sp": {"name": "HP pump 2 speed setpoint", "unit": "rpm", "table": "holding",
                    "address": 2, "type": "float32", "writable": True, "min": 0, "max": 1500},
})


async def test_a_description_word_does_not_say_which_sibling() -> None:
    # every pump has a drive; only pump 1's description happens to say so. Before rv22 this was
    # refused ("which"); now it writes pump 1 - a guess, a write to a pump nobody named
    answer = await _route(Router(PUMPS), "set the HP pump drive speed to 1300")
    assert answer["name"] != "write", answer


# -- feature 8: a focused offer drops the refusal for commands the point cannot do ---------------

LINE = modbus_plant({
    "shear_misfeed": {"name": "Shear misfeed alarm", "table": "discrete", "address": 0},
    "shear_speed": {"name": "Shear speed", "unit": "m/min", "table": "input", "address": 0,
                    "type": "float32"},
})


def _offered(config: Any, text: str) -> list[str]:
    router = Router(config)
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    a = replace(a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)
    return [c.line for c in ModelStage(config, NoWorker()).offer(a)]


def test_reset_or_acknowledge_an_alarm_keeps_a_refusal_on_offer() -> None:
    # "reset the misfeed", "acknowledge misfeed" ask for an action the plant has no point for;
    # the new focused offer leaves the model only "read shear_misfeed", so the operator's reset
    # is answered with a read (before rv22 a refusal was on offer)
    for text in ("reset the misfeed", "acknowledge misfeed", "mute the misfeed"):
        offered = _offered(LINE, text)
        assert any(o.startswith("respond") for o in offered), (text, offered)
