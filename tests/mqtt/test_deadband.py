"""On-change publishing with a deadband, all real processes (hermesd, its Modbus and MQTT tools,
`hermes-sim`'s pymodbus server, Mosquitto): a change within a point's deadband reaches hermesd's
cache but not the broker; one beyond it is published at once; a held-back value goes out with
the periodic re-publish."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.mosquitto import Mosquitto, MqttClient
from tests.support.ports import free_port
from tests.support.sim import RunningSim, SimRunner, sim_runner
from tests.tools.modbus.plant import POINTS, VALUES

__all__ = ["sim_runner"]

B = "hermesd/test-node"


def _start(daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
           role: str = "viewer", **mqtt: Any) -> tuple[RunningDaemon, RunningSim]:
    points = {"conveyor": {**POINTS["conveyor"], "deadband": 1},  # 24.5, in steps of 0.1
              "speed": {**POINTS["speed"], "deadband": "5%"}}  # 1200
    config = base_config(
        {"plc": {"driver": "modbus", "host": "127.0.0.1", "port": free_port(),
                 "poll_interval": "200ms", "timeout": "400ms", "points": points}},
        mqtt={"host": "127.0.0.1", "port": broker.port, "command_role": role, **mqtt})
    path = daemon_runner.write_config(config)
    values_file = path.with_name("values.yaml")
    values_file.write_text(yaml.safe_dump({p: VALUES[p] for p in points}))
    sim = sim_runner.start(path, "--values", str(values_file))
    return daemon_runner.start(path), sim


def _settled(watcher: MqttClient) -> None:
    """The device is available: from here on only changes (and re-sends) are published."""
    watcher.wait_topic(f"{B}/plc/availability", lambda m: m.payload == b"online", timeout=20)
    watcher.wait_topic(f"{B}/conveyor/state", lambda m: m.payload == b"24.5")
    watcher.wait_topic(f"{B}/speed/state", lambda m: m.payload == b"1200")


def _cached(d: RunningDaemon, point: str) -> Any:
    return next(p["value"] for p in d.request({"op": "points"})["result"]["points"]
                if p["id"] == point)


def _payloads(watcher: MqttClient, point: str) -> list[bytes]:
    """The values published for a point, each once, in the order they first came."""
    seen: list[bytes] = []
    for m in watcher.on(f"{B}/{point}/state"):
        if m.payload not in seen:
            seen.append(m.payload)
    return seen


@pytest.mark.timeout(90)
def test_changes_within_the_deadband_stay_off_the_broker(
        daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
        watcher: MqttClient) -> None:
    d, sim = _start(daemon_runner, sim_runner, broker)  # republish: 5 min, out of this test
    _settled(watcher)

    sim.ctl("set", point="conveyor", value=25.4)  # 0.9 from 24.5: within 1
    sim.ctl("set", point="speed", value=1250)  # 4.2 % of 1200: within 5 %
    d.wait_until(lambda: _cached(d, "conveyor") == 25.4 and _cached(d, "speed") == 1250,
                 what="the small changes polled into hermesd's cache")
    sim.ctl("set", point="conveyor", value=25.6)  # 1.1 from the published 24.5
    sim.ctl("set", point="speed", value=1270)  # 5.8 % of the published 1200
    watcher.wait_topic(f"{B}/conveyor/state", lambda m: m.payload == b"25.6")
    watcher.wait_topic(f"{B}/speed/state", lambda m: m.payload == b"1270")
    assert _payloads(watcher, "conveyor") == [b"24.5", b"25.6"]
    assert _payloads(watcher, "speed") == [b"1200", b"1270"]

    # the deadband counts from what was published (25.6), not from the last poll
    sim.ctl("set", point="conveyor", value=26.5)
    d.wait_until(lambda: _cached(d, "conveyor") == 26.5, what="26.5 polled")
    sim.ctl("set", point="conveyor", value=24.5)  # 1.1 below 25.6
    watcher.wait_topic(f"{B}/conveyor/state", lambda m: m.payload == b"24.5",
                       after=watcher.on(f"{B}/conveyor/state")[-1].at + 0.001)
    assert _payloads(watcher, "conveyor") == [b"24.5", b"25.6"]
    assert [m.payload for m in watcher.on(f"{B}/conveyor/state")][-2:] == [b"25.6", b"24.5"]


@pytest.mark.timeout(90)
def test_a_held_back_value_goes_out_with_the_republish(
        daemon_runner: DaemonRunner, sim_runner: SimRunner, broker: Mosquitto,
        watcher: MqttClient) -> None:
    # MQTT may write: the writable conveyor is a `number` in HA, which has no expire_after
    d, sim = _start(daemon_runner, sim_runner, broker, role="operator", republish="2s")
    assert watcher.wait_topic("homeassistant/number/test-node/conveyor/config")
    _settled(watcher)
    first = watcher.on(f"{B}/conveyor/state")[-1]
    sim.ctl("set", point="conveyor", value=25.0)  # within the deadband: held back
    d.wait_until(lambda: _cached(d, "conveyor") == 25.0, what="25.0 polled")
    # only the deadband's re-send brings the value HA shows up to date
    late = watcher.wait_topic(f"{B}/conveyor/state", lambda m: m.payload == b"25.0",
                              timeout=10)
    assert late.at - first.at > 1.0  # with the re-send, not with the poll that saw it
