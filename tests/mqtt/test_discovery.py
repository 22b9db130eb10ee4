"""Home Assistant discovery configs, checked field by field against HA's documented fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import Config
from hermesd.config.loader import validate
from hermesd.mqtt.discovery import announcements, state_payload
from tests.mqtt.expected_plant import READ_ONLY, REAL_DRIVERS, WRITES, all_configs
from tests.support.plant import dev_plant


def _load(tmp_path: Path, data: dict[str, Any]) -> Config:
    path = tmp_path / "hermesd.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return validate(data, path)


def _plant(tmp_path: Path) -> dict[str, Any]:
    return dev_plant(tmp_path / "state", tmp_path / "run", 1883)


@pytest.mark.parametrize("role", sorted(WRITES))
def test_every_dev_plant_config_field_by_field(tmp_path: Path, role: str) -> None:
    data = _plant(tmp_path)
    data["mqtt"]["command_role"] = role
    got = {topic: json.loads(payload)
           for topic, payload in announcements(_load(tmp_path, data)).items()}
    expected = all_configs(REAL_DRIVERS, role)
    assert sorted(got) == sorted(expected)
    for topic, want in expected.items():
        have = got[topic]
        assert sorted(have) == sorted(want), f"{topic}: keys differ"
        for field, value in want.items():
            assert have[field] == value, f"{topic}: {field} is {have[field]!r}, not {value!r}"


def test_unique_ids_and_entity_ids_are_unique_and_well_formed(tmp_path: Path) -> None:
    configs = [json.loads(p) for p in announcements(_load(tmp_path, _plant(tmp_path))).values()]
    unique = [c["unique_id"] for c in configs]
    assert len(set(unique)) == len(unique)
    for c in configs:
        domain, _, object_id = c["default_entity_id"].partition(".")
        assert domain in ("sensor", "binary_sensor", "number", "switch", "text", "button")
        assert object_id and all(ch.islower() or ch.isdigit() or ch == "_" for ch in object_id)


def test_topics_use_only_characters_ha_accepts(tmp_path: Path) -> None:
    for topic in announcements(_load(tmp_path, _plant(tmp_path))):
        prefix, _component, node, object_id, tail = topic.split("/")
        assert (prefix, tail) == ("homeassistant", "config")
        for part in (node, object_id):
            assert all(ch.isalnum() or ch in "_-" for ch in part), topic


def _small(points: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"node": {"id": "n1"}, "access": {"roles": {"viewer": {"read": True},
                                                       "writer": {"read": True, "write": True}}},
            "devices": {"dev": {"driver": "mqtt", "points": points}},
            "mqtt": {"command_role": "writer"}, **extra}


def test_the_command_role_decides_what_home_assistant_may_write(tmp_path: Path) -> None:
    """Only what `mqtt.command_role` may write gets a control; the rest is read-only."""
    data = _plant(tmp_path)
    data["mqtt"]["command_role"] = "operator"
    configs = announcements(_load(tmp_path, data))
    shown = {topic.split("/")[3]: (topic.split("/")[1], json.loads(payload))
             for topic, payload in configs.items()}
    writable = {"number", "switch", "select", "text", "button"}
    for point in READ_ONLY:
        component, cfg = shown[point]
        if point in WRITES["operator"]:
            assert component in writable and cfg["command_topic"] == f"hermesd/boiler-house-1/{point}/set"
        else:  # the setpoint: operator may not write it
            assert component in ("sensor", "binary_sensor"), point
            assert "command_topic" not in cfg and "retain" not in cfg and "min" not in cfg
    assert shown["boiler3_setpoint"][0] == "sensor"
    for component, cfg in shown.values():  # nothing else offers a control but the node's own
        if "command_topic" in cfg and cfg["device"]["identifiers"] != ["hermesd_boiler-house-1"]:
            assert component in writable
            point = cfg["unique_id"].removeprefix("hermesd_boiler-house-1_")
            assert point in WRITES["operator"]


def test_a_string_point_the_role_may_not_write_is_a_plain_sensor(tmp_path: Path) -> None:
    config = _load(tmp_path, _small({
        "mode": {"state_topic": "s/mode", "command_topic": "c/mode", "type": "string",
                 "writable": True, "choices": ["auto", "manual"]},
    }, mqtt={"command_role": "viewer"}))
    got = announcements(config)
    assert "homeassistant/select/n1/mode/config" not in got
    sensor = json.loads(got["homeassistant/sensor/n1/mode/config"])
    assert "command_topic" not in sensor and "options" not in sensor


def test_component_per_kind_and_writability(tmp_path: Path) -> None:
    config = _load(tmp_path, _small({
        "mode": {"state_topic": "s/mode", "command_topic": "c/mode", "type": "string",
                 "writable": True, "choices": ["auto", "manual"]},
        "label": {"state_topic": "s/label", "command_topic": "c/label", "type": "string",
                  "writable": True},
        "note": {"state_topic": "s/note", "type": "string"},
        "count": {"state_topic": "s/count", "type": "int", "unit": "kWh"},
    }))
    got = announcements(config)
    select = json.loads(got["homeassistant/select/n1/mode/config"])
    assert select["options"] == ["auto", "manual"]
    assert select["command_topic"] == "hermesd/n1/mode/set"
    text = json.loads(got["homeassistant/text/n1/label/config"])
    assert (text["min"], text["max"], text["mode"]) == (0, 255, "text")
    note = json.loads(got["homeassistant/sensor/n1/note/config"])
    assert "unit_of_measurement" not in note and "state_class" not in note
    energy = json.loads(got["homeassistant/sensor/n1/count/config"])
    assert (energy["device_class"], energy["state_class"]) == ("energy", "total_increasing")


def test_a_unit_ha_would_refuse_with_a_class_is_sent_without_one(tmp_path: Path) -> None:
    config = _load(tmp_path, _small({
        "t": {"state_topic": "s/t", "unit": "C"},  # not °C: HA rejects temperature + "C"
        "f": {"state_topic": "s/f", "unit": "l/min"},  # HA spells it L/min
    }))
    got = announcements(config)
    for pid, unit in (("t", "C"), ("f", "l/min")):
        cfg = json.loads(got[f"homeassistant/sensor/n1/{pid}/config"])
        assert cfg["unit_of_measurement"] == unit
        assert "device_class" not in cfg
        assert cfg["state_class"] == "measurement"


def test_voice_adds_a_push_to_talk_button(tmp_path: Path) -> None:
    config = _load(tmp_path, _small({"t": {"state_topic": "s/t"}},
                                    voice={"enabled": True, "role": "viewer"}))
    button = json.loads(announcements(config)["homeassistant/button/n1/hermesd_talk/config"])
    assert button["command_topic"] == "hermesd/n1/talk"
    assert button["payload_press"] == "PRESS"


def test_a_point_keeps_its_id_when_it_meets_a_node_entity(tmp_path: Path) -> None:
    config = _load(tmp_path, _small({"hermesd_reply": {"state_topic": "s/r", "type": "string"}}))
    cfg = json.loads(announcements(config)["homeassistant/sensor/n1/hermesd_reply/config"])
    assert cfg["state_topic"] == "hermesd/n1/hermesd_reply/state"


def test_discovery_off_announces_nothing(tmp_path: Path) -> None:
    config = _load(tmp_path, _small({"t": {"state_topic": "s/t"}},
                                    mqtt={"command_role": "viewer", "discovery": False}))
    assert announcements(config) == {}


def test_state_payloads(tmp_path: Path) -> None:
    config = _load(tmp_path, _plant(tmp_path))
    points = config.points
    assert state_payload(points["valve2_open"], True) == "ON"
    assert state_payload(points["valve2_open"], False) == "OFF"
    assert state_payload(points["boiler1_temp"], 523.4) == "523.4"
    assert state_payload(points["pump1_speed"], 1200) == "1200"
    assert state_payload(points["tank_level"], 1e21) == "1e+21"
