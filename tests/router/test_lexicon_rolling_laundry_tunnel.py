"""The lexicon's words of hot strip and plate mills, of commercial laundries and of road tunnels:
Chinese and English commands, in each trade's jargon, about English-named points of plants
written here with near neighbours (the preheat, heating and soak zones; the primary and the
finishing descaler; RDT, FDT and coiling temperature; roll force and bending force, crown and
flatness; the pre-wash, main wash and rinse zones; detergent, alkali, sour and softener pumps;
northbound and southbound CO, CO and NO2, visibility; access zone luminance and entrance
lighting, entrance and interior lighting; a lane's red cross and its green arrow; traffic volume
and average speed)."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.answer import Action
from hermesd.router import Router
from hermesd.router.concepts import concepts_of_text
from tests.support.plants import exec_devices, model_checked, routed_without_model


def _read(name: str, unit: str | None = None, **more: Any) -> dict[str, Any]:
    return {"name": name, **({"unit": unit} if unit else {}), **more}


def _set(name: str, unit: str | None, lo: float, hi: float, **more: Any) -> dict[str, Any]:
    return {"name": name, **({"unit": unit} if unit else {}), "writable": True,
            "min": lo, "max": hi, **more}


def _switch(name: str) -> dict[str, Any]:
    return {"name": name, "type": "bool", "writable": True}


ROLLING_CONFIG = exec_devices("hsm2", {"furnace": {
    "pre_t": _read("Reheat furnace preheat zone temperature", "°C"),
    "heat_t": _read("Reheat furnace heating zone temperature", "°C"),
    "soak_t": _read("Reheat furnace soak zone temperature", "°C"),
    "soak_sp": _set("Reheat furnace soak zone temperature setpoint", "°C", 1100, 1300),
    "extract_t": _read("Slab extraction temperature", "°C"),
}, "mill": {
    "prim_desc": _read("Primary descaler header pressure", "bar"),
    "fin_desc": _read("Finishing descaler header pressure", "bar"),
    "desc_pump1": _switch("Descaling pump 1"),
    "rdt": _read("Roughing delivery temperature", "°C"),
    "fdt": _read("Finishing delivery temperature", "°C"),
    "fdt_sp": _set("Finishing delivery temperature target", "°C", 800, 950),
    "bar_t": _read("Transfer bar thickness", "mm"),
    "looper2": _read("Looper 2 tension", "kN"),
    "isc": _read("Interstand cooling water flow", "m³/h"),
    "force": _read("Roll force", "kN"),
    "bend": _read("Work roll bending force", "kN"),
    "crown": _read("Strip crown", "µm"),
    "flat": _read("Strip flatness", "I"),
    "shear": _switch("Crop shear"),
    "edger": _read("Edger motor current", "A"),
}, "coiling": {
    "ct": _read("Coiling temperature", "°C"),
    "ct_sp": _set("Coiling temperature setpoint", "°C", 450, 750),
    "rot": _read("Run-out table speed", "m/s"),
    "dc1": _switch("Downcoiler 1"),
    "coil_w": _read("Coil weight", "t"),
}})

LAUNDRY_CONFIG = exec_devices("laundry2", {"tunnel": {
    "pre_t": _read("Tunnel washer pre-wash temperature", "°C"),
    "main_t": _read("Tunnel washer main wash temperature", "°C"),
    "main_sp": _set("Main wash temperature setpoint", "°C", 40, 90),
    "rinse_t": _read("Tunnel washer rinse zone temperature", "°C"),
    "press_p": _read("Water extraction press pressure", "bar"),
    "press": _switch("Water extraction press"),
    "det": _switch("Detergent dosing pump"),
    "alk": _switch("Alkali dosing pump"),
    "sour": _switch("Sour dosing pump"),
    "soft": _switch("Fabric softener dosing pump"),
    "reuse": _read("Recovered water tank level", "%"),
}, "finishing": {
    "d1": _read("Dryer 1 outlet temperature", "°C"),
    "ironer_sp": _set("Ironer speed setpoint", "m/min", 10, 50),
    "chest": _read("Ironer chest temperature", "°C"),
    "feeder": _switch("Spreader feeder"),
    "folder": _switch("Folder"),
    "oil_t": _read("Thermal oil supply temperature", "°C"),
}})

TUNNEL_CONFIG = exec_devices("tunnel9", {"vent": {
    "nb_co": _read("Northbound CO", "ppm"),
    "sb_co": _read("Southbound CO", "ppm"),
    "nb_no2": _read("Northbound NO2", "ppm"),
    "nb_vis": _read("Northbound visibility", "1/km"),
    "jf3": _switch("Jet fan 3"),
}, "lighting": {
    "l20": _read("Access zone luminance", "cd/m²"),
    "ent": _set("Entrance lighting stage", None, 0, 6, type="int"),
    "int": _switch("Interior lighting"),
    "rx1": _switch("Lane 1 red cross"),
    "ga1": _switch("Lane 1 green arrow"),
}, "traffic": {
    "nb_vol": _read("Northbound traffic volume", "veh/h"),
    "nb_spd": _read("Northbound average speed", "km/h"),
}, "safety": {
    "fire": _read("Fire main pressure", "bar"),
    "del5": _switch("Deluge zone 5 valve"),
    "cp3": _read("Cross passage 3 door open", type="bool"),
}})

ROLLING, LAUNDRY, TUNNEL = Router(ROLLING_CONFIG), Router(LAUNDRY_CONFIG), Router(TUNNEL_CONFIG)
#: the plants by name, with their configs (for the model stage's check)
PLANTS = {"rolling": (ROLLING, ROLLING_CONFIG), "laundry": (LAUNDRY, LAUNDRY_CONFIG),
          "tunnel": (TUNNEL, TUNNEL_CONFIG)}


@pytest.mark.parametrize(("router", "text", "point"), [
    # hot strip mill
    (ROLLING, "出炉温度", "extract_t"),
    (ROLLING, "粗除鳞压力", "prim_desc"),
    (ROLLING, "精轧除鳞压力", "fin_desc"),
    (ROLLING, "粗轧出口温度", "rdt"),
    (ROLLING, "终轧温度", "fdt"),
    (ROLLING, "精轧出口温度", "fdt"),
    (ROLLING, "中间坯厚度", "bar_t"),
    (ROLLING, "2号活套张力", "looper2"),
    (ROLLING, "机架间冷却水流量", "isc"),
    (ROLLING, "轧制力多少", "force"),
    (ROLLING, "弯辊力", "bend"),
    (ROLLING, "凸度", "crown"),
    (ROLLING, "板形", "flat"),
    (ROLLING, "飞剪开了吗", "shear"),
    (ROLLING, "立辊电流", "edger"),
    (ROLLING, "输出辊道速度", "rot"),
    (ROLLING, "钢卷重量", "coil_w"),
    # laundry
    (LAUNDRY, "预洗温度", "pre_t"),
    (LAUNDRY, "主洗温度", "main_t"),
    (LAUNDRY, "压榨机压力", "press_p"),
    (LAUNDRY, "press pressure", "press_p"),
    (LAUNDRY, "回用水箱液位", "reuse"),
    (LAUNDRY, "烫槽温度", "chest"),
    # road tunnel
    (TUNNEL, "北行CO浓度", "nb_co"),
    (TUNNEL, "南行一氧化碳", "sb_co"),
    (TUNNEL, "北行二氧化氮", "nb_no2"),
    (TUNNEL, "北行能见度", "nb_vis"),
    (TUNNEL, "北行透过率", "nb_vis"),
    (TUNNEL, "洞外亮度", "l20"),
    (TUNNEL, "1号车道红叉", "rx1"),
    (TUNNEL, "1号车道绿箭头", "ga1"),
    (TUNNEL, "北行车流量", "nb_vol"),
    (TUNNEL, "5号水喷雾分区阀", "del5"),
    (TUNNEL, "3号横通道门开了吗", "cp3"),
])
async def test_a_trade_word_is_read(router: Router, text: str, point: str) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("read", {"point": point}), (text, action)


@pytest.mark.parametrize(("router", "text", "args"), [
    (ROLLING, "终轧温度目标设为880", {"point": "fdt_sp", "value": 880}),
    (LAUNDRY, "主洗温度设为75度", {"point": "main_sp", "value": 75}),
    (LAUNDRY, "启动酸剂泵", {"point": "sour", "value": True}),
    (LAUNDRY, "启动中和剂泵", {"point": "sour", "value": True}),
    (LAUNDRY, "启动柔软剂泵", {"point": "soft", "value": True}),
    (LAUNDRY, "启动展布机", {"point": "feeder", "value": True}),
    (LAUNDRY, "关掉折叠机", {"point": "folder", "value": False}),
    (TUNNEL, "加强照明调到3级", {"point": "ent", "value": 3}),
    (TUNNEL, "打开基本照明", {"point": "int", "value": True}),
])
async def test_a_setting_by_its_trade_word(router: Router, text: str,
                                           args: dict[str, object]) -> None:
    action = await routed_without_model(router, text)
    assert (action.name, action.args) == ("write", args), (text, action)


def _reads(point: str) -> Action:
    return Action("read", {"point": point})


def _starts(point: str) -> Action:
    return Action("write", {"point": point, "value": True})


@pytest.mark.parametrize(("plant", "text", "wrong"), [
    ("rolling", "粗除鳞压力", _reads("fin_desc")),  # the primary descaler is no finishing one
    ("rolling", "精轧除鳞压力", _reads("prim_desc")),
    ("rolling", "粗轧出口温度", _reads("fdt")),  # RDT is no FDT
    ("rolling", "终轧温度", _reads("rdt")),
    ("rolling", "终轧温度", _reads("ct")),  # nor the coiling temperature
    ("rolling", "加热炉出炉温度", _reads("soak_t")),  # the slab's is no zone's
    ("rolling", "工作辊弯辊力多少", _reads("force")),  # bending force is no roll force
    ("laundry", "隧道洗衣机预洗温度", _reads("main_t")),  # the pre-wash is no main wash
    ("laundry", "启动酸剂加药泵", _starts("alk")),  # sour is no alkali
    ("laundry", "启动中和剂加药泵", _starts("alk")),
    ("laundry", "启动柔软剂加药泵", _starts("det")),  # softener is no detergent
    ("tunnel", "北行CO浓度", _reads("sb_co")),  # northbound is no southbound
    ("tunnel", "南行一氧化碳", _reads("nb_co")),
    ("tunnel", "隧道北行CO", _reads("sb_co")),
])
def test_the_model_is_not_let_take_a_neighbour(plant: str, text: str, wrong: Action) -> None:
    """The model's check does not let the model take the neighbour the trade's word is not."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, wrong)
    assert checked.name == "respond", (text, checked)


