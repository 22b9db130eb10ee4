"""What blind batch 36 (a laundry named in terse OEM words, a hospital energy centre in long BMS
names, a bilingual smolt hatchery), written after this round's work and measured once, found
newly wrong, on a plant written here: "which program is the tunnel running" read the tunnel's
drive run, because "program" after "which" was taken for a verb and dropped."""

from __future__ import annotations

from hermesd.router import Router
from tests.support.plants import exec_devices, routed_without_model

LAUNDRY = Router(exec_devices("laundry", {"tunnel_plc": {
    "tw_drive": {"name": "TW drive run", "type": "bool"},
    "tw_fault": {"name": "TW Störung", "type": "bool", "description": "Tunnel washer fault."},
    "tw_prog": {"name": "TW program", "type": "int", "writable": True,
                "description": "Wash programme of the tunnel washer.",
                "map": {1: "hotel", 2: "hygiene", 3: "workwear"}},
    "tw_cycle": {"name": "TW cycle time", "unit": "s"},
}}))


async def test_a_word_asked_which_of_is_no_verb() -> None:
    action = await routed_without_model(LAUNDRY, "which program is the tunnel running")
    assert (action.name, action.args) != ("read", {"point": "tw_drive"})
    action = await routed_without_model(LAUNDRY, "what program is the tunnel on")
    assert (action.name, action.args) == ("read", {"point": "tw_prog"})
