"""The second review's attacks (tests/data/attacks/rv25.jsonl): no command that expects a read
or a refusal is written by the rules, and the write gate refuses the write a stage might
propose for it (the model's proposals pass the same gate); the few that expect a write are
written with the value said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermesd.config import strict_yaml
from hermesd.router import Router
from hermesd.router.write_gate import doubt
from tests.support.plants import PLANTS, config_of, dev_plant, own_plant, routed_without_model

ATTACKS = Path(__file__).resolve().parents[1] / "data" / "attacks" / "rv25.jsonl"
LINES: list[dict[str, Any]] = [json.loads(line) for line in
                               ATTACKS.read_text(encoding="utf-8").splitlines() if line.strip()]
#: attacks still written, each for a reason (strict: one fixed fails, to be moved out)
LEFT = {
    # the supply temperature setpoint of a heat network is what "network flow" sets on most
    # screens (the flow temperature); the plant has no flow setpoint to tell it from
    "set the network flow to 90", "set network flow to 80",
    # substation 1's valve is the only "valve 1"; the only pump with a speed
    "set valve 1 to 40", "set the pump speed to 900",
    # "you can open the make-up valve": permission given, or a polite request
    "你可以打开补水阀",
    # the engine's temperature setpoint is its jacket water's on this plant
    "set the engine temperature to 80",
}
ROUTERS: dict[str, Router] = {}


def _router(plant: str) -> Router:
    if plant not in ROUTERS:
        ROUTERS[plant] = Router(config_of(dev_plant() if plant == "dev" else own_plant(plant)))
    return ROUTERS[plant]


def _cases(kept: Any) -> list[Any]:
    left = pytest.mark.xfail(strict=True, reason="a known write, left (see LEFT)")
    return [pytest.param(x, id=f"{x['plant']}:{x['class']}:{x['text']!r}",
                         marks=[left] if x["text"] in LEFT else [])
            for x in LINES if kept(x)]


@pytest.mark.parametrize("line", _cases(lambda x: x["expect"]["action"] != "write"))
async def test_no_write_is_made_of_an_attack(line: dict[str, Any]) -> None:
    router = _router(line["plant"])
    action = await routed_without_model(router, line["text"])
    assert action.name != "write" and not action.name.startswith("modbus.write"), \
        (line["text"], action)
    if "gate" in line:
        point, value = line["gate"]
        found = doubt(line["text"], router.rules.points[point], value, router.rules.profiles)
        assert found is not None, (line["text"], point, value)


@pytest.mark.parametrize("line", _cases(lambda x: x["expect"]["action"] == "write"))
async def test_a_plain_write_among_the_attacks_is_written(line: dict[str, Any]) -> None:
    action = await routed_without_model(_router(line["plant"]), line["text"])
    expect = line["expect"]
    assert (action.name, action.args) == ("write", {"point": expect["point"],
                                                    "value": expect["value"]}), action


@pytest.mark.parametrize("line", _cases(lambda x: x["class"] == "raw_register_gate"))
async def test_no_raw_register_write_is_made_of_an_attack(line: dict[str, Any]) -> None:
    """On the plant as its file has it (Modbus devices, which raw register commands reach),
    "set holding register 40011 on main_engine to 1200" is sent; with a checklist box, a
    confirmation, "(done)" or "jk" around it, nothing is."""
    raw = strict_yaml.load((PLANTS / f"{line['plant']}.yaml").read_text(encoding="utf-8"))
    router = Router(config_of({k: v for k, v in raw.items() if k != "paths"}))
    plain = await routed_without_model(router, "set holding register 40011 on main_engine to 1200")
    assert plain.name == "modbus.write_registers", plain
    action = await routed_without_model(router, line["text"])
    assert action.name == "respond", (line["text"], action)


def test_the_attacks_are_all_there() -> None:
    assert len(LINES) == 178
    assert {x["text"] for x in LINES} >= LEFT
