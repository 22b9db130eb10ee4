"""Config keys of the data model and of Home Assistant entities: value maps, 64-bit integers,
bytes and fields of a register, a point's `ha:`, a device's display keys. Each mistake is one
`config error: <dotted.path>: <what>` line; nothing is dropped or "fixed"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config.drivers.modbus import span
from hermesd.config.loader import load_config, validate
from hermesd.config.model import Config, MapEntry
from hermesd.core.errors import ConfigError

SOURCE = Path("/etc/hermesd/hermesd.yaml")
P = "devices.plc.points.p"


def _config(point: dict[str, Any], **device: Any) -> dict[str, Any]:
    return {"node": {"id": "n"}, "devices": {"plc": {
        "driver": "modbus", "host": "127.0.0.1", **device,
        "points": {"p": {"table": "holding", "address": 0, **point}}}}}


def _load(point: dict[str, Any], **device: Any) -> Config:
    return validate(_config(point, **device), SOURCE)


def _problems(point: dict[str, Any], **device: Any) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        _load(point, **device)
    return caught.value.lines()


def test_a_map_written_as_people_write_it(tmp_path: Path) -> None:
    """`0: off` is YAML 1.1's false; the loader keeps the word as written."""
    path = tmp_path / "hermesd.yaml"
    path.write_text("node: {id: n}\ndevices:\n  plc:\n    driver: modbus\n    host: 127.0.0.1\n"
                    "    points:\n      mode:\n        table: holding\n        address: 0\n"
                    "        writable: true\n"
                    "        map: {0: off, 1: auto, 2: {name: manual, names: {zh: 手动}}, "
                    "3: On}\n", encoding="utf-8")
    point = load_config(path).points["mode"]
    assert point.kind == "string" and point.choices == ("off", "auto", "manual", "On")
    assert point.value_map[2] == MapEntry(raw=2, name="manual", names={"zh": "手动"})
    assert (point.min, point.max, point.step) == (None, None, None)


def test_a_coil_maps_its_two_states() -> None:
    point = _load({"table": "coil", "map": {0: "closed", 1: "open"}, "writable": True}) \
        .points["p"]
    assert [(e.raw, e.name) for e in point.value_map] == [(False, "closed"), (True, "open")]


@pytest.mark.parametrize(("point", "problem"), [
    ({"map": {0: False}}, f"config error: {P}.map.0: the boolean false is no name: YAML reads "
                          "a bare off/on/yes/no as a boolean; quote the name (\"off\")"),
    ({"map": {0: "1"}}, f"config error: {P}.map.0: '1' reads as a number; a name must be "
                        "words (a raw value is written as the key)"),
    ({"map": {0: "auto", 1: "Auto"}}, f"config error: {P}.map.1: name 'Auto' also names raw "
                                      "value 0 ('auto')"),
    ({"map": {"a": "auto"}}, f"config error: {P}.map.a: a raw value of this point is a whole "
                             "number, not the text 'a'"),
    ({"map": {70000: "big"}}, f"config error: {P}.map.70000: 70000 cannot be held by this "
                              "point's register (0..65535)"),
    ({"type": "float32", "map": {0: "off"}}, f"config error: {P}.map: only whole-number or "
                                             "on/off points map values to names; this one "
                                             "reads fractional numbers (a scale or offset)"),
    ({"map": {0: "off"}, "writable": True, "min": 0, "max": 2},
     f"config error: {P}.max: a point with a `map` takes no max: its names are what may be "
     "written"),
    ({"map": []}, f"config error: {P}.map: expected raw values and their names ({{0: off, 1: "
                  "auto}), got a list"),
    ({"map": {0: {"name": "off", "names": {"chinese": "关"}}}},
     f"config error: {P}.map.0.names.chinese: is not a language code such as zh, de or pt-BR"),
])
def test_map_mistakes_are_each_named(point: dict[str, Any], problem: str) -> None:
    assert problem in _problems(point)


def test_registers_of_every_new_shape() -> None:
    for point, words in (({"type": "uint64"}, (0, 3)), ({"type": "int64"}, (0, 3)),
                         ({"type": "int8", "byte": "low"}, (0, 0)),
                         ({"mask": 0x0F00}, (0, 0))):
        loaded = _load(point).points["p"]
        where = span(loaded.params)
        assert loaded.kind == "int" and where is not None and where[:2] == words, point
    field = _load({"mask": 0x0F00, "writable": True, "min": 0, "max": 15}).points["p"]
    assert (field.params["mask"], field.params["shift"]) == (0x0F00, 8)


