"""A thing with a run switch and a mode whose choices hold "off", "cool" or "washing": the
words that switch it never set its mode, and the words that name its mode never switch it.

- "lead pump turned off" (a report, or a terse order) is no `off` of the pump's mode: "off" of
  a switched state is named of a mode only in its own words ("mode off").
- "run the pump in the wash bay": "wash bay" is where the pump is, as its name says, not the
  choice `washing`.
- "put heat pump 2 on cool": "on" then one of its mode's choices says the mode; the heat pump
  is not switched on by it, whichever stage proposed it.
  "turn on the dryer fan on bin 3" still turns it on: "bin 3" is the fan's own name, though
  a distributor's choice says it too.
- "power down the chiller on standby" ends the chiller; its mode is not put at `standby`.
"""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, routed_without_model

PLANT = Router(exec_plant("car_wash", {
    "lp_run": {"name": "Lead pump run", "type": "bool", "writable": True},
    "lp_mode": {"name": "Lead pump mode", "type": "int", "writable": True,
                "map": {0: "off", 1: "hand", 2: "auto"}},
    "lp_speed": {"name": "Lead pump speed", "unit": "rpm"},
    "hp2_run": {"name": "Heat pump 2", "type": "bool", "writable": True},
    "hp2_mode": {"name": "Heat pump 2 mode", "type": "int", "writable": True,
                 "map": {0: "heat", 1: "cool", 2: "auto"}},
    "hp2_temp": {"name": "Heat pump 2 supply temperature", "unit": "°C"},
    "wb_run": {"name": "Wash bay pump run", "type": "bool", "writable": True},
    "wb_mode": {"name": "Wash bay pump mode", "type": "int", "writable": True,
                "map": {0: "washing", 1: "drying", 2: "off"}},
    "ch_run": {"name": "Chiller run", "type": "bool", "writable": True},
    "ch_mode": {"name": "Chiller mode", "type": "int", "writable": True,
                "map": {0: "standby", 1: "cooling", 2: "free cooling"}},
    "ch_temp": {"name": "Chiller leaving water temperature", "unit": "°C"},
    "spout": {"name": "Distributor spout", "type": "int", "writable": True,
              "map": {1: "bin 1", 2: "bin 2", 3: "bin 3"}},
    "bin3_fan": {"name": "Bin 3 dryer fan", "type": "bool", "writable": True},
}))
MODES = ("lp_mode", "hp2_mode", "wb_mode", "ch_mode")


@pytest.mark.parametrize("text", [
    "lead pump turned off", "lead pump switched off", "wash bay pump turned off",
    "wash bay pump switched off", "run the pump in the wash bay",
    "power down the chiller on standby", "power down the chiller to standby",
    "powering down the chiller to standby",
])
async def test_switching_words_set_no_mode(text: str) -> None:
    action = await routed_without_model(PLANT, text)
    assert not (action.name == "write" and action.args["point"] in MODES), action


@pytest.mark.parametrize("text", ["put heat pump 2 on cool", "turn heat pump 2 on cool",
                                  "heat pump 2 on cool", "switch the heat pump 2 on auto",
                                  # (atk28: "to", "in" between; the verb after the thing)
                                  "turn heat pump 2 on to cool", "turn heat pump 2 on in cool",
                                  "heat pump 2 switch on cool"])
async def test_on_a_choice_switches_nothing_on(text: str) -> None:
    action = await routed_without_model(PLANT, text)
    assert action.args != {"point": "hp2_run", "value": True}, action
    # nor when a model proposes it: the write gate asks which was meant
    refused = gated(text, PLANT.rules.points["hp2_run"], True, PLANT.rules.profiles)
    assert refused is not None and refused.args["value_problem"] == "several", refused


@pytest.mark.parametrize(("text", "point", "value"), [
    ("put the chiller on standby", "ch_mode", "standby"),
    ("put heat pump 2 on auto", "hp2_mode", "auto"),
    ("set heat pump 2 to cool", "hp2_mode", "cool"),
    ("set the pump in the wash bay to drying", "wb_mode", "drying"),
    ("switch the wash bay pump to washing", "wb_mode", "washing"),
    ("set wash bay pump mode to off", "wb_mode", "off"),
    ("put the chiller in free cooling", "ch_mode", "free cooling"),
    ("turn on heat pump 2", "hp2_run", True),
    ("heat pump 2 on", "hp2_run", True),
    ("turn heat pump 2 on please", "hp2_run", True),
    ("start the pump in the wash bay", "wb_run", True),
    # "on" then where the thing is, which another point's choice also names
    ("turn on the dryer fan on bin 3", "bin3_fan", True),
])
async def test_what_is_said_plainly_is_still_done(text: str, point: str, value: object) -> None:
    action = await routed_without_model(PLANT, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


async def test_switching_on_without_a_choice_passes_the_gate() -> None:
    for text in ("turn on heat pump 2", "switch heat pump 2 on", "put heat pump 2 on"):
        assert gated(text, PLANT.rules.points["hp2_run"], True, PLANT.rules.profiles) is None


NAMED = Router(exec_plant("combi", {
    "b_run": {"name": "Hot water boiler", "type": "bool", "writable": True},
    "b_mode": {"name": "Hot water boiler mode", "type": "int", "writable": True,
               "map": {0: "off", 1: "heating", 2: "hot water", 3: "heating and hot water"}},
    "div": {"name": "Line 3 diverter", "type": "int", "writable": True,
            "map": {1: "line 3", 2: "line 4", 3: "reject", 4: "line 3 reject"}},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the boiler mode to hot water", "b_mode", "hot water"),
    ("set the diverter to line 3", "div", "line 3"),
])
async def test_a_choice_that_says_words_of_the_name_is_the_choice(text: str, point: str,
                                                                  value: str) -> None:
    """Two words of a point's name after "to" are no place when a choice says them so: "hot
    water" of the "Hot water boiler mode" (atk28: refused)."""
    action = await routed_without_model(NAMED, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


@pytest.mark.parametrize(("text", "point", "shorter"), [
    ("set the boiler mode to heating and hot water", "b_mode", "heating"),
    ("put the boiler on heating and hot water", "b_mode", "heating"),
    ("set the diverter to line 3 reject", "div", "reject"),
])
async def test_a_longer_choice_is_never_cut_to_a_shorter_one(text: str, point: str,
                                                            shorter: str) -> None:
    """atk28: the words a longer choice shares with the name had been dropped, and what was
    left named a shorter choice, written."""
    action = await routed_without_model(NAMED, text)
    assert action.args != {"point": point, "value": shorter}, action


GUNS = Router(exec_plant("ski_area", {
    "sg4": {"name": "Snow gun 4", "type": "bool", "writable": True},
    "sg4_mode": {"name": "Snow gun 4 mode", "type": "int", "writable": True,
                 "map": {0: "off", 1: "manual", 2: "auto"}},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    # the mode's whole name said holds the switch's ("Snow gun 4"): the mode (atk28: "which?")
    ("set snow gun 4 mode to off", "sg4_mode", "off"),
    ("snow gun 4 mode off", "sg4_mode", "off"),
    ("set snow gun 4 mode to auto", "sg4_mode", "auto"),
    # the switch's name alone: the switch
    ("turn off snow gun 4", "sg4", False),
    ("snow gun 4 off", "sg4", False),
])
async def test_a_mode_named_whole_beside_its_switch(text: str, point: str, value: object) -> None:
    action = await routed_without_model(GUNS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action
