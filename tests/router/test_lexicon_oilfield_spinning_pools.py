"""The lexicon's words of onshore oil and gas production, cotton spinning mills and indoor
aquatic centres: Chinese and English commands, in each trade's jargon, about English-named points
of plants written here with near neighbours (a well's tubing and casing pressure; a pumping
unit's strokes per minute beside its stroke length and pump fillage; an ESP's frequency beside
its intake pressure; the separator's oil level beside its interface level; an oil tank beside a
produced water tank; corrosion inhibitor, paraffin inhibitor, scale inhibitor and methanol pumps;
the card's cylinder beside its licker-in and its delivery speed; a draw frame beside a comber and
a speed frame; a ring frame's spindle speed, twist and ends down; the ring frame department's RH
beside the carding department's; the main pool beside the training, learner and leisure pools and
the spa; free beside combined and total chlorine; the spa's jets beside its bubbles), and the
words they share with other trades (a generator's 油机, a hydraulic system's 油压, a
precipitator's ESP, a paper machine's 断头, a roaster's drum speed, a valve's stroke speed, an
intake pump, a door's card reader) still meaning what they meant there."""

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


OIL_CONFIG = exec_devices("pad12", {"wells": {
    "w1_tbg": _read("Well 1 tubing pressure", "psi"),
    "w1_csg": _read("Well 1 casing pressure", "psi"),
    "w1_choke": _set("Well 1 choke position", "%", 0, 100),
    "w1_spm": _read("Well 1 pumping unit strokes per minute", "SPM"),
    "w1_spm_sp": _set("Well 1 pumping unit SPM setpoint", "SPM", 2, 10),
    "w1_stroke": _read("Well 1 stroke length", "in"),
    "w1_fill": _read("Well 1 pump fillage", "%"),
    "w1_pprl": _read("Well 1 peak polished rod load", "lbf"),
    "w1_fl": _read("Well 1 working fluid level", "ft"),
    "w1_pu": _switch("Well 1 pumping unit"),
    "w2_tbg": _read("Well 2 tubing pressure", "psi"),
    "w2_csg": _read("Well 2 casing pressure", "psi"),
    "w2_hz": _set("Well 2 ESP frequency", "Hz", 30, 65),
    "w2_pip": _read("Well 2 ESP pump intake pressure", "psi"),
    "w2_amps": _read("Well 2 ESP motor current", "A"),
    "w3_gl": _read("Well 3 gas lift injection rate", "Mscf/d"),
    "w3_arr": _read("Well 3 plunger arrival count"),
}, "facility": {
    "sep_p": _read("Separator pressure", "psi"),
    "sep_oil": _read("Separator oil level", "in"),
    "sep_if": _read("Separator interface level", "in"),
    "ht_t": _read("Heater treater temperature", "°F"),
    "ht_sp": _set("Heater treater temperature setpoint", "°F", 100, 180),
    "lh_t": _read("Line heater bath temperature", "°F"),
    "oil1": _read("Oil tank 1 level", "ft"),
    "oil2": _read("Oil tank 2 level", "ft"),
    "pw": _read("Produced water tank level", "ft"),
    "lact": _switch("LACT unit"),
    "bsw": _read("LACT BS&W", "%"),
    "xfer1": _switch("Transfer pump 1"),
    "vru": _switch("Vapour recovery unit"),
    "pilot": _read("Flare pilot temperature", "°F"),
    "ign": _switch("Flare igniter"),
    "ci": _switch("Corrosion inhibitor pump"),
    "pi": _switch("Paraffin inhibitor pump"),
    "si_rate": _set("Scale inhibitor injection rate", "qt/d", 0, 20),
    "meoh": _switch("Methanol pump"),
    "gas": _read("Gas production", "Mscf/d"),
    "oil_rate": _read("Oil production", "bbl/d"),
    "water_rate": _read("Water production", "bbl/d"),
}})