@pytest.mark.parametrize(("plant", "text", "action"), [
    ("rolling", "弯辊力", _reads("bend")),
    ("laundry", "预洗温度", _reads("pre_t")),
    ("tunnel", "北行能见度", _reads("nb_vis")),
    ("tunnel", "1号车道红叉", _reads("rx1")),
    ("tunnel", "北行车流量", _reads("nb_vol")),
])
def test_the_model_is_let_take_the_trade_word(plant: str, text: str, action: Action) -> None:
    """Whatever the stages before it leave to the model, the model's check lets through the
    point the trade's word names."""
    router, config = PLANTS[plant]
    checked = model_checked(router, config, text, action)
    assert (checked.name, checked.args) == (action.name, action.args), (text, checked)


@pytest.mark.parametrize(("text", "want"), [
    ("加热段", {"thing.heating_zone"}),
    ("高压除鳞泵", {"thing.descaling_pump"}),
    ("除鳞水", {"medium.descaling_water"}),
    ("粗轧", {"thing.roughing_mill"}),
    ("精轧", {"thing.finishing_mill"}),
    ("RDT", {"quantity.rdt"}),
    ("FDT", {"quantity.fdt"}),
    ("卷取温度", {"quantity.coiling_temperature"}),
    ("中间坯", {"medium.transfer_bar"}),
    ("带钢", {"medium.steel_strip"}),
    ("钢卷", {"medium.steel_coil"}),
    ("活套", {"thing.looper"}),
    ("轧制力", {"quantity.roll_force"}),
    ("隧道式洗涤机", {"thing.tunnel_washer"}),
    ("洗涤龙", {"thing.tunnel_washer"}),
    ("漂洗区", {"thing.rinse_zone"}),
    ("中和剂", {"medium.laundry_sour"}),
    ("柔软剂", {"medium.fabric_softener"}),
    ("lint screen", {"thing.lint_filter"}),
    ("布草", {"medium.linen"}),
    ("射流风机组", {"thing.jet_fan"}),
    ("北行", {"modifier.northbound"}),
    ("southbound", {"modifier.southbound"}),
    ("能见度", {"quantity.visibility"}),
    ("入口段照明", {"thing.entrance_lighting"}),
    ("基本照明", {"thing.interior_lighting"}),
    ("车道指示器", {"thing.lane_control_signal"}),
    ("红叉", {"thing.red_cross"}),
    ("车流量", {"quantity.traffic_volume"}),
    ("紧急电话", {"thing.emergency_phone"}),
    ("人行横通道", {"thing.pedestrian_cross_passage"}),
    ("洞口", {"thing.tunnel_portal"}),
])
def test_the_words_are_found(text: str, want: set[str]) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want <= found, (text, found)


