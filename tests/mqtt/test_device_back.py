"""A Modbus PLC as Home Assistant sees it through hermesd, all real processes (hermesd, its
Modbus and MQTT tools, `hermes-sim`'s pymodbus server, Mosquitto): back within a poll of a
restart, unchanged values not sent every poll, and every availability `offline` at a clean stop.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import yaml

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.mosquitto import Mosquitto, MqttClient, retained_snapshot
from tests.support.ports import free_port
from tests.support.sim import RunningSim, SimRunner, sim_runner
from tests.tools.modbus.plant import POINTS, VALUES

__all__ = ["sim_runner"]

B = "hermesd/test-node"
#: the simulator's points that hold still (the others wander)
STATIC = ("speed", "conveyor", "label", "ready", "running", "valve")
POLL = 0.3


def _start(daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
           devices: tuple[str, ...] = ("plc",), **mqtt: Any) -> tuple[RunningDaemon, RunningSim]:
    config = base_config(
        {dev: {"driver": "modbus", "host": "127.0.0.1", "port": free_port(),
               "poll_interval": f"{POLL * 1000:g}ms", "timeout": "400ms",  # backoff_max: 30 s
               "points": {f"{dev}_{p}" if len(devices) > 1 else p: POINTS[p] for p in STATIC}}
         for dev in devices},
        mqtt={"host": "127.0.0.1", "port": broker.port, "command_role": "viewer", **mqtt})
    path = daemon_runner.write_config(config)
    values = {pid: VALUES[pid.rsplit("_", 1)[-1] if len(devices) > 1 else pid]
              for dev in config["devices"].values() for pid in dev["points"]}
    values_file = path.with_name("values.yaml")
    values_file.write_text(yaml.safe_dump(values, allow_unicode=True))
    sim = sim_runner.start(path, "--values", str(values_file))
    return daemon_runner.start(path), sim


def _plc(d: RunningDaemon) -> dict[str, Any]:
    code, answer = d.ctl_json("--role", "engineer", "call", "modbus.status", "{}")
    assert code == 0, answer
    return answer["result"]["value"]["devices"]["plc"]  # type: ignore[no-any-return]


def _online(m: Any) -> bool:
    return m.payload == b"online"  # type: ignore[no-any-return]


def _offline(m: Any) -> bool:
    return m.payload == b"offline"  # type: ignore[no-any-return]


@pytest.mark.timeout(90)
def test_a_plc_restart_is_back_within_a_poll_and_the_outage_is_quiet(
        daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
        watcher: MqttClient) -> None:
    d, sim = _start(daemon_runner, sim_runner, broker)
    availability = f"{B}/plc/availability"
    up = watcher.wait_topic(availability, _online, timeout=20)
    watcher.wait_topic(f"{B}/speed/state", lambda m: m.payload == b"1200")

    started = len(d.log)  # what hermesd said before the outage is not the outage's
    sim.ctl("drop", device="plc", mode="refuse")  # the PLC restarts: connection refused
    watcher.wait_topic(availability, _offline, after=up.at)
    # long enough that the old backoff (0.3 s doubling to 30 s) would wait 38 s for the next try
    d.wait_until(lambda: _plc(d)["failures"] >= 8, timeout=30, what="eight refused probes")
    plc = _plc(d)
    assert plc["online"] is False and plc["retry_in_s"] <= POLL
    assert plc["reason"].endswith("connection refused")

    sim.ctl("restore", device="plc")  # listening again, on the same port
    back = watcher.wait_topic(availability, _online, after=up.at + 0.001, timeout=10)
    # the unchanged values are sent again on the way back (HA may have expired them)
    watcher.wait_topic(f"{B}/speed/state", lambda m: m.payload == b"1200", after=back.at - 0.5)
    assert _plc(d)["online"] is True
    outage = d.log[started:]
    assert d.log.count("device plc is offline") == 1
    assert outage.count("WARNING") == 1, outage  # the outage is one line in the log, plus its end


@pytest.mark.timeout(90)
def test_an_unchanged_value_is_published_once_not_every_poll(
        daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
        watcher: MqttClient) -> None:
    d, _ = _start(daemon_runner, sim_runner, broker)
    config_topic = "homeassistant/sensor/test-node/speed/config"
    announced = json.loads(watcher.wait_topic(config_topic, timeout=20).payload)
    assert announced["expire_after"] == 600  # twice mqtt.republish (5 min)
    watcher.wait_topic(f"{B}/plc/availability", _online)
    watcher.wait_topic(f"{B}/speed/state")
    blocks = _plc(d)["blocks"]

    def polls_later(n: int) -> None:
        polled = _plc(d)["requests"]
        d.wait_until(lambda: _plc(d)["requests"] >= polled + n * blocks, timeout=30,
                     what=f"{n} more polls")

    # at start a value may go out twice (its first reading; its device available once the
    # tool runs); after that, nothing while it does not change
    polls_later(2)
    settled = time.monotonic()
    polls_later(20)
    for point in STATIC:
        topic = f"{B}/{point}/state"
        assert watcher.on(topic), point
        assert not [m for m in watcher.on(topic) if m.at >= settled], point


@pytest.mark.timeout(90)
def test_republish_sends_unchanged_values_again_at_its_pace(
        daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
        watcher: MqttClient) -> None:
    _start(daemon_runner, sim_runner, broker, republish="2s")
    config_topic = "homeassistant/sensor/test-node/speed/config"
    assert json.loads(watcher.wait_topic(config_topic, timeout=20).payload)["expire_after"] == 4
    # the first value and the announcement on connect come together; then one every 2 s
    watcher.wait_for(lambda ms: len([m for m in ms if m.topic == f"{B}/speed/state"]) >= 4,
                     timeout=15, what="the unchanged speed sent again twice")
    sent = watcher.on(f"{B}/speed/state")
    assert {m.payload for m in sent} == {b"1200"}
    gaps = [b.at - a.at for a, b in zip(sent[-3:], sent[-2:], strict=False)]
    assert all(gap > 1.0 for gap in gaps), gaps  # not every poll (0.3 s)


@pytest.mark.timeout(90)
def test_a_clean_stop_says_offline_for_every_device_too(
        daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
        watcher: MqttClient) -> None:
    d, _ = _start(daemon_runner, sim_runner, broker, devices=("plc1", "plc2"))
    topics = [f"{B}/availability", f"{B}/plc1/availability", f"{B}/plc2/availability"]
    for topic in topics:
        watcher.wait_topic(topic, _online, timeout=20)
    assert d.terminate() == 0
    assert retained_snapshot(broker.port, (f"{B}/#",)).items() >= \
        dict.fromkeys(topics, b"offline").items()
