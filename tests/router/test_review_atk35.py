"""A hostile review (atk35) of ce67afe, each finding a test on a plant written for it:

- a tag-named point's description had become a name of it with its verbs, so "open valve 4"
  wrote the "Valve 4 close" command, "start boiler 1" tripped the boiler's emergency shutdown;
- "stop the pump" wrote the run switch of one pump beside the speed of another.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model


async def _routed(router: Router, text: str) -> tuple[str, Any]:
    action = await routed_without_model(router, text)
    return action.name, (action.args.get("point") or action.args.get("reason"),
                         action.args.get("value"))


DESCRIBED_ACTIONS = Router(exec_plant("tags", {
    "XV_302": {"name": "XV-302", "type": "bool", "writable": True,
               "description": "Valve 4 close"},
    "XV_301": {"name": "XV-301", "type": "bool", "writable": True,
               "description": "Close command for valve 3"},
    "HS_501": {"name": "HS-501", "type": "bool", "writable": True,
               "description": "Pump 5 stop"},
    "HS_502": {"name": "HS-502", "type": "bool", "writable": True,
               "description": "Fan 2 off command"},
    "HS_504": {"name": "HS-504", "type": "bool", "writable": True,
               "description": "Mixer 1 disable"},
    "HS_503": {"name": "HS-503", "type": "bool", "writable": True,
               "description": "Inhibit dosing pump 3"},
    "ESD_1": {"name": "ESD-1", "type": "bool", "writable": True,
              "description": "Emergency shutdown of boiler 1"},
    "HS_401": {"name": "HS-401", "type": "bool", "writable": True,
               "description": "Burner 1 stop when tank low"},
    "HS_300": {"name": "HS-300", "type": "bool", "writable": True,
               "description": "Starts the standby pump when pump 2 trips"},
    "XV_303": {"name": "XV-303", "type": "bool", "writable": True,
               "description": "2号泵停止"},
}))


@pytest.mark.parametrize("text", [
    "open valve 4", "close valve 4", "close valve 3", "start pump 5", "stop pump 5",
    "turn fan 2 on", "turn fan 2 off", "start mixer 1", "start dosing pump 3",
    "start boiler 1", "stop boiler 1", "shut down boiler 1", "emergency stop boiler 1",
    "启动2号泵"])
async def test_a_description_that_says_an_action_names_nothing_to_be_done(text: str) -> None:
    """Each had written the tag-named switch (the base refused them all)."""
    name, (point, value) = await _routed(DESCRIBED_ACTIONS, text)
    assert name != "write", (point, value)


@pytest.mark.parametrize("text", ["is the tank low", "pump 2 trip"])
async def test_a_description_that_says_when_is_no_reading(text: str) -> None:
    name, (point, _) = await _routed(DESCRIBED_ACTIONS, text)
    assert name != "read", point


TWO_THINGS = Router(exec_plant("mixed", {
    "p1_speed": {"name": "Pump 1 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "booster": {"name": "Booster pump run", "type": "bool", "writable": True},
    "h1_power": {"name": "Heater 1 power", "unit": "%", "writable": True, "min": 0, "max": 100},
    "h2_enable": {"name": "Heater 2 enable", "type": "bool", "writable": True},
    "infeed": {"name": "Infeed conveyor speed", "unit": "%", "writable": True,
               "min": 0, "max": 100},
    "outfeed": {"name": "Outfeed conveyor run", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", ["stop the pump", "turn off the heater", "heater off",
                                  "stop the conveyor", "conveyor off"])
async def test_stop_is_no_switch_of_another_thing(text: str) -> None:
    """A speed let go for a run switch only of the same thing: each had written the other
    thing's switch."""
    name, (point, value) = await _routed(TWO_THINGS, text)
    assert name != "write", (point, value)


SWITCH_OF_ANOTHER_KIND = Router(exec_plant("centrifuge", {
    "speed": {"name": "Centrifuge speed", "unit": "rpm", "writable": True,
              "min": 0, "max": 1200},
    "wash": {"name": "Centrifuge wash", "type": "bool", "writable": True},
}))


