"""Device profiles: register maps shipped once per model, used by many units; the user's own
profile directories; every problem of a profile or its use named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import profiles
from hermesd.config.loader import validate
from hermesd.config.model import Config
from hermesd.core.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.stem for p in (REPO / "configs" / "profiles").glob("*.yaml"))


def _load(devices: dict[str, Any], tmp: Path, **paths: Any) -> Config:
    return validate({"node": {"id": "n"}, "paths": paths, "devices": devices}, tmp / "c.yaml")


def _problems(devices: dict[str, Any], tmp: Path, **paths: Any) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        _load(devices, tmp, **paths)
    return caught.value.lines()


def _dev(profile: Any, unit: int = 1, **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": "rtu_over_tcp", "host": "10.0.0.7", "unit": unit,
            "profile": profile, **extra}


def test_the_shipped_profiles_are_reachable_from_the_package() -> None:
    assert SHIPPED == ["eastron_sdm120", "eurotherm_3216", "siemens_sinamics_v20"]
    assert profiles.SHIPPED.resolve() == (REPO / "configs" / "profiles").resolve()
    assert profiles.available(profiles.search_dirs([])) == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_profile_names_its_source_and_validates(tmp_path: Path, name: str) -> None:
    profile = profiles.load(name, profiles.search_dirs([]))
    assert profile.about["source"] and profile.about["manufacturer"] and profile.about["model"]
    text = profile.path.read_text(encoding="utf-8")
    assert "Source:" in text.split("profile:")[0]  # the header says which document, in words
    config = _load({"d1": _dev(name)}, tmp_path)
    assert set(config.points) == {f"d1_{key}" for key in profile.points}


def test_many_units_of_one_model_get_their_own_ids_and_names(tmp_path: Path) -> None:
    config = _load({"meter_1": _dev("eastron_sdm120", 1), "meter_2": _dev("eastron_sdm120", 2)},
                   tmp_path)
    one, two = config.points["meter_1_voltage"], config.points["meter_2_voltage"]
    assert (one.name, two.name) == ("meter 1 voltage", "meter 2 voltage")
    assert (one.device, two.device, one.unit) == ("meter_1", "meter_2", "V")
    assert dict(one.params) == {**dict(two.params)}  # the same register map
    assert dict(one.params)["table"] == "input" and dict(one.params)["type"] == "float32"
    # the profile's register format reaches the device, its link keys stay the device's
    params = dict(config.devices["meter_2"].params)
    assert params["max_block"] == 60 and params["unit"] == 2 and params["host"] == "10.0.0.7"


def test_a_device_changes_profile_points_and_adds_its_own(tmp_path: Path) -> None:
    config = _load({"oven": _dev("eurotherm_3216", points={
        "pv": {"scale": 1, "max_age": "30s"},
        "remote_setpoint": {"writable": True, "min": 0, "max": 400},
        "door_open": {"table": "holding", "address": 200, "type": "bool", "bit": 0}},
        max_gap=4)}, tmp_path)
    pv = config.points["oven_pv"]
    assert dict(pv.params)["scale"] == 1 and pv.max_age == 30 and pv.kind == "int"
    assert pv.name == "oven temperature" and pv.aliases == ("oven process value",)
    assert config.points["oven_remote_setpoint"].writable
    assert not config.points["oven_target_setpoint"].writable
    assert "door_open" in config.points  # a point of its own keeps its own id
    assert dict(config.devices["oven"].params)["max_gap"] == 4  # the device's value wins


def test_unknown_or_malformed_profile_names(tmp_path: Path) -> None:
    lines = _problems({"a": _dev("eastron_sdm12"), "b": _dev("../../etc/passwd", 2),
                       "c": _dev(7, 3)}, tmp_path)
    assert lines[0].startswith("config error: devices.a.profile: no profile 'eastron_sdm12' in ")
    assert lines[0].endswith("did you mean 'eastron_sdm120'?")
    assert lines[1] == ("config error: devices.b.profile: expected a profile name (lower-case "
                        "letters, digits, _ and -), got the text '../../etc/passwd'")
    assert lines[2].startswith("config error: devices.c.profile: expected a profile name")
    assert len(lines) == 3  # nothing else about devices whose profile could not be read


def test_a_profile_is_for_modbus_devices_only(tmp_path: Path) -> None:
    lines = _problems({"s": {"driver": "serial", "port": "/dev/ttyS0",
                             "profile": "eastron_sdm120", "points": {}}}, tmp_path)
    assert "config error: devices.s.profile: profiles are Modbus register maps: only driver " \
           "modbus takes one" in lines


def _write(folder: Path, name: str, data: Any) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    return path


GOOD = {"profile": {"name": "Pump", "source": "Pump manual rev B, table 4"},
        "points": {"flow": {"table": "input", "address": 3, "type": "uint16", "unit": "m3/h"}}}


def test_user_profiles_come_first_and_are_validated(tmp_path: Path) -> None:
    mine = tmp_path / "my-profiles"
    _write(mine, "pump_x", GOOD)
    _write(mine, "eastron_sdm120", {**GOOD, "profile": {"name": "my meter", "source": "own"}})
    config = _load({"p": _dev("pump_x"), "m": _dev("eastron_sdm120", 2)}, tmp_path,
                   profiles=["my-profiles"])
    assert set(config.points) == {"p_flow", "m_flow"}  # my eastron_sdm120 hides the shipped one
    assert config.paths.profiles == (mine,)
    lines = _problems({"p": _dev("pump_x")}, tmp_path, profiles=["missing-dir"])
    assert lines[0] == f"config error: paths.profiles[0]: no directory {tmp_path / 'missing-dir'}"


def test_problems_in_a_profile_file_are_named_with_the_file(tmp_path: Path) -> None:
    mine = tmp_path / "p"
    bad_keys = _write(mine, "bad_keys", {"profile": {"name": "X", "source": "s", "modle": "m"},
                                         "device": {"baudrate": 2400}, "points": GOOD["points"],
                                         "register": {}})
    _write(mine, "bad_point", {**GOOD, "points": {"flow": {"table": "input", "address": 3,
                                                           "type": "uint61"}}})
    _write(mine, "no_source", {"profile": {"name": "X"}, "points": GOOD["points"]})
    broken = _write(mine, "broken", "profile: [unclosed\n")
    lines = _problems({"a": _dev("bad_keys"), "b": _dev("bad_point", 2),
                       "c": _dev("no_source", 3), "d": _dev("broken", 4),
                       "e": _dev("bad_keys", 5)}, tmp_path, profiles=["p"])
    assert lines[0].startswith(f"config error: devices.a.profile: {bad_keys}: profile.modle: "
                               "unknown key (did you mean 'model'?)")
    assert "device.baudrate: unknown key" in lines[0] and "register: unknown key" in lines[0]
    assert lines[1].startswith("config error: devices.b.profile.flow.type: the text 'uint61' "
                               "is not one of")
    assert lines[2].startswith("config error: devices.c.profile: ") and \
        "profile.source: is required" in lines[2]
    assert lines[3].startswith(f"config error: devices.d.profile: {broken}: YAML syntax error")
    assert len(lines) == 4  # bad_keys is named once, not again for e


def test_the_gateway_example_config_is_valid() -> None:
    from hermesd.config import load_config

    config = load_config(REPO / "configs" / "modbus-gateway.yaml")
    assert {d.params["transport"] for d in config.devices.values()} == {"rtu_over_tcp"}
    assert config.points["kiln_remote_setpoint"].writable
    assert config.points["meter_2_total_active_energy"].unit == "kWh"


def test_a_profiles_maker_and_model_name_the_device_unless_it_says(tmp_path: Path) -> None:
    """Home Assistant's device page shows the meter's maker and model from its profile."""
    config = _load({"meter_1": _dev("eastron_sdm120", 1),
                    "meter_2": _dev("eastron_sdm120", 2, name="Kitchen meter", model="SDM120M")},
                   tmp_path)
    one, two = config.devices["meter_1"].info, config.devices["meter_2"].info
    assert (one.name, one.manufacturer, one.model) == (None, "Eastron", "SDM120-Modbus")
    assert (two.name, two.manufacturer, two.model) == ("Kitchen meter", "Eastron", "SDM120M")


def test_a_profile_file_is_read_as_strictly_as_the_config(tmp_path: Path) -> None:
    # a key written twice was once the last one kept, silently; a bare off/on in a value map
    # was a boolean where the config reads it as the word
    mine = tmp_path / "p"
    twice = _write(mine, "twice", "profile: {name: X, source: s}\npoints:\n"
                                  "  flow: {table: input, address: 3, type: uint16}\n"
                                  "  flow: {table: input, address: 4, type: uint16}\n")
    _write(mine, "modes", "profile: {name: X, source: s}\npoints:\n"
                          "  mode: {table: holding, address: 5, type: uint16, writable: true,\n"
                          "         map: {0: off, 1: on}}\n")
    lines = _problems({"a": _dev("twice")}, tmp_path, profiles=["p"])
    assert lines == [f"config error: devices.a.profile: {twice}: YAML syntax error at line 4: "
                     "duplicate key 'flow' (first on line 3)"]
    config = _load({"b": _dev("modes")}, tmp_path, profiles=["p"])
    assert [e.name for e in config.points["b_mode"].value_map] == ["off", "on"]
