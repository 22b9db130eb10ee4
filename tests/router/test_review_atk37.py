"""Review atk37 of the tag and description aliases: the writes it found that nobody asked
for, on plants of my own."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

PLANT = Router(exec_devices("mills", {
    "fans": {
        "m301": {"name": "M-301", "type": "bool", "writable": True,
                 "description": "Fan 3 run command, 0 = run"},
        "m303": {"name": "M-303", "type": "bool", "writable": True,
                 "description": "Conveyor 6 run command (1 = stop, 0 = run)"},
        "m105": {"name": "M-105", "type": "bool", "writable": True,
                 "description": "Pump 5 lube oil pump run command"},
        "pump5_flow": {"name": "Pump 5 flow", "unit": "m³/h"},
    },
    "crushing": {
        "c4_run": {"name": "C4_RUN", "type": "bool", "writable": True,
                   "description": "Discharge conveyor of crusher 4"},
        "crusher4_amps": {"name": "Crusher 4 current", "unit": "A"},
        "co2_sp": {"name": "CO2_SP", "unit": "ppm", "writable": True, "min": 400, "max": 1500,
                   "description": "CO2 setpoint for compartment 2"},
        "c2_temp_sp": {"name": "Compartment 2 temperature setpoint", "unit": "°C",
                       "writable": True, "min": 10, "max": 30},
    },
    "packing": {
        "pm1_run": {"name": "PM1_RUN", "type": "bool", "writable": True,
                    "description": "Packing machine 1 run"},
    },
    "pelleting": {
        "pellet1_temp": {"name": "Pellet mill 1 die temperature", "unit": "°C"},
    },
}))


@pytest.mark.parametrize("text", [
    "stop fan 3", "start fan 3",            # an inverted run command: its true stops it
    "stop conveyor 6", "start conveyor 6",
    "start pump 5", "stop pump 5",          # pump 5's lube oil pump is no pump 5
    "start crusher 4", "stop crusher 4",    # the conveyor of crusher 4 is no crusher
    "compartment 2 sp 22",                  # the CO2 setpoint is no compartment's
    "start pellet mill 1",                  # the packing machine's PM1 is no pellet mill
])
async def test_no_write_is_made_of_an_alias_that_names_another_thing(text: str) -> None:
    action = await routed_without_model(PLANT, text)
    assert action.name != "write" or action.args.get("point") in ("c2_temp_sp",), \
        (text, action)


IRRIGATION = Router(exec_devices("greenhouse", {"irrigation": {
    "mist_interval": {"name": "Mist interval", "unit": "min", "writable": True, "min": 1,
                      "max": 240},
    "flush_days": {"name": "Filter flush interval", "unit": "d", "writable": True, "min": 1,
                   "max": 30},
    "fert_rate": {"name": "Fertiliser dosing rate", "unit": "l/min", "writable": True,
                  "min": 0, "max": 20},
}}))


@pytest.mark.parametrize("text", ["set irrigation to 3 minutes", "set irrigation to 5 days",
                                  "set irrigation to 3 l/min"])
async def test_a_write_naming_only_the_device_and_a_unit_is_asked_back(text: str) -> None:
    """"irrigation" is the device of every point here: the unit alone chose one ("5 days"
    had been written to the filter flush interval before this change too)."""
    action = await routed_without_model(IRRIGATION, text)
    assert action.name == "respond", (text, action)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the mist interval to 3 minutes", "mist_interval", 3),
    ("set the filter flush interval to 5 days", "flush_days", 5),
])
async def test_a_write_naming_its_point_stands(text: str, point: str, value: int) -> None:
    action = await routed_without_model(IRRIGATION, text)
    assert (action.name, action.args.get("point"), action.args.get("value")) == \
        ("write", point, value)


TANKS = Router(exec_devices("feed", {"molasses": {
    "mol_tk_tmp": {"name": "MOL_TK_TMP", "unit": "°C",
                   "description": "Molasses tank temperature"},
    "mol_tk_sp": {"name": "MOL_TK_TMP_SP", "unit": "°C", "writable": True, "min": 20, "max": 60},
    "ret1_sp": {"name": "RET1_TMP_SP", "unit": "°C", "writable": True, "min": 100, "max": 130,
                "description": "Retort 1 sterilising temperature"},
}}))


@pytest.mark.parametrize(("text", "expected"), [
    ("molasses tank setpoint 45", ("write", "mol_tk_sp", 45)),
    ("what's the molasses tank setpoint", ("read", "mol_tk_sp", None)),
    ("retort 1 setpoint 120", ("write", "ret1_sp", 120)),
])
async def test_a_tags_setpoint_stays_a_role_beside_another_tags(text: str, expected: tuple[
        str, str, int | None]) -> None:
    """A "…_SP" tag described without the word had been given "setpoint" as a word of its
    alias: "setpoint" then named points, and the molasses tank's ("…_SP") was asked back."""
    action = await routed_without_model(TANKS, text)
    assert (action.name, action.args.get("point"), action.args.get("value")) == expected
