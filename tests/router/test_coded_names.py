"""Points named by codes that hold no word — a power plant's KKS codes ("10LAC10AP001"), an IEC
81346 reference designation ("=WFI+LOOP-TT101") — are said as their descriptions begin, as
points named by ISA tags are: an operator says "boiler 1 drum pressure", never the code. Before,
such a point was reached by its description alone, which the rules and the model's check
trust for no read (blind batch 40: a CO2 capture unit in KKS codes)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.tags import TAG_ONLY
from tests.support.plants import exec_devices, routed_without_model

CONFIG = exec_devices("unit10", {"dcs": {
    "had10cp": {"name": "10HAD10CP001", "unit": "bar", "description": "Boiler 1 drum pressure"},
    "had20cp": {"name": "20HAD10CP001", "unit": "bar", "description": "Boiler 2 drum pressure"},
    "had10cl": {"name": "10HAD10CL001", "unit": "mm", "description": "Boiler 1 drum level"},
    "lac10ap": {"name": "10LAC10AP001", "type": "bool", "writable": True,
                "description": "Boiler feed pump 1, run command"},
    "lac20ap": {"name": "10LAC20AP001", "type": "bool", "writable": True,
                "description": "Boiler feed pump 2, run command"},
    "lac10xa": {"name": "10LAC10AP001-XA01", "type": "bool",
                "description": "Boiler feed pump 1 motor trip"},
    "lac10cf": {"name": "10LAC10CF001", "unit": "t/h",
                "description": "Boiler feed pump 1 discharge flow"},
    "hna10an": {"name": "10HNA10AN001", "unit": "rpm", "description": "Induced draught fan 1 speed"},
    "hna10sp": {"name": "10HNA10AN001-SP", "unit": "rpm", "writable": True, "min": 200,
                "max": 990, "description": "Induced draught fan 1 speed setpoint"},
    "loop_tt": {"name": "=WFI+LOOP-TT101", "unit": "°C",
                "description": "WFI loop return temperature"},
    "loop_sp": {"name": "=WFI+LOOP-TT101-SP", "unit": "°C", "writable": True, "min": 60,
                "max": 90, "description": "WFI loop temperature setpoint"},
    "tank_lt": {"name": "=WFI+TANK-LT201", "unit": "%", "description": "WFI storage tank level"},
}})
ROUTER = Router(CONFIG)


@pytest.mark.parametrize(("name", "code"), [
    ("10HAD10CP001", True), ("10LAC10AP001-XA01", True), ("1 LAB20 CT001", True),
    ("=WFI+LOOP-TT101", True), ("=PW+RO1-PT203", True), ("LT-203", True),
    ("Boiler 1", False), ("CIP RETURN PH", False), ("Feed pump 2 speed", False)])
def test_codes_are_told_from_names_in_words(name: str, code: bool) -> None:
    assert bool(TAG_ONLY.fullmatch(name)) is code


@pytest.mark.parametrize(("text", "expected"), [
    ("boiler 1 drum pressure", ("read", {"point": "had10cp"})),
    ("boiler 2 drum pressure", ("read", {"point": "had20cp"})),
    ("what's the drum level on boiler one", ("read", {"point": "had10cl"})),
    ("start boiler feed pump 2", ("write", {"point": "lac20ap", "value": True})),
    ("stop feed pump 1", ("write", {"point": "lac10ap", "value": False})),
    ("feed pump 1 flow", ("read", {"point": "lac10cf"})),
    ("ID fan 1 speed", ("read", {"point": "hna10an"})),
    ("set ID fan 1 speed to 800 rpm", ("write", {"point": "hna10sp", "value": 800})),
    ("what's the loop return temperature", ("read", {"point": "loop_tt"})),
    ("set the WFI loop temperature to 82", ("write", {"point": "loop_sp", "value": 82})),
    ("WFI tank level", ("read", {"point": "tank_lt"})),
])
async def test_operators_words_reach_coded_points(text: str,
                                                  expected: tuple[str, dict[str, object]]) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == expected, text


async def test_a_trip_is_no_switch_and_a_third_pump_is_none() -> None:
    # the trip alarm is named to no switching command
    action = await routed_without_model(ROUTER, "start the boiler feed pump 1 motor trip")
    assert action.name != "write" or action.args.get("point") != "lac10xa"
    action = await routed_without_model(ROUTER, "start boiler feed pump 3")
    assert action.name == "respond", action
