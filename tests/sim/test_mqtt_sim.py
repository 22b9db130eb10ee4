"""The MQTT devices in `hermes-sim`, on a real Mosquitto: sensors publish, switches confirm what
they are told, faults show on the broker as a real device's would."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hermes_tools.sim import SIMULATORS, simulator_class
from hermes_tools.sim.mqtt import MqttSimulator

from hermesd.config import Config, load_config
from tests.support.mosquitto import Mosquitto, MqttClient, retained_snapshot
from tests.support.ports import free_port
from tests.support.sim import SimRunner
from tests.support.until import until

REPO = Path(__file__).resolve().parents[2]
BEACON_STATE, BEACON_SET = "plant/yard/beacon/state", "plant/yard/beacon/set"
OUTDOOR = "plant/yard/weather/temperature"
GATE_AVAIL, GATE_STATE = "plant/gate/status", "plant/gate/position"


def _config(tmp: Path, broker_port: int) -> Path:
    """The dev plant's yard (as plant-dev.yaml has it) and a gate that says when it is there."""
    data = yaml.safe_load((REPO / "configs" / "demo.yaml").read_text(encoding="utf-8"))
    config = {
        "node": {"id": "n"}, "llm": {"enabled": False},
        "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
        "mqtt": {"host": "127.0.0.1", "port": broker_port},
        "devices": {
            "yard": data["devices"]["yard"],
            "gate": {"driver": "mqtt", "availability_topic": GATE_AVAIL, "points": {
                "gate_position": {"state_topic": GATE_STATE, "type": "int", "unit": "%",
                                  "min": 0, "max": 100}}}}}
    path = tmp / "plant.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def watcher(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="watcher", subscribe=("plant/#",)) as client:
        yield client


@contextlib.asynccontextmanager
async def _running(config: Config, values: dict[str, Any]) -> AsyncIterator[MqttSimulator]:
    """The simulator of every device of `config`, connected, until the block ends."""
    sim = MqttSimulator(config, list(config.devices.values()), values, seed=3, period=0.2)
    task = asyncio.create_task(sim.run(), name="mqtt-sim")
    try:
        async with asyncio.timeout(10):
            await sim.ready.wait()
        assert sim.connected
        yield sim
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.fixture
async def yard(tmp_path: Path, broker: Mosquitto) -> AsyncIterator[MqttSimulator]:
    config = load_config(_config(tmp_path, broker.port))
    async with _running(config, {"outdoor_temp": 12.5, "gate_position": 40}) as sim:
        yield sim


def _text(client: MqttClient, topic: str) -> str | None:
    """The last payload on a topic, as text (None: nothing yet)."""
    last = client.last(topic)
    return None if last is None else last.text


def test_mqtt_is_registered_with_hermes_sim() -> None:
    assert SIMULATORS["mqtt"] == "hermes_tools.sim.mqtt:MqttSimulator"
    assert simulator_class("mqtt") is MqttSimulator


async def test_sensors_publish_retained_and_keep_publishing(yard: MqttSimulator,
                                                            broker: Mosquitto,
                                                            watcher: MqttClient) -> None:
    retained = await asyncio.to_thread(retained_snapshot, broker.port, ("plant/#",))
    assert abs(float(retained[OUTDOOR]) - 12.5) < 1
    assert retained[BEACON_STATE] == b"OFF" and retained[GATE_AVAIL] == b"online"
    assert retained[GATE_STATE] == b"40"
    before = len(watcher.on(OUTDOOR))
    await until(lambda: len(watcher.on(OUTDOOR)) >= before + 3, what="three more outdoor temperatures")
    assert all(abs(float(m.text) - 12.5) < 1 for m in watcher.on(OUTDOOR))
    assert len(watcher.on(BEACON_STATE)) == 1  # a switch shows its state when it changes
    assert await yard.get("outdoor_temp") == {"point": "outdoor_temp",
                                              "value": float(watcher.on(OUTDOOR)[-1].text)}


async def test_a_switch_confirms_what_it_is_told(yard: MqttSimulator,
                                                 watcher: MqttClient) -> None:
    watcher.publish(BEACON_SET, "ON")
    await until(lambda: _text(watcher, BEACON_STATE) == "ON", what="the beacon on")
    assert await yard.get("warning_beacon") == {"point": "warning_beacon", "value": True}
    watcher.publish(BEACON_SET, "MAYBE")  # not a payload the beacon takes: ignored
    watcher.publish(BEACON_SET, "OFF")
    await until(lambda: _text(watcher, BEACON_STATE) == "OFF", what="the beacon off")
    status = yard.status()["yard"]
    assert status["requests"] == {"write": 2} and status["bad_commands"] == 1
    assert [m.text for m in watcher.on(BEACON_STATE)] == ["OFF", "ON", "OFF"]


