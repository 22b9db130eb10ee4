"""Questions whether there is a fault, asked of a plant with several.

A point's id is its name as the integrator typed it for the config ("press_fault" of
"Presse.Sammelstoerung"). A word of the id explains a command less than the name does; but
where the name says the same thing in other words (Sammelstörung, a common fault), the word
explains as the name does. Before, "is there a fault" on a press with two fault points read the
cooling pump's, whose id said no "fault" (review atk51)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, routed_without_model

PRESS = Router(exec_devices("pressenlinie", {"sps": {
    "press_fault": {"name": "Presse.Sammelstoerung", "type": "bool"},
    "cw2_flt": {"name": "Kuehlwasser.Pumpe2.Stoerung", "type": "bool"},
    "cw2_on": {"name": "Kuehlwasser.Pumpe2.Ein", "type": "bool", "writable": True},
    "cw2_run": {"name": "Kuehlwasser.Pumpe2.Laeuft", "type": "bool"},
    "ack": {"name": "Stoerung.Quittieren", "type": "bool", "writable": True,
            "description": "Fault acknowledge"},
    "strokes": {"name": "Presse.Hubzaehler", "unit": "strokes"},
}}))


@pytest.mark.parametrize("text", ["is there a fault", "any faults"])
async def test_a_fault_asked_of_no_thing_is_not_one_of_two(text: str) -> None:
    routed = await routed_without_model(PRESS, text)
    assert routed.name != "read", (text, routed)


@pytest.mark.parametrize(("text", "point"), [
    ("is there a fault on the press", "press_fault"),
    ("any fault on cooling water pump 2", "cw2_flt"),  # "any" asks; "on" switches nothing
    ("any faults on pump 2?", "cw2_flt"),
])
async def test_a_fault_asked_of_its_thing_is_read(text: str, point: str) -> None:
    routed = await routed_without_model(PRESS, text)
    assert routed == Action("read", {"point": point}), (text, routed)


@pytest.mark.parametrize(("text", "concept"), [
    ("Quittieren", "action.acknowledge"),
    ("Stoerungsquittierung", "action.acknowledge"),
    ("Freigabe", "state.enabled"),
])
def test_german_plc_words_of_acknowledging_and_enabling_are_known(text: str, concept: str) -> None:
    assert concept in {m.concept.id for m in concepts_of_text(text)}, text
