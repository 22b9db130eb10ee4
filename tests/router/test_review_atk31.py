"""A hostile review (atk31) of the router's answers to blind batch 24: each test is one of its
findings, on a plant of its own shape. Graded as it graded them: C a write nobody asked for,
H a confident wrong read or a plain command broken, M a safety refusal weakened."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, routed_without_model


async def _routed(router: Router, text: str) -> tuple[str, Any]:
    action = await routed_without_model(router, text)
    return action.name, (action.args.get("point") or action.args.get("points")
                         or action.args.get("reason"), action.args.get("value"))


CHILLER = Router(exec_plant("cold_room", {
    "c2m": {"name": "Chiller 2 mode", "type": "int", "writable": True,
            "map": {0: "cool", 1: "defrost", 2: "hold"}},
    "c2t": {"name": "Chiller 2 temperature", "unit": "°C"},
    "l2c": {"name": "Line 2 case count", "type": "int", "unit": "cases"},
    "p2s": {"name": "Pump 2 speed", "unit": "rpm"},
}))


@pytest.mark.parametrize("text", [
    # C1: a reading of a thing said "on" one of its mode's choices is no mode to set
    "chiller 2 temperature on hold", "chiller 2 temperature on cool",
    "chiller 2 temp on defrost please",
    # M2: another thing of the same number; a question or a report said as a command
    "line 2 case count on hold", "pump 2 speed on hold", "check chiller 2 on defrost",
    "show chiller 2 on defrost", "chiller 2 still on defrost", "chiller 2 was on defrost",
])
async def test_on_a_choice_of_another_setting_writes_nothing(text: str) -> None:
    name, _ = await _routed(CHILLER, text)
    assert name != "write"


@pytest.mark.parametrize("text", ["chiller 2 on defrost please", "put chiller 2 on hold",
                                  "can you put chiller 2 on defrost"])
async def test_on_a_choice_of_the_setting_named_is_written(text: str) -> None:
    name, (point, _) = await _routed(CHILLER, text)
    assert (name, point) == ("write", "c2m")


ABATTOIR_LIKE = Router(exec_plant("kill_floor", {
    "chain": {"name": "Carcass chain speed", "unit": "head/h", "writable": True,
              "min": 0, "max": 400},
    "killed": {"name": "Head killed today", "type": "int", "unit": "head"},
    "press": {"name": "Press speed", "unit": "copies/h"},
    "good": {"name": "Good copies", "type": "int", "unit": "copies"},
}))


@pytest.mark.parametrize("text", ["how many head an hour", "how many good copies an hour",
                                  "good copies a minute"])
async def test_a_rate_asked_is_never_a_total(text: str) -> None:
    """H1: "an hour" is a rate's time; a count of the day does not answer it."""
    name, (point, _) = await _routed(ABATTOIR_LIKE, text)
    assert point not in ("killed", "good"), (name, point)


PER_HOUR = Router(exec_plant("steam_and_print", {
    "press": {"name": "Press speed setpoint", "unit": "copies/h", "writable": True,
              "min": 0, "max": 40000},
    "steam": {"name": "Steam flow setpoint", "unit": "kg/h", "writable": True, "min": 0,
              "max": 5000},
    "air": {"name": "Dryer air flow", "unit": "m3/h", "writable": True, "min": 0,
            "max": 30000},
    "bag": {"name": "Bagger speed", "unit": "bags/min", "writable": True, "min": 0, "max": 60},
    "mixer": {"name": "Mixer speed", "unit": "rpm", "writable": True, "min": 0, "max": 100},
}))


@pytest.mark.parametrize("text", ["set it to 4000 an hour", "make it 4000 an hour",
                                  "4000 an hour", "set speed to 40 a minute", "40 a minute",
                                  "give 500 an hour"])
async def test_a_rates_time_alone_names_no_point(text: str) -> None:
    """atk32 C1/C2: "an hour" had been read as the time of the one rate in copies/h, of
    three per hour, and written there; "a minute" as the bagger's, beside a mixer in rpm."""
    name, _ = await _routed(PER_HOUR, text)
    assert name != "write"
    for point, value in (("press", 4000), ("steam", 500), ("bag", 40)):
        assert gated(text, PER_HOUR.rules.points[point], value,
                     PER_HOUR.rules.profiles) is not None


