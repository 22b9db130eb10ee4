"""Blind batch 70 (a float glass line, a fab's utilities, a sawmill's dry kilns), on plants of my
own: a switch whose name says one more word of what it is than its status's ("Chiller 2
condenser fan" beside "Chiller 2 fan running") is still read by that status when the words ask
whether it runs; the model's read of the switch answered from the command it was given, not
from the machine.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant

CONFIG = exec_plant("b70", {
    "ch2_fan": {"name": "Chiller 2 condenser fan", "type": "bool", "writable": True},
    "ch2_fan_running": {"name": "Chiller 2 fan running", "type": "bool"},
    "ch3_fan": {"name": "Chiller 3 condenser fan", "type": "bool", "writable": True},
    "ch3_fan_running": {"name": "Chiller 4 fan running", "type": "bool"},
})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize("text", [
    "is the second chiller's fan actually running", "chiller 2 condenser fan running?",
])
def test_the_status_answers_whether_it_runs(text: str) -> None:
    a = ROUTER.rules.analyse(text)
    read = ROUTER.rules.status_for(a, Action("read", {"point": "ch2_fan"}))
    assert read == Action("read", {"point": "ch2_fan_running"})


def test_no_status_of_another_number() -> None:
    a = ROUTER.rules.analyse("is chiller 3 condenser fan running")
    read = Action("read", {"point": "ch3_fan"})
    assert ROUTER.rules.status_for(a, read) == read


def test_a_command_is_still_what_was_asked() -> None:
    a = ROUTER.rules.analyse("was chiller 2 condenser fan commanded on")
    read = Action("read", {"point": "ch2_fan"})
    assert ROUTER.rules.status_for(a, read) == read
