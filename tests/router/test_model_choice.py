"""What the model is offered for a command, and how its choice is checked against the words.

The model picks among the semantic stage's candidates; it may write only where the words ask for
a write, with their value, to a point whose unit fits; and whatever it picks is checked: a point
that lacks a quantity, thing or medium the command names comes back as unknown_point.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hermesd.answer import Action
from hermesd.config.model import Config
from hermesd.router import Router
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import Analysis
from tests.support.daemon import fake_device
from tests.support.plants import NoWorker, cold_store, config_of, dev_plant, own_plant


def _battery() -> Config:
    return config_of({"node": {"id": "grid"}, "devices": {"bess": fake_device({
        "soc": {"name": "Battery state of charge", "type": "float", "unit": "%"},
        "battery_power": {"name": "Battery power", "type": "float", "unit": "kW"},
        "discharge_sp": {"name": "Battery discharge setpoint", "type": "float", "unit": "kW",
                         "writable": True, "min": 0, "max": 500},
        "reserve": {"name": "Battery reserve", "type": "float", "unit": "%",
                    "writable": True, "min": 0, "max": 100},
        "inverter1_power": {"name": "Inverter 1 power", "type": "float", "unit": "kW"},
        "inverter2_power": {"name": "Inverter 2 power", "type": "float", "unit": "kW"},
        "heater": {"name": "Battery room heater", "type": "bool", "writable": True},
    })}})


PLANTS: dict[str, Config] = {
    "battery": _battery(), "cold": config_of(cold_store()), "dev": config_of(dev_plant()),
    **{name: config_of(own_plant(name))
       for name in ("fishfarm", "paper_machine", "wastewater", "mine_conveyor", "quarry",
                    "cleanroom")}}


def handed_on(plant: str, text: str, *, strict: bool = True) -> tuple[ModelStage, Analysis]:
    """The stage and the analysis the model would get (`strict`: the command is the model's,
    no earlier stage places it)."""
    config = PLANTS[plant]
    router = Router(config)
    a = router.rules.analyse(text)
    judged = router.semantic.judge(a)
    if strict:
        assert router.rules.place(a) is None
        assert judged.placement is None, judged.placement
    return ModelStage(config, NoWorker()), replace(
        a, scored=[(f.score, f.point) for f in judged.fits], plural=judged.plural)


@pytest.mark.parametrize(("plant", "text", "point", "strict"), [
    ("cold", "brine temperature", "freezer1_air", True),  # a medium the plant has none of
    # the charge, not the power (a state of charge is a level: the semantic stage places it
    # on the charge itself; the check would refuse the power all the same)
    ("battery", "how full is the battery", "battery_power", False),
    # (the rules refuse these before the model; the check would too)
    ("battery", "what's inverter 3 producing", "inverter1_power", False),  # another number
    ("battery", "how hot is the battery room", "heater", False),  # a measure of an on/off
    # a thing other points are of, said of a point of no thing
    ("dev", "what is the temperature of boiler 3", "outdoor_temp", False),
    ("fishfarm", "how much oxygen is in tank 2", "o2_setpoint", False),
    # a word like "outside" that another candidate explains with all this one does
    ("dev", "is it warm outside", "boiler1_temp", False),
])
def test_a_choice_that_lacks_what_is_named_comes_back_unknown(plant: str, text: str,
                                                              point: str, strict: bool) -> None:
    stage, a = handed_on(plant, text, strict=strict)
    checked = stage.check(a, Action("read", {"point": point}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    assert checked.args["model"] == f"read {point}"


@pytest.mark.parametrize(("plant", "text", "point"), [
    # a quantity the point does not have, though a word of it is one the point is named by
    ("dev", "what's the heat flow", "boiler1_temp"),  # "heat" alone is a temperature
    ("cold", "what's the heat load on the freezer", "freezer1_air"),
    # ...a flow, but not of what is asked: "steam" is no word of the thick stock's flow
    ("paper_machine", "steam flow to the dryers", "stock_flow"),
    # ...a quantity a unit of many (mg/L) would measure, of a point whose name says another
    ("wastewater", "what's the phosphorus in the effluent", "mlss"),
    ("wastewater", "what's the DO in basin 3", "mlss"),
    # a medium other points of the plant are named by, which this one is not
    ("wastewater", "how many m3/h of sludge are we wasting", "influent_flow"),
    # ...while a word of the plant's names in a phrase that means the same as the word
    # ("jaw crusher": a crusher) still names the thing it names
    ("quarry", "jaw crusher oil temperature", "cone_oil_temp"),
])
def test_a_choice_that_lacks_the_quantity_or_medium_named_comes_back_unknown(
        plant: str, text: str, point: str) -> None:
    stage, a = handed_on(plant, text, strict=False)
    checked = stage.check(a, Action("read", {"point": point}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    # and the model is offered the refusal: the best candidate does not explain it all
    assert [c for c in stage.offer(a) if c.name == "respond"]


def _heat_plant() -> Config:
    """A plant nobody tuned on: a district heating substation with a heat meter."""
    return config_of({"node": {"id": "sub"}, "devices": {"meter": fake_device({
        "heat_power": {"name": "Heat meter power", "type": "float", "unit": "kW"},
        "supply_temp": {"name": "Primary supply temperature", "type": "float", "unit": "°C"},
        "return_temp": {"name": "Primary return temperature", "type": "float", "unit": "°C"},
        "water_flow": {"name": "Primary water flow", "type": "float", "unit": "m³/h"},
    })}})


PLANTS["substation"] = _heat_plant()


def test_the_same_words_stand_where_the_point_has_them() -> None:
    # the heat flow is the meter's power in kW (a unit of heat flow, and "heat" is its word)
    stage, a = handed_on("substation", "what's the heat flow", strict=False)
    assert stage.check(a, Action("read", {"point": "heat_power"})) == \
        Action("read", {"point": "heat_power"})
    checked = stage.check(a, Action("read", {"point": "supply_temp"}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    checked = stage.check(a, Action("read", {"point": "water_flow"}))  # a flow, of water
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked


@pytest.mark.parametrize(("plant", "text", "point"), [
    ("battery", "how full is the battery", "soc"),
    ("fishfarm", "how salty is the water", "salinity"),  # the water is no thing of its own
    ("fishfarm", "how much water is in the sump", "sump_level"),
    # "level" of a phrase whose other word names the quantity ("ammonia level") asks nothing
    # of its own
    ("fishfarm", "ammonia levels?", "ammonia"),
    ("wastewater", "oxygen level aeration tank two", "basin2_do"),
    # water, air, oil: what most things hold is context, whether or not a point names it
    ("mine_conveyor", "how deep is the water in the sump", "sump_level"),
    # a word that means another thing in a phrase than alone: the "blower main" is an air
    # main, no blower (though the plant has blowers); an influent is sewage coming in
    ("wastewater", "what's the air pressure in the blower main", "air_main_pressure"),
    ("wastewater", "pH of the incoming sewage", "influent_ph"),
    # a room several points are in is where a point of no thing is
    ("cleanroom", "particles in the room", "particle_count"),
    # ...while a word another point merely shares is no reason ("door left open" alarm)
    ("cold", "how much flour is left in the silo", "flour_level"),
])
def test_a_choice_that_has_what_is_named_stands(plant: str, text: str, point: str) -> None:
    stage, a = handed_on(plant, text, strict=False)
    assert stage.check(a, Action("read", {"point": point})) == \
        Action("read", {"point": point})


def test_writes_are_offered_only_with_a_write_in_the_words_and_a_unit_that_fits() -> None:
    stage, a = handed_on("battery", "push the battery to three hundred kW discharge")
    writes = {c.line for c in stage.offer(a) if c.name == "write"}
    assert writes == {"write discharge_sp 300"}  # never to the reserve in %
    stage, a = handed_on("battery", "battery discharge three hundred kilowatts?", strict=False)
    assert not [c for c in stage.offer(a) if c.name == "write"]  # a question


def test_a_write_with_no_value_to_offer_is_offered_no_read() -> None:
    stage, a = handed_on("battery", "make the battery behave")
    offered = stage.offer(a)
    assert offered and all(c.name == "respond" for c in offered)


def test_with_a_candidate_that_explains_everything_the_model_only_chooses() -> None:
    stage, a = handed_on("fishfarm", "pH of the recirculation water")
    lines = [c.line for c in stage.offer(a)]
    assert "read ph" in lines and not [line for line in lines if line.startswith("respond")]
    # (no candidate explains a question of the trade: the model may say none fits; "how
    # long do salmon live" no longer reaches it, a time the plant has none of)
    stage, a = handed_on("fishfarm", "why do salmon jump")
    assert [c.line for c in stage.offer(a) if c.line.startswith("respond")]


def _moulding() -> Config:
    return config_of({"node": {"id": "imm"}, "devices": {"press": fake_device({
        "cycle_time": {"name": "Cycle time", "type": "float", "unit": "s"},
        "shot_count": {"name": "Shot counter", "type": "int", "unit": "shots"},
        "melt_temp": {"name": "Melt temperature", "type": "float", "unit": "°C"},
    })}})


PLANTS["moulding"] = _moulding()


def test_a_count_beside_a_quantity_the_point_has_is_context() -> None:
    stage, a = handed_on("moulding", "what was the cycle time of the last shot", strict=False)
    assert stage.check(a, Action("read", {"point": "cycle_time"})) == \
        Action("read", {"point": "cycle_time"})
    # asked for alone, the count is what is asked: the cycle time is no answer
    stage, a = handed_on("moulding", "how many shots so far", strict=False)
    checked = stage.check(a, Action("read", {"point": "cycle_time"}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked


def test_a_setting_asked_for_is_no_measurement() -> None:
    stage, a = handed_on("dev", "what is the boiler 3 setpoint", strict=False)
    checked = stage.check(a, Action("read", {"point": "boiler3_temp"}))
    assert checked.name == "respond" and checked.args["asked"] == "setpoint", checked
    assert stage.check(a, Action("read", {"point": "boiler3_setpoint"})) == \
        Action("read", {"point": "boiler3_setpoint"})


@pytest.mark.parametrize("text", ["O2 setpoint 8", "what's the o2 setpoint"])
def test_a_chemical_formula_is_no_numbered_thing(text: str) -> None:
    # "O2" is oxygen, not a thing "o" number 2 (while "kiln2" is kiln 2)
    stage, a = handed_on("fishfarm", text, strict=False)
    assert stage.check(a, Action("read", {"point": "o2_setpoint"})) == \
        Action("read", {"point": "o2_setpoint"})
    assert stage.semantic.ids(a, stage.semantic.terms(a))[1] == set()
    stage, a = handed_on("fishfarm", "what's the oxygen in tank2", strict=False)
    assert ("tank", "2") in stage.semantic.ids(a, stage.semantic.terms(a))[1]


def test_a_number_before_a_unit_word_is_a_value_to_the_check() -> None:
    # "fifty five percent": a value, no valve number 55
    stage, a = handed_on("cleanroom", "chw valve fifty five percent", strict=False)
    assert stage.check(a, Action("write", {"point": "chw_valve", "value": 55})) == \
        Action("write", {"point": "chw_valve", "value": 55})
