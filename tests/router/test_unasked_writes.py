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
#: known writes, left (none now: "set the chlorine residual to 1.5" had written the chlorine
#: dosing setpoint until a writable point stood in for a read-only one only where the words
#: say nothing the read-only one measures and the writable one does not set)
LEFT: set[str] = set()
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


#: the second review's bypasses of the first fix (none may be written) and the plain writes
#: that fix refused at first (each must be)
BYPASSES = [
    ("engine_room", "bilge pump on\\off"), ("engine_room", "bilge pump on, off"),
    ("engine_room", "bilge pump run-stop"), ("engine_room", "bilge pump\tON"),
    ("engine_room", "**bilge pump on**"), ("engine_room", "`bilge pump on`"),
    ("engine_room", "+ start bilge pump"), ("engine_room", "a. start bilge pump"),
    ("engine_room", "bilge pump — ON"), ("engine_room", "bilge pump ... ON"),
    ("engine_room", "boiler 2 on…"), ("district_heating", "make-up valve = OPEN"),
    ("district_heating", "补水阀一直开"), ("district_heating", "补水阀还在开"),
    ("cold_store", "condenser fan speed 8成"),
    # a Chinese name given to one of several alike says which kind, not which one
    ("tank_farm", "启动输油泵"), ("hospital_utilities", "启动医用空压机"),
    ("tyre_curing", "硫化时间设定12"),
]
PLAIN_WRITES = [
    ("paint_shop", "set EDO Z1 SP to 180", "edo_z1_sp", 180),
    ("paint_shop", "EDO Z2 SP 180", "edo_z2_sp", 180),
    ("district_heating", "now start boiler 2", "boiler2", True),
    ("district_heating", "right, now open the make-up valve", "makeup_valve", True),
    ("engine_room", "set engine room fan speed: 60", "er_fan_speed", 60),
    ("engine_room", "set jacket water to 80 (°C)", "jacket_water_sp", 80),
    ("engine_room", "start the bilge pump", "bilge_pump", True),
    ("tank_farm", "启动1号输油泵", "pump1", True),
    # a minus is a plain value where the point goes below zero, or where "to" or "set" says so
    # (the policy names the range); alone on a point that never does, it is asked back
    ("cold_store", "chamber 2 setpoint -25", "chamber2_sp", -25),
    ("battery_formation", "dry room dew point setpoint -40", "dry_room_dewpoint_sp", -40),
    ("waterworks", "set intake pump speed to -100", "intake_pump_speed", -100),
    ("waterworks", "intake pump speed negative 100", "intake_pump_speed", -100),
    ("waterworks", "set intake pump speed to one thousand and two", "intake_pump_speed", 1002),
    ("district_heating", "open the current makeup valve", "makeup_valve", True),
]


@pytest.mark.parametrize(("plant", "text"), BYPASSES)
async def test_no_write_is_made_of_a_second_attack(plant: str, text: str) -> None:
    action = await routed_without_model(_router(plant), text)
    assert action.name != "write", (text, action)


@pytest.mark.parametrize(("plant", "text", "point", "value"), PLAIN_WRITES)
async def test_plain_writes_are_still_written(plant: str, text: str, point: str,
                                              value: Any) -> None:
    action = await routed_without_model(_router(plant), text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})
