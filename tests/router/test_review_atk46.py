"""Review atk46 attacked the naming of tag- and code-named points by their descriptions (a run
command's clause, six-word switches, KKS and IEC codes, capital labels): 34 wrong writes and 23
wrong reads on 12 plants of its own; its second round (atk46b) 12 writes on 6 more. These are
their cases the mends stop."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked, routed_without_model

CONFIG = exec_devices("unit", {"dcs": {
    "lab40_sp": {"name": "10LAB40DL001-SP", "unit": "%", "writable": True, "min": 0,
                 "max": 100, "description": "Feedwater tank level controller"},
    "lab40_out": {"name": "10LAB40DL001-OUT", "unit": "%", "writable": True, "min": 0,
                  "max": 100, "description": "Feedwater tank level controller"},
    "lab40_cl": {"name": "10LAB40CL001", "unit": "%", "description": "Feedwater tank level"},
    "pic203_mv": {"name": "=PW+RO1-PIC203-MV", "unit": "%", "writable": True, "min": 0,
                  "max": 100, "description": "RO1 feed pressure controller"},
    "loop_m1": {"name": "=WFI+LOOP-M1", "type": "bool", "writable": True,
                "description": "Loop pump, run command"},
    "loop_m2": {"name": "=WFI+LOOP-M2", "type": "bool", "writable": True,
                "description": "Pump, on/off"},
    "recirc": {"name": "10LAC20AA001", "unit": "%", "writable": True, "min": 0, "max": 100,
               "description": "Feedwater pump 2 - recirculation valve position setpoint"},
    "lube": {"name": "HS-110", "type": "bool", "writable": True,
             "description": "Boiler feed pump lube oil pump start/stop"},
    "jockey": {"name": "HS-115", "type": "bool", "writable": True,
               "description": "Fire pump jockey pump, run command"},
    "polymer": {"name": "HS-307", "type": "bool", "writable": True,
                "description": "Belt press polymer dosing pump start/stop"},
    "washwater": {"name": "HS-308", "type": "bool", "writable": True,
                  "description": "Belt press wash water booster pump start/stop"},
    "gen_p": {"name": "10MKA10CE001", "unit": "kW", "description": "Generator; active power"},
    "gen_sp": {"name": "10MKA10DE001", "unit": "kW", "writable": True, "min": 0, "max": 900,
               "description": "Generator active power setpoint"},
    "spare": {"name": "HV-204", "unit": "%", "writable": True, "min": 0, "max": 100,
              "description": "Reserve"},
    "ms_out": {"name": "10LBA10DP001-OUT1", "unit": "%", "writable": True, "min": 0,
               "max": 100, "description": "Main steam pressure"},
    "drum_out": {"name": "10HAD10DL001 Drum lvl out", "unit": "%", "writable": True, "min": 0,
                 "max": 100, "description": "Drum level"},
    "da_y01": {"name": "10LAA10DL001 Y01", "unit": "%", "writable": True, "min": 0,
               "max": 100, "description": "Deaerator level"},
    "chiller_cwp": {"name": "HS-401", "type": "bool", "writable": True,
                    "description": "Chiller 1 condenser water pump, run command"},
    "chiller_run": {"name": "HS-400", "type": "bool", "writable": True,
                    "description": "Chiller 1 compressor, run command"},
    "cw_a": {"name": "10PAC10AP001 CW pump A", "type": "bool", "writable": True,
             "description": "Pump, on/off"},
    "cw_b": {"name": "10PAC20AP001", "type": "bool", "writable": True,
             "description": "Circulating water pump B, run command"},
}})
ROUTER = Router(CONFIG)


def _aliases(point: str) -> tuple[str, ...]:
    return ROUTER.rules.points[point].aliases


def test_what_no_description_names() -> None:
    # a loop's output, however its parameter is joined or written
    for point in ("lab40_out", "pic203_mv", "ms_out", "drum_out", "da_y01"):
        assert _aliases(point) == (), point
    # a kind alone; a spare; a thing before what of it is set; a pump's own pump
    for point in ("loop_m2", "spare", "recirc", "lube", "jockey"):
        assert _aliases(point) == (), point
    # (and a run command is named by its thing alone, as a start/stop is)
    assert _aliases("loop_m1") == ("Loop pump",)
    assert _aliases("gen_p") == ("Generator active power",)


@pytest.mark.parametrize("text", [
    "set the RO1 feed pressure to 12", "start the pump",
    "stop the pump", "set feedwater pump 2 to 50", "start the boiler feed pump",
    "stop the fire pump", "start the belt press pump", "set the reserve to 30",
    "set the main steam pressure to 50", "set the drum level to 50", "deaerator level to 40",
    # "Pump, on/off" may be any pump: the model's to weigh, and its check's
    "start the circulating water pump",
    # 启动1号冷水机组, "start chiller 1": its condenser water pump is no chiller
    "启动1号冷水机组",
])
async def test_no_write_nobody_asked_for(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name != "write", (text, action)


async def test_a_loop_is_set_by_its_setpoint_not_its_output() -> None:
    action = await routed_without_model(ROUTER, "set the feedwater tank level to 60")
    assert (action.name, action.args) == ("write", {"point": "lab40_sp", "value": 60})


async def test_a_reading_is_read_where_its_setpoint_names_more_of_the_words() -> None:
    action = await routed_without_model(ROUTER, "what is the generator power")
    assert action.name != "read" or action.args == {"point": "gen_p"}, action


def test_a_chinese_command_names_the_switched_thing_itself() -> None:
    # 启动带式压滤机, "start the belt press": its polymer dosing pump is no belt press
    checked = model_checked(ROUTER, CONFIG, "启动带式压滤机",
                            Action("write", {"point": "polymer", "value": True}))
    assert checked.name == "respond", checked


async def test_a_setpoint_asked_of_nothing_is_none() -> None:
    # 设定是多少 alone asks no setpoint of any one thing
    action = await routed_without_model(ROUTER, "设定是多少")
    assert action.name == "respond", action


def test_the_model_may_not_write_an_output_not_asked() -> None:
    checked = model_checked(ROUTER, CONFIG, "set the drum level to 50",
                            Action("write", {"point": "drum_out", "value": 50}))
    assert checked.name == "respond", checked
