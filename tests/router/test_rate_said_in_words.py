"""A rate said in words per another time than the point's ("300 kg per min" of a dosing rate in
kg/h) is another unit: writing 300 kg/h would be sixty times less than asked. The write gate
refused "300 kg/min" and let "300 kg per min" through were the model to propose it (review
atk63). A rate per the point's own time, in any words, is still its unit."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import config_of, exec_plant, own_plant, routed_without_model

CONFIG = exec_plant("rates", {
    "filler_sp": {"name": "Filler speed setpoint", "unit": "bottles/h", "writable": True,
                  "min": 0, "max": 60000},
    "line_sp": {"name": "Line speed setpoint", "unit": "birds/min", "writable": True,
                "min": 0, "max": 200},
    "feed_sp": {"name": "Feed flow setpoint", "unit": "m³/h", "writable": True,
                "min": 0, "max": 100},
    "spray_sp": {"name": "Spray water flow setpoint", "unit": "L/min", "writable": True,
                 "min": 0, "max": 300, "names": {"zh": "喷淋水量设定"}},
    "belt_sp": {"name": "Belt speed setpoint", "unit": "m/min", "writable": True,
                "min": 0, "max": 100, "names": {"zh": "皮带速度设定"}},
    "fan_sp": {"name": "Fan speed setpoint", "unit": "rpm", "writable": True,
               "min": 0, "max": 3000, "names": {"zh": "风机转速设定"}},
    "batch_sp": {"name": "Roaster batch size", "unit": "kg", "writable": True,
                 "min": 0, "max": 500, "names": {"zh": "批次重量设定"}},
    "pump_sp": {"name": "Feed pump speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "kiln_sp": {"name": "Kiln temperature setpoint", "unit": "°C", "writable": True,
                "min": 0, "max": 1200},
})
PROFILES = Router(CONFIG).rules.profiles
EFW = config_of(own_plant("efw_plant"))


@pytest.mark.parametrize(("point", "text", "value", "said"), [
    ("filler_sp", "set the filler to 4000 bottles per min", 4000, "bottles per min"),
    ("feed_sp", "feed flow 30 cubic metres per minute", 30, "cubic metres per minute"),
    ("feed_sp", "feed flow to 30 m3 per second", 30, "m3 per second"),
    ("filler_sp", "set the filler to 4000 bottles／min", 4000, "bottles/min"),  # full width
    ("filler_sp", "set the filler to 4000 bottles\\min", 4000, "bottles/min"),
    ("filler_sp", "set the filler to 4000 bottles of beer per min", 4000,
     "bottles of beer per min"),  # (review atk64g: "of" let it through)
    ("filler_sp", "set the filler to 4000 bottles of beer/min", 4000, "bottles/min"),
    ("spray_sp", "喷淋水量设定调到40升/秒", 40, "升/秒"),  # a Chinese unit, a slash, a time
    ("belt_sp", "皮带速度设定调到30米／秒", 30, "米/秒"),
    ("fan_sp", "风机转速设定调到25r/s", 25, "r/s"),  # rpm has its minute in its letters
    ("batch_sp", "set the roaster batch size to 66 kg/min", 66, "kg/min"),  # no rate at all
    ("batch_sp", "roaster batch 66 kilos per hour", 66, "kilos per hour"),
    ("pump_sp", "set the feed pump speed to 40 %/min", 40, "%/min"),
    ("pump_sp", "set the feed pump speed to 40% per min", 40, "% per min"),
    ("kiln_sp", "set the kiln temperature to 970 °C a min", 970, "°C a min"),
    ("feed_sp", "feed flow to 30/min", 30, "/min"),  # no unit: a rate still (review atk65r)
    ("feed_sp", "feed flow to 30 m3 per min", 30, "m3 per min"),  # (review atk65f)
    ("filler_sp", "set the filler to 1500, per min", 1500, ", per min"),
    ("filler_sp", "set the filler to 1500 (per min)", 1500, "(per min"),
    ("feed_sp", "feed flow to 30 m3/min", 30, "m3/min"),
    ("filler_sp", "set the filler to 60 bpm", 60, "bpm"),  # a time in a unit's letters
    ("batch_sp", "set the roaster batch size to 66/min", 66, "/min"),
])
def test_a_rate_per_another_time_is_refused_as_another_unit(
        point: str, text: str, value: float, said: str) -> None:
    doubt = gated(text, CONFIG.points[point], value, PROFILES)
    assert doubt is not None
    assert doubt.args["value_problem"] == "unit"
    assert doubt.args["unreadable"] == [said]


@pytest.mark.parametrize(("point", "text", "value"), [
    ("filler_sp", "set the filler to 4000 bottles per hour", 4000),
    ("filler_sp", "filler 4000 an hour", 4000),
    ("line_sp", "line speed 160 birds per minute", 160),
    ("line_sp", "line speed 160 birds a min", 160),
    ("feed_sp", "feed flow 30 cubes an hour", 30),
    ("feed_sp", "feed flow 30 m3 per hour", 30),
    ("spray_sp", "喷淋水量设定调到40升/分钟", 40),
    ("spray_sp", "喷淋水量设定调到40升/分", 40),
    ("fan_sp", "风机转速设定调到1500转/分", 1500),
    ("fan_sp", "fan speed 1500 r/min", 1500),
    ("batch_sp", "set the roaster batch size to 66 kg", 66),
])
def test_a_rate_per_the_points_own_time_is_its_unit(point: str, text: str, value: float) -> None:
    assert gated(text, CONFIG.points[point], value, PROFILES) is None


def test_a_dosing_rate_per_minute_is_not_written_per_hour() -> None:
    """On a plant of the test data: the lime dosing rate in kg/h. The model check takes the
    write for the dosing rate it names; the gate refuses its value."""
    profiles = Router(EFW).rules.profiles
    doubt = gated("set the lime dosing to 300 kg per min", EFW.points["lime_dosing"], 300,
                  profiles)
    assert doubt is not None and doubt.args["value_problem"] == "unit"
    assert gated("set the lime dosing to 300 kg per hour", EFW.points["lime_dosing"], 300,
                 profiles) is None


@pytest.mark.parametrize("text", ["set the kiln speed to 3 revolutions per minute",
                                  "kiln speed 3 revs per min", "kiln speed to 3 rpm"])
def test_a_unit_with_no_time_of_its_own_is_said_with_one(text: str) -> None:
    """ "revolutions per minute" is rpm (review atk64g: refused on every point in rpm)."""
    config = exec_plant("kiln", {"kiln_sp": {"name": "Kiln speed setpoint", "unit": "rpm",
                                             "writable": True, "min": 0, "max": 5}})
    profiles = Router(config).rules.profiles
    assert gated(text, config.points["kiln_sp"], 3, profiles) is None


@pytest.mark.parametrize(("text", "point"), [
    ("喷淋水量设定调到40升/秒", "spray_sp"),
    ("皮带速度设定调到30米/秒", "belt_sp"),
    ("set the roaster batch size to 66 kg/min", "batch_sp"),
])
async def test_the_rules_do_not_write_a_rate_of_another_time(text: str, point: str) -> None:
    """Review atk64g: "40升/秒" of a point in L/min was written by the rules alone as 40 L/min,
    sixty times less than asked; "66 kg/min" of a batch size in kg as 66 kg. Refused, and the
    refusal says which unit it could not take."""
    action = await routed_without_model(Router(CONFIG), text)
    assert action.name == "respond", action
    assert action.args.get("value_problem") == "unit", action.args
    assert action.args.get("point") in (None, point)


UNITS = exec_plant("units", {
    "extract_sp": {"name": "Extract fan flow setpoint", "unit": "m³/min", "writable": True,
                   "min": 0, "max": 500},
    "purge_sp": {"name": "Purge gas flow setpoint", "unit": "slpm", "writable": True,
                 "min": 0, "max": 50},
    "printer_sp": {"name": "Label printer speed setpoint", "unit": "copies/h",
                   "writable": True, "min": 0, "max": 60000},
    "drive_sp": {"name": "Mixer drive speed", "unit": "%", "writable": True,
                 "min": 0, "max": 100},
    "carrier_sp": {"name": "Carrier gas flow setpoint", "unit": "L/min", "writable": True,
                   "min": 0, "max": 50},
})
UNIT_PROFILES = Router(UNITS).rules.profiles


@pytest.mark.parametrize(("point", "text", "value", "said"), [
    ("extract_sp", "set the extract fan flow setpoint to 30 cfm", 30, "cfm"),  # 35 times off
    ("purge_sp", "set the purge gas flow setpoint to 2 sccm", 2, "sccm"),  # 1,000 times
    ("printer_sp", "set the label printer speed setpoint to 600 cpm", 600, "cpm"),
    ("drive_sp", "set the mixer drive speed to 80 rpms", 80, "rpms"),
    ("drive_sp", "set the mixer drive speed to 80 revs", 80, "revs"),
    ("carrier_sp", "set the carrier gas flow setpoint to 2 slpm", 2, "slpm"),  # (atk66)
])
def test_a_unit_the_lexicon_knows_as_another_is_refused(
        point: str, text: str, value: float, said: str) -> None:
    """Review atk65r: a unit word after the number that is none of the point's passed where the
    gate's own tables did not list it, were the model to propose the write."""
    doubt = gated(text, UNITS.points[point], value, UNIT_PROFILES)
    assert doubt is not None
    assert doubt.args["value_problem"] == "unit"
    assert doubt.args["unreadable"] == [said]


