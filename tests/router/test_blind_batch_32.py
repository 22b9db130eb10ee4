"""What blind batch 32 (an NPK granulation plant, a battery electrode coating line, an airport
fuel hydrant) found wrong, on plants written here: a number said with another thing than the
point's (the device's word standing in), terse faceplate names ("Pump spd SP", "Oven Z4 temp",
"Cal run") that say less than their neighbours, tags whose letter is their thing's first
("tank T-1"), units said in words ("grams per square metre", "cubes an hour") and a setpoint
asked of a zone that has none. And two older wrong writes of review atk41: a Chinese word of
one medium or thing written to a point of another (给水量 of an ore feed, 冷库 of chilled
water), and a door in "% closing" raised."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import simplified
from hermesd.router.normalize import tokens
from tests.support.plants import exec_devices, exec_plant, model_checked, routed_without_model


async def _routed(router: Router, text: str) -> tuple[str, dict[str, object]]:
    action = await routed_without_model(router, text)
    return action.name, action.args


GRANULATION = Router(exec_devices("npk", {
    "screening": {
        "scrn_1_run": {"name": "SCRN_1_RUN", "type": "bool", "writable": True,
                       "description": "Run command of product screen 1."},
        "scrn_2_run": {"name": "SCRN_2_RUN", "type": "bool", "writable": True,
                       "description": "Run command of product screen 2."},
        "scrn_1_amps": {"name": "SCRN_1_AMPS", "unit": "A",
                        "description": "Motor current of product screen 1's vibrator."},
        "crsh_2_amps": {"name": "CRSH_2_AMPS", "unit": "A",
                        "description": "Motor current of oversize roll crusher 2."},
    },
    "dosing": {
        "nh3_flow": {"name": "NH3_FLOW", "unit": "kg/h",
                     "description": "Ammonia flow to the pipe reactor."},
        "nh3_flow_sp": {"name": "NH3_FLOW_SP", "unit": "kg/h", "writable": True, "min": 0,
                        "max": 3000, "description": "Ammonia flow setpoint."},
        "wash_flow": {"name": "Wash water flow", "unit": "m3/h"},
        "h3po4_flow_sp": {"name": "H3PO4_FLOW_SP", "unit": "m3/h", "writable": True, "min": 0,
                          "max": 40},
        "h2so4_flow": {"name": "H2SO4_FLOW", "unit": "m3/h"},
        "h3po4_flow": {"name": "H3PO4_FLOW", "unit": "m3/h"},
        "coat_oil_sp": {"name": "COAT_OIL_RATE_SP", "unit": "kg/t", "writable": True,
                        "min": 0, "max": 5, "description": "Anti-caking coating oil dose setpoint."},
        "np_ratio": {"name": "NP_MOL_RATIO", "description": "Ammonia to phosphoric acid mole "
                     "ratio in the pipe reactor, from the dosing flows."},
    },
}))


@pytest.mark.parametrize("formula", ["H3PO4", "h2so4", "Ca(OH)2", "H3PO4_FLOW_SP"])
def test_a_formula_of_several_elements_holds_no_number(formula: str) -> None:
    assert not [t for t in tokens(formula) if t.number is not None]


@pytest.mark.parametrize(("text", "action"), [
    ("phos acid flow SP to 22.5 cubes an hour",
     ("write", {"point": "h3po4_flow_sp", "value": 22.5})),
    ("how much sulphuric acid is going in", ("read", {"point": "h2so4_flow"})),
])
async def test_a_tag_written_with_a_formula_is_named_by_it(text: str, action: object) -> None:
    assert await _routed(GRANULATION, text) == action


async def test_a_number_said_with_another_thing_is_not_the_points() -> None:
    """Screen 2 has no current; crusher 2 has, on the device "screening", whose word is no
    "screen 2" of the crusher's."""
    assert await _routed(GRANULATION, "what's the current on screen two") != \
        ("read", {"point": "crsh_2_amps"})
    assert await _routed(GRANULATION, "crusher 2 current") == ("read", {"point": "crsh_2_amps"})
    assert await _routed(GRANULATION, "screen 1 amps") == ("read", {"point": "scrn_1_amps"})


