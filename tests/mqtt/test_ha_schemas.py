"""Every discovery config hermesd announces, judged by Home Assistant 2024.1 itself.

The oldest release hermesd supports (`hermesd.mqtt.ha_support.OLDEST_HA`) runs in a side venv
(`scripts/ha-venv`: made once, then reused) and judges each config with its own MQTT
DISCOVERY_SCHEMA and the checks it makes when the entity is set up and its states arrive
(`tests/ha/check_discovery.py`). Nothing may be refused, nothing logged, and nothing dropped
but `default_entity_id`, which 2024.1 does not know yet (it names the entity from its name).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.config.model import Config
from hermesd.mqtt.discovery import entities, state_payload
from hermesd.mqtt.ha_support import OLDEST_HA
from tests.mqtt.expected_plant import WRITES
from tests.support.plant import dev_plant

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "tests" / "ha" / "check_discovery.py"
#: keys 2024.1 drops without a word: newer releases' entity id (2024.1 takes the name's)
KNOWN_NEWER = {"default_entity_id"}
#: the first test of a machine builds the side venv (scripts/test builds it beforehand)
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def ha_python() -> str:
    """The side venv's python (built by scripts/ha-venv on first use: a few minutes)."""
    out = subprocess.run([str(ROOT / "scripts" / "ha-venv")], capture_output=True, text=True,
                         check=False, timeout=900, env={**os.environ})
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip().splitlines()[-1]