SPIN_CONFIG = exec_devices("mill4", {"prep": {
    "plucker": _switch("Bale plucker"),
    "cleaner": _read("Blowroom cleaner beater speed", "rpm"),
    "c3_del": _set("Card 3 delivery speed", "m/min", 80, 250),
    "c3_cyl": _read("Card 3 cylinder speed", "rpm"),
    "c3_li": _read("Card 3 licker-in speed", "rpm"),
    "c3_hank": _read("Card 3 sliver hank", "Ne"),
    "df2_del": _read("Draw frame 2 delivery speed", "m/min"),
    "df2_cv": _read("Draw frame 2 sliver CV", "%"),
    "cb1_nips": _read("Comber 1 nips per minute", "nips/min"),
    "cb1_noil": _read("Comber 1 noil", "%"),
    "sf1_flyer": _read("Speed frame 1 flyer speed", "rpm"),
}, "spinning": {
    "rf5_spd": _read("Ring frame 5 spindle speed", "rpm"),
    "rf5_spd_sp": _set("Ring frame 5 spindle speed setpoint", "rpm", 10000, 22000),
    "rf5_ends": _read("Ring frame 5 ends down"),
    "rf5_twist": _set("Ring frame 5 twist", "TPI", 10, 30),
    "rf5_doff": _switch("Ring frame 5 auto doff"),
    "rf5_tc": _switch("Ring frame 5 travelling cleaner"),
    "ac2_spd": _read("Autoconer 2 winding speed", "m/min"),
}, "hplant": {
    "rf_rh": _read("Ring frame department RH", "%RH"),
    "rf_t": _read("Ring frame department temperature", "°C"),
    "card_rh": _read("Carding department RH", "%RH"),
    "aw2_pump": _switch("Air washer 2 spray pump"),
    "waste_fan": _switch("Waste collection fan"),
}})

POOL_CONFIG = exec_devices("aqua3", {"pools": {
    "main_t": _read("Main pool water temperature", "°C"),
    "main_fcl": _read("Main pool free chlorine", "mg/L"),
    "main_ccl": _read("Main pool combined chlorine", "mg/L"),
    "main_tcl": _read("Main pool total chlorine", "mg/L"),
    "main_ph": _read("Main pool pH", "pH"),
    "train_t": _read("Training pool water temperature", "°C"),
    "learn_t": _read("Learner pool water temperature", "°C"),
    "leis_t": _read("Leisure pool water temperature", "°C"),
    "spa_t": _read("Spa water temperature", "°C"),
    "spa_jets": _switch("Spa jet pump"),
    "spa_bub": _switch("Spa bubbles blower"),
    "waves": _switch("Wave machine"),
    "flume": _switch("Flume pump"),
}, "plantroom": {
    "bt_lvl": _read("Balance tank level", "%"),
    "f1_dp": _read("Sand filter 1 differential pressure", "bar"),
    "f1_bw": _switch("Sand filter 1 backwash"),
    "strainer": _read("Hair and lint strainer differential pressure", "bar"),
    "cp1": _switch("Circulation pump 1"),
    "uv": _switch("UV unit"),
    "hypo": _switch("Sodium hypochlorite dosing pump"),
    "acid": _switch("Acid dosing pump"),
}, "hall": {
    "hall_t": _read("Pool hall air temperature", "°C"),
    "hall_rh": _read("Pool hall relative humidity", "%RH"),
    "dh": _switch("Pool hall dehumidifier"),
}})

OIL, SPIN, POOL = Router(OIL_CONFIG), Router(SPIN_CONFIG), Router(POOL_CONFIG)
#: the plants by name, with their configs (for the model stage's check)
PLANTS = {"oil": (OIL, OIL_CONFIG), "spin": (SPIN, SPIN_CONFIG), "pool": (POOL, POOL_CONFIG)}


