"""A hostile review of the router changes of 2 December (choices named in meaning, deletion
words a plant names things with, on/off followed by a place, points named alike but for their
numbers): inputs where they wrote what nobody asked for, or read what nobody asked.

Each plant is made up here. Where a model is in play it is a stand-in that proposes the write
under test for whatever it is handed; its proposal goes through the real model-stage check and
the write gate, as in the daemon. None of these commands may reach a device as a write.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import Analysis
from tests.support.plants import NoWorker, modbus_plant


class CheckedModel:
    """Stands in for the model: proposes `proposal` for every command, and the real model
    stage checks it, as it checks any model's answer."""

    def __init__(self, config: Config, proposal: Action) -> None:
        self.stage = ModelStage(config, NoWorker())
        self.proposal = proposal

    async def __call__(self, ctx: RequestContext, text: str, a: Analysis) -> Routed:
        return Routed(self.stage.check(a, self.proposal), "llm")


def _route(config: Config, text: str, proposal: Action | None = None) -> dict[str, Any]:
    router = Router(config)
    if proposal is not None:
        router.model = CheckedModel(config, proposal)
    routed = asyncio.run(router.route(RequestContext.make("control", "operator"), text))
    return routed.action.to_dict()


def _write(point: str, value: Any) -> Action:
    return Action("write", {"point": point, "value": value})


def _mode(name: str, address: int) -> dict[str, Any]:
    return {"name": name, "table": "holding", "address": address, "writable": True,
            "map": {0: "off", 1: "production", 2: "cleaning", 3: "manual"}}


LINE = modbus_plant({"filler_mode": _mode("Filler mode", 0), "capper_mode": _mode("Capper mode", 1)})
FILLER = modbus_plant({
    "filler_mode": _mode("Filler mode", 0),
    "filler_output": {"name": "Filler output", "table": "input", "address": 1,
                      "unit": "bottles/h", "type": "uint16"},
})


# -- a choice named in meaning names no point ---------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("put it in CIP", "cleaning"),
    ("put it in hand", "manual"),
    ("切到手动", "manual"),
    ("切换到清洗", "cleaning"),
])
def test_a_choice_meant_alone_writes_no_mode(text: str, value: str) -> None:
    # The filler and the capper both have a "cleaning" and a "manual". The user saw: "put it
    # in CIP" put the FILLER into cleaning when the model picked the filler (and the capper
    # when it picked that): the CIP word, taken as the choice, was also taken as naming the
    # point. Before the change these were asked back ("cip" is not said of Filler mode).
    action = _route(LINE, text, _write("filler_mode", value))
    assert action["name"] != "write", (text, action)


@pytest.mark.parametrize("text", ["put the filler in CIP", "put the capper in hand"])
def test_a_choice_meant_of_a_point_named_is_still_written(text: str) -> None:
    point, value = ("filler_mode", "cleaning") if "filler" in text else ("capper_mode", "manual")
    assert _route(LINE, text, _write(point, value)) == {
        "name": "write", "args": {"point": point, "value": value}}


# -- a choice that is to end is no choice to set --------------------------------------------------

ENDED = [
    "stop CIP on the filler",
    "disable CIP on the filler",
    "shut down the filler CIP",
    "kill the CIP on the filler",
    "close CIP on the filler",
    "deactivate CIP on the filler",
    "pause CIP on the filler",
    "filler mode: stop CIP",
    "stop washing the filler",
    "stop hand on the filler",
    "灌装机停止清洗",  # filler: stop cleaning
    "灌装机关闭清洗",  # filler: close cleaning
    "灌装机暂停清洗",  # filler: pause cleaning
    "灌装机停清洗",
    "灌装机清洗停止",
    "灌装机退出清洗",  # filler: leave cleaning
    "filler leave CIP",
    "filler: leave hand",
]


