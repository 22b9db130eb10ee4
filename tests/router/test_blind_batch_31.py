"""What blind batch 31 (a chlor-alkali plant, an aluminium potline, a canal lock) found wrong,
on plants written here: numbers read out digit by digit, a name that shortens a word its
description spells out, a unit word that is a word of the name ("Line amps SP" in kA), a pot
numbered with a possessive, an inflected word taken for a typo, a description's quantity
against the point's unit, and a setpoint whose only number is its tag's."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.normalize import tokens
from tests.support.plants import exec_plant, model_read_checked, routed_without_model


@pytest.mark.parametrize(("said", "number"), [
    ("pot one oh one", 101), ("room two zero seven", 207), ("one point oh five", 1.05),
    ("one point zero five", 1.05), ("cell one oh four", 104),
])
def test_digits_read_out_are_one_number(said: str, number: float) -> None:
    assert [t.number for t in tokens(said) if t.number is not None] == [number]


@pytest.mark.parametrize("said", ["one two three", "oh dear", "one oh", "zero one"])
def test_no_number_is_made_of_digits_without_a_zero_between(said: str) -> None:
    """"one two three" may be a count said out; "oh" alone or last is no zero."""
    assert len([t for t in tokens(said) if t.number is not None]) != 1 or said == "one oh"


POTLINE = Router(exec_plant("potline", {
    "line_amps": {"name": "Line amps", "unit": "kA"},
    "line_amps_sp": {"name": "Line amps SP", "unit": "kA", "writable": True, "min": 150,
                     "max": 240},
    "amps_mode": {"name": "Amps control mode", "type": "uint16", "writable": True,
                  "map": {0: "constant", 1: "load shed", 2: "ramp"}},
    "rect1_run": {"name": "Rect 1 run", "type": "bool", "writable": True,
                  "description": "Rectifier unit 1 on line (run command)."},
    "rect2_run": {"name": "Rect 2 run", "type": "bool", "writable": True,
                  "description": "Rectifier unit 2 on line (run command)."},
    "pot101_bath": {"name": "Pot 101 bath temp", "unit": "°C"},
    "pot104_bath": {"name": "Pot 104 bath temp", "unit": "°C"},
    "pot104_volts": {"name": "Pot 104 voltage", "unit": "V"},
    "pot104_target": {"name": "Pot 104 target voltage", "unit": "V", "writable": True,
                      "min": 3.8, "max": 4.6},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("line amps to two hundred and twenty kA", "line_amps_sp", 220),
    ("switch amps control to load shed", "amps_mode", "load shed"),
    ("shut down rectifier 1", "rect1_run", False),
    ("start rectifier 2", "rect2_run", True),
    ("drop 104's target voltage to 4.2 V", "pot104_target", 4.2),
])
async def test_a_potline_is_set_as_its_operators_say_it(text: str, point: str,
                                                       value: object) -> None:
    action = await routed_without_model(POTLINE, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


@pytest.mark.parametrize("text", ["line amps to 220 amps", "shut down rectifier 3",
                                  "drop 105's target voltage to 4.2 V"])
async def test_another_unit_or_thing_is_not_written(text: str) -> None:
    """220 A is no 220 kA; there is no rectifier 3, nor pot 105."""
    action = await routed_without_model(POTLINE, text)
    assert action.name != "write", action


async def test_a_pot_numbered_digit_by_digit_is_read() -> None:
    action = await routed_without_model(POTLINE, "bath temperature on pot one oh one")
    assert (action.name, action.args) == ("read", {"point": "pot101_bath"}), action


BRINE = Router(exec_plant("brine", {
    "ix_hardness": {"name": "Ion exchange outlet hardness", "unit": "ppb",
                    "description": "Calcium left in the brine leaving the columns."},
    "ix_mode": {"name": "Ion exchange mode", "type": "uint16", "writable": True,
                "map": {0: "column A leads", 1: "column B leads", 2: "regenerating"},
                "description": "Which resin column leads, or the regeneration."},
    "naoh": {"name": "Caustic circulation NaOH concentration", "unit": "%"},
    "dilution_sp": {"name": "Caustic circulation demin water setpoint", "unit": "L/h",
                    "writable": True, "min": 0, "max": 900,
                    "description": "Water added to the caustic loop to hold its strength."},
}))


async def test_an_inflected_word_is_no_typo() -> None:
    """"leading" is the description's "leads": no slip of "leaving", the outlet (a read of
    the outlet hardness had been sure)."""
    action = await routed_without_model(BRINE, "which IX column is leading at the moment")
    assert action.args.get("point") != "ix_hardness", action


async def test_a_description_tells_no_quantity_the_unit_does_not_measure() -> None:
    """A water setpoint in L/h described as holding the loop's strength sets a flow: the
    caustic's strength is its concentration, or asked back."""
    action = await routed_without_model(BRINE, "caustic strength in the circulation loop?")
    assert action.args.get("point") != "dilution_sp", action


