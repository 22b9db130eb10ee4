"""The lexicon's words of industrial bakeries, asphalt (hot mix) plants and navigation locks:
Chinese and English commands, in each trade's jargon, about English-named points of plants
written here with near neighbours (a spiral mixer's dough temperature beside the water chiller's;
two flour silos; the proofer's temperature beside the tunnel oven's zones and the fryer's oil; the
bread's core temperature beside the cooling spiral's; cold feed bins beside the RAP bin and the RAP
percentage; the mix discharge temperature beside the hot oil heater's outlet and the baghouse
inlet; drum draft beside the baghouse DP; asphalt tanks 1 and 2; mix silos and their discharge
gates; upper and lower HPUs, mitre gates, culvert valves and bubblers; headwater beside tailwater
and chamber levels), and the words they share with other trades (炉 of a furnace and a boiler
house, 冷却塔 of a cooling tower, AC of air conditioning, the gate of a sluice) still meaning
what they meant there."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, model_checked, routed_without_model


def _read(name: str, unit: str | None = None, **more: Any) -> dict[str, Any]:
    return {"name": name, **({"unit": unit} if unit else {}), **more}


def _set(name: str, unit: str | None, lo: float, hi: float, **more: Any) -> dict[str, Any]:
    return {"name": name, **({"unit": unit} if unit else {}), "writable": True,
            "min": lo, "max": hi, **more}


def _switch(name: str) -> dict[str, Any]:
    return {"name": name, "type": "bool", "writable": True}


BAKE_CONFIG = exec_devices("bake2", {"dough": {
    "mx1": _switch("Spiral mixer 1"),
    "mx1_spd": _set("Spiral mixer 1 speed", "rpm", 0, 250),
    "mx1_dt": _read("Spiral mixer 1 dough temperature", "°C"),
    "mx2_dt": _read("Spiral mixer 2 dough temperature", "°C"),
    "fs1": _read("Flour silo 1 level", "%"),
    "fs2": _read("Flour silo 2 level", "%"),
    "wm_sp": _set("Water meter batch quantity", "L", 0, 200),
    "wm_t": _read("Water meter water temperature", "°C"),
    "chill_t": _read("Water chiller outlet temperature", "°C"),
    "div": _switch("Dough divider"),
    "div_spd": _set("Dough divider speed", "strokes/min", 0, 40),
    "mould": _switch("Moulder"),
    "dep": _switch("Depositor"),
}, "proof": {
    "pr_t": _read("Proofer temperature", "°C"),
    "pr_sp": _set("Proofer temperature setpoint", "°C", 20, 45),
    "pr_rh": _read("Proofer humidity", "%RH"),
    "pr_time": _set("Proof time", "min", 30, 120),
}, "oven": {
    "z1": _read("Tunnel oven zone 1 temperature", "°C"),
    "z2": _read("Tunnel oven zone 2 temperature", "°C"),
    "z3": _read("Tunnel oven zone 3 temperature", "°C"),
    "z2_sp": _set("Tunnel oven zone 2 temperature setpoint", "°C", 150, 300),
    "band": _set("Oven band speed", "m/min", 0.5, 5),
    "brn": _switch("Oven burner 1"),
    "core": _read("Bread core temperature", "°C"),
    "cool_t": _read("Cooling spiral temperature", "°C"),
    "cool": _switch("Cooling spiral drive"),
}, "fry": {
    "fry_t": _read("Fryer oil temperature", "°C"),
    "fry_sp": _set("Fryer oil temperature setpoint", "°C", 150, 190),
    "fry_lvl": _read("Fryer oil level", "%"),
    "slicer": _switch("Bread slicer"),
    "bagger": _switch("Bagger"),
    "bag_rate": _read("Bagger speed", "bags/min"),
}})
HMA_CONFIG = exec_devices("hma5", {"cold": {
    "cf1": _set("Cold feed bin 1 feeder speed", "%", 0, 100),
    "cf2": _set("Cold feed bin 2 feeder speed", "%", 0, 100),
    "rap_f": _set("RAP bin feeder speed", "%", 0, 100),
    "rap_pct": _set("RAP percentage", "%", 0, 40),
    "coll": _switch("Collecting conveyor"),
    "slinger": _switch("Drum feed conveyor"),
}, "drum": {
    "drum": _switch("Dryer drum"),
    "fire": _set("Burner firing rate", "%", 0, 100),
    "mix_t": _read("Mix discharge temperature", "°C"),
    "draft": _read("Drum draft", "Pa"),
    "bh_in": _read("Baghouse inlet temperature", "°C"),
    "bh_dp": _read("Baghouse differential pressure", "kPa"),
    "idf": _switch("ID fan"),
    "idf_dmp": _set("ID fan damper position", "%", 0, 100),
}, "binder": {
    "ac1_t": _read("Asphalt tank 1 temperature", "°C"),
    "ac1_l": _read("Asphalt tank 1 level", "%"),
    "ac2_l": _read("Asphalt tank 2 level", "%"),
    "ac_pump": _switch("Asphalt pump"),
    "hoh_t": _read("Hot oil heater outlet temperature", "°C"),
    "hoh": _switch("Hot oil heater"),
}, "silos": {
    "s1": _read("Mix silo 1 level", "%"),
    "s2": _read("Mix silo 2 level", "%"),
    "s1_gate": _switch("Mix silo 1 discharge gate"),
    "s2_gate": _switch("Mix silo 2 discharge gate"),
    "lo_wt": _read("Load-out scale weight", "t"),
}})
LOCK_CONFIG = exec_devices("lock7", {"hpu": {
    "uhpu": _switch("Upper HPU pump"),
    "uhpu_p": _read("Upper HPU pressure", "bar"),
    "uhpu_t": _read("Upper HPU oil temperature", "°C"),
    "lhpu_p": _read("Lower HPU pressure", "bar"),
}, "gates": {
    "umg": _switch("Upstream mitre gate"),
    "lmg": _switch("Downstream mitre gate"),
    "ucv": _set("Upper culvert valve position", "%", 0, 100),
    "lcv": _set("Lower culvert valve position", "%", 0, 100),
    "ubub": _switch("Upstream gate bubbler"),
    "lbub": _switch("Downstream gate bubbler"),
}, "levels": {
    "hw": _read("Headwater level", "m"),
    "tw": _read("Tailwater level", "m"),
    "ch": _read("Chamber level", "m"),
    "fb1": _read("Floating bollard 1 position", "m"),
    "count": _read("Lockage count"),
    "up_tl": _switch("Upstream traffic light"),
    "dn_tl": _switch("Downstream traffic light"),
}})
OTHERS_CONFIG = exec_devices("others", {"plant": {
    "b1_p": _read("Boiler 1 steam pressure", "bar"),
    "b1_fg": _read("Boiler 1 furnace temperature", "°C"),
    "ct1": _switch("Cooling tower 1 fan"),
    "ct1_t": _read("Cooling tower 1 outlet water temperature", "°C"),
    "ac2": _switch("AC unit 2"),
    "ac2_t": _read("AC unit 2 supply air temperature", "°C"),
    "sg3": _set("Sluice gate 3 position", "%", 0, 100),
    "f1_t": _read("Furnace 1 temperature", "°C"),
}})

BAKE, HMA, LOCK = Router(BAKE_CONFIG), Router(HMA_CONFIG), Router(LOCK_CONFIG)
OTHERS = Router(OTHERS_CONFIG)
#: the plants by name, with their configs (for the model stage's check)
PLANTS = {"bake": (BAKE, BAKE_CONFIG), "hma": (HMA, HMA_CONFIG), "lock": (LOCK, LOCK_CONFIG)}


@pytest.mark.parametrize(("router", "text", "point"), [
    # industrial bakery
    (BAKE, "1号和面机面团温度", "mx1_dt"),
    (BAKE, "2号搅拌机面团温度多少", "mx2_dt"),
    (BAKE, "1号和面机转速", "mx1_spd"),
    (BAKE, "1号面粉仓料位", "fs1"),
    (BAKE, "2号粉仓还剩多少", "fs2"),
    (BAKE, "醒发箱温度", "pr_t"),
    (BAKE, "醒发室湿度", "pr_rh"),
    (BAKE, "隧道炉二区温度", "z2"),
    (BAKE, "烤炉3区温度", "z3"),
    (BAKE, "烤炉网带速度", "band"),
    (BAKE, "面包中心温度", "core"),
    (BAKE, "螺旋冷却塔温度", "cool_t"),
    (BAKE, "炸炉油温", "fry_t"),
    (BAKE, "炸锅油位", "fry_lvl"),
    (BAKE, "冰水机出水温度", "chill_t"),
    (BAKE, "水表水温", "wm_t"),
    (BAKE, "分割机速度", "div_spd"),
    (BAKE, "套袋机速度", "bag_rate"),
    (BAKE, "spiral mixer 2 dough temp", "mx2_dt"),
    (BAKE, "proof box temperature", "pr_t"),
    (BAKE, "prover humidity", "pr_rh"),
    (BAKE, "oven zone 1 temp", "z1"),
    (BAKE, "core temp", "core"),
    (BAKE, "fryer oil temp", "fry_t"),
    (BAKE, "water chiller temp", "chill_t"),
    (BAKE, "bagger speed", "bag_rate"),
    # asphalt plant
    (HMA, "1号冷料仓给料机速度", "cf1"),
    (HMA, "再生料仓给料机速度", "rap_f"),
    (HMA, "铣刨料给料机速度", "rap_f"),
    (HMA, "RAP掺量", "rap_pct"),
    (HMA, "出料温度", "mix_t"),
    (HMA, "成品料温度多少", "mix_t"),
    (HMA, "滚筒负压", "draft"),
    (HMA, "布袋除尘器入口温度", "bh_in"),
    (HMA, "布袋压差", "bh_dp"),
    (HMA, "1号沥青罐温度", "ac1_t"),
    (HMA, "2号沥青罐液位", "ac2_l"),
    (HMA, "导热油炉出口温度", "hoh_t"),
    (HMA, "1号成品仓料位", "s1"),
    (HMA, "装车秤重量", "lo_wt"),
    (HMA, "mix temp", "mix_t"),
    (HMA, "drum draft", "draft"),
    (HMA, "baghouse DP", "bh_dp"),
    (HMA, "AC tank 1 temp", "ac1_t"),
    (HMA, "bitumen tank 2 level", "ac2_l"),
    (HMA, "hot oil heater outlet temp", "hoh_t"),
    (HMA, "loadout scale", "lo_wt"),
    # navigation lock
    (LOCK, "上闸首液压站压力", "uhpu_p"),
    (LOCK, "下闸首液压站压力", "lhpu_p"),
    (LOCK, "上游水位", "hw"),
    (LOCK, "下游水位", "tw"),
    (LOCK, "闸室水位", "ch"),
    (LOCK, "1号浮式系船柱位置", "fb1"),
    (LOCK, "过闸次数", "count"),
    (LOCK, "upper power pack pressure", "uhpu_p"),
    (LOCK, "headwater", "hw"),
    (LOCK, "tailwater level", "tw"),
    (LOCK, "chamber level", "ch"),
    (LOCK, "floating mooring bitt 1", "fb1"),
    (LOCK, "number of lockages", "count"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (BAKE, "启动1号和面机", {"point": "mx1", "value": True}),
    (BAKE, "醒发时间设为60分钟", {"point": "pr_time", "value": 60}),
    (BAKE, "把醒发箱温度设为38度", {"point": "pr_sp", "value": 38}),
    (BAKE, "把隧道炉二区温度设为230度", {"point": "z2_sp", "value": 230}),
    (BAKE, "网带速度调到2.5米每分", {"point": "band", "value": 2.5}),
    (BAKE, "启动烤炉1号燃烧器", {"point": "brn", "value": True}),
    (BAKE, "启动冷却螺旋", {"point": "cool", "value": True}),
    (BAKE, "油炸机油温设为175度", {"point": "fry_sp", "value": 175}),
    (BAKE, "启动分割机", {"point": "div", "value": True}),
    (BAKE, "启动整形机", {"point": "mould", "value": True}),
    (BAKE, "停注料机", {"point": "dep", "value": False}),
    (BAKE, "启动切片机", {"point": "slicer", "value": True}),
    (BAKE, "停套袋机", {"point": "bagger", "value": False}),
    (BAKE, "proof time to 75 minutes", {"point": "pr_time", "value": 75}),
    (BAKE, "oven band speed to 2 m/min", {"point": "band", "value": 2}),
    (BAKE, "start the divider", {"point": "div", "value": True}),
    (BAKE, "stop the moulder", {"point": "mould", "value": False}),
    (BAKE, "depositor off", {"point": "dep", "value": False}),
    (HMA, "再生料掺量设为25%", {"point": "rap_pct", "value": 25}),
    (HMA, "启动集料皮带", {"point": "coll", "value": True}),
    (HMA, "启动斜皮带", {"point": "slinger", "value": True}),
    (HMA, "启动干燥滚筒", {"point": "drum", "value": True}),
    (HMA, "燃烧器火力调到60%", {"point": "fire", "value": 60}),
    (HMA, "启动引风机", {"point": "idf", "value": True}),
    (HMA, "引风机风门开到70%", {"point": "idf_dmp", "value": 70}),
    (HMA, "启动沥青泵", {"point": "ac_pump", "value": True}),
    (HMA, "停导热油炉", {"point": "hoh", "value": False}),
    (HMA, "打开1号成品仓放料门", {"point": "s1_gate", "value": True}),
    (HMA, "关闭2号成品仓放料门", {"point": "s2_gate", "value": False}),
    (HMA, "RAP percentage to 30", {"point": "rap_pct", "value": 30}),
    (HMA, "cold feed 1 speed to 45%", {"point": "cf1", "value": 45}),
    (HMA, "start the gathering conveyor", {"point": "coll", "value": True}),
    (HMA, "firing rate to 70%", {"point": "fire", "value": 70}),
    (HMA, "start the exhaust fan", {"point": "idf", "value": True}),
    (HMA, "close mix silo 2 gate", {"point": "s2_gate", "value": False}),
    (LOCK, "启动上闸首液压站", {"point": "uhpu", "value": True}),
    (LOCK, "打开上闸首人字门", {"point": "umg", "value": True}),
    (LOCK, "关闭下闸首人字门", {"point": "lmg", "value": False}),
    (LOCK, "上闸首输水阀开度设为50%", {"point": "ucv", "value": 50}),
    (LOCK, "打开上闸首吹气防冰", {"point": "ubub", "value": True}),
    (LOCK, "关闭下闸首气泡", {"point": "lbub", "value": False}),
    (LOCK, "上游信号灯开", {"point": "up_tl", "value": True}),
    (LOCK, "start the upper HPU", {"point": "uhpu", "value": True}),
    (LOCK, "lower culvert valve to 40%", {"point": "lcv", "value": 40}),
    (LOCK, "downstream traffic signal on", {"point": "dn_tl", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


def _reads(point: str) -> Action:
    return Action("read", {"point": point})


def _starts(point: str) -> Action:
    return Action("write", {"point": point, "value": True})


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("bake", "醒发箱温度", _reads("z1")),  # a proofer is no oven
    ("bake", "炸炉油温", _reads("z2")),  # nor is a fryer
    ("bake", "1号和面机面团温度", _reads("chill_t")),  # the dough is no chilled water
    ("bake", "面包中心温度", _reads("cool_t")),  # the loaf's core is no cooling spiral's
    ("bake", "螺旋冷却塔温度", _reads("core")),
    ("bake", "醒发时间设为60分钟", Action("write", {"point": "pr_sp", "value": 60})),
    ("hma", "出料温度", _reads("hoh_t")),  # the mix's discharge is no hot oil heater's outlet
    ("hma", "出料温度", _reads("bh_in")),
    ("hma", "滚筒负压", _reads("bh_dp")),  # drum draft is no baghouse DP
    ("hma", "RAP掺量", _reads("rap_f")),  # the RAP percentage is no RAP feeder's speed
    ("hma", "1号冷料仓给料机速度", _reads("rap_f")),  # a cold feed bin is no RAP bin
    ("hma", "启动集料皮带", _starts("slinger")),  # the collector is no drum feed conveyor
    ("lock", "上游水位", _reads("tw")),  # headwater is no tailwater
    ("lock", "下游水位", _reads("hw")),
    ("lock", "闸室水位", _reads("hw")),  # the chamber is no headwater
    ("lock", "上游水位", _reads("up_tl")),  # nor a traffic light upstream
    ("lock", "打开上闸首吹气防冰", _starts("umg")),  # a bubbler is no mitre gate
])
def test_the_model_is_not_let_take_a_neighbour(plant: str, text: str, wrong: Action) -> None:
    """The model's check does not let the model take the neighbour the trade's word is not."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, wrong)
    assert checked.name == "respond", (text, checked)