@pytest.mark.parametrize(("text", "value"), [
    ("set the NH3 flow setpoint to eighteen seventy kilos an hour", 1870),
    ("NH3 flow setpoint to 1200 kilograms an hour", 1200),
])
async def test_a_rate_said_in_words_is_its_unit(text: str, value: int) -> None:
    assert await _routed(GRANULATION, text) == ("write", {"point": "nh3_flow_sp", "value": value})


async def test_cubes_an_hour_are_a_flow() -> None:
    assert await _routed(GRANULATION, "how many cubes an hour of wash water") == \
        ("read", {"point": "wash_flow"})


COATER = exec_devices("coater", {
    "coater": {
        "pump_speed": {"name": "Pump spd", "unit": "rpm",
                       "description": "Speed of the slot die's slurry metering pump."},
        "pump_speed_sp": {"name": "Pump spd SP", "unit": "rpm", "writable": True, "min": 0,
                          "max": 120},
        "coat_weight": {"name": "Coat wt", "unit": "g/m²",
                        "description": "Dry areal coating weight, from the beta gauge."},
        "coat_weight_sp": {"name": "Coat wt SP", "unit": "g/m²", "writable": True, "min": 50,
                           "max": 500},
        "oven_z1_temp": {"name": "Oven Z1 temp", "names": {"zh": "一区烘箱温度"}, "unit": "°C"},
        "oven_z2_temp": {"name": "Oven Z2 temp", "names": {"zh": "二区烘箱温度"}, "unit": "°C"},
        "oven_z4_temp": {"name": "Oven Z4 temp", "unit": "°C"},
        "oven_z2_sp": {"name": "Oven Z2 SP", "names": {"zh": "二区烘箱温度设定"}, "unit": "°C",
                       "writable": True, "min": 60, "max": 160},
        "oven_z3_sp": {"name": "Oven Z3 SP", "unit": "°C", "writable": True, "min": 60,
                       "max": 160},
    },
    "calender": {
        "cal_run": {"name": "Cal run", "type": "bool", "writable": True},
        "cal_thickness": {"name": "Cal thk", "unit": "µm"},
        "slit_run": {"name": "Slit run", "type": "bool", "writable": True,
                     "description": "Run command of the slitter."},
    },
})
COATING = Router(COATER)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("bump the coat weight setpoint to 450 grams per square metre", "coat_weight_sp", 450),
    # a twin without a Chinese name is at the place its twin's says (a zone)
    ("set the third oven zone to 115 degrees", "oven_z3_sp", 115),
])
async def test_terse_faceplate_names_are_written_as_operators_say_them(
        text: str, point: str, value: object) -> None:
    assert await _routed(COATING, text) == ("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", ["how hot is the fourth oven zone", "四区烘箱温度是多少",
                                  "oven zone 4 temperature"])
async def test_a_zone_named_short_is_read_by_its_twins_words(text: str) -> None:
    assert await _routed(COATING, text) == ("read", {"point": "oven_z4_temp"})


async def test_a_reading_description_lends_no_quantity_to_its_setpoint() -> None:
    """"Dry room dew point setpoint" borrows its reading's words of where, not the
    temperature its description says the dew point is held at."""
    router = Router(exec_plant("dry", {
        "dew": {"name": "Dry room dew point", "unit": "°C",
                "description": "Dew point of the air in the dry room, held below minus 40 °C."},
        "dew_sp": {"name": "Dry room dew point setpoint", "unit": "°C", "writable": True,
                   "min": -60, "max": -30},
        "temp": {"name": "Dry room temperature", "unit": "°C"},
    }))
    name, args = await _routed(router, "set the dry room temperature to 22")
    assert name != "write", args


async def test_a_setpoint_asked_of_a_zone_without_one_is_not_its_reading() -> None:
    """Zone 1 has only a reading: the model writing it is refused, naming the setpoint."""
    text = "set oven zone 1 setpoint to 95 degrees"
    checked = model_checked(COATING, COATER, text, Action("write", {"point": "oven_z1_temp",
                                                                     "value": 95}))
    assert checked.name == "respond" and checked.args.get("asked") == "setpoint", checked
    allowed = model_checked(COATING, COATER, "set oven zone 3 setpoint to 95 degrees",
                            Action("write", {"point": "oven_z3_sp", "value": 95}))
    assert allowed.name == "write", allowed


