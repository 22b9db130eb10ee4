"""Driver settings: every settings class round-trips through a configure frame like the
protocol's messages; the config builds them and the tool reads back what the config built; a
wrong value is refused naming its key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hermes_tools.modbus.bus import LinkSpec
from hypothesis import given
from hypothesis import strategies as st

from hermesd.config.drivers.modbus import link_of
from hermesd.config.loader import validate
from hermesd.core.errors import BadRequest
from hermesd.core.protocol import Configure, FrameDecoder, decode, encode
from hermesd.core.registers import ORDERS, TABLES, TYPES
from hermesd.core.settings.modbus import (
    LINE_KEYS,
    NETWORK,
    TRANSPORTS,
    ModbusDeviceSettings,
    ModbusPointSettings,
)
from hermesd.core.settings.mqtt import (
    BrokerSettings,
    BrokerTls,
    MqttDeviceSettings,
    MqttPointSettings,
)
from hermesd.core.settings.serial import SerialDeviceSettings, SerialPointSettings
from hermesd.core.topics import ToolTopics, Topics
from hermesd.mqtt.topics import topics_of
from hermesd.toolspecs import device_slice, mqtt_slice
from tests.tools.modbus.plant import config_dict, load, rtu_device, tcp_device

names = st.text(min_size=1, max_size=20)
finite = st.floats(allow_nan=False, allow_infinity=False)


@st.composite
def modbus_devices(draw: st.DrawFn) -> ModbusDeviceSettings:
    transport = draw(st.sampled_from(TRANSPORTS))
    line: dict[str, Any] = {}
    if transport not in NETWORK:  # a network device has no line keys: they are not sent
        line = {"baudrate": draw(st.integers(300, 4_000_000)),
                "parity": draw(st.sampled_from("NEO")), "stopbits": draw(st.sampled_from([1, 2])),
                "bytesize": draw(st.sampled_from([7, 8])),
                "frame_gap": draw(st.none() | st.floats(0, 1))}
    return ModbusDeviceSettings(
        transport=transport,
        port=draw(st.integers(1, 65535)) if transport in NETWORK else draw(names),
        unit=draw(st.integers(0, 255)),
        host=draw(names) if transport in NETWORK else None, **line,
        word_order=draw(st.sampled_from(ORDERS)), byte_order=draw(st.sampled_from(ORDERS)),
        max_block=draw(st.integers(1, 125)), max_gap=draw(st.integers(0, 100)),
        retries=draw(st.integers(0, 5)), single_write=draw(st.booleans()),
        backoff_max=draw(st.floats(0.05, 1e6)))


modbus_points = st.builds(
    ModbusPointSettings, table=st.sampled_from(TABLES), address=st.integers(0, 65535),
    type=st.sampled_from(TYPES), word_order=st.sampled_from(ORDERS),
    byte_order=st.sampled_from(ORDERS), scale=finite, offset=finite,
    bit=st.none() | st.integers(0, 15), byte=st.none() | st.sampled_from(["high", "low"]),
    mask=st.none() | st.integers(1, 0xFFFF), shift=st.none() | st.integers(0, 15),
    length=st.none() | st.integers(1, 125), group=st.none() | names)

serial_devices = st.builds(
    SerialDeviceSettings, port=names, baudrate=st.integers(50, 4_000_000),
    bytesize=st.sampled_from([5, 6, 7, 8]), parity=st.sampled_from("NEOMS"),
    stopbits=st.sampled_from([1, 1.5, 2]), terminator=names, encoding=names,
    max_line=st.integers(8, 65536))
serial_points = st.builds(
    SerialPointSettings, pattern=names, type=st.sampled_from(["float", "int", "string", "bool"]),
    query=st.none() | names, scale=finite, offset=finite, command=st.none() | names,
    ack=st.none() | names, true_text=st.text(), false_text=st.text(),
    min_event_interval=st.floats(0, 1e6))

mqtt_devices = st.builds(MqttDeviceSettings, availability_topic=st.none() | names,
                         payload_available=st.text(), payload_not_available=st.text())
mqtt_points = st.builds(
    MqttPointSettings, state_topic=st.none() | names, command_topic=st.none() | names,
    type=st.sampled_from(["float", "int", "string", "bool"]), payload_on=st.text(),
    payload_off=st.text(), qos=st.sampled_from([0, 1, 2]), retain=st.booleans(),
    confirm=st.booleans())

tool_topics = st.builds(
    ToolTopics, names=st.builds(Topics, base=names, prefix=names, node=names),
    listen_talk=st.booleans(), protected=st.lists(names).map(tuple),
    allowed=st.none() | st.lists(names).map(tuple), devices=st.lists(names).map(tuple))

brokers = st.builds(
    BrokerSettings, host=names, port=st.integers(1, 65535), client_id=names,
    protocol=st.sampled_from(["5", "3.1.1"]), keepalive=st.floats(5, 3600),
    outbox_limit=st.integers(0, 1_000_000), topics=tool_topics,
    username=st.none() | names, password_file=st.none() | names,
    tls=st.none() | st.builds(BrokerTls, ca=st.none() | names, cert=st.none() | names,
                              key=st.none() | names, insecure=st.booleans()))


def _through_a_frame(obj: dict[str, Any]) -> dict[str, Any]:
    """`obj` as the tool receives it: in a configure message, framed and decoded."""
    (raw,) = FrameDecoder().feed(encode(Configure(id=1, config={"settings": obj})))
    message = decode(raw)
    assert isinstance(message, Configure)
    return message.config["settings"]  # type: ignore[no-any-return]


@given(modbus_devices())
def test_modbus_device_settings_round_trip(settings: ModbusDeviceSettings) -> None:
    assert ModbusDeviceSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(modbus_devices())
def test_the_config_and_the_tool_group_devices_into_the_same_links(
        settings: ModbusDeviceSettings) -> None:
    """The config checks units and framing per link; the tool opens one connection per link:
    both must mean the same link."""
    assert link_of(settings.to_dict()) == settings.link == LinkSpec.of(settings).key


@given(modbus_points)
def test_modbus_point_settings_round_trip(settings: ModbusPointSettings) -> None:
    assert ModbusPointSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(serial_devices)
def test_serial_device_settings_round_trip(settings: SerialDeviceSettings) -> None:
    assert SerialDeviceSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(serial_points)
def test_serial_point_settings_round_trip(settings: SerialPointSettings) -> None:
    assert SerialPointSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(mqtt_devices)
def test_mqtt_device_settings_round_trip(settings: MqttDeviceSettings) -> None:
    assert MqttDeviceSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(mqtt_points)
def test_mqtt_point_settings_round_trip(settings: MqttPointSettings) -> None:
    assert MqttPointSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(brokers)
def test_mqtt_broker_settings_round_trip(settings: BrokerSettings) -> None:
    assert BrokerSettings.from_dict(_through_a_frame(settings.to_dict())) == settings


@given(tool_topics)
def test_mqtt_tool_topics_round_trip(topics: ToolTopics) -> None:
    assert ToolTopics.from_dict(_through_a_frame(topics.to_dict())) == topics


def test_the_tool_reads_back_what_the_config_built(tmp_path: Path) -> None:
    """The slice the daemon sends holds the settings the config checked, and no more of them:
    read back with the same class, they are the config's, key for key."""
    config = load({"tcp": tcp_device(1502, word_order="little", max_gap=0),
                   "rtu": rtu_device(tmp_path / "ttyS9", 3, "r_", parity="E",
                                     frame_gap="5ms")}, tmp_path)
    for device in config.devices.values():
        sent = _through_a_frame(device_slice(device))
        settings = ModbusDeviceSettings.from_dict(sent)
        assert settings.to_dict() == dict(device.params)
        for pid, point in device.points.items():
            assert ModbusPointSettings.from_dict(sent["points"][pid]).to_dict() == \
                dict(point.params)
    tcp = ModbusDeviceSettings.from_dict(device_slice(config.devices["tcp"]))
    rtu = ModbusDeviceSettings.from_dict(device_slice(config.devices["rtu"]))
    assert (tcp.word_order, tcp.max_gap, tcp.host, tcp.port) == ("little", 0, "127.0.0.1", 1502)
    assert not set(LINE_KEYS) & set(tcp.to_dict())  # a TCP device has no serial line
    assert (rtu.baudrate, rtu.parity, rtu.frame_gap, rtu.unit) == (19200, "E", 0.005, 3)
    label = ModbusPointSettings.from_dict(device_slice(config.devices["tcp"])["points"]["label"])
    assert (label.type, label.length, label.word_order) == ("string", 4, "little")


