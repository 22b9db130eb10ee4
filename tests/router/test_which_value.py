"""Which of a measure's values a question asks: yesterday's, the peak, the mean, the spread.

"how much gas did we sell yesterday", of a meter with a volume today and a volume yesterday:
the model's pick of today's is refused (blind batch 42, where "yesterday" and "today" were one
period to the lexicon). A pick that says the value asked passes."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked

CONFIG = exec_devices("station", {"meter": {
    "vol_today": {"name": "FT301_Vol_Today", "unit": "MCF",
                  "description": "Sales meter volume since contract hour (current gas day)"},
    "vol_yday": {"name": "FT301_Vol_Yday", "unit": "MCF",
                 "description": "Sales meter volume, previous gas day"},
    "cyl_max": {"name": "Cylinder discharge temperature max", "unit": "°C"},
    "cyl_avg": {"name": "Cylinder discharge temperature average", "unit": "°C"},
    "thickness": {"name": "Average Thickness", "unit": "µm"},
    "speed_sp": {"name": "Hoist speed setpoint", "unit": "m/s", "writable": True, "min": 0,
                 "max": 12},
    "fuel_today": {"name": "Fuel gas used today", "unit": "MCF"},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "point"), [
    ("how much gas did we sell yesterday", "vol_today"),
    ("昨天卖了多少气", "vol_today"),
    ("what's the maximum cylinder discharge temperature", "cyl_avg"),
    ("average cylinder discharge temp?", "cyl_max"),
    # today's is no answer to yesterday, even where the plant counts nothing else of it
    ("how much fuel gas did we burn yesterday", "fuel_today"),
    # a statistic the plant has of no point: the average is no answer to it
    ("thickness 2-sigma on the profile?", "thickness"),
    ("what's the standard deviation of the film thickness", "thickness"),
])
def test_another_value_of_the_measure_is_refused(text: str, point: str) -> None:
    checked = model_checked(ROUTER, CONFIG, text, Action("read", {"point": point}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked


@pytest.mark.parametrize(("text", "point"), [
    ("how much gas did we sell yesterday", "vol_yday"),
    ("昨天卖了多少气", "vol_yday"),
    ("what's the maximum cylinder discharge temperature", "cyl_max"),
    ("how much fuel gas have we burned today", "fuel_today"),
    ("what's the film thickness", "thickness"),
])
def test_the_value_asked_passes(text: str, point: str) -> None:
    action = Action("read", {"point": point})
    assert model_checked(ROUTER, CONFIG, text, action) == action


def test_a_past_periods_target_is_no_setting() -> None:
    # "last shift" names another value than the hoist's speed setting (review atk48)
    action = Action("write", {"point": "speed_sp", "value": 5})
    checked = model_checked(ROUTER, CONFIG, "set last shift target to 5", action)
    assert checked.name == "respond", checked


def test_a_settings_top_value_is_the_setting() -> None:
    # 最高速度设定 ("top speed setting") of a winder is its speed setpoint
    action = Action("write", {"point": "speed_sp", "value": 9})
    assert model_checked(ROUTER, CONFIG, "把提升机最高速度设定为9米每秒", action) == action
