"""What blind batch 34 (a malt distillery, a geothermal station named by P&ID tags, a Chinese-
first web offset press) found wrong, after it was measured unseen, on a plant written here: a
tag in a name of words ("ST-1 speed", "VP-501 run") is read as the words its description, or
another point's, writes it after ("steam turbine ST-1"), and a run switch is stopped by its tag
said alone ("stop P-301B" of a "P-301B run")."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model


async def _routed(router: Router, text: str) -> tuple[str, dict[str, object]]:
    action = await routed_without_model(router, text)
    return action.name, action.args


STATION = Router(exec_devices("station", {
    "powerhouse": {
        "gt1_speed": {"name": "GT-1 speed", "unit": "rpm",
                      "description": "Shaft speed of gas turbine GT-1."},
        "gt1_load_sp": {"name": "GT-1 load SP", "unit": "MW", "writable": True, "min": 0,
                        "max": 60, "description": "Load setpoint of the GT-1 governor."},
        "gen1_mw": {"name": "G-1 output", "unit": "MW"},
        "gt1_trip": {"name": "GT-1 trip", "type": "bool",
                     "description": "Turbine GT-1 tripped on any protection."},
        "fp_201a": {"name": "FP-201A run", "type": "bool", "writable": True,
                    "description": "Fuel gas booster pump FP-201A."},
        "fp_201b": {"name": "FP-201B run", "aliases": ["booster pump B"], "type": "bool",
                    "writable": True,
                    "description": "Fuel gas booster pump FP-201B."},
        "cw_101": {"name": "CWP-101 run", "type": "bool", "writable": True,
                   "description": "Cooling water pump CWP-101, feeds the lube oil coolers."},
        "cw_temp": {"name": "CW return temp", "unit": "°C"},
    },
}))


@pytest.mark.parametrize(("text", "action"), [
    ("turbine rpm?", ("read", {"point": "gt1_speed"})),
    ("gas turbine 1 speed", ("read", {"point": "gt1_speed"})),
    ("load the turbine to 38 MW", ("write", {"point": "gt1_load_sp", "value": 38})),
    ("start the cooling water pump", ("write", {"point": "cw_101", "value": True})),
])
async def test_a_tag_in_a_name_of_words_is_read_as_its_description_writes_it(
        text: str, action: object) -> None:
    assert await _routed(STATION, text) == action


@pytest.mark.parametrize(("text", "action"), [
    ("stop FP-201B", ("write", {"point": "fp_201b", "value": False})),
    ("start FP-201A", ("write", {"point": "fp_201a", "value": True})),
])
async def test_a_run_switch_is_switched_by_its_tag_alone(text: str, action: object) -> None:
    assert await _routed(STATION, text) == action


@pytest.mark.parametrize("text", ["stop FP-201", "start the booster pump", "stop FP-201C"])
async def test_a_tag_said_in_part_switches_nothing(text: str) -> None:
    """Two booster pumps, A and B: neither is said, and nothing is written."""
    assert (await _routed(STATION, text))[0] != "write"


STILLHOUSE = Router(exec_devices("stillhouse", {
    "stillhouse": {
        "cw_pump": {"name": "Condenser water pump", "aliases": ["CW pump"], "type": "bool",
                    "writable": True},
        "wb_cooling": {"name": "Washback 1 cooling", "type": "bool", "writable": True},
        "lw_level": {"name": "Low wines receiver level", "names": {"zh": "低度酒接收罐液位"},
                     "unit": "%"},
        "lw_temp": {"name": "Low wines receiver temperature", "unit": "°C"},
    },
}))


async def test_a_word_the_plant_names_a_point_by_is_that_points() -> None:
    """"cooling" is a washback's switch here: "start the cooling water pump" may be the
    condenser water pump (condenser water is cooling water) or not; nothing is written on
    that guess (review atk44: "wash water pump" of a "Process water pump" beside a "Wash
    pump")."""
    name, args = await _routed(STILLHOUSE, "start the cooling water pump")
    assert name != "write" or args == {"point": "cw_pump", "value": True}
    assert await _routed(STILLHOUSE, "switch on washback 1 cooling") == \
        ("write", {"point": "wb_cooling", "value": True})


async def test_a_spirits_degree_is_no_temperature() -> None:
    """低度酒 (low wines) holds 度, which is no temperature of the receiver's level."""
    assert "temperature" not in STILLHOUSE.rules.profiles.by_id["lw_level"].names
    assert await _routed(STILLHOUSE, "低度酒接收罐液位多少") == ("read", {"point": "lw_level"})
