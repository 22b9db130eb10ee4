"""Review atk74b of the bakery, asphalt and lock words: what they must not take from other
trades, on plants written here:
- a plant's own "baghouse fan" or "main exhaust fan" is no kiln's or boiler's ID fan;
- 给料泵 is a feed pump, no feeder; 面温 is a surface temperature as often as a dough's;
- a silo's or mixer's gate is no water gate; a pool's "upper pool level" no lock's headwater;
- "firing rate" of a kiln's burner is its fuel rate, as before;
- (review atk74c) a question after a command reads nothing instead; a thing's number
  before or after its mark (3#, 第3) is no value; a measure said of a delay is no delay.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

WORKS = exec_plant("works_atk74", {
    "id_fan_speed": {"name": "Kiln ID fan speed", "unit": "%", "writable": True,
                     "min": 0, "max": 100},
    "bh_fan_speed": {"name": "Baghouse fan speed", "unit": "%", "writable": True,
                     "min": 0, "max": 100},
    "boiler_id_fan": {"name": "Boiler ID fan speed", "unit": "%", "writable": True,
                      "min": 0, "max": 100},
    "main_exhaust": {"name": "Main exhaust fan speed", "unit": "%", "writable": True,
                     "min": 0, "max": 100},
    "feed_pump_hz": {"name": "Feed pump 1 frequency setpoint", "unit": "Hz", "writable": True,
                     "min": 0, "max": 50, "names": {"zh": "1号给料泵频率设定"}},
    "roll_surface": {"name": "Calender roll surface temperature", "unit": "°C",
                     "names": {"zh": "压光辊面温"}},
    "sluice": {"name": "Sluice gate 1 opening", "unit": "%"},
    "mixer_door": {"name": "Mixer discharge door open", "type": "bool"},
    "pool_upper": {"name": "Leisure pool upper pool level", "unit": "mm"},
    "fuel_rate": {"name": "Main burner fuel rate", "unit": "t/h"},
    "fuel_sp": {"name": "Main burner fuel setpoint", "unit": "t/h", "writable": True,
                "min": 0, "max": 20},
})
ROUTER = Router(WORKS)


def _write(point: str, value: float) -> Action:
    return Action("write", {"point": point, "value": value})


@pytest.mark.parametrize(("text", "wrong"), [
    ("set the baghouse fan to 80", "id_fan_speed"),
    ("set the main exhaust fan to 60", "boiler_id_fan"),
])
async def test_a_plants_own_fan_is_no_id_fan(text: str, wrong: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.args.get("point") != wrong, action


@pytest.mark.parametrize(("text", "point"), [
    ("set the baghouse fan to 80", "id_fan_speed"),
    ("除尘引风机转速设为80", "id_fan_speed"),
    ("set the main exhaust fan to 60", "boiler_id_fan"),
])
def test_no_id_fan_for_another_fan(text: str, point: str) -> None:
    value = 80.0 if "80" in text else 60.0
    assert model_checked(ROUTER, WORKS, text, _write(point, value)).name == "respond"


async def test_a_feed_pump_is_no_feeder() -> None:
    assert await routed_without_model(ROUTER, "1号给料泵频率设为30") == _write("feed_pump_hz", 30)


async def test_mian_wen_is_a_surface_temperature_too() -> None:
    assert await routed_without_model(ROUTER, "压光辊面温多少") == \
        Action("read", {"point": "roll_surface"})


@pytest.mark.parametrize(("text", "wrong"), [
    ("dump gate opening", "sluice"),
    ("clam gate opening", "sluice"),
    ("headwater level", "pool_upper"),
    ("firing rate", "fuel_sp"),
])
async def test_other_trades_words_read_nothing_of_theirs(text: str, wrong: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.args.get("point") != wrong, action


TIMED = exec_plant("timed_atk74c", {
    "boiler_sp": {"name": "Boiler 3 temperature setpoint", "unit": "°C", "writable": True,
                  "min": 0, "max": 200},
    "boiler_temp": {"name": "Boiler 3 temperature", "unit": "°C"},
    "p3_speed": {"name": "Pump 3 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "valve2": {"name": "Valve 2", "type": "bool", "writable": True},
    "p1_hz": {"name": "Pump 1 frequency setpoint", "unit": "Hz", "writable": True,
              "min": 0, "max": 50, "names": {"zh": "1号泵频率设定"}},
    "p2_hz": {"name": "Pump 2 frequency setpoint", "unit": "Hz", "writable": True,
              "min": 0, "max": 50, "names": {"zh": "2号泵频率设定"}},
    "cv_sp": {"name": "Control valve opening setpoint", "unit": "%", "writable": True,
              "min": 0, "max": 100, "names": {"zh": "调节阀开度设定"}},
    "trip_delay": {"name": "High temperature trip delay", "unit": "min", "writable": True,
                   "min": 0, "max": 120},
    "alarm_delay": {"name": "Pressure alarm delay", "unit": "s", "writable": True,
                    "min": 0, "max": 60},
})
TIMED_ROUTER = Router(TIMED)


@pytest.mark.parametrize("text", ["set boiler 3 temperature setpoint to 100, what's the temp",
                                  "pump 3 speed 80, what's that in rpm",
                                  "open valve 2, what's it at"])
async def test_a_question_after_a_command_reads_nothing_instead(text: str) -> None:
    """A command with a question after it is the command, or asked back; never a read of
    what the question names (review atk74c)."""
    got = await routed_without_model(TIMED_ROUTER, text)
    assert got.name != "read", got


@pytest.mark.parametrize("text", ["二号泵改30", "一号泵改30", "1#泵改30", "调节阀开度3#", "调节阀开度第3",
                                  "control valve opening 3#"])
async def test_a_things_number_is_no_value(text: str) -> None:
    got = await routed_without_model(TIMED_ROUTER, text)
    assert got.name == "respond", got


@pytest.mark.parametrize(("text", "point"), [
    ("set the high temp trip to 80", "trip_delay"),
    ("set the high temperature trip temp to 80", "trip_delay"),
    ("set the pressure alarm setpoint to 5", "alarm_delay"),
])
async def test_a_measure_said_is_no_delay(text: str, point: str) -> None:
    value = float(text.rsplit(maxsplit=1)[-1])
    assert await routed_without_model(TIMED_ROUTER, text) != \
        Action("write", {"point": point, "value": value})
    assert model_checked(TIMED_ROUTER, TIMED, text,
                         Action("write", {"point": point, "value": value})).name == "respond"


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the high temperature trip delay to 80", "trip_delay", 80),
    ("set the pressure alarm delay to 5 s", "alarm_delay", 5),
    ("1号泵频率改30", "p1_hz", 30),
])
async def test_the_delay_and_the_frequency_are_still_written(text: str, point: str,
                                                             value: float) -> None:
    assert await routed_without_model(TIMED_ROUTER, text) == \
        Action("write", {"point": point, "value": value})
