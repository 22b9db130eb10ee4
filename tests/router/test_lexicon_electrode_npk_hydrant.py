"""The lexicon's words of battery electrode making, NPK fertiliser granulation and airport fuel
hydrants: Chinese and English commands about English-named points of those trades, on plants
written here with near neighbours (drive and operator side roll gaps, a slitter's tension and
the unwind's, a tank's fuel level and its water bottom, phosphoric and sulphuric acid)."""

from __future__ import annotations

import pytest

from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, routed_without_model

ELECTRODES = Router(exec_devices("electrodes", {"line": {
    "mixer_speed": {"name": "Planetary mixer speed", "unit": "rpm"},
    "visc": {"name": "Slurry viscosity", "unit": "mPa·s"},
    "areal": {"name": "Areal weight", "unit": "mg/cm2"},
    "coat_speed": {"name": "Coating speed", "unit": "m/min"},
    "feed_pump": {"name": "Slurry feed pump speed", "unit": "rpm"},
    "gap_ds": {"name": "Roll gap drive side", "unit": "µm"},
    "gap_os": {"name": "Roll gap operator side", "unit": "µm"},
    "compaction": {"name": "Compaction density", "unit": "g/cm3"},
    "slit_tension": {"name": "Slitter rewind tension", "unit": "N"},
    "unwind_tension": {"name": "Unwind tension", "unit": "N"},
    "rec_tank": {"name": "Recovered NMP tank level", "unit": "%"},
}}))

# the areal weight beside its target
COATER = Router(exec_devices("coater", {"line": {
    "areal": {"name": "Areal weight", "unit": "mg/cm2"},
    "areal_sp": {"name": "Areal weight target", "unit": "mg/cm2", "writable": True,
                 "min": 5, "max": 40},
}}))

NPK = Router(exec_devices("npk", {"plant": {
    "gran_speed": {"name": "Granulator speed", "unit": "rpm"},
    "recycle": {"name": "Recycle rate", "unit": "t/h"},
    "phos": {"name": "Phosphoric acid flow", "unit": "m3/h"},
    "sulph": {"name": "Sulphuric acid flow", "unit": "m3/h"},
    "dryer_out": {"name": "Dryer outlet temperature", "unit": "°C"},
    "cooler_prod": {"name": "Cooler product temperature", "unit": "°C"},
    "chain_mill": {"name": "Chain mill current", "unit": "A"},
    "scrub_ph": {"name": "Tail gas scrubber liquor pH", "unit": "pH"},
}}))

HYDRANT = Router(exec_devices("apron", {"fuel": {
    "t1_fuel": {"name": "Tank 1 fuel level", "unit": "mm"},
    "t1_water": {"name": "Tank 1 water bottom level", "unit": "mm"},
    "t1_temp": {"name": "Tank 1 fuel temperature", "unit": "°C"},
    "hp1": {"name": "Hydrant pump 1 running", "type": "bool", "writable": True},
    "ring_p": {"name": "Hydrant ring main pressure", "unit": "bar"},
    "fws_dp": {"name": "Filter water separator differential pressure", "unit": "bar"},
    "ess": {"name": "Emergency shut-off tripped", "type": "bool"},
    "pit12": {"name": "Hydrant pit valve 12 open", "type": "bool"},
}}))


@pytest.mark.parametrize(("router", "text", "point"), [
    (ELECTRODES, "浆料粘度", "visc"),
    (ELECTRODES, "面密度", "areal"),
    (ELECTRODES, "what's the areal density", "areal"),
    (ELECTRODES, "涂布速度", "coat_speed"),
    (ELECTRODES, "传动侧辊缝", "gap_ds"),
    (ELECTRODES, "操作侧辊缝", "gap_os"),
    (ELECTRODES, "压实密度", "compaction"),
    (ELECTRODES, "分切张力", "slit_tension"),
    (ELECTRODES, "NMP回收罐液位", "rec_tank"),
    (NPK, "造粒转鼓转速", "gran_speed"),
    (NPK, "返料量", "recycle"),
    (NPK, "磷酸流量", "phos"),
    (NPK, "硫酸流量", "sulph"),
    (NPK, "链磨电流", "chain_mill"),
    (NPK, "尾气洗涤塔循环液pH", "scrub_ph"),
    (HYDRANT, "1号罐水垫层", "t1_water"),
    (HYDRANT, "1号罐航煤温度", "t1_temp"),
    (HYDRANT, "管网压力", "ring_p"),
    (HYDRANT, "过滤分离器压差", "fws_dp"),
    (HYDRANT, "紧急切断了吗", "ess"),
    (HYDRANT, "12号加油栓开了吗", "pit12"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "point"), [
    (COATER, "面密度", "areal"),  # (beside its target)
    (HYDRANT, "1号罐油位", "t1_fuel"),  # (the water bottom is a level of tank 1 too)
    (NPK, "冷却机出料温度", "cooler_prod"),  # (an outlet temperature, but not the dryer's)
])
async def test_a_near_neighbour_is_never_read_for_it(router: Router, text: str,
                                                     point: str) -> None:
    """At worst a question."""
    action = await routed_without_model(router, text)
    assert action.name == "respond" or action.args == {"point": point}, (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (COATER, "把面密度设为18", {"point": "areal_sp", "value": 18}),
    (HYDRANT, "启动1号加油泵", {"point": "hp1", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


@pytest.mark.parametrize(("text", "want"), [
    ("传动侧辊缝", {"modifier.rear", "quantity.gap"}),
    ("Jet A-1", {"medium.jet_fuel"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    """The drive side of a calender is its back, the operator side its front: opposite sides,
    which the router tells apart."""
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)
