"""Keys of `driver: mqtt` devices: points that live on MQTT topics of other clients."""

from __future__ import annotations

import re

from hermesd.config.drivers import DeviceKeys, PointKeys
from hermesd.config.reader import Section

KINDS = ("float", "int", "string", "bool")
TOPIC = re.compile(r"[^#+\x00]+")


def read_device(s: Section) -> DeviceKeys:
    params = {
        "availability_topic": s.text("availability_topic", None, pattern=TOPIC,
                                     what="a topic without wildcards"),
        "payload_available": s.text("payload_available", "online"),
        "payload_not_available": s.text("payload_not_available", "offline"),
    }
    timeout = s.duration("timeout", 2.0, min=0.01, max=60)
    return DeviceKeys(params, None, timeout)


def read_point(s: Section, device: DeviceKeys) -> PointKeys:
    state = s.text("state_topic", None, pattern=TOPIC, what="a topic without wildcards")
    command = s.text("command_topic", None, pattern=TOPIC, what="a topic without wildcards")
    if state is None and command is None and not s.has("state_topic"):
        s.problem("state_topic", "is required (or a command_topic for a write-only point)")
    kind = s.choice("type", KINDS, "float")
    params = {
        "state_topic": state, "command_topic": command, "type": kind,
        "payload_on": s.text("payload_on", "ON"), "payload_off": s.text("payload_off", "OFF"),
        "qos": s.choice("qos", (0, 1, 2), 1), "retain": s.flag("retain", False),
        "confirm": s.flag("confirm", state is not None),  # wait for the state after a write
    }
    keys = PointKeys(kind or "float", params)
    if command is None:
        keys.writable_ok = False
        keys.why_not_writable = "a writable MQTT point needs a `command_topic`"
    return keys