async def test_drop_goes_silent_and_says_so_where_the_device_can(yard: MqttSimulator,
                                                                 watcher: MqttClient) -> None:
    assert await yard.drop("gate") == {"device": "gate", "dropped": "silent"}
    await until(lambda: _text(watcher, GATE_AVAIL) == "offline", what="the gate's will")
    gate_states = len(watcher.on(GATE_STATE))
    await yard.drop("yard")
    outdoor = len(watcher.on(OUTDOOR))
    watcher.publish(BEACON_SET, "ON")  # nobody takes it
    await yard.set("gate_position", 55)  # the value changes; a silent device does not tell
    assert yard.status()["yard"]["dropped"] is True
    await yard.restore("gate")
    await until(lambda: _text(watcher, GATE_AVAIL) == "online", what="the gate back")
    await until(lambda: _text(watcher, GATE_STATE) == "55", what="its position")
    # the gate publishes again; the yard, still dropped, has said nothing all along
    await until(lambda: len(watcher.on(GATE_STATE)) >= gate_states + 3, what="more gate positions")
    assert len(watcher.on(OUTDOOR)) == outdoor and _text(watcher, BEACON_STATE) == "OFF"
    assert yard.status()["yard"]["requests"] == {"write": 0}
    with pytest.raises(ValueError, match="an MQTT device can only go silent"):
        await yard.drop("yard", "refuse")
    with pytest.raises(KeyError, match="no simulated mqtt device 'barn'"):
        await yard.drop("barn")


async def test_fail_slow_and_set(yard: MqttSimulator, watcher: MqttClient) -> None:
    assert await yard.fail("yard", 3) == {"device": "yard", "fail": "3"}
    await until(lambda: _text(watcher, OUTDOOR) == "ERR 3"
                and _text(watcher, BEACON_STATE) == "ERR 3", what="ERR 3 on both")
    await yard.fail("yard", 0)
    await until(lambda: _text(watcher, BEACON_STATE) == "OFF", what="the beacon's state again")
    await yard.slow("yard", 0.5)
    sent = time.monotonic()
    watcher.publish(BEACON_SET, "ON")
    await until(lambda: _text(watcher, BEACON_STATE) == "ON", what="the beacon on")
    confirmed = watcher.last(BEACON_STATE)
    assert confirmed is not None and confirmed.at - sent >= 0.5
    assert await yard.set("outdoor_temp", -4) == {"point": "outdoor_temp", "value": -4.0}
    await until(lambda: _text(watcher, OUTDOOR) == "-4.0", what="-4.0")
    with pytest.raises(ValueError, match="warning_beacon: 'maybe' is neither 'ON' nor 'OFF'"):
        await yard.set("warning_beacon", "maybe")
    with pytest.raises(ValueError, match=r"seconds must be 0\.\.600"):
        await yard.slow("yard", 601)
    with pytest.raises(ValueError, match="no register tables"):
        await yard.fail("yard", 2, table="coil")


