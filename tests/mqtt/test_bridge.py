"""hermesd as Home Assistant sees it, on a real broker: discovery, removal, availability, LWT."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import yaml

from hermesd.mqtt.births import INTERVAL as BIRTH_INTERVAL
from tests.mqtt.expected_plant import FAKED_DRIVERS, POINTS, B, all_configs
from tests.support import procfs
from tests.support.daemon import DaemonRunner, RunningDaemon
from tests.support.mosquitto import Mosquitto, MqttClient, retained_snapshot
from tests.support.plant import faked_plant
from tests.support.until import until_sync

VALUES = {"boiler1_temp": 480.5, "boiler2_temp": 470.0, "boiler3_temp": 523.4,
          "boiler3_pressure": 12.5, "tank_level": 64.2, "line_a_count": 1200,
          "pump1_speed": 1200, "conveyor_speed": 30.5, "boiler3_setpoint": 520.0,
          "pump1_running": True, "valve2_open": False, "alarm_active": False,
          "scale1_weight": 24.8}


def _plant(runner: DaemonRunner, broker: Mosquitto, **mqtt: Any) -> dict[str, Any]:
    config = faked_plant(runner.tmp / "state", runner.runtime / "run", broker.port, VALUES)
    config["mqtt"].update(mqtt)
    return config


def _configs(port: int) -> dict[str, dict[str, Any]]:
    snap = retained_snapshot(port, ("homeassistant/#",))
    return {t: json.loads(p) for t, p in snap.items() if p}


def _wait_retained(d: RunningDaemon, port: int, check: Any, what: str,
                   timeout: float = 15.0) -> dict[str, bytes]:
    def ready() -> dict[str, bytes] | None:
        snap = retained_snapshot(port, ("homeassistant/#", "hermesd/#"))
        return snap if check(snap) else None
    return d.wait_until(ready, timeout=timeout, what=what)  # type: ignore[no-any-return]


def test_dev_plant_on_the_broker_field_by_field(daemon_runner: DaemonRunner, broker: Mosquitto,
                                               watcher: MqttClient) -> None:
    d = daemon_runner.start(_plant(daemon_runner, broker))
    expected = all_configs(FAKED_DRIVERS)
    devices = ("plc1", "scale1", "yard")
    snap = _wait_retained(d, broker.port, lambda s: all(t in s for t in expected)
                          and all(f"{B}/{p}/state" in s for p in VALUES)
                          and all(s.get(f"{B}/{dev}/availability") == b"online"
                                  for dev in devices),
                          "every discovery config, state and device online")
    for topic, want in expected.items():
        have = json.loads(snap[topic])
        assert sorted(have) == sorted(want), f"{topic}: keys differ"
        for field, value in want.items():
            assert have[field] == value, f"{topic}: {field} is {have[field]!r}, not {value!r}"
    assert not [t for t in snap if t.startswith("homeassistant/") and t not in expected]

    assert snap[f"{B}/availability"] == b"online"
    assert snap[f"{B}/boiler3_temp/state"] == b"523.4"
    assert snap[f"{B}/pump1_speed/state"] == b"1200"
    assert snap[f"{B}/pump1_running/state"] == b"ON"
    assert snap[f"{B}/valve2_open/state"] == b"OFF"
    mqtt = d.status()["mqtt"]
    assert mqtt["connected"] is True and mqtt["entities"] == len(expected)


def test_a_removed_point_loses_its_entity_on_reload(daemon_runner: DaemonRunner,
                                                    broker: Mosquitto,
                                                    watcher: MqttClient) -> None:
    config = _plant(daemon_runner, broker)
    d = daemon_runner.start(config)
    gone_config = "homeassistant/sensor/boiler-house-1/boiler2_temp/config"
    gone_state = f"{B}/boiler2_temp/state"
    _wait_retained(d, broker.port, lambda s: gone_config in s and gone_state in s,
                   "boiler2_temp announced")

    del config["devices"]["plc1"]["points"]["boiler2_temp"]
    d.config_path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    d.proc.send_signal(signal.SIGHUP)

    watcher.wait_topic(gone_config, lambda m: m.payload == b"" and m.qos == 1)
    gone_attributes = f"{B}/boiler2_temp/attributes"
    snap = _wait_retained(d, broker.port, lambda s: gone_config not in s and gone_state not in s
                          and gone_attributes not in s, "boiler2_temp removed")
    # its discovery config is cleared before its state and attributes: HA drops the entity
    # first and never takes an empty state for the value of a live one
    with watcher._lock:
        order = [m.topic for m in watcher.messages if not m.payload]
    assert order.index(gone_config) < order.index(gone_state)
    assert order.index(gone_config) < order.index(gone_attributes)
    assert "homeassistant/sensor/boiler-house-1/boiler1_temp/config" in snap
    assert d.status()["reloads"]["ok"] == 1
    remembered = json.loads((d.state_dir / "mqtt-retained.json").read_text())
    assert gone_config not in remembered["owned"] and remembered["clearing"] == []


def test_a_reload_that_changes_the_command_roles_rights_reannounces(
        daemon_runner: DaemonRunner, broker: Mosquitto, watcher: MqttClient) -> None:
    """A point the role may no longer write becomes read-only in HA (its old control removed),
    one it now may write gets its control; and HA's write of the first is refused."""
    config = _plant(daemon_runner, broker, command_role="operator")
    d = daemon_runner.start(config)
    prefix = "homeassistant/{}/boiler-house-1/{}/config"
    _wait_retained(d, broker.port, lambda s: prefix.format("number", "pump1_speed") in s
                   and prefix.format("sensor", "boiler3_setpoint") in s,
                   "pump1_speed writable and boiler3_setpoint read-only")

    operator = config["access"]["roles"]["operator"]
    operator["write"] = [p for p in operator["write"] if p != "pump1_speed"] + ["boiler3_setpoint"]
    d.config_path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    d.proc.send_signal(signal.SIGHUP)

    for gone in (prefix.format("number", "pump1_speed"), prefix.format("sensor", "boiler3_setpoint")):
        watcher.wait_topic(gone, lambda m: m.payload == b"" and m.retain is False)
    configs = _configs(broker.port)
    assert prefix.format("number", "pump1_speed") not in configs
    assert prefix.format("sensor", "boiler3_setpoint") not in configs
    pump = configs[prefix.format("sensor", "pump1_speed")]
    assert "command_topic" not in pump and pump["unit_of_measurement"] == "rpm"
    setpoint = configs[prefix.format("number", "boiler3_setpoint")]
    assert setpoint["command_topic"] == f"{B}/boiler3_setpoint/set"
    assert (setpoint["min"], setpoint["max"]) == (20, 560)
    assert d.status()["reloads"]["ok"] == 1

    watcher.publish(f"{B}/pump1_speed/set", json.dumps({"value": 1000, "id": "after-reload"}))
    answer = watcher.wait_topic(f"{B}/response",
                                lambda m: json.loads(m.payload).get("id") == "after-reload")
    assert json.loads(answer.payload)["error"]["code"] == "FORBIDDEN"