def test_the_serial_tool_reads_back_what_the_config_built(tmp_path: Path) -> None:
    point = {"query": "W\r\n", "pattern": r"(?P<value>[\d.]+) kg", "command": "SP={value}\r\n",
             "writable": True, "min": 0, "max": 250}
    config = load({"scale": {"driver": "serial", "port": "socket://127.0.0.1:7001",
                             "parity": "E", "stopbits": 1.5, "terminator": "\r",
                             "points": {"w": point, "t": {"pattern": "T(?P<value>\\d+)",
                                                          "type": "int"}}}}, tmp_path)
    device = config.devices["scale"]
    sent = _through_a_frame(device_slice(device))
    settings = SerialDeviceSettings.from_dict(sent)
    assert settings.to_dict() == dict(device.params)
    assert (settings.parity, settings.stopbits, settings.terminator, settings.baudrate) == \
        ("E", 1.5, "\r", 9600)
    w = SerialPointSettings.from_dict(sent["points"]["w"])
    t = SerialPointSettings.from_dict(sent["points"]["t"])
    assert (w.query, w.command, w.type, t.query, t.type) == ("W\r\n", "SP={value}\r\n",
                                                             "float", None, "int")
    assert w.to_dict() == dict(device.points["w"].params)


def test_the_defaults_are_the_configs(tmp_path: Path) -> None:
    """A key left out of the config and out of a slice means the same: one default."""
    config = load({"plc": {"driver": "modbus", "host": "127.0.0.1",
                           "points": {"t": {"table": "input", "address": 0}}}}, tmp_path)
    device = config.devices["plc"]
    assert ModbusDeviceSettings.from_dict(device.params) == \
        ModbusDeviceSettings(transport="tcp", port=502, host="127.0.0.1")
    assert ModbusPointSettings.from_dict(device.points["t"].params) == \
        ModbusPointSettings(table="input", address=0, type="uint16")


