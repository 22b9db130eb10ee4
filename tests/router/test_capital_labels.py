"""SCADA labels written in capitals with the trade's short forms ("LIFT P2 SPD", "STA FLOW TOT",
"BAR SCRN DIFF", "EMERG GEN RUNNING"), as a US utility's integrator leaves them: their short
forms are spelled as a PLC symbol's are, and a "P" numbered alone is a pump ("P2": pump 2)
unless the point's own description says another word of that letter. An operator says the words
("lift pump 2 speed", "station flow total"); the capitals' own words stay names too."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

CONFIG = exec_devices("station", {"plc": {
    "g1_pos": {"name": "SPILLWAY G1 POS", "unit": "%"},
    "p2_spd": {"name": "LIFT P2 SPD", "unit": "%"},
    "p2_spd_cmd": {"name": "LIFT P2 SPD CMD", "unit": "%", "writable": True, "min": 0,
                   "max": 100},
    "p2_run": {"name": "LIFT P2 RUN CMD", "type": "bool", "writable": True},
    "p2_flt": {"name": "LIFT P2 FLT", "type": "bool"},
    "p2_amps": {"name": "LIFT P2 AMPS", "unit": "A"},
    "p3_amps": {"name": "LIFT P3 AMPS", "unit": "A"},
    "disch_press": {"name": "DISCH HDR PRESS", "unit": "psi"},
    "flow_tot": {"name": "STA FLOW TOT", "unit": "MG"},
    "flow": {"name": "STA FLOW", "unit": "MGD"},
    "scrn_dp": {"name": "BAR SCRN DIFF", "unit": "in"},
    "rake_run": {"name": "BAR SCRN RAKE RUN", "type": "bool", "writable": True},
    "gen_run": {"name": "EMERG GEN RUNNING", "type": "bool"},
    "filt_p1": {"name": "FILTER 3 P1", "unit": "psi",
                "description": "Filter 3 inlet pressure, P1 of its differential"},
    "ctrl_mode": {"name": "STA CTRL MODE", "type": "int", "writable": True,
                  "map": {0: "local", 1: "remote", 2: "auto"}},
}})
ROUTER = Router(CONFIG)


def test_short_forms_and_a_lettered_pump_are_spelled() -> None:
    aliases = {pid: ROUTER.rules.points[pid].aliases for pid in CONFIG.points}
    assert "lift pump 2 speed" in aliases["p2_spd"]
    assert "station FLOW total" in aliases["flow_tot"]
    assert "BAR screen differential" in aliases["scrn_dp"]
    # its own description says what its P1 is: no pump
    assert not any("pump" in a for a in aliases["filt_p1"])


@pytest.mark.parametrize(("text", "expected"), [
    ("lift pump 2 speed", ("read", {"point": "p2_spd"})),
    ("run lift pump 2 at 80 percent", ("write", {"point": "p2_spd_cmd", "value": 80})),
    ("start lift pump 2", ("write", {"point": "p2_run", "value": True})),
    ("is lift pump 2 faulted", ("read", {"point": "p2_flt"})),
    ("discharge header pressure", ("read", {"point": "disch_press"})),
    ("station flow total", ("read", {"point": "flow_tot"})),
    ("bar screen differential", ("read", {"point": "scrn_dp"})),
    ("start the bar screen rake", ("write", {"point": "rake_run", "value": True})),
    ("is the emergency generator running", ("read", {"point": "gen_run"})),
    ("put the station in remote", ("write", {"point": "ctrl_mode", "value": "remote"})),
])
async def test_operators_words_reach_capital_labels(text: str,
                                                    expected: tuple[str, dict[str, object]]) -> None:
    action = await routed_without_model(ROUTER, text)
    assert (action.name, action.args) == expected, text


async def test_a_pump_the_plant_has_not_is_not_guessed() -> None:
    action = await routed_without_model(ROUTER, "lift pump 4 amps")
    assert action.name == "respond", action
