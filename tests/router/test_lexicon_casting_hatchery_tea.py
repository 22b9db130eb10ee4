"""The lexicon's continuous casting, hatchery and tea words: Chinese and English commands about
English-named points of those trades, on plants written here with twins and lookalikes (mould
level and its fluctuation, ladle and tundish weight, setter and hatcher, dryer inlet and
outlet air, a withering trough's fan and its air temperature)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, routed_without_model

CASTER = Router(exec_devices("steelworks", {"line": {
    "ladle_wt": {"name": "Ladle weight", "unit": "t"},
    "tundish_wt": {"name": "Tundish weight", "unit": "t"},
    "tundish_temp": {"name": "Tundish temperature", "unit": "°C"},
    "superheat": {"name": "Tundish superheat", "unit": "°C"},
    "mould_lvl": {"name": "Mould level", "unit": "mm"},
    "mould_lvl_fluct": {"name": "Mould level fluctuation", "unit": "mm"},
    "speed_1": {"name": "Strand 1 casting speed", "unit": "m/min"},
    "speed_2": {"name": "Strand 2 casting speed", "unit": "m/min"},
    "speed_1_sp": {"name": "Strand 1 casting speed setpoint", "unit": "m/min",
                   "writable": True, "min": 0.3, "max": 2.5},
    "osc_freq": {"name": "Mould oscillation frequency", "unit": "cpm"},
    "osc_stroke": {"name": "Mould oscillation stroke", "unit": "mm"},
    "stopper": {"name": "Stopper rod position", "unit": "%"},
    "slide_gate": {"name": "Ladle slide gate position", "unit": "%"},
    "spray_z1": {"name": "Secondary cooling zone 1 spray water flow", "unit": "m3/h"},
    "mould_water": {"name": "Mould cooling water flow", "unit": "m3/h"},
    "cut_len_sp": {"name": "Cut length setpoint", "unit": "mm", "writable": True,
                   "min": 4000, "max": 12000},
    "ems_current": {"name": "Mould EMS current", "unit": "A"},
    "wsu_current": {"name": "Withdrawal straightener motor current", "unit": "A"},
    "breakout": {"name": "Breakout alarm", "type": "bool"},
    "hpu_pressure": {"name": "Hydraulic power unit pressure", "unit": "bar"},
    "dummy_bar": {"name": "Dummy bar position", "unit": "mm"},
    "torch": {"name": "Torch cutting machine running", "type": "bool"},
}}))

# the mould level beside the tundish's, with no fluctuation to be taken for it
MOULD = Router(exec_devices("billets", {"line": {
    "mould_lvl": {"name": "Mould level", "unit": "mm"},
    "tundish_lvl": {"name": "Tundish level", "unit": "mm"},
    "tundish_temp": {"name": "Tundish temperature", "unit": "°C"},
    "speed": {"name": "Casting speed", "unit": "m/min"},
    "speed_sp": {"name": "Casting speed setpoint", "unit": "m/min", "writable": True,
                 "min": 0.3, "max": 2.5},
}}))

HATCHERY = Router(exec_devices("hatchery", {"plant": {
    "s1_temp": {"name": "Setter 1 temperature", "unit": "°C"},
    "s1_temp_sp": {"name": "Setter 1 temperature setpoint", "unit": "°C", "writable": True,
                   "min": 36, "max": 39},
    "s1_fluct": {"name": "Setter 1 temperature fluctuation", "unit": "°C"},
    "s1_wb": {"name": "Setter 1 wet bulb temperature", "unit": "°C"},
    "s1_rh": {"name": "Setter 1 relative humidity", "unit": "%"},
    "s1_co2": {"name": "Setter 1 CO2", "unit": "ppm"},
    "s1_damper": {"name": "Setter 1 damper position", "unit": "%"},
    "s1_turning": {"name": "Setter 1 egg turning alarm", "type": "bool"},
    "s1_cw": {"name": "Setter 1 cooling water valve", "unit": "%"},
    "h1_temp": {"name": "Hatcher 1 temperature", "unit": "°C"},
    "h1_wb": {"name": "Hatcher 1 wet bulb temperature", "unit": "°C"},
    "h1_rh": {"name": "Hatcher 1 relative humidity", "unit": "%"},
    "egg_store_temp": {"name": "Egg store temperature", "unit": "°C"},
    "egg_store_rh": {"name": "Egg store humidity", "unit": "%"},
    "chick_room_temp": {"name": "Chick room temperature", "unit": "°C"},
    "gen_run": {"name": "Generator running", "type": "bool"},
}}))

# a setter and a hatcher, each with only a temperature and a humidity
TWINS = Router(exec_devices("hatchery2", {"plant": {
    "s_temp": {"name": "Setter temperature", "unit": "°C"},
    "h_temp": {"name": "Hatcher temperature", "unit": "°C"},
    "s_rh": {"name": "Setter humidity", "unit": "%"},
    "h_rh": {"name": "Hatcher humidity", "unit": "%"},
}}))

TEA = Router(exec_devices("teafactory", {"factory": {
    "wt1_fan": {"name": "Withering trough 1 fan", "type": "bool", "writable": True},
    "wt1_air": {"name": "Withering trough 1 air temperature", "unit": "°C"},
    "wt2_air": {"name": "Withering trough 2 air temperature", "unit": "°C"},
    "roller_current": {"name": "Rolling machine current", "unit": "A"},
    "fixing_temp": {"name": "Fixing drum temperature", "unit": "°C"},
    "ferm_temp": {"name": "Fermentation room temperature", "unit": "°C"},
    "ferm_rh": {"name": "Fermentation room humidity", "unit": "%"},
    "dryer_in": {"name": "Dryer inlet air temperature", "unit": "°C"},
    "dryer_out": {"name": "Dryer outlet air temperature", "unit": "°C"},
    "furnace_out": {"name": "Hot air furnace outlet temperature", "unit": "°C"},
    "sorter": {"name": "Colour sorter run", "type": "bool", "writable": True},
    "sifter": {"name": "Sifter run", "type": "bool", "writable": True},
    "shaper_temp": {"name": "Shaping machine pan temperature", "unit": "°C"},
    "made_tea_moist": {"name": "Made tea moisture", "unit": "%"},
    "leaf_moist": {"name": "Fresh leaf moisture", "unit": "%"},
}}))

READ = [
    (CASTER, "大包重量", "ladle_wt"),
    (CASTER, "钢包重量多少", "ladle_wt"),
    (CASTER, "ladle weight", "ladle_wt"),
    (CASTER, "中间包重量", "tundish_wt"),
    (CASTER, "中包重量", "tundish_wt"),
    (CASTER, "tundish weight", "tundish_wt"),
    (CASTER, "中包温度", "tundish_temp"),
    (CASTER, "过热度多少", "superheat"),
    (CASTER, "中包过热度", "superheat"),
    (CASTER, "mould level", "mould_lvl"),
    (CASTER, "结晶器液位波动", "mould_lvl_fluct"),
    (CASTER, "液位波动多大", "mould_lvl_fluct"),
    (CASTER, "mould level fluctuation", "mould_lvl_fluct"),
    (CASTER, "how much is the mould level hunting", "mould_lvl_fluct"),
    (CASTER, "2号铸流拉坯速度", "speed_2"),
    (CASTER, "strand 2 casting speed", "speed_2"),
    (CASTER, "strand 1 cast speed", "speed_1"),
    (CASTER, "结晶器振动频率", "osc_freq"),
    (CASTER, "结晶器振频", "osc_freq"),
    (CASTER, "振频多少", "osc_freq"),
    (CASTER, "oscillation frequency", "osc_freq"),
    (CASTER, "结晶器振动行程", "osc_stroke"),
    (CASTER, "oscillation stroke", "osc_stroke"),
    (CASTER, "塞棒位置", "stopper"),
    (CASTER, "stopper position", "stopper"),
    (CASTER, "滑动水口开度", "slide_gate"),
    (CASTER, "大包滑板开度", "slide_gate"),
    (CASTER, "二冷水流量", "spray_z1"),
    (CASTER, "二冷区流量", "spray_z1"),
    (CASTER, "喷淋水流量", "spray_z1"),
    (CASTER, "zone 1 spray water flow", "spray_z1"),
    (CASTER, "结晶器冷却水流量", "mould_water"),
    (CASTER, "一冷水流量", "mould_water"),
    (CASTER, "定尺", "cut_len_sp"),
    (CASTER, "cut length", "cut_len_sp"),
    (CASTER, "电磁搅拌电流", "ems_current"),
    (CASTER, "EMS current", "ems_current"),
    (CASTER, "拉矫机电流", "wsu_current"),
    (CASTER, "straightener current", "wsu_current"),
    (CASTER, "漏钢报警了吗", "breakout"),
    (CASTER, "is there a breakout", "breakout"),
    (CASTER, "液压站压力", "hpu_pressure"),
    (CASTER, "HPU pressure", "hpu_pressure"),
    (CASTER, "引锭杆位置", "dummy_bar"),
    (CASTER, "火焰切割机在运行吗", "torch"),
    (CASTER, "切割机运行吗", "torch"),
    (MOULD, "结晶器液位", "mould_lvl"),
    (MOULD, "结晶器液位多少", "mould_lvl"),
    (MOULD, "mold level", "mould_lvl"),
    (MOULD, "中包液位", "tundish_lvl"),
    (MOULD, "what's the cast speed", "speed"),
    (HATCHERY, "1号孵化机湿球温度", "s1_wb"),
    (HATCHERY, "setter 1 wet bulb", "s1_wb"),
    (HATCHERY, "出雏机湿球温度", "h1_wb"),
    (HATCHERY, "hatcher 1 wet bulb", "h1_wb"),
    (HATCHERY, "出雏机相对湿度", "h1_rh"),
    (HATCHERY, "hatcher humidity", "h1_rh"),
    (HATCHERY, "孵化机二氧化碳", "s1_co2"),
    (HATCHERY, "孵化机CO2浓度", "s1_co2"),
    (HATCHERY, "孵化机风门开度", "s1_damper"),
    (HATCHERY, "setter damper position", "s1_damper"),
    (HATCHERY, "孵化机冷却水阀开度", "s1_cw"),
    (HATCHERY, "孵化机温度波动", "s1_fluct"),
    (HATCHERY, "setter 1 temperature hunting", "s1_fluct"),
    (HATCHERY, "翻蛋报警", "s1_turning"),
    (HATCHERY, "is there an egg turning alarm", "s1_turning"),
    (HATCHERY, "蛋库温度", "egg_store_temp"),
    (HATCHERY, "种蛋库湿度", "egg_store_rh"),
    (HATCHERY, "雏鸡室温度", "chick_room_temp"),
    (HATCHERY, "chick holding temperature", "chick_room_temp"),
    (HATCHERY, "发电机在运行吗", "gen_run"),
    (HATCHERY, "genset running?", "gen_run"),
    (TWINS, "孵化机温度", "s_temp"),
    (TWINS, "出雏机温度", "h_temp"),
    (TWINS, "incubator temperature", "s_temp"),
    (TWINS, "入孵机湿度", "s_rh"),
    (TWINS, "出雏器湿度", "h_rh"),
    (TWINS, "hatcher temp", "h_temp"),
    (TEA, "1号萎凋槽风机开着吗", "wt1_fan"),
    (TEA, "1号萎凋槽风温", "wt1_air"),
    (TEA, "2号萎凋槽温度", "wt2_air"),
    (TEA, "withering trough 2 air temp", "wt2_air"),
    (TEA, "揉捻机电流", "roller_current"),
    (TEA, "roller current", "roller_current"),
    (TEA, "杀青机温度", "fixing_temp"),
    (TEA, "杀青温度", "fixing_temp"),
    (TEA, "杀青滚筒温度", "fixing_temp"),
    (TEA, "发酵室温度", "ferm_temp"),
    (TEA, "发酵室湿度", "ferm_rh"),
    (TEA, "oxidation room humidity", "ferm_rh"),
    (TEA, "烘干机进风温度", "dryer_in"),
    (TEA, "烘干机出风温度", "dryer_out"),
    (TEA, "进风温度", "dryer_in"),
    (TEA, "热风炉出口温度", "furnace_out"),
    (TEA, "热风炉温度", "furnace_out"),
    (TEA, "色选机运行吗", "sorter"),
    (TEA, "理条机温度", "shaper_temp"),
    (TEA, "理条机锅温", "shaper_temp"),
    (TEA, "毛茶含水率", "made_tea_moist"),
    (TEA, "made tea moisture", "made_tea_moist"),
    (TEA, "鲜叶水分", "leaf_moist"),
]

# what the router may ask about instead (a twin or a setpoint close behind), never another point
READ_OR_ASK = [
    *READ,
    (CASTER, "结晶器液位", "mould_lvl"),  # (beside its fluctuation)
    (CASTER, "mold level", "mould_lvl"),
    (CASTER, "1号铸流拉速", "speed_1"),  # (beside its setpoint)
    (CASTER, "二冷区1段水流量", "spray_z1"),
    (MOULD, "拉速多少", "speed"),
    (HATCHERY, "孵化机温度", "s1_temp"),  # (beside its wet bulb and fluctuation)
    (HATCHERY, "1号孵化机温度", "s1_temp"),
    (HATCHERY, "入孵机温度", "s1_temp"),
    (HATCHERY, "incubator 1 temperature", "s1_temp"),
    (HATCHERY, "出雏机温度", "h1_temp"),
    (HATCHERY, "egg room temperature", "egg_store_temp"),  # (the chick room has "room")
    (TEA, "出风温度", "dryer_out"),  # (the hot air furnace's outlet too)
    (TEA, "排风温度", "dryer_out"),
    (TEA, "茶青含水率", "leaf_moist"),
]


@pytest.mark.parametrize(("router", "text", "point"), READ_OR_ASK)
async def test_a_trade_word_reads_its_point_or_asks(router: Router, text: str,
                                                    point: str) -> None:
    """Never another point (大包 is the ladle, 中包 the tundish, 出雏机 the hatcher); at worst
    a question."""
    action = await routed_without_model(router, text)
    assert action.name == "respond" or action.args == {"point": point}, (text, action)


@pytest.mark.parametrize(("router", "text", "point"), READ)
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("router", "text", "args"), [
    (CASTER, "把1号铸流拉速设为1.2", {"point": "speed_1_sp", "value": 1.2}),
    (CASTER, "set strand 1 casting speed to 1.2", {"point": "speed_1_sp", "value": 1.2}),
    (CASTER, "定尺设为8000", {"point": "cut_len_sp", "value": 8000}),
    (MOULD, "拉速设为1.1", {"point": "speed_sp", "value": 1.1}),
    (HATCHERY, "把孵化机温度设定为37.8", {"point": "s1_temp_sp", "value": 37.8}),
    (TEA, "启动1号萎凋槽风机", {"point": "wt1_fan", "value": True}),
    (TEA, "启动色选机", {"point": "sorter", "value": True}),
    (TEA, "启动筛分机", {"point": "sifter", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), text


# the words shared with other trades still mean what they meant there
OTHERS = Router(exec_devices("others", {"plant": {
    "cryst_lvl": {"name": "Crystallizer level", "unit": "%"},
    "mould_temp": {"name": "Mould temperature", "unit": "°C"},
    "nip": {"name": "Pinch roll pressure", "unit": "bar"},
    "bf_top": {"name": "Blast furnace top pressure", "unit": "kPa"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("结晶器液位", "cryst_lvl"),  # an evaporating crystalliser, where there is no caster
    ("模具温度", "mould_temp"),
    ("mould temp", "mould_temp"),
    ("pinch roll pressure", "nip"),
    ("夹送辊压力", "nip"),
    ("高炉炉顶压力", "bf_top"),
])
async def test_shared_words_keep_their_other_trades(text: str, point: str) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


@pytest.mark.parametrize(("text", "want"), [
    ("进风温度", {"modifier.inlet", "quantity.temperature"}),
    ("出风温度", {"modifier.outlet", "quantity.temperature"}),
    ("排风温度", {"medium.exhaust_air", "quantity.temperature"}),
    ("萎凋槽风温", {"thing.withering_trough", "quantity.temperature"}),
    ("结晶器液位", {"thing.caster_mould", "quantity.level"}),
    ("结晶器液位波动", {"quantity.level", "quantity.fluctuation"}),
    ("二冷水流量", {"medium.spray_water", "quantity.flow"}),
    ("1号铸流拉速", {"thing.strand", "quantity.casting_speed"}),
    ("出雏机湿球温度", {"thing.hatcher", "quantity.wet_bulb"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    """风温 is a temperature, and 进风/出风/排风 before 温度 still say where the air is."""
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)
