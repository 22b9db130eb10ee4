"""A code letter the plant's own aliases say in words names every point it numbers.

"G1_Run_Cmd" aliased "genset 1 start/stop" tells what the letter G numbers: a genset. Then
"G2_Running" is genset 2's, and "is genset 2 running" reads it. No letter is guessed: "P2" may be
a pump, a press or a pen, and a plant that never says so is not read as saying it."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.tags import designations_taught
from tests.support.plants import exec_devices, routed_without_model

CONFIG = exec_devices("station", {"plc": {
    "g1_run": {"name": "G1_Run_Cmd", "type": "bool", "writable": True,
               "aliases": ["genset 1 start/stop"]},
    "g1_running": {"name": "G1_Running", "type": "bool"},
    "g1_load": {"name": "G1_Load_kW", "unit": "kW"},
    "g2_run": {"name": "G2_Run_Cmd", "type": "bool", "writable": True},
    "g2_running": {"name": "G2_Running", "type": "bool"},
    "g2_load": {"name": "G2_Load_kW", "unit": "kW"},
    "p1_speed": {"name": "P1_Speed", "unit": "rpm"},
    "p2_speed": {"name": "P2_Speed", "unit": "rpm"},
    "ac1_fan1": {"name": "AC1_Fan1_Run", "type": "bool", "writable": True,
                 "aliases": ["cooler fan 1"]},
    "ac1_temp": {"name": "AC1_Gas_Out_Temp", "unit": "°C"},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "action", "point", "value"), [
    ("is genset 2 running", "read", "g2_running", None),
    ("start genset 2", "write", "g2_run", True),
    ("what's the load on genset two", "read", "g2_load", None),
    ("2号发电机在运行吗", "read", "g2_running", None),
    ("is genset 1 running", "read", "g1_running", None),
])
async def test_a_taught_letter_names_each_point_it_numbers(text: str, action: str, point: str,
                                                          value: object) -> None:
    routed = await routed_without_model(ROUTER, text)
    args = {"point": point} if value is None else {"point": point, "value": value}
    assert (routed.name, routed.args) == (action, args), text


async def test_an_untaught_letter_is_not_guessed() -> None:
    routed = await routed_without_model(ROUTER, "what's pump 2 speed")
    assert routed.args.get("point") != "p2_speed", routed


def test_a_word_the_name_says_itself_teaches_nothing() -> None:
    points = designations_taught(CONFIG.points.values())
    temp = next(p for p in points if p.id == "ac1_temp")
    assert temp.aliases == CONFIG.points["ac1_temp"].aliases  # no "fan 1 Gas Out Temp"


# -- what a letter is not taught by (review atk47) --------------------------------------------

IO_LIST = exec_devices("io", {"rio": {
    "do1": {"name": "DO1", "type": "bool", "writable": True, "aliases": ["pump 1"]},
    "do2": {"name": "DO2", "type": "bool", "writable": True, "description": "Alarm horn"},
    "do4": {"name": "DO4", "type": "bool", "writable": True, "description": "Tank 4 heater"},
    "pump4": {"name": "Pump 4 run", "type": "bool", "writable": True},
}})
FEED_PUMPS = exec_devices("boilers", {"plc": {
    "p1": {"name": "P1 run", "type": "bool", "writable": True,
           "aliases": ["boiler 1 feed pump"]},
    "p1_amps": {"name": "P1 amps", "unit": "A"},
    "p2": {"name": "P2 run", "type": "bool", "writable": True},
    "p2_amps": {"name": "P2 amps", "unit": "A"},
    "b2_temp": {"name": "Boiler 2 outlet temperature", "unit": "°C"},
}})
MOTORS = exec_devices("station", {"plc": {
    "k1_amps": {"name": "K1_M1_Amps", "unit": "A", "aliases": ["compressor 1 motor current"]},
    "k1_press": {"name": "K1_Disch_Press", "unit": "bar"},
    "k2_press": {"name": "K2_Disch_Press", "unit": "bar"},
    "m2_amps": {"name": "M2_Amps", "unit": "A"},
}})


@pytest.mark.parametrize(("config", "text"), [
    (IO_LIST, "start pump 2"),  # an I/O channel's alias numbers one channel, not a unit
    (IO_LIST, "start pump 4"),
    (FEED_PUMPS, "start boiler 2"),  # "boiler 1 feed pump" is a pump's alias, not boiler P's
    (FEED_PUMPS, "what is the boiler 2 current"),
    (MOTORS, "what is compressor 2 discharge pressure"),  # K1_M1_Amps has two codes
])
async def test_no_letter_is_taught_by_what_is_not_a_units_code(config: object,
                                                               text: str) -> None:
    routed = await routed_without_model(Router(config), text)  # type: ignore[arg-type]
    point = routed.args.get("point")
    assert point is None or point in ("pump4", "b2_temp"), (text, routed)


LETTERED = exec_devices("line", {"plc": {
    "a_speed": {"name": "A Host Speed", "unit": "rpm", "aliases": ["extruder A rpm"]},
    "a_melt": {"name": "A Melt Pressure", "unit": "MPa"},
    "b_speed": {"name": "B Host Speed", "unit": "rpm"},
    "b_melt": {"name": "B Melt Pressure", "unit": "MPa"},
    "b_speed_set": {"name": "B Host Speed Set", "unit": "rpm", "writable": True, "min": 0,
                    "max": 120},
}})


@pytest.mark.parametrize(("text", "action", "point", "value"), [
    ("extruder B melt pressure", "read", "b_melt", None),
    ("what's the melt pressure on extruder A", "read", "a_melt", None),
    ("raise B extruder to seventy rpm", "write", "b_speed_set", 70),
])
async def test_a_taught_twin_letter_names_its_twins(text: str, action: str, point: str,
                                                   value: object) -> None:
    # "A Host Speed" aliased "extruder A rpm": the letters the names open with are extruders
    routed = await routed_without_model(Router(LETTERED), text)
    args = {"point": point} if value is None else {"point": point, "value": value}
    assert (routed.name, routed.args) == (action, args), text
