"""Variants the lexicon keeps apart (review atk71b): where a word tells one kind of a machine,
a tank, an oil or an air from another (low grade and high grade centrifugals, the aft and the
fore peak, VLSFO and HSFO, cylinder and system oil, a continuous and a batch pan, the top and the
bottom roller, main and auxiliary 主/副, ceiling and sidewall inlets, acid and alkaline
scrubbers, disc and drum chippers), no concept takes both: naming the variant a plant lacks
writes and reads nothing, naming the one it has still reaches it. "port" and "starboard" are a
ship's sides, never any left or right."""
from __future__ import annotations

import pytest

from hermesd.router import Router
from tests.support.plants import exec_plant, routed_without_model

SUGAR = Router(exec_plant("cane3", {
    "hg": {"name": "High grade centrifugal", "type": "bool", "writable": True},
    "batch_pan": {"name": "Batch pan steam valve", "type": "bool", "writable": True},
    "main_cc": {"name": "Main cane carrier", "type": "bool", "writable": True,
                "names": {"zh": "主输蔗机"}},
    "top_roll": {"name": "Top roller speed setpoint", "unit": "rpm", "writable": True,
                 "min": 0, "max": 10, "names": {"zh": "顶辊转速设定"}},
    "heavy_mol": {"name": "Heavy molasses pump", "type": "bool", "writable": True,
                  "names": {"zh": "原蜜泵"}},
    "app": {"name": "Apparent purity", "unit": "%"},
    "cold_lime": {"name": "Cold liming tank agitator", "type": "bool", "writable": True},
}))
SHIP = Router(exec_plant("mv_variants", {
    "hsfo_v": {"name": "HSFO service tank outlet valve", "type": "bool", "writable": True},
    "sys_v": {"name": "System oil tank filling valve", "type": "bool", "writable": True},
    "fp_v": {"name": "Fore peak tank valve", "type": "bool", "writable": True,
             "names": {"zh": "首尖舱阀"}},
    "hsc": {"name": "High sea chest valve", "type": "bool", "writable": True},
    "mgo_v": {"name": "MGO supply valve", "type": "bool", "writable": True},
    "bn2": {"name": "Bulk nitrogen supply valve", "type": "bool", "writable": True},
    "top_lvl": {"name": "Topside tank level", "unit": "%"},
    "hfo_svc": {"name": "HFO service tank level", "unit": "%"},
}))
FARM = Router(exec_plant("broiler9", {
    "side_in": {"name": "Sidewall inlet opening setpoint", "unit": "%", "writable": True,
                "min": 0, "max": 100},
    "min_vent": {"name": "Minimum ventilation temperature setpoint", "unit": "°C",
                 "writable": True, "min": 10, "max": 35},
    "nipple": {"name": "Nipple drinker valve", "type": "bool", "writable": True},
    "main_line": {"name": "Main feed line", "type": "bool", "writable": True,
                  "names": {"zh": "主料线"}},
    "gas_brooder": {"name": "Gas brooder", "type": "bool", "writable": True},
}))
WORKS = Router(exec_plant("fabmill", {
    "acid_scr": {"name": "Acid scrubber pump", "type": "bool", "writable": True},
    "cda_v": {"name": "CDA isolation valve", "type": "bool", "writable": True},
    "disc_chip": {"name": "Disc chipper", "type": "bool", "writable": True},
    "ring_deb": {"name": "Ring debarker", "type": "bool", "writable": True},
    "pkg_kiln": {"name": "Package kiln heating valve", "type": "bool", "writable": True},
}))
POWER = Router(exec_plant("station4", {
    "left_v": {"name": "Left valve", "type": "bool", "writable": True},
    "right_v": {"name": "Right valve", "type": "bool", "writable": True},
    "left_fan": {"name": "Left ID fan", "type": "bool", "writable": True},
}))


