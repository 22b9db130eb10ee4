"""`driver: mqtt` points (the dev plant's yard): states feed the cache, writes wait to be seen."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.mosquitto import Mosquitto, MqttClient, Received
from tests.support.plant import PLANT

STATE, COMMAND = "plant/yard/beacon/state", "plant/yard/beacon/set"
WEATHER = "plant/yard/weather/temperature"


@pytest.fixture
def device(broker: Mosquitto) -> Iterator[MqttClient]:
    """The yard's devices, as other MQTT clients: they see commands and publish states."""
    with MqttClient(broker.port, client_id="yard", subscribe=("plant/#", "hermesd/#")) as c:
        yield c


def _yard(**extra: Any) -> dict[str, Any]:
    plant: dict[str, Any] = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    yard: dict[str, Any] = copy.deepcopy(plant["devices"]["yard"])
    yard.update(extra)
    return yard


def _start(runner: DaemonRunner, broker: Mosquitto, **extra: Any) -> RunningDaemon:
    config = base_config({"yard": _yard(**extra)},
                         mqtt={"host": "127.0.0.1", "port": broker.port,
                               "command_role": "viewer"})
    d = runner.start(config)
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    return d


def _echo(payload_for: dict[bytes, bytes]) -> Any:
    def handler(client: MqttClient, msg: Received) -> None:
        if msg.topic == COMMAND and msg.payload in payload_for:
            client.publish(STATE, payload_for[msg.payload], retain=True, wait=False)
    return handler


def _write(d: RunningDaemon, value: str) -> tuple[int, dict[str, Any]]:
    return d.ctl_json("--role", "engineer", "write", "warning_beacon", value)


def test_states_feed_the_cache_and_hermesd_state_topic(daemon_runner: DaemonRunner,
                                                       broker: Mosquitto,
                                                       device: MqttClient) -> None:
    device.publish(WEATHER, "4.5", retain=True)  # there before hermesd starts
    d = _start(daemon_runner, broker)
    code, answer = d.ctl_json("read", "outdoor_temp")
    assert code == 0 and answer["status"] == "stale", answer  # (the broker's copy: see below)
    assert answer["result"]["value"] == 4.5 and answer["result"]["unit"] == "°C"
    device.publish(WEATHER, "5.25")
    device.wait_topic("hermesd/test-node/outdoor_temp/state", lambda m: m.payload == b"5.25")
    answer = d.ctl_json("read", "outdoor_temp")[1]
    assert answer["status"] == "ok" and answer["result"]["value"] == 5.25
    # a start where the bridge has messages before the mqtt tool is up is no warning
    assert "WARNING hermesd.mqtt.outgoing" not in d.log


def test_a_retained_state_is_shown_stale_until_a_live_one_comes(daemon_runner: DaemonRunner,
                                                                  broker: Mosquitto,
                                                                  device: MqttClient) -> None:
    """The broker's stored copy of a state (sent at every subscribe) is of unknown age: the
    sensor that sent it may be long dead. hermesd shows it, never as fresh: stale, in words and
    in `quality`, until a live message confirms a value; and does not pass it on as the state
    of the moment (its own state topic, history)."""
    device.publish(WEATHER, "4.5", retain=True)  # the sensor's last word; then it died
    d = _start(daemon_runner, broker)
    code, answer = d.ctl_json("read", "outdoor_temp")
    assert code == 0, answer
    assert answer["status"] == "stale" and answer["result"]["quality"] == "stale", answer
    assert answer["result"]["value"] == 4.5
    assert answer["result"]["stale_reason"].startswith("retained by the broker, age unknown")
    assert answer["reply"].startswith("Outdoor temperature: last known value 4.5 °C, of "
                                      "unknown age (stale: retained by the broker"), answer
    points = {p["id"]: p for p in d.request({"op": "points"})["result"]["points"]}
    assert points["outdoor_temp"]["quality"] == "stale"
    assert not device.on("hermesd/test-node/outdoor_temp/state")  # not published as current

    device.publish(WEATHER, "4.5")  # alive after all: the same value, live
    d.wait_until(lambda: d.ctl_json("read", "outdoor_temp")[1]["status"] == "ok",
                 what="the live state taken")
    answer = d.ctl_json("read", "outdoor_temp")[1]
    assert (answer["result"]["value"], answer["result"]["quality"]) == (4.5, "good")
    device.wait_topic("hermesd/test-node/outdoor_temp/state", lambda m: m.payload == b"4.5")


def test_a_write_confirmed_by_the_device(daemon_runner: DaemonRunner, broker: Mosquitto,
                                         device: MqttClient) -> None:
    device.handlers.append(_echo({b"ON": b"ON", b"OFF": b"OFF"}))
    d = _start(daemon_runner, broker)
    code, answer = _write(d, "on")
    assert code == 0, answer
    assert answer["result"]["value"] is True and answer["result"]["confirmed"] is True
    assert answer["reply"] == "Yard warning beacon set to on."
    assert [m.payload for m in device.on(COMMAND)] == [b"ON"]
    device.wait_topic("hermesd/test-node/warning_beacon/state", lambda m: m.payload == b"ON")
    code, answer = _write(d, "off")
    assert (answer["result"]["value"], answer["result"]["confirmed"]) == (False, True)


