"""A rate said in words per another time than the point's ("300 kg per min" of a dosing rate in
kg/h) is another unit: writing 300 kg/h would be sixty times less than asked. The write gate
refused "300 kg/min" and let "300 kg per min" through were the model to propose it (review
atk63). A rate per the point's own time, in any words, is still its unit."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import config_of, exec_plant, own_plant

CONFIG = exec_plant("rates", {
    "filler_sp": {"name": "Filler speed setpoint", "unit": "bottles/h", "writable": True,
                  "min": 0, "max": 60000},
    "line_sp": {"name": "Line speed setpoint", "unit": "birds/min", "writable": True,
                "min": 0, "max": 200},
    "feed_sp": {"name": "Feed flow setpoint", "unit": "m³/h", "writable": True,
                "min": 0, "max": 100},
})
PROFILES = Router(CONFIG).rules.profiles
EFW = config_of(own_plant("efw_plant"))


@pytest.mark.parametrize(("point", "text", "value", "said"), [
    ("filler_sp", "set the filler to 4000 bottles per min", 4000, "bottles per min"),
    ("feed_sp", "feed flow 30 cubic metres per minute", 30, "cubic metres per minute"),
    ("feed_sp", "feed flow to 30 m3 per second", 30, "m3 per second"),
    ("filler_sp", "set the filler to 4000 bottles／min", 4000, "bottles/min"),  # full width
    ("filler_sp", "set the filler to 4000 bottles\\min", 4000, "bottles/min"),
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