CASTER = Router(exec_plant("caster", {
    "speed": {"name": "SI-4002 Casting speed actual", "unit": "m/min"},
    "speed_sp": {"name": "SIC-4001 Casting speed setpoint", "unit": "m/min", "writable": True,
                 "min": 0.3, "max": 1.8},
}))


@pytest.mark.parametrize("text", ["casting speed to 1.05",
                                  "casting speed to one point oh five metres a minute"])
async def test_a_setpoint_numbered_only_by_its_tag_stands_in(text: str) -> None:
    """The actual speed is read only: its setpoint, whose only number is its tag's, is the
    write meant (it had been sent to the reading, for policy to refuse)."""
    action = await routed_without_model(CASTER, text)
    assert (action.name, action.args) == ("write", {"point": "speed_sp", "value": 1.05}), action


LOCK = Router(exec_plant("lock", {
    "upper_open": {"name": "Upper gates open command", "type": "bool", "writable": True},
    "lower_open": {"name": "Lower gates open command", "type": "bool", "writable": True},
    "bubbler": {"name": "Upper gate bubbler run", "type": "bool", "writable": True},
    "pump1": {"name": "Back-pumping pump 1 run", "type": "bool", "writable": True},
    "pump2": {"name": "Back-pumping pump 2 run", "type": "bool", "writable": True},
    "breaker110": {"name": "Pot 110 crust breaker", "type": "bool", "writable": True},
    "breaker109_speed": {"name": "Pot 109 crust breaker stroke rate", "unit": "1/min",
                         "writable": True, "min": 0, "max": 10},
}))


async def test_a_plural_in_the_points_own_name_is_one_thing() -> None:
    """"gates" of "Upper gates open command" (a pair of mitre gates) names that one point,
    not several; "pumps" of two pumps is still a plural write, refused."""
    action = await routed_without_model(LOCK, "open the upper gates")
    assert (action.name, action.args) == ("write", {"point": "upper_open", "value": True})
    plural = await routed_without_model(LOCK, "stop the back-pumping pumps")
    assert plural.name == "respond" and plural.args.get("plural"), plural


@pytest.mark.parametrize(("text", "value"), [("stop the crust breaker on 110", False),
                                             ("start the crust breaker on 110", True)])
async def test_a_switch_numbered_after_on(text: str, value: bool) -> None:
    action = await routed_without_model(LOCK, text)
    assert (action.name, action.args) == ("write", {"point": "breaker110", "value": value})


async def test_a_number_after_on_is_a_value_of_a_number() -> None:
    """Of a setting (pot 109's stroke rate), "on 109" is no naming the rules may assume."""
    action = await routed_without_model(LOCK, "set the crust breaker stroke rate on 5")
    assert action.args.get("value") != 109, action


UNITS = Router(exec_plant("cells", {
    "load_sp": {"name": "Cell room 1 load setpoint", "unit": "kA", "writable": True, "min": 5,
                "max": 16},
    "heater": {"name": "Heater power setpoint", "unit": "kW", "writable": True, "min": 0,
               "max": 50},
    "energy": {"name": "Energy today", "unit": "kWh"},
}))


@pytest.mark.parametrize(("said", "number", "unit"), [
    ("13.8千安", 13.8, "ka"), ("20千瓦", 20, "kw"), ("3千克", 3, "kg"), ("2千瓦时", 2, "kwh"),
])
def test_a_chinese_unit_that_opens_with_a_numeral_is_a_unit(said: str, number: float,
                                                            unit: str) -> None:
    """千 of 千安 is the unit's kilo, no thousand: 13.8千安 is 13.8 kA (it had been 13800 安)."""
    toks = tokens(said)
    assert [(t.number, t.text) for t in toks] == [(number, str(number)), (None, unit)] or \
        [t.number for t in toks if t.number is not None] == [number]
    assert toks[-1].text == unit


@pytest.mark.parametrize(("text", "point", "value"), [
    ("1号电解厂房负荷设定为13.8千安", "load_sp", 13.8),
    ("加热功率设定为20千瓦", "heater", 20),
])
async def test_a_value_in_a_chinese_unit_is_written(text: str, point: str, value: float) -> None:
    action = await routed_without_model(UNITS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


async def test_a_value_in_another_chinese_unit_is_not_written() -> None:
    action = await routed_without_model(UNITS, "加热功率设定为20千安")
    assert action.name != "write", action


WEIR_CONFIG = exec_plant("weir", {
    "weir_n": {"name": "North bank weir gate position", "unit": "%"},
    "gate_l": {"name": "Upper gate left leaf position", "unit": "%",
               "description": "Opening of the left (north bank) leaf of the upper gates."},
})


def test_a_lone_character_of_one_thing_is_that_thing() -> None:
    """堰 alone is a weir: the model reading the upper gate's leaf (on the north bank too) for
    北岸堰门开度 is refused; the weir gate is not."""
    router = Router(WEIR_CONFIG)
    said = "北岸堰门开度"
    assert model_read_checked(router, WEIR_CONFIG, said, "gate_l").name == "respond"
    assert model_read_checked(router, WEIR_CONFIG, said, "weir_n").args.get("point") == "weir_n"
