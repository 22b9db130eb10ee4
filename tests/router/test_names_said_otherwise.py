"""Names said otherwise than written, on plants of my own (blind batch 26 showed the need:
a salt works named by ISA tags, a recycling plant, a sterile services department):

- a word the names write joined is said apart, and one written apart is said joined
  ("feed water pump" of a "Feedwater pump", "coalmill 2" of a "Coal mill 2");
- a point named by its tag alone ("LT-203") is said as its description begins;
- a side named (inlet, exhaust) is no other side's point;
- "stop" a thing with a run switch is the switch, not its speed at 0.
"""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, exec_plant, routed_without_model


async def _routed(router: Router, text: str) -> tuple[str, Any]:
    action = await routed_without_model(router, text)
    return action.name, (action.args.get("point") or action.args.get("points")
                         or action.args.get("reason"), action.args.get("value"))


BOILERS = Router(exec_plant("boilers", {
    "fw1_speed": {"name": "Feedwater pump 1 speed", "unit": "rpm", "writable": True,
                  "min": 0, "max": 3000},
    "fw2_speed": {"name": "Feedwater pump 2 speed", "unit": "rpm", "writable": True,
                  "min": 0, "max": 3000},
    "mill2_amps": {"name": "Coal mill 2 motor current", "unit": "A"},
    "gas_valve": {"name": "Gas shutoff valve", "type": "bool", "writable": True},
    "head_level": {"name": "Headwater level", "unit": "m"},
    "tail_level": {"name": "Tailwater level", "unit": "m"},
}))


@pytest.mark.parametrize(("text", "expected"), [
    ("feed water pump 1 speed", ("read", ("fw1_speed", None))),
    ("what's the feed water pump 2 speed", ("read", ("fw2_speed", None))),
    ("set feed water pump 2 to 1500 rpm", ("write", ("fw2_speed", 1500))),
    ("coalmill 2 current", ("read", ("mill2_amps", None))),
    ("head and tail water levels", ("read", (["head_level", "tail_level"], None))),
    ("shut off the gas shutoff valve", ("write", ("gas_valve", False))),
])
async def test_a_word_said_apart_or_joined_is_the_names_word(text: str, expected: Any) -> None:
    """Before, the first three were asked back ("feed", "water" unexplained); the rest stand
    (the joining of "head and tail water" reads both, "shut off" is not joined)."""
    assert await _routed(BOILERS, text) == expected


async def test_two_words_said_are_not_joined_into_a_name_word_with_a_verb() -> None:
    """"shut off" is said; the "shutoff" of the valve's name is not made of it: one pump
    of two named otherwise is still no write of "off"."""
    name, (point, _) = await _routed(BOILERS, "shut off feed water pump")
    assert name != "write", point


PUMPHOUSE = Router(exec_devices("snow", {
    "pumphouse": {"water_temp": {"name": "Reservoir water temperature", "unit": "°C"},
                  "pump1": {"name": "Pump 1", "type": "bool", "writable": True}},
}))


async def test_a_device_written_joined_names_no_point() -> None:
    """The device's id is no name of its points: there is no pump house temperature (the
    reservoir's water is measured there)."""
    name, (point, _) = await _routed(PUMPHOUSE, "pump house temperature")
    assert name != "read", point


SALT = Router(exec_plant("salt", {
    "LT_203": {"name": "LT-203", "description": "Effect 2 level", "unit": "%"},
    "LIC_103": {"name": "LIC-103 effect 1 level", "unit": "%"},
    "PI_202": {"name": "PI-202", "unit": "kPa",
               "description": "Effect 2 vapour space absolute pressure"},
    "FT_012": {"name": "FT-012", "unit": "m³/h",
               "description": "Brine well 2 flow to the raw brine tank"},
    "HS_011": {"name": "HS-011 brine well pump 1 run", "type": "bool", "writable": True},
    "SIC_011": {"name": "SIC-011 brine well pump 1 speed", "unit": "%", "writable": True,
                "min": 0, "max": 100},
    "HS_012": {"name": "HS-012", "type": "bool", "writable": True,
               "description": "Brine well pump 2 start/stop (fixed speed pump)"},
    "TIC_601": {"name": "TIC-601 dryer inlet air temperature", "unit": "°C"},
    "TI_602": {"name": "TI-602", "unit": "°C",
               "description": "Fluid-bed dryer exhaust air temperature"},
    "SIC_501": {"name": "SIC-501 centrifuge speed", "unit": "rpm", "writable": True,
                "min": 0, "max": 1200},
    "HS_501": {"name": "HS-501 centrifuge run", "type": "bool", "writable": True},
    "CONV_SPEED": {"name": "Product conveyor speed", "unit": "%", "writable": True,
                   "min": 0, "max": 100},
}))


