"""The words the rolling, laundry and road tunnel lexicon moves out of broader concepts of other
trades (MOVE.tsv) or adds to existing ones (EXTEND.tsv): the roughing mill and the finishing
mill, once one rolling mill; a furnace's heating zone beside its soak zone; jet fans beside the
shaft's axial fans; a tunnel washer beside a washer extractor; the deluge beside the gas
suppression of an equipment room; 风速 of a tunnel, its air velocity; 能见度 of a point named
for its opacity; 平均车速; a low point sump."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, model_checked, routed_without_model


def _read(name: str, unit: str | None = None, **more: Any) -> dict[str, Any]:
    return {"name": name, **({"unit": unit} if unit else {}), **more}


def _switch(name: str) -> dict[str, Any]:
    return {"name": name, "type": "bool", "writable": True}


MILL_CONFIG = exec_devices("hsm3", {"mill": {
    "heat_t": _read("Reheat furnace heating zone temperature", "°C"),
    "soak_t": _read("Reheat furnace soak zone temperature", "°C"),
    "r_force": _read("Roughing mill roll force", "kN"),
    "f_force": _read("Finishing mill roll force", "kN"),
    "r_speed": _read("Roughing mill speed", "m/s"),
}})

LAUNDRY_CONFIG = exec_devices("laundry3", {"wash": {
    "tw_t": _read("Tunnel washer main wash temperature", "°C"),
    "we1": _switch("Washer extractor 1"),
    "tw": _switch("Tunnel washer"),
}})

TUNNEL_CONFIG = exec_devices("tunnel10", {"plant": {
    "jf1": _switch("Jet fan 1"),
    "ax1": _switch("Axial fan 1"),
    "vel": _read("Northbound air velocity", "m/s"),
    "opacity": _read("Northbound opacity", "1/km"),
    "spd": _read("Northbound average speed", "km/h"),
    "sump": _read("Low point sump level", "%"),
    "deluge": _switch("Deluge valve"),
    "gas": _switch("Equipment room gas suppression valve"),
}})

MILL, LAUNDRY, TUNNEL = Router(MILL_CONFIG), Router(LAUNDRY_CONFIG), Router(TUNNEL_CONFIG)
PLANTS = {"mill": (MILL, MILL_CONFIG), "laundry": (LAUNDRY, LAUNDRY_CONFIG),
          "tunnel": (TUNNEL, TUNNEL_CONFIG)}


@pytest.mark.parametrize(("router", "text", "point"), [
    (MILL, "加热段温度多少", "heat_t"),
    (MILL, "粗轧机轧制力", "r_force"),
    (MILL, "精轧机轧制力", "f_force"),
    (MILL, "粗轧轧制力", "r_force"),
    (MILL, "精轧轧制力", "f_force"),
    (MILL, "rougher speed", "r_speed"),
    (TUNNEL, "北行不透光度", "opacity"),
    (TUNNEL, "北行能见度", "opacity"),
    (TUNNEL, "北行平均车速", "spd"),
    (TUNNEL, "低点集水坑液位", "sump"),
])
async def test_a_moved_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (LAUNDRY, "启动洗脱机", {"point": "we1", "value": True}),
    (TUNNEL, "打开雨淋阀", {"point": "deluge", "value": True}),
])
async def test_a_moved_word_is_written(router: Router, text: str,
                                       args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("mill", "加热段温度", Action("read", {"point": "soak_t"})),
    ("tunnel", "启动1号射流风机", Action("write", {"point": "ax1", "value": True})),
])
def test_the_model_is_not_let_take_a_neighbour(plant: str, text: str, wrong: Action) -> None:
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, wrong)
    assert checked.name == "respond", (text, checked)


@pytest.mark.parametrize(("text", "want", "unwanted"), [
    ("粗轧机", "thing.roughing_mill", "thing.finishing_mill"),
    ("finishing stand", "thing.finishing_mill", "thing.roughing_mill"),
    ("射流风机", "thing.jet_fan", "thing.tunnel_fan"),
    ("洗脱机", "thing.washer_extractor", "thing.tunnel_washer"),
    ("tunnel washer", "thing.tunnel_washer", "thing.washer_extractor"),
    ("雨淋阀", "thing.deluge_system", "thing.sprinkler"),
    ("风速", "quantity.velocity", "quantity.vehicle_speed"),
    ("opacity", "quantity.visibility", "quantity.nox"),
])
def test_the_moved_words_stay_apart(text: str, want: str, unwanted: str) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want in found and unwanted not in found, (text, found)
