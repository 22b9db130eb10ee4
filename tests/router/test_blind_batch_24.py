"""What blind batch 24 (tests/data/plants: abattoir, freeze_drying, press_hall) found wrong:
each test says what a person on that plant would expect. Batch 24 scored 122/150 with the
model before anything was changed for it, 6 confidently wrong, all by the rules: a greeting
read as a point ("good evening": the good copies), a verb no rule knew read as a question of
the state it brings ("arm the paster": its armed flag read), a mode's choice said after "on"
read as a question of the mode ("chiller 2 on defrost please")."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import config_of, exec_plant, own_plant, routed_without_model

ROUTERS = {name: Router(config_of(own_plant(name)))
           for name in ("abattoir", "freeze_drying", "press_hall", "wellpad", "rail_depot")}


async def _routed(plant: str | Router, text: str) -> tuple[str, Any]:
    router = ROUTERS[plant] if isinstance(plant, str) else plant
    action = await routed_without_model(router, text)
    return action.name, (action.args.get("point") or action.args.get("points")
                         or action.args.get("reason"), action.args.get("value"))


@pytest.mark.parametrize("text", ["good evening", "Good morning all", "good night",
                                  "hello there team"])
async def test_a_greeting_is_a_greeting_whatever_point_its_words_name(text: str) -> None:
    assert await _routed("press_hall", text) == ("respond", ("greeting", None))


@pytest.mark.parametrize(("text", "point"), [("good copies", "good_copies"),
                                             ("how many good copies?", "good_copies")])
async def test_the_point_named_so_is_still_read(text: str, point: str) -> None:
    assert await _routed("press_hall", text) == ("read", (point, None))


@pytest.mark.parametrize("text", ["arm the paster on reelstand 1", "disarm paster two",
                                  "arm both pasters", "rearm paster 1"])
async def test_arming_is_asked_a_change_never_read(text: str) -> None:
    """ "arm"/"disarm" ask for a change: the armed flag is not read in answer (it was), and
    with one switch named by its state ("... paster armed") the router asks rather than guess
    which way; several pasters are no one write."""
    name, _ = await _routed("press_hall", text)
    assert name == "respond"


ROBOT = Router(exec_plant("robot_cell", {
    "arm1_pos": {"name": "Robot arm 1 position", "unit": "mm"},
    "arm1_run": {"name": "Robot arm 1 enable", "type": "bool", "writable": True},
    "gripper": {"name": "Gripper closed", "type": "bool"},
}))


async def test_arm_of_a_plant_that_names_things_so_is_a_thing() -> None:
    assert await _routed(ROBOT, "arm 1 position") == ("read", ("arm1_pos", None))


@pytest.mark.parametrize(("text", "value"), [("chiller 2 on defrost please", "defrost"),
                                             ("chiller 2 on hold", "hold")])
async def test_a_choice_said_after_on_is_put(text: str, value: str) -> None:
    assert await _routed("abattoir", text) == ("write", ("chiller2_mode", value))


async def test_a_choice_asked_after_on_is_read() -> None:
    assert await _routed("abattoir", "is chiller 2 on defrost") == \
        ("read", ("chiller2_mode", None))


async def test_on_a_choice_no_word_of_its_setting_names_is_a_place() -> None:
    """ "well 2" is a choice of the wellpad's test separator selector, which nothing in the
    command names: the tubing pressure of well 2 is asked."""
    assert await _routed("wellpad", "tubing pressure on well 2") == \
        ("read", ("w2_tbg_psi", None))


@pytest.mark.parametrize(("plant", "text", "expected"), [
    ("press_hall", "speed setpoint 22000 copies", ("write", ("press_speed_setpoint", 22000))),
    ("abattoir", "how many head an hour is the chain doing", ("read", ("chain_speed", None))),
])
async def test_a_rate_is_said_by_what_it_counts(
        plant: str, text: str, expected: tuple[str, Any]) -> None:
    """A unit "copies/h" is said "copies": of the point in it, not a thing the plant lacks
    (it had been refused as an unknown point)."""
    assert await _routed(plant, text) == expected


FILLER = Router(exec_plant("bottling", {
    "filler_speed": {"name": "Filler speed", "unit": "bottles/min", "writable": True,
                     "min": 0, "max": 600},
    "filler_temp": {"name": "Filler bowl temperature", "unit": "°C"},
    "capper_count": {"name": "Capper rejects", "unit": "caps"},
    "recipe": {"name": "Filler recipe", "type": "int", "writable": True,
               "map": {0: "still", 1: "sparkling", 2: "juice"}},
}))


@pytest.mark.parametrize(("text", "expected"), [
    ("filler to 300 bottles", ("write", ("filler_speed", 300))),
    ("which filler recipe is selected", ("read", ("recipe", None))),
])
async def test_a_plant_of_our_own(text: str, expected: tuple[str, Any]) -> None:
    assert await _routed(FILLER, text) == expected


@pytest.mark.parametrize("text", ["how many pallets an hour is the palletiser doing",
                                  "how many bottles have we done today"])
async def test_a_count_no_point_is_of_is_still_refused(text: str) -> None:
    """A count of pallets, or of bottles done (a total), is no read of the filler's rate."""
    name, _ = await _routed(FILLER, text)
    assert name == "respond"


