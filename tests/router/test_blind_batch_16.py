"""What blind batch 16 (tests/data/plants: resin_plant, pasta_factory, baggage_hall) and hostile
review atk15 found wrong: each test says what a person on that plant would expect. Batch 16
scored 136/150 with the model before anything was changed for it, with 5 confidently wrong (4 by
the rules)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.router import Router
from tests.support.plants import config_of, own_plant, routed_without_model

ROUTERS = {name: Router(config_of(own_plant(name)))
           for name in ("resin_plant", "pasta_factory", "baggage_hall")}


async def _routed(router: Router, text: str) -> tuple[str, Any]:
    action = await routed_without_model(router, text)
    args = action.args
    return action.name, args.get("point", args.get("points", args.get("reason")))


@pytest.mark.parametrize(("plant", "text", "point", "value"), [
    # the trip scored first, and the reset was refused as a reset to nothing
    ("pasta_factory", "reset the burner trip", "burner_trip_reset", True),
    ("resin_plant", "reset the high temp trip on reactor 1", "r1_trip_reset", True),
    # on/off said before the action the switch is named by (was a read)
    ("resin_plant", "take scrubber pump 2 off bypass", "scrubber_pump2_bypass", False),
    ("resin_plant", "put scrubber pump 2 on bypass", "scrubber_pump2_bypass", True),
    ("resin_plant", "take reactor 1 off nitrogen purge", "r1_n2_purge", False),
    # a mode said in Chinese; a number said "nought point four"
    ("pasta_factory", "干燥线切到生产模式", "dryer_mode", "production"),
    ("pasta_factory", "干燥线切换到预热", "dryer_mode", "warm-up"),
    ("baggage_hall", "carousel 3 speed to nought point four", "carousel3_speed_sp", 0.4),
])
async def test_the_write_asked_for_is_made(plant: str, text: str, point: str,
                                           value: Any) -> None:
    action = await routed_without_model(ROUTERS[plant], text)
    assert (action.name, action.args) == ("write", {"point": point, "value": value})


async def test_no_reset_is_made_of_a_reset_the_plant_has_no_switch_for() -> None:
    router = ROUTERS["resin_plant"]
    assert await _routed(router, "reset the reactor 2 high temperature trip") == \
        ("respond", "not_allowed")
    assert await _routed(ROUTERS["baggage_hall"], "clear the jam on the sorter") == \
        ("respond", "not_allowed")


@pytest.mark.parametrize(("plant", "text", "points"), [
    # the setpoint alone was read (confidently wrong)
    ("baggage_hall", "sorter speed and setpoint", ["sorter_speed", "sorter_speed_sp"]),
    ("resin_plant", "give me R1 temperature and setpoint", ["r1_temp", "r1_temp_sp"]),
    # "R1 temp" of a point also aliased "R-101 temperature" was no R1 point: both setpoints
    ("resin_plant", "R1 temp and R2 temp", ["r1_temp", "r2_temp"]),
])
async def test_both_things_said_are_read(plant: str, text: str, points: list[str]) -> None:
    assert await _routed(ROUTERS[plant], text) == ("read", points)


async def test_reads_that_went_to_the_wrong_point() -> None:
    # the reset switch was read for a question about the trip
    assert await _routed(ROUTERS["resin_plant"], "has R1 tripped on high temp") == \
        ("read", "r1_high_temp_trip")
    assert await _routed(ROUTERS["resin_plant"], "R1 temp") == ("read", "r1_temp")
    # a description's "cooler" (the machine) and "target" made a moisture reading a
    # temperature: it is no longer read for one
    name, point = await _routed(ROUTERS["pasta_factory"],
                                "is the cooler getting the pasta down, what temp is it")
    assert (name, point) != ("read", "pasta_moisture")