@pytest.mark.parametrize(("point", "text", "value"), [
    ("extract_sp", "set the extract fan flow setpoint to 30 cubic metres per minute", 30),
    ("purge_sp", "set the purge gas flow setpoint to 2 slpm", 2),
    ("drive_sp", "set the mixer drive speed to 80 percent", 80),
])
def test_the_points_own_unit_in_another_spelling_passes(point: str, text: str,
                                                         value: float) -> None:
    assert gated(text, UNITS.points[point], value, UNIT_PROFILES) is None


CUBIC = exec_plant("cubic", {
    "air_sp": {"name": "Blower air flow setpoint", "unit": "m³/min", "writable": True,
               "min": 0, "max": 500},
    "tank_sp": {"name": "Tank volume setpoint", "unit": "m³", "writable": True,
                "min": 0, "max": 500},
    "feed_sp": {"name": "Feed flow setpoint", "unit": "m³/h", "writable": True,
                "min": 0, "max": 500},
})
CUBIC_PROFILES = Router(CUBIC).rules.profiles


@pytest.mark.parametrize(("point", "text"), [
    ("air_sp", "set the blower air flow setpoint to 30 m3/min"),
    ("air_sp", "set the blower air flow setpoint to 30 m³/min"),
    ("air_sp", "blower air flow setpoint 30 cubic metres per minute"),
    ("tank_sp", "set the tank volume setpoint to 30 m3"),
    ("tank_sp", "set the tank volume setpoint to 30m³"),
    ("tank_sp", "set the tank volume setpoint to 30 m3 please"),
])
def test_cubic_metres_and_per_minute_are_a_points_own_unit(point: str, text: str) -> None:
    """A point in m³/min or m³ could not be written in its own unit: "m3/min" and "m3" were
    read as the letter m and the number 3."""
    assert gated(text, CUBIC.points[point], 30, CUBIC_PROFILES) is None


