"""Hostile review of rv22 (f016d82..ee8df41..243518e): commands the router got wrong as
reviewed (ten of them made by that round's changes, three older), kept as regressions; each
test says what should happen. The comments tell what the code under review did."""

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


async def test_shut_the_closed_loop_pump_does_not_start_it() -> None:
    # "closed" of "Closed loop pump" makes "shut" the verb of its state: "shut the closed loop
    # pump" now writes True (runs the pump); before rv22 it wrote False
    plant = modbus_plant({"cl_pump": _coil("Closed loop pump", 0)})
    answer = await _route(Router(plant), "shut the closed loop pump")
    assert answer != {"name": "write", "args": {"point": "cl_pump", "value": True}}, answer


async def test_a_device_word_does_not_say_which_sibling() -> None:
    # pump 1 is served by the device "drive_vfd", pump 2 by "plc": wiring names, not the
    # operator's. "set the pump drive speed to 50" now writes pump 1 and "set the pump speed on
    # the plc to 50" pump 2; before rv22 both asked which pump
    from pathlib import Path

    from hermesd.config.loader import validate
    from tests.support.plants import READ_WRITE

    def speed(name: str) -> dict[str, Any]:
        return {"name": name, "unit": "%", "table": "holding", "address": 0, "type": "float32",
                "writable": True, "min": 0, "max": 100}

    plant = validate({"node": {"id": "n"}, "access": {"roles": READ_WRITE}, "devices": {
        "drive_vfd": {"driver": "modbus", "host": "127.0.0.1", "port": 502,
                      "points": {"pump1_speed": speed("Pump 1 speed")}},
        "plc": {"driver": "modbus", "host": "127.0.0.1", "port": 503,
                "points": {"pump2_speed": speed("Pump 2 speed")}}}},
        Path("/etc/hermesd/hermesd.yaml"))
    router = Router(plant)
    for text in ("set the pump drive speed to 50", "set pump vfd to 50%"):
        answer = await _route(router, text)
        assert answer["name"] != "write", (text, answer)


async def test_got_does_not_turn_a_report_into_a_write() -> None:
    # "got" is now a filler, so "I got pump 2 off" (a report of what was done) becomes
    # "I pump 2 off" and writes False; before rv22 it was not understood
    plant = modbus_plant({"p1": _coil("Pump 1", 0), "p2": _coil("Pump 2", 1)})
    answer = await _route(Router(plant), "I got pump 2 off")
    assert answer["name"] != "write", answer


def test_a_level_switch_answers_is_the_level_high() -> None:
    # lesser (a refusal where a read was right): the new "amount asked of an on/off point"
    # refusal ignores that the yes/no question is exactly what the switch says; before rv22
    # both were reads
    from tests.support.plants import model_read_checked
    plant = modbus_plant({
        "t2_hi": {"name": "Tank 2 high alarm", "table": "discrete", "address": 0},
        "sump_float": {"name": "Sump float switch", "table": "discrete", "address": 1},
        "t2_temp": {"name": "Tank 2 temperature", "unit": "°C", "table": "input", "address": 0,
                    "type": "float32"}})
    router = Router(plant)
    assert model_read_checked(router, plant, "is the tank 2 level high", "t2_hi").name == "read"
    assert model_read_checked(router, plant, "is the sump level high",
                              "sump_float").name == "read"


# -- pre-existing (not made by rv22, found while reviewing it) -----------------------------------

async def test_start_the_conveyor_does_not_press_its_stop_button() -> None:
    # pre-existing, same family as feature 1: a switch named by the action it does ("stop
    # button") - "start the conveyor" writes the STOP button True, "stop the conveyor" writes
    # it False
    plant = modbus_plant({"stopbtn": _coil("Conveyor stop button", 0)})
    answer = await _route(Router(plant), "start the conveyor")
    assert answer != {"name": "write", "args": {"point": "stopbtn", "value": True}}, answer


async def test_the_article_a_is_not_pump_a() -> None:
    # pre-existing: "set a pump speed to 50" writes Pump A (the article read as the letter)
    plant = modbus_plant({
        "pa": {"name": "Pump A speed", "unit": "%", "table": "holding", "address": 0,
               "type": "float32", "writable": True, "min": 0, "max": 100},
        "pb": {"name": "Pump B speed", "unit": "%", "table": "holding", "address": 2,
               "type": "float32", "writable": True, "min": 0, "max": 100}})
    answer = await _route(Router(plant), "set a pump speed to 50")
    assert answer["name"] != "write", answer
