"""Blind batches 57-59, on plants of my own:
- 设定 after a quantity, before a verb of change (温度设定改成30度), is the setting changed,
  not a second "set";
- 池 is a pool as well as a basin (休闲池, 主池), and 螺旋 is "spiral";
- 开到 opens a position to a value ("风门开到40%");
- "done" after a question's subject ("how many cycles has press 2 done") names no point;
- "genny" is a generator; 低压 is low pressure as well as low voltage; 活性碳 is activated
  carbon and 碳床 a carbon bed (碳 alone is no activated carbon, 超温 no high temperature, 内
  no "in", and "inside the" stays a word: review atk59b);
- yes or no asked with no quantity ("are the sieves regenerating") is an on/off point's to answer,
  not a number's whose description names the state;
- 精馏塔 is a rectifying column and 醪塔 a beer column, each a column of its own;
- "FV2" of a plant whose fermenter 2 is named in full, and whose fermenter 1 is "FV1": the
  same machine, no unknown one;
- 轴流 axial, 可变 variable, 限速牌 a speed limit sign, 隧道 tunnel, 风阀 damper, 里/内 in;
- a number written onto "to-"/"at-"/"of-" ("to-20", "(to-5)", "go-to-3") is unreadable,
  neither +20 (773f75b had written it) nor a guessed -20 (reviews atk59, atk59b, atk59c);
- 开到位/关到位 are the open and closed limits, and a command cut off after 开到 sets nothing;
- 池 alone, with no quantity, does not say which of a pool and a reservoir (review atk59);
- luminance is not added to the light levels: as one quantity with illuminance it wrote a
  luminance setpoint for "lux" (review atk59c), and as a quantity of its own it left
  illuminance to a display's brightness in % (review atk59d): both are withdrawn;
- "set the speed to 1.5", a quantity said alone where points of other things have it too, is
  asked back, however few of them can be written (blind batch 60's unasked write);
- "get the skimmer going on the DAF": where it is, after "going", keeps it a start;
- 回水 (return water) is not explained by a point of the medium's supply, nor 供水 by its
  return: the end is part of what the word says (blind batch 60's 冷却水回水温度 had read
  the supply temperature); 工艺 process, 防火卷帘 fire shutter, 转盘 carousel, 片冰机;
- a stop word written in capitals onto a number is a tag's letters ("AT-101" of an analyser,
  "BE-2" of a bucket elevator), no preposition or verb: read and written as the tag, and
  unknown when the plant has no such tag.
"""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

