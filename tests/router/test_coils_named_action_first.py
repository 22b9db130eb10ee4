"""A coil named by an action before its thing does that action, not run the thing.

"start the pump", on a plant whose one pump coil is "Reset pump", wrote True to the reset
(review of the lexicon's words of other languages: "Rearme bomba", "Quittierung Pumpe" are
the same in Spanish and German, where the verb comes first). A word before the thing was read
as one that says which pump ("Standby pump", "Dosing pump") unless the lexicon knew it as a
switching state; now a word of an action on the thing other than running it (reset, inhibit,
halt, acknowledge, override, isolate, manual) is a part of the name the command left unsaid,
and the write is asked back. A machine named by its function ("Drain pump") still runs."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model


def _plant(name: str) -> Router:
    return Router(exec_devices("works", {"plc": {
        "coil": {"name": name, "type": "bool", "writable": True},
        "temp": {"name": "Water temperature", "unit": "°C"},
    }}))


@pytest.mark.parametrize("name", ["Reset pump", "Inhibit pump", "Halt pump", "Ack pump",
                                  "Override pump", "Isolate pump", "Fault reset pump",
                                  "Manual pump", "Calibrate pump",
                                  # the verb first, in the languages that write it so
                                  "Rearme bomba", "Habilitación bomba", "Quittierung Pumpe",
                                  "Freigabe Pumpe", "Forçage pompe", "Ripristino pompa",
                                  "Aus Pumpe"])
@pytest.mark.parametrize("text", ["start the pump", "stop the pump", "turn off the pump"])
async def test_an_action_on_the_pump_is_not_its_run_switch(name: str, text: str) -> None:
    action = await routed_without_model(_plant(name), text)
    assert action.name == "respond", (name, text, action)


@pytest.mark.parametrize(("name", "text", "value"), [
    ("Run pump", "start the pump", True),
    ("Drain pump", "stop the pump", False),
    ("Dosing pump", "start the pump", True),
    ("Standby pump", "turn off the pump", False),
    ("Receiver auto drain valve", "close the drain valve", False),
    ("Marcha bomba", "start the pump", True),  # a run command, in Spanish
    ("Avvio pompa", "start the pump", True),
    ("Pumpe Stopp", "stop the pump", True),  # a stop command is set to stop
    ("Abrir válvula", "open the valve", True),  # an open command, the verb first
    ("Arranque bomba", "start the pump", True),
])
async def test_a_pump_named_by_which_it_is_runs(name: str, text: str, value: bool) -> None:
    action = await routed_without_model(_plant(name), text)
    assert (action.name, action.args) == ("write", {"point": "coil", "value": value}), \
        (name, text, action)


@pytest.mark.parametrize(("name", "text"), [
    # the verb first, said the other way: no on/off of the thing says which way these go
    ("Abrir válvula", "close the valve"),
    ("Ouvrir vanne", "close the valve"),
    ("Arranque bomba", "stop the pump"),
    ("Cerrar válvula", "close the valve"),
    ("Paro bomba", "stop the pump"),
])
async def test_a_verb_first_switch_said_otherwise_is_asked_back(name: str, text: str) -> None:
    action = await routed_without_model(_plant(name), text)
    assert action.name == "respond", (name, text, action)