async def test_a_broker_that_comes_later_is_waited_for(tmp_path: Path) -> None:
    port = free_port()
    config = load_config(_config(tmp_path, port))
    sim = MqttSimulator(config, list(config.devices.values()), period=0.2)
    task = asyncio.create_task(sim.run(), name="mqtt-sim")
    try:
        async with asyncio.timeout(10):
            await sim.ready.wait()  # ready without a broker: the other simulators go on
        assert not sim.connected
        assert sim.status()["yard"]["endpoint"] == f"mqtt 127.0.0.1:{port} (not connected)"
        with Mosquitto(tmp_path / "broker", port=port), \
                MqttClient(port, client_id="late", subscribe=("plant/#",)) as late:
            await until(lambda: late.last(BEACON_STATE), 20, what="the yard on the late broker")
            assert sim.connected and _text(late, BEACON_STATE) == "OFF"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_hermes_sim_serves_the_whole_demo_plant(sim_runner: SimRunner, tmp_path: Path,
                                                broker: Mosquitto, watcher: MqttClient) -> None:
    data = yaml.safe_load((REPO / "configs" / "demo.yaml").read_text(encoding="utf-8"))
    plc_port = free_port()
    data["devices"]["plc1"]["port"] = plc_port
    data["devices"]["scale1"]["port"] = str(tmp_path / "dev" / "scale1")
    data["mqtt"]["port"] = broker.port
    data["paths"] = {"state_dir": str(tmp_path / "state"), "runtime_dir": str(tmp_path / "run")}
    config = tmp_path / "demo.yaml"
    config.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    sim = sim_runner.start(config, "--values", str(REPO / "configs" / "demo-values.yaml"))
    assert f"plc1 (modbus) tcp 127.0.0.1:{plc_port} unit 1" in sim.output
    assert f"scale1 (serial) pty {tmp_path / 'dev' / 'scale1'} -> /dev/pts/" in sim.output
    assert f"yard (mqtt) mqtt 127.0.0.1:{broker.port}\n" in sim.output
    watcher.wait_topic(OUTDOOR, lambda m: abs(float(m.text) - 12.5) < 1)
    watcher.publish(BEACON_SET, "ON")
    watcher.wait_topic(BEACON_STATE, lambda m: m.text == "ON")
    assert sim.status()["yard"]["requests"] == {"write": 1}
    sim.ctl("drop", device="yard")
    assert sim.status()["yard"]["dropped"] is True
    assert sim.terminate() == 0


PLUG, PLUG_SET = "zigbee2mqtt/plug", "zigbee2mqtt/plug/set"


@pytest.fixture
async def plug(tmp_path: Path, broker: Mosquitto) -> AsyncIterator[MqttSimulator]:
    """A Zigbee plug: one JSON state for all its points, one command topic for its switch and
    its level (each with its own key)."""
    config = {
        "node": {"id": "n"}, "llm": {"enabled": False},
        "paths": {"state_dir": str(tmp_path / "state"), "runtime_dir": str(tmp_path / "run")},
        "mqtt": {"host": "127.0.0.1", "port": broker.port},
        "devices": {"plug": {"driver": "mqtt", "points": {
            "plug_level": {"state_topic": PLUG, "value_key": "brightness", "type": "int",
                           "command_topic": PLUG_SET, "command_key": "brightness",
                           "writable": True, "min": 0, "max": 254},
            "plug_switch": {"state_topic": PLUG, "value_key": "state", "type": "bool",
                            "command_topic": PLUG_SET, "command_key": "state",
                            "writable": True},
            "plug_power": {"state_topic": PLUG, "value_key": "power", "unit": "W"}}}}}
    path = tmp_path / "plug.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    async with _running(load_config(path), {"plug_level": 100, "plug_switch": False,
                                            "plug_power": 50.0}) as sim:
        yield sim


def _json(client: MqttClient, topic: str) -> dict[str, Any] | None:
    last = client.last(topic)
    return None if last is None else json.loads(last.payload)


async def test_points_on_one_json_state_are_shown_together(plug: MqttSimulator,
                                                           broker: Mosquitto) -> None:
    """Before, each point published its own one-key object, retained: the broker kept only the
    last, so a client that came later never saw the plug's switch or level."""
    retained = await asyncio.to_thread(retained_snapshot, broker.port, ("zigbee2mqtt/#",))
    state = json.loads(retained[PLUG])
    assert state["state"] == "OFF" and state["brightness"] == 100
    assert abs(state["power"] - 50.0) < 5


async def test_a_command_for_one_key_is_taken_by_its_point(plug: MqttSimulator,
                                                           broker: Mosquitto) -> None:
    """Before, `{"state": "ON"}` reached the level's point first, which raised NotInState out of
    the message handler: the switch never heard its command."""
    with MqttClient(broker.port, client_id="z2m-watch", subscribe=("zigbee2mqtt/#",)) as z:
        z.publish(PLUG_SET, json.dumps({"state": "ON"}))
        await until(lambda: (_json(z, PLUG) or {}).get("state") == "ON", what="the plug on")
        z.publish(PLUG_SET, json.dumps({"brightness": 30}))
        await until(lambda: (_json(z, PLUG) or {}).get("brightness") == 30, what="level 30")
        assert (_json(z, PLUG) or {})["state"] == "ON"
    assert await plug.get("plug_switch") == {"point": "plug_switch", "value": True}
    status = plug.status()["plug"]
    assert status["requests"] == {"write": 2} and status["bad_commands"] == 0
