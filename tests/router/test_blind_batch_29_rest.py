"""What blind batch 29 still missed at the end of its session, on plants written here: a
machine named in Chinese where the point's English text names it only by its device, a per cent
of something ("% solids"), a Chinese feed rate of ore, and the printing press said in Chinese."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

PRESS = Router(exec_devices("press_line", {
    "press": {
        "line_speed": {"name": "Web speed, actual", "unit": "m/min"},
        "line_speed_sp": {"name": "Web speed, target", "unit": "m/min", "writable": True,
                          "min": 0, "max": 400},
        "drive": {"name": "Main drive run, press", "type": "bool", "writable": True},
        "viscosity": {"name": "Ink viscosity, deck 1", "unit": "s"},
    },
    "rewind": {
        "rewind_speed": {"name": "Rewind surface speed", "unit": "m/min"},
        "rewind_t": {"name": "Web tension, rewind", "unit": "N"},
    },
}))

MILL = Router(exec_devices("mill", {"grinding": {
    "feed": {"name": "SAG mill feed rate", "unit": "t/h"},
    "feed_sp": {"name": "SAG mill feed rate setpoint", "unit": "t/h", "writable": True,
                "min": 0, "max": 1500},
    "power": {"name": "SAG mill power", "unit": "kW"},
    "density": {"name": "Thickener underflow density", "unit": "% solids"},
    "density_sp": {"name": "Thickener underflow density setpoint", "unit": "% solids",
                   "writable": True, "min": 40, "max": 75},
    "lel": {"name": "Dryer exhaust solvent vapour", "unit": "% LEL"},
    "con": {"name": "Concentrate copper grade", "unit": "%"},
}}))


async def test_a_chinese_machine_word_names_the_points_of_its_device() -> None:
    """印刷机车速: the speed of the device "press", whose names do not say "press" (as "press
    speed" would be): the semantic stage ranks the press's web speed first, above points that
    say "press" in their names but are no speed, and the rewind's own speed."""
    analysis = PRESS.rules.analyse("印刷机车速是多少")
    fits = PRESS.semantic.judge(analysis).fits
    assert fits[0].point == "line_speed", fits
    assert fits[0].score > max(f.score for f in fits if f.point not in ("line_speed", "line_speed_sp")), \
        fits
    action = await routed_without_model(PRESS, "印刷机车速是多少")
    assert action.name == "respond" or action.args == {"point": "line_speed"}, action


@pytest.mark.parametrize(("text", "value"), [
    ("把印刷机停下来", False),
    ("启动印刷机", True),
    ("stop the press", False),
])
async def test_the_press_said_in_chinese_is_the_printing_press(text: str, value: bool) -> None:
    action = await routed_without_model(PRESS, text)
    assert (action.name, action.args) == ("write", {"point": "drive", "value": value}), action


@pytest.mark.parametrize(("text", "value"), [
    ("underflow density setpoint sixty two percent solids", 62),
    ("set the underflow density to 60 percent", 60),
    ("thickener underflow density setpoint 58 % solids", 58),
])
async def test_a_per_cent_of_something_is_said_as_per_cent(text: str, value: int) -> None:
    """A point in "% solids" is set in per cent: "62 percent" was refused as another unit."""
    action = await routed_without_model(MILL, text)
    assert (action.name, action.args) == ("write", {"point": "density_sp", "value": value}), action


@pytest.mark.parametrize("text", [
    "underflow density setpoint 62 kg",
    "underflow density setpoint 62 percent lel",
    "underflow density setpoint 62 bar",
])
async def test_another_unit_of_a_per_cent_of_something_is_refused(text: str) -> None:
    action = await routed_without_model(MILL, text)
    assert action.name == "respond", action


async def test_a_per_cent_of_something_is_read_by_its_word() -> None:
    action = await routed_without_model(MILL, "what's the percent solids in the thickener underflow")
    assert (action.name, action.args) == ("read", {"point": "density"}), action


async def test_the_ore_feed_rate_in_chinese() -> None:
    """给矿量 is the ore feed rate: a write of it goes to the writable feed rate setpoint."""
    action = await routed_without_model(MILL, "把半自磨机给矿量设为1100吨每小时")
    assert (action.name, action.args) == ("write", {"point": "feed_sp", "value": 1100}), action
    read = MILL.semantic.judge(MILL.rules.analyse("半自磨机给矿量"))
    assert read.candidates[:2] in (["feed", "feed_sp"], ["feed_sp", "feed"]), read.candidates


@pytest.mark.parametrize("text", ["whats the copper grade in the final con", "final con grade"])
async def test_the_final_con_is_the_concentrate(text: str) -> None:
    action = await routed_without_model(MILL, text)
    assert (action.name, action.args) == ("read", {"point": "con"}), action
