"""A narrower quantity said ("outside temperature", "core temperature", "oil temp") names
where or of what the quantity is. A point whose names say no quantity ("Digester heating
setpoint", "Glycol cooler setpoint") is what its unit measures, but its unit does not say
which temperature: it may be meant, and the rules are not sure of it (review atk63: "set the
outside temperature to 35" wrote the digester's heating setpoint).

What such a phrase's words name alone still explains it ("tubing pressure" of a "W2 TBG
PSI"), as a narrower quantity said in one word does ("vacuum" of a suction in mbar)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import (
    config_of,
    exec_plant,
    model_checked,
    own_plant,
    routed_without_model,
)

CONFIG = exec_plant("narrower", {
    "gly_sp": {"name": "Glycol cooler setpoint", "unit": "°C", "writable": True,
               "min": -10, "max": 40},
    "gly_t": {"name": "Glycol supply temperature", "unit": "°C"},
    "fv1_sp": {"name": "FV1 temperature setpoint", "unit": "°C", "writable": True,
               "min": 0, "max": 25},
    "suction": {"name": "Gas field suction", "unit": "mbar"},
})
ROUTER = Router(CONFIG)
WASTEWATER = config_of(own_plant("wastewater"))


@pytest.mark.parametrize("text", [
    "set the oil temp to 4",
    "set the outside temperature to 4",
    "set the ambient temperature to 4",
    "set the core temperature to 4",
    "set the approach temp to 3",
    "set the product temperature to 4",
    # ...said in one word: where or of what it is measured (review atk64, C1)
    "set the OAT to 4",
    "set the superheat to 4",
    "set the subcooling to 4",
    "set the dewpoint to 4",
    "set the approach to 3",
    "set the EGT to 4",
    "set the WBT to 4",
])
async def test_a_narrower_temperature_is_no_write_of_a_setpoint_that_names_none(
        text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action


@pytest.mark.parametrize("text", ["what is the outside temperature", "what's the oil temp",
                                  "what's the superheat", "what's the OAT"])
async def test_nor_a_read_of_it(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "want"), [
    ("set the glycol temperature to 4", Action("write", {"point": "gly_sp", "value": 4})),
    ("glycol setpoint 3", Action("write", {"point": "gly_sp", "value": 3})),
    ("set the glycol cooler to 3", Action("write", {"point": "gly_sp", "value": 3})),
    ("how much vacuum are we pulling on the gas field", Action("read", {"point": "suction"})),
])
async def test_what_the_point_says_still_places_it(text: str, want: Action) -> None:
    assert await routed_without_model(ROUTER, text) == want


@pytest.mark.parametrize("text", [
    "set the outside temperature to 35",
    "set the core temperature to 35",
    "set the ambient temp to 35",
    "set the oil temp to 35",
])
async def test_the_wastewater_digester_setpoint_is_not_written_for_another_temperature(
        text: str) -> None:
    router = Router(WASTEWATER)
    action = await routed_without_model(router, text)
    assert action.name == "respond", action
    # and were the model to propose it, the check refuses it
    checked = model_checked(router, WASTEWATER, text,
                            Action("write", {"point": "digester_heating_sp", "value": 35}))
    assert checked.name == "respond", checked


async def test_the_digester_setpoint_is_still_written_when_it_is_named() -> None:
    router = Router(WASTEWATER)
    for text in ("set the digester heating setpoint to 35", "set the digester temperature to 35"):
        assert await routed_without_model(router, text) == \
            Action("write", {"point": "digester_heating_sp", "value": 35})


@pytest.mark.parametrize("text", ["set the superheat to 35", "set the OAT to 35",
                                  "set the EGT to 35", "set the dewpoint to 35",
                                  "what's the wet bulb"])
async def test_a_narrower_temperature_in_one_word_is_not_the_only_setpoint_in_degrees(
        text: str) -> None:
    """The wastewater plant's one setpoint in °C is its digester heating's: a superheat, an
    outside air or exhaust gas temperature, a dew point is none of it (review atk64, C1:
    the rules wrote it)."""
    action = await routed_without_model(Router(WASTEWATER), text)
    assert action.name == "respond", action
