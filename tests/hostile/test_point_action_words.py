"""A writable on/off point's own action word said first is a verb ("defrost evap 2" starts the
defrost of "Evaporator 2 defrost") — only when nothing else is said. Words that ask how it is
("defrost evap 2 status", "... show me"), a list of the things ("backwash filters 1 and 2"), a
"status" after a plain on word, and a time word that is also a short form in the point ids
("in a sec", with a "sec_pump1") write nothing; whichever stage proposes the write, the rules
or a model that proposes it for every command.

The plant is a booster and filter station generated here (blowers that "run", filters that
"backwash", a line "alarm", a dosing "enable", a mixer "start", primary and secondary pumps
whose ids say "pri" and "sec", a heater fault reset), and the cold store of tests/data/plants.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.rules import Analysis
from hermesd.router.write_gate import gated
from tests.support.daemon import fake_device
from tests.support.plants import config_of, own_plant


def _switch(name: str) -> dict[str, Any]:
    return {"name": name, "type": "bool", "writable": True}


STATION = config_of({"node": {"id": "booster"}, "devices": {"plc": fake_device({
    "pri_pump1": _switch("Primary pump 1"),
    "pri_pump2": _switch("Primary pump 2"),
    "sec_pump1": _switch("Secondary pump 1"),
    "sec_pump2": _switch("Secondary pump 2"),
    "blower1_run": _switch("Blower 1 run"),
    "blower2_run": _switch("Blower 2 run"),
    "blower1_hours": {"name": "Blower 1 running hours", "type": "float", "unit": "h"},
    "filter1_backwash": _switch("Filter 1 backwash"),
    "filter2_backwash": _switch("Filter 2 backwash"),
    "filter1_dp": {"name": "Filter 1 differential pressure", "type": "float", "unit": "kPa"},
    "line1_alarm": _switch("Line 1 alarm"),
    "dosing_enable": _switch("Chlorine dosing enable"),
    "mixer_start": _switch("Mixer start"),
    "heater_reset": _switch("Heater fault reset"),
    "heater_trip": {"name": "Heater trip", "type": "bool"},
})}})
PLANTS = {"station": STATION, "cold_store": config_of(own_plant("cold_store"))}


class Proposes:
    """The model, proposing `proposal` for every command it is handed."""

    def __init__(self, proposal: Action) -> None:
        self.proposal = proposal

    async def __call__(self, ctx: RequestContext, text: str, analysis: Analysis) -> Routed:
        return Routed(self.proposal, "llm")


def route(plant: str, text: str, proposal: Action | None = None) -> Action:
    router = Router(PLANTS[plant])
    if proposal is not None:
        router.model = Proposes(proposal)
    return asyncio.run(router.route(RequestContext.make("control", "engineer"), text)).action


def written(action: Action) -> bool:
    return action.name == "write"


ASKING = [
    ("cold_store", "defrost evap 2 status", "evap2_defrost"),
    ("cold_store", "defrost evap 2 state", "evap2_defrost"),
    ("cold_store", "defrost evaporator 2 value", "evap2_defrost"),
    ("cold_store", "defrost evap 2 show me", "evap2_defrost"),
    ("cold_store", "defrost the evap 2 read", "evap2_defrost"),
    ("station", "run blower 1 status", "blower1_run"),
    ("station", "run blower 1 value", "blower1_run"),
    ("station", "backwash filter 1 status", "filter1_backwash"),
    ("station", "alarm line 1 status", "line1_alarm"),
    ("station", "enable chlorine dosing status", "dosing_enable"),
]


@pytest.mark.parametrize(("plant", "text", "point"), ASKING)
def test_an_action_said_first_then_asked_after_writes_nothing(plant: str, text: str,
                                                              point: str) -> None:
    assert not written(route(plant, text)), route(plant, text)
    proposed = Action("write", {"point": point, "value": True})
    assert not written(route(plant, text, proposed)), route(plant, text, proposed)


@pytest.mark.parametrize(("plant", "text", "point"), ASKING)
def test_the_gate_hears_no_action_with_other_words(plant: str, text: str, point: str) -> None:
    router = Router(PLANTS[plant])
    toks = router.rules.analyse(text).toks
    assert gated(text, router.rules.points[point], True, router.rules.profiles, toks) is not None


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("station", "start the mixer status", "mixer_start"),
    ("station", "turn on blower 1 status", "blower1_run"),
    ("station", "chlorine dosing enable status", "dosing_enable"),
    ("cold_store", "switch on the glycol loop pump state", "glycol_pump"),
])
def test_a_status_after_an_on_word_is_asked_back(plant: str, text: str, point: str) -> None:
    assert not written(route(plant, text)), route(plant, text)
    proposed = Action("write", {"point": point, "value": True})
    assert not written(route(plant, text, proposed))


@pytest.mark.parametrize(("plant", "text"), [
    ("station", "backwash filter 1 and 2"),
    ("station", "backwash filters 1 and 2 please"),
    ("cold_store", "defrost evap 1 and 2"),
    ("cold_store", "defrost evaporators 1 and 2"),
    ("station", "backwash both filters"),
    ("station", "backwash all the filters"),
    ("station", "run all blowers"),
    ("station", "backwash everything"),
    ("cold_store", "defrost all"),
    ("cold_store", "defrost both evaps"),
])
def test_an_action_said_first_of_a_list_is_a_plural_write(plant: str, text: str) -> None:
    """Not a read of each (what was asked is to start them), nor a write of one."""
    action = route(plant, text)
    assert action.name == "respond" and action.args["reason"] == "not_allowed" and \
        action.args["plural"], action


@pytest.mark.parametrize(("text", "proposed"), [
    ("in a sec start pump 1", "sec_pump1"),
    ("in a sec, start pump 1", "sec_pump1"),
    ("start primary pump 1 in a sec", "pri_pump1"),
    ("start secondary pump 1 in a sec", "sec_pump1"),
])
def test_a_time_word_that_an_id_shortens_still_says_when(text: str, proposed: str) -> None:
    """ "sec" of "sec_pump1" (Secondary pump 1) is no licence to start it now: "in a sec"."""
    assert not written(route("station", text)), route("station", text)
    assert not written(route("station", text, Action("write", {"point": proposed,
                                                               "value": True})))


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("cold_store", "defrost evap 2", "evap2_defrost"),
    ("cold_store", "please defrost the evaporator 2 now", "evap2_defrost"),
    ("station", "backwash filter 1", "filter1_backwash"),
    ("station", "run blower 2", "blower2_run"),
    ("station", "start secondary pump 1", "sec_pump1"),
    ("station", "start primary pump 2", "pri_pump2"),
])
def test_the_plain_commands_beside_them_still_write(plant: str, text: str, point: str) -> None:
    assert route(plant, text) == Action("write", {"point": point, "value": True})


# -- a reset word is a point's own only when the rest of the command names that point ----------

@pytest.mark.parametrize("text", [
    "reset everything",
    "reset the plc",
    "清零",
    "reset all alarms",
])
def test_a_reset_of_no_named_thing_is_refused(text: str) -> None:
    """A plant with a writable "Heater fault reset": the reset word alone ranks it first,
    which says nothing of what is to be reset (on main, "reset everything" read every point)."""
    action = route("station", text)
    assert action.name == "respond" and action.args["reason"] == "not_allowed", action


@pytest.mark.parametrize("text", ["reset the heater fault", "reset heater fault please",
                                  "heater fault reset on"])
def test_the_point_named_for_the_reset_is_still_written(text: str) -> None:
    assert route("station", text) == Action("write", {"point": "heater_reset", "value": True})
