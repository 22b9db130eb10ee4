"""A rate said as what it counts per a time, and a Chinese switch named by its start: a
chicken plant named in plain English with Chinese names (blind batch 47). "line 2 to one
hundred and sixty birds per minute" found no "minute" on the line speed in birds/min;
开启1号压缩机 was refused because the compressor's switch 1号压缩机启动 says a "启动" (start) the
command did not."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

PLANT = exec_devices("poultry", {"line": {
    "line1_speed": {"name": "Line 1 shackle speed", "unit": "birds/min", "type": "uint16",
                    "writable": True, "min": 60, "max": 200},
    "line2_speed": {"name": "Line 2 shackle speed", "unit": "birds/min", "type": "uint16",
                    "writable": True, "min": 60, "max": 200},
    "scalder_temp": {"name": "Scalder 1 water temperature", "unit": "°C"},
    "run_hours": {"name": "Plucker 1 run time", "unit": "min"},
}, "cold": {
    "comp1_run": {"name": "Compressor 1 run", "type": "bool", "writable": True,
                  "names": {"zh": "1号压缩机启动"}},
    "comp2_run": {"name": "2号压缩机启动", "type": "bool", "writable": True},
    "leak": {"name": "Ammonia leak alarm", "type": "bool", "names": {"zh": "氨泄漏报警"}},
}})
ROUTER = Router(PLANT)


@pytest.mark.parametrize(("text", "action", "args"), [
    ("line 2 to one hundred and sixty birds per minute", "write",
     {"point": "line2_speed", "value": 160}),
    ("line 1 to 150 birds a minute", "write", {"point": "line1_speed", "value": 150}),
    ("开启1号压缩机", "write", {"point": "comp1_run", "value": True}),
    ("关闭2号压缩机", "write", {"point": "comp2_run", "value": False}),
])
async def test_commands_of_a_chicken_plant(text: str, action: str,
                                           args: dict[str, object]) -> None:
    routed = await routed_without_model(ROUTER, text)
    assert (routed.name, routed.args) == (action, args), text


async def test_a_time_asked_is_still_a_time() -> None:
    # "minutes" asked of the plucker is its run time, no rate of birds
    routed = await routed_without_model(ROUTER, "how many minutes has plucker 1 run")
    assert routed.args.get("point") != "line1_speed", routed


async def test_a_start_named_switch_with_more_after_it_is_still_a_part() -> None:
    router = Router(exec_devices("x", {"plc": {
        "horn": {"name": "3号压缩机启动喇叭", "type": "bool", "writable": True}}}))
    routed = await routed_without_model(router, "开启3号压缩机")
    assert routed != Action("write", {"point": "horn", "value": True}), routed


ZH_NAMED = Router(exec_devices("upw", {"ro": {
    "hp1": {"name": "1号高压泵启动", "type": "bool", "writable": True,
            "description": "RO high-pressure pump 1 run command"},
    "hp2": {"name": "2号高压泵启动", "type": "bool", "writable": True,
            "description": "RO high-pressure pump 2 run command"},
    "edi_sp": {"name": "EDI电流设定", "unit": "A", "writable": True, "min": 0, "max": 8,
               "description": "EDI stack current setpoint"},
    "reflux_a": {"name": "Reflux pump A", "type": "bool", "writable": True,
                 "names": {"zh": "回流泵A启动"}},
    "reflux_b": {"name": "Reflux pump B", "type": "bool", "writable": True,
                 "names": {"zh": "回流泵B启动"}},
}}))


@pytest.mark.parametrize(("text", "action", "args"), [
    # a point named in Chinese alone is called in English what its description says
    ("stop high pressure pump 1", "write", {"point": "hp1", "value": False}),
    ("EDI current to 3.5 amps", "write", {"point": "edi_sp", "value": 3.5}),
    # the letter of 回流泵A启动, said, is its own
    ("启动回流泵A", "write", {"point": "reflux_a", "value": True}),
])
async def test_chinese_named_points_in_english_and_lettered(text: str, action: str,
                                                            args: dict[str, object]) -> None:
    routed = await routed_without_model(ZH_NAMED, text)
    assert (routed.name, routed.args) == (action, args), text


async def test_a_letter_not_said_is_no_switch_of_it() -> None:
    routed = await routed_without_model(ZH_NAMED, "启动回流泵")
    assert routed.name != "write", routed


ZH_PAIR = Router(exec_devices("upw2", {"ro": {
    "hp2": {"name": "2号高压泵启动", "type": "bool", "writable": True,
            "description": "RO high-pressure pump 2 run command"},
    "hp2_run": {"name": "2号高压泵运行", "type": "bool",
                "description": "RO high-pressure pump 2 running"},
}}))


def test_a_chinese_named_switch_keeps_its_status() -> None:
    assert ZH_PAIR.rules.statuses == {"hp2": "hp2_run"}


async def test_whether_a_chinese_named_pump_runs_is_its_status() -> None:
    routed = await routed_without_model(ZH_PAIR, "is high pressure pump 2 running")
    assert routed == Action("read", {"point": "hp2_run"}), routed


async def test_a_chinese_name_said_whole_outranks_a_total_of_its_kind() -> None:
    # 进水流量 is the influent flow's own name; the total, in m³ and counted, is reached by
    # translation only (blind batch 48: the model read the total)
    router = Router(exec_devices("wwtp", {"inlet": {
        "flow": {"name": "Influent flow", "unit": "m3/h", "names": {"zh": "进水流量"},
                 "description": "Raw sewage flow into the works, measured after the screens"},
        "total": {"name": "Influent flow total", "unit": "m3", "type": "uint32",
                  "aliases": ["inflow totaliser"]},
        "ras": {"name": "RAS flow", "unit": "m3/h"},
        "was": {"name": "WAS flow", "unit": "m3/h"},
    }}))
    routed = await routed_without_model(router, "进水流量多少")
    assert routed == Action("read", {"point": "flow"}), routed
