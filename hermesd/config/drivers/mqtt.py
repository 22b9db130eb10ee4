"""Keys of `driver: mqtt` devices: points that live on MQTT topics of other clients."""

from __future__ import annotations

import re

from hermesd.config.drivers import DeviceKeys, PointKeys
from hermesd.config.reader import Section
from hermesd.core.settings.mqtt import MqttDeviceSettings, MqttPointSettings

KINDS = ("float", "int", "string", "bool")
TOPIC = re.compile(r"[^#+\x00]+")
#: up to 8 keys of printable text without dots, joined by dots (a key of digits also indexes a
#: list); a key as JSON objects spell it, not an expression
_KEY = r"[^.\x00-\x1f\x7f]{1,64}"
VALUE_KEY = re.compile(rf"{_KEY}(?:\.{_KEY}){{0,7}}")
COMMAND_KEY = re.compile(r"[^\x00-\x1f\x7f]{1,64}")


def read_device(s: Section) -> DeviceKeys:
    d = MqttDeviceSettings  # its fields' defaults are the keys' defaults
    settings = MqttDeviceSettings(
        availability_topic=s.text("availability_topic", None, pattern=TOPIC,
                                  what="a topic without wildcards"),
        payload_available=s.text("payload_available", d.payload_available),
        payload_not_available=s.text("payload_not_available", d.payload_not_available))
    timeout = s.duration("timeout", 2.0, min=0.01, max=60)
    return DeviceKeys(settings.to_dict(), None, timeout)


def read_point(s: Section, device: DeviceKeys) -> PointKeys:
    state = s.text("state_topic", None, pattern=TOPIC, what="a topic without wildcards")
    command = s.text("command_topic", None, pattern=TOPIC, what="a topic without wildcards")
    if command is not None and command.startswith("$"):
        s.problem("command_topic", f"{command!r} begins with $: such topics are the broker's "
                                   "own ($SYS), and a write published there would be dropped")
    if state is None and command is None and not s.has("state_topic"):
        s.problem("state_topic", "is required (or a command_topic for a write-only point)")
    p = MqttPointSettings  # its fields' defaults are the keys' defaults
    kind = s.choice("type", KINDS, p.type)
    settings = MqttPointSettings(
        state_topic=state, command_topic=command, type=kind,
        payload_on=s.text("payload_on", p.payload_on),
        payload_off=s.text("payload_off", p.payload_off),
        qos=s.choice("qos", (0, 1, 2), p.qos), retain=s.flag("retain", p.retain),
        # wait for the state after a write (there is none to wait for without a state topic)
        confirm=s.flag("confirm", p.confirm and state is not None),
        value_key=s.text("value_key", None, pattern=VALUE_KEY,
                         what='a dotted path of keys, e.g. "temperature" or "ENERGY.Power"'),
        command_key=s.text("command_key", None, pattern=COMMAND_KEY,
                           what='a key of the JSON object a write publishes, e.g. "state"'))
    if settings.value_key is not None and state is None:
        s.problem("value_key", "reads the state, and the point has no `state_topic`")
    if settings.command_key is not None and command is None:
        s.problem("command_key", "shapes a write, and the point has no `command_topic`")
    keys = PointKeys(kind or "float", settings.to_dict())
    if command is None:
        keys.writable_ok = False
        keys.why_not_writable = "a writable MQTT point needs a `command_topic`"
    return keys