@pytest.mark.parametrize("text", ENDED)
def test_stopping_a_choice_does_not_write_it(text: str) -> None:
    # The user saw: "stop CIP on the filler" (or 灌装机停止清洗) answered by a write of
    # filler_mode = cleaning -- the rules alone, no model -- which starts the very CIP they
    # asked to stop. Before the change it was asked back ("which mode?").
    action = _route(FILLER, text)
    assert action["name"] != "write", (text, action)


@pytest.mark.parametrize("text", ENDED)
def test_a_model_naming_the_stopped_choice_is_refused(text: str) -> None:
    value = "manual" if "hand" in text else "cleaning"
    action = _route(FILLER, text, _write("filler_mode", value))
    assert action["name"] != "write", (text, action)


@pytest.mark.parametrize(("text", "value"), [("stop cleaning on the filler", "cleaning"),
                                             ("disable manual on the filler", "manual"),
                                             ("灌装机停止手动", "manual")])
def test_stopping_a_choice_said_in_words_does_not_write_it(text: str, value: str) -> None:
    # (the same, where the choice's own word is said: wrong before the change too)
    action = _route(FILLER, text, _write("filler_mode", value))
    assert action["name"] != "write", (text, action)


@pytest.mark.parametrize(("text", "value"), [("turn the filler off", "off"),
                                             ("filler mode off", "off"),
                                             ("put the filler in production", "production")])
def test_a_choice_that_is_itself_an_off_word_is_written(text: str, value: str) -> None:
    assert _route(FILLER, text) == {"name": "write",
                                    "args": {"point": "filler_mode", "value": value}}


# -- deletion words ------------------------------------------------------------------------------

PURGING = modbus_plant({
    "ahu_mode": {"name": "AHU mode", "table": "holding", "address": 0, "writable": True,
                 "map": {0: "stopped", 1: "occupied", 2: "purge"}},
    "n2_purge_valve": {"name": "Nitrogen purge valve", "table": "coil", "address": 0,
                       "writable": True},
    "hall_temp": {"name": "Hall air temperature", "table": "input", "address": 1,
                  "unit": "°C", "type": "float32"},
    "purge_time": {"name": "Purge time", "table": "holding", "address": 3, "unit": "s",
                   "type": "uint16", "writable": True, "min": 0, "max": 600},
})


@pytest.mark.parametrize("text", ["purge hall temperature", "purge everything", "purge",
                                  "purge all", "purge data", "purge logs"])
def test_a_purge_of_what_the_plant_does_not_purge_is_refused(text: str) -> None:
    # The user saw: "purge hall temperature" answered with the hall temperature, and "purge
    # everything" with a read of every point, as if that were what was asked (the others:
    # "not understood"); before the change all were refused as deletions. The purge valve's
    # "purge" is no reason to take a purge of anything else for a read.
    assert _route(PURGING, text) == {"name": "respond", "args": {"reason": "not_allowed"}}


def test_purge_alone_is_no_write_of_the_purge_mode() -> None:
    # The user (or an MQTT client) sent "purge"; a model proposing the AHU's purge mode was
    # let through by the check and the gate, and the AHU went to purge.
    action = _route(PURGING, "purge", _write("ahu_mode", "purge"))
    assert action["name"] != "write", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("AHU to purge", "ahu_mode", "purge"),
    ("open the nitrogen purge valve", "n2_purge_valve", True),
])
def test_a_purge_the_plant_names_is_still_written(text: str, point: str, value: Any) -> None:
    assert _route(PURGING, text) == {"name": "write", "args": {"point": point, "value": value}}


# -- on/off followed by a place --------------------------------------------------------------------

FAN = modbus_plant({
    "hall_fan": {"name": "Hall fan", "table": "coil", "address": 0, "writable": True},
    "curtain_pump": {"name": "Curtain pump", "table": "coil", "address": 1, "writable": True},
})


@pytest.mark.parametrize("text", ["back off on the hall fan", "ease off on the hall fan",
                                  "sign off on the hall fan"])
