"""A model's pick between points that only an unsaid number tells apart is refused.

"start the transfer pump", where one transfer pump is "Transfer pump 1, run command" and the
other the "Day tank transfer pump": the words fit both, and no word says which. The model can
tell points apart by what they mean, not by a number nobody said, and it tends to take the
first (review atk46b). The check asks which one instead. A number said, a word only one of them
has, or a tag's loop number (which numbers no machine) leaves the pick alone."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked

CONFIG = exec_devices("works", {"dcs": {
    "hs_301": {"name": "HS-301", "type": "bool", "writable": True,
               "description": "Transfer pump 1, run command"},
    "hs_305": {"name": "HS-305", "type": "bool", "writable": True,
               "description": "Day tank transfer pump start/stop"},
    "rw_pump_1": {"name": "Raw water pump 1", "type": "bool", "writable": True},
    "rw_pump_sb": {"name": "Standby raw water pump", "type": "bool", "writable": True},
    "sic_4240_sp": {"name": "SIC-4240.SP", "unit": "rpm", "writable": True, "min": 0, "max": 6,
                    "description": "Dryer drum rotation speed setpoint"},
    "sic_4250_sp": {"name": "SIC-4250.SP", "unit": "rpm", "writable": True, "min": 0,
                    "max": 1500, "description": "Dryer ID fan speed setpoint"},
    "gauge1_rate": {"name": "Rain gauge 1 intensity", "unit": "mm/h"},
    "gauge1_total": {"name": "Rain gauge 1 24h total", "unit": "mm"},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "point"), [
    ("start the transfer pump", "hs_301"),
    ("start the transfer pump", "hs_305"),
    ("stop the raw water pump", "rw_pump_1"),
    ("stop the raw water pump", "rw_pump_sb"),
])
def test_a_pick_no_word_tells_from_another_is_refused(text: str, point: str) -> None:
    value = not text.startswith("stop")
    checked = model_checked(ROUTER, CONFIG, text, Action("write", {"point": point,
                                                                   "value": value}))
    assert checked.name == "respond" and checked.args["reason"] == "not_understood", checked


@pytest.mark.parametrize(("text", "point", "value"), [
    ("start transfer pump 1", "hs_301", True),
    ("start the day tank transfer pump", "hs_305", True),
    ("stop raw water pump one", "rw_pump_1", False),
    ("stop the standby raw water pump", "rw_pump_sb", False),
    # a tag's loop number numbers no dryer: the drum is told from the fan by its words
    ("set the dryer drum speed to 4", "sic_4240_sp", 4),
])
def test_a_pick_the_words_tell_apart_passes(text: str, point: str, value: object) -> None:
    action = Action("write", {"point": point, "value": value})
    assert model_checked(ROUTER, CONFIG, text, action) == action


def test_points_of_the_same_numbered_thing_are_told_apart_by_meaning() -> None:
    # both are rain gauge 1's: which one a question asks is the model's to tell
    action = Action("read", {"point": "gauge1_rate"})
    assert model_checked(ROUTER, CONFIG, "how hard is it raining at the gauge", action) == action
