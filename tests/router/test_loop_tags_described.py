"""A point named by its loop tag alone ("PI-201", "LIC-101.SP", "HS-302") and described by the
DCS is named in words by its description: an operator says "deaerator pressure", never
"PI-201". A remark in brackets is no name; a switch's only where it says its thing's start/stop
("Condensate pump 3 start/stop", not "Pump 5 lube oil pump start/stop"); no "Spare". Tags of
one letter ("AI-120A", "AI-120B") are told apart by those words, not taken for things numbered
alike. (The parts a description adds since blind batch 37: a tag with a dot, "LIC-101.SP";
a short second clause, "…, oxygen"; a long one cut where it says where it is measured.)"""

from __future__ import annotations

from hermesd.answer import Action
from hermesd.router import Router
from tests.support.plants import exec_devices, model_checked, routed_without_model

CONFIG = exec_devices("boilerhouse", {"dcs": {
    "pi_201": {"name": "PI-201", "unit": "bar",
               "description": "Deaerator pressure (steam space)"},
    "ti_210": {"name": "TI-210", "unit": "°C", "description":
               "Economiser outlet water temperature in the flue gas duct at the boiler back end"},
    "ti_202": {"name": "TI-202", "unit": "°C", "description": "Deaerator water temperature"},
    "ti_203": {"name": "TI-203", "unit": "°C",
               "description": "Deaerator vent temperature (thermowell in the pressure pocket)"},
    "hs_601": {"name": "HS-601", "type": "bool", "writable": True,
               "description": "Pump 5 lube oil pump start/stop"},
    "fi_600": {"name": "FI-600", "unit": "m³/h", "description": "Pump 5 discharge flow"},
    "hs_303": {"name": "HS-303", "type": "bool", "writable": True,
               "description": "Condensate pump 3 start/stop"},
    "hs_701": {"name": "HS-701", "type": "bool", "writable": True,
               "description": "Cooler fan 1 start/stop"},
    "hs_702": {"name": "HS-702", "type": "bool", "writable": True,
               "description": "Cooler fan 2 start/stop"},
    "xa_702": {"name": "XA-702", "type": "bool", "description": "Cooler fan 2 motor trip"},
    "xa_900": {"name": "XA-900", "type": "bool",
               "description": "Starts the standby pump when the duty pump trips"},
    "fan_n01_amps": {"name": "VF-N01-AMP", "unit": "A",
                     "description": "Motor current of vent fan VF-N01 (north bay)"},
    "fan_n01_run": {"name": "VF-N01-RUN", "type": "bool", "writable": True,
                    "description": "Run command of vent fan VF-N01 (north bay)"},
    "vent_mode": {"name": "VC-100-MODE", "type": "int", "writable": True,
                  "map": {0: "off", 1: "auto", 2: "manual"},
                  "description": "Vent mode: off, auto (from CO), manual"},
    "lic_101_op": {"name": "LIC-101.OP", "unit": "%", "writable": True, "min": 0, "max": 100,
                   "description": "Boiler drum level controller"},
    "lic_101_mode": {"name": "LIC-101.MODE", "type": "int", "writable": True,
                     "map": {0: "manual", 1: "auto"},
                     "description": "Boiler drum level controller"},
    "lic_101_hilm": {"name": "LIC-101.OPHILM", "unit": "%", "writable": True, "min": 0,
                     "max": 100, "description": "Boiler drum level controller"},
    "tic_301_dl": {"name": "TIC301.DL", "unit": "°C", "writable": True, "min": 0, "max": 50,
                   "description": "Economiser temperature controller"},
    "tc_370_sp": {"name": "TC-370.SP", "unit": "°C", "writable": True, "min": 20, "max": 90,
                  "description": "Reactor temperature, jacket water"},
    "hv_204": {"name": "HV-204", "unit": "%", "writable": True, "min": 0, "max": 100,
               "description": "Spare"},
    "li_101": {"name": "LI-101", "unit": "%", "description": "Boiler drum level, DP transmitter"},
    "lic_101_sp": {"name": "LIC-101.SP", "unit": "%", "writable": True, "min": 20, "max": 80,
                   "description": "Boiler drum level controller setpoint"},
    "fi_110": {"name": "FI-110", "unit": "t/h", "description": "Feedwater flow to the drum"},
    "hs_302": {"name": "HS-302", "type": "bool", "writable": True,
               "description": "Condensate pump 2 start/stop (fixed speed pump)"},
    "si_301": {"name": "SI-301", "unit": "rpm",
               "description": "Condensate pump 1 speed, from its drive"},
    "ai_120a": {"name": "AI-120A", "unit": "%", "description": "Boiler outlet flue gas, oxygen"},
    "ai_120b": {"name": "AI-120B", "unit": "ppm",
                "description": "Boiler outlet flue gas, carbon monoxide"},
    "hs_501": {"name": "HS-501", "type": "bool", "writable": True,
               "description": "Boiler house vent fan 1 start/stop"},
    "hs_502": {"name": "HS-502", "type": "bool", "writable": True,
               "description": "Boiler house vent fan 2 start/stop"},
    "pt_400": {"name": "PT-400", "aliases": ["header pressure"], "unit": "bar",
               "description": "Steam header pressure at the turbine stop valve"},
}})
ROUTER = Router(CONFIG)