HYDRANT = Router(exec_devices("hydrant", {
    "tank_farm": {
        "t1_level": {"name": "Storage tank T-1 product level", "unit": "m"},
        "t2_level": {"name": "Storage tank T-2 product level", "unit": "m"},
        "t3_level": {"name": "Storage tank T-3 product level", "unit": "m"},
        "supply_tank": {"name": "Hydrant supply tank selection", "type": "uint16",
                        "writable": True, "map": {1: "tank T-1", 2: "tank T-2", 3: "tank T-3"}},
        "pressure_mode": {"name": "Hydrant pressure control mode", "type": "uint16",
                          "writable": True,
                          "map": {0: "manual", 1: "constant pressure", 2: "flow compensated"}},
        "ring_pressure": {"name": "Hydrant ring main pressure", "unit": "bar"},
    },
}))


@pytest.mark.parametrize(("text", "point"), [
    ("whats the product level in tank number three", "t3_level"),
    ("what's the level in tank 2", "t2_level"),
])
async def test_a_tag_lettered_as_its_thing_numbers_it(text: str, point: str) -> None:
    assert await _routed(HYDRANT, text) == ("read", {"point": point})


async def test_a_tagged_choice_is_one_value() -> None:
    assert await _routed(HYDRANT, "switch the hydrant supply over to tank T-3") == \
        ("write", {"point": "supply_tank", "value": "tank T-3"})


MILL = Router(exec_plant("mill", {
    "ore_feed": {"name": "Mill ore feed rate", "names": {"zh": "磨机给矿量"}, "unit": "t/h"},
    "ore_feed_sp": {"name": "Mill ore feed setpoint", "names": {"zh": "磨机给矿量设定"},
                    "unit": "t/h", "writable": True, "min": 0, "max": 600},
    "mill_water": {"name": "Mill inlet water flow", "names": {"zh": "磨机给水量"},
                   "unit": "m3/h"},
    "chw_sp": {"name": "Chilled water setpoint", "names": {"zh": "冷冻水设定"}, "unit": "°C",
               "writable": True, "min": 4, "max": 12},
    "door": {"name": "Regulator door 4", "names": {"zh": "4号调节风门"}, "unit": "% closing",
             "writable": True, "min": 0, "max": 100},
}))


@pytest.mark.parametrize("text", [
    "给水量设为120",  # feed water: no ore feed
    "冷库温度设为4",  # a cold store: no chilled water's setpoint
    "raise regulator door 4 to 60%",  # raising opens a door; 60 % closing closes it
    "lower regulator door 4 to 60%",
])
async def test_no_write_of_another_thing_or_way(text: str) -> None:
    name, args = await _routed(MILL, text)
    assert name != "write", args


async def test_a_door_in_per_cent_closing_is_still_set() -> None:
    assert await _routed(MILL, "set regulator door 4 to 60%") == \
        ("write", {"point": "door", "value": 60})
    assert await _routed(MILL, "磨机给水量") == ("read", {"point": "mill_water"})


async def test_a_word_of_a_phrase_ending_in_s_is_no_plural() -> None:
    """"phos acid": no plural of a "pho", so no read of every point of phosphoric acid."""
    assert await _routed(GRANULATION, "phos acid flow rate") == \
        ("read", {"point": "h3po4_flow"})
    assert await _routed(GRANULATION, "are the screens running") == \
        ("read", {"points": ["scrn_1_run", "scrn_2_run"]})


