"""The lexicon's chlor-alkali, aluminium smelting and navigation lock words: Chinese and English
commands about English-named points of those trades, on plants written here with twins and
lookalikes (electrolyser 1 and 2, pot 101 and 102, chlorine and hydrogen headers, caustic and
brine tanks, depleted and plain brine, bath and metal levels, upper and lower gates, upstream,
downstream and chamber levels, filling and emptying valves, north and south banks)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, routed_without_model

CHLOR = Router(exec_devices("chloralkali", {"plant": {
    "e1_volt": {"name": "Electrolyser 1 cell voltage", "unit": "V"},
    "e2_volt": {"name": "Electrolyser 2 cell voltage", "unit": "V"},
    "e1_current": {"name": "Electrolyser 1 current", "unit": "kA"},
    "e2_current": {"name": "Electrolyser 2 current", "unit": "kA"},
    "e1_current_sp": {"name": "Electrolyser 1 current setpoint", "unit": "kA",
                      "writable": True, "min": 0, "max": 16},
    "e1_temp": {"name": "Electrolyser 1 catholyte temperature", "unit": "°C"},
    "cl2_hdr": {"name": "Chlorine header pressure", "unit": "kPa"},
    "h2_hdr": {"name": "Hydrogen header pressure", "unit": "kPa"},
    "h2cl2_dp": {"name": "Hydrogen chlorine differential pressure", "unit": "kPa"},
    "circ_tank": {"name": "Caustic circulation tank level", "unit": "%"},
    "dep_brine_tank": {"name": "Depleted brine tank level", "unit": "%"},
    "caustic_conc": {"name": "Caustic concentration", "unit": "%"},
    "anolyte_ph": {"name": "Anolyte pH", "unit": "pH"},
    "brine_camg": {"name": "Secondary brine Ca+Mg", "unit": "ppb"},
    "dryer_acid": {"name": "Drying tower acid concentration", "unit": "%"},
    "comp_suction": {"name": "Chlorine compressor suction pressure", "unit": "kPa"},
    "scrubber_fan": {"name": "Tail gas scrubber fan", "type": "bool", "writable": True},
    "rect_temp": {"name": "Rectifier transformer 1 oil temperature", "unit": "°C"},
    "rect1_run": {"name": "Rectifier 1 run", "type": "bool", "writable": True},
    "ce": {"name": "Current efficiency", "unit": "%"},
    "sat_level": {"name": "Saturator level", "unit": "%"},
    "ix_flow": {"name": "Chelating resin tower flow", "unit": "m3/h"},
    "dechlor_vac": {"name": "Dechlorination tower vacuum", "unit": "kPa"},
    "liq_temp": {"name": "Liquefier outlet temperature", "unit": "°C"},
    "h2_in_cl2": {"name": "Hydrogen in chlorine", "unit": "%"},
    "cellroom_temp": {"name": "Cell room temperature", "unit": "°C"},
    "evap_vac": {"name": "Caustic evaporator vacuum", "unit": "kPa"},
    "chlorate": {"name": "Anolyte chlorate", "unit": "g/L"},
    "sulphate": {"name": "Brine sulphate", "unit": "g/L"},
    "wet_cl2_temp": {"name": "Wet chlorine temperature", "unit": "°C"},
    "dry_cl2_moist": {"name": "Dry chlorine moisture", "unit": "ppm"},
}}))

# the tanks of a chlor-alkali tank farm, each named by what it holds
TANKS = Router(exec_devices("tankfarm", {"plant": {
    "caustic_tank": {"name": "Caustic tank level", "unit": "%"},
    "brine_tank": {"name": "Brine tank level", "unit": "%"},
    "hypo_tank": {"name": "Hypochlorite tank level", "unit": "%"},
    "acid_tank": {"name": "Sulphuric acid tank level", "unit": "%"},
}}))

SMELTER = Router(exec_devices("smelter", {"plant": {
    "p101_v": {"name": "Pot 101 voltage", "unit": "V"},
    "p102_v": {"name": "Pot 102 voltage", "unit": "V"},
    "p101_target": {"name": "Pot 101 target voltage", "unit": "V", "writable": True,
                    "min": 4.0, "max": 4.6},
    "p101_bath": {"name": "Pot 101 bath temperature", "unit": "°C"},
    "p102_bath": {"name": "Pot 102 bath temperature", "unit": "°C"},
    "p101_metal": {"name": "Pot 101 metal level", "unit": "cm"},
    "p101_bathlvl": {"name": "Pot 101 bath level", "unit": "cm"},
    "p101_ae": {"name": "Pot 101 anode effect", "type": "bool"},
    "p101_ratio": {"name": "Pot 101 bath ratio"},
    "line_current": {"name": "Line current", "unit": "kA"},
    "line_current_sp": {"name": "Line current setpoint", "unit": "kA", "writable": True,
                        "min": 300, "max": 420},
    "p101_feeder": {"name": "Pot 101 point feeder fault", "type": "bool"},
    "p101_crust": {"name": "Pot 101 crust breaker air pressure", "unit": "bar"},
    "ptm2": {"name": "Pot tending machine 2 running", "type": "bool"},
    "ftc_hf": {"name": "Fume treatment centre HF emission", "unit": "mg/Nm3"},
    "alumina_silo": {"name": "Alumina silo level", "unit": "%"},
    "reacted_silo": {"name": "Reacted alumina silo level", "unit": "%"},
    "p101_beam": {"name": "Pot 101 anode beam position", "unit": "mm"},
    "ce": {"name": "Potline current efficiency", "unit": "%"},
    "rect3": {"name": "Rectifier 3 current", "unit": "kA"},
    "potroom_temp": {"name": "Potroom 2 ambient temperature", "unit": "°C"},
}}))

LOCK = Router(exec_devices("canal", {"plant": {
    "upper_gate": {"name": "Upper gate position", "unit": "%"},
    "lower_gate": {"name": "Lower gate position", "unit": "%"},
    "up_lvl": {"name": "Upstream water level", "unit": "m"},
    "dn_lvl": {"name": "Downstream water level", "unit": "m"},
    "ch_lvl": {"name": "Lock chamber level", "unit": "m"},
    "head": {"name": "Level difference", "unit": "m"},
    "fill_valve": {"name": "Filling valve position", "unit": "%"},
    "empty_valve": {"name": "Emptying valve position", "unit": "%"},
    "sig": {"name": "Upstream traffic signal green", "type": "bool", "writable": True},
    "bubbler": {"name": "Upper gate bubbler run", "type": "bool", "writable": True},
    "backpump": {"name": "Back-pumping pump 1 running", "type": "bool"},
    "weir_gate": {"name": "Weir gate position", "unit": "%"},
    "weir_lvl": {"name": "Weir crest level", "unit": "m"},
    "nb_light": {"name": "North bank floodlights", "type": "bool", "writable": True},
    "sb_light": {"name": "South bank floodlights", "type": "bool", "writable": True},
}}))

# mitre gates leaf by leaf, beside the culvert valves of the same heads
MITRE = Router(exec_devices("lock2", {"plant": {
    "un": {"name": "Upper mitre gate north leaf position", "unit": "%"},
    "us": {"name": "Upper mitre gate south leaf position", "unit": "%"},
    "ln": {"name": "Lower mitre gate north leaf position", "unit": "%"},
    "ucv": {"name": "Upper culvert valve position", "unit": "%"},
    "lcv": {"name": "Lower culvert valve position", "unit": "%"},
}}))

READ = [
    (CHLOR, "1号电解槽槽电压", "e1_volt"),
    (CHLOR, "2号槽电压", "e2_volt"),
    (CHLOR, "2号电解槽电压", "e2_volt"),
    (CHLOR, "electrolyser 2 cell voltage", "e2_volt"),
    (CHLOR, "cell 2 voltage", "e2_volt"),
    (CHLOR, "1号电解槽电流", "e1_current"),
    (CHLOR, "electrolyzer 2 current", "e2_current"),
    (CHLOR, "1号电解槽温度", "e1_temp"),
    (CHLOR, "1号電解槽溫度", "e1_temp"),
    (CHLOR, "1号电解槽阴极液温度", "e1_temp"),
    (CHLOR, "1号槽温", "e1_temp"),
    (CHLOR, "氯气总管压力", "cl2_hdr"),
    (CHLOR, "chlorine header pressure", "cl2_hdr"),
    (CHLOR, "氢气总管压力", "h2_hdr"),
    (CHLOR, "氫氣總管壓力", "h2_hdr"),
    (CHLOR, "hydrogen header pressure", "h2_hdr"),
    (CHLOR, "氢氯压差", "h2cl2_dp"),
    (CHLOR, "碱液循环槽液位", "circ_tank"),
    (CHLOR, "淡盐水罐液位", "dep_brine_tank"),
    (CHLOR, "depleted brine tank level", "dep_brine_tank"),
    (CHLOR, "碱浓度", "caustic_conc"),
    (CHLOR, "烧碱浓度", "caustic_conc"),
    (CHLOR, "NaOH concentration", "caustic_conc"),
    (CHLOR, "阳极液pH", "anolyte_ph"),
    (CHLOR, "二次盐水钙镁", "brine_camg"),
    (CHLOR, "钙镁离子含量", "brine_camg"),
    (CHLOR, "二次盐水硬度", "brine_camg"),
    (CHLOR, "secondary brine hardness", "brine_camg"),
    (CHLOR, "干燥塔硫酸浓度", "dryer_acid"),
    (CHLOR, "氯气干燥塔酸浓度", "dryer_acid"),
    (CHLOR, "氯压机进口压力", "comp_suction"),
    (CHLOR, "氯气压缩机入口压力", "comp_suction"),
    (CHLOR, "整流变油温", "rect_temp"),
    (CHLOR, "1号整流变压器油温", "rect_temp"),
    (CHLOR, "电流效率", "ce"),
    (CHLOR, "化盐桶液位", "sat_level"),
    (CHLOR, "化盐池液位", "sat_level"),
    (CHLOR, "螯合树脂塔流量", "ix_flow"),
    (CHLOR, "离子交换塔流量", "ix_flow"),
    (CHLOR, "脱氯塔真空度", "dechlor_vac"),
    (CHLOR, "液化器出口温度", "liq_temp"),
    (CHLOR, "氯中含氢", "h2_in_cl2"),
    (CHLOR, "hydrogen in chlorine", "h2_in_cl2"),
    (CHLOR, "电解厂房温度", "cellroom_temp"),
    (CHLOR, "電解廠房溫度", "cellroom_temp"),
    (CHLOR, "碱蒸发器真空度", "evap_vac"),
    (CHLOR, "阳极液氯酸盐", "chlorate"),
    (CHLOR, "盐水硫酸根", "sulphate"),
    (CHLOR, "湿氯气温度", "wet_cl2_temp"),
    (CHLOR, "干氯气水分", "dry_cl2_moist"),
    (TANKS, "烧碱罐液位", "caustic_tank"),
    (TANKS, "碱罐液位", "caustic_tank"),
    (TANKS, "caustic tank level", "caustic_tank"),
    (TANKS, "盐水罐液位", "brine_tank"),
    (TANKS, "brine tank level", "brine_tank"),
    (TANKS, "次氯酸钠储罐液位", "hypo_tank"),
    (TANKS, "次钠罐液位", "hypo_tank"),
    (TANKS, "hypo tank level", "hypo_tank"),
    (TANKS, "硫酸罐液位", "acid_tank"),
    (SMELTER, "101槽电压", "p101_v"),
    (SMELTER, "101号槽电压", "p101_v"),
    (SMELTER, "102号槽电压", "p102_v"),
    (SMELTER, "101号电解槽电压", "p101_v"),
    (SMELTER, "pot 102 voltage", "p102_v"),
    (SMELTER, "101槽目标电压", "p101_target"),
    (SMELTER, "101槽温", "p101_bath"),
    (SMELTER, "102号槽电解质温度", "p102_bath"),
    (SMELTER, "bath temperature pot 102", "p102_bath"),
    (SMELTER, "101槽铝水平", "p101_metal"),
    (SMELTER, "101槽电解质水平", "p101_bathlvl"),
    (SMELTER, "pot 101 metal level", "p101_metal"),
    (SMELTER, "pot 101 bath level", "p101_bathlvl"),
    (SMELTER, "101槽阳极效应", "p101_ae"),
    (SMELTER, "101槽有没有效应", "p101_ae"),
    (SMELTER, "is pot 101 on anode effect", "p101_ae"),
    (SMELTER, "101槽分子比", "p101_ratio"),
    (SMELTER, "pot 101 bath ratio", "p101_ratio"),
    (SMELTER, "系列电流", "line_current"),
    (SMELTER, "line current", "line_current"),
    (SMELTER, "line amps", "line_current"),
    (SMELTER, "101槽下料器故障", "p101_feeder"),
    (SMELTER, "101槽打壳气压", "p101_crust"),
    (SMELTER, "101槽打壳锤压力", "p101_crust"),
    (SMELTER, "2号多功能天车在运行吗", "ptm2"),
    (SMELTER, "is PTM 2 running", "ptm2"),
    (SMELTER, "烟气净化氟化氢排放", "ftc_hf"),
    (SMELTER, "FTC HF emission", "ftc_hf"),
    (SMELTER, "载氟氧化铝料仓料位", "reacted_silo"),
    (SMELTER, "reacted alumina silo level", "reacted_silo"),
    (SMELTER, "101槽阳极母线位置", "p101_beam"),
    (SMELTER, "电流效率", "ce"),
    (SMELTER, "3号整流机组电流", "rect3"),
    (SMELTER, "2号电解厂房温度", "potroom_temp"),
    (LOCK, "上闸门开度", "upper_gate"),
    (LOCK, "下闸门开度", "lower_gate"),
    (LOCK, "上闸首开度", "upper_gate"),
    (LOCK, "上闸首闸门开度", "upper_gate"),
    (LOCK, "下闸首闸门开度", "lower_gate"),
    (LOCK, "upper gate position", "upper_gate"),
    (LOCK, "上游水位", "up_lvl"),
    (LOCK, "下游水位", "dn_lvl"),
    (LOCK, "upstream level", "up_lvl"),
    (LOCK, "downstream level", "dn_lvl"),
    (LOCK, "闸室水位", "ch_lvl"),
    (LOCK, "閘室水位", "ch_lvl"),
    (LOCK, "lock chamber level", "ch_lvl"),
    (LOCK, "水位差", "head"),
    (LOCK, "上下游水位差", "head"),
    (LOCK, "level difference", "head"),
    (LOCK, "充水阀开度", "fill_valve"),
    (LOCK, "泄水阀开度", "empty_valve"),
    (LOCK, "filling valve position", "fill_valve"),
    (LOCK, "emptying valve position", "empty_valve"),
    (LOCK, "回抽泵在运行吗", "backpump"),
    (LOCK, "is the back-pumping pump running", "backpump"),
    (LOCK, "堰门开度", "weir_gate"),
    (LOCK, "堰顶水位", "weir_lvl"),
    (LOCK, "南岸照明开了吗", "sb_light"),
    (MITRE, "上闸首人字门北门叶开度", "un"),
    (MITRE, "上闸首人字门南门叶开度", "us"),
    (MITRE, "下闸首人字门开度", "ln"),
    (MITRE, "upper mitre gate south leaf", "us"),
    (MITRE, "上闸首输水阀门开度", "ucv"),
    (MITRE, "lower culvert valve position", "lcv"),
]

# what the router may ask about instead (a twin or a kind of the same close behind), never
# another point
READ_OR_ASK = [
    *READ,
    (CHLOR, "電解槽溫度", "e1_temp"),  # (the cell room has a temperature too)
    (CHLOR, "循环碱槽液位", "circ_tank"),  # (beside the depleted brine tank)
    (SMELTER, "氧化铝料仓料位", "alumina_silo"),  # (the reacted alumina silo is alumina too)
    (LOCK, "lower gate position", "lower_gate"),  # ("lower" may be a verb)
    (LOCK, "上游信号灯", "sig"),
    (MITRE, "下游输水阀开度", "lcv"),  # (downstream, where the name says lower)
]


@pytest.mark.parametrize(("router", "text", "point"), READ_OR_ASK)
async def test_a_trade_word_reads_its_point_or_asks(router: Router, text: str,
                                                    point: str) -> None:
    """Never another point (槽 of 101槽 is pot 101, 淡盐水 the depleted brine, 上闸首 the upper
    head); at worst a question."""
    action = await routed_without_model(router, text)
    assert action.name == "respond" or action.args == {"point": point}, (text, action)


@pytest.mark.parametrize(("router", "text", "point"), READ)
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("router", "text", "args"), [
    (CHLOR, "把1号电解槽电流设为12kA", {"point": "e1_current_sp", "value": 12}),
    (CHLOR, "set electrolyser 1 current to 12 kA", {"point": "e1_current_sp", "value": 12}),
    (CHLOR, "启动尾气吸收塔风机", {"point": "scrubber_fan", "value": True}),
    (CHLOR, "start the tail gas scrubber fan", {"point": "scrubber_fan", "value": True}),
    (CHLOR, "启动1号整流机组", {"point": "rect1_run", "value": True}),
    (CHLOR, "停1号整流器", {"point": "rect1_run", "value": False}),
    (SMELTER, "把101号槽目标电压设为4.2", {"point": "p101_target", "value": 4.2}),
    (SMELTER, "set pot 101 target voltage to 4.25", {"point": "p101_target", "value": 4.25}),
    (SMELTER, "把系列电流设为400kA", {"point": "line_current_sp", "value": 400}),
    (SMELTER, "set line current to 400 kA", {"point": "line_current_sp", "value": 400}),
    (LOCK, "打开上游通航信号灯", {"point": "sig", "value": True}),
    (LOCK, "启动气泡防冰", {"point": "bubbler", "value": True}),
    (LOCK, "start the upper gate bubbler", {"point": "bubbler", "value": True}),
    (LOCK, "打开北岸泛光灯", {"point": "nb_light", "value": True}),
    (LOCK, "turn on the north bank floodlights", {"point": "nb_light", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), text


# the words shared with other trades still mean what they meant there
OTHERS = Router(exec_devices("others", {"plant": {
    "fc_temp": {"name": "Fuel cell stack temperature", "unit": "°C"},
    "ko_level": {"name": "Knockout pot level", "unit": "%"},
    "door_lock": {"name": "Door lock", "type": "bool", "writable": True},
    "bubbler_lvl": {"name": "Bubbler level", "unit": "m"},
    "solder_temp": {"name": "Solder pot temperature", "unit": "°C"},
    "rect_current": {"name": "Plating rectifier 1 current", "unit": "A"},
    "dye_temp": {"name": "Dye bath temperature", "unit": "°C"},
    "max_cell_v": {"name": "Max cell voltage", "unit": "V"},
    "acid_tank": {"name": "Acid tank level", "unit": "%"},
    "chamber_p": {"name": "Chamber pressure", "unit": "kPa"},
    "warning_light": {"name": "Signal light", "type": "bool", "writable": True},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("燃料电池温度", "fc_temp"),
    ("knock-out pot level", "ko_level"),
    ("bubbler level", "bubbler_lvl"),
    ("锡炉温度", "solder_temp"),
    ("solder pot temp", "solder_temp"),
    ("1号整流器电流", "rect_current"),
    ("rectifier 1 current", "rect_current"),
    ("dye bath temperature", "dye_temp"),
    ("最高单体电压", "max_cell_v"),
    ("max cell voltage", "max_cell_v"),
    ("酸罐液位", "acid_tank"),
    ("chamber pressure", "chamber_p"),
])
async def test_shared_words_keep_their_other_trades(text: str, point: str) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("text", "args"), [
    ("锁上门锁", {"point": "door_lock", "value": True}),
    ("打开信号灯", {"point": "warning_light", "value": True}),
])
async def test_shared_words_still_set_their_other_trades(text: str,
                                                         args: dict[str, object]) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("write", args), text


@pytest.mark.parametrize(("text", "want"), [
    ("1号电解槽槽电压", {"thing.electrolytic_cell", "thing.tank", "quantity.voltage"}),
    ("電解槽溫度", {"thing.electrolytic_cell", "quantity.temperature"}),
    ("pot 101 bath temperature", {"thing.electrolytic_cell", "medium.electrolyte",
                                  "quantity.temperature"}),
    ("电解质温度", {"medium.electrolyte", "quantity.temperature"}),
    ("101槽铝水平", {"thing.tank", "quantity.metal_level"}),
    ("系列电流", {"thing.potline", "quantity.current"}),
    ("氯气总管压力", {"medium.chlorine_chem", "thing.pipe", "quantity.pressure"}),
    ("氢气总管压力", {"medium.hydrogen", "thing.pipe", "quantity.pressure"}),
    ("氯压机", {"medium.chlorine_chem", "thing.compressor"}),
    ("淡盐水", {"medium.depleted_brine"}),
    ("氯中含氢", {"quantity.hydrogen_in_chlorine"}),
    ("上闸首", {"modifier.top"}),
    ("下闸门", {"modifier.bottom"}),
    ("闸室水位", {"thing.navigation_lock", "quantity.level"}),
    ("北岸", {"modifier.north"}),
    ("knock-out pot level", {"thing.separator_vessel", "quantity.level"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    """槽 is the tank an electrolytic cell is, 系列 the potline whose current it is, 上闸首 the
    upper head of a lock."""
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


def test_a_knockout_pot_is_no_smelting_pot() -> None:
    found = {m.concept.id for m in concepts_of_text("knock-out pot level")}
    assert "thing.electrolytic_cell" not in found, found
