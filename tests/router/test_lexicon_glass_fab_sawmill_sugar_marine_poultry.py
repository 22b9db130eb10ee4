"""The lexicon's words of float glass, of a semiconductor fab's utilities, of sawmills and lumber
dry kilns, of cane sugar mills, of a ship's engine room and of hatcheries and broiler houses:
Chinese and English commands, in each trade's jargon, about English-named points of plants
written here with near neighbours (the crown and its setpoint, the left and right regenerator,
the tin bath's hydrogen and its nitrogen; UPW supply and return, PCW and cooling tower water,
acid and solvent exhaust, liquid nitrogen and the nitrogen header; kiln 1 and kiln 2, dry bulb
and wet bulb, EMC and the wood's moisture, the headrig and the edger; mill 1 and mill 2, mixed
and clear juice, the drum level and its setpoint, syrup and molasses; the HFO and MDO service
tanks, the settling tank, port and starboard ballast tanks, jacket and LT cooling water, aux
engines 1 and 2; setter 1 and 2, the setter and the hatcher, tunnel and sidewall fans, house 1
and house 2)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, model_checked, routed_without_model

GLASS_CONFIG = exec_devices("floatline2", {"furnace": {
    "crown": {"name": "Melter crown temperature", "unit": "°C"},
    "crown_sp": {"name": "Melter crown temperature setpoint", "unit": "°C", "writable": True,
                 "min": 1400, "max": 1650},
    "regen_l": {"name": "Left side regenerator top temperature", "unit": "°C"},
    "regen_r": {"name": "Right side regenerator top temperature", "unit": "°C"},
    "glass_level": {"name": "Glass level", "unit": "mm"},
    "pull": {"name": "Furnace pull rate", "unit": "t/d"},
    "to_reversal": {"name": "Time to next reversal", "unit": "min"},
    "reversal": {"name": "Manual reversal", "type": "bool", "writable": True},
    "comb_air": {"name": "Combustion air header pressure", "unit": "kPa"},
    "charger1": {"name": "Batch charger 1 speed", "unit": "%", "writable": True,
                 "min": 0, "max": 100},
    "charger2": {"name": "Batch charger 2 speed", "unit": "%", "writable": True,
                 "min": 0, "max": 100},
    "cullet": {"name": "Cullet ratio", "unit": "%", "writable": True, "min": 10, "max": 60},
}, "bath": {
    "bath_h2": {"name": "Tin bath hydrogen concentration", "unit": "%"},
    "bath_n2": {"name": "Tin bath nitrogen flow", "unit": "Nm³/h"},
    "bath_p": {"name": "Tin bath pressure", "unit": "Pa"},
    "tin_temp": {"name": "Molten tin temperature", "unit": "°C"},
    "tr3": {"name": "Top roller 3 speed", "unit": "rpm", "writable": True, "min": 0, "max": 300},
    "ribbon_w": {"name": "Ribbon width", "unit": "mm"},
    "line_sp": {"name": "Line speed setpoint", "unit": "m/h", "writable": True,
                "min": 200, "max": 1500},
    "lehr1": {"name": "Lehr zone 1 temperature", "unit": "°C"},
    "lehr2": {"name": "Lehr zone 2 temperature", "unit": "°C"},
}})

FAB_CONFIG = exec_devices("fab12", {"water": {
    "upw_s_res": {"name": "UPW supply resistivity", "unit": "MΩ·cm"},
    "upw_r_res": {"name": "UPW return resistivity", "unit": "MΩ·cm"},
    "upw_toc": {"name": "UPW supply TOC", "unit": "ppb"},
    "ro_cond": {"name": "RO permeate conductivity", "unit": "µS/cm"},
    "polish_flow": {"name": "Polish loop return flow", "unit": "m³/h"},
    "pcw_s": {"name": "PCW supply temperature", "unit": "°C"},
    "pcw_r": {"name": "PCW return temperature", "unit": "°C"},
    "pcw_sp": {"name": "PCW supply temperature setpoint", "unit": "°C", "writable": True,
               "min": 14, "max": 24},
    "ct_temp": {"name": "Cooling tower water temperature", "unit": "°C"},
}, "air": {
    "cr_temp": {"name": "Cleanroom temperature", "unit": "°C"},
    "cr_particles": {"name": "Cleanroom particle count", "unit": "counts/ft³"},
    "mau1_sat": {"name": "MAU 1 supply air temperature", "unit": "°C"},
    "mau2_sat": {"name": "MAU 2 supply air temperature", "unit": "°C"},
    "mau1": {"name": "MAU 1 enable", "type": "bool", "writable": True},
    "acid_sp": {"name": "Acid exhaust static pressure", "unit": "Pa"},
    "solv_sp": {"name": "Solvent exhaust static pressure", "unit": "Pa"},
    "scrub_ph": {"name": "Acid exhaust scrubber recirculation pH"},
    "ls5": {"name": "Local scrubber 5 alarm", "type": "bool"},
}, "gases": {
    "cda_dp": {"name": "CDA dew point", "unit": "°C"},
    "cda_p": {"name": "CDA header pressure", "unit": "bar"},
    "n2_p": {"name": "Nitrogen header pressure", "unit": "bar"},
    "ln2_lvl": {"name": "LN2 tank level", "unit": "%"},
}})

SAWMILL_CONFIG = exec_devices("mill7", {"kilns": {
    "k1_db": {"name": "Kiln 1 dry bulb temperature", "unit": "°C"},
    "k1_wb": {"name": "Kiln 1 wet bulb temperature", "unit": "°C"},
    "k2_db": {"name": "Kiln 2 dry bulb temperature", "unit": "°C"},
    "k1_db_sp": {"name": "Kiln 1 dry bulb setpoint", "unit": "°C", "writable": True,
                 "min": 30, "max": 95},
    "k1_emc": {"name": "Kiln 1 EMC", "unit": "%"},
    "k1_mc": {"name": "Kiln 1 wood moisture content", "unit": "%"},
    "k1_wbd": {"name": "Kiln 1 wet bulb depression", "unit": "°C"},
    "k1_vents": {"name": "Kiln 1 vent position", "unit": "%"},
    "k1_spray": {"name": "Kiln 1 steam spray valve position", "unit": "%"},
    "k1_fans": {"name": "Kiln 1 circulation fans", "type": "bool", "writable": True},
}, "mill": {
    "headrig": {"name": "Headrig motor current", "unit": "A"},
    "edger": {"name": "Edger motor current", "unit": "A"},
    "trimmer": {"name": "Trimmer running", "type": "bool"},
    "chipper": {"name": "Chipper motor current", "unit": "A"},
    "log_deck": {"name": "Log deck chain", "type": "bool", "writable": True},
    "debarker": {"name": "Debarker running", "type": "bool"},
    "sawdust": {"name": "Sawdust silo level", "unit": "%"},
    "chips": {"name": "Wood chips bin level", "unit": "%"},
}})

SUGAR_CONFIG = exec_devices("caneco", {"mills": {
    "m1_p": {"name": "Mill 1 hydraulic pressure", "unit": "bar"},
    "m2_p": {"name": "Mill 2 hydraulic pressure", "unit": "bar"},
    "m1_lift": {"name": "Mill 1 top roller lift", "unit": "mm"},
    "m2_lift": {"name": "Mill 2 top roller lift", "unit": "mm"},
    "crush": {"name": "Crush rate", "unit": "t/h"},
    "imb": {"name": "Imbibition water flow", "unit": "m³/h"},
    "carrier": {"name": "Cane carrier speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "shredder": {"name": "Shredder motor current", "unit": "A"},
    "knives": {"name": "Cane knives motor current", "unit": "A"},
}, "process": {
    "mj_brix": {"name": "Mixed juice brix", "unit": "°Bx"},
    "cj_brix": {"name": "Clear juice brix", "unit": "°Bx"},
    "mj_pol": {"name": "Mixed juice Pol", "unit": "%"},
    "limed_ph": {"name": "Limed juice pH"},
    "clarifier": {"name": "Clarifier level", "unit": "%"},
    "exh_steam": {"name": "Exhaust steam pressure", "unit": "kPa"},
    "syrup_brix": {"name": "Syrup brix", "unit": "°Bx"},
    "molasses_brix": {"name": "Final molasses brix", "unit": "°Bx"},
    "pan1_vac": {"name": "Pan 1 vacuum", "unit": "kPa"},
    "pan2_vac": {"name": "Pan 2 vacuum", "unit": "kPa"},
    "cf1_speed": {"name": "Centrifugal 1 speed", "unit": "rpm"},
}, "boiler": {
    "drum": {"name": "Bagasse boiler drum level", "unit": "%"},
    "drum_sp": {"name": "Bagasse boiler drum level setpoint", "unit": "%", "writable": True,
                "min": 20, "max": 80},
    "bagasse": {"name": "Bagasse conveyor", "type": "bool", "writable": True},
}})

MARINE_CONFIG = exec_devices("mv_ostara", {"machinery": {
    "me_speed": {"name": "Main engine speed", "unit": "rpm"},
    "me_lo": {"name": "Main engine lube oil inlet pressure", "unit": "bar"},
    "jcw_out": {"name": "Jacket cooling water outlet temperature", "unit": "°C"},
    "lt_temp": {"name": "LT cooling water temperature", "unit": "°C"},
    "cc_out": {"name": "Central cooler outlet temperature", "unit": "°C"},
    "ae1_load": {"name": "Aux engine 1 load", "unit": "kW"},
    "ae2_load": {"name": "Aux engine 2 load", "unit": "kW"},
    "turbo": {"name": "Turbocharger speed", "unit": "rpm"},
    "scav_p": {"name": "Scavenge air pressure", "unit": "bar"},
    "scav_t": {"name": "Scavenge air temperature", "unit": "°C"},
    "aux_blr": {"name": "Aux boiler steam pressure", "unit": "bar"},
    "shore": {"name": "Shore power breaker", "type": "bool"},
}, "fuel": {
    "hfo_settling": {"name": "HFO settling tank level", "unit": "%"},
    "hfo_service": {"name": "HFO service tank level", "unit": "%"},
    "mdo_service": {"name": "MDO service tank level", "unit": "%"},
    "visc": {"name": "Fuel oil viscosity", "unit": "cSt"},
    "purifier1": {"name": "HFO purifier 1", "type": "bool", "writable": True},
}, "hull": {
    "bilge": {"name": "Engine room bilge well level", "unit": "%"},
    "bt2p": {"name": "Port ballast tank 2 level", "unit": "%"},
    "bt2s": {"name": "Starboard ballast tank 2 level", "unit": "%"},
}})

POULTRY_CONFIG = exec_devices("hatchfarm", {"hatchery": {
    "s1_temp": {"name": "Setter 1 air temperature", "unit": "°C"},
    "s2_temp": {"name": "Setter 2 air temperature", "unit": "°C"},
    "s1_rh": {"name": "Setter 1 humidity", "unit": "%"},
    "s1_sp": {"name": "Setter 1 temperature setpoint", "unit": "°C", "writable": True,
              "min": 36, "max": 39},
    "s1_turn": {"name": "Setter 1 egg turning interval", "unit": "min", "writable": True,
                "min": 30, "max": 120},
    "s1_shell": {"name": "Setter 1 eggshell temperature", "unit": "°C"},
    "h1_temp": {"name": "Hatcher 1 air temperature", "unit": "°C"},
    "chicks": {"name": "Chicks hatched today", "type": "int", "unit": "chicks"},
}, "houses": {
    "hs1_temp": {"name": "House 1 temperature", "unit": "°C"},
    "hs1_sp": {"name": "House 1 static pressure", "unit": "Pa"},
    "hs1_tunnel": {"name": "House 1 tunnel fans", "type": "bool", "writable": True},
    "hs1_side": {"name": "House 1 sidewall fans", "type": "bool", "writable": True},
    "hs1_inlet": {"name": "House 1 side inlet opening", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "hs1_brooders": {"name": "House 1 brooders", "type": "bool", "writable": True},
    "hs1_feed": {"name": "House 1 feed line", "type": "bool", "writable": True},
    "hs1_water": {"name": "House 1 water meter", "unit": "L"},
    "hs2_water": {"name": "House 2 water meter", "unit": "L"},
    "hs1_drunk": {"name": "House 1 water consumption today", "unit": "L"},
    "hs1_age": {"name": "House 1 bird age", "type": "int", "unit": "days"},
}})

GLASS, FAB, SAWMILL = Router(GLASS_CONFIG), Router(FAB_CONFIG), Router(SAWMILL_CONFIG)
SUGAR, MARINE, POULTRY = Router(SUGAR_CONFIG), Router(MARINE_CONFIG), Router(POULTRY_CONFIG)
#: the plants by name, with their configs (for the model stage's check)
PLANTS = {"glass": (GLASS, GLASS_CONFIG), "fab": (FAB, FAB_CONFIG),
          "sawmill": (SAWMILL, SAWMILL_CONFIG), "sugar": (SUGAR, SUGAR_CONFIG),
          "marine": (MARINE, MARINE_CONFIG), "poultry": (POULTRY, POULTRY_CONFIG)}


@pytest.mark.parametrize(("router", "text", "point"), [
    # float glass
    (GLASS, "熔化部碹顶温度", "crown"),
    (GLASS, "熔窑碹顶温度多少", "crown"),
    (GLASS, "大碹温度", "crown"),
    (GLASS, "碹顶温度设定值", "crown_sp"),
    (GLASS, "左侧蓄热室顶部温度", "regen_l"),
    (GLASS, "右侧蓄热室顶温", "regen_r"),
    (GLASS, "玻璃液面", "glass_level"),
    (GLASS, "玻璃液位多少", "glass_level"),
    (GLASS, "日拉引量", "pull"),
    (GLASS, "拉引量多少", "pull"),
    (GLASS, "what's the daily pull", "pull"),
    (GLASS, "换向剩余时间", "to_reversal"),
    (GLASS, "换火倒计时", "to_reversal"),
    (GLASS, "助燃风压力", "comb_air"),
    (GLASS, "2号投料机速度", "charger2"),
    (GLASS, "碎玻璃比例", "cullet"),
    (GLASS, "锡槽氢气浓度", "bath_h2"),
    (GLASS, "锡槽氮气流量", "bath_n2"),
    (GLASS, "锡槽压力", "bath_p"),
    (GLASS, "锡液温度", "tin_temp"),
    (GLASS, "3号拉边机转速", "tr3"),
    (GLASS, "玻璃板宽度", "ribbon_w"),
    (GLASS, "玻璃带宽度", "ribbon_w"),
    (GLASS, "退火窑1区温度", "lehr1"),
    (GLASS, "退火窑二区温度", "lehr2"),
    (GLASS, "lear zone 2 temp", "lehr2"),
    # fab utilities
    (FAB, "超纯水供水电阻率", "upw_s_res"),
    (FAB, "超纯水回水电阻率", "upw_r_res"),
    (FAB, "ultrapure water return resistivity", "upw_r_res"),
    (FAB, "超纯水总有机碳", "upw_toc"),
    (FAB, "反渗透产水电导率", "ro_cond"),
    (FAB, "抛光回路回水流量", "polish_flow"),
    (FAB, "工艺冷却水供水温度", "pcw_s"),
    (FAB, "制程冷却水回水温度", "pcw_r"),
    (FAB, "冷却塔水温", "ct_temp"),
    (FAB, "无尘室温度", "cr_temp"),
    (FAB, "洁净室粒子数", "cr_particles"),
    (FAB, "fab particle counts", "cr_particles"),
    (FAB, "2号新风机组送风温度", "mau2_sat"),
    (FAB, "外气空调箱1送风温度", "mau1_sat"),
    (FAB, "酸排静压", "acid_sp"),
    (FAB, "有机排气静压", "solv_sp"),
    (FAB, "溶剂排风静压", "solv_sp"),
    (FAB, "酸排洗涤塔pH", "scrub_ph"),
    (FAB, "5号局部洗涤器报警了吗", "ls5"),
    (FAB, "压缩干燥空气露点", "cda_dp"),
    (FAB, "CDA dewpoint", "cda_dp"),
    (FAB, "CDA压力", "cda_p"),
    (FAB, "氮气总管压力", "n2_p"),
    (FAB, "液氮储罐液位", "ln2_lvl"),
    # sawmill and dry kilns
    (SAWMILL, "1号干燥窑干球温度", "k1_db"),
    (SAWMILL, "2号窑干球温度", "k2_db"),
    (SAWMILL, "1号窑湿球温度", "k1_wb"),
    (SAWMILL, "1号窑平衡含水率", "k1_emc"),
    (SAWMILL, "kiln 1 equilibrium moisture content", "k1_emc"),
    (SAWMILL, "1号窑木材含水率", "k1_mc"),
    (SAWMILL, "1号窑干湿球温差", "k1_wbd"),
    (SAWMILL, "1号窑排湿窗开度", "k1_vents"),
    (SAWMILL, "1号窑喷蒸阀开度", "k1_spray"),
    (SAWMILL, "1号窑循环风机开着吗", "k1_fans"),
    (SAWMILL, "主锯电流", "headrig"),
    (SAWMILL, "裁边锯电流多少", "edger"),
    (SAWMILL, "齐头锯在运行吗", "trimmer"),
    (SAWMILL, "削片机电流", "chipper"),
    (SAWMILL, "剥皮机运行吗", "debarker"),
    (SAWMILL, "锯末仓料位", "sawdust"),
    (SAWMILL, "木屑仓料位", "sawdust"),
    (SAWMILL, "木片仓料位", "chips"),
    # cane sugar
    (SUGAR, "2号压榨机浮起量", "m2_lift"),
    (SUGAR, "mill 2 lift", "m2_lift"),
    (SUGAR, "小时榨量", "crush"),
    (SUGAR, "榨量多少", "crush"),
    (SUGAR, "TCH", "crush"),
    (SUGAR, "渗浸水流量", "imb"),
    (SUGAR, "撕裂机电流", "shredder"),
    (SUGAR, "切蔗机电流", "knives"),
    (SUGAR, "混合汁锤度", "mj_brix"),
    (SUGAR, "清汁锤度", "cj_brix"),
    (SUGAR, "clarified juice brix", "cj_brix"),
    (SUGAR, "混合汁转光度", "mj_pol"),
    (SUGAR, "中和汁pH值", "limed_ph"),
    (SUGAR, "澄清器液位", "clarifier"),
    (SUGAR, "乏汽压力", "exh_steam"),
    (SUGAR, "糖浆锤度", "syrup_brix"),
    (SUGAR, "废蜜锤度", "molasses_brix"),
    (SUGAR, "2号煮糖罐真空度", "pan2_vac"),
    (SUGAR, "1号分蜜机转速", "cf1_speed"),
    (SUGAR, "汽包水位", "drum"),
    (SUGAR, "蔗渣锅炉汽包水位多少", "drum"),
    (SUGAR, "汽包水位设定值", "drum_sp"),
    # engine room
    (MARINE, "主机转速", "me_speed"),
    (MARINE, "ME rpm", "me_speed"),
    (MARINE, "主机滑油进口压力", "me_lo"),
    (MARINE, "缸套冷却水出口温度", "jcw_out"),
    (MARINE, "缸套水出口温度", "jcw_out"),
    (MARINE, "JCW outlet temp", "jcw_out"),
    (MARINE, "低温淡水温度", "lt_temp"),
    (MARINE, "中央冷却器出口温度", "cc_out"),
    (MARINE, "1号副机负荷", "ae1_load"),
    (MARINE, "2号副机功率", "ae2_load"),
    (MARINE, "AE2 load", "ae2_load"),
    (MARINE, "增压器转速", "turbo"),
    (MARINE, "扫气压力", "scav_p"),
    (MARINE, "扫气箱温度", "scav_t"),
    (MARINE, "辅锅炉汽压", "aux_blr"),
    (MARINE, "岸电合闸了吗", "shore"),
    (MARINE, "重油沉淀柜液位", "hfo_settling"),
    (MARINE, "重油日用柜液位", "hfo_service"),
    (MARINE, "轻油日用柜液位", "mdo_service"),
    (MARINE, "MDO service tank level", "mdo_service"),
    (MARINE, "燃油粘度", "visc"),
    (MARINE, "舱底水位", "bilge"),
    (MARINE, "左舷2号压载舱液位", "bt2p"),
    (MARINE, "右舷2号压载舱液位", "bt2s"),
    (MARINE, "stbd ballast tank 2 level", "bt2s"),
    # hatchery and broiler house
    (POULTRY, "1号孵化机空气温度", "s1_temp"),
    (POULTRY, "2号入孵机空气温度", "s2_temp"),
    (POULTRY, "incubation temperature in setter 2", "s2_temp"),
    (POULTRY, "1号孵化机孵化湿度", "s1_rh"),
    (POULTRY, "1号出雏机温度", "h1_temp"),
    (POULTRY, "1号孵化机翻蛋间隔", "s1_turn"),
    (POULTRY, "1号孵化机蛋壳温度", "s1_shell"),
    (POULTRY, "今天雏鸡数量", "chicks"),
    (POULTRY, "how many day-old chicks today", "chicks"),
    (POULTRY, "1号鸡舍温度", "hs1_temp"),
    (POULTRY, "1号鸡舍负压", "hs1_sp"),
    (POULTRY, "1号舍纵向风机开着吗", "hs1_tunnel"),
    (POULTRY, "1号舍小风机开着吗", "hs1_side"),
    (POULTRY, "1号舍小窗开度", "hs1_inlet"),
    (POULTRY, "1号舍保温伞开着吗", "hs1_brooders"),
    (POULTRY, "2号舍水表", "hs2_water"),
    (POULTRY, "1号舍饮水量", "hs1_drunk"),
    (POULTRY, "1号舍日龄", "hs1_age"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (GLASS, "碹顶温度设为1580度", {"point": "crown_sp", "value": 1580}),
    (GLASS, "启动手动换向", {"point": "reversal", "value": True}),
    (GLASS, "1号投料机速度调到60", {"point": "charger1", "value": 60}),
    (GLASS, "碎玻璃比例调到百分之二十五", {"point": "cullet", "value": 25}),
    (GLASS, "3号拉边机转速设为150", {"point": "tr3", "value": 150}),
    (GLASS, "拉引速度设为900", {"point": "line_sp", "value": 900}),
    (FAB, "工艺冷却水供水温度设为18度", {"point": "pcw_sp", "value": 18}),
    (FAB, "启动1号新风机组", {"point": "mau1", "value": True}),
    (SAWMILL, "1号窑干球温度设为70度", {"point": "k1_db_sp", "value": 70}),
    (SAWMILL, "停止1号窑循环风机", {"point": "k1_fans", "value": False}),
    (SAWMILL, "启动原木上料台", {"point": "log_deck", "value": True}),
    (SUGAR, "输蔗机速度调到60", {"point": "carrier", "value": 60}),
    (SUGAR, "汽包水位设定值设为50", {"point": "drum_sp", "value": 50}),
    (SUGAR, "停止蔗渣输送带", {"point": "bagasse", "value": False}),
    (MARINE, "启动1号重油分油机", {"point": "purifier1", "value": True}),
    (POULTRY, "1号孵化机温度设为37.8度", {"point": "s1_sp", "value": 37.8}),
    (POULTRY, "1号孵化机翻蛋间隔设为60分钟", {"point": "s1_turn", "value": 60}),
    (POULTRY, "打开1号舍纵向风机", {"point": "hs1_tunnel", "value": True}),
    (POULTRY, "关闭1号舍侧墙风机", {"point": "hs1_side", "value": False}),
    (POULTRY, "1号舍小窗开到30", {"point": "hs1_inlet", "value": 30}),
    (POULTRY, "打开1号舍保温伞", {"point": "hs1_brooders", "value": True}),
    (POULTRY, "1号舍料线启动", {"point": "hs1_feed", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("router", "text", "wrong"), [
    (GLASS, "左侧蓄热室顶部温度", "regen_r"),  # left is no right
    (GLASS, "熔窑碹顶温度多少", "crown_sp"),  # a reading is no setpoint
    (GLASS, "锡槽氢气浓度", "bath_n2"),
    (GLASS, "锡液温度", "lehr1"),
    (FAB, "超纯水回水电阻率", "upw_s_res"),  # 回水, the return, is no supply
    (FAB, "超纯水供水电阻率", "ro_cond"),
    (FAB, "工艺冷却水供水温度", "ct_temp"),  # PCW is no cooling tower water
    (FAB, "冷却塔水温", "pcw_s"),
    (FAB, "酸排静压", "solv_sp"),  # acid exhaust is no solvent exhaust
    (FAB, "液氮储罐液位", "n2_p"),
    (SAWMILL, "1号窑平衡含水率", "k1_mc"),  # the air's EMC is no wood's moisture
    (SAWMILL, "1号窑木材含水率", "k1_emc"),
    (SAWMILL, "1号窑湿球温度", "k1_db"),
    (SAWMILL, "主锯电流", "edger"),  # the headrig is no edger, though both are saws
    (SAWMILL, "锯末仓料位", "chips"),
    (SUGAR, "清汁锤度", "mj_brix"),  # clear juice is no mixed juice
    (SUGAR, "混合汁锤度", "cj_brix"),
    (SUGAR, "汽包水位", "drum_sp"),
    (SUGAR, "撕裂机电流", "knives"),
    (SUGAR, "废蜜锤度", "syrup_brix"),
    (MARINE, "重油日用柜液位", "mdo_service"),  # HFO is no MDO
    (MARINE, "重油日用柜液位", "hfo_settling"),  # a service tank is no settling tank
    (MARINE, "左舷2号压载舱液位", "bt2s"),  # port is no starboard
    (MARINE, "缸套冷却水出口温度", "lt_temp"),
    (MARINE, "1号副机负荷", "ae2_load"),
    (MARINE, "扫气压力", "scav_t"),
    (POULTRY, "1号孵化机温度", "h1_temp"),  # a setter is no hatcher
    (POULTRY, "1号孵化机温度", "s2_temp"),
    (POULTRY, "1号舍纵向风机开着吗", "hs1_side"),  # tunnel fans are no sidewall fans
    (POULTRY, "1号鸡舍负压", "hs1_temp"),
    (POULTRY, "2号舍水表", "hs1_water"),
    (POULTRY, "1号孵化机空气温度", "s1_shell"),  # the air is no eggshell
    (POULTRY, "1号孵化机蛋壳温度", "s1_temp"),
])
async def test_a_near_neighbour_is_not_taken(router: Router, text: str, wrong: str) -> None:
    action = await routed_without_model(router, text)
    assert action.args.get("point") != wrong, (text, action)


@pytest.mark.parametrize(("router", "text"), [
    (GLASS, "卡脖温度"),  # the plant has no waist reading
    (FAB, "碱排静压"),  # nor an alkaline exhaust
    (SAWMILL, "2号窑湿球温度"),  # kiln 2 has no wet bulb
    (MARINE, "左舷3号压载舱液位"),  # nor a third pair of ballast tanks
    (MARINE, "MGO service tank level"),  # MGO is no MDO
    (POULTRY, "2号出雏机温度"),  # nor a second hatcher
])
async def test_what_the_plant_lacks_is_refused(router: Router, text: str) -> None:
    action = await routed_without_model(router, text)
    assert action.name == "respond", (text, action)


@pytest.mark.parametrize(("plant", "text", "action"), [
    ("glass", "右侧蓄热室顶温", Action("read", {"point": "regen_r"})),
    ("glass", "日拉引量", Action("read", {"point": "pull"})),
    ("fab", "PCW回水温度", Action("read", {"point": "pcw_r"})),
    ("fab", "液氮储罐液位", Action("read", {"point": "ln2_lvl"})),
    ("sawmill", "1号窑平衡含水率", Action("read", {"point": "k1_emc"})),
    ("sugar", "清汁锤度", Action("read", {"point": "cj_brix"})),
    ("marine", "右舷2号压载舱液位", Action("read", {"point": "bt2s"})),
    ("marine", "轻油日用柜液位", Action("read", {"point": "mdo_service"})),
    ("poultry", "1号出雏机温度", Action("read", {"point": "h1_temp"})),
    ("poultry", "1号舍纵向风机开着吗", Action("read", {"point": "hs1_tunnel"})),
])
def test_the_model_is_let_take_the_trade_word(plant: str, text: str, action: Action) -> None:
    """Whatever the stages before it leave to the model, the model's check lets through the
    point the trade's word names."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, action)
    assert (checked.name, checked.args) == (action.name, action.args), (text, checked)


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("glass", "右侧蓄热室顶温", "regen_l"),
    ("glass", "锡槽氢气浓度", "bath_n2"),
    ("fab", "PCW回水温度", "ct_temp"),
    ("fab", "超纯水回水电阻率", "ro_cond"),
    ("fab", "酸排静压", "solv_sp"),
    ("sawmill", "1号窑平衡含水率", "k1_mc"),
    ("sawmill", "削片机电流", "headrig"),
    ("sugar", "清汁锤度", "mj_brix"),
    ("sugar", "废蜜锤度", "syrup_brix"),
    ("marine", "右舷2号压载舱液位", "bt2p"),
    ("marine", "轻油日用柜液位", "hfo_service"),
    ("marine", "缸套水出口温度", "lt_temp"),
    ("poultry", "1号出雏机温度", "s1_temp"),
    ("poultry", "1号舍纵向风机开着吗", "hs1_side"),
])
def test_the_model_is_not_let_take_a_neighbour(plant: str, text: str, wrong: str) -> None:
    """The model's check does not let the model read the neighbour the trade's word is not:
    the left regenerator for the right, cooling tower water for PCW, the wood's moisture for
    the EMC, mixed juice for clear, MDO for HFO, a hatcher for a setter."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, Action("read", {"point": wrong}))
    assert checked.name == "respond", (text, checked)


# the words shared with other trades still mean what they meant there
OTHERS = Router(exec_devices("others6", {"plant": {
    "welder_gas": {"name": "Welding shielding gas flow", "unit": "L/min"},
    "shredder": {"name": "Shredder motor current", "unit": "A"},
    "fish_feeder": {"name": "Fish feeder 2", "type": "bool", "writable": True},
    "clarifier": {"name": "Primary settling tank level", "unit": "m"},
    "gh_vent": {"name": "Greenhouse roof vent position", "unit": "%"},
    "milk_vac": {"name": "Milking system vacuum", "unit": "kPa"},
    "diesel_tank": {"name": "Diesel day tank level", "unit": "%"},
    "steam_turbine": {"name": "Turbine speed", "unit": "rpm"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("保护气流量", "welder_gas"),  # 保护气 of a welder: its shielding gas
    ("撕裂机电流", "shredder"),  # 撕裂机 of a recycling plant: any shredder
    ("2号投料机运行吗", "fish_feeder"),  # 投料机 of a fish farm: its feeder
    ("初沉池液位", "clarifier"),
    ("天窗开度", "gh_vent"),
    ("挤奶系统负压", "milk_vac"),  # 负压 of a milking plant: its vacuum
    ("柴油日用油箱液位", "diesel_tank"),
    ("汽轮机转速", "steam_turbine"),
])
async def test_shared_words_keep_their_other_trades(text: str, point: str) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("text", "want"), [
    ("熔窑", {"thing.furnace"}),
    ("熔化部", {"thing.melting_end"}),
    ("卡脖", {"thing.waist"}),
    ("拉边机", {"thing.top_roller"}),
    ("换火", {"thing.reversal"}),
    ("3号小炉", {"thing.furnace_port"}),
    ("玻璃液面", {"medium.glass", "quantity.level"}),
    ("锡槽保护气", {"thing.tin_bath", "medium.protective_gas"}),
    ("配合料", {"medium.glass_batch"}),
    ("拉引量", {"quantity.pull_rate"}),
    ("拉引速度", {"quantity.line_speed"}),
    ("助燃风", {"medium.combustion_air"}),
    ("超纯水", {"medium.ultrapure_water"}),
    ("UPW", {"medium.ultrapure_water"}),
    ("PCW", {"medium.process_cooling_water"}),
    ("工艺冷却水", {"medium.process_cooling_water"}),
    ("CDA", {"medium.clean_dry_air"}),
    ("LN2", {"medium.liquid_nitrogen"}),
    ("酸排", {"medium.acid_exhaust"}),
    ("尾气处理器", {"thing.local_scrubber"}),
    ("抛光回路", {"thing.polish_loop"}),
    ("大宗气体", {"thing.bulk_gas"}),
    ("外气空调箱", {"thing.ahu"}),
    ("干盘管", {"thing.coil"}),
    ("无尘室", {"thing.cleanroom"}),
    ("干燥窑", {"thing.dry_kiln"}),
    ("喷蒸", {"thing.steam_spray"}),
    ("排湿窗", {"thing.vent_greenhouse"}),
    ("平衡含水率", {"quantity.emc"}),
    ("EMC", {"quantity.emc"}),
    ("干湿球温差", {"quantity.wet_bulb_depression"}),
    ("削片机", {"thing.chipper"}),
    ("跑车", {"thing.carriage"}),
    ("锯末", {"medium.sawdust"}),
    ("trimmer", {"thing.trimmer_saw"}),
    ("输蔗机", {"thing.cane_carrier"}),
    ("唐纳利槽", {"thing.donnelly_chute"}),
    ("压榨辊", {"thing.mill_roller"}),
    ("中和汁", {"thing.limed_juice"}),
    ("硫熏", {"thing.sulphitation"}),
    ("蔗渣", {"medium.bagasse"}),
    ("糖膏", {"medium.massecuite"}),
    ("汁汽", {"medium.juice_vapour"}),
    ("助晶机", {"thing.massecuite_crystallizer"}),
    ("分蜜机", {"thing.sugar_centrifugal"}),
    ("煮糖罐", {"thing.vacuum_pan"}),
    ("Pan 3", {"thing.vacuum_pan"}),
    ("Pol", {"quantity.pol"}),
    ("汽包水位", {"quantity.drum_level"}),
    ("副机", {"thing.aux_engine"}),
    ("ME", {"thing.main_engine"}),
    ("海底门", {"thing.sea_chest"}),
    ("沉淀柜", {"thing.settling_tank"}),
    ("日用柜", {"thing.service_tank"}),
    ("HFO", {"medium.hfo"}),
    ("MDO", {"medium.mdo"}),
    ("MGO", {"medium.mgo"}),
    ("压载舱", {"thing.ballast_tank"}),
    ("左舷", {"modifier.port"}),
    ("starboard", {"modifier.starboard"}),
    ("造水机", {"thing.fwg"}),
    ("滑油", {"medium.lube_oil"}),
    ("排温", {"quantity.flue_gas_temperature"}),
    ("出雏", {"thing.hatcher"}),
    ("纵向风机", {"thing.tunnel_fan"}),
    ("小窗", {"thing.poultry_inlet"}),
    ("打料", {"thing.feeder_system"}),
    ("雏鸡", {"medium.chicks"}),
    ("日龄", {"quantity.age"}),
    ("蛋壳温度", {"quantity.eggshell_temperature"}),
    ("鸡舍负压", {"thing.livestock_house", "quantity.static_pressure", "quantity.vacuum"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


@pytest.mark.parametrize(("text", "unwanted"), [
    ("清汁", "thing.mixed_juice"),  # clear juice is no longer mixed juice
    ("超纯水", "medium.pure_water"),  # ...nor UPW the broad pure water
    ("工艺冷却水", "medium.cooling_water"),
    ("轻油", "medium.hfo"),
    ("重油", "medium.mdo"),
    ("MGO", "medium.mdo"),  # a grade is no other grade
    ("左舷", "modifier.left"),  # port is a ship's side, not any left
    ("port", "modifier.left"),
    ("pan", "thing.vacuum_pan"),  # a pan of anything is no vacuum pan unless written so
    ("pol", "quantity.pol"),  # ...nor "pol" in any case
    ("me", "thing.main_engine"),  # "me" is a word
    ("ae", "thing.aux_engine"),  # only AE written so
])
def test_the_words_stay_apart(text: str, unwanted: str) -> None:
    lexicon_ids = {m.concept.id for m in concepts_of_text(text)}
    assert unwanted not in lexicon_ids, (text, lexicon_ids)