REMOTE = Router(exec_plant("remote", {
    "pit_12b": {"name": "Hydrant pit valve HPV-12B remote enable", "type": "bool",
                "writable": True},
    "pump3_remote": {"name": "Pump 3 remote", "type": "bool", "writable": True},
    "pump3_enable": {"name": "Pump 3 remote enable", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", ["start pump 3", "enable pump 3", "enable pit valve HPV-12B"])
async def test_a_remote_switch_is_no_run_switch(text: str) -> None:
    """"Pump 3 remote" (a remote/local selector) and a "remote enable" (a permissive) are
    switched by their own words, never by a start of their thing (review atk43)."""
    name, args = await _routed(REMOTE, text)
    assert name != "write", args


async def test_a_name_said_short_is_its_whole_word_in_chinese_too() -> None:
    """"Slit run" described as the slitter's run command: 分切机 (a slitter) names it as the
    whole English word would."""
    assert await _routed(COATING, "启动分切机") == ("write", {"point": "slit_run", "value": True})


@pytest.mark.parametrize("text", ["set pressure control mode to constant pressure",
                                  "把压力控制模式设为恒压"])
async def test_a_choice_that_says_a_quantity_is_set(text: str) -> None:
    """"pressure" said twice is the mode's name and its choice's, not a pressure asked; and
    "set ... to" a choice asks no setting of a quantity."""
    assert await _routed(HYDRANT, text) == \
        ("write", {"point": "pressure_mode", "value": "constant pressure"})


async def test_a_word_its_unit_measures_is_no_description_alone() -> None:
    """A dose is what a setpoint in kg/t sets, whatever else its description says."""
    assert await _routed(GRANULATION, "coating oil dose SP 1.8 kg per tonne") == \
        ("write", {"point": "coat_oil_sp", "value": 1.8})


CAMEL = Router(exec_plant("corrugator", {
    "sf_speed": {"name": "SingleFacerSpeed", "unit": "m/min"},
    "sf_steam_sp": {"name": "SF_SteamPressureSP", "unit": "bar", "writable": True, "min": 5,
                    "max": 14},
    "hp1": {"name": "DB_HotPlate1Temp", "unit": "°C"},
    "hp2": {"name": "DB_HotPlate2Temp", "unit": "°C"},
    "ph": {"name": "StarchpH"},
}))


@pytest.mark.parametrize(("text", "action"), [
    ("single facer speed", ("read", {"point": "sf_speed"})),
    ("hot plate 2 temperature", ("read", {"point": "hp2"})),
    ("set the steam pressure setpoint to 11 bar", ("write", {"point": "sf_steam_sp",
                                                              "value": 11})),
])
async def test_a_camel_case_name_is_its_words(text: str, action: object) -> None:
    assert await _routed(CAMEL, text) == action


async def test_a_camel_case_twin_that_is_not_there_is_not_read() -> None:
    name, args = await _routed(CAMEL, "temperature of hot plate 5")
    assert name != "read", args


def test_a_small_letter_before_a_capital_is_no_camel_case() -> None:
    assert [t.text for t in tokens("pH")] == ["ph"]
    assert [t.text for t in tokens("SingleFacerSpeed")] == ["single", "facer", "speed"]


LEACHATE_CONFIG = exec_plant("leachate", {
    "hp_pump_run": {"name": "RO high-pressure pump – run", "aliases": ["HP pump"],
                    "type": "bool", "writable": True},
    "ro_feed_pressure": {"name": "RO unit – feed pressure", "unit": "bar"},
    "cows_today": {"name": "Cows milked today", "type": "uint16"},
    "engine_run": {"name": "Gas engine running", "names": {"zh": "发电机组运行"},
                   "type": "bool"},
    "engine_hours": {"name": "Gas engine running hours", "names": {"zh": "机组运行小时数"},
                     "unit": "h", "type": "uint32"},
})
LEACHATE = Router(LEACHATE_CONFIG)


@pytest.mark.parametrize(("text", "point", "kept"), [
    ("反渗透进水压力多少", "hp_pump_run", False),  # an amount, of an on/off point
    ("反渗透进水压力多少", "ro_feed_pressure", True),
    ("how long is a cow pregnant for?", "cows_today", False),  # how long: a time
    ("how long has the engine been running", "engine_run", False),
])
def test_the_model_is_not_let_answer_an_amount_with_a_switch(text: str, point: str,
                                                             kept: bool) -> None:
    checked = model_checked(LEACHATE, LEACHATE_CONFIG, text, Action("read", {"point": point}))
    assert (checked.name == "read") == kept, checked


async def test_hours_asked_in_chinese_are_no_run_switch() -> None:
    name, args = await _routed(LEACHATE, "发电机组运行了多少小时")
    assert (name, args.get("point")) != ("read", "engine_run"), args


FARM = Router(exec_plant("farm", {
    "turn_target": {"name": "Rotary platform target minutes per turn", "unit": "min",
                    "writable": True, "min": 6, "max": 14},
    "feed_target": {"name": "Digester feed target cubic metres per day", "unit": "m³/d",
                    "writable": True, "min": 0, "max": 60},
    "digester1_temp": {"name": "Digester 1 temperature", "unit": "°C"},
    "digester2_temp": {"name": "Digester 2 temperature", "unit": "°C"},
    "aeration_mode": {"name": "Aeration blowers – control mode", "type": "uint16",
                      "writable": True, "map": {0: "manual", 1: "DO control", 2: "intermittent"}},
    "do1_sp": {"name": "MBR tank 1 – DO setpoint", "unit": "mg/L", "writable": True, "min": 0.5,
               "max": 4},
    "wind": {"name": "Wind speed", "unit": "m/s"},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("slow the rotary to 10 minutes a turn", "turn_target", 10),  # "a" is "per", no letter
    ("feed the digester 35 cubic metres a day", "feed_target", 35),  # 35 is no digester
    ("put the aeration blowers on DO control", "aeration_mode", "DO control"),
])
async def test_a_farm_is_set_as_its_people_say_it(text: str, point: str, value: object) -> None:
    assert await _routed(FARM, text) == ("write", {"point": point, "value": value})


async def test_the_wind_is_still_the_wind() -> None:
    """("wind the DO setpoint up" is no raise: "wind speed up to 20" would be one, review
    atk43b)"""
    assert await _routed(FARM, "wind speed") == ("read", {"point": "wind"})
    name, args = await _routed(FARM, "wind the tank 1 DO setpoint up to 3 mg/l")
    assert name != "write", args


SHORT = Router(exec_devices("short", {
    "extruder": {
        "ext_temp": {"name": "Ext temp", "unit": "°C"},
        "barrel_temp": {"name": "Barrel zone 1 temp", "unit": "°C"},
    },
}))


async def test_a_name_cut_short_is_not_its_devices_word() -> None:
    """"Ext temp" on an extruder's PLC may be the outside air's (review atk43)."""
    name, args = await _routed(SHORT, "extruder temperature")
    assert (name, args.get("point")) != ("read", "ext_temp"), args


REVIEWED = Router(exec_devices("reviewed", {
    "dosing": {
        "pump_spd": {"name": "Pump spd", "unit": "rpm",
                     "description": "Speed of the dosing pump, slaved to the agitator"},
        "pump_spd_sp": {"name": "Pump spd SP", "unit": "rpm", "writable": True, "min": 0,
                        "max": 200},
        "agitator_amps": {"name": "Agitator amps", "unit": "A"},
    },
    "air": {
        "ac_a_run": {"name": "Air compressor A run", "names": {"zh": "A空压机运行"},
                     "type": "bool", "writable": True},
        "ac_b_press": {"name": "Air compressor B pressure", "names": {"zh": "B空压机压力"},
                       "unit": "bar"},
    },
    "substation": {
        "tx_oil_t": {"name": "Transformer oil temperature", "names": {"zh": "变压器油温"},
                     "unit": "°C"},
        "tx_oil_lvl": {"name": "Transformer oil level", "unit": "%"},
    },
    "line_2": {
        "filler2_level": {"name": "Filler 2 bowl level", "unit": "%"},
        "line2_speed": {"name": "Line 2 speed", "unit": "bpm"},
    },
    "mixing": {
        "mix_tank": {"name": "Mixing tank M-1 agitator speed", "unit": "rpm", "writable": True,
                     "min": 0, "max": 100},
        "deck_damper": {"name": "Deck 2 damper", "unit": "% closed", "writable": True, "min": 0,
                        "max": 100, "description": "lower deck supply damper"},
    },
}))


@pytest.mark.parametrize("text", [
    "停止B空压机",  # compressor B has readings only: no stop of compressor A
    "set restart delay to twelve thirty",
])
async def test_review_atk43_no_write_of_another_thing(text: str) -> None:
    name, args = await _routed(REVIEWED, text)
    assert name != "write", args


async def test_review_atk43_a_setpoint_is_not_what_its_readings_description_names() -> None:
    """The dosing pump's setpoint, whose reading is described as slaved to the agitator, is no
    agitator's speed setpoint: not by the rules, nor as the model's pick."""
    config = exec_plant("dosing", {
        "pump_spd": {"name": "Pump spd", "unit": "rpm",
                     "description": "Speed of the dosing pump, slaved to the agitator"},
        "pump_spd_sp": {"name": "Pump spd SP", "unit": "rpm", "writable": True, "min": 0,
                        "max": 200},
    })
    router = Router(config)
    text = "set the agitator speed to 40"
    name, args = await _routed(router, text)
    assert name != "write", args
    picked = model_checked(router, config, text,
                           Action("write", {"point": "pump_spd_sp", "value": 40}))
    assert picked.name != "write", picked


@pytest.mark.parametrize(("text", "action"), [
    ("变压器油位", ("read", {"point": "tx_oil_lvl"})),  # a level, not the oil's temperature
    ("line 2 bowl level", ("read", {"point": "filler2_level"})),  # line 2 is its device's
    ("set mixing tank M 1 agitator to 40", ("write", {"point": "mix_tank", "value": 40})),
    ("set the lower deck damper to 40%", ("write", {"point": "deck_damper", "value": 40})),
])
async def test_review_atk43_what_the_words_say_is_done(text: str, action: object) -> None:
    assert await _routed(REVIEWED, text) == action


@pytest.mark.parametrize(("traditional", "simple"), [
    ("沼氣發電機組在運行嗎", "沼气发电机组在运行吗"), ("這個現在幾度", "这个现在几度"),
    ("請說", "请说"),
])
def test_a_question_in_traditional_characters_is_folded_whole(traditional: str,
                                                              simple: str) -> None:
    """嗎 asks as 吗 does: a question typed in traditional characters is one (review of the
    lexicon helper: 沼氣發電機組在運行嗎 was not placed)."""
    assert simplified(traditional) == simple


OTHER_TRADES = exec_devices("other", {
    "wind": {
        "wind_speed": {"name": "Wind speed", "unit": "m/s"},
        "wnd_speed": {"name": "Winder speed setpoint", "unit": "m/min", "writable": True,
                      "min": 0, "max": 200},
    },
    "chem": {
        "stock_pump": {"name": "Stock solution pump speed", "names": {"zh": "原液泵转速"},
                       "unit": "%", "writable": True, "min": 0, "max": 100},
        "stock_lvl": {"name": "Stock tank level", "names": {"zh": "原液罐液位"}, "unit": "%"},
    },
    "wrapper": {
        "wrap_count": {"name": "Wrap count", "type": "uint16", "writable": True, "min": 1,
                       "max": 10},
        "liner_t": {"name": "Cylinder liner temperature", "unit": "°C"},
    },
    "compressor": {
        "ge_speed_sp": {"name": "Gas engine speed setpoint", "unit": "rpm", "writable": True,
                        "min": 600, "max": 1500},
        "standby_kw": {"name": "Standby diesel generator power", "unit": "kW"},
    },
    "plc": {
        "hmi": {"name": "HMIStatus", "type": "bool"},
    },
})
OTHERS = Router(OTHER_TRADES)


@pytest.mark.parametrize("text", [
    "wind speed up to 20",  # the wind, not a winder
    "渗滤液泵转速设为50",  # no leachate here: 原液 is a stock solution
    "set wrap angle to 5",  # a wrap count is no angle
    "发电机转速设为1000",  # a gas engine driving a compressor is no generator
])
async def test_review_atk43b_no_write_of_another_trades_word(text: str) -> None:
    name, args = await _routed(OTHERS, text)
    assert name != "write", args


@pytest.mark.parametrize("text", ["top liner temperature", "渗滤液罐液位"])
async def test_review_atk43b_no_read_of_another_trades_word(text: str) -> None:
    name, args = await _routed(OTHERS, text)
    assert name != "read", args


async def test_an_acronym_before_a_word_is_left_whole() -> None:
    assert await _routed(OTHERS, "HMI status") == ("read", {"point": "hmi"})