def test_a_write_nobody_confirms_says_so(daemon_runner: DaemonRunner, broker: Mosquitto,
                                         device: MqttClient) -> None:
    d = _start(daemon_runner, broker, timeout="500ms")
    code, answer = _write(d, "on")
    # sent, but not seen: an error that says so, never `ok` with the value we wished for
    assert code == 1 and answer["status"] == "error", answer
    assert answer["error"]["code"] == "NOT_CONFIRMED"
    assert answer["result"]["confirmed"] is False and answer["result"]["quality"] == "unconfirmed"
    assert answer["result"]["requested"] is True and answer["result"]["value"] is None
    assert "has not confirmed" in answer["reply"]
    assert [m.payload for m in device.on(COMMAND)] == [b"ON"]


def test_a_device_that_shows_another_state_is_not_confirmed(daemon_runner: DaemonRunner,
                                                            broker: Mosquitto,
                                                            device: MqttClient) -> None:
    device.handlers.append(_echo({b"ON": b"OFF"}))
    d = _start(daemon_runner, broker, timeout="500ms")
    code, answer = _write(d, "on")
    assert code != 0
    assert answer["error"]["code"] == "NOT_CONFIRMED"
    assert "warning_beacon = False" in answer["error"]["message"]


def test_the_availability_topic_takes_the_device_offline(daemon_runner: DaemonRunner,
                                                         broker: Mosquitto,
                                                         device: MqttClient) -> None:
    device.handlers.append(_echo({b"ON": b"ON"}))
    device.publish("plant/yard/status", "offline", retain=True)
    d = _start(daemon_runner, broker, availability_topic="plant/yard/status")
    d.wait_until(lambda: d.status()["devices"]["yard"]["online"] is False, what="yard offline")
    code, answer = _write(d, "on")
    assert code != 0 and answer["error"]["code"] == "DEVICE_OFFLINE"
    assert not device.on(COMMAND)
    device.wait_topic("hermesd/test-node/yard/availability", lambda m: m.payload == b"offline")
    device.publish("plant/yard/status", "online", retain=True)
    d.wait_until(lambda: d.status()["devices"]["yard"]["online"] is True, what="yard online")
    device.wait_topic("hermesd/test-node/yard/availability", lambda m: m.payload == b"online")
    assert _write(d, "on")[1]["result"]["confirmed"] is True


def test_no_broker_means_device_offline_and_no_queued_write(daemon_runner: DaemonRunner,
                                                            broker: Mosquitto,
                                                            device: MqttClient) -> None:
    d = _start(daemon_runner, broker)
    broker.stop()
    d.wait_until(lambda: not d.status()["mqtt"]["connected"], what="the broker gone")
    code, answer = _write(d, "on")
    assert code != 0 and answer["error"]["code"] == "DEVICE_OFFLINE"
    assert "not connected to the MQTT broker" in answer["error"]["message"]
    assert d.status()["devices"]["yard"]["online"] is False
    broker.start()
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker back")
    # the broker logs every PUBLISH it receives: the refused write was never sent, not later
    assert "Received PUBLISH from hermesd-test-node" in broker.log
    assert f"'{COMMAND}'" not in broker.log


def test_a_write_nobody_can_confirm_is_done_but_no_reading(daemon_runner: DaemonRunner,
                                                           broker: Mosquitto,
                                                           device: MqttClient) -> None:
    """`confirm: false`: the broker's acknowledgement is all a write gets. It is answered done,
    but what was asked is not what the device says: `points`, Home Assistant's state topic and
    history had shown it as a fresh reading of the device (atk20s #20)."""
    yard = _yard()
    yard["points"]["warning_beacon"]["confirm"] = False
    config = base_config({"yard": yard}, mqtt={"host": "127.0.0.1", "port": broker.port,
                                               "command_role": "viewer"})
    d = daemon_runner.start(config)
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    code, answer = _write(d, "on")
    assert (code, answer["status"]) == (0, "ok"), answer
    assert "confirmed" not in answer["result"]
    assert [m.payload for m in device.on(COMMAND)] == [b"ON"]
    points = {p["id"]: p for p in d.request({"op": "points"})["result"]["points"]}
    assert points["warning_beacon"]["value"] is None, points["warning_beacon"]
    # a reading after the write reaches Home Assistant; the wish never did
    device.publish(WEATHER, "6.5")
    device.wait_topic("hermesd/test-node/outdoor_temp/state", lambda m: m.payload == b"6.5")
    assert not device.on("hermesd/test-node/warning_beacon/state")
    # what the device then says is the reading
    device.publish(STATE, "ON")
    device.wait_topic("hermesd/test-node/warning_beacon/state", lambda m: m.payload == b"ON")
    points = {p["id"]: p for p in d.request({"op": "points"})["result"]["points"]}
    assert (points["warning_beacon"]["value"], points["warning_beacon"]["quality"]) == \
        (True, "good")
