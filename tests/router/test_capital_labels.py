"""SCADA labels written in capitals with the trade's short forms ("LIFT P2 SPD", "STN FLOW TOT",
"BAR SCRN DIFF", "EMERG GEN RUNNING"), as a US utility's integrator leaves them: their short forms
are spelled as a PLC symbol's are, by the trade's table where it settles them. An operator says
the words ("lift P2 speed", "station flow total"); the capitals' own words stay names too. What
the table does not settle stays as written: a "P" numbered alone is a pump, a press or a pen
(review atk46), "STA" a station or a status, "DIFF" a differential or a diffuser, "PRI" primary
or priority."""

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
    "flow_tot": {"name": "STN FLOW TOT", "unit": "MG"},
    "flow": {"name": "STN FLOW", "unit": "MGD"},
    "scrn_dp": {"name": "BAR SCRN DIFF", "unit": "in"},
    "pri_sel": {"name": "PMP PRI SEL", "type": "int", "writable": True,
                "map": {0: "duty A", 1: "duty B"}},
    "rake_run": {"name": "BAR SCRN RAKE RUN", "type": "bool", "writable": True},
    "gen_run": {"name": "EMERG GEN RUNNING", "type": "bool"},
    "filt_p1": {"name": "FILTER 3 P1", "unit": "psi",
                "description": "Filter 3 inlet pressure, P1 of its differential"},
    "ctrl_mode": {"name": "STN CTRL MODE", "type": "int", "writable": True,
                  "map": {0: "local", 1: "remote", 2: "auto"}},
}})
ROUTER = Router(CONFIG)


def test_short_forms_the_trade_settles_are_spelled() -> None:
    aliases = {pid: ROUTER.rules.points[pid].aliases for pid in CONFIG.points}
    assert "lift p2 speed" in aliases["p2_spd"]
    assert "station FLOW total" in aliases["flow_tot"]
    # a letter numbered alone, and forms of two meanings, are not guessed
    assert not any("pump" in a for pid in ("p2_spd", "p2_run", "filt_p1") for a in aliases[pid])
    assert not any("primary" in a or "priority" in a for a in aliases["pri_sel"])


@pytest.mark.parametrize(("text", "expected"), [
    ("lift P2 speed", ("read", {"point": "p2_spd"})),
    ("set lift P2 speed command to 80 percent", ("write", {"point": "p2_spd_cmd", "value": 80})),
    ("is lift P2 faulted", ("read", {"point": "p2_flt"})),
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


@pytest.mark.parametrize("text", ["lift P4 amps", "set the primary pump to duty B"])
async def test_what_the_labels_do_not_say_is_not_guessed(text: str) -> None:
    action = await routed_without_model(ROUTER, text)
    assert action.name == "respond", action
