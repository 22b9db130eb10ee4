"""Keys of `driver: exec` devices: a tool process of your own that speaks hermesd's protocol.

The device names the command to start (`command: [program, args...]`); each point passes its
free-form `params` mapping to that tool unchanged.
"""

from __future__ import annotations

from hermesd.config.drivers import DeviceKeys, PointKeys
from hermesd.config.reader import Section

KINDS = ("float", "int", "string", "bool")


def read_device(s: Section) -> DeviceKeys:
    command = s.texts("command")
    if not command:
        s.problem("command", "is required: the program (and arguments) of the tool to start")
    poll = s.duration("poll_interval", None, min=0.05)
    timeout = s.duration("timeout", 1.0, min=0.01, max=60)
    return DeviceKeys({"command": list(command)}, poll, timeout)


def read_point(s: Section, device: DeviceKeys) -> PointKeys:
    kind = s.choice("type", KINDS, "float")
    extra = s.raw("params", {})
    if not isinstance(extra, dict):
        s.problem("params", "expected a mapping")
        extra = {}
    return PointKeys(kind or "float", {"type": kind, **extra})