@pytest.mark.parametrize(("plant", "text", "action"), [
    ("bake", "冰水温度", _reads("chill_t")),  # the rules leave the chilled water to the model
    ("bake", "醒发箱温度", _reads("pr_t")),
    ("hma", "出料温度", _reads("mix_t")),
    ("hma", "布袋压差", _reads("bh_dp")),
    ("lock", "上游水位", _reads("hw")),
    ("lock", "过闸次数", _reads("count")),
])
def test_the_model_is_let_take_the_trade_word(plant: str, text: str, action: Action) -> None:
    """Whatever the stages before it leave to the model, the model's check lets through the
    point the trade's word names."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, action)
    assert (checked.name, checked.args) == (action.name, action.args), (text, checked)


# the words shared with other trades still mean what they meant there
@pytest.mark.parametrize(("text", "args"), [
    ("1号炉温度", {"point": "f1_t"}),  # 炉 alone is a furnace still, no tunnel oven or fryer
    ("1号锅炉蒸汽压力", {"point": "b1_p"}),
    ("1号冷却塔出水温度", {"point": "ct1_t"}),  # 冷却塔 alone a cooling tower, no spiral cooler
    ("AC 2 supply air temp", {"point": "ac2_t"}),  # AC of air conditioning, no asphalt cement
    ("gate 3 position", {"point": "sg3"}),  # a sluice's gate, no silo's
])
async def test_shared_words_keep_their_other_trades(text: str, args: dict[str, object]) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", args), (text, action)


@pytest.mark.parametrize(("text", "args"), [
    ("启动1号冷却塔风机", {"point": "ct1", "value": True}),
    ("start AC 2", {"point": "ac2", "value": True}),
    ("3号闸门开度设为40%", {"point": "sg3", "value": 40}),
])
async def test_shared_words_keep_their_other_trades_in_writes(text: str,
                                                             args: dict[str, object]) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("text", "want"), [
    ("和面机", {"thing.dough_mixer"}),
    ("spiral mixer", {"thing.dough_mixer"}),
    ("醒发箱", {"thing.proofer"}),
    ("醒发室", {"thing.proofer"}),
    ("proof box", {"thing.proofer"}),
    ("醒发时间", {"quantity.proof_time"}),
    ("隧道炉", {"thing.tunnel_oven"}),
    ("band oven", {"thing.tunnel_oven"}),
    ("网带速度", {"quantity.line_speed"}),
    ("螺旋冷却塔", {"thing.spiral_cooler"}),
    ("cooling spiral", {"thing.spiral_cooler"}),
    ("中心温度", {"quantity.core_temperature"}),
    ("炸炉", {"thing.fryer"}),
    ("油炸机", {"thing.fryer"}),
    ("炸锅", {"thing.fryer"}),
    ("面团温度", {"quantity.dough_temperature"}),
    ("注料机", {"thing.moulding_line"}),
    ("分割机", {"thing.dough_divider"}),
    ("搓圆机", {"thing.dough_rounder"}),
    ("moulder", {"thing.dough_moulder"}),
    ("面粉仓", {"thing.flour_silo"}),
    ("冰水机", {"thing.chiller"}),
    ("定量加水器", {"thing.water_doser"}),
    ("套袋机", {"thing.packaging_machine"}),
    ("冷料仓", {"thing.cold_feed_bin"}),
    ("再生料仓", {"thing.rap_bin"}),
    ("铣刨料", {"medium.reclaimed_asphalt"}),
    ("millings", {"medium.reclaimed_asphalt"}),
    ("再生料掺量", {"quantity.rap_percentage"}),
    ("集料皮带", {"thing.collecting_conveyor"}),
    ("gathering conveyor", {"thing.collecting_conveyor"}),
    ("斜皮带", {"thing.charging_conveyor"}),
    ("干燥滚筒", {"thing.dryer_drum"}),
    ("燃烧器火力", {"quantity.firing_rate"}),
    ("出料温度", {"quantity.mix_temperature"}),
    ("mix discharge temperature", {"quantity.mix_temperature"}),
    ("滚筒负压", {"quantity.draft"}),
    ("布袋除尘器", {"thing.flue_gas_treatment"}),
    ("引风机", {"thing.id_fan"}),
    ("改性沥青", {"medium.bitumen"}),
    ("asphalt cement", {"medium.bitumen"}),
    ("导热油炉", {"thing.thermal_oil_heater"}),
    ("成品仓", {"thing.product_silo"}),
    ("mix silo", {"thing.product_silo"}),
    ("放料门", {"thing.discharge_gate"}),
    ("load-out", {"thing.load_out"}),
    ("液压站", {"thing.hydraulic_pump"}),
    ("power pack", {"thing.hydraulic_pump"}),
    ("人字门", {"thing.lock_gate"}),
    ("上闸首", {"modifier.top", "modifier.upstream"}),
    ("下闸首", {"modifier.bottom", "modifier.downstream"}),
    ("闸首", {"thing.lock_head"}),
    ("上游水位", {"quantity.headwater_level"}),
    ("下游水位", {"quantity.tailwater_level"}),
    ("闸室", {"thing.navigation_lock", "thing.zone"}),
    ("输水阀门", {"thing.culvert_valve"}),
    ("吹气防冰", {"thing.ice_protection"}),
    ("气泡", {"thing.ice_protection", "thing.spa_blower"}),
    ("浮式系船柱", {"thing.floating_bollard"}),
    ("过闸次数", {"quantity.lockage_count"}),
    ("通航信号灯", {"thing.traffic_signal"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


@pytest.mark.parametrize(("text", "want", "unwanted"), [
    ("醒发箱", "thing.proofer", "thing.oven_food"),  # split from the ovens
    ("炸锅", "thing.fryer", "thing.oven_food"),
    ("隧道炉", "thing.tunnel_oven", "thing.furnace"),  # 炉 of a longer word is no furnace
    ("炸炉", "thing.fryer", "thing.furnace"),
    ("冷却塔", "thing.cooling_tower", "thing.spiral_cooler"),  # 冷却塔 alone is HVAC's
    ("螺旋冷却塔", "thing.spiral_cooler", "thing.cooling_tower"),
    ("proof time", "quantity.proof_time", "quantity.alcohol"),  # no proof spirit
    ("面团温度", "quantity.dough_temperature", "quantity.core_temperature"),
    ("冰水机", "thing.chiller", "thing.ice_machine"),
    ("AC", "modifier.ac", "medium.bitumen"),  # bare AC is no asphalt cement
    ("沥青罐", "medium.bitumen", "modifier.ac"),
    ("成品仓放料门", "thing.discharge_gate", "thing.door"),
    ("燃烧器火力", "quantity.firing_rate", "quantity.fuel_consumption"),
    ("引风机", "thing.id_fan", "thing.flue_gas_treatment"),
    ("上游水位", "quantity.headwater_level", "quantity.tailwater_level"),
    ("闸室水位", "quantity.level", "quantity.headwater_level"),
    ("防冰气泡", "thing.ice_protection", "thing.spa_blower"),
    ("按摩池气泡", "thing.spa_blower", "thing.lock_gate"),
    ("冷却塔", "thing.cooling_tower", "thing.conveyor"),
])
def test_the_words_stay_apart(text: str, want: str, unwanted: str) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want in found and unwanted not in found, (text, found)
