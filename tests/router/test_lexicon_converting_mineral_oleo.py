"""The lexicon's web converting, mineral processing and biodiesel words: Chinese commands
about English-named points of those trades, on plants written here."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

LAMINATOR = Router(exec_devices("laminator", {"line": {
    "unwind_t": {"name": "Unwind tension", "unit": "N"},
    "rewind_t": {"name": "Rewind tension", "unit": "N"},
    "unwind_t_sp": {"name": "Unwind tension setpoint", "unit": "N", "writable": True,
                    "min": 50, "max": 400},
    "chill_t": {"name": "Chill roll water outlet temperature", "unit": "°C"},
    "guide": {"name": "Web guide position", "unit": "mm"},
}}))

CONCENTRATOR = Router(exec_devices("concentrator", {"plant": {
    "rake_torque": {"name": "Tailings thickener rake torque", "unit": "%"},
    "uf_density": {"name": "Thickener underflow density", "unit": "%"},
    "con_grade": {"name": "Final concentrate copper grade", "unit": "%"},
    "tails_grade": {"name": "Tailings copper grade", "unit": "%"},
}}))

ESTERS = Router(exec_devices("esters", {"plant": {
    "ffa": {"name": "Feedstock free fatty acid", "unit": "%"},
    "glycerol_lvl": {"name": "Glycerol settler level", "unit": "%"},
    "meoh_temp": {"name": "Methanol recovery column top temperature", "unit": "°C"},
}}))


@pytest.mark.parametrize(("router", "text", "point"), [
    (LAMINATOR, "收卷张力多少", "rewind_t"),
    (LAMINATOR, "放卷张力多少", "unwind_t"),
    (LAMINATOR, "冷却辊出水温度多少", "chill_t"),
    (LAMINATOR, "纠偏位置", "guide"),
    (CONCENTRATOR, "尾矿浓密机耙子扭矩", "rake_torque"),
    (CONCENTRATOR, "精矿铜品位现在多少", "con_grade"),
    (CONCENTRATOR, "尾矿品位", "tails_grade"),
    (ESTERS, "原料油游离脂肪酸含量", "ffa"),
    (ESTERS, "甘油沉降罐液位", "glycerol_lvl"),
])
async def test_a_trade_word_reads_its_point_or_asks(router: Router, text: str,
                                                    point: str) -> None:
    """Never another point (收卷 is the rewind, 放卷 the unwind); at worst a question."""
    action = await routed_without_model(router, text)
    assert action.name == "respond" or action.args == {"point": point}, (text, action)


@pytest.mark.parametrize(("router", "text", "point"), [
    (LAMINATOR, "冷却辊出水温度多少", "chill_t"),
    (CONCENTRATOR, "尾矿浓密机耙子扭矩", "rake_torque"),
    (CONCENTRATOR, "精矿铜品位现在多少", "con_grade"),
    (CONCENTRATOR, "how dense is the thickener underflow", "uf_density"),
    (ESTERS, "原料油游离脂肪酸含量", "ffa"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


async def test_a_setpoint_by_its_trade_word() -> None:
    action = await routed_without_model(LAMINATOR, "放卷张力设定为200")
    assert (action.name, action.args) == ("write", {"point": "unwind_t_sp", "value": 200})


# review atk40 of these words
PUMPHOUSE = Router(exec_devices("pumphouse", {"plant": {
    "ore_pump": {"name": "Pump 1 run", "type": "bool", "writable": True,
                 "names": {"zh": "给矿泵"}},
    "water_pump": {"name": "Pump 2 run", "type": "bool", "writable": True,
                   "names": {"zh": "供水泵"}},
    "corona": {"name": "Corona treater on", "type": "bool", "writable": True},
    "bd_level": {"name": "Biodiesel tank level", "unit": "%"},
    "oil_level": {"name": "Feedstock oil tank level", "unit": "%"},
}}))


@pytest.mark.parametrize(("text", "name", "args"), [
    ("启动给矿泵", "write", {"point": "ore_pump", "value": True}),  # 给矿 is no water supply
    ("启动供水泵", "write", {"point": "water_pump", "value": True}),
    ("turn on the corona", "write", {"point": "corona", "value": True}),  # its own word
    ("corona off", "write", {"point": "corona", "value": False}),
    ("生物柴油罐液位", "read", {"point": "bd_level"}),  # biodiesel is no feedstock oil
])
async def test_words_kept_apart(text: str, name: str, args: dict[str, object]) -> None:
    action = await routed_without_model(PUMPHOUSE, text)
    assert (action.name, action.args) == (name, args), text
