"""A change asked for later, for a while or over a time said with no figure ("set the feed to
120 t/h in an hour", "fan to 1200 rpm for a minute") is no write to make now. The gate refused
"in 10 minutes" but let "in an hour" through to a point whose unit is per hour: "hour" was taken
for a word of its unit. A rate's own unit with its time spelled another way ("120 t/hr") is
still its unit, no time of day."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.write_gate import gated
from tests.support.plants import exec_plant, routed_without_model

CONFIG = exec_plant("rates", {
    "feed_sp": {"name": "Cold feed rate setpoint", "unit": "t/h", "writable": True,
                "min": 0, "max": 300, "names": {"zh": "冷料进料设定"}},
    "fan_sp": {"name": "Fan speed setpoint", "unit": "rpm", "writable": True,
               "min": 0, "max": 3000},
    "dose_sp": {"name": "Lime dosing setpoint", "unit": "kg/h", "writable": True,
                "min": 0, "max": 500},
    "fill_sp": {"name": "Fill time setpoint", "unit": "min", "writable": True,
                "min": 0, "max": 60},
})
PROFILES = Router(CONFIG).rules.profiles


@pytest.mark.parametrize(("point", "text", "value", "said"), [
    ("feed_sp", "set the cold feed rate setpoint to 120 t/h in an hour", 120, "in an hour"),
    ("feed_sp", "in an hour set the cold feed rate setpoint to 120", 120, "in an hour"),
    ("feed_sp", "set the cold feed rate setpoint to 120 for an hour", 120, "for an hour"),
    ("feed_sp", "cold feed rate setpoint 120 t/hr inside an hour", 120, "inside an hour"),
    ("fan_sp", "set the fan speed setpoint to 1200 rpm in a minute", 1200, "in a minute"),
    ("fan_sp", "fan speed setpoint to 1200 in a few minutes", 1200, "in a few minutes"),
    ("dose_sp", "lime dosing setpoint 300 kg/h for an hour", 300, "for an hour"),
    ("fill_sp", "set the fill time setpoint to 12 in a minute", 12, "in a minute"),
    ("feed_sp", "set the cold feed rate setpoint to 120 t/h on the hour", 120, "on the hour"),
    ("feed_sp", "cold feed rate setpoint 120 t/h for this hour", 120, "for this hour"),
    ("feed_sp", "等一下把冷料进料设定调到120", 120, "等一下"),  # (review atk66)
    ("feed_sp", "set the cold feed rate setpoint to 120 t/h for the hour", 120, "for the hour"),
    ("fan_sp", "fan speed setpoint to 1200 rpm for the minute please", 1200, "for the minute"),
])
def test_a_time_said_in_words_is_when(point: str, text: str, value: float, said: str) -> None:
    """As the model would propose these writes: refused, and the refusal names the time."""
    doubt = gated(text, CONFIG.points[point], value, PROFILES)
    assert doubt is not None
    assert doubt.args["value_problem"] == "when"
    assert doubt.args["unreadable"] == [said]


@pytest.mark.parametrize(("point", "text", "value"), [
    ("feed_sp", "cold feed rate setpoint 120 tonnes per hour over the next hour", 120),
    ("feed_sp", "cold feed rate setpoint 120 t/hr within the hour", 120),
    ("dose_sp", "lime dosing setpoint 300 kg/h for a couple of hours", 300),
    ("feed_sp", "cold feed rate setpoint to 120 t/hr an hour from now", 120),
    ("dose_sp", "lime dosing setpoint 300 kg/h after a couple of hours", 300),
    ("feed_sp", "set the cold feed rate setpoint to 120 t/h in half an hour", 120),
])
def test_a_time_said_with_other_doubts_is_refused(point: str, text: str, value: float) -> None:
    assert gated(text, CONFIG.points[point], value, PROFILES) is not None


@pytest.mark.parametrize(("point", "text", "value"), [
    ("feed_sp", "set the cold feed rate setpoint to 120 t/hr", 120),
    ("feed_sp", "set the cold feed rate setpoint to 120 t/hour", 120),
    ("feed_sp", "cold feed rate setpoint 120 tonnes an hour", 120),
    ("dose_sp", "set the lime dosing setpoint to 300 kg/hr", 300),
    ("fan_sp", "fan speed setpoint 1200 revs per minute", 1200),
    ("fill_sp", "set the fill time setpoint to twelve minutes", 12),
])
def test_the_points_own_unit_is_no_time(point: str, text: str, value: float) -> None:
    assert gated(text, CONFIG.points[point], value, PROFILES) is None


@pytest.mark.parametrize(("text", "said"), [
    ("set the cold feed rate setpoint to 120 t/hr at 5 pm", "pm"),
    ("set the cold feed rate setpoint to 120 t/min", "t/min"),
])
def test_a_rate_spelled_another_way_is_still_checked(text: str, said: str) -> None:
    doubt = gated(text, CONFIG.points["feed_sp"], 120, PROFILES)
    assert doubt is not None and doubt.args["unreadable"] == [said]


async def test_the_rules_do_not_write_now_what_is_asked_for_later() -> None:
    """The rules wrote this one at once: every word of it but the time is the point's."""
    action = await routed_without_model(Router(CONFIG),
                                        "set the fill time setpoint to 12 in a minute")
    assert action.name == "respond", action
    assert action.args.get("value_problem") == "when", action.args


async def test_a_rate_spelled_another_way_is_written_by_the_rules() -> None:
    """Refused before, "hr" taken for a time of day."""
    action = await routed_without_model(Router(CONFIG),
                                        "set the cold feed rate setpoint to 120 t/hr")
    assert (action.name, action.args) == ("write", {"point": "feed_sp", "value": 120})


async def test_an_ordinal_after_in_the_is_no_time() -> None:
    """Review atk66: "in the second house" was taken for a time."""
    config = exec_plant("poultry", {
        "house2_sp": {"name": "House 2 temperature setpoint", "unit": "°C", "writable": True,
                      "min": 10, "max": 35}})
    action = await routed_without_model(Router(config),
                                        "set the temperature setpoint in the second house to 24")
    assert (action.name, action.args) == ("write", {"point": "house2_sp", "value": 24})
