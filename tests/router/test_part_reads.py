"""A read of a unit's machine is no answer to whether the unit runs.

"is chiller 1 running", where chiller 1 has only its "condenser water pump start/stop": whether
the pump runs says nothing of the chiller, as "start chiller 1" starts no pump (review atk46b).
The rules leave such a read to the model, and the model's pick of it is refused with the words
it left unsaid. A unit's own switch, a machine said in full, what only a machine does ("are the
dust sprays on" of the spray pump) and a unit's fault points are read as before."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked, routed_without_model

CONFIG = exec_devices("works", {"plc": {
    "hs_401": {"name": "HS-401", "type": "bool", "writable": True,
               "description": "Chiller 1 condenser water pump start/stop"},
    "chiller2_run": {"name": "Chiller 2 run", "type": "bool", "writable": True},
    "chiller2_cw_pump": {"name": "Chiller 2 condenser water pump", "type": "bool",
                         "writable": True},
    "boiler_fw_pump": {"name": "Boiler 3 feed pump", "type": "bool", "writable": True},
    "boiler_pressure": {"name": "Boiler 3 steam pressure", "unit": "bar"},
    "chiller1_trip": {"name": "Chiller 1 compressor trip", "type": "bool"},
    "spray_pump": {"name": "Dust suppression spray pump", "type": "bool", "writable": True},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "point", "part"), [
    ("is chiller 1 running", "hs_401", "pump"),
    ("is boiler 3 on", "boiler_fw_pump", "pump"),
    ("is chiller 2 running", "chiller2_cw_pump", "pump"),
])
async def test_a_read_of_a_units_machine_is_refused(text: str, point: str, part: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.args.get("point") != point, (text, action)
    checked = model_checked(ROUTER, CONFIG, text, Action("read", {"point": point}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked
    assert part in checked.args["asked"].split()


@pytest.mark.parametrize(("text", "point"), [
    ("is chiller 2 running", "chiller2_run"),
    ("is the chiller 1 condenser water pump running", "hs_401"),
    ("is boiler 3 feed pump on", "boiler_fw_pump"),
    ("are the dust sprays on", "spray_pump"),
])
async def test_a_units_own_switch_and_a_machine_said_are_read(text: str, point: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": point}), text


def test_a_units_fault_is_read_of_the_unit() -> None:
    action = Action("read", {"point": "chiller1_trip"})
    assert model_checked(ROUTER, CONFIG, "any trip on chiller 1", action) == action


SHORTHAND = exec_devices("boilers", {"plc": {
    "b6_fd": {"name": "Boiler 6 FD fan", "type": "bool", "writable": True},
    "b1_bd": {"name": "Boiler 1 blowdown valve", "type": "bool", "writable": True},
    "b1_circ": {"name": "Boiler 1 circulating pump", "type": "bool", "writable": True},
    "b1_pressure": {"name": "Boiler 1 steam pressure", "unit": "bar"},
}})


@pytest.mark.parametrize(("text", "point"), [
    ("is boiler 6 FD running", "b6_fd"),
    ("is boiler 1 blowdown open", "b1_bd"),
    ("is the boiler 1 circulation on", "b1_circ"),
])
async def test_a_part_said_by_its_own_words_is_read(text: str, point: str) -> None:
    # (review atk47: the operator's shorthand names the part without its machine word)
    action = await routed_without_model(Router(SHORTHAND), text)
    assert (action.name, action.args) == ("read", {"point": point}), text