def test_the_mqtt_tool_is_sent_the_daemons_topics_and_settings(tmp_path: Path) -> None:
    """The tool's topics are the daemon's own, named by the same class; a device's and its
    points' settings are the config's, key for key."""
    device = {"driver": "mqtt", "availability_topic": "z2m/lamp/availability", "points": {
        "lamp": {"state_topic": "z2m/lamp", "command_topic": "z2m/lamp/set", "type": "bool",
                 "payload_on": "on", "qos": 0, "writable": True},
        "watts": {"state_topic": "z2m/lamp/power"}}}
    config = validate({**config_dict({"lamp1": device}, tmp_path),
                       "mqtt": {"host": "127.0.0.1", "base_topic": "plant"}},
                      tmp_path / "hermesd.yaml")
    broker = BrokerSettings.from_dict(_through_a_frame(mqtt_slice(config)))
    assert (broker.host, broker.port, broker.keepalive, broker.outbox_limit, broker.tls) == \
        ("127.0.0.1", 1883, 30.0, 1000, None)
    topics = broker.topics
    assert topics.names == topics_of(config)
    assert topics.names.set_filter == "plant/test/+/set" and topics.talk is None
    assert "z2m/lamp/set" in topics.protected
    sent = _through_a_frame(device_slice(config.devices["lamp1"]))
    assert MqttDeviceSettings.from_dict(sent).to_dict() == dict(config.devices["lamp1"].params)
    lamp = MqttPointSettings.from_dict(sent["points"]["lamp"])
    watts = MqttPointSettings.from_dict(sent["points"]["watts"])
    assert (lamp.type, lamp.payload_on, lamp.payload_off, lamp.qos, lamp.confirm) == \
        ("bool", "on", "OFF", 0, True)
    assert (watts.type, watts.command_topic, watts.qos) == ("float", None, 1)


@pytest.mark.parametrize(("obj", "message"), [
    ({"transport": "tcp", "port": 502, "unit": "1"},
     r"devices\.plc\.unit: expected an integer, got '1'"),
    ({"transport": "tcp", "port": 502, "single_write": 1},
     r"devices\.plc\.single_write: expected true or false, got 1"),
    ({"port": 502}, r"devices\.plc\.transport: required"),
    ({"transport": "tcp", "port": None}, r"devices\.plc\.port: expected an integer or a string"),
])
def test_a_wrong_setting_is_refused_by_name(obj: dict[str, Any], message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        ModbusDeviceSettings.from_dict(obj, "devices.plc")