def test_an_mqtt_section_added_by_reload_starts_the_bridge(daemon_runner: DaemonRunner,
                                                          broker: Mosquitto) -> None:
    config = _plant(daemon_runner, broker)
    full = yaml.safe_dump(config, allow_unicode=True)
    del config["mqtt"]
    for dev in [k for k, v in config["devices"].items() if v["driver"] == "mqtt"]:
        gone = set(config["devices"].pop(dev)["points"])
        for role in config["access"]["roles"].values():
            for key, allowed in role.items():
                if isinstance(allowed, list):
                    role[key] = [p for p in allowed if p not in gone]
    d = daemon_runner.start(config)
    assert "mqtt" not in d.status()

    d.config_path.write_text(full, encoding="utf-8")
    d.proc.send_signal(signal.SIGHUP)

    topic = "homeassistant/sensor/boiler-house-1/boiler3_temp/config"
    snap = _wait_retained(d, broker.port, lambda s: topic in s
                          and s.get(f"{B}/boiler3_temp/state") == b"523.4",
                          "boiler3_temp announced after the reload")
    assert snap[f"{B}/availability"] == b"online"
    status = d.status()
    assert status["reloads"]["ok"] == 1 and status["mqtt"]["connected"] is True


def test_a_point_removed_while_stopped_is_removed_at_start(daemon_runner: DaemonRunner,
                                                          broker: Mosquitto) -> None:
    config = _plant(daemon_runner, broker)
    d = daemon_runner.start(config)
    topic = "homeassistant/binary_sensor/boiler-house-1/valve2_open/config"
    _wait_retained(d, broker.port, lambda s: topic in s, "valve2_open announced")
    assert d.terminate() == 0
    del config["devices"]["plc1"]["points"]["valve2_open"]
    config["access"]["roles"]["operator"]["write"].remove("valve2_open")
    again = daemon_runner.start(config)
    _wait_retained(again, broker.port, lambda s: topic not in s
                   and "homeassistant/sensor/boiler-house-1/boiler1_temp/config" in s,
                   "valve2_open removed after the restart")