@pytest.mark.parametrize(("point", "text", "said"), [
    ("air_sp", "set the blower air flow setpoint to 30 m3/h", "m3/h"),
    ("feed_sp", "set the feed flow setpoint to 30 m3/min", "m3/min"),
    ("feed_sp", "set the feed flow setpoint to 30 cubic metres per minute",
     "cubic metres per minute"),
    ("tank_sp", "set the tank volume setpoint to 30 m3/h", "m3/h"),
])
def test_cubic_metres_per_another_time_are_another_unit(point: str, text: str,
                                                         said: str) -> None:
    doubt = gated(text, CUBIC.points[point], 30, CUBIC_PROFILES)
    assert doubt is not None and doubt.args["value_problem"] == "unit"
    assert doubt.args["unreadable"] == [said]


def test_m3_before_a_word_is_a_tag() -> None:
    """Review atk66: "line 2 M3 speed" is motor 3 of line 2, no cubic metres."""
    config = exec_plant("line", {"m3_sp": {"name": "Line 2 M3 speed setpoint", "unit": "%",
                                           "writable": True, "min": 0, "max": 100}})
    assert gated("set line 2 M3 speed setpoint to 40%", config.points["m3_sp"], 40,
                 Router(config).rules.profiles) is None


MERGED = exec_plant("merged", {
    "steam_sp": {"name": "Steam flow setpoint", "unit": "kg/h", "writable": True,
                 "min": 0, "max": 5000},
    "fuel_sp": {"name": "Fuel flow setpoint", "unit": "lb/h", "writable": True,
                "min": 0, "max": 5000},
    "feed_sp": {"name": "Feed flow setpoint", "unit": "gph", "writable": True,
                "min": 0, "max": 5000},
    "dose_sp": {"name": "Dosing flow setpoint", "unit": "L/h", "writable": True,
                "min": 0, "max": 500, "names": {"zh": "加药流量设定值"}},
})
MERGED_PROFILES = Router(MERGED).rules.profiles


@pytest.mark.parametrize(("point", "text", "said"), [
    ("steam_sp", "set the steam flow setpoint to 300 pph", "pph"),  # pounds, not kilograms
    ("fuel_sp", "set the fuel flow setpoint to 300 kgh", "kgh"),
    ("feed_sp", "set the feed flow setpoint to 50 usgpm", "usgpm"),  # per minute, not hour
    ("dose_sp", "set the dosing flow setpoint to 50 ml/min", "ml/min"),
])
def test_units_the_lexicon_had_as_one_are_two(point: str, text: str, said: str) -> None:
    """Review atk66 C1: the lexicon had lb/h with kg/h, gph with gpm and mL/min with L/h, so
    the gate's unit check took one for the other."""
    doubt = gated(text, MERGED.points[point], 50, MERGED_PROFILES)
    assert doubt is not None and doubt.args["value_problem"] == "unit"
    assert doubt.args["unreadable"] == [said]


async def test_millilitres_a_minute_in_chinese_are_not_written_as_litres_an_hour() -> None:
    action = await routed_without_model(Router(MERGED), "把加药流量设定值调到50毫升每分钟")
    assert action.name == "respond", action


def test_cubic_metres_said_to_a_level_in_metres_are_another_unit() -> None:
    """Review atk66b: "2 m3 tank" was read as 2 m and a stray 3 of a level in m."""
    config = exec_plant("tanks", {"t3_sp": {"name": "Tank 3 level setpoint", "unit": "m",
                                            "writable": True, "min": 0, "max": 10}})
    doubt = gated("set the tank 3 level setpoint to 2 m3 tank", config.points["t3_sp"], 2,
                  Router(config).rules.profiles)
    assert doubt is not None and doubt.args["unreadable"] == ["m3"]
