"""Units that letter case tells apart (review atk9 H8; atk8 G7 fixed kN and kn alone): a point
in mW is no point in MW, one in mL none in ML. A command writes such a point only when it writes
its unit as the point does (or spells it out); the other case is refused as another unit."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.normalize import case_matters, unit_symbol
from hermesd.router.write_gate import doubt
from tests.support.plants import modbus_plant, routed

CONFIG = modbus_plant({
    "lamp_power": {"name": "Curing lamp power", "unit": "mW", "table": "holding", "address": 0,
                   "type": "float32", "writable": True, "min": 0, "max": 900},
    "dose_volume": {"name": "Sample dose volume", "unit": "mL", "table": "holding",
                    "address": 2, "type": "float32", "writable": True, "min": 0, "max": 500},
    "export_limit": {"name": "Export power limit", "unit": "MW", "table": "holding",
                     "address": 4, "type": "float32", "writable": True, "min": 0, "max": 40},
    "conductivity": {"name": "Rinse conductivity limit", "unit": "mS", "table": "holding",
                     "address": 6, "type": "float32", "writable": True, "min": 0, "max": 90},
})
ROUTER = Router(CONFIG)
POINTS = CONFIG.points


def test_units_told_apart_by_case() -> None:
    assert [unit_symbol(u) for u in ("mW", "MW", "mw", "megawatts", "milliwatts")] == \
        ["mW", "mw", "mw", "mw", "mW"]
    assert [unit_symbol(u) for u in ("mL", "ml", "ML", "Ml")] == ["ml", "ml", "Ml", "Ml"]
    assert [unit_symbol(u) for u in ("kN", "KN", "kn")] == ["kN", "kN", "kn"]
    assert unit_symbol("mS") != unit_symbol("ms")
    assert all(map(case_matters, ("mW", "MW", "mL", "ML", "kN", "mS", "mPa")))
    assert not any(map(case_matters, ("kW", "bar", "rpm", "°C", "mm")))


@pytest.mark.parametrize(("text", "point", "value"), [
    ("set the curing lamp power to 50 mW", "lamp_power", 50),
    ("set the curing lamp power to 50mW", "lamp_power", 50),
    ("set the curing lamp power to 50 milliwatts", "lamp_power", 50),
    ("set the sample dose volume to 20 mL", "dose_volume", 20),
    ("set the sample dose volume to 20 ml", "dose_volume", 20),
    ("set the export power limit to 5 MW", "export_limit", 5),
    ("set the export power limit to 5 mw", "export_limit", 5),
    ("set the rinse conductivity limit to 20 mS", "conductivity", 20),
])
async def test_a_unit_written_as_its_point_writes_it_is_written(text: str, point: str,
                                                               value: int) -> None:
    assert await routed(ROUTER, text, "engineer") == {
        "name": "write", "args": {"point": point, "value": value}}


@pytest.mark.parametrize(("text", "point", "said"), [
    ("set the curing lamp power to 50 MW", "lamp_power", "MW"),
    ("set the curing lamp power to 50 mw", "lamp_power", "mw"),
    ("set the curing lamp power to 5 megawatts", "lamp_power", "megawatts"),
    ("set the sample dose volume to 20 ML", "dose_volume", "ML"),
    ("set the export power limit to 5 mW", "export_limit", "mW"),
])
async def test_a_unit_letter_case_makes_another_is_refused(text: str, point: str,
                                                           said: str) -> None:
    answer = await routed(ROUTER, text, "engineer")
    assert answer["name"] == "respond" and answer["args"]["value_problem"] == "unit", answer
    assert said in answer["args"]["unreadable"], answer
    value = {"lamp_power": 50, "dose_volume": 20, "export_limit": 5, "conductivity": 20}[point]
    found = doubt(text, POINTS[point], value, ROUTER.rules.profiles)
    assert found is not None and found.problem == "unit", found


async def test_milliseconds_are_no_millisiemens() -> None:
    answer = await routed(ROUTER, "set the rinse conductivity limit to 20 ms", "engineer")
    assert answer["name"] == "respond", answer  # (a time, or another unit: never written)
