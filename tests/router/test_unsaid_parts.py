"""On/off of a thing switches a point only where the point's name says no more than that thing
(hostile review atk15): its other words are the switch's own ("motor", "run", "solenoid"), say
which ("main"), qualify what is said, or are the machine of a function said ("Caustic dosing
pump" of "start caustic dosing"). Any other word names a part or an action the command did not
say, and the write is asked back, whichever stage proposed it (the write gate)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import doubt
from tests.support.plants import exec_plant, routed_without_model


def _plant(name: str) -> Router:
    return Router(exec_plant("parts", {"p": {"name": name, "type": "bool", "writable": True}}))


@pytest.mark.parametrize(("name", "text"), [
    ("Valve 3 shutdown solenoid", "open valve 3"),      # an action word no list had
    ("Valve 12 closure solenoid", "open valve 12"),
    ("Feed pump - Boiler 1", "stop boiler 1"),          # a tag list's order, device first
    ("Brake, Hoist 9", "start hoist 9"),
    ("Close solenoid - Valve 8", "open valve 8"),
    ("Closing coil Valve 4", "open valve 4"),           # an action said before the thing
    ("Fan 23 backward starter", "start fan 23"),        # "start" is no "starter" said
    ("Tank 2 heater", "turn on tank 2"),
    ("Raw water tank mixer", "start the raw water tank"),
    ("Reactor quench system", "start the reactor"),
    ("3号阀关阀电磁阀", "打开3号阀"),                       # the Chinese name says more
    ("给水泵(1号锅炉)", "停止1号锅炉"),
    ("8号卷扬机抱闸", "停止8号卷扬机"),
    ("2号罐加热器", "启动2号罐"),
    ("Pump 22 start horn", "start pump 22"),           # after the action: a signal of it
    ("Pump 9 start bypass", "start pump 9"),
    # atk16: a number numbers the word before it
    ("Boiler feed pump 1", "stop boiler 1"),
    ("Hoist brake 9", "start hoist 9"),
    ("Trolley 2 left motor", "start trolley 2"),
    # a Chinese word in an English command, and Chinese said otherwise than the name
    ("Valve 3 shutdown solenoid", "open valve 3 谢谢"),
    ("Hoist 19 down motor", "启动 hoist 19"),
    ("8号卷扬机抱闸", "停止八号卷扬机"),
    ("8号卷扬机抱闸", "卷扬机8停止"),
    ("8号卷扬机抱闸", "马上停止8号卷扬机"),
    ("锅炉给水泵1#", "停止1号锅炉"),
    ("3号阀关阀电磁阀", "打开3号阀门"),
    ("Gate 3 motor", "close gate 3"),                    # the motor runs either way
    ("Valve 3 shutdown solenoid", "shut valve 3"),       # an on/off verb names no word by
    ("Valve 3 closer solenoid", "close valve 3"),        # its stem
    ("Aeration tank mixer", "start aeration"),           # a function, then two machines
    # atk16/atk17: a machine before the machine said, in tag-list order without a separator
    ("Feed pump boiler 1", "stop boiler 1"),
    ("Brake Mill 1", "stop mill 1"),
    ("Compressed air dryer", "stop the compressed air"),  # a medium said of what treats it
    ("Boiler 1 feed pump start/stop", "stop boiler 1"),  # a paired name is its thing's
    ("Conveyor 4 stop/start", "start conveyor 4"),       # (on first only)
    ("Tank 2 solenoid", "open tank 2"),                  # a tank's solenoid is a part
    ("1号罐电磁阀", "打开1号罐"),
    ("Valve 5 actuator reset", "open valve 5"),
    # atk17: a number numbers its word, an ordinal the thing after it; a side is no stop
    # word; a medium names no heater or cooler
    ("Steam drain valve 2", "open steam 2"),
    ("Boiler feed pump 1", "stop the first boiler"),
    ("Hoist brake 9", "start the ninth hoist"),
    ("锅炉给水泵1", "停止第一台锅炉"),
    ("Crane 1 right motor", "start crane 1"),
    ("Lube oil heater", "turn on lube oil"),
    ("Lube oil cooler", "stop lube oil"),
    ("Sootblower boiler 4", "start boiler 4"),
    # ...and Chinese said with words no list has, or in traditional characters
    ("8号卷扬机抱闸", "8号卷扬机停机"),
    ("8号卷扬机抱闸", "停用8号卷扬机"),
    ("8号卷扬机抱闸", "停止8号卷扬机，谢谢"),
    ("3号阀关阀电磁阀", "打开#3阀"),
    ("8號捲揚機抱閘", "停止8号卷扬机"),
])
async def test_a_part_or_action_not_said_is_asked_back(name: str, text: str) -> None:
    action = await routed_without_model(_plant(name), text)
    assert action.name == "respond", action
    # the model's write of it is stopped too
    router = _plant(name)
    found = doubt(text, router.rules.points["p"], True, router.rules.profiles)
    assert found is not None and found.problem in ("part", "sense")


@pytest.mark.parametrize(("name", "text", "value"), [
    ("Pump 1 motor run", "start pump 1", True),
    ("Mill 6 main motor", "stop mill 6", False),
    ("Hot oil circulation pump 1", "start pump 1", True),
    ("Collector belt A", "start collector A", True),
    ("Caustic dosing pump", "start caustic dosing", True),
    ("ESD valve", "close the ESD valve", False),
    ("Open rack vaporiser 2", "start open rack vaporiser 2", True),
    ("Fogging system", "start the foggers", True),
    ("CHP engine", "start the chp", True),
    ("Steam valve 2", "open valve 2", True),
    ("1号泵开关", "启动1号泵", True),
    ("3号车间照明灯", "打开3号车间照明", True),
    ("Fresh oil make-up valve", "open the fresh oil make-up valve", True),
    ("Conveyor 3 hold", "hold conveyor 3", True),
    ("13号泵电机启动", "启动13号泵", True),
    ("Gate 3 motor", "start gate 3 motor", True),
    # atk16 over-blocking: a name ended by both its actions is its thing, switched both ways
    ("Pump 1 start/stop", "start pump 1", True),
    ("Pump 1 Start Stop", "stop pump 1", False),
    ("Valve 16 open/close", "close valve 16", False),
    ("Pump 12 motor on/off", "start pump 12", True),
    ("Mixer 17 start/stop command", "start mixer 17", True),
    ("P-101 Start/Stop CMD", "stop P-101", False),
    ("P-101", "start P-101", True),                     # a switch named by its tag alone
    ("5号泵启停", "启动5号泵", True),
    ("19号泵启/停", "停止19号泵", False),
    ("12号风机启停控制", "启动12号风机", True),
    # ...and what opens a valve is the valve
    ("Valve 19 actuator", "open valve 19", True),
    ("CV-7 solenoid", "close CV-7", False),
    ("3号阀执行器", "打开3号阀", True),
    ("11号阀电动执行机构", "关闭11号阀", False),
    # a machine before the one said is only a qualifier in the usual order
    ("Boiler feed pump 2", "start pump 2", True),
    ("Conveyor belt 4", "start belt 4", True),
    ("Pump station 5 inlet valve", "open valve 5", True),   # (a place, not a pump)
    ("Cooling water pump", "start the cooling water", True),  # a medium, what moves it
    ("Combustion air fan", "start the combustion air", True),
    # atk18: named by the action; a fan's qualifier; shut unpowered, the usual way
    ("Damper 2 fail open", "set damper 2 to fail open", True),
    ("Cooler fan 2", "start fan 2", True),
    ("Valve 3 normally closed solenoid", "open valve 3", True),
    ("NC valve 3", "open valve 3", True),
    # atk17: a valve, no switchgear; the pump's contactor said of the pump; traditional
    # characters and 起动; names numbered first
    ("Knife gate valve 4", "open knife gate valve 4", True),   # a valve, no switchgear
    ("Tie valve 2", "close tie valve 2", False),
    ("1号泵接触器", "关闭1号泵", False),                        # the pump's contactor, said of
    ("Pump 3 motor", "shut down pump 3", False),               # the pump
    ("1號泵", "啟動1號泵", True),                              # traditional characters
    ("1号泵", "啟動1號泵", True),
    ("8号卷扬机", "起动8号卷扬机", True),                      # 起动, a form of 启动
    ("#1 Boiler ID fan", "start #1 boiler ID fan", True),     # numbered first: its number,
    ("No. 1 boiler feed pump", "start no. 1 boiler feed pump", True),  # no value
    ("1#泵", "启动1#泵", True),
])
async def test_the_switch_of_the_thing_said_is_written(name: str, text: str, value: Any) -> None:
    action = await routed_without_model(_plant(name), text)
    assert (action.name, action.args) == ("write", {"point": "p", "value": value})


SWITCHGEAR = exec_plant("switchgear", {
    "lbs3": {"name": "LBS 3", "type": "bool", "writable": True},
    "zh4": {"name": "4号断路器", "type": "bool", "writable": True},
    "br4": {"name": "Breaker 4", "type": "bool", "writable": True},
    "k6": {"name": "Contactor 6", "type": "bool", "writable": True},
    "br5c": {"name": "Breaker 5 close", "type": "bool", "writable": True},
    "p2": {"name": "Pump 2", "type": "bool", "writable": True},
    # what it is said only in a description, or by a feeder's name (atk16)
    "f5": {"name": "Feeder 5", "type": "bool", "writable": True},
    "q7": {"name": "Q7", "type": "bool", "writable": True,
           "description": "11 kV incomer circuit breaker"},
    "p1s": {"name": "Pump 1 speed", "type": "float", "unit": "rpm", "writable": True,
            "min": 0, "max": 1500},
    "p2s": {"name": "Pump 2 speed", "type": "float", "unit": "rpm", "writable": True,
            "min": 0, "max": 1500},
})


@pytest.mark.parametrize("text", [
    "open LBS 3", "打开4号断路器", "open breaker 4", "close breaker 4", "open contactor 6",
    "start pump 1 2", "turn on pump 1 2", "start pump 1 & 2", "start pump 1, 2",
    "start pump 1 to 2", "bring pump 1 2 online", "open feeder 5", "close feeder 5",
    "open Q7"])
async def test_switchgear_opened_and_a_second_pump_write_nothing(text: str) -> None:
    """Opening switchgear switches it off: open/close of it is asked back. "start pump 1 2"
    had written 2 rpm to pump 1."""
    action = await routed_without_model(Router(SWITCHGEAR), text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("switch LBS 3 off", "lbs3", False), ("合闸4号断路器", "zh4", True),
    ("switch breaker 4 off", "br4", False), ("close breaker 5", "br5c", True),
    ("switch off feeder 5", "f5", False),
    ("断开2号泵", "p2", False), ("2号泵断开", "p2", False),   # (断开 was read by its 开)
    ("pump 1 1450 rpm", "p1s", 1450), ("set pump 1 to 900 rpm", "p1s", 900)])
async def test_switchgear_said_on_or_off_is_written(text: str, point: str, value: Any) -> None:
    action = await routed_without_model(Router(SWITCHGEAR), text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


@pytest.mark.parametrize(("name", "text"), [
    # atk17: switchgear by its tags and abbreviations, in Chinese, and said in English of a
    # Chinese name
    ("BKR 4", "open BKR 4"), ("QF4", "open QF4"), ("DS-4", "open DS-4"),
    ("Bus section 8", "open bus section 8"), ("Interrupter 11", "open interrupter 11"),
    ("MPCB 7", "open MPCB 7"), ("4号断路器", "open 4号断路器"), ("4号断路器", "开4号断路器"),
    ("6号空气开关", "关闭6号空气开关"),
    # a gate's motor, starter or drive: off stops it, closes nothing
    ("Gate 4 motor starter", "close gate 4"), ("Gate 3 VFD", "close gate 3"),
    ("8号门电机", "关闭8号门"),
    # a valve that opens unpowered: on may close it
    ("Valve 3 normally open solenoid", "open valve 3"),
    ("Valve 3 fail open solenoid", "open valve 3"), ("NO valve 3", "close valve 3"),
])
async def test_open_or_close_of_what_it_does_not_open_is_asked_back(name: str, text: str) -> None:
    action = await routed_without_model(_plant(name), text)
    assert action.name == "respond", action


BILINGUAL = exec_plant("bilingual", {
    "bfp1": {"name": "Boiler feed pump 1", "type": "bool", "writable": True,
             "names": {"zh": "1号锅炉给水泵"}},
    "hb9": {"name": "Hoist brake 9", "type": "bool", "writable": True,
            "names": {"zh": "9号提升机抱闸"}},
    "sv3": {"name": "Valve 3 shutdown solenoid", "type": "bool", "writable": True,
            "names": {"zh": "3号阀关断电磁阀"}},
    "p1a": {"name": "Pump 1A", "type": "bool", "writable": True},
    "p1b": {"name": "Pump 1B", "type": "bool", "writable": True},
    "p4s": {"name": "Pump 4 speed", "type": "float", "unit": "rpm", "writable": True,
            "min": 0, "max": 1500},
    "v5": {"name": "Valve 5 position", "type": "float", "unit": "%", "writable": True,
           "min": 0, "max": 100},
    "f6": {"name": "Feeder 6 rate", "type": "float", "unit": "t/h", "writable": True,
           "min": 0, "max": 200},
})


@pytest.mark.parametrize("text", [
    # a Chinese word in an English command, of a point with a Chinese name too (atk17)
    "stop boiler 1 谢谢", "停止 boiler 1", "start hoist 9 谢谢", "open valve 3 谢谢",
    # a letter of a number is no article: pump 1 is neither 1A nor 1B
    "start pump 1", "stop pump 1",
    # a second number where the plant has no second thing; a change said as a number
    "pump 4 2 on", "kick on pump 4 2", "bring pump 4 2 online", "open valve 5, 2",
    "knock pump 4 back 100 rpm", "4号泵转速快100", "启动1号泵",
    "set feeder 6 rate to 3 t/min"])                 # a rate per another time
async def test_what_the_words_do_not_say_plainly_writes_nothing(text: str) -> None:
    action = await routed_without_model(Router(BILINGUAL), text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("name", "text"), [
    # atk18: valves that open unpowered, however their name or description says it
    ("Normally open valve 3", "open normally open valve 3"),
    ("Valve 3 spring to open solenoid", "open valve 3"),
    ("Valve 7 solenoid", "open valve 7"),                          # (described below)
    # switchgear by more of its names, and in Chinese
    ("QA1", "open QA1"), ("ES 4", "open ES 4"), ("Load break 4", "open load break 4"),
    ("Breaker 4 open/close", "open breaker 4"), ("1号接地刀", "打开1号接地刀"),
    ("2号进线柜", "打开2号进线柜"),
    # a machine before a plant unit is a part of it; a medium names what moves it
    ("Barring gear turbine 1", "start turbine 1"), ("Cooler kiln 2", "stop kiln 2"),
    ("Cooling water fan", "stop cooling water"),
    ("8号门电动机", "关闭8号门"), ("1号窗电机", "关闭1号窗"),
    # a door's solenoid is a lock, no door
    ("Door 3 solenoid", "open door 3"),
])
async def test_atk18_writes_are_asked_back(name: str, text: str) -> None:
    point: dict[str, Any] = {"name": name, "type": "bool", "writable": True}
    if name == "Valve 7 solenoid":
        point["description"] = "normally open valve, energise to close"
    router = Router(exec_plant("atk18", {"p": point}))
    action = await routed_without_model(router, text)
    assert action.name == "respond", action


LETTERED = exec_plant("lettered", {
    "a": {"name": "Pump 1-A", "type": "bool", "writable": True},
    "b": {"name": "Pump 1-B", "type": "bool", "writable": True},
    "fa": {"name": "Feeder 1A speed", "type": "float", "unit": "Hz", "writable": True,
           "min": 0, "max": 50},
    "fb": {"name": "Feeder 1B speed", "type": "float", "unit": "Hz", "writable": True,
           "min": 0, "max": 50},
    "t": {"name": "Oven 2 temperature setpoint", "type": "float", "unit": "°C",
          "writable": True, "min": 0, "max": 300},
    "v": {"name": "3号阀开度", "type": "float", "unit": "%", "writable": True, "min": 0,
          "max": 100},
    "s": {"name": "Pump 4 speed", "type": "float", "unit": "rpm", "writable": True,
          "min": 0, "max": 1500},
})


@pytest.mark.parametrize("text", [
    "start pump 1", "启动1号泵", "set feeder 1 speed to 30 Hz",
    "oven 2 setpoint 10 degrees warmer", "make oven 2 10 degrees colder", "3号阀开大10%",
    "3号阀关小 10%", "pump 4 2 on please"])
async def test_a_letter_or_an_amount_unsaid_writes_nothing(text: str) -> None:
    action = await routed_without_model(Router(LETTERED), text)
    assert action.name == "respond", action


async def test_a_lettered_number_said_whole_is_written() -> None:
    router = Router(LETTERED)
    for text, point, value in (("start pump 1-A", "a", True), ("start pump 1-B", "b", True),
                               ("set feeder 1B speed to 30 Hz", "fb", 30)):
        action = await routed_without_model(router, text)
        assert (action.name, action.args) == ("write", {"point": point, "value": value})


ATK19 = exec_plant("atk19", {
    "v": {"name": "Valve 9 solenoid", "type": "bool", "writable": True,
          "description": "air to close actuator"},
    "zv": {"name": "4号阀失电开电磁阀", "type": "bool", "writable": True},
    "hold": {"name": "Kiln 1 hold", "type": "bool", "writable": True},
    "mode": {"name": "Kiln 1 mode", "type": "int", "writable": True,
             "map": {0: "off", 1: "holding", 2: "ramping"}},
    "ontime": {"name": "Pump 3 on time", "type": "float", "unit": "min", "writable": True,
               "min": 0, "max": 60},
    "p3": {"name": "Pump 3", "type": "bool", "writable": True},
    "flow": {"name": "Line 2 flow setpoint", "type": "float", "unit": "m3/h", "writable": True,
             "min": 0, "max": 100},
})


@pytest.mark.parametrize("text", [
    "open valve 9", "打开4号阀",                                 # opens unpowered, said otherwise
    "turn off kiln 1 hold", "kiln 1 hold off",                  # the switch, or the mode's off?
    "start pump 3 for 10 minutes", "启动3号泵10分钟",            # a run, for a time
    "zero flow on line 2", "line 2 zero flow",                  # a state reported
])
async def test_atk19_writes_nothing(text: str) -> None:
    action = await routed_without_model(Router(ATK19), text)
    assert action.name != "write", action


async def test_a_choice_cut_short_is_written_and_a_window_actuator_is_no_valve() -> None:
    """ "put loop 3 in auto" of a mode whose choice is "automatic" (atk19 over-blocking); a
    window's actuator is switched by its own name, not by 关闭 of the window (a valve's is)."""
    router = Router(exec_plant("atk19b", {
        "c": {"name": "Loop 3 mode", "type": "int", "writable": True,
              "map": {0: "manual", 1: "automatic", 2: "cascade"}},
        "w": {"name": "2号通风窗执行器", "type": "bool", "writable": True},
    }))
    auto = await routed_without_model(router, "put loop 3 in auto")
    assert (auto.name, auto.args) == ("write", {"point": "c", "value": "automatic"})
    window = await routed_without_model(router, "关闭2号通风窗")
    assert window.name == "respond", window