def judge(python: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    out = subprocess.run([python, str(CHECKER)], input=json.dumps(items), capture_output=True,
                         text=True, check=False, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return dict(json.loads(out.stdout))


def _items(config: Config, states: dict[str, list[Any]] | None = None) -> list[dict[str, Any]]:
    items = []
    for entity in entities(config):
        point = config.points.get(entity.point or "")
        shown = [state_payload(point, v) for v in (states or {}).get(point.id, [])] \
            if point is not None else []
        items.append({"topic": entity.object_id, "component": entity.component,
                      "config": json.loads(entity.payload()), "states": shown})
    return items


def _config(tmp_path: Path, data: dict[str, Any]) -> Config:
    return validate(data, tmp_path / "hermesd.yaml")


#: a plant with what users tune: value maps (written and read-only), a 64-bit energy counter
#: with its class, precision and icon, fields of a register, categories, a hidden entity, units
#: 2024.1 has no class for, and device names
TUNED: dict[str, Any] = {
    "node": {"id": "plant-7", "name": "Plant 7 gateway"},
    "access": {"roles": {"viewer": {"read": True},
                         "operator": {"read": True, "write": True}}},
    "mqtt": {"command_role": "operator"},
    "devices": {"chiller": {
        "driver": "modbus", "host": "127.0.0.1", "name": "Chiller plant PLC",
        "manufacturer": "Carel", "model": "pCO5", "configuration_url": "http://127.0.0.1:8080/",
        "points": {
            "chiller_mode": {"name": "Chiller mode", "table": "holding", "address": 0,
                             "writable": True,
                             "map": {0: "off", 1: {"name": "auto", "names": {"zh": "自动"}},
                                     2: "manual"},
                             "ha": {"icon": "mdi:snowflake", "entity_category": "config"}},
            "alarm_code": {"table": "input", "address": 3, "map": {0: "none", 7: "overheat"},
                           "ha": {"entity_category": "diagnostic"}},
            "energy_total": {"table": "input", "address": 10, "type": "uint64", "unit": "kWh",
                             "ha": {"device_class": "energy", "state_class": "total_increasing",
                                    "suggested_display_precision": 0, "icon": "mdi:flash"}},
            "flow": {"table": "input", "address": 20, "unit": "m³/h"},
            "dosing": {"table": "input", "address": 21, "unit": "L/min"},
            "vibration": {"table": "input", "address": 22, "unit": "mm/s", "scale": 0.1},
            "fan_stage": {"table": "holding", "address": 1, "mask": 0x0F00, "writable": True,
                          "min": 0, "max": 15, "ha": {"entity_category": "config"}},
            "supply_temp": {"table": "input", "address": 30, "type": "int8", "byte": "high",
                            "unit": "°C", "ha": {"suggested_display_precision": 0,
                                                 "enabled_by_default": False}},
            "door_open": {"table": "discrete", "address": 0, "ha": {"device_class": "door"}},
            "debug_word": {"table": "input", "address": 31,
                           "ha": {"entity_category": "config", "enabled_by_default": False}},
        }}},
}


def test_the_tuned_plant_is_valid_on_the_oldest_release(tmp_path: Path, ha_python: str) -> None:
    config = _config(tmp_path, TUNED)
    states: dict[str, list[Any]] = {"chiller_mode": ["off", "auto", "manual"], "alarm_code": ["none", "7"],
              "energy_total": [2**40 + 3], "flow": [12], "vibration": [1.5],
              "supply_temp": [-5], "door_open": [True], "fan_stage": [9]}
    verdict = judge(ha_python, _items(config, states))
    assert verdict["version"].startswith(OLDEST_HA)
    for result in verdict["results"]:
        assert result["rejected"] is None, result
        assert result["warnings"] == [], result
        assert set(result["dropped"]) <= KNOWN_NEWER, result
    by_id = {e.object_id: e for e in entities(config)}
    assert by_id["chiller_mode"].component == "select"
    assert by_id["chiller_mode"].config["options"] == ["off", "auto", "manual"]
    assert by_id["chiller_mode"].config["entity_category"] == "config"
    assert by_id["alarm_code"].component == "sensor"
    assert "state_class" not in by_id["alarm_code"].config  # names are no measurement
    energy = by_id["energy_total"].config
    assert (energy["device_class"], energy["state_class"]) == ("energy", "total_increasing")
    assert energy["suggested_display_precision"] == 0 and energy["icon"] == "mdi:flash"
    # units 2024.1 has no class for go without one, never with a class it refuses
    for pid in ("flow", "dosing", "vibration"):
        assert "device_class" not in by_id[pid].config, pid
    # a read-only sensor takes no `config` category (HA refuses it there)
    assert "entity_category" not in by_id["debug_word"].config
    assert by_id["debug_word"].config["enabled_by_default"] is False
    assert by_id["door_open"].config["device_class"] == "door"
    device = energy["device"]
    assert (device["name"], device["manufacturer"], device["model"],
            device["configuration_url"]) == ("Chiller plant PLC", "Carel", "pCO5",
                                              "http://127.0.0.1:8080/")
    assert energy["json_attributes_topic"] == "hermesd/plant-7/energy_total/attributes"


@pytest.mark.parametrize("role", sorted(WRITES))
def test_the_dev_plant_is_valid_on_the_oldest_release(tmp_path: Path, ha_python: str,
                                                      role: str) -> None:
    data = dev_plant(tmp_path / "state", tmp_path / "run", 1883)
    data["mqtt"]["command_role"] = role
    verdict = judge(ha_python, _items(_config(tmp_path, data)))
    assert len(verdict["results"]) > 10
    for result in verdict["results"]:
        assert result["rejected"] is None, result
        assert result["warnings"] == [], result
        assert set(result["dropped"]) <= KNOWN_NEWER, result


def test_the_judge_does_refuse_what_2024_1_refuses(ha_python: str) -> None:
    """The check can fail: the two configs users reported from 2024.1 are caught."""
    base = {"name": "Flow", "state_topic": "a/b"}
    verdict = judge(ha_python, [
        {"topic": "flow", "component": "sensor", "states": [],
         "config": {**base, "unit_of_measurement": "m³/h", "device_class": "volume_flow_rate"}},
        {"topic": "vib", "component": "sensor", "states": ["1.5"],
         "config": {**base, "unit_of_measurement": "mm/s", "device_class": "speed",
                    "state_class": "measurement"}},
        {"topic": "mode", "component": "select", "states": ["turbo"],
         "config": {"name": "Mode", "command_topic": "a/c", "options": ["off", "auto"]}}])
    flow, vib, mode = verdict["results"]
    assert flow["rejected"] is not None and "device_class" in flow["rejected"]
    assert vib["rejected"] is None and vib["warnings"] == \
        ["unit 'mm/s' is not valid for device class speed"]
    assert mode["warnings"] == ["state 'turbo' is none of the options ['off', 'auto']"]
