"""Point profiles: what a point is, from its names, description, unit, kind and writability."""

from __future__ import annotations

from hermesd.config.model import Point
from hermesd.router.profiles import Profiles, stems_match


def _profiles(*points: Point) -> Profiles:
    return Profiles(points)


KILN = Point(id="kiln1_sp", device="d", driver="exec", name="Kiln 1 dry bulb setpoint",
             names={"zh": "1号窑设定温度"}, unit="°C", kind="float", writable=True, min=30, max=90)
WOOD = Point(id="wood_moisture_1", device="d", driver="exec", name="Kiln 1 wood moisture",
             description="Average moisture content of the boards in kiln 1", unit="%")
FAN = Point(id="fan", device="blowers", driver="exec", name="Backwash blower", kind="bool",
            writable=True)
TURBIDITY = Point(id="ntu_out", device="d", driver="exec", name="Filtered water", unit="NTU")
LOGS = Point(id="logs", device="d", driver="exec", name="Logs sawn today", unit="logs",
             kind="int")


def test_a_profile_holds_names_ids_role_and_quantity() -> None:
    p = _profiles(KILN, WOOD, FAN, TURBIDITY, LOGS)
    kiln = p.by_id["kiln1_sp"]
    assert {"kiln", "dry", "bulb", "setpoint"} <= kiln.names
    assert "temperature" in kiln.names  # from its Chinese name (温度)
    assert kiln.ids == {"1"} and ("kiln", "1") in kiln.pairs
    assert kiln.role == "setpoint" and kiln.unit == "°c"
    assert "quantity.temperature" in kiln.quantities  # from its unit
    assert "role.setpoint" in kiln.concepts


def test_description_device_and_id_words_explain_but_do_not_name() -> None:
    p = _profiles(KILN, WOOD, FAN, TURBIDITY, LOGS)
    wood = p.by_id["wood_moisture_1"]
    assert "board" in wood.words and "board" not in wood.names
    fan = p.by_id["fan"]
    assert "blowers" in fan.words or "blower" in fan.words
    assert fan.role == "command" and "thing.fan" in fan.concepts  # a blower is a fan
    assert "thing.backwash" in fan.part_concepts  # of one word of its name


def test_a_unit_names_the_quantity_and_a_count_has_its_own() -> None:
    p = _profiles(KILN, WOOD, FAN, TURBIDITY, LOGS)
    assert "quantity.turbidity" in p.by_id["ntu_out"].quantities  # NTU: a turbidity
    assert p.by_id["ntu_out"].unit_sure
    assert not p.by_id["wood_moisture_1"].unit_sure  # % measures many things
    assert "quantity.count" in p.by_id["logs"].quantities  # an int of "logs"


def test_rare_words_weigh_more_than_common_ones() -> None:
    p = _profiles(KILN, WOOD, FAN, TURBIDITY, LOGS)
    assert p.weight("kiln") < p.weight("bulb")  # two points say kiln, one bulb
    assert p.weight("a word of no point") == 1.0


def test_word_forms() -> None:
    assert stems_match("filtration", "filtered") and stems_match("dosing", "dose")
    assert stems_match("hydraulics", "hydraulic") and stems_match("extraction", "extractor")
    assert not stems_match("pump", "pumice") and not stems_match("valve", "value")
