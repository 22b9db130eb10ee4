"""Lessons of blind batch 72 (a hot strip mill, a commercial laundry, a road tunnel), on plants
written here:
- "is X running" of a switch named with its command ("Kiln fan 1 run command") reads the
  status ("Kiln fan 1 running"); a status named by fewer words than the switch ("Wash pump
  running" of a "High-pressure wash pump") is no sure status of it;
- a setting named as its reading plus "setpoint" may be called by the reading's aliases ("hot
  oil temp to 300" of the "Thermal oil temperature setpoint");
- "to stage two" after a verb of change is a value, said after the point's own word;
- 目标 is a setpoint, 给到 sets, 报警值 is an alarm setpoint;
- "how bright" asks a light level, luminance (in cd/m²) a kind of it.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

WORKS = exec_plant("works72", {
    "kf1_run": {"name": "Kiln fan 1 run command", "type": "bool", "writable": True},
    "kf1_running": {"name": "Kiln fan 1 running", "type": "bool"},
    "kf2_run": {"name": "Kiln fan 2 run command", "type": "bool", "writable": True},
    "wash_pump": {"name": "High-pressure wash pump", "type": "bool", "writable": True},
    "wash_pump_running": {"name": "Wash pump running", "type": "bool"},
    "oven_z1": {"name": "Oven zone 1 temperature", "unit": "°C"},
    "oven_z2": {"name": "Oven zone 2 temperature", "unit": "°C"},
    "oven_z2_sp": {"name": "Oven zone 2 temperature setpoint", "unit": "°C", "writable": True,
                   "min": 100, "max": 250},
    "oil_temp": {"name": "Thermal oil temperature", "unit": "°C",
                 "aliases": ["hot oil temp"]},
    "oil_temp_sp": {"name": "Thermal oil temperature setpoint", "unit": "°C",
                    "writable": True, "min": 150, "max": 320},
    "light_stage": {"name": "Hall lighting stage", "type": "int", "writable": True,
                    "min": 0, "max": 4},
    "hall_lux": {"name": "Hall light level", "unit": "lx"},
    "fan_speed": {"name": "Kiln fan 1 speed", "unit": "rpm"},
    "co_alarm_sp": {"name": "CO alarm setpoint", "unit": "ppm", "writable": True,
                    "min": 0, "max": 300},
    "co": {"name": "Hall CO", "unit": "ppm"},
})
ROUTER = Router(WORKS)


@pytest.mark.parametrize(("text", "point"), [
    ("is kiln fan 1 running", "kf1_running"),
])
async def test_running_asked_of_a_switch_reads_its_status(text: str, point: str) -> None:
    assert await routed_without_model(ROUTER, text) == Action("read", {"point": point})


@pytest.mark.parametrize(("text", "switch", "status"), [
    ("is kiln fan 1 on", "kf1_run", "kf1_running"),
    # (kiln fan 2 has no running input: kiln fan 1's is no status of it)
    ("is kiln fan 2 on", "kf2_run", "kf2_run"),
    # (nor is a "Wash pump running" surely the high-pressure one's: another wash pump may
    # be the one it tells of — review atk72)
    ("is the high pressure wash pump on", "wash_pump", "wash_pump"),
])
def test_the_models_read_of_a_switch_becomes_its_status(
        text: str, switch: str, status: str) -> None:
    asked = ROUTER.rules.analyse(text)
    assert ROUTER.rules.status_for(asked, Action("read", {"point": switch})) == \
        Action("read", {"point": status})


async def test_a_setting_is_called_as_its_reading() -> None:
    action = Action("write", {"point": "oil_temp_sp", "value": 300})
    assert await routed_without_model(ROUTER, "hot oil temp to 300") == action
    assert model_checked(ROUTER, WORKS, "hot oil temp to 300", action) == action
    # (and asked, the reading is read)
    assert await routed_without_model(ROUTER, "hot oil temp?") == \
        Action("read", {"point": "oil_temp"})


@pytest.mark.parametrize(("text", "action"), [
    ("drop the hall lights to stage two", Action("write", {"point": "light_stage", "value": 2})),
    ("lower the hall lighting to stage 1", Action("write", {"point": "light_stage",
                                                            "value": 1})),
])
async def test_a_value_after_its_own_word(text: str, action: Action) -> None:
    assert await routed_without_model(ROUTER, text) == action


@pytest.mark.parametrize("text", ["drop the hall lighting stage 1", "drop the hall lighting by stage 1"])
async def test_a_change_by_a_stage_is_still_asked(text: str) -> None:
    assert (await routed_without_model(ROUTER, text)).name == "respond"


@pytest.mark.parametrize(("text", "action"), [
    ("CO报警值改成一百二", Action("write", {"point": "co_alarm_sp", "value": 120})),
    ("导热油温度目标给到三百", Action("write", {"point": "oil_temp_sp", "value": 300})),
])
async def test_zh_target_and_alarm_value(text: str, action: Action) -> None:
    got = await routed_without_model(ROUTER, text)
    assert got == action or model_checked(ROUTER, WORKS, text, action) == action
    assert got.name != "read"


@pytest.mark.parametrize("text", ["how bright is it in the hall", "hall brightness?"])
def test_brightness_is_a_light_level(text: str) -> None:
    assert model_checked(ROUTER, WORKS, text, Action("read", {"point": "hall_lux"})) == \
        Action("read", {"point": "hall_lux"})
    assert model_checked(ROUTER, WORKS, text,
                         Action("read", {"point": "fan_speed"})).name == "respond"


DUCTS = exec_plant("ducts72", {
    "air_velocity": {"name": "Duct air velocity", "unit": "m/s", "aliases": ["duct air speed"]},
    "air_temp": {"name": "Duct air temperature", "unit": "°C"},
    "oven1_in": {"name": "Oven 1 inlet air temperature", "unit": "°C"},
    "oven1_exhaust": {"name": "Oven 1 exhaust temperature", "unit": "°C"},
    "oven1_in_sp": {"name": "Oven 1 inlet temperature setpoint", "unit": "°C",
                    "writable": True, "min": 50, "max": 250},
})
DUCTS_ROUTER = Router(DUCTS)


def test_how_fast_of_a_velocity_its_names_call_a_speed() -> None:
    action = Action("read", {"point": "air_velocity"})
    assert model_checked(DUCTS_ROUTER, DUCTS, "which way's the duct air going and how fast",
                         action) == action


@pytest.mark.parametrize(("text", "action"), [
    ("oven zone 2 set temp?", Action("read", {"point": "oven_z2_sp"})),
    ("what's the oven zone 2 set temperature", Action("read", {"point": "oven_z2_sp"})),
    ("oven zone 2 set temp 200", Action("write", {"point": "oven_z2_sp", "value": 200})),
])
async def test_a_set_temp_asked_is_the_setting(text: str, action: Action) -> None:
    assert await routed_without_model(ROUTER, text) == action
