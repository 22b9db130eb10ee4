"""What blind batch 26 (tests/data/plants: mrf, sterile_services, salt_works) found wrong by the
rules, on its own plants: each test says what a person on that plant would expect. Batch 26
scored 125/150 with the model before anything was changed for it, 6 confidently wrong (2 by the
rules); the rules alone placed 115, 2 of them wrongly. The mechanisms are tested on plants of my
own in test_names_said_otherwise.py."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import config_of, exec_plant, own_plant, routed_without_model

ROUTERS = {name: Router(config_of(own_plant(name)))
           for name in ("salt_works", "mrf", "sterile_services")}


async def _routed(plant: str, text: str) -> tuple[str, Any]:
    action = await routed_without_model(ROUTERS[plant], text)
    return action.name, (action.args.get("point") or action.args.get("reason"),
                         action.args.get("value"))


async def test_the_exhaust_air_is_not_the_inlet_air() -> None:
    """ "dryer exhaust air temp" had read TIC-601, the dryer *inlet* air temperature; the
    exhaust is TI-602, named by its tag and described."""
    assert await _routed("salt_works", "dryer exhaust air temp") == ("read", ("TI_602", None))


@pytest.mark.parametrize("text", ["stop the centrifudge", "stop the centrifuge"])
async def test_stopping_the_centrifuge_is_no_speed_of_zero(text: str) -> None:
    """ "stop the centrifudge" had written 0 rpm to SIC-501 beside the centrifuge's run
    switch HS-501."""
    name, (point, value) = await _routed("salt_works", text)
    assert (name, point) != ("write", "SIC_501"), value
    if text == "stop the centrifuge":
        assert (name, point, value) == ("write", "HS_501", False)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("is brine well pump 2 running", "HS_012", None),
    ("start brine well pump two", "HS_012", True),
    ("what pressure is effect two running at", "PI_202", None),
    ("effect 3 pressure setpoint to 18 kPa", "PIC_302_SP", 18),
])
async def test_a_tag_named_point_is_said_as_described(text: str, point: str, value: Any) -> None:
    """Asked back before ("pump 2" taken for a pump the plant lacks; the setpoint, named
    "PIC-302 SP", only described)."""
    assert await _routed("salt_works", text) == ("read" if value is None else "write",
                                                 (point, value))


async def test_stop_the_conveyor_is_its_run_switch() -> None:
    """Asked back before: the infeed conveyor has a run switch and a speed."""
    assert await _routed("mrf", "stop the infeed conveyor") == \
        ("write", ("infeed_conv_run", False))


@pytest.mark.parametrize(("text", "expected"), [
    ("detergent concentration on washer-disinfector 2", ("read", ("wd2_detergent_dose", None))),
    ("detergent dose on washer 2 to 4.5 ml per litre", ("write", ("wd2_detergent_dose", 4.5))),
    ("washer 2 detergent at 4.5 ml/l", ("write", ("wd2_detergent_dose", 4.5))),
    ("set washer-disinfector 2 detergent dose to 4.5 mL/L",
     ("write", ("wd2_detergent_dose", 4.5))),
])
async def test_millilitres_per_litre_are_a_concentration(text: str, expected: Any) -> None:
    """A dose in ml/L: its concentration asked had been taken for a point the plant lacks,
    and "4.5 ml per litre" for 4.5 ml (a volume) of it."""
    assert await _routed("sterile_services", text) == expected


@pytest.mark.parametrize("text", ["washer 2 detergent 4.5 g/l",
                                  "set washer 2 detergent dose to 4.5 litres"])
async def test_a_dose_in_another_unit_is_not_written(text: str) -> None:
    name, (point, value) = await _routed("sterile_services", text)
    assert name != "write", (point, value)


@pytest.mark.parametrize("text", ["set the ballistic deck angle to 18 degrees",
                                  "ballistic deck angle to 18 deg"])
async def test_an_angle_is_said_in_degrees(text: str) -> None:
    """The deck angle is in °, said "degrees": it had been refused as a temperature's unit."""
    assert await _routed("mrf", text) == ("write", ("ballistic_angle", 18))


@pytest.mark.parametrize("text", ["ballistic deck angle 18 degrees celsius",
                                  "ballistic deck angle 18 °C"])
async def test_an_angle_is_not_set_in_degrees_celsius(text: str) -> None:
    name, (point, value) = await _routed("mrf", text)
    assert name != "write", (point, value)


@pytest.mark.parametrize("text", ["clean room humidity setpoint 45 % RH",
                                  "clean room humidity setpoint 45% RH"])
async def test_percent_rh_written_apart_is_a_humidity(text: str) -> None:
    assert await _routed("sterile_services", text) == ("write", ("cr_humidity_sp", 45))


ZH_MACHINES = exec_plant("recycling", {
    "rotor": {"name": "Eddy current rotor speed", "unit": "rpm",
              "names": {"zh": "涡电流分选机转子转速"}},
    "bales": {"name": "Baler 1 bale count", "unit": "bales"},
    "pressure": {"name": "Baler 1 hydraulic pressure", "unit": "bar"},
    "sorter_air": {"name": "Optical sorter 1 air pressure", "unit": "bar"},
    "washer_temp": {"name": "Washer 2 temperature", "unit": "°C"},
    "mystery": {"name": "Line 1 temperature", "unit": "°C"},
})


@pytest.mark.parametrize(("text", "point"), [
    ("1号打包机打了多少包", "rotor"),        # its 机 is no baler's
    ("1号光选机的气压是多少", "pressure"),   # the baler's pressure, not the sorter's
    ("1号吹瓶机温度是多少", "mystery"),      # a machine neither the point nor the lexicon says
])
def test_the_model_reading_a_machine_named_otherwise_in_chinese_is_refused(text: str,
                                                                          point: str) -> None:
    """Batch 26: the model had read the eddy current rotor speed for a baler's bale count,
    and a baler's pressure for an optical sorter's, confidently wrong."""
    from tests.support.plants import model_read_checked
    action = model_read_checked(Router(ZH_MACHINES), ZH_MACHINES, text, point)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "point"), [
    ("1号打包机打了多少包", "bales"),
    ("1号光选机的气压是多少", "sorter_air"),
    ("涡电流分选机转子转速多少", "rotor"),
])
def test_the_model_reading_the_machine_named_in_chinese_stands(text: str, point: str) -> None:
    from tests.support.plants import model_read_checked
    action = model_read_checked(Router(ZH_MACHINES), ZH_MACHINES, text, point)
    assert action.name == "read", action


def test_a_chinese_machine_the_lexicon_knows_only_in_part_is_no_other_tank() -> None:
    """"酒尾接收罐" (a feints receiver): the lexicon knows its 罐 (a tank) and no more; the
    model's read of another tank's level is refused (a held-out batch's confidently wrong)."""
    from tests.support.plants import model_read_checked
    plant = exec_plant("still", {
        "lees": {"name": "Spent lees tank level", "unit": "%"},
        "feints": {"name": "Feints receiver level", "unit": "%"},
    })
    action = model_read_checked(Router(plant), plant, "酒尾接收罐液位多少", "lees")
    assert action.name == "respond", action