STATES = Router(exec_plant("kiln_line", {
    "al": {"name": "Kiln alarm priority", "type": "int", "map": {0: "low", 1: "high",
                                                                  2: "critical"}},
    "kt": {"name": "Kiln temperature", "unit": "°C"},
    "fc": {"name": "Conveyor 3 fault code", "type": "int",
           "map": {0: "none", 1: "jam", 2: "overload"}},
    "c3": {"name": "Conveyor 3", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", ["kiln mode", "what mode is the kiln in", "conveyor 3 mode",
                                  "conveyor 3 selected"])
async def test_a_state_only_read_is_no_mode(text: str) -> None:
    """H2: a fault code or an alarm priority (choices read, never set) is not what a mode
    question asks."""
    name, (point, _) = await _routed(STATES, text)
    assert point not in ("al", "fc"), (name, point)


HYPHENS = Router(exec_plant("genset", {
    "sbg": {"name": "Stand-by generator", "type": "bool"},
    "mode": {"name": "Generator mode", "type": "int", "writable": True,
             "map": {0: "auto", 1: "standby", 2: "off"}},
    "auto": {"name": "Generator auto-start", "type": "bool", "writable": True},
    "sov": {"name": "Gas shut-off valve", "type": "bool", "writable": True},
    "ss": {"name": "Pump 1 soft-start ramp", "unit": "s", "writable": True, "min": 1,
           "max": 60},
    "p1": {"name": "Pump 1", "type": "bool", "writable": True},
    "bp": {"name": "Tower by-pass valve", "type": "bool", "writable": True},
    "ilk": {"name": "High level interlock", "type": "bool", "writable": True},
    "ov": {"name": "Fan over-ride", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("text", "expected"), [
    # H3: a choice the names hyphenate elsewhere is said as the choice
    ("set generator mode to standby", ("write", ("mode", "standby"))),
    ("put the generator on standby", ("write", ("mode", "standby"))),
    # H4: joined, a name word with a verb in it is left as said
    ("enable generator autostart", ("write", ("auto", True))),
    ("disable generator autostart", ("write", ("auto", False))),
    ("gas shutoff valve", ("read", ("sov", None))),
])
async def test_a_hyphenated_name_word_rewrites_no_word_of_a_command(
        text: str, expected: tuple[str, Any]) -> None:
    assert await _routed(HYPHENS, text) == expected


@pytest.mark.parametrize("text", ["bypass the high level interlock",
                                  "override the fan over-ride"])
async def test_a_bypass_is_refused_outright_whatever_the_names_hyphenate(text: str) -> None:
    """M1: "bypass" had been rewritten "by-pass" (a valve's name) and refused only later."""
    assert await _routed(HYPHENS, text) == ("respond", ("not_allowed", None))


def test_the_gate_passes_the_choice_the_names_hyphenate() -> None:
    assert gated("set generator mode to standby", HYPHENS.rules.points["mode"], "standby",
                 HYPHENS.rules.profiles) is None


ARMS = Router(exec_plant("jetty", {
    "la": {"name": "Loading arms hydraulic pressure", "unit": "bar"},
    "pump": {"name": "Hydraulic pump", "type": "bool", "writable": True},
}))


async def test_arm_of_a_plant_naming_arms_is_a_thing() -> None:
    """H5: "arm" asks a change unless the names write it, in the plural too."""
    assert await _routed(ARMS, "loading arm hydraulic pressure") == ("read", ("la", None))


ANALYSER = Router(exec_plant("stack", {
    "am": {"name": "Analyser mode", "type": "int", "writable": True,
           "map": {0: "off", 1: "online", 2: "offline", 3: "calibrate"}},
    "o2": {"name": "Analyser O2", "unit": "%"},
}))


@pytest.mark.parametrize(("text", "value"), [
    ("set analyser mode to offline", "offline"), ("take the analyser offline", "offline"),
    ("put the analyser online", "online"), ("set analyser mode to off", "off"),
])
async def test_a_state_a_mode_takes_as_its_own_choice_is_that_choice(text: str,
                                                                     value: str) -> None:
    """Older than batch 24 (atk31, outside its diff): "offline" had been read "switch ...
    off", and the analyser mode set to `off`."""
    assert await _routed(ANALYSER, text) == ("write", ("am", value))


@pytest.mark.parametrize("text", ["set analyser mode to offline", "take the analyser offline"])
def test_the_gate_refuses_off_for_offline(text: str) -> None:
    point = ANALYSER.rules.points["am"]
    toks = ANALYSER.rules.analyse(text).toks
    assert gated(text, point, "off", ANALYSER.rules.profiles, toks) is not None
    assert gated(text, point, "off", ANALYSER.rules.profiles) is not None
    assert gated(text, point, "offline", ANALYSER.rules.profiles, toks) is None


# -- atk32: a second review, of the mends above ------------------------------------------------

MILLS = Router(exec_plant("mills", {
    "feed": {"name": "HM_FDR_SPD", "unit": "%", "writable": True, "min": 0, "max": 100,
             "description": "Feeder of both hammer mills"},
    "hm2": {"name": "HM2_RUN", "type": "bool", "writable": True},
    "fan": {"name": "Fan speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "p2": {"name": "Pump 2 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "rs": {"name": "Run speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "stp": {"name": "Stop position", "unit": "mm", "writable": True, "min": 0, "max": 500},
    "b2": {"name": "Boiler 2 pressure", "unit": "bar"},
    "pa": {"name": "Reelstand 1 paster armed", "type": "bool", "writable": True},
    "sw": {"name": "Swing arms position", "unit": "mm"},
}))


@pytest.mark.parametrize("text", ["start hammermill 2 please", "start hammermill 2 now",
                                  "start the number 2 hammermill", "start hammermill no 2"])
async def test_the_number_of_a_thing_started_is_no_value_however_said(text: str) -> None:
    name, (point, _) = await _routed(MILLS, text)
    assert not (name == "write" and point == "feed")
    assert gated(text, MILLS.rules.points["feed"], 2, MILLS.rules.profiles) is not None


@pytest.mark.parametrize(("text", "expected"), [
    ("run fan speed 60", ("write", ("fan", 60))), ("run pump 2 speed 40", ("write", ("p2", 40))),
    ("run speed 40", ("write", ("rs", 40))), ("stop position 200", ("write", ("stp", 200))),
])
async def test_a_setting_said_after_run_or_stop_is_that_setting_or_asked(
        text: str, expected: tuple[str, Any]) -> None:
    """ "run fan speed 60" may set the fan speed or start fan 60 (as "start heater output 2"
    may: atk33): the right write, or a question back, never another."""
    name, said = await _routed(MILLS, text)
    assert name == "respond" or (name, said) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("run fan at 60", ("write", ("fan", 60))), ("set fan speed to 60", ("write", ("fan", 60))),
    ("give boiler 2 pressure", ("read", ("b2", None))),
])
async def test_a_value_said_so_and_give_me_stand(text: str, expected: tuple[str, Any]) -> None:
    assert await _routed(MILLS, text) == expected


@pytest.mark.parametrize("text", ["arm paster 1", "arm the paster on reelstand 1"])
async def test_arming_is_no_read_where_names_write_arms(text: str) -> None:
    name, _ = await _routed(MILLS, text)
    assert name != "read"


STATIONS = Router(exec_plant("analysers", {
    "am": {"name": "Analyser mode", "type": "int", "writable": True,
           "map": {0: "off", 1: "online", 2: "offline", 3: "calibrate"}},
    "fp": {"name": "Feed pump", "type": "bool", "writable": True},
    "p3": {"name": "Pump 3", "type": "bool", "writable": True},
    "a2": {"name": "Analyser 2", "type": "bool", "writable": True},
    "c2m": {"name": "Chiller 2 mode", "type": "int", "writable": True,
            "map": {0: "cool", 1: "defrost", 2: "hold"}},
}))


@pytest.mark.parametrize(("text", "expected"), [
    ("take the feed pump offline", ("write", ("fp", False))),
    ("take pump 3 offline", ("write", ("p3", False))),
    ("put pump 3 online", ("write", ("p3", True))),
    ("take analyser 2 offline", ("write", ("a2", False))),
    ("take the analyser offline", ("write", ("am", "offline"))),
    ("chiller 2 mode on hold", ("write", ("c2m", "hold"))),
    ("chiller two on hold", ("write", ("c2m", "hold"))),
])
async def test_a_state_of_a_switch_beside_a_mode_that_takes_it(
        text: str, expected: tuple[str, Any]) -> None:
    """A mode taking "offline" as its choice leaves every other thing's "offline" a switch
    off (atk32 H1); "mode" and a number in words still name the chiller's mode (H8)."""
    assert await _routed(STATIONS, text) == expected


@pytest.mark.parametrize("text", ["take the analyser off-line", "take the analyser off line",
                                  "set analyser mode to off line", "take the analyser off stream"])
async def test_no_off_of_a_mode_that_takes_offline_however_spelled(text: str) -> None:
    """atk32 C4: "off-line", "off stream" had written the analyser mode's `off`."""
    name, (point, value) = await _routed(STATIONS, text)
    assert (name, point, value) != ("write", "am", "off")
    toks = STATIONS.rules.analyse(text).toks
    assert gated(text, STATIONS.rules.points["am"], "off", STATIONS.rules.profiles,
                 toks) is not None


# -- atk33: a third review, of the mends above -------------------------------------------------

HEATER = Router(exec_plant("heaters", {
    "out": {"name": "Heater output", "unit": "%", "writable": True, "min": 0, "max": 100},
    "fan": {"name": "Fan speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "stage": {"name": "Compressor stage", "type": "int", "writable": True, "min": 0, "max": 4},
    "l2r": {"name": "Line 2 run", "type": "bool", "writable": True},
    "l2am": {"name": "Line 2 analyser mode", "type": "int", "writable": True,
             "map": {0: "off", 1: "online", 2: "offline", 3: "calibrate"}},
    "armp": {"name": "Robot arm position", "unit": "mm"},
    "fr": {"name": "Feed rate", "unit": "t/h", "writable": True, "min": 0, "max": 100},
}))


@pytest.mark.parametrize("text", [
    "start heater output no 2", "start heater output number 2", "start heater output #2",
    "start heater output 2", "run heater output 2", "run stage 2", "start the number 3 fan",
    "start number 2 heater output",
    # a rate's time alone
    "set it to 30 an hour", "30 an hour please",
])
async def test_no_number_of_a_thing_and_no_unit_alone_is_written(text: str) -> None:
    name, _ = await _routed(HEATER, text)
    assert name != "write"


@pytest.mark.parametrize(("text", "expected"), [
    ("take line 2 offline", ("write", ("l2r", False))),
    ("take line 2 analyser offline", ("write", ("l2am", "offline"))),
    ("arm position", ("read", ("armp", None))),
    ("set heater output to 2", ("write", ("out", 2))),
])
async def test_a_thing_named_in_part_is_not_its_mode(text: str, expected: tuple[str, Any]) -> None:
    """ "take line 2 offline" switches line 2 off; the "Line 2 analyser mode" is named whole
    or not at all (atk33: it had been set to `offline`)."""
    assert await _routed(HEATER, text) == expected


async def test_give_more_asks_a_change() -> None:
    name, _ = await _routed(HEATER, "give the fan more speed")
    assert name != "read"


def test_a_mode_said_with_the_state_a_switch_is_named_by_is_that_state() -> None:
    from tests.support.plants import model_read_checked
    plant = exec_plant("pumps", {
        "p3a": {"name": "Pump 3 auto", "type": "bool"},
        "p3": {"name": "Pump 3", "type": "bool", "writable": True},
    })
    action = model_read_checked(Router(plant), plant, "is pump 3 in auto mode", "p3a")
    assert action.name == "read", action


# -- atk34: a fourth review, of the mends above ------------------------------------------------

SWITCHED = Router(exec_plant("heaters_2", {
    "out": {"name": "Heater output", "unit": "%", "writable": True, "min": 0, "max": 100},
    "l2am": {"name": "Line 2 analyser mode", "type": "int", "writable": True,
             "map": {0: "off", 1: "online", 2: "offline", 3: "calibrate"}},
    "trip": {"name": "Boiler pressure trip armed", "type": "bool", "writable": True},
    "bp": {"name": "Boiler pressure", "unit": "bar"},
    "p2s": {"name": "Pump 2 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "p2r": {"name": "Pump 2 run", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize("text", [
    "switch on heater output 2", "turn on heater output 2", "enable heater output 2",
    "heater output 2 start", "start heater output 2 for me", "start heater output 2 thx",
    "start num 2 heater output", "put line 2 online", "arm the boiler pressure trip",
])
async def test_no_thing_number_state_or_arming_is_a_write_or_read_of_another(text: str) -> None:
    """atk34: a heater output numbered 2 switched on had been set to 2 %; "put line 2 online"
    had put the Line 2 analyser mode online; "arm the boiler pressure trip" read the trip."""
    name, (point, value) = await _routed(SWITCHED, text)
    assert (name, point, value) not in (("write", "out", 2), ("write", "l2am", "online"),
                                        ("read", "trip", None))


@pytest.mark.parametrize(("text", "expected"), [
    ("run pump 2 speed 50", ("write", ("p2s", 50))),
    ("take line 2 analyser online", ("write", ("l2am", "online"))),
])
async def test_a_value_of_a_numbered_thing_and_a_mode_named_whole_stand(
        text: str, expected: tuple[str, Any]) -> None:
    assert await _routed(SWITCHED, text) == expected


def test_a_running_pump_is_no_answer_to_its_mode() -> None:
    from tests.support.plants import model_read_checked
    plant = exec_plant("pumps_2", {
        "p3run": {"name": "Pump 3 running", "type": "bool"},
        "p3a": {"name": "Pump 3 auto", "type": "bool"},
    })
    action = model_read_checked(Router(plant), plant, "is pump 3 running in auto mode", "p3run")
    assert action.name == "respond", action
