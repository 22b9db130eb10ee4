"""Three ways a tag-named or terse plant was misread, seen on blind batches 37 and 39:

- a switch described as "<thing>, run command" or "<thing of five words> start/stop" is named
  by its thing ("start the hood supply fan"), and the thing's last word must still be said
  ("start the main burner" starts no "Main burner primary air fan");
- a fault, trip or alarm asked of a point that tells none (its thing's run switch) is refused,
  not answered with whether the thing runs;
- a read that asks no setting is not placed on a setpoint by the rules where the plant measures
  what the setpoint sets ("what is the electrical power": the power, not its setpoint)."""

from __future__ import annotations

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked, routed_without_model

CONFIG = exec_devices("works", {"dcs": {
    "hs_2240": {"name": "HS-2240", "type": "bool", "writable": True,
                "description": "Dryer hood supply air fan, run command"},
    "hs_2241": {"name": "HS-2241", "type": "bool", "writable": True,
                "description": "Dryer hood exhaust air fan, run command"},
    "hs_4420": {"name": "HS-4420", "type": "bool", "writable": True,
                "description": "Main burner primary air fan start/stop"},
    "ti_4420": {"name": "TI-4420", "unit": "°C", "description": "Main burner flame temperature"},
    "hs_4342": {"name": "HS-4342", "type": "bool", "writable": True,
                "description": "Shell cooling fan 2 start/stop"},
    "xa_4342": {"name": "XA-4342", "type": "bool", "description": "Shell cooling fan 2 motor trip"},
    "ct_fan": {"name": "Cooling tower fan", "type": "bool", "writable": True},
    "ct_temp": {"name": "Cooling tower basin temperature", "unit": "°C"},
    "chp_pwr": {"name": "CHP_Pwr", "unit": "kW", "names": {"zh": "发电机组功率"},
                "description": "CHP gas engine generator active power"},
    "chp_pwr_sp": {"name": "CHP_Pwr_SP", "unit": "kW", "writable": True, "min": 0, "max": 600,
                   "names": {"zh": "发电功率设定"},
                   "description": "CHP electrical power setpoint"},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("text", "point", "value"), [
    ("start the hood supply fan", "hs_2240", True),
    ("kill the hood exhaust fan", "hs_2241", False),
    ("start the primary air fan", "hs_4420", True),
])
async def test_a_switch_is_named_by_the_thing_it_runs(text: str, point: str,
                                                      value: bool) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


@pytest.mark.parametrize("text", ["start the main burner", "stop the dryer hood",
                                  "start the dryer"])
async def test_a_part_named_is_no_switch_of_the_whole(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name != "write", text


async def test_the_refusal_names_the_words_of_the_thing_not_its_tag() -> None:
    action = await routed_without_model(ROUTER, "start the main burner")
    assert action.name == "respond" and action.args.get("value_problem") == "part"
    assert action.args["unreadable"] == ["primary", "air", "fan"]


@pytest.mark.parametrize(("text", "switch"), [
    ("is the cooling tower fan faulted", "ct_fan"),
    ("is the second shell cooling fan tripped?", "hs_4342"),
    ("any alarm on the cooling tower fan", "ct_fan"),
])
def test_a_run_switch_tells_no_fault(text: str, switch: str) -> None:
    checked = model_checked(ROUTER, CONFIG, text, Action("read", {"point": switch}))
    assert checked.name == "respond" and checked.args["reason"] == "unknown_point", checked


def test_a_fault_asked_of_a_trip_point_is_read() -> None:
    checked = model_checked(ROUTER, CONFIG, "is the second shell cooling fan tripped?",
                            Action("read", {"point": "xa_4342"}))
    assert checked == Action("read", {"point": "xa_4342"})
    # and whether it runs is still read from its switch
    checked = model_checked(ROUTER, CONFIG, "is shell cooling fan 2 running",
                            Action("read", {"point": "hs_4342"}))
    assert checked == Action("read", {"point": "hs_4342"})


@pytest.mark.parametrize("text", ["what is the electrical power", "现在发电功率是多少"])
async def test_a_reading_is_read_where_no_setting_is_asked(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": "chp_pwr"}), text


@pytest.mark.parametrize("text", ["what's the electrical power setpoint",
                                  "what is the chp power set to", "发电功率设定是多少",
                                  "what chp power are we targeting"])
async def test_a_setting_asked_is_read_from_the_setpoint(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == ("read", {"point": "chp_pwr_sp"}), text