def _aliases(point: str) -> tuple[str, ...]:
    return ROUTER.rules.points[point].aliases


def test_a_tag_alone_is_named_by_its_description() -> None:
    assert "Deaerator pressure" in _aliases("pi_201")
    assert "Boiler drum level controller setpoint" in _aliases("lic_101_sp")
    # a remark in brackets is not part of the name
    assert "Deaerator vent temperature" in _aliases("ti_203")
    # a switch described as its thing's start/stop is named by its thing; one of a part of
    # it ("Pump 5 lube oil pump start/stop") is not named so, nor is a "Spare"
    assert "Condensate pump 3" in _aliases("hs_303")
    assert _aliases("hs_601") == ()
    assert _aliases("hv_204") == ()


async def test_operators_words_reach_tagged_points() -> None:
    said = {
        "what's the deaerator pressure": ("read", {"point": "pi_201"}),
        "how hot is the water in the deaerator": ("read", {"point": "ti_202"}),
        "drum level?": ("read", {"point": "li_101"}),
        "economiser outlet temperature": ("read", {"point": "ti_210"}),
        "set the drum level setpoint to 55": ("write", {"point": "lic_101_sp", "value": 55}),
    }
    for text, expected in said.items():
        action = await routed_without_model(ROUTER, text)
        assert (action.name, action.args) == expected, text


async def test_a_remark_in_brackets_names_nothing() -> None:
    action = await routed_without_model(ROUTER, "what's the steam space temperature")
    assert (action.name, action.args) != ("read", {"point": "pi_201"})
    action = await routed_without_model(ROUTER, "deaerator pressure")
    assert (action.name, action.args) == ("read", {"point": "pi_201"})
    action = await routed_without_model(ROUTER, "set the spare to 50")
    assert action.name != "write"


async def test_no_switch_of_a_part_is_written_for_its_thing() -> None:
    # pump 5's lube oil pump is no pump 5 (it had been started by "start pump 5")
    for text in ("start pump 5", "stop pump 5"):
        action = await routed_without_model(ROUTER, text)
        assert action.name != "write", text
    action = await routed_without_model(ROUTER, "start condensate pump 3")
    assert (action.name, action.args) == ("write", {"point": "hs_303", "value": True})


def test_loops_of_one_letter_are_told_apart_by_their_words() -> None:
    # "AI-120A" and "AI-120B" are no analysers 1 and 2 of one thing: the words say which
    said = "o2 at the boiler outlet"
    checked = model_checked(ROUTER, CONFIG, said, Action("read", {"point": "ai_120a"}))
    assert (checked.name, checked.args) == ("read", {"point": "ai_120a"})
    checked = model_checked(ROUTER, CONFIG, said, Action("read", {"point": "ai_120b"}))
    assert checked.name == "respond"


async def test_a_cooler_is_a_thing_and_an_alarm_no_switch() -> None:
    # the "cooler" of "Cooler fan 2 start/stop" is a cooler, no "make it cooler"
    action = await routed_without_model(ROUTER, "start cooler fan 2")
    assert (action.name, action.args) == ("write", {"point": "hs_702", "value": True})
    # a read-only alarm is not named by its description: "start the cooler fan 2 motor" must
    # never reach it (review atk45: "start the fire pump" of a "Fire pump running")
    assert _aliases("xa_702") == ()
    assert _aliases("xa_900") == ()


def test_a_loops_output_is_not_named_as_its_loop_and_its_mode_is_a_mode() -> None:
    # DCS exports describe every parameter of a loop as the loop (review atk45: "set reflux
    # drum level to 50" had written LIC-203.OP; atk45b: its output high limit, a deviation
    # alarm limit)
    assert _aliases("lic_101_op") == ()
    assert _aliases("lic_101_hilm") == ()
    assert _aliases("tic_301_dl") == ()
    # a second clause joins the name where it says what is measured, or of what
    assert "Reactor temperature jacket water SP" in _aliases("tc_370_sp")
    assert "Boiler drum level controller mode" in _aliases("lic_101_mode")
