"""Start and stop where a plant's names say them: a run switch whose name ends with the pair
("Pump 16 run (start-stop)", "Pump 18 start/stop"), beside the pump's speed; and push buttons
named by the action ("Start pump 1"), which "start pump 1" presses and "start pump 16" does not."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

PUMPS = Router(exec_plant("pumps", {
    "p16_run": {"name": "Pump 16 run (start-stop)", "type": "bool", "writable": True},
    "p16_speed": {"name": "Pump 16 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "p18_run": {"name": "Pump 18 start/stop", "type": "bool", "writable": True},
    "p18_speed": {"name": "Pump 18 speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "start_p1": {"name": "Start pump 1", "type": "bool", "writable": True},
    "p1_running": {"name": "Pump 1 running", "type": "bool"},
    "start_fan3": {"name": "Start fan 3", "type": "bool", "writable": True},
    "permissive": {"name": "Start permissive", "type": "bool", "writable": True},
    "starts": {"name": "Start-up counter", "unit": "starts"},
    "start_air": {"name": "Start air pressure", "unit": "bar"},
}))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("stop pump 16", "p16_run", False),
    ("start pump 16", "p16_run", True),
    ("kill pump 16", "p16_run", False),
    ("pump 16 off", "p16_run", False),
    ("start pump 18", "p18_run", True),
    ("stop pump 18", "p18_run", False),
    ("start pump 1", "start_p1", True),
    ("start fan 3", "start_fan3", True),
])
async def test_start_and_stop_switch_the_run_switch(text: str, point: str, value: bool) -> None:
    """Never the pump's speed, nor a read: the pair in a run switch's name is its kind, and a
    button named by the action is pressed by it."""
    action = await routed_without_model(PUMPS, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value}), action


@pytest.mark.parametrize(("text", "point"), [
    ("pump 16 speed", "p16_speed"),
    ("is pump 1 running", "p1_running"),
    ("start permissive", "permissive"),
    ("start up counter", "starts"),
    ("start air pressure", "start_air"),
])
async def test_a_name_that_starts_with_start_is_read(text: str, point: str) -> None:
    """A start word before no thing ("start permissive") names a point; nothing is pressed."""
    action = await routed_without_model(PUMPS, text)
    assert (action.name, action.args) == ("read", {"point": point}), action


@pytest.mark.parametrize("text", ["start pump 1?", "start pump 1 at 5pm", "start fan 4",
                                  "stop pump 1"])
async def test_a_button_is_not_pressed_by_a_question_a_time_or_another_thing(text: str) -> None:
    """Asked, timed, another fan, or a stop of a plant with no stop button: nothing is
    written."""
    action = await routed_without_model(PUMPS, text)
    assert action.name != "write", action


OFF_GAS = Router(exec_plant("scrubber", {
    "og_speed": {"name": "Off-gas fan speed", "unit": "%", "writable": True, "min": 0, "max": 100},
    "og_run": {"name": "Off-gas fan run", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("text", "value"), [
    ("start the off-gas fan", True),
    ("stop the off-gas fan", False),
    ("kill the off-gas fan", False),
    ("turn the off-gas fan on", True),
])
async def test_an_on_off_word_inside_a_things_name_is_the_things(text: str, value: bool) -> None:
    """The "off" of "off-gas" is a word of the gas: "start the off-gas fan" starts its run
    switch (it had been a tie with the fan's speed, asked back)."""
    action = await routed_without_model(OFF_GAS, text)
    assert (action.name, action.args) == ("write", {"point": "og_run", "value": value}), action
