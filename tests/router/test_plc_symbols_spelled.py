"""A point named by a PLC's symbol ("Ovn1_Temp_SP", "Conv_Spd", "Hoist.Drive.Speed") is named
in words too, its short forms spelled out where its own description writes them ("Ovn": "oven"
of "Curing oven 1 air temperature setpoint"): an operator asks for "oven 1 setpoint", not
"Ovn1". A short form its description does not write stays as it is."""

from __future__ import annotations

from hermesd.router import Router
from hermesd.router.tags import spelled_out
from tests.support.plants import exec_devices, routed_without_model

CONFIG = exec_devices("paintline", {"line_plc": {
    "ovn1_temp": {"name": "Ovn1_Temp", "unit": "°C",
                  "description": "Curing oven 1 air temperature"},
    "ovn1_temp_sp": {"name": "Ovn1_Temp_SP", "unit": "°C", "writable": True, "min": 120,
                     "max": 220, "description": "Curing oven 1 air temperature setpoint"},
    "ovn2_temp": {"name": "Ovn2_Temp", "unit": "°C",
                  "description": "Curing oven 2 air temperature"},
    "conv_spd": {"name": "Conv_Spd", "unit": "m/min", "description": "Overhead conveyor speed"},
    "exh_fan": {"name": "Exh_Fan_Run", "type": "bool", "writable": True,
                "description": "Oven exhaust fan run command"},
    "rinse_cond": {"name": "Rns_Cond", "unit": "µS/cm"},
}})
ROUTER = Router(CONFIG)


def _aliases(point: str) -> tuple[str, ...]:
    named = {p.id: p for p in spelled_out(CONFIG.points.values())}
    return tuple(a.casefold() for a in named[point].aliases)


def test_a_symbols_short_forms_are_spelled_by_its_description() -> None:
    assert any(a.startswith("oven 1") for a in _aliases("ovn1_temp_sp"))
    assert any("exhaust" in a for a in _aliases("exh_fan"))
    # no description, nothing to spell it by: "Rns" stays
    assert not any("rinse" in a for a in _aliases("rinse_cond"))


async def test_operators_words_reach_symbols() -> None:
    said = {
        "what's oven 1 at": ("read", {"point": "ovn1_temp"}),
        "set oven 1 setpoint to 180": ("write", {"point": "ovn1_temp_sp", "value": 180}),
        "oven 2 temperature": ("read", {"point": "ovn2_temp"}),
        "switch the exhaust fan off": ("write", {"point": "exh_fan", "value": False}),
    }
    for text, expected in said.items():
        action = await routed_without_model(ROUTER, text)
        assert (action.name, action.args) == expected, text