@pytest.mark.parametrize(("text", "want", "unwanted"), [
    ("加热段", "thing.heating_zone", "thing.soak_zone"),  # the heating zone is no soak zone
    ("粗轧出口温度", "quantity.rdt", "quantity.fdt"),
    ("精轧除鳞", "thing.finishing_descaler", "thing.primary_descaler"),
    ("主洗", "thing.main_wash_zone", "thing.prewash_zone"),
    ("预洗", "thing.prewash_zone", "thing.main_wash_zone"),
    ("酸剂", "medium.laundry_sour", "medium.caustic"),  # the sour is no alkali
    ("柔软剂", "medium.fabric_softener", "medium.detergent"),
    ("北行", "modifier.northbound", "modifier.southbound"),
    ("入口段照明", "thing.entrance_lighting", "thing.interior_lighting"),
    ("绿箭头", "thing.green_arrow", "thing.red_cross"),
    ("人行横通道", "thing.pedestrian_cross_passage", "thing.vehicle_cross_passage"),
    ("一氧化氮", "quantity.nitric_oxide", "quantity.co"),  # NO is no CO
])
def test_the_words_stay_apart(text: str, want: str, unwanted: str) -> None:
    found = {m.concept.id for m in concepts_of_text(text)}
    assert want in found and unwanted not in found, (text, found)
