"""Blind batches 55-56, on plants of my own:
- a numbered machine switched by its number alone ("fire up unit 2") is the machine's own
  start/stop, not a machine of its own on it (its cooler fan), whatever verb switches it;
  where two machines of their own stand on it and the machine has no start of its own, which
  one is meant is asked;
- a verb said as a noun before "setpoint" ("rinse setpoint") is a word to explain;
- "how much" with no quantity said asks no temperature;
- a formula (NH3) names what a word of the point says (ammonia), whatever the lexicon reads
  the whole name as;
- "put evaporator 3 into defrost" writes nothing (the last word of a switch's name is too
  often another state, a noun or part of a name: review atk58b);
- 度 after a number is a degree, as "degrees" is;
- a reading of the numbered thing a write switches is no rival of its switch (启动1号机组);
- Chinese words of plants the lexicon lacked: 速冻库, 机房, 喷淋泵, 烫平机, 抽湿风机, 堰闸;
- "to plus 12": a value's sign, no change by 12 ("+12" stays unreadable, as the hostile
  value tests say);
- units said in words or symbols: "ml per kilo", "m3/s";
- "speed ironer 2 up to 28": a verb opening the command, said of a numbered thing, makes
  "up to" the value ("speed setpoint up to 28" stays a bound);
- "turn oscillation on for fan gun 1": an "on" before "for" is the switch's;
- an alias of a switch lends no words to points it does not name whole (review atk58b);
- 排气温度 of a compressor is its discharge temperature;
- 休闲 (leisure), 大厅 (hall), 造浪机 (a wave machine) in Chinese commands (blind batch 57);
- a word the plant names other points with where this one has another ("leisure" beside
  "main", of "Main pool pH" and "Leisure pool water temperature" beside "Main pool water
  temperature") refuses the model's answer of a point that has the other.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

SKID_CONFIG = exec_plant("skid", {
    "chiller1_enable": {"name": "Chiller 1 start/stop command", "type": "bool", "writable": True},
    "chiller2_enable": {"name": "Chiller 2 start/stop command", "type": "bool", "writable": True},
    "chiller2_fan": {"name": "Chiller 2 condenser fan run", "type": "bool", "writable": True},
    "chiller2_running": {"name": "Chiller 2 running", "type": "bool"},
    "line3_conveyor": {"name": "Line 3 infeed conveyor run", "type": "bool", "writable": True},
    "line3_blower": {"name": "Line 3 dust blower run", "type": "bool", "writable": True},
})


@pytest.mark.parametrize(("text", "value"), [
    ("fire up chiller 2", True),
    ("switch on chiller 2", True),
    ("turn on chiller two", True),
    ("start chiller 2", True),
    ("turn off chiller 2", False),
    ("shut chiller 2 down", False),
])
async def test_a_machine_switched_by_its_number_is_its_own_start(text: str, value: bool) -> None:
    action = await routed_without_model(Router(SKID_CONFIG), text)
    assert action.to_dict() == {"name": "write",
                                "args": {"point": "chiller2_enable", "value": value}}


@pytest.mark.parametrize("text", ["switch on chiller 2 condenser fan", "turn on chiller 2's fan"])
async def test_the_machine_on_it_said_is_that_one(text: str) -> None:
    action = await routed_without_model(Router(SKID_CONFIG), text)
    assert action.to_dict() == {"name": "write", "args": {"point": "chiller2_fan", "value": True}}


@pytest.mark.parametrize("text", ["switch on line 3", "fire up line 3"])
async def test_two_machines_on_a_line_with_no_start_of_its_own_are_asked(text: str) -> None:
    action = await routed_without_model(Router(SKID_CONFIG), text)
    assert action.name == "respond", action


WASH_CONFIG = exec_plant("wash", {
    "washer_main_sp": {"name": "Batch washer main wash setpoint", "unit": "°C", "writable": True,
                       "min": 20, "max": 90},
    "washer_rinse_temp": {"name": "Batch washer rinse temperature", "unit": "°C"},
    "canal_temp": {"name": "Canal water temperature", "unit": "°C"},
    "canal_inflow": {"name": "Canal inflow", "unit": "m³/s"},
    "steam_header": {"name": "Steam header pressure", "unit": "bar"},
    "nh3_pump2": {"name": "Ammonia pump 2 running", "type": "bool"},
    "evap3_defrost": {"name": "Evaporator 3 defrost", "type": "bool", "writable": True},
    "evap3_temp": {"name": "Evaporator 3 air off temperature", "unit": "°C"},
})
WASH = Router(WASH_CONFIG)


async def test_a_verb_before_setpoint_is_a_word_to_explain() -> None:
    # "rinse" had been dropped as a verb, and the main wash setpoint explained the rest
    action = await routed_without_model(WASH, "batch washer rinse setpoint?")
    assert action.name == "respond", action
    action = await routed_without_model(WASH, "batch washer rinse temperature?")
    assert action.to_dict() == {"name": "read", "args": {"point": "washer_rinse_temp"}}


async def test_how_much_asks_no_temperature() -> None:
    action = await routed_without_model(WASH, "how much water is coming down the canal")
    assert action.to_dict() != {"name": "read", "args": {"point": "canal_temp"}}, action
    action = await routed_without_model(WASH, "how much steam have we got on the header")
    assert action.to_dict() == {"name": "read", "args": {"point": "steam_header"}}
    action = await routed_without_model(WASH, "canal water temperature")
    assert action.to_dict() == {"name": "read", "args": {"point": "canal_temp"}}


async def test_a_formula_names_the_word_it_is_written_for() -> None:
    action = await routed_without_model(WASH, "is NH3 pump two running")
    assert action.to_dict() == {"name": "read", "args": {"point": "nh3_pump2"}}


@pytest.mark.parametrize("text", ["put evaporator 3 into defrost", "put canal into defrost"])
async def test_put_into_a_state_writes_nothing(text: str) -> None:
    # "put BF1 into defrost" was written once; review atk58b found the last word of a name is
    # too often the other state of a pair, a noun or part of a name: it is the model's
    action = await routed_without_model(WASH, text)
    assert action.name != "write", action


FREEZER_CONFIG = exec_plant("freezer", {
    "bf2_air": {"name": "Blast freezer 2 air temperature", "unit": "°C"},
    "bf2_sp": {"name": "Blast freezer 2 air setpoint", "unit": "°C", "writable": True,
               "min": -40, "max": 0},
    "mr_ammonia": {"name": "Engine room ammonia concentration", "unit": "ppm"},
    "spray_pump": {"name": "Condenser spray pump", "type": "bool", "writable": True},
    "ironer_fan": {"name": "Ironer vapour extraction fan", "type": "bool", "writable": True},
    "gate1_sp": {"name": "Weir gate 1 position setpoint", "unit": "%", "writable": True,
                 "min": 0, "max": 100},
    "gate1_pos": {"name": "Weir gate 1 position", "unit": "%"},
    "u1_start": {"name": "Unit 1 start command", "type": "bool", "writable": True},
    "u1_running": {"name": "Unit 1 running", "type": "bool"},
    "u1_power": {"name": "Unit 1 active power", "unit": "kW"},
    "u1_brg": {"name": "Unit 1 generator bearing temperature", "aliases": ["TT-G1-02"],
               "unit": "°C"},
})
FREEZER = Router(FREEZER_CONFIG)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("把2号速冻库设定到零下25度", "bf2_sp", -25),
    ("关掉冷凝器喷淋泵", "spray_pump", False),
    ("关掉烫平机抽湿风机", "ironer_fan", False),
    ("把1号堰闸开度设到30%", "gate1_sp", 30),
    ("启动1号机组", "u1_start", True),
])
async def test_chinese_words_of_plants(text: str, point: str, value: object) -> None:
    action = await routed_without_model(FREEZER, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


async def test_a_machine_room_in_chinese() -> None:
    action = await routed_without_model(FREEZER, "机房氨气浓度现在多少")
    assert action.to_dict() == {"name": "read", "args": {"point": "mr_ammonia"}}


ROOMS_CONFIG = exec_plant("rooms", {
    "room2_sp": {"name": "Chill room 2 temperature setpoint", "unit": "°C", "writable": True,
                 "min": -5, "max": 15},
    "dose_rate": {"name": "Detergent dosing rate", "unit": "ml/kg", "writable": True,
                  "min": 0, "max": 30},
    "eflow_sp": {"name": "Environmental flow setpoint", "unit": "m³/s", "writable": True,
                 "min": 0.1, "max": 2},
    "roller3_speed": {"name": "Roller 3 speed setpoint", "unit": "m/min", "writable": True,
                      "min": 5, "max": 60},
})
ROOMS = Router(ROOMS_CONFIG)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set chill room 2 to plus 4 degrees", "room2_sp", 4),
    ("set chill room 2 to plus four", "room2_sp", 4),
    ("set chill room 2 to minus 2", "room2_sp", -2),
    ("detergent dosing rate to 12.5 ml per kilo", "dose_rate", 12.5),
    ("set the environmental flow setpoint to 0.35 m3/s", "eflow_sp", 0.35),
    ("speed roller 3 up to 28 m/min", "roller3_speed", 28),
])
async def test_values_and_units_said_otherwise(text: str, point: str, value: float) -> None:
    action = await routed_without_model(ROOMS, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize("text", ["raise chill room 2 by plus 4", "chill room 2 plus 4",
                                  "roller 3 speed setpoint up to 28", "speed setpoint up to 28"])
async def test_changes_and_bounds_write_nothing(text: str) -> None:
    action = await routed_without_model(ROOMS, text)
    assert action.name != "write", action


MIXER_CONFIG = exec_plant("mixer", {
    "mixer2_run": {"name": "Mixer 2 rotor run command", "aliases": ["Intermix 2"], "type": "bool",
                   "writable": True},
    "mixer2_speed": {"name": "Mixer 2 rotor speed", "unit": "rpm"},
    "mixer2_speed_sp": {"name": "Mixer 2 rotor speed setpoint", "unit": "rpm", "writable": True,
                        "min": 10, "max": 60},
    "gun3_sweep": {"name": "Snow gun 3 oscillation", "type": "bool", "writable": True},
    "gun3_mode": {"name": "Snow gun 3 auto mode", "type": "bool", "writable": True},
    "comp2_disch_temp": {"name": "Compressor 2 discharge temperature", "unit": "°C"},
    "comp2_oil_temp": {"name": "Compressor 2 oil temperature", "unit": "°C"},
    "boiler_flue_temp": {"name": "Boiler flue gas temperature", "unit": "°C"},
})
MIXER = Router(MIXER_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    ("turn oscillation on for snow gun 3",
     {"name": "write", "args": {"point": "gun3_sweep", "value": True}}),
    ("2号压缩机排气温度是多少", {"name": "read", "args": {"point": "comp2_disch_temp"}}),
])
async def test_names_and_words_of_machines(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(MIXER, text)
    assert action.to_dict() == expect


PRESS_CONFIG = exec_plant("press", {
    "press1_cure": {"name": "Press 1 cure enable", "aliases": ["press 1 auto cycle"],
                    "type": "bool", "writable": True},
    "press1_cure_sp": {"name": "Press 1 cure time setpoint", "unit": "min", "writable": True,
                       "min": 5, "max": 40},
    "gen2_run": {"name": "Generator 2 start/stop command", "type": "bool", "writable": True},
    "gen2_breaker": {"name": "Generator 2 breaker close command", "type": "bool",
                     "writable": True},
    "glycol_sp": {"name": "Glycol chiller setpoint", "unit": "°C", "writable": True,
                  "min": -6, "max": 2},
    "sc3_out": {"name": "Speed controller 3 output", "unit": "%", "writable": True,
                "min": 0, "max": 100},
    "sc5_out": {"name": "Speed-controller 5 output", "unit": "%", "writable": True,
                "min": 0, "max": 100},
})
PRESS = Router(PRESS_CONFIG)


@pytest.mark.parametrize("text", [
    "set press 1 auto cycle to 20", "close generator 2", "open generator 2",
    "nudge the glycol chiller setpoint to plus 1", "bump glycol chiller setpoint to plus 1",
    "speed controller 3 up to 60",
    # review atk58c: a breaker closed or opened in Chinese; a hyphenated name; "adjust" to plus
    "2号发电机合闸", "2号发电机分闸", "断开2号发电机", "speed controller 5 up to 60",
    "adjust the glycol chiller setpoint to plus 1", "set the glycol chiller setpoint to +1",
])
async def test_what_review_atk58b_found_written_is_not(text: str) -> None:
    action = await routed_without_model(PRESS, text)
    assert action.name != "write", action


@pytest.mark.parametrize(("text", "expect"), [
    ("fire up generator 2", {"name": "write", "args": {"point": "gen2_run", "value": True}}),
    ("set the glycol chiller setpoint to plus 1",
     {"name": "write", "args": {"point": "glycol_sp", "value": 1}}),
])
async def test_what_review_atk58b_kept(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(PRESS, text)
    assert action.to_dict() == expect


#: what review atk58 found the first form of these rules wrote
REVIEW_CONFIG = exec_plant("review", {
    "p3_duty": {"name": "Pump 3 duty/standby", "type": "bool", "writable": True},
    "f4_speed": {"name": "Fan 4 high low", "type": "bool", "writable": True},
    "oil_pump": {"name": "Lube oil pump", "type": "bool", "writable": True},
    "evap5_defrost": {"name": "Evaporator 5 defrost", "type": "bool", "writable": True},
    "hp2_sp": {"name": "Heat pump 2 flow temperature setpoint", "unit": "°C", "writable": True,
               "min": 25, "max": 65},
    "ko1_pump": {"name": "Knock-out drum 1 pump speed", "unit": "%", "writable": True,
                 "min": 0, "max": 100},
    "fv1_sp": {"name": "Fermenter 1 temperature setpoint", "unit": "°C", "writable": True,
               "min": 0, "max": 25},
    "room2_sp": {"name": "Chill room 2 setpoint", "unit": "°C", "writable": True,
                 "min": -5, "max": 15},
    "gate1_pos": {"name": "Intake gate 1 position", "unit": "%", "writable": True,
                  "min": 0, "max": 100},
    "kiln_temp": {"name": "Kiln 1 shell temperature", "aliases": ["TI-101"], "unit": "°C"},
    "em_cooler": {"name": "Emergency cooler", "aliases": ["dump radiator"], "type": "bool",
                  "writable": True},
    "em_flare": {"name": "Emergency flare", "type": "bool", "writable": True},
})
REVIEW = Router(REVIEW_CONFIG)


@pytest.mark.parametrize("text", [
    "put pump 3 in standby", "put fan 4 in low", "put oil in the pump", "put lube oil into the pump",
    "put the evaporator into defrost",
    "heat pump 2 up to 55", "knock-out drum 1 up to 60",
    "nudge fermenter 1 temperature setpoint to plus 1",
    "set fermenter 1 temperature setpoint to plus 2", "set fermenter 1 temperature setpoint to +2",
    "set the radial gate to 40", "fire up emergency",
])
async def test_what_review_atk58_found_written_is_not(text: str) -> None:
    action = await routed_without_model(REVIEW, text)
    assert action.name != "write", action


@pytest.mark.parametrize(("text", "expect"), [
    ("set chill room 2 setpoint to plus 4",
     {"name": "write", "args": {"point": "room2_sp", "value": 4}}),
    ("how much is TI-101", {"name": "read", "args": {"point": "kiln_temp"}}),
])
async def test_what_review_atk58_kept(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(REVIEW, text)
    assert action.to_dict() == expect


POOL_CONFIG = exec_plant("pool", {
    "main_ph": {"name": "Main pool pH", "unit": "pH"},
    "hall_rh": {"name": "Pool hall relative humidity", "unit": "%RH"},
    "hall_temp": {"name": "Pool hall air temperature", "unit": "°C"},
    "main_temp": {"name": "Main pool water temperature", "unit": "°C"},
    "leisure_temp": {"name": "Leisure pool water temperature", "unit": "°C"},
    "waves": {"name": "Wave machine", "type": "bool", "writable": True},
})
POOL = Router(POOL_CONFIG)


@pytest.mark.parametrize(("text", "expect"), [
    ("泳池大厅湿度是多少", {"name": "read", "args": {"point": "hall_rh"}}),
    ("主池水温多少", {"name": "read", "args": {"point": "main_temp"}}),
    ("打开造浪机", {"name": "write", "args": {"point": "waves", "value": True}}),
])
async def test_pool_words_in_chinese(text: str, expect: dict[str, object]) -> None:
    action = await routed_without_model(POOL, text)
    assert action.to_dict() == expect


async def test_the_leisure_pool_is_not_the_main_pool() -> None:
    action = await routed_without_model(POOL, "休闲池水温多少")
    assert action.name in ("read", "respond") and \
        action.args.get("point") in (None, "leisure_temp"), action


def test_the_model_answering_for_the_other_pool_is_refused() -> None:
    read_main_ph = Action("read", {"point": "main_ph"})
    checked = model_checked(POOL, POOL_CONFIG, "what's the pH in the leisure pool", read_main_ph)
    assert checked.name == "respond", checked
    assert model_checked(POOL, POOL_CONFIG, "what's the pH in the main pool",
                         read_main_ph) == read_main_ph
    read_leisure = Action("read", {"point": "leisure_temp"})
    assert model_checked(POOL, POOL_CONFIG, "leisure pool temp?", read_leisure) == read_leisure


def test_a_word_said_as_context_refuses_nothing() -> None:
    # the point's own word said beside its alternative: the alternative is context (review
    # atk58c: "#1 retort phase" beside "#1 retort temperature")
    config = exec_plant("retort", {
        "r1_phase": {"name": "#1 retort phase", "type": "string"},
        "r1_temp": {"name": "#1 retort temperature", "unit": "°C"},
    })
    read = Action("read", {"point": "r1_temp"})
    assert model_checked(Router(config), config, "#1 retort temperature in this phase",
                         read) == read
    # ...or what it means: "humidity" of a "Room 1 RH", beside a "Room 1 Ethylene"
    config = exec_plant("ripening", {
        "room1_ethylene": {"name": "Room 1 Ethylene", "unit": "ppm"},
        "room1_rh": {"name": "Room 1 RH", "unit": "%RH"},
    })
    read = Action("read", {"point": "room1_rh"})
    assert model_checked(Router(config), config,
                         "what is the humidity in room 1 while ethylene is injecting", read) == read
