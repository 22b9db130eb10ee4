"""Review atk53 of the change for blind batch 47 (BMS points, Spanish PLC symbols, rates):
what it found wrong, mended. Each case wrote, read or crashed where the words did not ask
for it."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.config.model import Point
from hermesd.router import Router
from hermesd.router.normalize import tokens
from hermesd.router.tags import twins_described
from tests.support.plants import exec_devices, routed_without_model

PLANT = Router(exec_devices("atk53", {"plc": {
    "feed_pump": {"name": "B_Alim_01.Marcha", "type": "bool", "writable": True,
                  "description": "Ball mill 1 feed pump run command"},
    "mill": {"name": "Mol_01.Marcha", "type": "bool", "writable": True},
    "oven_sp": {"name": "Oven temperature setpoint", "unit": "°C", "writable": True,
                "min": 50, "max": 250},
    "deck": {"name": "Deck angle", "unit": "deg", "writable": True, "min": 0, "max": 60},
    "dwell": {"name": "Scalder dwell time", "unit": "min", "writable": True, "min": 1,
              "max": 10},
    "shackle": {"name": "Shackle line speed", "unit": "birds/min", "writable": True,
                "min": 60, "max": 200},
    "valve_start": {"name": "4号阀门启动", "type": "bool", "writable": True},
    "gas_switch": {"name": "BLR-1-P", "type": "bool",
                   "description": "Boiler 1 low gas pressure switch"},
    "steam_pt": {"name": "BLR-1-PT", "unit": "bar", "description": "Boiler 1 steam pressure"},
}, "bms": {
    "sf1": {"name": "SF-1 S/S", "type": "bool", "writable": True,
            "description": "Supply fan 1 start/stop"},
    "sf1_sts": {"name": "SF-1 STS", "type": "bool", "description": "Supply fan 1 status"},
    "sf1_alm": {"name": "SF-1 ALM", "type": "bool", "description": "Supply fan 1 alarm"},
    "sf1_spd": {"name": "SF-1 SPD", "unit": "%", "description": "Supply fan 1 speed"},
}}))


@pytest.mark.parametrize("text", [
    "start ball mill 1",  # the feed pump of mill 1 is no mill
    "stop the ball mill",
    "set it to 40 per minute",  # a rate's time alone: no dwell time
    "打开4号阀门",  # a valve's start coil opens nothing
    "关闭4号阀门",
    "160 birds per minute",  # a value of the line speed: a write, perhaps, no read
])
async def test_no_action_the_words_do_not_ask(text: str) -> None:
    routed = await routed_without_model(PLANT, text)
    assert routed.name == "respond", (text, routed)


@pytest.mark.parametrize(("text", "point"), [
    ("boiler 1 pressure", "steam_pt"),  # not the gas pressure switch's "P"
    ("supply fan 1 status", "sf1_sts"),
    ("status of supply fan 1", "sf1_sts"),
    ("is supply fan 1 running", "sf1_sts"),
])
async def test_reads_of_what_is_asked(text: str, point: str) -> None:
    routed = await routed_without_model(PLANT, text)
    assert routed == Action("read", {"point": point}), (text, routed)


async def test_deg_is_no_temperature_of_its_own() -> None:
    # an angle as often as a temperature ("deg" is the deck's unit here): never the oven
    routed = await routed_without_model(PLANT, "set 45 deg")
    assert routed.args.get("point") != "oven_sp", routed


def test_suspended_solids_stay_what_they_say() -> None:
    assert [t.text for t in tokens("influent S/S")] == ["influent", "s", "s"]
    assert [t.text for t in tokens("SF-1 S/S")][-2:] == ["start", "stop"]


def test_a_twin_described_otherwise_by_its_own_siblings_borrows_nothing() -> None:
    points = twins_described([
        Point("a", "plc", "modbus", "Pump_1.Run", description="Feed pump 1 run command"),
        Point("b", "plc", "modbus", "Pump_2.Run"),
        Point("c", "plc", "modbus", "Pump_2.Speed", description="Transfer pump 2 speed"),
    ])
    assert points[1].description is None


@pytest.mark.parametrize("name", ["B_Desc_².Marcha", "B_Desc_①.Marcha", "P_٣.Marcha"])
def test_odd_digits_in_a_symbol_do_not_break_the_router(name: str) -> None:
    router = Router(exec_devices("digits", {"plc": {
        "p": {"name": name, "type": "bool", "writable": True,
              "description": "Underflow pump 1 run command"}}}))
    assert "p" in router.rules.points


STATUS_KINDS = Router(exec_devices("atk54", {"bms": {
    "sf3": {"name": "SF-3 S/S", "type": "bool", "writable": True,
            "description": "Supply fan 3 start/stop"},
    "sf3_lr": {"name": "SF-3 L/R STS", "type": "bool", "description": "Supply fan 3 status"},
    "p11": {"name": "Pump 11 start/stop", "type": "bool", "writable": True},
    "p11_st": {"name": "Pump 11 status", "type": "bool",
               "description": "Pump 11 overload tripped"},
    "fan_hz": {"name": "风机频率", "unit": "Hz", "writable": True, "min": 0, "max": 50,
               "description": "Start fan 2 at this speed"},
}}))


def test_a_local_remote_or_trip_status_is_no_run_status() -> None:
    # review atk54: "SF-3 L/R STS" and a "Pump 11 status" described as its overload trip had
    # paired with the start/stop as its run status
    assert STATUS_KINDS.rules.statuses == {}


@pytest.mark.parametrize("text", ["set fan 2 to 30", "start fan 2"])
async def test_a_description_saying_what_is_done_names_no_chinese_point(text: str) -> None:
    # "Start fan 2 at this speed" is what 风机频率 is for, no name of it (review atk54)
    routed = await routed_without_model(STATUS_KINDS, text)
    assert routed.args.get("point") != "fan_hz", (text, routed)