@pytest.mark.parametrize(("text", "expected"), [
    ("effect 2 level", ("read", ("LT_203", None))),
    ("what pressure is effect two running at", ("read", ("PI_202", None))),
    ("brine well 2 flow", ("read", ("FT_012", None))),
    ("is brine well pump 2 running", ("read", ("HS_012", None))),
    ("start brine well pump two", ("write", ("HS_012", True))),
    ("stop brine well pump 2", ("write", ("HS_012", False))),
    ("dryer exhaust air temp", ("read", ("TI_602", None))),
])
async def test_a_point_named_by_its_tag_alone_is_said_as_described(text: str,
                                                                   expected: Any) -> None:
    """Each had been asked back, or the pump's "pump 2" taken for one the plant lacks;
    "dryer exhaust air temp" had read the dryer *inlet* air temperature."""
    assert await _routed(SALT, text) == expected


async def test_a_described_slash_word_is_no_verb_of_the_point() -> None:
    """"start/stop" of the description names nothing: the start is the command's."""
    assert await _routed(SALT, "start brine well pump 2") == ("write", ("HS_012", True))


INLET_ONLY = Router(exec_plant("dryer", {
    "inlet": {"name": "Dryer inlet air temperature", "unit": "°C"},
    "suction": {"name": "Pump 1 suction pressure", "unit": "bar"},
}))


@pytest.mark.parametrize("text", ["dryer exhaust air temp", "dryer outlet air temperature",
                                  "pump 1 discharge pressure"])
async def test_a_side_named_is_no_point_of_the_other_side(text: str) -> None:
    """The plant measures the inlet (the suction) only: the outlet is not it."""
    name, (point, _) = await _routed(INLET_ONLY, text)
    assert name != "read", point
    assert await _routed(INLET_ONLY, "dryer inlet air temp") == ("read", ("inlet", None))


@pytest.mark.parametrize(("text", "expected"), [
    ("stop the centrifuge", ("write", ("HS_501", False))),
    ("shut off the centrifuge", ("write", ("HS_501", False))),
    ("stop brine well pump 1", ("write", ("HS_011", False))),
    ("stop the product conveyor", ("write", ("CONV_SPEED", 0))),
])
async def test_stop_is_the_run_switch_where_there_is_one(text: str, expected: Any) -> None:
    """"stop the centrifudge" had set the centrifuge's speed to 0 beside its run switch; a
    conveyor with a speed alone is still stopped at 0."""
    assert await _routed(SALT, text) == expected


async def test_a_misspelled_thing_stopped_is_not_its_speed() -> None:
    name, (point, value) = await _routed(SALT, "stop the centrifudge")
    assert (name, point) != ("write", "SIC_501"), value


@pytest.mark.parametrize("text", ["more product conveyor speed please",
                                  "give me more product conveyor speed",
                                  "less product conveyor speed"])
async def test_more_or_less_of_a_setting_asks_a_change(text: str) -> None:
    """"more conveyor speed please" had read the speed: a change is asked, by an amount the
    words do not say; it is asked back."""
    name, (point, value) = await _routed(SALT, text)
    assert name == "respond", (point, value)


LOOSE = Router(exec_plant("loose", {
    "csg_pressure": {"name": "Clean steam generator pressure", "unit": "bar"},
    "csg_pressure_sp": {"name": "Clean steam generator pressure setpoint", "unit": "bar",
                        "writable": True, "min": 0, "max": 4},
    "effect3_vacuum": {"name": "Effect 3 absolute pressure", "unit": "kPa"},
    "splitter": {"name": "Eddy current splitter position", "unit": "mm", "writable": True,
                 "min": 0, "max": 200},
    "trommel_speed": {"name": "Trommel speed", "unit": "rpm", "writable": True,
                      "min": 0, "max": 20},
}))


@pytest.mark.parametrize(("text", "point"), [
    ("what's the clean steam generator at, pressure-wise", "csg_pressure"),
    ("trommel speed wise, where are we", "trommel_speed"),
    ("how much vacuum have we got on effect 3", "effect3_vacuum"),
    ("where's the eddy current splitter set", "splitter"),
])
async def test_a_question_said_loosely_is_read(text: str, point: str) -> None:
    """"-wise" asks about the quantity, "have we got" asks, "where's … set" is a question
    (it had been taken for a write of no value): each had been asked back."""
    assert await _routed(LOOSE, text) == ("read", (point, None))


async def test_clockwise_is_no_quantity_asked() -> None:
    name, (point, value) = await _routed(LOOSE, "turn the trommel clockwise")
    assert name != "write", (point, value)
