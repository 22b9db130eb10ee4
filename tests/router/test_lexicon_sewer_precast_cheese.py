"""The lexicon's words of sewage collection networks, precast concrete factories and cheese
making: Chinese and English commands about English-named points of those trades, on plants
written here with near neighbours (a pump's cut-in and cut-out levels beside the wet well's, the
rising main's pressure beside a pump's delivery pressure, a CSO's spill count beside its spill
duration, two curing chambers, the crane's hook load beside its travel speed, a starter tank
beside a whey tank, two ripening rooms), and the words they share with other trades (a fruit
ripening room, an asphalt plant's cold feed bin, a cheese vat, an intake pump) still meaning what
they meant there."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, routed_without_model

SEWER = Router(exec_devices("sewer", {"station": {
    "ww_level": {"name": "Wet well level", "unit": "m"},
    "ww_hl": {"name": "Wet well high level alarm", "type": "bool"},
    "start_lvl": {"name": "Duty pump cut-in level", "unit": "m", "writable": True,
                  "min": 0.5, "max": 4},
    "stop_lvl": {"name": "Duty pump cut-out level", "unit": "m", "writable": True,
                 "min": 0.2, "max": 3},
    "p1": {"name": "Pump 1 running", "type": "bool", "writable": True},
    "p2": {"name": "Pump 2 running", "type": "bool", "writable": True},
    "p1_dp": {"name": "Pump 1 delivery pressure", "unit": "bar"},
    "rm_p": {"name": "Rising main pressure", "unit": "bar"},
    "trunk": {"name": "Trunk sewer level", "unit": "m"},
    "cso_level": {"name": "CSO 3 level", "unit": "m"},
    "cso_spills": {"name": "CSO 3 spill count"},
    "cso_hours": {"name": "CSO 3 spill duration", "unit": "h"},
    "cso_spilling": {"name": "CSO 3 spilling", "type": "bool"},
    "storm_tank": {"name": "Storm tank level", "unit": "%"},
    "penstock": {"name": "Inlet penstock open", "type": "bool", "writable": True},
    "ocu_fan": {"name": "Odour control unit fan running", "type": "bool", "writable": True},
    "vent_fan": {"name": "Ventilation fan running", "type": "bool", "writable": True},
    "h2s": {"name": "Wet well H2S", "unit": "ppm"},
    "sulphide": {"name": "Dissolved sulphide", "unit": "mg/L"},
    "nitrate_pump": {"name": "Nitrate dosing unit pump running", "type": "bool",
                     "writable": True},
    "rain_rate": {"name": "Rainfall intensity", "unit": "mm/h"},
    "rain_day": {"name": "Rainfall today", "unit": "mm"},
    "mains": {"name": "Mains failure", "type": "bool"},
    "gen": {"name": "Standby generator running", "type": "bool"},
    "rtu_batt": {"name": "Telemetry outstation battery voltage", "unit": "V"},
    "panel_v": {"name": "Control panel supply voltage", "unit": "V"},
    "dw_flood": {"name": "Dry well flood alarm", "type": "bool"},
    "flap": {"name": "Outfall flap valve open", "type": "bool"},
}}))

PRECAST = Router(exec_devices("precast", {"plant": {
    "silo1": {"name": "Cement silo 1 level", "unit": "%"},
    "bin1": {"name": "Aggregate bin 1 level", "unit": "%"},
    "bin2": {"name": "Aggregate bin 2 level", "unit": "%"},
    "admix": {"name": "Admixture dose", "unit": "L/m3", "writable": True, "min": 0, "max": 10},
    "water": {"name": "Water dose", "unit": "L/m3", "writable": True, "min": 100, "max": 250},
    "wc": {"name": "Water cement ratio"},
    "mixer_amps": {"name": "Pan mixer current", "unit": "A"},
    "skip_amps": {"name": "Skip hoist motor current", "unit": "A"},
    "mix_time": {"name": "Mixing time setpoint", "unit": "s", "writable": True,
                 "min": 30, "max": 240},
    "slump": {"name": "Slump", "unit": "mm"},
    "cc1_temp": {"name": "Curing chamber 1 temperature", "unit": "°C"},
    "cc2_temp": {"name": "Curing chamber 2 temperature", "unit": "°C"},
    "cc1_rh": {"name": "Curing chamber 1 humidity", "unit": "%"},
    "cure_sp": {"name": "Curing cycle time", "unit": "h", "writable": True, "min": 4, "max": 16},
    "preset": {"name": "Presetting time", "unit": "h", "writable": True, "min": 0, "max": 6},
    "vib_hz": {"name": "Table vibrator frequency", "unit": "Hz", "writable": True,
               "min": 20, "max": 100},
    "tilt": {"name": "Tilting table angle", "unit": "°"},
    "hook": {"name": "Gantry crane hook load", "unit": "t"},
    "crane_speed": {"name": "Gantry crane travel speed", "unit": "m/min"},
    "release": {"name": "Release agent tank level", "unit": "%"},
    "prestress": {"name": "Prestressing force", "unit": "kN"},
    "shutter_robot": {"name": "Shuttering robot running", "type": "bool", "writable": True},
}}))

CHEESE = Router(exec_devices("cheese", {"dairy": {
    "silo1": {"name": "Milk silo 1 level", "unit": "%"},
    "whey_tank": {"name": "Whey tank level", "unit": "%"},
    "ht_temp": {"name": "Pasteuriser holding tube temperature", "unit": "°C"},
    "heat_temp": {"name": "Pasteuriser heating section temperature", "unit": "°C"},
    "fdv": {"name": "Flow diversion valve diverted", "type": "bool"},
    "coag": {"name": "Vat 1 coagulation time", "unit": "min", "writable": True,
             "min": 10, "max": 60},
    "cut": {"name": "Vat 1 cutting time", "unit": "min", "writable": True, "min": 1, "max": 30},
    "stir": {"name": "Vat 1 stirring time", "unit": "min", "writable": True,
             "min": 5, "max": 60},
    "firm": {"name": "Vat 1 curd firmness", "unit": "%"},
    "vat_temp": {"name": "Vat 1 temperature", "unit": "°C"},
    "rennet_pump": {"name": "Rennet dosing pump running", "type": "bool", "writable": True},
    "starter": {"name": "Starter tank level", "unit": "%"},
    "whey_sep": {"name": "Whey separator running", "type": "bool", "writable": True},
    "mill": {"name": "Curd mill speed", "unit": "rpm"},
    "press2": {"name": "Cheese press 2 pressure", "unit": "bar"},
    "press_time": {"name": "Pressing time", "unit": "min", "writable": True,
                   "min": 30, "max": 240},
    "brine_temp": {"name": "Brine bath temperature", "unit": "°C"},
    "brine_time": {"name": "Brining time", "unit": "h", "writable": True, "min": 2, "max": 72},
    "rr1_rh": {"name": "Ripening room 1 humidity", "unit": "%"},
    "rr2_rh": {"name": "Ripening room 2 humidity", "unit": "%"},
    "rr1_temp": {"name": "Ripening room 1 temperature", "unit": "°C"},
    "turner": {"name": "Cheese turner running", "type": "bool", "writable": True},
    "turn_int": {"name": "Turning interval", "unit": "h", "writable": True, "min": 4, "max": 48},
}}))


@pytest.mark.parametrize(("router", "text", "point"), [
    (SEWER, "启泵液位", "start_lvl"),  # (not the wet well's level)
    (SEWER, "停泵液位", "stop_lvl"),
    (SEWER, "压力干管压力", "rm_p"),  # (not pump 1's delivery pressure)
    (SEWER, "force main pressure", "rm_p"),
    (SEWER, "pumping main pressure", "rm_p"),
    (SEWER, "截流干管液位", "trunk"),
    (SEWER, "污水干管液位", "trunk"),
    (SEWER, "interceptor sewer level", "trunk"),
    (SEWER, "3号溢流井溢流次数", "cso_spills"),  # (not its spill duration or level)
    (SEWER, "how many spill events at CSO 3", "cso_spills"),
    (SEWER, "3号溢流井正在溢流吗", "cso_spilling"),
    (SEWER, "降雨强度", "rain_rate"),  # (not today's rainfall)
    (SEWER, "市电失电了吗", "mains"),  # (not the generator)
    (SEWER, "is there a power failure", "mains"),
    (SEWER, "any loss of mains", "mains"),
    (SEWER, "遥测终端电池电压", "rtu_batt"),  # (not the panel's supply)
    (SEWER, "干井报警", "dw_flood"),  # (not the wet well's alarm)
    (SEWER, "拍门开了吗", "flap"),
    (SEWER, "is the duckbill valve open", "flap"),
    (SEWER, "tide flap open?", "flap"),
    (PRECAST, "1号养护窑温度", "cc1_temp"),
    (PRECAST, "2号养护窑温度", "cc2_temp"),
    (PRECAST, "2号养护室温度", "cc2_temp"),
    (PRECAST, "1号养护窑湿度", "cc1_rh"),
    (PRECAST, "curing kiln 2 temp", "cc2_temp"),
    (PRECAST, "steam curing chamber 1 humidity", "cc1_rh"),
    (PRECAST, "吊钩载荷", "hook"),  # (not the crane's travel speed)
    (PRECAST, "行车吊重多少", "hook"),
    (PRECAST, "坍落度", "slump"),
    (PRECAST, "concrete slump", "slump"),
    (PRECAST, "水灰比", "wc"),
    (PRECAST, "水灰比是多少", "wc"),
    (PRECAST, "脱模剂罐液位", "release"),
    (PRECAST, "form oil tank level", "release"),
    (PRECAST, "张拉力", "prestress"),
    (PRECAST, "stressing force", "prestress"),
    (PRECAST, "搅拌主机电流", "mixer_amps"),  # (not the skip hoist's)
    (PRECAST, "twin shaft mixer amps", "mixer_amps"),
    (PRECAST, "2号骨料仓料位", "bin2"),
    (CHEESE, "保持管温度", "ht_temp"),  # (not the heating section's)
    (CHEESE, "转流了吗", "fdv"),
    (CHEESE, "凝乳时间", "coag"),  # (not the cutting or stirring time)
    (CHEESE, "凝乳时间是多少", "coag"),
    (CHEESE, "rennet coagulation time", "coag"),
    (CHEESE, "1号干酪槽切割时间", "cut"),
    (CHEESE, "凝乳硬度", "firm"),
    (CHEESE, "发酵剂罐液位", "starter"),  # (not the whey tank)
    (CHEESE, "bulk starter tank level", "starter"),
    (CHEESE, "凝乳酶计量泵在运行吗", "rennet_pump"),
    (CHEESE, "乳清分离机在运行吗", "whey_sep"),
    (CHEESE, "is the fines saver running", "whey_sep"),
    (CHEESE, "凝块切碎机转速", "mill"),
    (CHEESE, "cheddar mill speed", "mill"),
    (CHEESE, "2号干酪压榨机压力", "press2"),
    (CHEESE, "盐渍池温度", "brine_temp"),
    (CHEESE, "盐渍时间", "brine_time"),
    (CHEESE, "1号成熟室湿度", "rr1_rh"),  # (the other room's is not read for it)
    (CHEESE, "2号成熟室湿度", "rr2_rh"),
    (CHEESE, "maturing room 2 humidity", "rr2_rh"),
    (CHEESE, "奶酪翻转机在运行吗", "turner"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (SEWER, "把停泵液位设为0.8", {"point": "stop_lvl", "value": 0.8}),
    (SEWER, "启泵液位设为2.5", {"point": "start_lvl", "value": 2.5}),
    (PRECAST, "把养护时间设为8", {"point": "cure_sp", "value": 8}),
    (PRECAST, "养护周期设为10", {"point": "cure_sp", "value": 10}),
    (PRECAST, "把附着式振动器频率设为50", {"point": "vib_hz", "value": 50}),
    (PRECAST, "set the form vibrator to 60 Hz", {"point": "vib_hz", "value": 60}),
    (PRECAST, "把外加剂投加量设为3.5", {"point": "admix", "value": 3.5}),
    (PRECAST, "外加剂掺量设为3", {"point": "admix", "value": 3}),
    (PRECAST, "搅拌时间设为90", {"point": "mix_time", "value": 90}),
    (PRECAST, "启动布模机器人", {"point": "shutter_robot", "value": True}),
    (CHEESE, "1号干酪槽凝乳时间设为35", {"point": "coag", "value": 35}),
    (CHEESE, "set the renneting time to 40", {"point": "coag", "value": 40}),
    (CHEESE, "set the clotting time to 40", {"point": "coag", "value": 40}),
    (CHEESE, "切割时间设为10", {"point": "cut", "value": 10}),
    (CHEESE, "启动凝乳酶计量泵", {"point": "rennet_pump", "value": True}),
    (CHEESE, "压榨时间设为90", {"point": "press_time", "value": 90}),
    (CHEESE, "启动翻奶酪机", {"point": "turner", "value": True}),
    (CHEESE, "翻转间隔设为12", {"point": "turn_int", "value": 12}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("router", "text"), [
    (SEWER, "4号溢流井溢流次数"),  # there is no CSO 4
    (SEWER, "把3号溢流井溢流次数设为0"),  # a count, read only
    (PRECAST, "3号养护窑温度"),  # there is no curing chamber 3
    (PRECAST, "what slump do you want for a wall panel"),
    (CHEESE, "成熟室湿度"),  # which of the two rooms?
    (CHEESE, "3号成熟室湿度"),
    (CHEESE, "how do you make cheddar"),
])
async def test_still_refused(router: Router, text: str) -> None:
    action = await routed_without_model(router, text)
    assert action.name == "respond", (text, action)


# the words shared with other trades still mean what they meant there
OTHERS = Router(exec_devices("others", {"plant": {
    "ripen": {"name": "Ripening room 4 pulp temperature", "unit": "°C"},
    "ripen_air": {"name": "Ripening room 4 air temperature", "unit": "°C"},
    "cold_feed": {"name": "Cold feed bin 2 level", "unit": "%"},
    "vat": {"name": "Cheese vat 1 temperature", "unit": "°C"},
    "intake": {"name": "Intake pump speed", "unit": "rpm"},
}}))


@pytest.mark.parametrize(("text", "point"), [
    ("ripening room 4 pulp temperature", "ripen"),  # a banana room is a ripening room too
    ("2号冷料仓料位", "cold_feed"),  # an asphalt plant's aggregate bin
    ("1号干酪槽温度", "vat"),  # the vat is no press, though "cheese press" is said of both
    ("进水泵转速是多少", "intake"),
])
async def test_shared_words_keep_their_other_trades(text: str, point: str) -> None:
    action = await routed_without_model(OTHERS, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("text", "want"), [
    ("启泵液位", {"quantity.start_level"}),
    ("cut-out level", {"quantity.stop_level"}),
    ("3号溢流井溢流次数", {"thing.stormwater_tank", "quantity.spill_count"}),
    ("combined sewer overflow", {"thing.stormwater_tank"}),
    ("OCU fan", {"thing.odour_control_unit", "thing.fan"}),
    ("市电失电", {"state.mains_failure"}),
    ("养护窑温度", {"thing.curing_chamber", "quantity.temperature"}),
    ("aggregate bin", {"thing.aggregate_bin", "thing.cold_feed_bin"}),
    ("ripening room", {"thing.cheese_store", "thing.ripening_room"}),
    ("cheese press", {"thing.cheese_press", "thing.cheese_vat"}),
    ("乳清罐", {"medium.whey", "thing.tank"}),
    ("盐渍池", {"thing.brine_bath"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    """A word shared on purpose ("aggregate bin", "ripening room", "cheese press") is found as
    both of its trades' things; 启泵液位 is one word, a level at which the duty pump starts."""
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)
