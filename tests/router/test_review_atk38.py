"""Review atk38 of the lexicon's electronics, rubber and palm oil words: forms that lumped
what operators keep apart, on plants of my own."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

FOOD = Router(exec_devices("food", {"cook": {
    "cooker_sp": {"name": "Cooker temperature setpoint", "unit": "°C", "writable": True,
                  "min": 60, "max": 110},
    "retort_sp": {"name": "Retort sterilizer temperature setpoint", "unit": "°C",
                  "writable": True, "min": 100, "max": 130},
}}))

POOL = Router(exec_devices("pool", {"dosing": {
    "chlor_mode": {"name": "Chlorination mode", "type": "uint16", "writable": True,
                   "map": {0: "off", 1: "auto", 2: "manual"}},
    "superchlor": {"name": "Superchlorination", "type": "bool", "writable": True},
    "hx_mode": {"name": "Heat exchanger mode", "type": "uint16", "writable": True,
                "map": {0: "normal", 1: "pass through"}},
    "ups_bypass": {"name": "UPS 1 bypass", "type": "bool", "writable": True},
}}))


@pytest.mark.parametrize(("router", "text", "not_point"), [
    (FOOD, "把蒸煮罐温度设为102", "retort_sp"),   # a cooking vessel is no palm steriliser
    (FOOD, "蒸煮罐设为102度", "retort_sp"),
    (POOL, "chlorinating mode on", "superchlor"),  # chlorinating is no shock dosing
    (POOL, "put the heat exchanger in bypass mode", "hx_mode"),  # bypass is no "pass through"
    (POOL, "put the ups in bypass mode", "hx_mode"),
])
async def test_a_lumped_word_writes_no_other_point(router: Router, text: str,
                                                   not_point: str) -> None:
    action = await routed_without_model(router, text)
    assert not (action.name == "write" and action.args.get("point") == not_point), \
        (text, action)