async def test_a_switch_that_is_no_run_switch_does_not_take_the_stop() -> None:
    """"Centrifuge wash" runs no centrifuge: stopping it is still its speed at 0, or asked."""
    name, (point, _) = await _routed(SWITCH_OF_ANOTHER_KIND, "stop the centrifuge")
    assert (name, point) != ("write", "wash")


ATK36 = Router(exec_plant("atk36", {
    "HS_013": {"name": "HS-013", "type": "bool", "writable": True,
               "description": "Brine pump 3 stop/start (1 = stop)"},
    "HS_014": {"name": "HS-014", "type": "bool", "writable": True,
               "description": "Feed pump 4 on/off, inverted: 0 = on"},
    "XV_301": {"name": "XV-301", "type": "bool", "writable": True,
               "description": "Tank 3 drain valve open/closed"},
    "XV_302": {"name": "XV-302", "type": "bool", "writable": True,
               "description": "Tank 3 fill valve open/close"},
    "HV_401": {"name": "HV-401", "unit": "%", "writable": True, "min": 0, "max": 100,
               "description": "Spare"},
    "chiller_temp": {"name": "Chiller leaving water temperature", "unit": "°C"},
    "chiller_vane": {"name": "Chiller inlet guide vanes", "unit": "°", "writable": True,
                     "min": 0, "max": 90},
    "deck": {"name": "Deck angle", "unit": "°", "writable": True, "min": 0, "max": 30},
}))


@pytest.mark.parametrize("text", [
    "start brine pump 3", "turn on feed pump 4", "open the tank 3 fill valve",
    "set the spare to 50", "set the chiller to 7 degrees"])
async def test_atk36_writes_nobody_asked_for(text: str) -> None:
    """atk36: a switch described with its polarity ("1 = stop"), a valve described by an
    action ("fill") beside one that was named, a spare output, and "7 degrees" of a chiller
    whose vanes are in ° (a temperature meant) had each been written."""
    name, (point, value) = await _routed(ATK36, text)
    assert name != "write", (point, value)


async def test_an_angle_said_in_degrees_is_still_written() -> None:
    assert await _routed(ATK36, "set the deck angle to 12 degrees") == ("write", ("deck", 12))


MEDIA = Router(exec_plant("media", {
    "meoh_pump": {"name": "Methanol transfer pump", "type": "bool", "writable": True},
    "meoh": {"name": "Methanol tank level", "unit": "%"},
    "pet_bunker": {"name": "PET bunker level", "unit": "%"},
    "digest_pump": {"name": "Digestate pump", "type": "bool", "writable": True},
    "flyash": {"name": "Fly ash silo level", "unit": "%"},
}))


@pytest.mark.parametrize("text", ["start the ethanol transfer pump", "启动甲苯输送泵",
                                  "start the manure pump"])
async def test_one_substance_is_no_other(text: str) -> None:
    """atk36: the lexicon's new media had made methanol, ethanol and toluene one solvent,
    digestate a manure: each pump had been started."""
    name, (point, value) = await _routed(MEDIA, text)
    assert name != "write", (point, value)


@pytest.mark.parametrize("text", ["ethanol tank level", "cardboard bunker level",
                                  "slag silo level"])
async def test_one_material_is_no_other_read(text: str) -> None:
    name, (point, _) = await _routed(MEDIA, text)
    assert name != "read", point


def test_a_stand_numbered_in_chinese_is_no_machine_word() -> None:
    """atk36: "二号机架" had been read as a machine "二号机" (the regex took the numeral)."""
    from tests.support.plants import model_read_checked
    plant = exec_plant("mill", {"stand2_amps": {"name": "Stand 2 current", "unit": "A",
                                                "names": {"zh": "2号机架电流"}}})
    action = model_read_checked(Router(plant), plant, "二号机架电流多少", "stand2_amps")
    assert action.name == "read", action