def test_a_phrasal_off_on_is_no_switch(text: str) -> None:
    # The user saw: "back off on the hall fan" (run it less) switched the hall fan off. It
    # was read before the change; "off on the ..." now reads as "off, on the ...".
    action = _route(FAN, text, _write("hall_fan", False))
    assert action["name"] != "write", (text, action)


def test_off_on_a_place_still_switches() -> None:
    assert _route(FAN, "hall fan off in the hall") == {
        "name": "write", "args": {"point": "hall_fan", "value": False}}


# -- one of several named alike -----------------------------------------------------------------


def _number(name: str, address: int, **more: Any) -> dict[str, Any]:
    return {"name": name, "table": "holding", "address": address, "type": "float32",
            "unit": "rpm", **more}


PUMPS = modbus_plant({
    "fp1_speed_sp": _number("Feed pump 1 speed setpoint", 0, writable=True, min=0, max=3000),
    "fp2_speed_sp": _number("Feed pump 2 speed setpoint", 2, writable=True, min=0, max=3000),
})


@pytest.mark.parametrize("text", ["给水泵转速设定2",  # feed pump speed setpoint 2
                                  "给水泵转速设定值为2",  # feed pump speed setpoint is 2
                                  "feed pump speed setpoint of 2"])
def test_the_value_is_no_number_of_the_pump(text: str) -> None:
    # The user saw: "给水泵转速设定2" write feed pump 2's setpoint = 2 rpm (the rules alone),
    # the one 2 taken both as which pump and as the speed; "which pump?" was meant to be
    # asked whenever no number says which.
    for proposal in (None, _write("fp2_speed_sp", 2), _write("fp1_speed_sp", 2)):
        action = _route(PUMPS, text, proposal)
        assert action["name"] != "write", (text, proposal, action)


@pytest.mark.parametrize(("text", "point"), [("set feed pump 2 speed setpoint to 2", "fp2_speed_sp"),
                                             ("给水泵2号转速设为2", "fp2_speed_sp"),
                                             ("second feed pump speed setpoint to 2",
                                              "fp2_speed_sp")])
def test_a_number_said_of_the_pump_still_says_which(text: str, point: str) -> None:
    assert _route(PUMPS, text, _write(point, 2)) == {"name": "write",
                                                     "args": {"point": point, "value": 2}}


# -- a word a choice shares is still a bound --------------------------------------------------------

AC = modbus_plant({
    "ac_mode": {"name": "AC mode", "table": "holding", "address": 0, "writable": True,
                "map": {0: "off", 1: "max cooling", 2: "eco"}},
    "line_mode": {"name": "Line mode", "table": "holding", "address": 1, "writable": True,
                  "map": {0: "stopped", 1: "ready", 2: "about to start"}},
})


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set AC mode to eco at max", "ac_mode", "eco"),
    ("set AC mode to max eco", "ac_mode", "eco"),
    ("set line mode to about ready", "line_mode", "ready"),
    ("line mode to ready about now", "line_mode", "ready"),
])
def test_a_bound_a_choice_shares_a_word_with_is_still_a_bound(text: str, point: str,
                                                              value: str) -> None:
    # The user saw: "set AC mode to eco at max" write eco (the rules alone), because "max" is
    # a word of the choice "max cooling": any word of any choice was let through as no bound.
    # "max" alone names no choice here; it is a bound, asked back before the change.
    for proposal in (None, _write(point, value)):
        action = _route(AC, text, proposal)
        assert action["name"] != "write", (text, proposal, action)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("AC mode to max cooling", "ac_mode", "max cooling"),
    ("line mode to about to start", "line_mode", "about to start"),
])
def test_a_choice_said_whole_is_written(text: str, point: str, value: str) -> None:
    assert _route(AC, text) == {"name": "write", "args": {"point": point, "value": value}}


# -- a write whose words name no point at all --------------------------------------------------------

