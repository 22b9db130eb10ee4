"""The lexicon's words of cement making, industrial ammonia refrigeration with its cold stores
and recirculating aquaculture: Chinese and English commands, with the jargon of each trade,
about English-named points of plants written here with near neighbours (cyclones 1 and 4, the
calciner's coal and the main burner's, secondary and tertiary air; suction and condensing
pressure, cold rooms 1 and 2 with their setpoints, the HP receiver and the surge drum; tanks 1
and 2, nitrite and nitrate, salinity and conductivity)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, routed_without_model

CEMENT = Router(exec_devices("kiln3", {"kiln": {
    "raw_mill": {"name": "Raw mill main drive running", "type": "bool", "writable": True},
    "kiln_feed": {"name": "Kiln feed rate", "unit": "t/h"},
    "kiln_feed_sp": {"name": "Kiln feed setpoint", "unit": "t/h", "writable": True,
                     "min": 100, "max": 400},
    "c1_temp": {"name": "Cyclone 1 outlet temperature", "unit": "°C"},
    "c4_temp": {"name": "Cyclone 4 outlet temperature", "unit": "°C"},
    "c4_draft": {"name": "Cyclone 4 cone draft", "unit": "Pa"},
    "calciner_temp": {"name": "Calciner outlet temperature", "unit": "°C"},
    "inlet_temp": {"name": "Kiln inlet temperature", "unit": "°C"},
    "hood_draft": {"name": "Kiln hood draft", "unit": "Pa"},
    "bz_temp": {"name": "Burning zone temperature", "unit": "°C"},
    "shell_temp": {"name": "Kiln shell maximum temperature", "unit": "°C"},
    "burner_coal": {"name": "Main burner coal feed", "unit": "t/h"},
    "calciner_coal": {"name": "Calciner coal feed", "unit": "t/h"},
    "ta_temp": {"name": "Tertiary air temperature", "unit": "°C"},
    "sa_temp": {"name": "Secondary air temperature", "unit": "°C"},
    "grate_speed": {"name": "Cooler grate speed", "unit": "strokes/min", "writable": True,
                    "min": 4, "max": 25},
    "cooler_fan1": {"name": "Clinker cooler fan 1", "type": "bool", "writable": True},
    "free_lime": {"name": "Clinker free lime", "unit": "%"},
    "nox": {"name": "Stack NOx", "unit": "mg/Nm3"},
}}))

COLD = Router(exec_devices("coldstore9", {"plant": {
    "comp1": {"name": "Screw compressor 1", "type": "bool", "writable": True},
    "comp2": {"name": "Screw compressor 2", "type": "bool", "writable": True},
    "comp1_slide": {"name": "Compressor 1 slide valve position", "unit": "%"},
    "suction_p": {"name": "Suction pressure", "unit": "bar"},
    "suction_sp": {"name": "Suction pressure setpoint", "unit": "bar", "writable": True,
                   "min": 0.2, "max": 3},
    "cond_p": {"name": "Condensing pressure", "unit": "bar"},
    "evap_temp": {"name": "Evaporating temperature", "unit": "°C"},
    "superheat": {"name": "Compressor 1 suction superheat", "unit": "K"},
    "receiver": {"name": "HP receiver level", "unit": "%"},
    "surge": {"name": "Surge drum level", "unit": "%"},
    "room1_temp": {"name": "Cold room 1 temperature", "unit": "°C"},
    "room2_temp": {"name": "Cold room 2 temperature", "unit": "°C"},
    "room1_sp": {"name": "Cold room 1 setpoint", "unit": "°C", "writable": True,
                 "min": -30, "max": 5},
    "room2_sp": {"name": "Cold room 2 setpoint", "unit": "°C", "writable": True,
                 "min": -30, "max": 5},
    "uc1_defrost": {"name": "Unit cooler 1 hot gas defrost", "type": "bool", "writable": True},
    "uc2_defrost": {"name": "Unit cooler 2 hot gas defrost", "type": "bool", "writable": True},
    "blast_temp": {"name": "Blast freezer temperature", "unit": "°C"},
    "dock_door": {"name": "Dock door", "type": "bool", "writable": True},
    "nh3": {"name": "Ammonia leak detector", "unit": "ppm"},
}}))

FISH = Router(exec_devices("ras2", {"farm": {
    "tank1_do": {"name": "Tank 1 dissolved oxygen", "unit": "mg/L"},
    "tank2_do": {"name": "Tank 2 dissolved oxygen", "unit": "mg/L"},
    "sump": {"name": "Sump level", "unit": "cm"},
    "drum": {"name": "Drum filter running", "type": "bool", "writable": True},
    "mbbr_flow": {"name": "MBBR flow", "unit": "m3/h"},
    "co2": {"name": "Dissolved CO2", "unit": "mg/L"},
    "cone_o2": {"name": "Oxygen cone pure oxygen flow", "unit": "L/min"},
    "orp": {"name": "ORP", "unit": "mV"},
    "ozone": {"name": "Ozone generator output", "unit": "%", "writable": True,
              "min": 0, "max": 100},
    "uv": {"name": "UV steriliser", "type": "bool", "writable": True},
    "tan": {"name": "Total ammonia nitrogen", "unit": "mg/L"},
    "nitrite": {"name": "Nitrite", "unit": "mg/L"},
    "nitrate": {"name": "Nitrate", "unit": "mg/L"},
    "alk": {"name": "Alkalinity", "unit": "mg/L"},
    "salinity": {"name": "Salinity", "unit": "ppt"},
    "cond": {"name": "Conductivity", "unit": "uS/cm"},
    "feeder1": {"name": "Tank 1 feeder", "type": "bool", "writable": True},
    "ration1": {"name": "Tank 1 daily feed ration", "unit": "kg", "writable": True,
                "min": 0, "max": 200},
    "biomass1": {"name": "Tank 1 biomass", "unit": "kg"},
    "density1": {"name": "Tank 1 stocking density", "unit": "kg/m3"},
}}))


@pytest.mark.parametrize(("router", "text", "point"), [
    (CEMENT, "生料磨在运行吗", "raw_mill"),
    (CEMENT, "入窑生料喂料量", "kiln_feed"),
    (CEMENT, "kiln feed", "kiln_feed"),
    (CEMENT, "四级旋风筒出口温度", "c4_temp"),
    (CEMENT, "C1 outlet temp", "c1_temp"),
    (CEMENT, "四级旋风筒锥部负压", "c4_draft"),
    (CEMENT, "分解炉出口温度", "calciner_temp"),
    (CEMENT, "precalciner outlet temp", "calciner_temp"),
    (CEMENT, "窑尾温度", "inlet_temp"),
    (CEMENT, "窑头负压", "hood_draft"),
    (CEMENT, "firing hood draft", "hood_draft"),
    (CEMENT, "烧成带温度", "bz_temp"),
    (CEMENT, "窑筒体温度", "shell_temp"),
    (CEMENT, "shell scanner max", "shell_temp"),
    (CEMENT, "主燃烧器喂煤量", "burner_coal"),
    (CEMENT, "头煤", "burner_coal"),
    (CEMENT, "分解炉喂煤量", "calciner_coal"),
    (CEMENT, "calciner fuel rate", "calciner_coal"),
    (CEMENT, "三次风温度", "ta_temp"),
    (CEMENT, "二次风温", "sa_temp"),
    (CEMENT, "篦速", "grate_speed"),
    (CEMENT, "篦冷机速度", "grate_speed"),
    (CEMENT, "grate cooler speed", "grate_speed"),
    (CEMENT, "游离钙", "free_lime"),
    (CEMENT, "f-CaO", "free_lime"),
    (CEMENT, "氮氧化物", "nox"),
    (COLD, "吸气压力", "suction_p"),
    (COLD, "低压压力多少", "suction_p"),
    (COLD, "冷凝压力", "cond_p"),
    (COLD, "高压压力", "cond_p"),
    (COLD, "head pressure", "cond_p"),
    (COLD, "蒸发温度", "evap_temp"),
    (COLD, "SST", "evap_temp"),
    (COLD, "1号压缩机滑阀位置", "comp1_slide"),
    (COLD, "过热度", "superheat"),
    (COLD, "高压贮液器液位", "receiver"),
    (COLD, "低压循环桶液位", "surge"),
    (COLD, "pumper drum level", "surge"),
    (COLD, "一号库温度", "room1_temp"),
    (COLD, "2号冷库温度", "room2_temp"),
    (COLD, "一号冷藏间温度", "room1_temp"),
    (COLD, "速冻库温度", "blast_temp"),
    (COLD, "冻结间温度", "blast_temp"),
    (COLD, "氨浓度", "nh3"),
    (COLD, "漏氨多少ppm", "nh3"),
    (COLD, "NH3 leak ppm", "nh3"),
    (FISH, "一号池溶氧", "tank1_do"),
    (FISH, "2号池溶解氧", "tank2_do"),
    (FISH, "DO in tank 2", "tank2_do"),
    (FISH, "集水池液位", "sump"),
    (FISH, "微滤机在运行吗", "drum"),
    (FISH, "生物滤池流量", "mbbr_flow"),
    (FISH, "moving bed biofilter flow", "mbbr_flow"),
    (FISH, "二氧化碳", "co2"),
    (FISH, "氧锥纯氧流量", "cone_o2"),
    (FISH, "LOX flow to the cone", "cone_o2"),
    (FISH, "氧化还原电位", "orp"),
    (FISH, "氨氮", "tan"),
    (FISH, "TAN", "tan"),
    (FISH, "亚硝酸盐", "nitrite"),
    (FISH, "nitrite", "nitrite"),
    (FISH, "硝酸盐", "nitrate"),
    (FISH, "碱度", "alk"),
    (FISH, "盐度", "salinity"),
    (FISH, "电导率", "cond"),
    (FISH, "一号池日投喂量", "ration1"),
    (FISH, "一号池生物量", "biomass1"),
    (FISH, "养殖密度", "density1"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (CEMENT, "篦速设为12次/分", {"point": "grate_speed", "value": 12}),
    (CEMENT, "set grate speed to 14 strokes/min", {"point": "grate_speed", "value": 14}),
    (CEMENT, "入窑生料设定到280", {"point": "kiln_feed_sp", "value": 280}),
    (CEMENT, "启动1号篦冷机风机", {"point": "cooler_fan1", "value": True}),
    (COLD, "把一号库设定温度调到零下十八度", {"point": "room1_sp", "value": -18}),
    (COLD, "2号库温度设定为零下二十度", {"point": "room2_sp", "value": -20}),
    (COLD, "启动1号冷风机热氨融霜", {"point": "uc1_defrost", "value": True}),
    (COLD, "start hot gas defrost on unit cooler 2", {"point": "uc2_defrost", "value": True}),
    (COLD, "打开月台门", {"point": "dock_door", "value": True}),
    (COLD, "启动2号螺杆机", {"point": "comp2", "value": True}),
    (FISH, "启动微滤机", {"point": "drum", "value": True}),
    (FISH, "臭氧发生器输出调到30", {"point": "ozone", "value": 30}),
    (FISH, "打开紫外", {"point": "uv", "value": True}),
    (FISH, "停止一号池投饵机", {"point": "feeder1", "value": False}),
    (FISH, "把一号池日投喂量设为25", {"point": "ration1", "value": 25}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("router", "text", "wrong"), [
    (CEMENT, "篦冷机出口温度", "calciner_temp"),  # the grate cooler is no calciner
    (CEMENT, "grate cooler outlet temperature", "calciner_temp"),
    (CEMENT, "熟料温度", "calciner_temp"),
    (CEMENT, "分解炉喂煤量", "burner_coal"),
    (COLD, "一号库温度", "room2_temp"),  # 库 of 一号库 is room 1, not any room
    (COLD, "一号库设定温度", "room2_sp"),
    (COLD, "启动2号冷风机热氨融霜", "uc1_defrost"),
    (FISH, "亚硝酸盐", "nitrate"),  # nitrite is no nitrate
    (FISH, "盐度", "cond"),
    (FISH, "一号池溶氧", "tank2_do"),
])
async def test_a_near_neighbour_is_not_taken(router: Router, text: str, wrong: str) -> None:
    action = await routed_without_model(router, text)
    assert action.args.get("point") != wrong, (text, action)


@pytest.mark.parametrize(("text", "want"), [
    ("篦冷机", {"thing.grate_cooler"}),
    ("分解炉", {"thing.calciner"}),
    ("窑头罩", {"thing.kiln_hood"}),
    ("三次风管", {"thing.tertiary_air_duct"}),
    ("入窑生料", {"medium.raw_meal"}),
    ("熟料", {"medium.clinker"}),
    ("篦速", {"quantity.grate_speed"}),
    ("冷风机", {"thing.evaporator_refrigeration"}),
    ("低压循环桶", {"thing.surge_drum"}),
    ("油分离器", {"thing.oil_separator"}),
    ("热氨冲霜", {"thing.hot_gas_defrost"}),
    ("冻结间", {"thing.blast_freezer"}),
    ("冷藏库", {"thing.chill_room"}),
    ("微滤机", {"thing.drum_screen"}),
    ("移动床生物膜反应器", {"thing.biofilter"}),
    ("CO2 stripper", {"thing.co2_stripper"}),
    ("亚硝酸盐氮", {"quantity.nitrite"}),
    ("非离子氨", {"quantity.free_ammonia"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


@pytest.mark.parametrize(("text", "unwanted"), [
    ("篦冷机", "thing.calciner"),  # no longer one concept with the calciner
    ("篦冷机", "thing.furnace"),
    ("水泥磨", "thing.kiln_cement"),
    ("亚硝酸盐", "quantity.nitrate"),
    ("盐度", "quantity.conductivity"),
])
def test_the_split_concepts_stay_apart(text: str, unwanted: str) -> None:
    lexicon_ids = {m.concept.id for m in concepts_of_text(text)}
    assert unwanted not in lexicon_ids, (text, lexicon_ids)
