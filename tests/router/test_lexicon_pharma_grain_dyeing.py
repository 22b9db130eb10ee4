"""The lexicon's words of pharmaceutical water and clean utilities, of grain handling, drying and
flour milling, and of textile dyeing and finishing: Chinese and English commands, with the
jargon of each trade, about English-named points of plants written here with near neighbours
(the WFI tank and the purified water tank, a loop's supply and return, grade B and grade D
rooms; a silo's top and bottom grain temperature, the dryer's hot air and its exhaust air, a
leg's motor and its slip switch; jet 7 and jet 8, a jet's dyebath and its add tank, a stenter's
chambers and its setpoint)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, model_checked, routed_without_model

PHARMA_CONFIG = exec_devices("sterile5", {"water": {
    "wfi_tank": {"name": "WFI storage tank level", "unit": "%"},
    "pw_tank": {"name": "PW storage tank level", "unit": "%"},
    "wfi_supply": {"name": "WFI loop supply temperature", "unit": "°C"},
    "wfi_return": {"name": "WFI loop return temperature", "unit": "°C"},
    "wfi_sp": {"name": "WFI loop temperature setpoint", "unit": "°C", "writable": True,
               "min": 65, "max": 90},
    "wfi_toc": {"name": "WFI return TOC", "unit": "ppb"},
    "pw_toc": {"name": "PW return TOC", "unit": "ppb"},
    "pw_cond": {"name": "PW loop return conductivity", "unit": "µS/cm"},
    "ro_cond": {"name": "RO permeate conductivity", "unit": "µS/cm"},
    "edi_res": {"name": "EDI product water resistivity", "unit": "MΩ·cm"},
    "psg_p": {"name": "Pure steam generator outlet pressure", "unit": "bar"},
    "pw_san": {"name": "PW loop hot water sanitisation", "type": "bool", "writable": True},
}, "hvac": {
    "fill_dp": {"name": "Grade B filling room differential pressure", "unit": "Pa"},
    "airlock_dp": {"name": "Grade D airlock differential pressure", "unit": "Pa"},
    "ahu3": {"name": "AHU 3 enable", "type": "bool", "writable": True},
    "ahu3_hepa": {"name": "AHU 3 HEPA filter differential pressure", "unit": "Pa"},
}})

GRAIN_CONFIG = exec_devices("terminal4", {"elevator": {
    "silo3_top": {"name": "Silo 3 top grain temperature", "unit": "°C"},
    "silo3_bottom": {"name": "Silo 3 bottom grain temperature", "unit": "°C"},
    "silo3_cable": {"name": "Silo 3 temperature cable fault", "type": "bool"},
    "silo3_fan": {"name": "Silo 3 aeration fan", "type": "bool", "writable": True},
    "leg1": {"name": "Leg 1 motor", "type": "bool", "writable": True},
    "leg1_slip": {"name": "Leg 1 belt slip", "type": "bool"},
    "leg1_head": {"name": "Leg 1 head pulley bearing temperature", "unit": "°C"},
    "drag2": {"name": "Drag conveyor 2", "type": "bool", "writable": True},
    "hot_air": {"name": "Dryer hot air temperature", "unit": "°C"},
    "hot_air_sp": {"name": "Dryer hot air temperature setpoint", "unit": "°C",
                   "writable": True, "min": 40, "max": 110},
    "exhaust": {"name": "Dryer exhaust air temperature", "unit": "°C"},
    "out_moist": {"name": "Dryer discharge grain moisture", "unit": "%"},
    "bh_dp": {"name": "Baghouse differential pressure", "unit": "Pa"},
}, "mill": {
    "b1_gap": {"name": "B1 roller mill roll gap", "unit": "mm", "writable": True,
               "min": 0.05, "max": 1.5},
    "b1_amps": {"name": "B1 roller mill current", "unit": "A"},
    "turnhead": {"name": "Turnhead position", "type": "int", "writable": True,
                 "min": 1, "max": 12},
}})

DYE_CONFIG = exec_devices("finishing3", {"dyeing": {
    "jet7_temp": {"name": "Jet 7 bath temperature", "unit": "°C"},
    "jet8_temp": {"name": "Jet 8 bath temperature", "unit": "°C"},
    "jet7_sp": {"name": "Jet 7 temperature setpoint", "unit": "°C", "writable": True,
                "min": 20, "max": 135},
    "jet7_ramp": {"name": "Jet 7 heating gradient", "unit": "°C/min", "writable": True,
                  "min": 0.5, "max": 4},
    "jet7_lr": {"name": "Jet 7 liquor ratio"},
    "jet7_pump": {"name": "Jet 7 main pump speed", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "jet7_level": {"name": "Jet 7 liquor level", "unit": "%"},
    "jet7_add": {"name": "Jet 7 add tank level", "unit": "%"},
    "jet7_dosing": {"name": "Jet 7 chemical dosing", "type": "bool", "writable": True},
}, "finishing": {
    "ch4": {"name": "Stenter chamber 4 temperature", "unit": "°C"},
    "ch5": {"name": "Stenter chamber 5 temperature", "unit": "°C"},
    "st_sp": {"name": "Stenter temperature setpoint", "unit": "°C", "writable": True,
              "min": 100, "max": 220},
    "st_speed": {"name": "Stenter fabric speed", "unit": "m/min", "writable": True,
                 "min": 5, "max": 80},
    "st_fan": {"name": "Stenter exhaust fan", "type": "bool", "writable": True},
    "header": {"name": "Steam header pressure", "unit": "bar"},
}})

PHARMA, GRAIN, DYE = Router(PHARMA_CONFIG), Router(GRAIN_CONFIG), Router(DYE_CONFIG)
#: the plants by name, with their configs (for the model stage's check)
PLANTS = {"pharma": (PHARMA, PHARMA_CONFIG), "grain": (GRAIN, GRAIN_CONFIG),
          "dye": (DYE, DYE_CONFIG)}


@pytest.mark.parametrize(("router", "text", "point"), [
    (PHARMA, "注射用水储罐液位", "wfi_tank"),
    (PHARMA, "注射用水罐液位", "wfi_tank"),
    (PHARMA, "纯化水储罐液位", "pw_tank"),
    (PHARMA, "纯化水罐液位多少", "pw_tank"),
    (PHARMA, "purified water tank level", "pw_tank"),
    (PHARMA, "注射用水回路供水温度", "wfi_supply"),
    (PHARMA, "注射用水总送温度", "wfi_supply"),
    (PHARMA, "注射用水总回温度", "wfi_return"),
    (PHARMA, "注射用水循环回水温度", "wfi_return"),
    (PHARMA, "纯化水回水总有机碳", "pw_toc"),
    (PHARMA, "纯化水总回电导率", "pw_cond"),
    (PHARMA, "反渗透产水电导率", "ro_cond"),
    (PHARMA, "EDI产水电阻率", "edi_res"),
    (PHARMA, "电除盐产水电阻率", "edi_res"),
    (PHARMA, "纯蒸汽发生器出口压力", "psg_p"),
    (PHARMA, "纯蒸汽压力", "psg_p"),
    (PHARMA, "纯化水回路热消毒", "pw_san"),
    (PHARMA, "B级区压差", "fill_dp"),
    (PHARMA, "D级缓冲间压差", "airlock_dp"),
    (PHARMA, "3号空调机组高效过滤器压差", "ahu3_hepa"),
    (GRAIN, "3号仓上层粮温", "silo3_top"),
    (GRAIN, "3号仓底层粮温", "silo3_bottom"),
    (GRAIN, "3号仓顶层粮温", "silo3_top"),
    (GRAIN, "3号仓测温电缆故障", "silo3_cable"),
    (GRAIN, "1号斗提打滑了吗", "leg1_slip"),
    (GRAIN, "1号斗提机头轮轴承温度", "leg1_head"),
    (GRAIN, "烘干机热风温度", "hot_air"),
    (GRAIN, "热风温度", "hot_air"),
    (GRAIN, "烘干机排风温度", "exhaust"),
    (GRAIN, "烘干机尾气温度", "exhaust"),
    (GRAIN, "出机水分", "out_moist"),
    (GRAIN, "出粮水分", "out_moist"),
    (GRAIN, "布袋除尘器压差", "bh_dp"),
    (GRAIN, "脉冲除尘器压差", "bh_dp"),
    (GRAIN, "B1磨粉机轧距", "b1_gap"),
    (GRAIN, "B1磨粉机电流", "b1_amps"),
    (GRAIN, "旋转分配器位置", "turnhead"),
    (DYE, "7号缸浴温", "jet7_temp"),
    (DYE, "7号气流缸浴温", "jet7_temp"),
    (DYE, "7号溢流机染液温度", "jet7_temp"),
    (DYE, "8号缸染浴温度", "jet8_temp"),
    (DYE, "jet 8 dyebath temp", "jet8_temp"),
    (DYE, "7号缸升温梯度", "jet7_ramp"),
    (DYE, "7号缸液比", "jet7_lr"),
    (DYE, "7号缸染液液位", "jet7_level"),
    (DYE, "7号缸加料缸液位", "jet7_add"),
    (DYE, "定型机第四节烘箱温度", "ch4"),
    (DYE, "定型机4节温度", "ch4"),
    (DYE, "定型机五节烘箱温度", "ch5"),
    (DYE, "定型机布速", "st_speed"),
    (DYE, "分气缸压力", "header"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (PHARMA, "注射用水循环温度设为80度", {"point": "wfi_sp", "value": 80}),
    (PHARMA, "启动纯化水巴氏消毒", {"point": "pw_san", "value": True}),
    (PHARMA, "启动纯化水热水消毒", {"point": "pw_san", "value": True}),
    (PHARMA, "PW循环巴氏消毒启动", {"point": "pw_san", "value": True}),
    (PHARMA, "开启3号空调机组", {"point": "ahu3", "value": True}),
    (GRAIN, "启动1号斗提", {"point": "leg1", "value": True}),
    (GRAIN, "启动1号斗式提升机", {"point": "leg1", "value": True}),
    (GRAIN, "停止3号仓通风机", {"point": "silo3_fan", "value": False}),
    (GRAIN, "启动2号刮板机", {"point": "drag2", "value": True}),
    (GRAIN, "B1磨粉机轧距设为0.25", {"point": "b1_gap", "value": 0.25}),
    (GRAIN, "分配器位置设为5", {"point": "turnhead", "value": 5}),
    (DYE, "7号缸升温速率设为2", {"point": "jet7_ramp", "value": 2}),
    (DYE, "7号缸主泵转速调到70", {"point": "jet7_pump", "value": 70}),
    (DYE, "定型机布速设为45", {"point": "st_speed", "value": 45}),
    (DYE, "停止定型机排风机", {"point": "st_fan", "value": False}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("router", "text", "wrong"), [
    (PHARMA, "纯化水储罐液位", "wfi_tank"),  # purified water is no water for injection
    (PHARMA, "注射用水储罐液位", "pw_tank"),
    (PHARMA, "纯化水回水总有机碳", "wfi_toc"),
    (PHARMA, "注射用水总回温度", "wfi_supply"),  # 总回, the loop's return, is no supply
    (PHARMA, "注射用水总送温度", "wfi_return"),
    (PHARMA, "B级区压差", "airlock_dp"),  # grade B is no grade D
    (PHARMA, "D级缓冲间压差", "fill_dp"),
    (GRAIN, "3号仓上层粮温", "silo3_bottom"),
    (GRAIN, "3号仓底层粮温", "silo3_top"),
    (GRAIN, "3号仓测温电缆故障", "silo3_top"),
    (GRAIN, "1号斗提打滑了吗", "leg1"),  # the slip switch tells, not the motor
    (GRAIN, "烘干机热风温度", "exhaust"),  # the hot air going in is no exhaust air
    (GRAIN, "烘干机尾气温度", "hot_air"),
    (GRAIN, "烘干机排风温度", "hot_air"),
    (DYE, "7号缸浴温", "jet8_temp"),
    (DYE, "7号缸浴温", "jet7_sp"),
    (DYE, "7号缸加料缸液位", "jet7_level"),  # the add tank is no dyebath
    (DYE, "定型机第四节烘箱温度", "ch5"),
    (DYE, "定型机第四节烘箱温度", "st_sp"),  # a chamber's reading is no setpoint
])
async def test_a_near_neighbour_is_not_taken(router: Router, text: str, wrong: str) -> None:
    action = await routed_without_model(router, text)
    assert action.args.get("point") != wrong, (text, action)


@pytest.mark.parametrize(("plant", "text", "action"), [
    ("pharma", "纯化水储罐液位", Action("read", {"point": "pw_tank"})),
    ("pharma", "注射用水总回温度", Action("read", {"point": "wfi_return"})),
    ("pharma", "D级区压差", Action("read", {"point": "airlock_dp"})),
    ("grain", "烘干机尾气温度", Action("read", {"point": "exhaust"})),
    ("grain", "3号仓底层粮温", Action("read", {"point": "silo3_bottom"})),
    ("grain", "旋转分配器转到5", Action("write", {"point": "turnhead", "value": 5})),
    ("dye", "7号缸浴温", Action("read", {"point": "jet7_temp"})),
    ("dye", "定型机温度设为190度", Action("write", {"point": "st_sp", "value": 190})),
])
def test_the_model_is_let_take_the_trade_word(plant: str, text: str, action: Action) -> None:
    """Whatever the stages before it leave to the model (a setpoint written as "the stenter's
    temperature", a turnhead turned "to 5"), the model's check lets through the point the
    trade's word names."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, action)
    assert (checked.name, checked.args) == (action.name, action.args), (text, checked)


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("pharma", "纯化水储罐液位", "wfi_tank"),
    ("pharma", "注射用水储罐液位", "pw_tank"),
    ("pharma", "PW tank level", "wfi_tank"),
    ("pharma", "注射用水总回温度", "wfi_supply"),
    ("pharma", "纯化水回水总有机碳", "wfi_toc"),
    ("pharma", "B级区压差", "airlock_dp"),
    ("pharma", "D级区压差", "fill_dp"),
    ("grain", "烘干机尾气温度", "hot_air"),
    ("grain", "烘干机热风温度", "exhaust"),
    ("grain", "3号仓底层粮温", "silo3_top"),
    ("dye", "7号缸浴温", "jet8_temp"),
    ("dye", "7号缸浴温", "jet7_sp"),
    ("dye", "定型机第四节烘箱温度", "ch5"),
    ("dye", "定型机第四节烘箱温度", "st_sp"),
    ("dye", "7号缸加料缸液位", "jet7_level"),
    ("dye", "7号缸染液液位", "jet7_add"),
])
def test_the_model_is_not_let_take_a_neighbour(plant: str, text: str, wrong: str) -> None:
    """The model's check does not let the model read the neighbour the trade's word is not:
    purified water for WFI, exhaust air for hot air, the add tank for the dyebath."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, Action("read", {"point": wrong}))
    assert checked.name == "respond", (text, checked)


# the words shared with other trades still mean what they meant there
OTHERS = Router(exec_devices("others2", {"plant": {
    "feeder3_amps": {"name": "Feeder 3 current", "unit": "A"},
    "boiler_fg": {"name": "Boiler flue gas temperature", "unit": "°C"},
    "pot12_bath": {"name": "Pot 12 bath temperature", "unit": "°C"},
    "lift2": {"name": "Lift 2 running", "type": "bool"},
    "softener_regen": {"name": "Softener 1 regeneration", "type": "bool", "writable": True},
    "sat": {"name": "Supply air temperature", "unit": "°C"},
    "chw_loop": {"name": "Chilled water loop supply temperature", "unit": "°C"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("3号回路电流", "feeder3_amps"),  # 回路 of a switchboard: its circuit
    ("锅炉尾气温度", "boiler_fg"),
    ("12号槽电解质温度", "pot12_bath"),
    ("bath temperature pot 12", "pot12_bath"),
    ("2号电梯运行吗", "lift2"),
    ("送风温度", "sat"),
    ("冷冻水回路供水温度", "chw_loop"),
])
async def test_shared_words_keep_their_other_trades(text: str, point: str) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


async def test_a_softener_is_still_a_softener() -> None:
    action = await routed_without_model(OTHERS, "启动1号软化器再生")
    assert (action.name, action.args) == ("write", {"point": "softener_regen", "value": True})


@pytest.mark.parametrize(("text", "want"), [
    ("注射用水", {"medium.wfi"}),
    ("WFI", {"medium.wfi"}),
    ("纯化水", {"medium.purified_water"}),
    ("PW", {"medium.purified_water"}),
    ("纯蒸汽", {"medium.pure_steam"}),
    ("纯蒸汽发生器", {"thing.pure_steam_generator"}),
    ("多效蒸馏水机", {"thing.wfi_still"}),
    ("注射用水分配系统", {"medium.wfi", "thing.distribution_loop"}),
    ("纯化水回路", {"medium.purified_water", "thing.distribution_loop"}),
    ("电除盐", {"thing.edi"}),
    ("巴氏消毒", {"thing.sanitisation"}),
    ("用水点", {"thing.use_point"}),
    ("C级洁净区", {"modifier.grade_c"}),
    ("总回", {"modifier.return"}),
    ("高效送风口", {"thing.air_filter"}),
    ("斗式提升机", {"thing.bucket_elevator"}),
    ("leg 2", {"thing.bucket_elevator"}),
    ("测温电缆", {"thing.temperature_cable"}),
    ("粮食烘干机", {"thing.grain_dryer"}),
    ("烘干塔", {"thing.grain_dryer"}),
    ("热风", {"medium.hot_air"}),
    ("尾气", {"medium.exhaust_air"}),
    ("磨粉机", {"thing.roller_mill"}),
    ("皮磨", {"thing.break_roll"}),
    ("心磨", {"thing.reduction_roll"}),
    ("轧距", {"quantity.gap"}),
    ("旋转分配器", {"thing.distributor"}),
    ("turnhead", {"thing.distributor"}),
    ("出机水分", {"modifier.discharge", "quantity.moisture_content"}),
    ("入机水分", {"modifier.inlet", "quantity.moisture_content"}),
    ("静压箱", {"thing.plenum"}),
    ("风网", {"thing.dust_extraction"}),
    ("染浴", {"medium.dye_liquor"}),
    ("浴温", {"medium.dye_liquor", "quantity.temperature"}),
    ("分散染料", {"medium.dye"}),
    ("助剂", {"medium.auxiliary"}),
    ("副缸", {"thing.add_tank"}),
    ("气流染色机", {"thing.dyeing_machine"}),
    ("升温斜率", {"role.ramp_rate"}),
    ("超喂", {"quantity.overfeed"}),
    ("门幅", {"quantity.width"}),
    ("保温时间", {"quantity.holding_time"}),
    ("第四节", {"thing.zone"}),
    ("stenter chamber", {"thing.stenter", "thing.zone"}),
    ("分气缸", {"thing.steam_header"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


@pytest.mark.parametrize(("text", "unwanted"), [
    ("注射用水", "medium.purified_water"),  # no longer one concept with purified water
    ("纯化水", "medium.wfi"),
    ("EDI", "thing.softener"),  # electrodeionisation is no softener
    ("B级", "modifier.grade_d"),
    ("grade b", "thing.cleanroom"),  # a grade says which cleanroom
    ("斗提机", "thing.elevator"),  # a leg, not any lift: 电梯 is one too
    ("热风", "medium.exhaust_air"),
    ("皮磨", "thing.reduction_roll"),
    ("节能", "thing.zone"),  # 节 is a chamber only after a number
])
def test_the_split_concepts_stay_apart(text: str, unwanted: str) -> None:
    lexicon_ids = {m.concept.id for m in concepts_of_text(text)}
    assert unwanted not in lexicon_ids, (text, lexicon_ids)
