"""A word only a description says still says which thing, when said before a machine.

"level in the pomace hopper?", on a mill whose only hopper is the "Nivel tolva recepción"
("Level of olives in the reception hopper") and whose "Humedad alperujo" is described as
"Pomace moisture", read the reception hopper's level (blind batch 44): the check held only
words of names to the point, and read the point's name, in Spanish, for the word it says
before "hopper". Now a word of the descriptions said before a machine, which another point
explains and the picked one does not, is refused as a thing the plant lacks."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_read_checked

CONFIG = exec_devices("mill", {"plc": {
    "hopper_level": {"name": "Nivel tolva recepción", "unit": "%",
                     "description": "Level of olives in the reception hopper"},
    "pomace_moisture": {"name": "Humedad alperujo", "unit": "%",
                        "description": "Pomace moisture at the decanter solids outlet"},
    "tank_level": {"name": "Nivel depósito aceite", "unit": "%"},
}})
ROUTER = Router(CONFIG)


def test_a_described_word_before_another_machine_is_not_this_point() -> None:
    checked = model_read_checked(ROUTER, CONFIG, "level in the pomace hopper?", "hopper_level")
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    assert checked.args["asked"] == "pomace", checked


@pytest.mark.parametrize("text", ["level in the reception hopper?", "hopper level",
                                  "how full is the hopper"])
def test_the_hopper_itself_is_read(text: str) -> None:
    assert model_read_checked(ROUTER, CONFIG, text, "hopper_level") == \
        Action("read", {"point": "hopper_level"}), text
