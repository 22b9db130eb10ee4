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
