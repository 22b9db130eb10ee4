"""No write nobody asked for: the attacks of tests/data/attacks/unasked_writes.jsonl, each a
command that expects a read or a refusal, are never written by the rules and the write gate
(the model's writes pass the same gate; its choices are tested with the model elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import config_of, own_plant, routed_without_model

ATTACKS = Path(__file__).resolve().parents[1] / "data" / "attacks" / "unasked_writes.jsonl"
LINES: list[dict[str, Any]] = [json.loads(line) for line in
                               ATTACKS.read_text(encoding="utf-8").splitlines() if line.strip()]
#: attacks that still write, each for a reason said here (strict: fixing one fails the test,
#: so that it is moved out of this list)
LEFT = {
    # a minus said as a decrease is written as a negative value; every one of these is out of
    # its point's range and refused by policy, and on a point whose range has negatives
    # ("dew point setpoint -40") the same words are a plain write
    "rack 1 current setpoint -2", "condenser fan speed -10", "substation 1 valve -10",
    "engine room fan speed -10", "intake pump speed -100", "fermenter 1 setpoint -2",
    # "one thousand two" is read as it is written (1002), not as the 1200 some mean by it
    "intake pump speed one thousand two",
    # "current" before a state: "now" or the electric current; not yet a report
    "current makeup valve open",
    # a residual is no dose: the dose setpoint is written (the rules take "chlorine" for it)
    "set the chlorine residual to 1.5",
}
ROUTERS: dict[str, Router] = {}


def _router(plant: str) -> Router:
    if plant not in ROUTERS:
        ROUTERS[plant] = Router(config_of(own_plant(plant)))
    return ROUTERS[plant]


def _cases() -> list[Any]:
    left = pytest.mark.xfail(strict=True, reason="a known write, left (see LEFT)")
    return [pytest.param(x, id=f"{x['plant']}:{x['class']}:{x['text']}",
                         marks=[left] if x["text"] in LEFT else [])
            for x in LINES if x["expect"]["action"] != "write"]


@pytest.mark.parametrize("line", _cases())
async def test_no_write_is_made_of_an_attack(line: dict[str, Any]) -> None:
    action = await routed_without_model(_router(line["plant"]), line["text"])
    assert action.name != "write", (line["text"], action)


def test_the_attacks_are_all_there() -> None:
    assert len(LINES) == 457
    assert {x["text"] for x in LINES} >= LEFT
