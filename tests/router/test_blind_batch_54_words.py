"""Blind batches 53-55 (a district heating substation, a paint shop, a flour mill, a sawmill, a
desalination plant, a gas compressor station; here on plants of my own):
- the middle of a vessel is neither its top nor its bottom (whatever word says it);
- a question yes or no that asks no quantity is not answered by a number where a switch's
  state answers it;
- a point's alias said whole is that point's, not another of its kind;
- a kind of a machine is not another kind of it (an edger is no gang saw, both saws): the
  model's answer is refused;
- 产水 is product water as much as permeate;
- "up to", "down to" with no verb before are bounds, whatever words name the point (review
  atk57).
"""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_plant, model_checked, routed_without_model

ROOM_CONFIG = exec_plant("plantroom", {
    "lthw_flow_temp": {"name": "LTHW flow temperature", "unit": "°C"},
    "lthw_return_temp": {"name": "LTHW return temperature", "unit": "°C"},
    "lthw_flow_sp": {"name": "LTHW supply temperature setpoint", "aliases": ["LTHW flow setpoint"],
                     "unit": "°C", "writable": True, "min": 40, "max": 85},
    "booster_load_sp": {"name": "Booster load setpoint", "unit": "kA", "writable": True,
                        "min": 1, "max": 9},
    "primary_flow": {"name": "Primary flow", "unit": "m³/h"},
    "calorifier_top": {"name": "Calorifier top temperature", "unit": "°C"},
    "calorifier_bottom": {"name": "Calorifier bottom temperature", "unit": "°C"},
    "buffer_top": {"name": "Buffer vessel top temperature", "unit": "°C"},
    "buffer_mid": {"name": "Buffer vessel middle temperature", "unit": "°C"},
})
ROOM = Router(ROOM_CONFIG)


