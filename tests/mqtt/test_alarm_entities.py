"""Alarms through a real Mosquitto: a Home Assistant binary_sensor per alarm and an `event`
entity, the retained state topic and the event of each raising, acknowledgement and clearing."""

from __future__ import annotations

import json
from typing import Any

from tests.support.daemon import DaemonRunner, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient, retained_snapshot

B = "hermesd/test-node"
HA = "homeassistant"


def _config(broker: Mosquitto) -> dict[str, Any]:
    return base_config({"boiler": fake_device({
        "temp": {"name": "Boiler temperature", "type": "float", "writable": True, "min": 0,
                 "max": 1000, "unit": "°C", "params": {"value": 500.0},
                 "alarms": {"high": 540, "hysteresis": 5}},
    }, poll_interval="500ms")}, history={"flush": "1s"},
        mqtt={"host": "127.0.0.1", "port": broker.port, "command_role": "viewer"})


def test_alarm_entities_states_and_events(daemon_runner: DaemonRunner, broker: Mosquitto,
                                          watcher: MqttClient) -> None:
    d = daemon_runner.start(_config(broker))
    sensor = f"{HA}/binary_sensor/test-node/alarm_temp_high/config"
    event = f"{HA}/event/test-node/hermesd_alarms/config"
    offline = f"{HA}/binary_sensor/test-node/alarm_boiler_offline/config"
    state = f"{B}/alarms/temp_high/state"
    watcher.wait_topic(state)
    retained = retained_snapshot(broker.port, (f"{HA}/#", f"{B}/alarms/#"))
    cfg = json.loads(retained[sensor])
    assert cfg["state_topic"] == state and cfg["device_class"] == "problem"
    assert cfg["name"] == "Boiler temperature high"
    assert cfg["unique_id"] == "hermesd_test-node_alarm_temp_high"
    assert json.loads(retained[event])["event_types"] == ["raised", "cleared", "acknowledged"]
    assert json.loads(retained[event])["state_topic"] == f"{B}/alarm"
    assert offline in retained and retained[state] == b"cleared"

    assert d.ctl("--role", "operator", "write", "temp", "560").returncode == 0
    watcher.wait_topic(state, lambda m: m.payload == b"active")
    raised = watcher.wait_topic(f"{B}/alarm", lambda m: b'"raised"' in m.payload)
    body = json.loads(raised.payload)
    assert body["event_type"] == "raised" and body["alarm"] == "temp_high"
    assert body["message"] == "Boiler temperature high, 560 °C" and not raised.retain
    assert d.ctl("--role", "operator", "ack", "temp_high").returncode == 0
    watcher.wait_topic(state, lambda m: m.payload == b"acknowledged")
    assert d.ctl("--role", "operator", "write", "temp", "520").returncode == 0
    watcher.wait_topic(state, lambda m: m.payload == b"cleared")
    watcher.wait_topic(f"{B}/alarm", lambda m: b'"cleared"' in m.payload)
    kinds = [json.loads(m.payload)["event_type"] for m in watcher.on(f"{B}/alarm")]
    assert kinds == ["raised", "acknowledged", "cleared"]
    assert retained_snapshot(broker.port, (f"{B}/alarms/#",))[state] == b"cleared"