async def test_the_selected_programme_is_the_programme() -> None:
    """A choice among named ones is a mode: "selected" asks which (rail_depot, batch 23)."""
    assert await _routed("rail_depot", "what wash programme is selected") == \
        ("read", ("wash_programme", None))


SULFUR = Router(exec_plant("acid", {
    "s_pump": {"name": "Sulfur pump", "type": "bool", "writable": True},
    "s_pit": {"name": "Sulfur pit temperature", "unit": "°C"},
    "acid_temp": {"name": "Acid cooler outlet temperature", "unit": "°C"},
}))


@pytest.mark.parametrize(("text", "expected"), [
    ("stop the sulphur pump", ("write", ("s_pump", False))),
    ("sulphur pit temp", ("read", ("s_pit", None))),
])
async def test_sulphur_is_sulfur(text: str, expected: tuple[str, Any]) -> None:
    assert await _routed(SULFUR, text) == expected


HYPHENS = Router(exec_plant("lairage", {
    # (its id writes the word joined, as the abattoir's did)
    "washdown_pump": {"name": "Lairage wash-down pump", "type": "bool", "writable": True},
    "bd": {"name": "Boiler blow-down valve", "type": "bool", "writable": True},
    "lvl": {"name": "Lairage tank level", "unit": "%"},
    "shut": {"name": "Shutdown horn", "type": "bool", "writable": True},
    "mu_valve": {"name": "Make-up water valve", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("text", "expected"), [
    ("switch off the lairage washdown pump", ("write", ("washdown_pump", False))),
    ("switch off the lairage wash-down pump", ("write", ("washdown_pump", False))),
    ("stop the wash down pump", ("write", ("washdown_pump", False))),
    ("open the boiler blowdown valve", ("write", ("bd", True))),
])
async def test_a_word_the_names_hyphenate_may_be_said_joined(
        text: str, expected: tuple[str, Any]) -> None:
    """ "washdown" of a "wash-down pump" (abattoir): joined, it had been no word of the plant,
    and the switch's "down" unsaid, so the router asked which way."""
    assert await _routed(HYPHENS, text) == expected


async def test_a_word_the_names_write_joined_is_left_so() -> None:
    assert await _routed(HYPHENS, "switch on the shutdown horn") == ("write", ("shut", True))


async def test_a_point_explaining_all_by_its_choices_is_not_sure_beside_one_naming_more() -> None:
    """ "has the load been stoppered": the "Cycle phase" explains each word by its choices
    ("loading", "stoppering"), the "Shelves stoppered" flag names far more of what is said;
    the cycle phase had been read, sure."""
    name, (point, _) = await _routed("freeze_drying", "has the load been stoppered")
    assert (name, point) != ("read", "cycle_phase")


def test_plurals_in_ves() -> None:
    from hermesd.router.concepts import singular
    assert [singular(w) for w in ("shelves", "knives", "valves", "leaves", "halves")] == \
        ["shelf", "knife", "valve", "leave", "half"]


DRYER = Router(exec_plant("lyo", {
    "shelf_sp": {"name": "Shelf inlet temperature setpoint", "unit": "°C", "writable": True,
                 "min": -55, "max": 60},
    "shelf_in": {"name": "Shelf inlet temperature", "unit": "°C"},
    "cond_temp": {"name": "Condenser temperature", "unit": "°C"},
}))


async def test_the_shelves_are_the_shelf() -> None:
    """ "shelves" had been read as "shelve", no word of the plant: refused as unknown."""
    assert await _routed(DRYER, "take the shelves up to 20 degrees") == \
        ("write", ("shelf_sp", 20))


async def test_a_choice_named_as_a_unit_is_the_choice() -> None:
    """ "inch" is a foreign unit, and the abattoir chain mode's choice (to jog it): put in
    inch it is the choice; "40 inches" of its speed is still no value."""
    assert await _routed("abattoir", "put the chain in inch") == ("write", ("chain_mode", "inch"))
    name, _ = await _routed("abattoir", "set chain speed to 40 inches")
    assert name == "respond"


@pytest.mark.parametrize("text", ["make-up valve now open", "makeup valve now open",
                                  "the makeup valve is open"])
async def test_the_verb_a_hyphenated_name_opens_with_asks_nothing(text: str) -> None:
    """ "make-up valve now open" reports the valve open: the "make" of its name is no verb
    that asks it (it had been opened, older than batch 24; and joined, "makeup" is left so)."""
    name, _ = await _routed(HYPHENS, text)
    assert name == "respond"


async def test_a_hyphenated_name_opening_with_a_verb_is_still_switched() -> None:
    assert await _routed(HYPHENS, "now open the make-up valve") == ("write", ("mu_valve", True))
