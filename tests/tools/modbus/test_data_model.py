"""The data model as a user meets it, all real processes (hermesd, its Modbus and MQTT tools,
`hermes-sim`'s pymodbus server, Mosquitto): 64-bit counters, 8-bit halves and fields of one
register, value maps read, written and answered in names through hermesctl, words and Home
Assistant."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.mosquitto import Mosquitto, MqttClient, retained_snapshot
from tests.support.ports import free_port
from tests.support.sim import RunningSim, SimRunner

B = "hermesd/test-node"
MODE_MAP = {0: {"name": "off", "names": {"zh": "停机"}},
            1: {"name": "auto", "names": {"zh": "自动"}},
            2: {"name": "manual", "names": {"zh": "手动"}}}
POINTS: dict[str, Any] = {
    "chiller_mode": {"name": "Chiller mode", "names": {"zh": "冷水机模式"}, "table": "holding",
                     "address": 0, "writable": True, "map": MODE_MAP},
    "alarm_code": {"name": "Alarm code", "table": "input", "address": 3,
                   "map": {0: "none", 7: "overheat"}},
    "energy_total": {"name": "Energy meter reading", "table": "input", "address": 10,
                     "type": "uint64", "unit": "kWh",
                     "ha": {"device_class": "energy", "state_class": "total_increasing"}},
    "fan_stage": {"name": "Fan stage", "table": "holding", "address": 1, "mask": 0x0F00,
                  "writable": True, "min": 0, "max": 15},
    "damper_pct": {"name": "Damper position", "table": "holding", "address": 1,
                   "type": "uint8", "byte": "low", "writable": True, "min": 0, "max": 100,
                   "unit": "%"},
    "supply_temp": {"name": "Supply temperature", "table": "input", "address": 4,
                    "type": "int8", "byte": "high", "unit": "°C"},
}
VALUES = {"chiller_mode": "auto", "alarm_code": 7, "energy_total": 12_345_678_901,
          "fan_stage": 3, "damper_pct": 40, "supply_temp": -5}


def _start(daemon_runner: DaemonRunner, sim_runner: SimRunner,
           broker: Mosquitto | None = None) -> tuple[RunningDaemon, RunningSim]:
    extra: dict[str, Any] = {}
    if broker is not None:
        extra["mqtt"] = {"host": "127.0.0.1", "port": broker.port, "command_role": "operator"}
    config = base_config({"chiller": {
        "driver": "modbus", "host": "127.0.0.1", "port": free_port(), "poll_interval": "300ms",
        "timeout": "400ms", "name": "Chiller plant PLC", "manufacturer": "Carel",
        "model": "pCO5", "points": {p: {**v, "max_age": "20s"} for p, v in POINTS.items()}}},
        **extra)
    path = daemon_runner.write_config(config)
    values_file = path.with_name("values.yaml")
    values_file.write_text(yaml.safe_dump(VALUES, allow_unicode=True))
    sim = sim_runner.start(path, "--values", str(values_file))
    d = daemon_runner.start(path)
    d.wait_until(lambda: all(p["quality"] == "good" for p in
                             d.request({"op": "points"})["result"]["points"]),
                 what="every point read")
    return d, sim


def _read(d: RunningDaemon, point: str, *flags: str) -> dict[str, Any]:
    code, answer = d.ctl_json(*flags, "read", point)
    assert code == 0, answer
    return answer


def _register(d: RunningDaemon, address: int) -> int:
    code, answer = d.ctl_json("--role", "engineer", "call", "modbus.read_registers",
                              json.dumps({"device": "chiller", "table": "holding",
                                          "address": address}))
    assert code == 0, answer
    return int(answer["result"]["value"]["registers"][0])


def test_numbers_of_every_width_and_parts_of_a_register(daemon_runner: DaemonRunner,
                                                        sim_runner: SimRunner) -> None:
    d, sim = _start(daemon_runner, sim_runner)
    energy = _read(d, "energy_total")["result"]["value"]
    assert isinstance(energy, int) and 12_345_678_901 <= energy < 12_345_678_901 + 10_000
    assert _read(d, "supply_temp")["result"]["value"] == -5
    assert _read(d, "fan_stage")["result"]["value"] == 3
    assert _read(d, "damper_pct")["result"]["value"] == 40
    assert _register(d, 1) == (3 << 8) | 40  # both live in holding register 40002

    # two writes to the two parts of one register, from two hermesctl processes at once: both
    # land (the tool's own test drives the race hard, in one event loop)
    results: list[tuple[int, dict[str, Any]]] = []

    def write(point: str, value: str) -> None:
        results.append(d.ctl_json("--role", "operator", "write", point, value))

    threads = [threading.Thread(target=write, args=a)
               for a in (("fan_stage", "9"), ("damper_pct", "77"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(code == 0 and a["result"]["confirmed"] is True for code, a in results), results
    assert _register(d, 1) == (9 << 8) | 77
    assert sim.ctl("get", point="fan_stage")["value"] == 9
    assert sim.ctl("get", point="damper_pct")["value"] == 77

    code, answer = d.ctl_json("--role", "operator", "write", "fan_stage", "16")
    assert code == 65 and answer["error"]["code"] == "OUT_OF_RANGE"
    assert _register(d, 1) == (9 << 8) | 77  # nothing sent


def test_a_value_map_reads_writes_and_answers_in_names(daemon_runner: DaemonRunner,
                                                       sim_runner: SimRunner) -> None:
    d, sim = _start(daemon_runner, sim_runner)
    answer = _read(d, "chiller_mode")
    assert answer["result"]["value"] == "auto" and answer["reply"] == "Chiller mode is auto."
    assert _read(d, "alarm_code")["result"]["value"] == "overheat"

    code, answer = d.ctl_json("--role", "operator", "write", "chiller_mode", "manual")
    assert code == 0 and answer["status"] == "ok", answer
    assert answer["result"]["value"] == "manual" and answer["result"]["confirmed"] is True
    assert sim.ctl("get", point="chiller_mode")["value"] == 2  # the register holds the raw 2
    assert _read(d, "chiller_mode")["result"]["value"] == "manual"

    # a name not in the map, or a raw number, is refused naming the names, and nothing is sent
    writes = sim.requests("chiller")
    for bad in ("turbo", "1"):
        code, answer = d.ctl_json("--role", "operator", "write", "chiller_mode", bad)
        assert code == 65 and answer["status"] == "rejected", answer
        assert answer["error"]["code"] == "OUT_OF_RANGE"
        assert "off, auto, manual" in answer["error"]["message"]
    assert sim.requests("chiller") == writes
    assert sim.ctl("get", point="chiller_mode")["value"] == 2

    code, answer = d.ctl_json("--role", "operator", "--dry-run", "write", "chiller_mode", "off")
    assert code == 10 and "off is one of off, auto, manual" in answer["checks"]

    # words: "set the chiller mode to auto", and in Chinese with the map's Chinese names
    code, answer = d.ctl_json("--role", "operator", "ask", "set the chiller mode to auto")
    assert code == 0 and answer["action"] == {"name": "write", "args": {
        "point": "chiller_mode", "value": "auto"}}, answer
    assert sim.ctl("get", point="chiller_mode")["value"] == 1
    code, answer = d.ctl_json("--role", "operator", "ask", "把冷水机模式设为手动")
    assert code == 0 and answer["action"]["args"] == {"point": "chiller_mode",
                                                      "value": "manual"}, answer
    assert answer["reply"] == "已将冷水机模式设为手动。"
    assert sim.ctl("get", point="chiller_mode")["value"] == 2
    code, answer = d.ctl_json("ask", "冷水机模式是什么")
    assert code == 0 and answer["reply"] == "冷水机模式：手动。", answer
    # a number is no name: the words write nothing
    code, answer = d.ctl_json("--role", "operator", "ask", "set the chiller mode to 1")
    assert answer["action"]["name"] == "respond", answer
    assert sim.ctl("get", point="chiller_mode")["value"] == 2

    # a raw value the map does not name is shown as read, never as a name
    sim.ctl("set", point="chiller_mode", value=5)
    answer = d.wait_until(lambda: (a := _read(d, "chiller_mode"))["result"]["value"] == "5"
                          and a, what="the unmapped raw value")
    assert answer["reply"] == "Chiller mode is 5 (none of off, auto, manual)."


@pytest.fixture
def watcher(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="watcher",
                    subscribe=("hermesd/#", "homeassistant/#")) as client:
        yield client


def _retained(port: int, topic: str) -> bytes | None:
    return retained_snapshot(port, (topic,)).get(topic)


@pytest.mark.timeout(90)
def test_a_value_map_in_home_assistant(daemon_runner: DaemonRunner, sim_runner: SimRunner,
                                       broker: Mosquitto, watcher: MqttClient,
                                       tmp_path: Path) -> None:
    d, sim = _start(daemon_runner, sim_runner, broker)
    config_topic = "homeassistant/select/test-node/chiller_mode/config"
    got = watcher.wait_topic(config_topic, lambda m: bool(m.payload))
    cfg = json.loads(got.payload)
    assert cfg["options"] == ["off", "auto", "manual"]
    assert cfg["command_topic"] == f"{B}/chiller_mode/set"
    assert cfg["device"]["name"] == "Chiller plant PLC" and cfg["device"]["model"] == "pCO5"
    alarm = json.loads(watcher.wait_topic(
        "homeassistant/sensor/test-node/alarm_code/config", lambda m: bool(m.payload)).payload)
    assert "state_class" not in alarm and "unit_of_measurement" not in alarm
    energy = json.loads(watcher.wait_topic(
        "homeassistant/sensor/test-node/energy_total/config", lambda m: bool(m.payload)).payload)
    assert (energy["device_class"], energy["state_class"]) == ("energy", "total_increasing")
    watcher.wait_topic(f"{B}/chiller_mode/state", lambda m: m.payload == b"auto")
    watcher.wait_topic(f"{B}/alarm_code/state", lambda m: m.payload == b"overheat")
    good = json.loads(watcher.wait_topic(
        f"{B}/chiller_mode/attributes",
        lambda m: json.loads(m.payload)["quality"] == "good").payload)
    assert good["stale_reason"] is None and good["age_s"] < 20 and good["timestamp"]

    # HA's select writes the option's name on the command topic: through the same policy
    watcher.publish(f"{B}/chiller_mode/set", "manual")
    watcher.wait_topic(f"{B}/chiller_mode/state", lambda m: m.payload == b"manual")
    assert sim.ctl("get", point="chiller_mode")["value"] == 2
    watcher.publish(f"{B}/chiller_mode/set", json.dumps({"value": "turbo", "id": "t-1"}))
    refused = json.loads(watcher.wait_topic(
        f"{B}/response", lambda m: json.loads(m.payload).get("id") == "t-1").payload)
    assert refused["status"] == "rejected" and "off, auto, manual" in \
        refused["error"]["message"]
    assert sim.ctl("get", point="chiller_mode")["value"] == 2
    assert _retained(broker.port, f"{B}/chiller_mode/state") == b"manual"

    # a device that stops answering: the attributes say the value is stale, and why
    sim.ctl("drop", device="chiller")
    stale = watcher.wait_topic(f"{B}/chiller_mode/attributes",
                               lambda m: json.loads(m.payload)["quality"] == "stale",
                               timeout=20)
    assert json.loads(stale.payload)["stale_reason"]


def test_a_value_kept_from_before_the_map_is_answered_by_its_name(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    """A point that gains a map while its value is kept: after the restart, with the PLC gone,
    the last value is answered as its name (stale, with its age), never as the raw number."""
    port = free_port()
    plain = {"name": "Chiller mode", "table": "holding", "address": 0, "max_age": "20s"}
    device: dict[str, Any] = {"driver": "modbus", "host": "127.0.0.1", "port": port,
                              "poll_interval": "300ms", "timeout": "400ms",
                              "points": {"chiller_mode": plain}}
    path = daemon_runner.write_config(base_config({"chiller": device}))
    values_file = path.with_name("values.yaml")
    values_file.write_text(yaml.safe_dump({"chiller_mode": 2}))
    sim = sim_runner.start(path, "--values", str(values_file))
    d = daemon_runner.start(path)
    d.wait_until(lambda: _read(d, "chiller_mode")["result"]["value"] == 2, what="the raw 2")
    assert d.terminate() == 0
    sim.terminate()

    device["points"]["chiller_mode"] = {**plain, "map": MODE_MAP}
    d = daemon_runner.start(daemon_runner.write_config(base_config({"chiller": device})))
    answer = _read(d, "chiller_mode")
    assert answer["status"] == "stale" and answer["result"]["value"] == "manual", answer
    assert answer["reply"].startswith("Chiller mode: PLC chiller offline since ")
    assert "; last value manual, " in answer["reply"]
