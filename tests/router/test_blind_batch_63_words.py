"""Blind batch 63 (a winery, a float-glass line, a poultry plant), on plants of my own:
- "how much <medium>" asks the amount of the medium, which a concentration of another
  substance in it is not ("how much fresh water is going into the chillers" of a "Chiller PAA
  concentration" described as in the chiller water);
- "do a manual reversal now" asks something done, which no read carries out;
- a Chinese rate said around its number (每小时3000方, 每分钟120只, 3000方每小时) is the
  point's unit, and 每小时 anywhere else is "every hour", which no write now carries out;
- review atk63: a measure word counts only the thing of its rate (140瓶 is no rate of birds,
  60次 none of mL/min); "do a check on …" asks a reading; "how much peracetic acid is in the
  chiller water" is the acid's concentration.
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, model_checked, routed_without_model

CONFIG = exec_plant("b63", {
    "rinse_cl": {"name": "Rinse tank chlorine concentration", "unit": "ppm",
                 "description": "Free chlorine in the rinse tank water"},
    "rinse_makeup": {"name": "Rinse tank make-up water flow", "unit": "L/min"},
    "rinse_temp": {"name": "Rinse tank water temperature", "unit": "°C"},
    "manual_purge": {"name": "Manual purge", "type": "bool", "writable": True,
                     "description": "Set true to purge the line now"},
    "purge_interval": {"name": "Purge interval", "unit": "min", "writable": True,
                       "min": 5, "max": 60},
    "frz_air": {"name": "Tunnel freezer air temperature", "unit": "°C"},
    "frz_dwell": {"name": "Tunnel freezer dwell time", "unit": "min", "writable": True,
                  "min": 10, "max": 90},
    "feed_flow_sp": {"name": "Feed flow setpoint", "unit": "m³/h", "writable": True,
                     "min": 0, "max": 100},
    "filler_sp": {"name": "Filler speed setpoint", "unit": "bottles/h", "writable": True,
                  "min": 0, "max": 6000},
    "line_sp": {"name": "Line speed setpoint", "unit": "birds/min", "writable": True,
                "min": 0, "max": 200},
    "dose_sp": {"name": "Dosing rate setpoint", "unit": "mL/min", "writable": True,
                "min": 0, "max": 500},
    "crown_temp": {"name": "Furnace crown temperature", "unit": "°C"},
    "fv3_temp": {"name": "FV3 temperature", "unit": "°C"},
    "glycol_level": {"name": "Glycol tank level", "unit": "%"},
    "scalder_temp": {"name": "Scalder water temperature", "unit": "°C"},
    "plucker2_run": {"name": "Plucker 2 running", "type": "bool"},
})
ROUTER = Router(CONFIG)


def _checked(text: str, action: Action) -> Action:
    return model_checked(ROUTER, CONFIG, text, action)


@pytest.mark.parametrize("text", [
    "how much fresh water is going into the rinse tank",
    "how much water is in the rinse tank",
])
async def test_how_much_of_a_medium_is_no_concentration_of_another_substance(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.args.get("point") != "rinse_cl", action


CHILLER = exec_plant("chiller", {
    "paa": {"name": "Chiller PAA concentration", "unit": "ppm",
            "description": "Peracetic acid in the chiller water"},
    "chill_flow": {"name": "Chiller make-up flow", "unit": "L/min"},
    "chill_level": {"name": "Chiller level", "unit": "%"},
})


@pytest.mark.parametrize("text", ["how much water is in the chiller",
                                  "how much water is going into the chiller"])
async def test_how_much_water_is_no_concentration_where_the_point_is_named_by_its_place(
        text: str) -> None:
    """ "how much water" is one phrase of the lexicon, a volume; its water is the medium the
    acid is in all the same (review atk63, note N1: the point is named "Chiller")."""
    router = Router(CHILLER)
    action = await routed_without_model(router, text)
    assert action.args.get("point") != "paa", action
    checked = model_checked(router, CHILLER, text, Action("read", {"point": "paa"}))
    assert checked.name == "respond", checked


@pytest.mark.parametrize("text", ["how much chlorine is in the rinse tank water",
                                  "rinse tank chlorine"])
async def test_the_substance_named_is_its_concentration(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.to_dict() == {"name": "read", "args": {"point": "rinse_cl"}}


@pytest.mark.parametrize("text", ["do a manual purge now", "please do a manual purge",
                                  "perform a manual purge", "trigger a manual purge"])
async def test_asked_done_is_no_read(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name != "read", action


async def test_a_question_about_the_switch_is_still_a_read() -> None:
    action = await routed_without_model(ROUTER, "is the manual purge on")
    assert action.to_dict() == {"name": "read", "args": {"point": "manual_purge"}}


@pytest.mark.parametrize(("text", "point", "value"), [
    ("进料流量设定调到每小时30方", "feed_flow_sp", 30),
    ("进料流量设定调到30方每小时", "feed_flow_sp", 30),
    ("灌装速度设定调到每小时四千瓶", "filler_sp", 4000),
    ("线速设定调到每分钟120只", "line_sp", 120),
])
def test_a_chinese_rate_said_around_its_number_is_the_points_unit(
        text: str, point: str, value: int) -> None:
    """The model's write as the check and the write gate see it."""
    action = Action("write", {"point": point, "value": value})
    assert _checked(text, action) == action
    assert gated(text, CONFIG.points[point], value, ROUTER.rules.profiles) is None