@pytest.mark.parametrize(("router", "text", "point"), [
    # well pad and tank battery
    (OIL, "1号井套压多少", "w1_csg"),
    (OIL, "2号井油管压力", "w2_tbg"),
    (OIL, "1号井井口油压", "w1_tbg"),
    (OIL, "1号井油嘴开度", "w1_choke"),
    (OIL, "1号抽油机冲次", "w1_spm"),
    (OIL, "1号井冲次多少", "w1_spm"),
    (OIL, "1号井冲程", "w1_stroke"),
    (OIL, "1号井充满度", "w1_fill"),
    (OIL, "1号井悬点载荷", "w1_pprl"),
    (OIL, "1号井动液面", "w1_fl"),
    (OIL, "3号井注气量", "w3_gl"),
    (OIL, "3号井柱塞到达计数", "w3_arr"),
    (OIL, "分离器油水界面", "sep_if"),
    (OIL, "加热分离器温度", "ht_t"),
    (OIL, "水套炉温度", "lh_t"),
    (OIL, "1号储油罐液位", "oil1"),
    (OIL, "2号油罐液位", "oil2"),
    (OIL, "采出水罐液位", "pw"),
    (OIL, "LACT原油含水", "bsw"),
    (OIL, "火炬长明灯温度", "pilot"),
    (OIL, "阻垢剂加药量", "si_rate"),
    (OIL, "日产气", "gas"),
    (OIL, "日产油多少", "oil_rate"),
    (OIL, "日产水", "water_rate"),
    (OIL, "well 1 SPM", "w1_spm"),
    (OIL, "pump fillage on well 1", "w1_fill"),
    (OIL, "peak polished rod load well 1", "w1_pprl"),
    (OIL, "ESP frequency on well 2", "w2_hz"),
    (OIL, "PIP on well 2", "w2_pip"),
    (OIL, "gas lift rate on well 3", "w3_gl"),
    (OIL, "treater temp", "ht_t"),
    (OIL, "BS&W at the LACT", "bsw"),
    (OIL, "flare pilot temp", "pilot"),
    (OIL, "gas production", "gas"),
    # spinning mill
    (SPIN, "清花开棉机打手速度", "cleaner"),
    (SPIN, "3号梳棉机锡林转速", "c3_cyl"),
    (SPIN, "3号梳棉机刺辊转速", "c3_li"),
    (SPIN, "3号梳棉机生条支数", "c3_hank"),
    (SPIN, "梳棉机出条速度", "c3_del"),
    (SPIN, "2号并条机出条速度", "df2_del"),
    (SPIN, "2号并条机条干CV", "df2_cv"),
    (SPIN, "1号精梳机钳次", "cb1_nips"),
    (SPIN, "1号精梳机落棉率", "cb1_noil"),
    (SPIN, "1号粗纱机锭翼速度", "sf1_flyer"),
    (SPIN, "5号细纱机锭速多少", "rf5_spd"),
    (SPIN, "5号细纱机断头", "rf5_ends"),
    (SPIN, "5号细纱机捻度", "rf5_twist"),
    (SPIN, "5号细纱机巡回清洁器开着吗", "rf5_tc"),
    (SPIN, "2号自动络筒机络纱速度", "ac2_spd"),
    (SPIN, "细纱车间相对湿度", "rf_rh"),
    (SPIN, "细纱车间温度", "rf_t"),
    (SPIN, "梳棉车间湿度", "card_rh"),
    (SPIN, "card 3 cylinder speed", "c3_cyl"),
    (SPIN, "ends down on RF5", "rf5_ends"),
    (SPIN, "comber 1 noil", "cb1_noil"),
    (SPIN, "carding department humidity", "card_rh"),
    # aquatic centre
    (POOL, "主池游离余氯", "main_fcl"),
    (POOL, "主池化合氯", "main_ccl"),
    (POOL, "主池氯胺", "main_ccl"),
    (POOL, "主池总氯", "main_tcl"),
    (POOL, "按摩池水温", "spa_t"),
    (POOL, "平衡水箱液位", "bt_lvl"),
    (POOL, "1号砂缸压差", "f1_dp"),
    (POOL, "毛发过滤器压差", "strainer"),
    (POOL, "泳池大厅温度", "hall_t"),
    (POOL, "游泳馆湿度", "hall_rh"),
    (POOL, "chloramines in the main pool", "main_ccl"),
    (POOL, "training pool temp", "train_t"),
    (POOL, "hair and lint pot DP", "strainer"),
    (POOL, "natatorium humidity", "hall_rh"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (OIL, "把1号井油嘴开到40%", {"point": "w1_choke", "value": 40}),
    (OIL, "把1号抽油机冲次设为6", {"point": "w1_spm_sp", "value": 6}),
    (OIL, "把加热分离器温度设为150华氏度", {"point": "ht_sp", "value": 150}),
    (OIL, "启动1号外输泵", {"point": "xfer1", "value": True}),
    (OIL, "启动油气回收装置", {"point": "vru", "value": True}),
    (OIL, "启动缓蚀剂泵", {"point": "ci", "value": True}),
    (OIL, "停防蜡剂泵", {"point": "pi", "value": False}),
    (OIL, "阻垢剂注入量设为5", {"point": "si_rate", "value": 5}),
    (OIL, "start well 1 pumping unit", {"point": "w1_pu", "value": True}),
    (OIL, "paraffin pump off", {"point": "pi", "value": False}),
    (OIL, "set the scale inhibitor rate to 6 qpd", {"point": "si_rate", "value": 6}),
    (SPIN, "启动抓棉机", {"point": "plucker", "value": True}),
    (SPIN, "把3号梳棉机出条速度调到180米每分", {"point": "c3_del", "value": 180}),
    (SPIN, "5号细纱机锭速设为18000", {"point": "rf5_spd_sp", "value": 18000}),
    (SPIN, "5号细纱机捻度设为22", {"point": "rf5_twist", "value": 22}),
    (SPIN, "启动5号细纱机落纱", {"point": "rf5_doff", "value": True}),
    (SPIN, "启动2号空调室喷淋泵", {"point": "aw2_pump", "value": True}),
    (SPIN, "停吸棉风机", {"point": "waste_fan", "value": False}),
    (SPIN, "ring frame 5 twist to 24 TPI", {"point": "rf5_twist", "value": 24}),
    (SPIN, "start the auto doff on ring frame 5", {"point": "rf5_doff", "value": True}),
    (POOL, "启动冲浪泵", {"point": "spa_jets", "value": True}),
    (POOL, "关闭冲浪", {"point": "spa_jets", "value": False}),
    (POOL, "打开按摩池气泡", {"point": "spa_bub", "value": True}),
    (POOL, "启动1号砂缸反冲洗", {"point": "f1_bw", "value": True}),
    (POOL, "启动次氯酸钠投药泵", {"point": "hypo", "value": True}),
    (POOL, "turn the bubbles on", {"point": "spa_bub", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("router", "text"), [
    (OIL, "4号井套压"),  # there is no well 4
    (SPIN, "1号粗纱机锭速"),  # a speed frame's spindle speed is its flyer's, asked back
    (POOL, "启动投药泵"),  # which of the two dosing pumps?
    (POOL, "主池余氯"),  # free, combined or total?
])
async def test_still_refused(router: Router, text: str) -> None:
    action = await routed_without_model(router, text)
    assert action.name == "respond", (text, action)


def _reads(point: str) -> Action:
    return Action("read", {"point": point})


def _starts(point: str) -> Action:
    return Action("write", {"point": point, "value": True})


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("oil", "1号井套压", _reads("w1_tbg")),  # casing pressure is no tubing pressure
    ("oil", "2号井油管压力", _reads("w2_csg")),
    ("oil", "1号井冲次", _reads("w1_stroke")),  # strokes a minute are no stroke length
    ("oil", "1号井冲程", _reads("w1_spm")),
    ("oil", "分离器油水界面", _reads("sep_oil")),  # the interface is no oil level
    ("oil", "采出水罐液位", _reads("oil1")),  # produced water is no oil
    ("oil", "启动缓蚀剂泵", _starts("pi")),  # a corrosion inhibitor is no paraffin inhibitor
    ("oil", "启动防蜡剂泵", _starts("ci")),
    ("spin", "3号梳棉机锡林转速", _reads("c3_li")),  # the cylinder is no licker-in
    ("spin", "细纱车间相对湿度", _reads("card_rh")),  # the ring frame room is no card room
    ("spin", "2号并条机出条速度", _reads("c3_del")),  # a draw frame is no card
    ("pool", "教学池水温", _reads("train_t")),
    ("pool", "戏水池水温", _reads("main_t")),
    ("pool", "主池化合氯", _reads("main_fcl")),  # combined chlorine is no free chlorine
    ("pool", "打开按摩池气泡", _starts("spa_jets")),  # the bubbles are no jets
])
def test_the_model_is_not_let_take_a_neighbour(plant: str, text: str, wrong: Action) -> None:
    """The model's check does not let the model take the neighbour the trade's word is not."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, wrong)
    assert checked.name == "respond", (text, checked)


@pytest.mark.parametrize(("plant", "text", "action"), [
    ("oil", "1号井动液面", _reads("w1_fl")),
    ("oil", "日产气", _reads("gas")),
    ("spin", "5号细纱机断头", _reads("rf5_ends")),
    ("spin", "1号精梳机钳次", _reads("cb1_nips")),
    ("pool", "平衡水箱液位", _reads("bt_lvl")),
])
def test_the_model_is_let_take_the_trade_word(plant: str, text: str, action: Action) -> None:
    """Whatever the stages before it leave to the model, the model's check lets through the
    point the trade's word names."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, action)
    assert (checked.name, checked.args) == (action.name, action.args), (text, checked)


# the words shared with other trades still mean what they meant there
OTHERS = Router(exec_devices("others", {"plant": {
    "gen": {"name": "Generator 1 running", "type": "bool"},
    "hyd": {"name": "Hydraulic oil pressure", "unit": "bar"},
    "esp_v": {"name": "ESP field 1 voltage", "unit": "kV"},
    "break": {"name": "Paper machine web break", "type": "bool"},
    "drum": {"name": "Roaster drum speed", "unit": "rpm"},
    "stroke": {"name": "Valve 3 stroke speed", "unit": "mm/s"},
    "intake": {"name": "Intake pump speed", "unit": "rpm"},
    "reader": {"name": "Door 2 card reader fault", "type": "bool"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("油机运行吗", "gen"),  # 抽油机 is a pumping unit; 油机 alone a generator still
    ("油压多少", "hyd"),  # 油压 is no tubing pressure where no well has one
    ("ESP field 1 voltage", "esp_v"),  # the precipitator's ESP
    ("纸机断头", "break"),  # a paper machine's break, no spinning's ends down
    ("roaster drum speed", "drum"),
    ("valve 3 stroke speed", "stroke"),
    ("进水泵转速是多少", "intake"),
    ("door 2 card reader fault", "reader"),  # a card reader is no card
])
async def test_shared_words_keep_their_other_trades(text: str, point: str) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("text", "want"), [
    ("抽油机", {"thing.pumping_unit"}),
    ("游梁式抽油机", {"thing.pumping_unit"}),
    ("pump jack", {"thing.pumping_unit"}),
    ("电潜泵", {"thing.esp"}),
    ("ESP", {"thing.flue_gas_treatment"}),  # a precipitator: an oil well's pump is "ESP pump" (review atk73b)
    ("气举", {"thing.gas_lift"}),
    ("柱塞气举", {"thing.plunger_lift"}),
    ("计量分离器", {"thing.test_separator"}),
    ("三相分离器", {"thing.separator"}),
    ("free water knockout", {"thing.separator_vessel"}),
    ("tank battery", {"thing.tank_battery"}),
    ("集油管线", {"thing.flowline"}),
    ("水套炉", {"thing.line_heater"}),
    ("大罐抽气", {"thing.vru"}),
    ("套压", {"quantity.casing_pressure"}),
    ("CSG PSI", {"quantity.casing_pressure"}),
    ("TBG PSI", {"quantity.tubing_pressure"}),
    ("冲次", {"quantity.stroke_rate"}),
    ("冲程", {"quantity.stroke_length"}),
    ("示功图", {"quantity.dynagraph"}),
    ("沉没度", {"quantity.fluid_level"}),
    ("井底流压", {"quantity.bottomhole_pressure"}),
    ("日产液", {"quantity.liquid_production"}),
    ("BS&W", {"quantity.water_cut"}),
    ("pumped off", {"state.pumped_off"}),
    ("缓蚀剂", {"medium.corrosion_inhibitor"}),
    ("防蜡剂", {"medium.paraffin_inhibitor"}),
    ("破乳剂", {"medium.demulsifier"}),
    ("采出水", {"medium.produced_water"}),
    ("伴生气", {"medium.associated_gas"}),
    ("30 BWPD", {"unit.bbl"}),
    ("5 qt/d", {"unit.qt_per_day"}),
    ("200 Mscf/d", {"unit.mcfd"}),
    ("80方/天", {"unit.mgd"}),
    ("orifice meter", {"thing.meter"}),
    ("清花", {"thing.blowroom"}),
    ("抓棉机", {"thing.bale_plucker"}),
    ("并条机", {"thing.draw_frame"}),
    ("精梳机", {"thing.comber"}),
    ("粗纱机", {"thing.speed_frame"}),
    ("转杯纺纱机", {"thing.rotor_spinning"}),
    ("倍捻机", {"thing.twister"}),
    ("刺辊", {"thing.licker_in"}),
    ("锡林", {"thing.card_cylinder"}),
    ("道夫", {"thing.card_doffer"}),
    ("巡回清洁器", {"thing.travelling_cleaner"}),
    ("钢丝圈", {"thing.traveller"}),
    ("电子清纱器", {"thing.yarn_clearer"}),
    ("air washer", {"thing.air_washer"}),
    ("pneumafil", {"thing.waste_collection"}),
    ("生条", {"medium.sliver"}),
    ("粗纱", {"medium.roving", "thing.speed_frame"}),
    ("锭速", {"quantity.spindle_speed"}),
    ("捻度", {"quantity.twist"}),
    ("捻系数", {"quantity.twist_multiplier"}),
    ("纱支", {"quantity.yarn_count"}),
    ("条干CV", {"quantity.evenness"}),
    ("落棉率", {"quantity.noil"}),
    ("钳次", {"quantity.nips_per_minute"}),
    ("30 Ne", {"unit.ne"}),
    ("20 tex", {"unit.tex"}),
    ("22 TPI", {"unit.tpi"}),
    ("跳水池", {"thing.diving_pool"}),
    ("泳池大厅", {"thing.pool_hall"}),
    ("冲浪", {"thing.spa_jets"}),
    ("气泡", {"thing.spa_blower"}),
    ("滑梯", {"thing.water_slide"}),
    ("砂缸", {"thing.sand_filter"}),
    ("平衡水箱", {"thing.equalisation_tank"}),
    ("hair and lint strainer", {"thing.hair_strainer"}),
    ("三集一体", {"thing.dehumidifier"}),
    ("强氯精", {"medium.chlorinated_isocyanurate"}),
    ("氰尿酸", {"quantity.cyanuric_acid"}),
    ("turnover period", {"quantity.turnover_period"}),
    ("Langelier index", {"quantity.langelier_index"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


@pytest.mark.parametrize(("text", "want", "unwanted"), [
    ("抽油机", "thing.pumping_unit", "thing.generator"),  # no 油机 in a pumping unit
    ("corrosion inhibitor", "medium.corrosion_inhibitor", "medium.antiscalant"),
    ("biocide", "medium.biocide", "medium.antiscalant"),
    ("计量分离器", "thing.test_separator", "thing.separator_vessel"),
    ("冲次", "quantity.stroke_rate", "quantity.stroke_length"),
    ("冲程次数", "quantity.stroke_rate", "quantity.stroke_length"),
    ("泵充满度", "quantity.pump_fillage", "quantity.fill_percent"),
    ("并条机", "thing.draw_frame", "thing.carding_machine"),  # split from the card
    ("精梳机", "thing.comber", "thing.carding_machine"),
    ("粗纱机", "thing.speed_frame", "thing.spinning_frame"),  # split from the ring frame
    ("锡林", "thing.card_cylinder", "medium.solder"),  # no tin in a card cylinder
    ("card reader", "thing.card_reader", "thing.carding_machine"),
    ("碳酸钠", "medium.caustic", "medium.acid"),  # soda ash is no acid
    ("whirlpool", "thing.spa_pool", "quantity.speed"),
    ("drum speed", "quantity.speed", "quantity.winding_speed"),
])
def test_the_words_stay_apart(text: str, want: str, unwanted: str) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want in found and unwanted not in found, (text, found)