@pytest.mark.parametrize(("router", "text"), [
    (SUGAR, "stop the low grade centrifugal"),
    (SUGAR, "open the continuous pan steam valve"),
    (SUGAR, "stop the auxiliary cane carrier"),
    (SUGAR, "停副输蔗机"),
    (SUGAR, "底辊转速设定5"),
    (SUGAR, "set the bottom roller speed to 5"),
    (SUGAR, "start the light molasses pump"),
    (SUGAR, "启动稀蜜泵"),
    (SUGAR, "启动终蜜泵"),
    (SUGAR, "what's the true purity"),
    (SUGAR, "gravity purity"),
    (SUGAR, "start the hot liming agitator"),
    (SHIP, "open the vlsfo service tank outlet valve"),
    (SHIP, "close the lsfo service tank outlet valve"),
    (SHIP, "open the cylinder oil tank filling valve"),
    (SHIP, "open the aft peak tank valve"),
    (SHIP, "打开尾尖舱阀"),
    (SHIP, "open the low sea chest valve"),
    (SHIP, "open the mdo supply valve"),
    (SHIP, "open the process nitrogen supply valve"),
    (SHIP, "hopper tank level"),
    (SHIP, "MGO service tank level"),
    (FARM, "set the ceiling inlet to 30"),
    (FARM, "set the tunnel curtain to 30"),
    (FARM, "set tunnel ventilation temperature to 25"),
    (FARM, "open the bell drinker valve"),
    (FARM, "停副料线"),
    (FARM, "start the radiant brooder"),
    (WORKS, "start the alkaline scrubber pump"),
    (WORKS, "close the xcda valve"),
    (WORKS, "start the drum chipper"),
    (WORKS, "start the drum debarker"),
    (WORKS, "open the track kiln heating valve"),
    (POWER, "open the port valve"),
    (POWER, "close the starboard valve"),
    (POWER, "start the port fan"),
])
async def test_the_variant_the_plant_lacks_is_refused(router: Router, text: str) -> None:
    action = await routed_without_model(router, text)
    assert action.name == "respond", (text, action)


@pytest.mark.parametrize(("router", "text", "name", "args"), [
    (SUGAR, "stop the high grade centrifugal", "write", {"point": "hg", "value": False}),
    (SUGAR, "open the batch pan steam valve", "write", {"point": "batch_pan", "value": True}),
    (SUGAR, "停主输蔗机", "write", {"point": "main_cc", "value": False}),
    (SUGAR, "顶辊转速设定5", "write", {"point": "top_roll", "value": 5}),
    (SUGAR, "start the heavy molasses pump", "write", {"point": "heavy_mol", "value": True}),
    (SUGAR, "what's the apparent purity", "read", {"point": "app"}),
    (SHIP, "open the hsfo service tank outlet valve", "write", {"point": "hsfo_v", "value": True}),
    (SHIP, "open the system oil tank filling valve", "write", {"point": "sys_v", "value": True}),
    (SHIP, "open the fore peak tank valve", "write", {"point": "fp_v", "value": True}),
    (SHIP, "打开首尖舱阀", "write", {"point": "fp_v", "value": True}),
    (SHIP, "open the high sea chest valve", "write", {"point": "hsc", "value": True}),
    (SHIP, "open the mgo supply valve", "write", {"point": "mgo_v", "value": True}),
    (SHIP, "open the bulk nitrogen supply valve", "write", {"point": "bn2", "value": True}),
    (SHIP, "topside tank level", "read", {"point": "top_lvl"}),
    (SHIP, "HFO service tank level", "read", {"point": "hfo_svc"}),
    (FARM, "set the sidewall inlet to 30", "write", {"point": "side_in", "value": 30}),
    (FARM, "open the nipple drinker valve", "write", {"point": "nipple", "value": True}),
    (FARM, "停主料线", "write", {"point": "main_line", "value": False}),
    (FARM, "start the gas brooder", "write", {"point": "gas_brooder", "value": True}),
    (WORKS, "start the acid scrubber pump", "write", {"point": "acid_scr", "value": True}),
    (WORKS, "close the cda valve", "write", {"point": "cda_v", "value": False}),
    (WORKS, "start the disc chipper", "write", {"point": "disc_chip", "value": True}),
    (WORKS, "start the ring debarker", "write", {"point": "ring_deb", "value": True}),
    (WORKS, "open the package kiln heating valve", "write",
     {"point": "pkg_kiln", "value": True}),
    (POWER, "open the left valve", "write", {"point": "left_v", "value": True}),
])
async def test_the_variant_the_plant_has_is_reached(router: Router, text: str, name: str,
                                                    args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == (name, args), (text, action)