@pytest.mark.parametrize(("text", "point", "value"), [
    ("每小时把进料流量设定调到30方", "feed_flow_sp", 30),
    ("进料流量设定每小时调到30方", "feed_flow_sp", 30),
    ("进料流量设定调到30方，每小时", "feed_flow_sp", 30),
    ("每天把灌装速度设定调到四千瓶每小时", "filler_sp", 4000),
    ("3号线每小时把进料流量设定调到30方", "feed_flow_sp", 30),  # 3号 is no value (atk63)
    ("进料流量设定每小时一定调到30方", "feed_flow_sp", 30),  # 一定 is no value
    ("进料流量设定每小时请调到30方", "feed_flow_sp", 30),  # asked politely, still every hour
    ("每小时请把进料流量设定调到30方", "feed_flow_sp", 30),
    ("进料流量设定每小时切换到30方", "feed_flow_sp", 30),
])
def test_every_hour_apart_from_the_number_is_no_write_now(
        text: str, point: str, value: int) -> None:
    asked = gated(text, CONFIG.points[point], value, ROUTER.rules.profiles)
    assert asked is not None and asked.args["value_problem"] == "when", asked


@pytest.mark.parametrize(("text", "point"), [
    ("烫毛机水温多少", "scalder_temp"),
    ("2号脱毛机在运行吗", "plucker2_run"),
    ("is the second picker running", "plucker2_run"),
])
def test_words_of_the_trade(text: str, point: str) -> None:
    action = Action("read", {"point": point})
    assert _checked(text, action) == action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("线速设定调到每分钟120瓶", "line_sp", 120),  # bottles are no birds
    ("加药量设定调到每分钟60次", "dose_sp", 60),  # strokes are no millilitres
    ("加药量设定调到60次", "dose_sp", 60),
    ("灌装速度设定调到每小时四千袋", "filler_sp", 4000),
    ("进料流量设定调到每小时30个", "feed_flow_sp", 30),  # items are no cubic metres
    ("进料流量设定调到30个每小时", "feed_flow_sp", 30),
])
def test_a_measure_word_counts_only_the_thing_of_its_rate(
        text: str, point: str, value: int) -> None:
    assert gated(text, CONFIG.points[point], value, ROUTER.rules.profiles) is not None


async def test_do_a_check_asks_a_reading() -> None:
    action = await routed_without_model(ROUTER, "do a check on the purge interval")
    assert action.to_dict() == {"name": "read", "args": {"point": "purge_interval"}}


async def test_how_much_of_the_substance_in_a_medium_is_its_concentration() -> None:
    action = await routed_without_model(ROUTER, "how much free chlorine is in the rinse tank water")
    assert action.to_dict() == {"name": "read", "args": {"point": "rinse_cl"}}


def test_the_model_reading_the_concentration_for_an_amount_of_its_medium_is_refused() -> None:
    got = _checked("how much fresh water is going into the rinse tank",
                   Action("read", {"point": "rinse_cl"}))
    assert got.name == "respond", got
    read = Action("read", {"point": "rinse_cl"})
    assert _checked("how much free chlorine is in the rinse tank water", read) == read