SPA_CONFIG = exec_plant("spa", {
    "kids_temp": {"name": "Kids pool water temperature", "unit": "°C"},
    "kids_sp": {"name": "Kids pool temperature setpoint", "unit": "°C", "writable": True,
                "min": 20, "max": 34},
    "lap_temp": {"name": "Lap pool water temperature", "unit": "°C"},
    "lap_sp": {"name": "Lap pool temperature setpoint", "unit": "°C", "writable": True,
               "min": 20, "max": 34},
    "tunnel_air": {"name": "Spiral proofer air temperature", "unit": "°C"},
    "tunnel_sp": {"name": "Spiral proofer air temperature setpoint", "unit": "°C",
                  "writable": True, "min": 20, "max": 45},
    "flue_damper": {"name": "Boiler flue damper position", "unit": "%", "writable": True,
                    "min": 0, "max": 100},
    "boiler_run": {"name": "Boiler enable", "type": "bool", "writable": True},
})
SPA = Router(SPA_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    ("把儿童池温度设定改成30度", {"name": "write", "args": {"point": "kids_sp", "value": 30}}),
    ("把儿童池温度设定调到28度", {"name": "write", "args": {"point": "kids_sp", "value": 28}}),
    ("螺旋醒发箱空气温度设定改成38度",
     {"name": "write", "args": {"point": "tunnel_sp", "value": 38}}),
    ("螺旋醒发箱空气温度多少", {"name": "read", "args": {"point": "tunnel_air"}}),
    ("锅炉烟道风门开到40%", {"name": "write", "args": {"point": "flue_damper", "value": 40}}),
    ("儿童池温度设定是多少", {"name": "read", "args": {"point": "kids_sp"}}),
])
async def test_chinese_settings_pools_and_positions(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(SPA, text)
    assert action.to_dict() == expect


@pytest.mark.parametrize("text", [
    "池水温度多少",  # which pool is not said: two are named so
    "把池温度设定改成30度",
])
async def test_what_chinese_leaves_open_is_not_placed(text: str) -> None:
    action = await routed_without_model(SPA, text)
    assert action.name == "respond", action


GRAIN_CONFIG = exec_plant("grain", {
    "be2_run": {"name": "Bucket elevator 2 run", "aliases": ["BE-2"], "type": "bool",
                "writable": True},
    "be2_amps": {"name": "Bucket elevator 2 motor current", "aliases": ["BE-2 amps"],
                 "unit": "A"},
    "be1_amps": {"name": "Bucket elevator 1 motor current", "unit": "A"},
    "moisture": {"name": "Dryer outlet moisture", "aliases": ["AT-102"], "unit": "%"},
    "fan_speed": {"name": "Aeration fan speed", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
})
GRAIN = Router(GRAIN_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    ("stop BE-2", {"name": "write", "args": {"point": "be2_run", "value": False}}),
    ("shut down BE2", {"name": "write", "args": {"point": "be2_run", "value": False}}),
    ("BE-2 amps", {"name": "read", "args": {"point": "be2_amps"}}),
    ("AT-102?", {"name": "read", "args": {"point": "moisture"}}),
    ("what's AT-102 reading", {"name": "read", "args": {"point": "moisture"}}),
    ("set the aeration fan speed at 40", {"name": "write",
                                          "args": {"point": "fan_speed", "value": 40}}),
])
async def test_a_tag_of_a_stop_word_in_capitals(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(GRAIN, text)
    assert action.to_dict() == expect


async def test_a_tag_the_plant_lacks_is_unknown() -> None:
    action = await routed_without_model(GRAIN, "what's AT-103 reading")
    assert action.name == "respond" and action.args["reason"] == "unknown_point", action
    assert "AT 103" in action.args.get("asked", ""), action
    action = await routed_without_model(GRAIN, "start BE-3")
    assert action.name == "respond", action


DEPOT_CONFIG = exec_plant("depot", {
    "p7_run": {"name": "Booster pump P-7", "type": "bool", "writable": True},
    "p7_press": {"name": "Booster pump P-7 discharge pressure", "unit": "bar"},
    "p9_flush": {"name": "P-9 seal flush valve", "type": "bool", "writable": True},
    "dose_preset": {"name": "Tank 4 fill preset", "unit": "L", "writable": True,
                    "min": 0, "max": 50000},
    "ward_air": {"name": "Medical air pressure", "unit": "kPa"},
    "ward_vac": {"name": "Medical vacuum pressure", "unit": "kPa"},
    "gen2_test": {"name": "Generator 2 test run", "type": "bool", "writable": True},
    "gen2_run": {"name": "Generator 2 running", "type": "bool"},
    "hoist1_speed": {"name": "Crane 1 hoist speed", "unit": "m/min", "writable": True,
                     "min": 0, "max": 12},
    "heat_sp": {"name": "Heating water supply setpoint", "unit": "°C", "writable": True,
                "min": 40, "max": 85},
    "heat_temp": {"name": "Heating water supply temperature", "unit": "°C"},
})
DEPOT = Router(DEPOT_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    ("stop pump 7", {"name": "write", "args": {"point": "p7_run", "value": False}}),
    ("stop P-7", {"name": "write", "args": {"point": "p7_run", "value": False}}),
    ("pump 7 discharge pressure", {"name": "read", "args": {"point": "p7_press"}}),
    ("把4号罐预设量设为两万升", {"name": "write",
                                  "args": {"point": "dose_preset", "value": 20000}}),
    ("医用空气压力是多少", {"name": "read", "args": {"point": "ward_air"}}),
    ("启动2号发电机试车", {"name": "write", "args": {"point": "gen2_test", "value": True}}),
    ("1号行车起升速度设为6", {"name": "write", "args": {"point": "hoist1_speed", "value": 6}}),
    ("把采暖水供水温度设定为七十度", {"name": "write", "args": {"point": "heat_sp", "value": 70}}),
])
async def test_tags_inside_names_and_chinese_words(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(DEPOT, text)
    assert action.to_dict() == expect


@pytest.mark.parametrize("text", [
    "stop pump 8",  # no such pump
    "open P-9",  # its seal flush valve is a part of the pump, not the pump
    "stop P-9",
    "把4号罐预设量升两千升",  # 升 before the number raises by it; litres only after one
    "4号罐预设量降2000升",
])
async def test_what_tags_and_litres_leave_open_writes_nothing(text: str) -> None:
    action = await routed_without_model(DEPOT, text)
    assert action.name == "respond", action


PLATING_CONFIG = exec_plant("plating", {
    "press2_cycles": {"name": "Press 2 cycle counter", "unit": "cycles"},
    "press2_speed": {"name": "Press 2 stroke rate", "unit": "spm", "writable": True,
                     "min": 0, "max": 40},
    "gen3_run": {"name": "Standby generator 3 running", "type": "bool"},
    "n2_low": {"name": "Nitrogen low pressure alarm", "type": "bool"},
    "n2_press": {"name": "Nitrogen header pressure", "unit": "bar"},
    "dryer_hi": {"name": "Dryer high temperature alarm", "type": "bool"},
    "dryer_temp": {"name": "Dryer temperature", "unit": "°C"},
    "bed_temp": {"name": "Scrubber carbon bed temperature", "unit": "°C"},
})
PLATING = Router(PLATING_CONFIG)


@pytest.mark.parametrize(("text", "point"), [
    ("how many cycles has press 2 done", "press2_cycles"),
    ("is genny 3 running", "gen3_run"),
    ("氮气低压报警了吗", "n2_low"),
    ("烘干机高温报警了吗", "dryer_hi"),
    ("洗涤塔碳床温度是多少", "bed_temp"),
])
async def test_words_of_a_question(text: str, point: str) -> None:
    action = await routed_without_model(PLATING, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


@pytest.mark.parametrize("text", ["how many cycles has press 4 done", "is genny 2 running"])
async def test_what_the_plant_lacks_is_not_read(text: str) -> None:
    action = await routed_without_model(PLATING, text)
    assert action.name == "respond", action


STILL_CONFIG = exec_plant("still", {
    "regen": {"name": "Sieve regeneration active", "type": "bool"},
    "bed_press": {"name": "Sieve bed pressure", "unit": "bar",
                  "description": "Falls below zero during regeneration"},
    "rect_top": {"name": "Rectifier top temperature", "unit": "°C"},
    "beer_top": {"name": "Beer column top temperature", "unit": "°C"},
    "fv1_temp": {"name": "Fermenter 1 temperature", "aliases": ["FV1 temp"], "unit": "°C"},
    "fv2_temp": {"name": "Fermenter 2 temperature", "unit": "°C"},
    "fv2_sp": {"name": "Fermenter 2 temperature setpoint", "unit": "°C", "writable": True,
               "min": 25, "max": 38},
    "exhaust_sp": {"name": "Axial exhaust fan speed setpoint", "unit": "%", "writable": True,
                   "min": 0, "max": 100},
    "vsl": {"name": "Variable speed limit sign", "unit": "km/h", "writable": True,
            "min": 20, "max": 100},
    "fa_damper": {"name": "Tunnel 2 fresh air damper", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "tunnel_co": {"name": "Tunnel CO concentration", "unit": "ppm"},
    "portal_lum": {"name": "South portal threshold luminance", "unit": "cd/m²"},
    "lux_sp": {"name": "Workshop lux setpoint", "unit": "lx", "writable": True,
               "min": 100, "max": 1000},
})
STILL = Router(STILL_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    # (a plural read of both, the bed's pressure too, before)
    ("are the sieves regenerating", {"name": "read", "args": {"point": "regen"}}),
    ("are the sieves in regeneration", {"name": "read", "args": {"point": "regen"}}),
    ("what's the sieve bed pressure", {"name": "read", "args": {"point": "bed_press"}}),
    ("精馏塔塔顶温度是多少", {"name": "read", "args": {"point": "rect_top"}}),
    ("醪塔塔顶温度是多少", {"name": "read", "args": {"point": "beer_top"}}),
    ("what temperature is FV2 set for", {"name": "read", "args": {"point": "fv2_sp"}}),
    ("FV2 temp", {"name": "read", "args": {"point": "fv2_temp"}}),
    ("轴流排风机转速设定调到百分之六十", {"name": "write",
                                        "args": {"point": "exhaust_sp", "value": 60}}),
    ("把可变限速牌改成80公里每小时", {"name": "write", "args": {"point": "vsl", "value": 80}}),
    ("2号隧道新风阀开到20%", {"name": "write", "args": {"point": "fa_damper", "value": 20}}),
    ("隧道里一氧化碳浓度多少", {"name": "read", "args": {"point": "tunnel_co"}}),
])
async def test_states_columns_and_words_of_tunnels(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(STILL, text)
    assert action.to_dict() == expect


@pytest.mark.parametrize("text", ["FV3 temp", "what temperature is FV3 set for",
                                  "3号隧道新风阀开到20%"])
async def test_a_number_the_plant_lacks_stays_unknown(text: str) -> None:
    action = await routed_without_model(STILL, text)
    assert action.name == "respond", action


BASIN_CONFIG = exec_plant("basin", {
    "pool_sp": {"name": "Main pool temperature setpoint", "unit": "°C", "writable": True,
                "min": 20, "max": 34},
    "pool_temp": {"name": "Main pool temperature", "unit": "°C"},
    "res_inlet": {"name": "Reservoir inlet valve position", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "v1_open": {"name": "Valve 1 open command", "type": "bool", "writable": True},
    "v1_lim": {"name": "Valve 1 open limit", "type": "bool"},
    "v1_closed": {"name": "Valve 1 closed limit", "type": "bool"},
    "p3_run": {"name": "Pump 3 run", "type": "bool", "writable": True},
    "p3_speed": {"name": "Pump 3 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "freezer_sp": {"name": "Freezer 2 temperature setpoint", "unit": "°C", "writable": True,
                   "min": -40, "max": 10},
    "med_air": {"name": "Medical air pressure", "unit": "kPa"},
    "ba_comp": {"name": "Breathing air compressor run", "type": "bool", "writable": True},
})
BASIN = Router(BASIN_CONFIG)


@pytest.mark.parametrize("text", [
    "池设定改成30", "池设定调到30", "池设定设为30",  # which 池: the pool or the reservoir
    "3号泵开到", "3号泵开到。",  # cut off before its value
    "1号阀开到位",  # the open limit, said: no command to open
    "SET FREEZER 2 SETPOINT TO-20",  # "TO-20" in capitals may be a tag's
    "set freezer 2 setpoint to-20", "set freezer 2 setpoint at-20",  # a minus, or a hyphen?
    "SET PUMP 3 SPEED TO50",  # a capital stop word glued to a number is a tag's (atk59b)
    "START PUMP TO3",  # ...never a speed of 3 % (atk59b)
])
async def test_what_review_atk59_found_written_is_not(text: str) -> None:
    action = await routed_without_model(BASIN, text)
    assert action.name != "write", action


@pytest.mark.parametrize(("text", "expect"), [
    ("set freezer 2 setpoint to -20", {"name": "write",
                                       "args": {"point": "freezer_sp", "value": -20}}),
    ("1号阀开到位了吗", {"name": "read", "args": {"point": "v1_lim"}}),
    ("1号阀关到位了吗", {"name": "read", "args": {"point": "v1_closed"}}),
    ("3号泵开到50", {"name": "write", "args": {"point": "p3_speed", "value": 50}}),
    ("池温度设定设为28", {"name": "write", "args": {"point": "pool_sp", "value": 28}}),
    ("医用空气压力是多少", {"name": "read", "args": {"point": "med_air"}}),
])
async def test_what_review_atk59_kept(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(BASIN, text)
    assert action.to_dict() == expect


async def test_breathing_air_is_no_medical_air() -> None:
    action = await routed_without_model(BASIN, "呼吸空气压力")
    assert action.to_dict() != {"name": "read", "args": {"point": "med_air"}}, action


RECYCLE_CONFIG = exec_plant("recycle", {
    "ir1": {"name": "Internal recycle pump 1", "type": "bool", "writable": True},
    "ras1": {"name": "Return sludge pump 1", "type": "bool", "writable": True},
    "ras1_speed": {"name": "Return sludge pump 1 speed", "unit": "%", "writable": True,
                   "min": 0, "max": 100},
    "oven_sp": {"name": "Oven temperature setpoint", "unit": "°C", "writable": True,
                "min": 0, "max": 300},
    "oven_trip": {"name": "Oven over temperature trip", "type": "bool"},
    "oven_temp": {"name": "Oven temperature", "unit": "°C"},
    "inside_sp": {"name": "Inside temperature setpoint", "unit": "°C", "writable": True,
                  "min": -10, "max": 30},
    "room_sp": {"name": "Cold room setpoint", "unit": "°C", "writable": True,
                "min": -30, "max": 15},
    "step": {"name": "Sequence step", "type": "int", "writable": True, "min": -5, "max": 20},
    "v5": {"name": "Valve 5 position", "unit": "%", "writable": True, "min": 0, "max": 100},
    "v6": {"name": "Valve 6 open", "type": "bool", "writable": True},
})
RECYCLE = Router(RECYCLE_CONFIG)


@pytest.mark.parametrize("text", [
    "启动1号内回流泵",  # 内 (internal) tells the recycles apart: never "in"
    "1号内回流泵速度设为60",
    "超温设定设为280",  # the trip's limit is no process setpoint
    "烤炉过温设定设为280",  # ...nor is 过温's (review atk59c)
    "烤炉过热设定设为280",  # ...nor 过热's (review atk59d)
    "set the temperature inside the building to 22",  # "inside" names the inside setpoint
    "is the valve open",  # which valve: a position answers as well as a bit
    "sequence go-to-3", "set the sequence step (to-3)", "set sequence step,to-3",  # (atk59c)
    "set sequence step of-3", "set sequence step tO-3", "set sequence step into-3",  # (atk59d)
])
async def test_what_review_atk59b_found_written_or_read_is_not(text: str) -> None:
    action = await routed_without_model(RECYCLE, text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "expect"), [
    ("are all valves open", {"name": "read", "args": {"points": ["v5", "v6"]}}),
    ("set sequence step to 3", {"name": "write", "args": {"point": "step", "value": 3}}),
])
async def test_what_review_atk59b_kept(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(RECYCLE, text)
    assert action.to_dict() == expect


BAGGAGE_CONFIG = exec_plant("baggage", {
    "belt_a_speed": {"name": "Check-in row A collector belt speed", "unit": "m/s"},
    "belt_b_speed": {"name": "Check-in row B collector belt speed", "unit": "m/s"},
    "loop_speed_sp": {"name": "Sorter loop speed setpoint", "unit": "m/s", "writable": True,
                      "min": 0.5, "max": 2.5},
    "skimmer": {"name": "Flotation skimmer", "type": "bool", "writable": True},
    "air_sp": {"name": "Compressor air pressure setpoint", "unit": "bar", "writable": True,
               "min": 5, "max": 9},
    "steam_sp": {"name": "Boiler steam pressure setpoint", "unit": "bar", "writable": True,
                 "min": 2, "max": 12},
    "plant_temp_sp": {"name": "Temperature setpoint", "unit": "°C", "writable": True,
                      "min": 10, "max": 30},
})
BAGGAGE = Router(BAGGAGE_CONFIG)


@pytest.mark.parametrize("text", ["set the speed to 1.5", "speed 1.5 m/s", "speed to 2",
                                  "set the pressure setpoint to 3"])
async def test_a_quantity_of_several_things_said_alone_is_asked(text: str) -> None:
    action = await routed_without_model(BAGGAGE, text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "expect"), [
    ("set the sorter loop speed to 1.5", {"name": "write",
                                          "args": {"point": "loop_speed_sp", "value": 1.5}}),
    ("set the temperature to 21", {"name": "write",
                                   "args": {"point": "plant_temp_sp", "value": 21}}),
    ("set the speed setpoint to 1.5", {"name": "write",  # the one speed setpoint
                                       "args": {"point": "loop_speed_sp", "value": 1.5}}),
    ("get the skimmer going on the flotation unit", {"name": "write",
                                                     "args": {"point": "skimmer", "value": True}}),
])
async def test_what_says_which_is_written(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(BAGGAGE, text)
    assert action.to_dict() == expect


FAB_CONFIG = exec_plant("fab", {
    "cw_supply": {"name": "PCW supply temperature",
                  "aliases": ["process cooling water supply temp"], "unit": "°C"},
    "cw_return": {"name": "PCW return temperature", "unit": "°C"},
    "shutter2": {"name": "Fire shutter 2 closed", "type": "bool"},
    "carousel3": {"name": "Reclaim carousel 3", "type": "bool", "writable": True},
    "ice1": {"name": "Flake ice machine 1", "type": "bool", "writable": True},
    "pw_temp": {"name": "Process water temperature", "unit": "°C"},
})
FAB = Router(FAB_CONFIG)


@pytest.mark.parametrize("text", ["冷却水回水温度", "冷却水回水温度是多少"])
async def test_return_water_is_no_supply(text: str) -> None:
    action = await routed_without_model(FAB, text)
    assert action.to_dict() != {"name": "read", "args": {"point": "cw_supply"}}, action


@pytest.mark.parametrize(("text", "expect"), [
    ("2号防火卷帘关了吗", {"name": "read", "args": {"point": "shutter2"}}),
    ("启动3号转盘", {"name": "write", "args": {"point": "carousel3", "value": True}}),
    ("打开1号片冰机", {"name": "write", "args": {"point": "ice1", "value": True}}),
    ("工艺水温度多少", {"name": "read", "args": {"point": "pw_temp"}}),
])
async def test_chinese_words_of_fabs_and_airports(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(FAB, text)
    assert action.to_dict() == expect


@pytest.mark.parametrize("text", ["set the portal luminance to 200", "set the luminance to 200"])
async def test_luminance_is_no_illuminance(text: str) -> None:
    action = await routed_without_model(STILL, text)
    assert action.name != "write", action


async def test_where_a_thing_is_going_is_said_with_its_article() -> None:
    action = await routed_without_model(BAGGAGE, "get the skimmer going in reverse")
    assert action.name != "write", action
