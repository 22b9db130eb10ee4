"""Points named as a building controller or a PLC's symbols name them, with few descriptions.

A BMS writes "BP-1 S/S" for brine pump 1's start/stop, "BP-1 STS" for its status, "POOL-T" for a
temperature its description names and "POOL-CL2-SP" for a chlorine setpoint. An integrator who
writes Spanish symbols describes "B_Desc_01.Marcha" ("Underflow pump 1 run command") and leaves
its twin "B_Desc_02.Marcha" undescribed. Blind batch 47 (an ice arena in BMS points, a paste
backfill plant in Spanish ControlLogix tags) was 122/150 right: "start BP-2" heard two "2 S",
"discharge pressure on paste pump 2" had no pump 2, "ice surface setpoint minus twelve" no
setpoint (another point's alias wrote "setpoint", and only points named so explained it)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.config.model import Point
from hermesd.router import Router
from hermesd.router.normalize import tokens
from hermesd.router.tags import spelled_out, twins_described
from tests.support.plants import exec_devices, routed_without_model

BMS = exec_devices("natatorium", {"bms": {
    "cp1_ss": {"name": "CP-1 S/S", "type": "bool", "writable": True,
               "description": "Pool circulation pump 1 start/stop"},
    "cp2_ss": {"name": "CP-2 S/S", "type": "bool", "writable": True,
               "description": "Pool circulation pump 2 start/stop"},
    "cp1_sts": {"name": "CP-1 STS", "type": "bool", "description": "Pool circulation pump 1 run status"},
    "cp2_sts": {"name": "CP-2 STS", "type": "bool", "description": "Pool circulation pump 2 run status"},
    "spa_t": {"name": "SPA-T", "unit": "°C", "description": "Spa water temperature"},
    "spa_t_sp": {"name": "SPA-T-SP", "unit": "°C", "writable": True, "min": 30, "max": 40,
                 "description": "Spa water temperature setpoint"},
    "spa_br_sp": {"name": "SPA-BR2-SP", "unit": "ppm", "writable": True, "min": 1, "max": 6},
    "dh2_rh": {"name": "DH-2 RH", "unit": "%",
               "description": "Lobby relative humidity at dehumidifier DH-2"},
    "dh2_rh_sp": {"name": "DH-2 RH-SP", "unit": "%", "writable": True, "min": 30, "max": 70},
    "nh3_p": {"name": "NH3-DISCH-P", "unit": "bar",
              "description": "Ammonia discharge pressure at the condenser"},
    "lobby_sat_sp": {"name": "AHU3-SAT-SP", "unit": "°C", "writable": True, "min": 12, "max": 30,
                     "aliases": ["lobby supply air temperature setpoint"]},
    "pool_cl2": {"name": "POOL-CL2", "unit": "ppm"},
    "pool_cl2_sp": {"name": "POOL-CL2-SP", "unit": "ppm", "writable": True, "min": 1, "max": 5},
    "uv_ss": {"name": "UV-1 S/S", "type": "bool", "writable": True,
              "description": "Pool UV reactor enable"},
    "uv_alm": {"name": "UV-1 ALM", "type": "bool", "description": "UV reactor lamp failure"},
}})
BMS_ROUTER = Router(BMS)

SYMBOLS = exec_devices("relaves", {"plc": {
    "p1_run": {"name": "P_Alim_01.Marcha", "type": "bool", "writable": True,
               "description": "Feed pump 1 run command"},
    "p2_run": {"name": "P_Alim_02.Marcha", "type": "bool", "writable": True},
    "p1_running": {"name": "P_Alim_01.En_Marcha", "type": "bool",
                   "description": "Feed pump 1 running"},
    "p2_running": {"name": "P_Alim_02.En_Marcha", "type": "bool"},
    "p1_press": {"name": "P_Alim_01.Presion", "unit": "bar",
                 "description": "Feed pump 1 discharge pressure"},
    "p2_press": {"name": "P_Alim_02.Presion", "unit": "bar"},
    "tank_level": {"name": "Tk_Agua.Nivel", "unit": "%", "description": "Process water tank level"},
}})
SYMBOLS_ROUTER = Router(SYMBOLS)


@pytest.mark.parametrize(("name", "words"), [
    ("POOL-CL2-SP", ["pool", "cl", "2", "sp"]),  # no "2-sp", as a "3-way" valve's is
    ("AHU2-SAT-SP", ["ahu", "2", "sat", "sp"]),
    ("3-way valve", ["3-way", "way", "valve"]),
])
def test_a_number_written_onto_letters_is_no_specification(name: str, words: list[str]) -> None:
    assert [t.text for t in tokens(name)] == words


def _aliases(point_id: str) -> list[str]:
    points = {p.id: p for p in spelled_out(
        p for device in BMS.devices.values() for p in device.points.values())}
    return [a.casefold() for a in points[point_id].aliases]


@pytest.mark.parametrize(("point", "alias"), [
    ("cp1_ss", "circulation pump 1 start stop"),  # S/S: a start/stop
    ("spa_t", "spa temperature"),  # T: the one quantity its description begins with a T
    ("dh2_rh_sp", "dehumidifier 2 rh sp"),  # DH-2: what another point's description says it is
    ("nh3_p", "nh3 discharge pressure"),  # NH3: a gas, no instrument's letters
])
def test_bms_points_are_spelled_out(point: str, alias: str) -> None:
    assert alias in _aliases(point), _aliases(point)


@pytest.mark.parametrize(("text", "action", "args"), [
    ("start circulation pump 2", "write", {"point": "cp2_ss", "value": True}),
    ("stop CP-1", "write", {"point": "cp1_ss", "value": False}),
    ("is circulation pump 1 running", "read", {"point": "cp1_sts"}),
    ("spa temperature", "read", {"point": "spa_t"}),
    ("spa temp setpoint to 37", "write", {"point": "spa_t_sp", "value": 37}),
    ("dehumidifier RH setpoint 45%", "write", {"point": "dh2_rh_sp", "value": 45}),
    ("lobby SAT setpoint 21", "write", {"point": "lobby_sat_sp", "value": 21}),
    ("CP-2 status", "read", {"point": "cp2_sts"}),  # the status, not the start/stop
    ("pool chlorine setpoint to 2.5 ppm", "write", {"point": "pool_cl2_sp", "value": 2.5}),
    ("pool chlorine", "read", {"point": "pool_cl2"}),
    ("turn the UV off", "write", {"point": "uv_ss", "value": False}),  # (not its alarm)
])
async def test_bms_points_answer_plain_commands(text: str, action: str,
                                                args: dict[str, object]) -> None:
    routed = await routed_without_model(BMS_ROUTER, text)
    assert (routed.name, routed.args) == (action, args), text


def test_a_start_stop_and_its_status_named_by_tags_pair_by_description() -> None:
    assert BMS_ROUTER.rules.statuses == {"cp1_ss": "cp1_sts", "cp2_ss": "cp2_sts"}


def test_an_undescribed_twin_is_described_as_its_twin() -> None:
    points = twins_described([
        Point("a", "plc", "modbus", "Tank_1.Cloro",
              description="Free chlorine in tank 1, the pre-chiller"),
        Point("b", "plc", "modbus", "Tank_2.Cloro"),
        Point("c", "plc", "modbus", "Line_1.Speed", description="Speed of line 1 and 1 more"),
        Point("d", "plc", "modbus", "Line_2.Speed"),
    ])
    # the first clause, its number made the twin's: what follows may be said of tank 1 alone
    assert points[1].description == "Free chlorine in tank 2"
    assert points[3].description is None  # (a number said twice: which one is the line's?)


@pytest.mark.parametrize(("text", "action", "args"), [
    ("stop feed pump 2", "write", {"point": "p2_run", "value": False}),
    ("start feed pump 1", "write", {"point": "p1_run", "value": True}),
    ("is feed pump 2 running", "read", {"point": "p2_running"}),
    ("discharge pressure on feed pump 2", "read", {"point": "p2_press"}),
    ("feed pump 1 discharge pressure", "read", {"point": "p1_press"}),
])
async def test_spanish_symbols_answer_by_what_their_descriptions_call_them(
        text: str, action: str, args: dict[str, object]) -> None:
    routed = await routed_without_model(SYMBOLS_ROUTER, text)
    assert (routed.name, routed.args) == (action, args), text


async def test_a_pump_no_description_numbers_is_unknown() -> None:
    routed = await routed_without_model(SYMBOLS_ROUTER, "discharge pressure on feed pump 3")
    assert routed == Action("respond", {"reason": "unknown_point", "asked": "pump 3"}), routed


def test_a_switch_named_a_command_holds_no_setting() -> None:
    router = Router(exec_devices("bombas", {"plc": {
        "pump5": {"name": "Pump 5 cmd", "type": "bool", "writable": True},
        "dosing_sp": {"name": "Bomba dosificadora setpoint", "unit": "l/h", "writable": True,
                      "min": 0, "max": 50},
    }}))
    assert router.semantic.profiles.by_id["pump5"].role == "command"