@pytest.mark.parametrize(("text", "point"), [
    ("what's the LTHW flow temperature", "lthw_flow_temp"),
    ("what's the primary flow rate", "primary_flow"),
    ("LTHW flow setpoint?", "lthw_flow_sp"),
    ("what's the booster load set to", "booster_load_sp"),
])
async def test_flows_and_flow_temperatures_read(text: str, point: str) -> None:
    action = await routed_without_model(ROOM, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


@pytest.mark.parametrize("point", ["calorifier_top", "calorifier_bottom"])
def test_the_middle_is_neither_end(point: str) -> None:
    checked = model_checked(ROOM, ROOM_CONFIG, "temperature in the middle of the calorifier?",
                            Action("read", {"point": point}))
    assert checked.name == "respond", checked


def test_the_middle_said_otherwise_is_the_middle() -> None:
    action = Action("read", {"point": "buffer_mid"})
    assert model_checked(ROOM, ROOM_CONFIG, "buffer vessel centre temperature", action) == action
    checked = model_checked(ROOM, ROOM_CONFIG, "buffer vessel centre temperature",
                            Action("read", {"point": "buffer_top"}))
    assert checked.name == "respond", checked


def test_an_end_said_is_read() -> None:
    action = Action("read", {"point": "calorifier_bottom"})
    checked = model_checked(ROOM, ROOM_CONFIG, "temperature at the bottom of the calorifier?",
                            action)
    assert checked == action


MILL_CONFIG = exec_plant("mill", {
    "nip_gap": {"name": "Calender nip gap", "unit": "mm"},
    "nip_closed": {"name": "Calender nip closed", "type": "bool"},
    "pretreat_cond": {"name": "Pretreatment bath conductivity", "unit": "µS/cm"},
    "polish_rinse_cond": {"name": "DI rinse conductivity", "aliases": ["polish rinse conductivity"],
                        "unit": "µS/cm"},
})
MILL = Router(MILL_CONFIG)


def test_yes_or_no_is_not_a_number() -> None:
    checked = model_checked(MILL, MILL_CONFIG, "is the calender nip in?",
                            Action("read", {"point": "nip_gap"}))
    assert checked.name == "respond", checked


@pytest.mark.parametrize(("text", "point"), [
    ("is the calender nip in?", "nip_closed"),
    ("is the calender nip gap over 3 mm?", "nip_gap"),
    ("polish rinse conductivity", "polish_rinse_cond"),
    ("pretreatment bath conductivity?", "pretreat_cond"),
])
def test_the_answer_asked_passes(text: str, point: str) -> None:
    action = Action("read", {"point": point})
    assert model_checked(MILL, MILL_CONFIG, text, action) == action


def test_an_alias_said_whole_is_its_points() -> None:
    checked = model_checked(MILL, MILL_CONFIG, "polish rinse conductivity in micro siemens",
                            Action("read", {"point": "pretreat_cond"}))
    assert checked.name == "respond", checked


SAW_CONFIG = exec_plant("sawline", {
    "gang_speed": {"name": "Gang saw speed", "unit": "m/s"},
    "gang_amps": {"name": "Gang saw motor current", "unit": "A"},
    "product_level": {"name": "Product water tank level", "unit": "%"},
})
SAW = Router(SAW_CONFIG)


@pytest.mark.parametrize("text", ["what's the resaw speed", "edger speed?"])
def test_another_kind_of_saw_is_not_named(text: str) -> None:
    checked = model_checked(SAW, SAW_CONFIG, text, Action("read", {"point": "gang_speed"}))
    assert checked.name == "respond", checked


@pytest.mark.parametrize(("text", "point"), [
    ("what's the saw speed", "gang_speed"),
    ("gang saw amps?", "gang_amps"),
    ("产水罐液位", "product_level"),
])
async def test_the_kind_said_reads(text: str, point: str) -> None:
    action = await routed_without_model(SAW, text)
    assert action.to_dict() == {"name": "read", "args": {"point": point}}


KILN_CONFIG = exec_plant("kilns", {
    "kiln1_mc": {"name": "Kiln 1 average moisture content", "unit": "%"},
    "kiln1_rh": {"name": "Kiln 1 relative humidity", "unit": "%RH"},
    "trolley_speed": {"name": "Trolley transfer speed", "unit": "m/min"},
    "trolley_speed_sp": {"name": "Trolley transfer speed setpoint", "unit": "m/min",
                         "writable": True, "min": 1, "max": 30},
    "chamber1_sp": {"name": "Chill chamber 1 setpoint", "unit": "°C", "writable": True,
                    "min": 2, "max": 20},
    "kiln1_mode": {"name": "Kiln 1 schedule step", "type": "int", "writable": True,
                   "map": {0: "heat up", 1: "dry", 2: "condition"}},
})
KILN = Router(KILN_CONFIG)


@pytest.mark.parametrize("text", [
    "chill chamber 1 down to eight degrees",
    "chill chamber 1 up to eight degrees",
    "chill chamber temperature up to 8",  # (in other words than the point's: review atk57)
    "trolley transfer rate up to 20",
    "move chill chamber 1 to 2",
    "move kiln 1 to the condition step",
])
async def test_no_verb_no_write(text: str) -> None:
    """ "Up to", "down to" without a verb before are bounds (or reports), never a value to
    set; "move" is no write verb ("move pump 1 to 2": the duty to pump 2, review atk57)."""
    action = await routed_without_model(KILN, text)
    assert action.name == "respond", action


@pytest.mark.parametrize(("text", "point", "value"), [
    ("drop chill chamber 1 down to eight degrees", "chamber1_sp", 8),
    ("bring the trolley transfer speed up to 20", "trolley_speed_sp", 20),
    ("nudge the trolley transfer speed up to 20", "trolley_speed_sp", 20),
])
async def test_a_verb_makes_it_a_change(text: str, point: str, value: object) -> None:
    action = await routed_without_model(KILN, text)
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


STATION = Router(exec_plant("station", {
    "recycle1_out": {"name": "Unit 1 recycle valve output", "unit": "%", "writable": True,
                     "min": 0, "max": 100},
    "unit1_run": {"name": "Unit 1 start/stop command", "type": "bool", "writable": True},
    "unit1_speed_sp": {"name": "Unit 1 engine speed setpoint", "unit": "rpm", "writable": True,
                       "min": 700, "max": 1200},
}))


async def test_all_the_way_is_no_plural() -> None:
    """ "all the way" is fully, of the one valve said (blind batch 55 was told writes are one
    point per command)."""
    action = await routed_without_model(STATION, "close the recycle on unit one all the way")
    assert not action.args.get("plural"), action
    action = await routed_without_model(STATION, "stop all the units")
    assert action.args.get("plural"), action
