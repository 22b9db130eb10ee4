"""What hostile review atk42 found in the mends of review atk41 and the work for blind batch
31, on plants written here: a Chinese "open" of a door in "% closed", a per cent of methane
said past a small word, a boiler's setting answered for its setpoint, a description word taken
for a short name, a drive in Hz no longer a fan's speed, "turn on the B slicer", and 第二冷却…
read as 二冷."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, model_read_checked, routed_without_model

MINE = Router(exec_plant("mine", {
    "reg3": {"name": "Regulator door 3", "names": {"zh": "3号调节风门"}, "unit": "% closed",
             "writable": True, "min": 0, "max": 100},
    "reg4": {"name": "Regulator door 4", "unit": "% closing", "writable": True, "min": 0,
             "max": 100},
    "lel": {"name": "Workshop gas alarm setpoint", "names": {"zh": "车间可燃气体报警设定"},
            "unit": "% LEL", "writable": True, "min": 5, "max": 50},
    "smoke": {"name": "Smoke damper 2", "names": {"zh": "2号排烟阀"}, "unit": "% closed",
              "writable": True, "min": 0, "max": 100},
    "shutoff": {"name": "Shutoff valve", "unit": "% open", "writable": True, "min": 0,
                "max": 100},
    "ch4_sp": {"name": "Methane trip setpoint", "unit": "% CH4", "writable": True, "min": 0.5,
               "max": 2},
}))


@pytest.mark.parametrize("text", [
    "3号调节风门开度设为60%", "3号调节风门打开60%", "把3号调节风门开度调到60%",
    "open regulator door 4 to 60%", "2号排烟阀开度设为80%",
    "车间可燃气体报警设为1%甲烷", "set workshop gas alarm to 1 percent on methane",
    "set workshop gas alarm setpoint to 1% for methane",
])
async def test_a_per_cent_of_the_other_side_or_another_gas_is_not_written(text: str) -> None:
    """60 % open is 40 % closed; 1 % methane is some 20 % LEL: nothing is written."""
    action = await routed_without_model(MINE, text)
    assert action.name != "write", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("3号调节风门设为60%", "reg3", 60),
    ("set workshop gas alarm to 20% LEL", "lel", 20),
    ("set shutoff valve to 40 percent", "shutoff", 40),
    ("set the methane trip setpoint to 1.5% CH4", "ch4_sp", 1.5),
])
async def test_a_per_cent_of_its_own_is_written(text: str, point: str, value: float) -> None:
    """The point's own side, gas or formula, or a name that says "shut" itself."""
    action = await routed_without_model(MINE, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


BOILER_CONFIG = exec_plant("boilers", {
    "b1_firing": {"name": "Boiler 1 firing rate", "unit": "%", "writable": True, "min": 0,
                  "max": 100},
    "b1_sp": {"name": "Boiler 1 pressure SP", "unit": "bar", "writable": True, "min": 1,
              "max": 12},
    "b1_press": {"name": "Boiler 1 pressure", "unit": "bar"},
})


def test_a_setpoint_named_sp_is_what_a_setpoint_asks() -> None:
    """"boiler 1 setpoint": the model reading the firing rate is refused where the boiler's
    "… SP" is the setpoint (its "SP" explains the word "setpoint" as its own)."""
    router = Router(BOILER_CONFIG)
    said = "boiler 1 setpoint"
    assert model_read_checked(router, BOILER_CONFIG, said, "b1_firing").name == "respond"
    assert model_read_checked(router, BOILER_CONFIG, said, "b1_sp").args.get("point") == "b1_sp"


SHORT = Router(exec_plant("cabinet", {
    "int_temp": {"name": "Int temp", "unit": "°C",
                 "description": "Internal cabinet temperature; the door is interlocked."},
    "mot3": {"name": "Mot 3 winding temp", "unit": "°C",
             "description": "Motor 3 winding temperature, for motion control."},
    "rect1": {"name": "Rect 1 run", "type": "bool", "writable": True,
              "description": "Rectifier 1 on line."},
}))


@pytest.mark.parametrize("text", ["is the door interlocked", "is there motion"])
async def test_a_description_word_is_no_short_name(text: str) -> None:
    """"interlocked" is no "Int", "motion" no "Mot": a name's short form of three letters
    is no abbreviation to expand."""
    action = await routed_without_model(SHORT, text)
    assert action.name == "respond", action


async def test_a_four_letter_short_name_is_still_expanded() -> None:
    action = await routed_without_model(SHORT, "shut down rectifier 1")
    assert (action.name, action.args) == ("write", {"point": "rect1", "value": False}), action


DRIVES = Router(exec_plant("hotel", {
    "ef_vfd": {"name": "EF VFD", "unit": "Hz", "description": "Exhaust fan speed reference."},
    "sf_vfd": {"name": "SF VFD", "unit": "Hz", "description": "Supply fan speed reference."},
    "cip_caustic": {"name": "CIP return conductivity", "unit": "mS/cm",
                    "description": "Caustic strength of the CIP return."},
}))


@pytest.mark.parametrize(("text", "point"), [("exhaust fan speed", "ef_vfd"),
                                             ("caustic strength", "cip_caustic")])
async def test_a_measurement_is_what_its_description_says_it_stands_for(text: str,
                                                                       point: str) -> None:
    action = await routed_without_model(DRIVES, text)
    assert (action.name, action.args) == ("read", {"point": point}), action


TWINS = Router(exec_plant("bakery", {
    "slicer_a": {"name": "Slicer A run", "type": "bool", "writable": True},
    "slicer_b": {"name": "Slicer B run", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("text", "value"), [("turn on the B slicer", True),
                                             ("switch on the B slicer", True),
                                             ("turn off the B slicer", False)])
async def test_on_the_b_slicer_is_the_b_slicer(text: str, value: bool) -> None:
    action = await routed_without_model(TWINS, text)
    assert (action.name, action.args) == ("write", {"point": "slicer_b", "value": value})


CONDENSERS = Router(exec_plant("plant_room", {
    "cond1_t": {"name": "Condenser 1 temperature", "unit": "°C"},
    "cond2_t": {"name": "Condenser 2 temperature", "unit": "°C"},
    "cwp1": {"name": "Cooling water pump 1", "type": "bool", "writable": True},
    "cwp2": {"name": "Cooling water pump 2", "type": "bool", "writable": True},
}))


async def test_the_second_cooler_is_numbered_two() -> None:
    """第二冷却水泵, 第二冷凝器: 第二 is "second", whatever 二冷 is on a caster."""
    read = await routed_without_model(CONDENSERS, "第二冷凝器温度")
    assert (read.name, read.args) == ("read", {"point": "cond2_t"}), read
    write = await routed_without_model(CONDENSERS, "启动第二冷却水泵")
    assert (write.name, write.args) == ("write", {"point": "cwp2", "value": True}), write
