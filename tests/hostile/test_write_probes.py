"""A hostile reviewer's probes of the write gate, kept as a regression set.

Each line of data/write_probes.jsonl is a command, the write a hostile model proposes for it,
and whether the words plainly ask for that write. The classes: reported speech, quoting,
statements of state, times and deferrals, conditions, questions without "?", hidden or foreign
question marks, negations, bounds, relative changes, partial openings, several targets,
numbers and letters that name other things, wrong and foreign units, points whose own names
hold hazard words, invisible characters and homoglyphs, typos of hazard words, mixed
languages, raw register writes; and ordinary phrasings an operator uses, which must still
write. Plants: the development plant and one of the reviewer's with awkward names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.config.model import Config
from tests.hostile.test_write_intent import route
from tests.support.plants import _exec_device, _point, config_of, dev_plant

PROBES = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "write_probes.jsonl").read_text().splitlines()]


def _plant(node: str, points: dict[str, Any]) -> dict[str, Any]:
    return {"node": {"id": node, "name": node},
            "access": {"default_role": "viewer",
                       "roles": {"viewer": {"read": True, "write": False},
                                 "operator": {"read": True, "write": True}}},
            "devices": {"d1": _exec_device(points)}}


def _shared(p: Any) -> dict[str, Any]:
    """Points both plants have: units of time, a % dose, an after-cooler."""
    return {"aftercooler": p("After-cooler fan", kind="bool", writable=True),
            "dwell": p("Dwell time", "s", lo=0, hi=600, kind="int"),
            "mix_time": p("Mixing time", "min", lo=0, hi=120, kind="int"),
            "dose": p("Chlorine dose", "%", lo=0, hi=100)}


def awkward_plant() -> dict[str, Any]:
    """Points whose names hold words the gate looks for, units of time, Chinese names."""
    p = _point
    return _plant("chem-1", {
        **_shared(p),
        "stop_valve3": p("Stop valve 3", kind="bool", writable=True),
        "open_sp": p("Open-loop setpoint", "%", lo=0, hi=100),
        "dryer2_temp": p("Dryer 2 temperature setpoint", "°C", lo=20, hi=300),
        "flow_sp": p("Coolant flow setpoint", "m³/h", lo=0, hi=500),
        "cw_pump": {**p("冷却水泵", kind="bool", writable=True),
                    "names": {"en": "Cooling water pump"}},
        "agit": p("Agitator 4 speed", "rpm", lo=0, hi=3000, kind="int"),
        "agit5": p("Agitator 5 speed", "rpm", lo=0, hi=3000, kind="int"),
        "heater": p("Tank heater", kind="bool", writable=True),
        "mode": {"name": "Kiln mode", "type": "string", "writable": True,
                 "choices": ["auto", "manual", "off"], "params": {"value": "auto"}},
    })


def named_plant() -> dict[str, Any]:
    """Points whose own names say what a command must not: day, night, timer, maximum..."""
    p = _point
    switches = {"daytank": "Day tank pump", "nightlights": "Night lights",
                "checkv4": "Check valve 4", "pm1": "Pump and motor 1",
                "halfload": "Half-load valve", "timer": "Timer relay",
                "standby": "Standby heater", "dosing": "Dosing pump",
                "prv": "Pressure reducing valve", "mixer": "Dough mixer", "lift": "Goods lift",
                "reboiler": "Reboiler steam valve", "coolfan": "Cooling fan"}
    return _plant("x", {
        **_shared(p),
        **{pid: p(name, kind="bool", writable=True) for pid, name in switches.items()},
        "maxflow": p("Maximum flow limit", "m³/h", lo=0, hi=500),
        "lowertank": p("Lower tank level setpoint", "%", lo=0, hi=100),
        "zhpump": {**p("不锈钢罐加热器", kind="bool", writable=True),
                   "names": {"en": "Stainless tank heater"}},
        "zhafter": {**p("后处理泵", kind="bool", writable=True),
                    "names": {"en": "Post-treatment pump"}},
        "kiln1000": p("Kiln zone 7 temperature setpoint", "°C", lo=0, hi=1200),
    })


PLANTS: dict[str, Config] = {"dev": config_of(dev_plant()), "mine": config_of(awkward_plant()),
                             "names": config_of(named_plant())}


@pytest.mark.parametrize("probe", PROBES, ids=[f"{p['class']}: {p['text']}" for p in PROBES])
def test_a_probe_writes_only_what_its_words_plainly_ask(probe: dict[str, Any]) -> None:
    config = PLANTS[probe["plant"]]
    proposal = Action("write", {"point": probe["point"], "value": probe["value"]})
    action = route(config, probe["text"], proposal)
    if probe["write"]:
        assert action.name == "write", (probe["text"], action)
    else:
        assert action.name not in ("write", "modbus.write_registers"), (probe["text"], action)