def test_last_will_offline_when_hermesd_is_killed(daemon_runner: DaemonRunner,
                                                  broker: Mosquitto,
                                                  watcher: MqttClient) -> None:
    d = daemon_runner.start(_plant(daemon_runner, broker))
    online = watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"online")
    tool = d.running_tool_pid("mqtt")
    d.kill()  # SIGKILL: no goodbye from hermesd itself
    watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"offline", after=online.at)
    assert retained_snapshot(broker.port, (f"{B}/availability",)) == \
        {f"{B}/availability": b"offline"}
    until_sync(lambda: not procfs.alive(tool), 5, "the mqtt tool to be gone")


def test_last_will_offline_when_the_mqtt_tool_is_killed(daemon_runner: DaemonRunner,
                                                        broker: Mosquitto,
                                                        watcher: MqttClient) -> None:
    d = daemon_runner.start(_plant(daemon_runner, broker))
    online = watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"online")
    tool = d.running_tool_pid("mqtt")
    os.kill(tool, signal.SIGKILL)  # the broker, not the tool, says offline: the will
    offline = watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"offline",
                                 after=online.at)
    d.running_tool_pid("mqtt", not_pid=tool)
    watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"online", after=offline.at)
    watcher.wait_topic("homeassistant/sensor/boiler-house-1/boiler1_temp/config",
                       after=offline.at)  # announced again by the new tool process


def test_device_availability_follows_the_device(daemon_runner: DaemonRunner, broker: Mosquitto,
                                                watcher: MqttClient) -> None:
    config = _plant(daemon_runner, broker)
    # the test drives the fake device with a direct tool call, which takes raw_read
    config["access"]["roles"]["engineer"] = {**config["access"]["roles"]["engineer"],
                                             "raw_read": True}
    d = daemon_runner.start(config)
    topic = f"{B}/plc1/availability"
    up = watcher.wait_topic(topic, lambda m: m.payload == b"online")
    code, answer = d.ctl_json("--role", "engineer", "call", "plc1.set_offline",
                              '{"device": "plc1", "online": false}')
    assert code == 0, answer
    down = watcher.wait_topic(topic, lambda m: m.payload == b"offline", after=up.at)
    assert watcher.last(f"{B}/scale1/availability").payload == b"online"  # type: ignore[union-attr]
    d.ctl_json("--role", "engineer", "call", "plc1.set_offline",
               '{"device": "plc1", "online": true}')
    watcher.wait_topic(topic, lambda m: m.payload == b"online", after=down.at)


def test_stale_values_make_their_device_unavailable(daemon_runner: DaemonRunner,
                                                    broker: Mosquitto,
                                                    watcher: MqttClient) -> None:
    config = _plant(daemon_runner, broker)
    # the scale's fake pushes once a minute: its value goes stale after max_age
    scale = config["devices"]["scale1"]
    scale["poll_interval"] = "60s"
    scale["points"]["scale1_weight"]["max_age"] = "1s"
    d = daemon_runner.start(config)
    topic = f"{B}/scale1/availability"
    up = watcher.wait_topic(topic, lambda m: m.payload == b"online")
    watcher.wait_topic(topic, lambda m: m.payload == b"offline", after=up.at)
    code, answer = d.ctl_json("read", "scale1_weight")  # a fresh read brings it back
    assert code == 0 and answer["status"] == "ok"
    watcher.wait_topic(topic, lambda m: m.payload == b"online", timeout=5,
                       after=time.monotonic())


def test_home_assistant_online_brings_a_fresh_announcement(daemon_runner: DaemonRunner,
                                                           broker: Mosquitto,
                                                           watcher: MqttClient) -> None:
    d = daemon_runner.start(_plant(daemon_runner, broker))
    watcher.wait_topic("homeassistant/sensor/boiler-house-1/outdoor_temp/config")
    watcher.wait_topic(f"{B}/boiler3_temp/state")
    mark = time.monotonic()
    watcher.publish("homeassistant/status", "online")
    expected = all_configs(FAKED_DRIVERS)

    def again(messages: list[Any]) -> bool:
        fresh = {m.topic for m in messages if m.at >= mark}
        return all(t in fresh for t in expected) and f"{B}/boiler3_temp/state" in fresh \
            and f"{B}/plc1/availability" in fresh
    watcher.wait_for(again, what="discovery, availability and states again")
    assert d.status()["mqtt"]["announcements"] >= 2
    mark = time.monotonic()
    watcher.publish("homeassistant/status", "offline")
    watcher.publish("homeassistant/status", "online")
    # a second birth so soon is answered too, at the end of the pacing interval
    watcher.wait_for(again, what="a second announcement", timeout=BIRTH_INTERVAL + 5)


assert set(VALUES) | {"warning_beacon", "outdoor_temp"} == set(POINTS)
