"""MQTT devices that speak JSON (Zigbee2MQTT, Tasmota, Shelly): `value_key` takes a point's
value from a JSON object state, several points from one topic; `command_key` makes a write the
object {key: value}. A state that lacks the key says nothing about the point; a state that is
not the JSON it should be is ignored as any bad state is, and never becomes a value."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.mqtt.points import MqttPoint, NotInState, decode, decode_command, encode

from hermesd.config.loader import validate
from hermesd.core.errors import ConfigError
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.mosquitto import Mosquitto, MqttClient, Received

SENSOR = "zigbee2mqtt/cold_room_sensor"
PLUG, PLUG_SET = "zigbee2mqtt/defrost_plug", "zigbee2mqtt/defrost_plug/set"
METER = "tele/meter/SENSOR"


def _devices() -> dict[str, Any]:
    return {"cold_room": {"driver": "mqtt", "points": {
        "room_temp": {"name": "Cold room temperature", "state_topic": SENSOR,
                      "value_key": "temperature", "type": "float", "unit": "°C"},
        "room_humidity": {"name": "Cold room humidity", "state_topic": SENSOR,
                          "value_key": "humidity", "type": "float", "unit": "%"},
        "defrost": {"name": "Defrost heater", "state_topic": PLUG, "value_key": "state",
                    "command_topic": PLUG_SET, "command_key": "state", "type": "bool",
                    "writable": True},
        "meter_power": {"name": "Meter power", "state_topic": METER,
                        "value_key": "ENERGY.Power", "type": "float", "unit": "W"},
    }}}


@pytest.fixture
def device(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="zigbee",
                    subscribe=("zigbee2mqtt/#", "tele/#", "hermesd/#")) as c:
        yield c


def _start(runner: DaemonRunner, broker: Mosquitto) -> RunningDaemon:
    d = runner.start(base_config(_devices(), mqtt={"host": "127.0.0.1", "port": broker.port,
                                                   "command_role": "viewer"}))
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    return d


def _value(d: RunningDaemon, point: str) -> Any:
    """The point's value as hermesd answers it. Stale too: a state the tests leave retained
    before hermesd starts is the broker's copy, stale until a live one comes (tested in
    test_mqtt_points.py); how a payload decodes is what these tests look at."""
    code, answer = d.ctl_json("read", point)
    return answer["result"]["value"] if code == 0 and answer["status"] in ("ok", "stale") \
        else None


def test_several_points_read_from_one_json_state(daemon_runner: DaemonRunner,
                                                 broker: Mosquitto, device: MqttClient) -> None:
    device.publish(SENSOR, json.dumps({"temperature": -18.5, "humidity": 71, "battery": 97,
                                       "linkquality": 120}), retain=True)
    device.publish(METER, json.dumps({"Time": "2026-12-01T10:00:00",
                                      "ENERGY": {"Power": 412, "Voltage": 231}}), retain=True)
    d = _start(daemon_runner, broker)
    d.wait_until(lambda: _value(d, "room_temp") == -18.5, what="the temperature")
    assert _value(d, "room_humidity") == 71.0
    d.wait_until(lambda: _value(d, "meter_power") == 412.0, what="the nested power")
    # a state with only what changed moves that point and leaves the other as it was
    device.publish(SENSOR, json.dumps({"temperature": -19.0}))
    d.wait_until(lambda: _value(d, "room_temp") == -19.0, what="the new temperature")
    assert _value(d, "room_humidity") == 71.0


@pytest.mark.parametrize("payload", [
    b"-17.0",                                   # a bare value where JSON is expected
    b'{"temperature": "warm"}',                 # not a number
    b'{"temperature": {"value": -17}}',         # an object, not a value
    b'{"temperature": NaN}',                    # not strict JSON
    b'{"temperature": -17, "temperature": 5}',  # a duplicate key: which one is meant?
    b'[{"temperature": -17}]',                  # not an object
])
def test_a_state_that_is_not_the_json_it_should_be_never_becomes_a_value(
        daemon_runner: DaemonRunner, broker: Mosquitto, device: MqttClient,
        payload: bytes) -> None:
    device.publish(SENSOR, json.dumps({"temperature": -18.5, "humidity": 70}), retain=True)
    d = _start(daemon_runner, broker)
    d.wait_until(lambda: _value(d, "room_temp") == -18.5, what="the first temperature")
    device.publish(SENSOR, payload)
    device.publish(SENSOR, json.dumps({"humidity": 69}))  # after the bad one, in order
    d.wait_until(lambda: _value(d, "room_humidity") == 69.0, what="the next state")
    assert _value(d, "room_temp") == -18.5


def test_a_write_publishes_the_json_command_and_is_confirmed(
        daemon_runner: DaemonRunner, broker: Mosquitto, device: MqttClient) -> None:
    def plug(client: MqttClient, msg: Received) -> None:  # a Zigbee plug: takes {"state": ..}
        if msg.topic == PLUG_SET:
            asked = json.loads(msg.payload)["state"]
            client.publish(PLUG, json.dumps({"state": asked, "power": 0.0}), retain=True,
                           wait=False)
    device.handlers.append(plug)
    device.publish(PLUG, json.dumps({"state": "OFF"}), retain=True)
    d = _start(daemon_runner, broker)
    d.wait_until(lambda: _value(d, "defrost") is False, what="the plug's state")
    code, answer = d.ctl_json("--role", "engineer", "write", "defrost", "on")
    assert code == 0, answer
    assert answer["result"]["value"] is True and answer["result"]["confirmed"] is True
    assert [json.loads(m.payload) for m in device.on(PLUG_SET)] == [{"state": "ON"}]


# -- the codec, one payload at a time ------------------------------------------------------------

def _point(**keys: Any) -> MqttPoint:
    return MqttPoint.from_slice("dev", {"id": "p", "kind": keys.get("type", "float"), **keys})


@pytest.mark.parametrize(("key", "payload", "value"), [
    ("temperature", b'{"temperature": 21.5}', 21.5),
    ("ENERGY.Power", b'{"ENERGY": {"Power": 7}}', 7.0),
    ("sensors.1.t", b'{"sensors": [{"t": 1}, {"t": 2.5}]}', 2.5),
    ("temperature", b'{"temperature": "21.5"}', 21.5),  # a number sent as text
])
def test_the_value_at_a_key(key: str, payload: bytes, value: Any) -> None:
    assert decode(_point(state_topic="s", value_key=key), payload) == value


@pytest.mark.parametrize(("payload", "value"), [
    (b'{"state": "ON"}', True), (b'{"state": "OFF"}', False),
    (b'{"state": true}', True), (b'{"state": false}', False),
])
def test_a_switch_in_json(payload: bytes, value: bool) -> None:
    assert decode(_point(type="bool", state_topic="s", value_key="state"), payload) is value


def test_a_state_without_the_key_says_nothing() -> None:
    point = _point(state_topic="s", value_key="ENERGY.Power")
    for payload in (b'{"battery": 90}', b'{"ENERGY": {"Voltage": 230}}'):
        with pytest.raises(NotInState):
            decode(point, payload)
    with pytest.raises(ValueError, match="holds no"):
        decode(point, b'{"ENERGY": 5}')  # the path runs into a value: a wrong state, not absent


def test_a_command_is_the_object_the_device_takes() -> None:
    switch = _point(type="bool", command_topic="c", command_key="state", payload_on="ON",
                    payload_off="OFF")
    assert json.loads(encode(switch, True)) == {"state": "ON"}
    level = _point(type="int", command_topic="c", command_key="brightness")
    assert encode(level, 128) == '{"brightness":128}'
    assert decode_command(level, encode(level, 128).encode()) == 128


@pytest.mark.parametrize(("keys", "problem"), [
    ({"value_key": "a..b"}, "value_key"),
    ({"value_key": ""}, "value_key"),
    ({"value_key": "a.b.c.d.e.f.g.h.i"}, "value_key"),   # deeper than 8
    ({"value_key": "temp\n"}, "value_key"),
    ({"command_key": "state", "state_topic": "s"}, "command_key"),  # no command_topic
])
def test_keys_the_config_refuses(keys: dict[str, Any], problem: str) -> None:
    point = {"name": "P", "state_topic": "s", **keys}
    config = base_config({"dev": {"driver": "mqtt", "points": {"p": point}}},
                         mqtt={"host": "127.0.0.1", "port": 1883})
    with pytest.raises(ConfigError, match=problem):
        validate(config, Path("/etc/hermesd/hermesd.yaml"))


# -- hostile states and careless configs -------------------------------------------------------

@pytest.mark.parametrize(("payload", "value"), [
    (b'{"count": 9007199254740993}', 9007199254740993),    # past a float's 53 bits: exact
    (b'{"count": 18446744073709551615}', 2**64 - 1),       # the largest uint64, not 2**64
    (b'{"count": -9223372036854775808}', -(2**63)),
    (b'{"count": "12"}', 12),
])
def test_an_integer_is_taken_exactly(payload: bytes, value: int) -> None:
    assert decode(_point(type="int", state_topic="s", value_key="count"), payload) == value


@pytest.mark.parametrize(("payload", "problem"), [
    (b'{"count": 1e20}', "past 64 bits"),   # a whole number no device register holds
    (b'{"count": 1e300}', "past 64 bits"),  # a 301-digit integer the tool could not send on
    (b'{"count": "1_0"}', "not a number"),  # Python's float() takes these; no device means them
    (b'{"count": "\xd9\xa1\xd9\xa2"}', "not a number"),  # Arabic-Indic digits
    (b'{"count": "0x10"}', "not a number"),
    (b'{"count": "Infinity"}', "not a finite number"),
])
def test_a_number_no_device_sends_is_no_value(payload: bytes, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        decode(_point(type="int", state_topic="s", value_key="count"), payload)


def test_an_integer_past_64_bits_leaves_the_last_value(
        daemon_runner: DaemonRunner, broker: Mosquitto, device: MqttClient) -> None:
    """Before: 1e20 became the integer 10**20 on the tool's board; its `values` event could not
    be sent (a log line per message), and every read of the point failed INTERNAL."""
    devices = {"counter": {"driver": "mqtt", "points": {
        "cycles": {"name": "Cycles", "state_topic": METER, "value_key": "cycles",
                   "type": "int"},
        "volts": {"name": "Volts", "state_topic": METER, "value_key": "volts"}}}}
    device.publish(METER, json.dumps({"cycles": 41, "volts": 230}), retain=True)
    d = daemon_runner.start(base_config(devices, mqtt={"host": "127.0.0.1",
                                                       "port": broker.port}))
    d.wait_until(lambda: _value(d, "cycles") == 41, what="the first count")
    device.publish(METER, b'{"cycles": 1e20, "volts": 231}')
    d.wait_until(lambda: _value(d, "volts") == 231.0, what="the state after")
    code, answer = d.ctl_json("read", "cycles")
    # the last value: the broker's retained copy, which no live state has confirmed since
    assert code == 0 and answer["status"] == "stale", answer
    assert answer["result"]["value"] == 41


def test_one_state_for_many_points_is_read_once(
        daemon_runner: DaemonRunner, broker: Mosquitto, device: MqttClient) -> None:
    """A careless config (or a big Tasmota device) puts hundreds of points on one topic, and
    anyone who may publish there sends 16 KiB states. Before, each point parsed the whole state
    again: 800 points took over a second of the tool's only thread per message."""
    n = 800
    points = {f"p{i}": {"name": f"Sensor {i}", "state_topic": METER, "value_key": f"k{i}"}
              for i in range(n)}
    d = daemon_runner.start(base_config({"big": {"driver": "mqtt", "points": points}},
                                        mqtt={"host": "127.0.0.1", "port": broker.port}))
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    state: dict[str, Any] = {f"k{i}": 0.5 for i in range(n)}
    state["pad"] = "x" * (16000 - len(json.dumps(state)))  # a full 16 KiB state
    for round_ in range(10):
        device.publish(METER, json.dumps({**state, f"k{n - 1}": float(round_)}))
    # ten states: before, 10+ s of parsing; now well under a second
    d.wait_until(lambda: _value(d, f"p{n - 1}") == 9.0, timeout=6, what="the tenth state")


def test_a_state_that_flips_from_bad_to_good_is_logged_once_per_message(
        daemon_runner: DaemonRunner, broker: Mosquitto, device: MqttClient) -> None:
    """Anyone who may publish on a device's topic can send junk and a good state in turn. Each
    point logs when its state turns bad and good again; before, each of the points on a shared
    JSON topic did, so one junk message made as many log lines as the topic has points."""
    n = 40
    points = {f"p{i}": {"name": f"Sensor {i}", "state_topic": METER, "value_key": f"k{i}"}
              for i in range(n)}
    d = daemon_runner.start(base_config({"big": {"driver": "mqtt", "points": points}},
                                        mqtt={"host": "127.0.0.1", "port": broker.port}))
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    good = {f"k{i}": 1.0 for i in range(n)}
    for round_ in range(5):
        device.publish(METER, b"junk")
        device.publish(METER, json.dumps({**good, "k0": float(round_)}))
    d.wait_until(lambda: _value(d, "p0") == 4.0, what="the last good state")
    log_text = d.log
    assert log_text.count("ignored a state") <= 5, log_text[-3000:]
    assert log_text.count("usable states again") <= 5, log_text[-3000:]
