"""Verbs of a question that say how its subject goes about what is asked, not which point:
"how many pallets has the wrapper handled", "what speed is the wrapper doing". A verb that says
which way or what of it still names ("using", "carrying", "done", "making": an import, a load, a
count, a production), as does one the plant or the lexicon knows ("what temperature are we
targeting": a setpoint; "what's line 2 curtailed to"). A measure asked ("how high") is no
on/off point's."""

from __future__ import annotations

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

CONFIG = exec_devices("works", {
    "site_plc": {
        "boiler_steam_flow": {"name": "Boiler steam flow", "unit": "t/h"},
        "boiler_steam_press": {"name": "Boiler steam pressure", "unit": "bar"},
        "wrapper_count": {"name": "Wrapper pallet count", "type": "uint32"},
        "wrapper_speed": {"name": "Wrapper turntable speed", "unit": "rpm"},
        "holder_press": {"name": "Gas holder pressure", "unit": "mbar"},
        "holder_temp": {"name": "Gas holder temperature", "unit": "°C"},
        "oven_temp": {"name": "Oven temperature", "unit": "°C"},
        "oven_temp_sp": {"name": "Oven temperature setpoint", "unit": "°C", "writable": True,
                         "min": 100, "max": 260},
        "line2_limit": {"name": "Line 2 curtailment setpoint", "unit": "kW", "writable": True,
                        "min": 0, "max": 500},
        "line2_power": {"name": "Line 2 power", "unit": "kW"},
    },
    "weather": {
        "rain_rate": {"name": "Rain intensity", "unit": "mm/h"},
        "rain_24h": {"name": "Rain 24h total", "unit": "mm"},
        "wind_speed": {"name": "Wind speed", "unit": "m/s"},
    },
})
ROUTER = Router(CONFIG)


def _read(point: str) -> tuple[str, dict[str, str]]:
    return ("read", {"point": point})


async def test_a_verb_after_the_subject_names_no_point() -> None:
    said = {
        "how many pallets has the wrapper handled": "wrapper_count",
        "what speed is the wrapper doing": "wrapper_speed",
    }
    for text, point in said.items():
        action = await routed_without_model(ROUTER, text)
        assert (action.name, action.args) == _read(point), text


async def test_the_plants_own_words_and_the_lexicons_still_name() -> None:
    action = await routed_without_model(ROUTER, "what oven temperature are we targeting")
    assert (action.name, action.args) == _read("oven_temp_sp")
    action = await routed_without_model(ROUTER, "what's line 2 curtailed to")
    assert (action.name, action.args) != _read("line2_power")


async def test_a_verb_before_the_subject_is_not_dropped() -> None:
    # no auxiliary and subject before it: "raising" may be what is asked
    action = await routed_without_model(ROUTER, "raising the boiler steam")
    assert action.name != "read"


async def test_a_verb_of_what_is_made_or_lost_still_names() -> None:
    # "rejected", "wasted": no count of what was made
    for text in ("how many pallets has the wrapper rejected",
                 "how many pallets has the wrapper scrapped"):
        action = await routed_without_model(ROUTER, text)
        assert (action.name, action.args) != _read("wrapper_count"), text


async def test_a_verb_of_making_still_asks_what_is_made() -> None:
    # "making" asks a production, which the gas holder's pressure is not
    action = await routed_without_model(ROUTER, "how much gas are we making")
    assert (action.name, action.args) not in (_read("holder_press"), _read("holder_temp"))
    # ...and so does the particle of a verb: "putting out" is an output
    action = await routed_without_model(ROUTER, "what's the boiler putting out")
    assert (action.name, action.args) != _read("boiler_steam_press")


async def test_verbs_that_say_which_way_still_name() -> None:
    # "using", "carrying", "done" say what of it (an import, a load, a count): not dropped
    # (review atk45: "how much power is the site using" had read its export)
    for text in ("how much steam is the boiler using", "how many pallets has the wrapper used"):
        action = await routed_without_model(ROUTER, text)
        assert action.name != "read", text


SUMP = Router(exec_devices("mine", {"pump_plc": {
    "sump_level": {"name": "Sump level", "unit": "%"},
    "sump_high": {"name": "Sump level high", "type": "bool"},
    "sump_pump": {"name": "Sump pump run", "type": "bool", "writable": True},
}}))


async def test_a_measure_asked_is_no_switchs() -> None:
    # "how high" asks a measure, which the high-level switch does not give (it was read)
    for text in ("how high's the water in the sump", "how high is the sump level"):
        action = await routed_without_model(SUMP, text)
        assert (action.name, action.args) != _read("sump_high"), text
    # asked yes or no, it does
    action = await routed_without_model(SUMP, "is the sump level high")
    assert (action.name, action.args) == _read("sump_high")
