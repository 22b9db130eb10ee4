"""Review atk56 of blind batch 52's words: a flame lit is the one switch that is that flame
(never a stop, an isolation, a mode, a number or a choice of it), never read when asked; a
number after a number sign is a value at the end of a command; "on the" after a number is a
place only when the thing is stopped; t/d names no flow of another unit."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

KILN = Router(exec_plant("kiln", {
    "bstop": {"name": "Burner stop", "type": "bool", "writable": True},
    "besd": {"name": "Burner ESD", "type": "bool", "writable": True},
    "kb_run": {"name": "Kiln burner running", "type": "bool"},
    "kb_iso": {"name": "Kiln burner isolate", "type": "bool", "writable": True},
    "bman": {"name": "Burner manual", "type": "bool", "writable": True},
    "fuel_sp": {"name": "Burner 1 fuel setpoint", "unit": "%", "writable": True, "min": 0,
                "max": 100},
    "kiln_sp": {"name": "Kiln speed setpoint", "unit": "rpm", "writable": True, "min": 0.5,
                "max": 4.5},
    "profile": {"name": "Roaster 1 profile", "type": "int", "writable": True,
                "map": {1: "light", 2: "medium", 3: "dark"}},
    "h2s": {"name": "Beamhouse H2S", "unit": "ppm"},
    "tap": {"name": "Transformer tap position", "type": "int", "writable": True, "min": 1,
            "max": 17},
    "preset": {"name": "Mixer preset", "type": "int", "writable": True, "min": 1, "max": 9},
    "p1_auto": {"name": "Pump 1 auto", "type": "bool", "writable": True},
    "feed": {"name": "Feed rate", "unit": "t/d"},
    "gas_flow": {"name": "Biogas flow", "unit": "Nm³/h"},
}))

SIDES = Router(exec_plant("sides", {
    "bl": {"name": "Left burner", "type": "bool", "writable": True},
    "br": {"name": "Right burner", "type": "bool", "writable": True},
    "flare": {"name": "Emergency flare", "aliases": ["gas flare"], "type": "bool",
              "writable": True},
}))


@pytest.mark.parametrize("text", [
    # a stop, an emergency stop, an isolation, a mode of the burner: no flame of it
    "light the burner",
    "extinguish the burner",
    "light the kiln burner",
    # a flame verb and a number, or a choice named "light": no number nor choice written
    "light the burner 1",
    "fire the kiln to 1450",
    "light the roaster 1",
])
async def test_no_flame_writes_what_is_no_flame(text: str) -> None:
    action = await routed_without_model(KILN, text)
    assert action.name != "write", (text, action)


@pytest.mark.parametrize("name", ["Burner stop", "Burner ESD", "Burner 2 isolate",
                                  "Burner manual", "Flare shutoff"])
@pytest.mark.parametrize("text", ["light the burner", "extinguish the burner",
                                  "light burner 2", "light the flare", "extinguish the flare"])
async def test_no_switch_of_a_flame_but_the_flame_is_lit(name: str, text: str) -> None:
    """The one switch of the plant, named by what it does to the flame: never lit."""
    router = Router(exec_plant("one", {"switch": {"name": name, "type": "bool",
                                                  "writable": True}}))
    action = await routed_without_model(router, text)
    assert action.name != "write", (name, text, action)


@pytest.mark.parametrize(("text", "value"), [
    ("light the left burner", True),
    ("light the flare", True),
    ("extinguish the gas flare", False),
])
async def test_the_one_flame_named_is_lit(text: str, value: bool) -> None:
    action = await routed_without_model(SIDES, text)
    expected = "bl" if "left" in text else "flare"
    assert action.to_dict() == {"name": "write", "args": {"point": expected, "value": value}}


@pytest.mark.parametrize("text", [
    "light the burner",  # the left one or the right one
    "light the flare?",  # a question, no command
])
async def test_no_flame_is_guessed(text: str) -> None:
    action = await routed_without_model(SIDES, text)
    assert action.name == "respond", (text, action)


@pytest.mark.parametrize(("text", "point", "value"), [
    # a number after a number sign at the end of a command is its value
    ("set the transformer tap position number 9", "tap", 9),
    ("set the mixer preset to #3", "preset", 3),
    # "on the" names a state here: no thing is stopped
    ("put pump 1 on the auto", "p1_auto", True),
])
async def test_values_after_signs_and_ons(text: str, point: str, value: Any) -> None:
    action = await routed_without_model(KILN, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize(("text", "point"), [
    ("how many tonnes per day", "feed"),
    ("what is the feed in t/d", "feed"),
])
async def test_tonnes_a_day_is_no_gas_flow(text: str, point: str) -> None:
    action = await routed_without_model(KILN, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


async def test_a_fuel_burnt_reads_no_gas_in_the_air() -> None:
    action = await routed_without_model(KILN, "how much gas have we burned")
    assert action.point != "h2s", action


@pytest.mark.parametrize(("points", "text"), [
    # a switch one of whose names ends in a flame, and another that stops it
    ({"s": {"name": "Burner 2 stop", "aliases": ["burner two"], "type": "bool",
            "writable": True}}, "light the burner"),
    ({"s": {"name": "Burner 2 stop", "aliases": ["burner two"], "type": "bool",
            "writable": True}}, "extinguish burner 2"),
    ({"s": {"name": "Burner loss of flame", "type": "bool", "writable": True}},
     "light the flame"),
    # "up" lights no other switch than the one that is the flame said
    ({"b1": {"name": "Burner 1", "type": "bool", "writable": True},
      "p2": {"name": "Burner 2 pilot", "type": "bool", "writable": True}},
     "fire up the burner 1 pilot"),
    ({"bl": {"name": "Left burner", "type": "bool", "writable": True},
      "br": {"name": "Right burner", "type": "bool", "writable": True}},
     "light up the burners"),
])
async def test_review_atk56b_lights_nothing(points: dict[str, Any], text: str) -> None:
    action = await routed_without_model(Router(exec_plant("b", points)), text)
    assert action.name != "write", (text, action)


LEFT = Router(exec_plant("left", {
    "isolator_dp": {"name": "Isolator differential pressure", "unit": "Pa"},
    "methane": {"name": "Methane", "unit": "%"},
    "tank2_o2": {"name": "Tank 2 oxygen", "unit": "mg/L"},
    "pump2": {"name": "Pump 2", "type": "bool", "writable": True},
    "reversal": {"name": "Time to reversal", "unit": "min"},
}))


@pytest.mark.parametrize("text", [
    "how much is left",  # no level, volume, weight, charge: nothing is left to say
    "how much water is left",
    "what is left on",  # what still runs
    "no2 concentration",  # the gas as often as number 2
])
async def test_review_atk56b_reads_nothing(text: str) -> None:
    action = await routed_without_model(LEFT, text)
    assert action.name == "respond", (text, action)


async def test_how_much_time_is_left() -> None:
    action = await routed_without_model(LEFT, "how much time is left")
    assert action.to_dict() == {"name": "read", "args": {"point": "reversal"}}