GAS = modbus_plant({
    "gas_sp": {"name": "Gas flow setpoint", "unit": "Nm³/h", "table": "holding", "address": 0,
               "type": "float32", "writable": True, "min": 0, "max": 3000},
    "eng_sp": {"name": "Engine 1 output setpoint", "unit": "MW", "table": "holding",
               "address": 2, "type": "float32", "writable": True, "min": 0, "max": 2.5},
    "n2_purge_valve": {"name": "Nitrogen purge valve", "table": "coil", "address": 0,
                       "writable": True},
    "flue_damper": {"name": "Flue damper", "table": "coil", "address": 1, "writable": True},
})


@pytest.mark.parametrize(("text", "point", "value"), [
    ("far 1", "gas_sp", 1),
    ("2 back", "eng_sp", 2),
    ("1 at", "n2_purge_valve", True),
    ("\x00 1", "n2_purge_valve", True),
    ("1 退出in", "n2_purge_valve", True),
    ("open kick", "n2_purge_valve", True),
    ("at open", "flue_damper", True),
])
def test_a_write_whose_words_name_no_point_is_refused(text: str, point: str, value: Any) -> None:
    # Found by fuzzing MQTT-like word salad: "far 1" with a model proposing the gas flow
    # setpoint = 1 was written, "1 at" opened the nitrogen purge valve -- the check and the
    # gate found no word against the point because no word named anything at all. (Wrong
    # before today's changes too.)
    action = _route(GAS, text, _write(point, value))
    assert action["name"] != "write", (text, action)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set gas flow setpoint to 1", "gas_sp", 1),
    ("open the nitrogen purge valve", "n2_purge_valve", True),
])
def test_a_write_that_names_its_point_passes(text: str, point: str, value: Any) -> None:
    assert _route(GAS, text, _write(point, value)) == {
        "name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize(("text", "point"), [("setpoint to 2", "gas_sp"),
                                             ("set the setpoint to 2", "eng_sp")])
def test_a_word_every_setpoint_has_says_no_setpoint(text: str, point: str) -> None:
    # (an xfail until session 24: the write gate now asks "which?" when another writable point
    # of the same kind and role explains every word as well)
    # The user saw: "setpoint to 2" in a plant of two setpoints write whichever the model
    # picked (the gas flow setpoint = 2 Nm³/h, or the engine's = 2 MW).
    action = _route(GAS, text, _write(point, 2))
    assert action["name"] != "write", (text, action)


# -- "load" of a kW point -------------------------------------------------------------------------

CHILLER = modbus_plant({
    "ch_power_sp": {"name": "Chiller 1 power limit", "table": "holding", "address": 0,
                    "unit": "kW", "type": "float32", "writable": True, "min": 0, "max": 500},
    "ch_power": {"name": "Chiller 1 power", "table": "input", "address": 2, "unit": "kW",
                 "type": "float32"},
    "gen_sp": {"name": "Generator setpoint", "table": "holding", "address": 4, "unit": "kW",
               "type": "float32", "writable": True, "min": 0, "max": 500},
})


def test_load_in_kw_names_no_one_of_two_kw_setpoints() -> None:
    # The user saw: "load to 80 kW" write Chiller 1 power limit = 80 kW, the rules alone,
    # where the plant's generator setpoint is in kW too (and a generator's load is its
    # power): the semantic stage took the chiller's limit as sure (0.66 against 0.52) though
    # only the unit explains "load". Before "load" was made the power of a kW point it was
    # asked back.
    action = _route(CHILLER, "load to 80 kW")
    assert action["name"] != "write", action


@pytest.mark.parametrize(("text", "point"), [("set chiller 1 load to 80 kW", "ch_power_sp"),
                                             ("set generator setpoint to 80 kW", "gen_sp")])
def test_a_kw_point_named_takes_its_load(text: str, point: str) -> None:
    assert _route(CHILLER, text, _write(point, 80)) == {
        "name": "write", "args": {"point": point, "value": 80}}