@pytest.mark.parametrize(("point", "problem"), [
    ({"type": "uint8"}, f"{P}.type: an uint8 is half a register: say which with `byte: high` "
                        "or `byte: low`"),
    ({"type": "uint16", "byte": "high"}, f"{P}.byte: only int8 and uint8 points take `byte`"),
    ({"type": "int32", "mask": 0xFF}, f"{P}.mask: a field with a mask is part of one uint16 "
                                      "register, not of a int32"),
    ({"mask": 0x0505}, f"{P}.mask: 0x0505 is not one run of bits (like 0x0F00): a field is "
                       "contiguous"),
    ({"mask": 0x0F00, "shift": 9}, f"{P}.shift: 9 would drop bits of the mask 0x0F00 (its "
                                   "lowest bit is 8)"),
    ({"shift": 2}, f"{P}.shift: `shift` goes with a `mask`"),
    ({"mask": 0x0F00, "writable": True, "min": 0, "max": 16},
     f"{P}.max: 16 cannot be held by this point's type (range 0..15)"),
    ({"type": "uint64", "address": 65533}, f"{P}.address: a uint64 at 65533 runs past "
                                           "register 65535"),
])
def test_register_shape_mistakes_are_each_named(point: dict[str, Any], problem: str) -> None:
    assert f"config error: {problem}" in _problems(point)


def test_home_assistant_keys_of_a_point_and_a_device() -> None:
    config = _load({"type": "uint32", "unit": "kWh", "ha": {
        "device_class": "energy", "state_class": "total_increasing", "icon": "mdi:flash",
        "suggested_display_precision": 1, "entity_category": "diagnostic",
        "enabled_by_default": False}}, name="Main meter", manufacturer="Eastron",
        model="SDM630", configuration_url="https://meter.local/")
    ha = config.points["p"].ha
    assert (ha.device_class, ha.state_class, ha.icon, ha.suggested_display_precision,
            ha.entity_category, ha.enabled_by_default) == \
        ("energy", "total_increasing", "mdi:flash", 1, "diagnostic", False)
    info = config.devices["plc"].info
    assert (info.name, info.manufacturer, info.model, info.configuration_url) == \
        ("Main meter", "Eastron", "SDM630", "https://meter.local/")


@pytest.mark.parametrize(("point", "problem"), [
    # what HA 2024.1 would drop the entity for, or warn about
    ({"unit": "m³/h", "ha": {"device_class": "volume_flow_rate"}},
     f"{P}.ha.device_class: 'volume_flow_rate' is no numeric device class of Home Assistant "
     "2024.1 (temperature, pressure, energy, ...)"),
    ({"unit": "mm/s", "ha": {"device_class": "speed"}},
     f"{P}.ha.device_class: Home Assistant 2024.1 takes speed only in ft/s, in/d, in/h, km/h, "
     "kn, m/s, mm/d, mm/h, mph, not mm/s: it would drop the entity"),
    ({"unit": "kWh", "ha": {"device_class": "energy", "state_class": "measurement"}},
     f"{P}.ha.state_class: Home Assistant takes energy only as total or total_increasing, not "
     "measurement"),
    ({"table": "coil", "ha": {"device_class": "temperature"}},
     f"{P}.ha.device_class: 'temperature' is no on/off device class of Home Assistant 2024.1"),
    ({"map": {0: "off"}, "ha": {"device_class": "enum"}},
     f"{P}.ha.device_class: a point of names (a map) takes no device class: it is an enum "
     "sensor or a select in HA"),
    ({"ha": {"icon": "flash"}}, f"{P}.ha.icon: 'flash' is not an icon like mdi:flash"),
    ({"ha": {"entity_category": "system"}}, f"{P}.ha.entity_category: the text 'system' is not "
                                            "one of config|diagnostic"),
    ({"ha": {"device_clas": "energy"}}, f"{P}.ha.device_clas: unknown key (did you mean "
                                        "'device_class'?)"),
])
def test_home_assistant_mistakes_are_each_named(point: dict[str, Any], problem: str) -> None:
    lines = _problems(point)
    assert any(line.startswith(f"config error: {problem}") for line in lines), lines


def test_a_device_page_must_be_a_web_address() -> None:
    lines = _problems({}, configuration_url="ftp://plc")
    assert lines == ["config error: devices.plc.configuration_url: 'ftp://plc' is not an "
                     "http:// or https:// address of the device's own page"]
