"""What hostile review atk41 found in the change for blind batch 30, on plants written here:
buttons pressed by a name said in part, a per cent of another thing written to a point in
"% closed" or "% LEL", "the B pump" read as pump A, a unit's word taken for a name, a Chinese
machine word reaching every point of a device, and a setting asked refused of the setting."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import (
    exec_devices,
    exec_plant,
    model_read_checked,
    routed_without_model,
)

BUTTONS = Router(exec_plant("buttons", {
    "fan1_run": {"name": "Fan 1 run", "type": "bool", "writable": True},
    "fan2_run": {"name": "Fan 2 run", "type": "bool", "writable": True},
    "start_fan3": {"name": "Start fan 3", "type": "bool", "writable": True},
    "start_p1": {"name": "Start pump 1", "type": "bool", "writable": True},
    "p2_run": {"name": "Pump 2 run", "type": "bool", "writable": True},
    "p7_enable": {"name": "Start pump 7 enable", "type": "bool", "writable": True},
    "p7_running": {"name": "Pump 7 running", "type": "bool"},
    "p7_speed": {"name": "Pump 7 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "p8_auto": {"name": "Start pump 8 on high level", "names": {"zh": "8号泵高液位自动启动"},
                "type": "bool", "writable": True},
    "p8_running": {"name": "Pump 8 running", "type": "bool"},
}))


@pytest.mark.parametrize("text", ["start fan", "start pump", "start pump 7", "启动8号泵",
                                  "start pump 8"])
async def test_a_button_is_pressed_only_by_its_whole_name(text: str) -> None:
    """"start fan" of a "Start fan 3" beside fans 1 and 2 names no fan; "start pump 7" of a
    "Start pump 7 enable" asks no enable; nothing is written."""
    action = await routed_without_model(BUTTONS, text)
    assert action.name != "write", action


@pytest.mark.parametrize(("text", "point"), [("start fan 3", "start_fan3"),
                                             ("start pump 1", "start_p1")])
async def test_a_button_said_whole_is_pressed(text: str, point: str) -> None:
    action = await routed_without_model(BUTTONS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": True}), action


GAS = Router(exec_plant("mine", {
    "door": {"name": "Regulator door", "unit": "% closed", "writable": True, "min": 0,
             "max": 100},
    "damper": {"name": "Damper opening", "unit": "% open", "writable": True, "min": 0,
               "max": 100},
    "lel_sp": {"name": "Tunnel gas alarm setpoint", "unit": "% LEL", "writable": True,
               "min": 5, "max": 50},
    "density_sp": {"name": "Underflow density setpoint", "unit": "% solids", "writable": True,
                   "min": 40, "max": 75},
}))


@pytest.mark.parametrize("text", [
    "set regulator door to 30% open", "regulator door 30 percent open",
    "open the regulator door to 30 percent", "close the damper to 40 percent",
    "set damper opening to 40% closed", "set tunnel gas alarm to 1% methane",
    "set the gas alarm to 2 percent methane", "underflow density setpoint 60 percent moisture",
])
async def test_a_per_cent_of_another_thing_is_not_written(text: str) -> None:
    """30 % open is 70 % closed; 1 % methane is about 20 % LEL: the per cent said is of
    another thing than the point's, and nothing is written."""
    action = await routed_without_model(GAS, text)
    assert action.name != "write", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set regulator door to 30% closed", "door", 30),
    ("regulator door to 30 percent", "door", 30),
    ("set tunnel gas alarm to 20% LEL", "lel_sp", 20),
    ("set the tunnel gas alarm to 20 percent please", "lel_sp", 20),
    ("underflow density setpoint 60 percent solids", "density_sp", 60),
])
async def test_a_per_cent_of_the_points_own_thing_is_written(text: str, point: str,
                                                             value: int) -> None:
    action = await routed_without_model(GAS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


LETTERS = Router(exec_plant("uneven", {
    "hp_a": {"name": "Hydraulic pump A run", "type": "bool", "writable": True},
    "hp_b": {"name": "Pump B run", "type": "bool", "writable": True},
    "fan_a_speed": {"name": "Cooling fan A speed", "unit": "%"},
    "fan_b_speed": {"name": "Fan B speed", "unit": "%"},
    "tank_a": {"name": "Day tank A level", "unit": "%"},
    "tank_b": {"name": "Tank B level", "unit": "%"},
}))


@pytest.mark.parametrize(("text", "other"), [
    ("is the B hydraulic pump running", "hp_a"),
    ("the B cooling fan speed", "fan_a_speed"),
    ("what's the B day tank level", "tank_a"),
    ("how full is the B day tank", "tank_a"),
])
async def test_the_b_twin_is_never_the_a_twin(text: str, other: str) -> None:
    """Twins named unevenly ("Day tank A level", "Tank B level"): the B said after "the" is
    a letter that names, and the A twin, whose name shares more words, is not it."""
    action = await routed_without_model(LETTERS, text)
    assert action.args.get("point") != other, action


COUNTERS = Router(exec_devices("mill", {
    "mill": {"pm1_amps": {"name": "Pellet mill 1 motor current", "unit": "A"}},
    "packaging": {"pk1_cnt": {"name": "PM1_CNT", "unit": "bags"}},
    "winery": {"must_pump": {"name": "Must pump speed", "unit": "% of max"}},
}))


@pytest.mark.parametrize(("text", "other"), [
    ("how many bags from pellet mill 1", "pk1_cnt"),
    ("must pump max", "must_pump"),
])
async def test_a_units_word_names_no_point(text: str, other: str) -> None:
    """"bags" and "max" are words of units ("bags", "% of max"), not of the points' names: the
    packing machine's PM1 counter is no pellet mill's."""
    action = await routed_without_model(COUNTERS, text)
    assert action.args.get("point") != other, action


MACHINES = Router(exec_devices("works", {
    "packaging": {"wrap_v": {"name": "Wrapper supply voltage", "unit": "V"}},
    "ro_skid": {"hp_speed": {"name": "High pressure pump speed", "unit": "rpm"}},
    "reactor": {
        "jacket_in": {"name": "Jacket inlet temperature", "unit": "°C"},
        "feed_t": {"name": "Reactor feed temperature", "names": {"zh": "反应釜进口温度"},
                   "unit": "°C"},
    },
}))


@pytest.mark.parametrize(("text", "other"), [("蓄电池电压", "wrap_v"), ("皮带转速", "hp_speed")])
async def test_a_chinese_machine_word_is_no_word_of_any_device(text: str, other: str) -> None:
    """A battery is no "packaging" device's, a belt no "ro_skid"'s: a device lends its thing
    only to the Chinese word of that very thing."""
    action = await routed_without_model(MACHINES, text)
    assert action.args.get("point") != other, action


async def test_a_points_own_chinese_name_outranks_its_device() -> None:
    action = await routed_without_model(MACHINES, "反应釜进口温度")
    assert (action.name, action.args) == ("read", {"point": "feed_t"}), action


DRYER = Router(exec_plant("feed_dryer", {
    "dr_in": {"name": "Dryer inlet air temperature", "names": {"zh": "进风温度"}, "unit": "°C"},
    "dr_out": {"name": "Dryer exhaust air temperature", "names": {"zh": "排风温度"},
               "unit": "°C"},
    "dr_prod": {"name": "Product discharge temperature", "names": {"zh": "出料温度"},
                "unit": "°C"},
}))


@pytest.mark.parametrize(("text", "point"), [("出风温度", "dr_out"), ("排风温度", "dr_out"),
                                             ("进风温度", "dr_in"), ("出料温度", "dr_prod")])
async def test_the_air_out_of_a_dryer_is_its_exhaust(text: str, point: str) -> None:
    """出风 is the air coming out: the exhaust air, or asked back; never the product coming
    out (出料) nor the air going in."""
    action = await routed_without_model(DRYER, text)
    assert action.name == "respond" or action.args == {"point": point}, action


SETTINGS_CONFIG = exec_plant("ahu", {
    "ef_speed": {"name": "Exhaust fan speed", "unit": "%", "writable": True, "min": 0,
                 "max": 100},
    "oa_damper": {"name": "OA damper", "unit": "%", "writable": True, "min": 0, "max": 100},
    "sat": {"name": "Supply air temperature", "unit": "°C"},
    "sat_sp": {"name": "Supply air temperature setpoint", "unit": "°C", "writable": True,
               "min": 10, "max": 30},
    "rat": {"name": "Return air temperature", "unit": "°C"},
})
SETTINGS = Router(SETTINGS_CONFIG)



@pytest.mark.parametrize(("text", "point"), [("what's the exhaust fan set to", "ef_speed"),
                                             ("OA damper setting", "oa_damper")])
def test_a_writable_point_is_its_own_setting(text: str, point: str) -> None:
    """The model reading the exhaust fan's speed command for "what's it set to" is right,
    whatever other setpoints the plant has."""
    action = model_read_checked(SETTINGS, SETTINGS_CONFIG, text, point)
    assert (action.name, action.args) == ("read", {"point": point}), action


def test_a_measurement_is_no_setting_asked() -> None:
    """The return air has no setpoint (the supply air has): its temperature is not it."""
    action = model_read_checked(SETTINGS, SETTINGS_CONFIG, "return air temperature setpoint", "rat")
    assert action.name == "respond", action


SPEEDS_CONFIG = exec_plant("pumps", {
    "p1_speed": {"name": "Pump 1 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "p1_speed_sp": {"name": "Pump 1 speed setpoint", "unit": "%", "writable": True, "min": 0,
                    "max": 100},
})


def test_a_setpoint_said_is_no_other_writable_point() -> None:
    """Where the setpoint itself is there, the pump's manual speed is not what was asked."""
    router = Router(SPEEDS_CONFIG)
    action = model_read_checked(router, SPEEDS_CONFIG, "pump 1 speed setpoint", "p1_speed")
    assert action.name == "respond", action
    action = model_read_checked(router, SPEEDS_CONFIG, "pump 1 speed setpoint", "p1_speed_sp")
    assert action.args.get("point") == "p1_speed_sp", action


LEAD = Router(exec_plant("hpu", {
    "hp_a": {"name": "Hydraulic pump A run", "type": "bool", "writable": True},
    "hp_b": {"name": "Hydraulic pump B run", "type": "bool", "writable": True},
    "lead": {"name": "Lead pump selection", "type": "uint16", "writable": True,
             "map": {0: "A", 1: "B"}},
}))


@pytest.mark.parametrize("text", ["set the lead pump to the B pump",
                                  "put the lead pump selection on the B pump"])
async def test_a_letter_said_as_the_value_is_the_choice(text: str) -> None:
    """After "to the", the B is the choice to set, not a letter naming the pump."""
    action = await routed_without_model(LEAD, text)
    assert (action.name, action.args) == ("write", {"point": "lead", "value": "B"}), action


def test_a_device_is_the_thing_its_whole_id_names() -> None:
    """A "filter_press" device is a filter press: no printing press or punch press, whatever
    "press" alone may be."""
    from hermesd.router.coverage import device_things
    assert "thing.printing_press" not in device_things("filter_press")
    assert "thing.printing_press" in device_things("press")
    assert device_things("ro_skid") == device_things("ro")
