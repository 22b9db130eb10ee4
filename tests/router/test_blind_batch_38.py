"""What blind batch 38 (a mine hoist in dotted PLC symbols, a Chinese-first sugar mill, a road
tunnel in lettered equipment tags) found read confidently where a write or a refusal was meant,
on plants written here:
- "load each skip with 18 tonnes": a value said of each, which no read of all gives;
- "lime the juice to a pH of seven point six": a fraction numbers no thing, it is a value;
- "molasses tank level?" of a plant with a juice tank only: molasses, syrup and sugar are no
  juice (the lexicon had them one medium)."""

from __future__ import annotations

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

MILL = Router(exec_devices("sugarmill", {
    "mill_plc": {
        "juice_tank_level": {"name": "Mixed juice tank level", "unit": "%"},
        "juice_ph": {"name": "Limed juice pH", "unit": "pH"},
        "juice_ph_sp": {"name": "Limed juice pH setpoint", "unit": "pH", "writable": True,
                        "min": 6.5, "max": 8},
        "syrup_brix": {"name": "Syrup brix", "unit": "°Bx"},
    },
    "shaft_plc": {
        "bucket1_load": {"name": "Bucket 1 load", "unit": "t"},
        "bucket2_load": {"name": "Bucket 2 load", "unit": "t"},
        "bucket_load_sp": {"name": "Bucket load setpoint", "unit": "t", "writable": True,
                           "min": 5, "max": 20},
    },
}))


async def test_values_said_are_no_reads() -> None:
    for text in ("load each bucket with 18 tonnes",
                 "lime the juice to a pH of seven point six"):
        action = await routed_without_model(MILL, text)
        assert action.name != "read", text
    # asked, they are
    action = await routed_without_model(MILL, "what's the limed juice pH")
    assert (action.name, action.args) == ("read", {"point": "juice_ph"})


async def test_molasses_is_no_juice() -> None:
    action = await routed_without_model(MILL, "molasses tank level?")
    assert action.name != "read"
    action = await routed_without_model(MILL, "juice tank level?")
    assert (action.name, action.args) == ("read", {"point": "juice_tank_level"})
