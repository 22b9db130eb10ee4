"""Keys of `driver: serial` line-protocol instruments and their points."""

from __future__ import annotations

import codecs
import re

from hermesd.config.drivers import DeviceKeys, PointKeys, scaled_kind
from hermesd.config.reader import Section

KINDS = ("float", "int", "string", "bool")


def read_device(s: Section) -> DeviceKeys:
    params: dict[str, object] = {
        "port": s.text("port", required=True),  # a path (prefer /dev/serial/by-id/...) or URL
        "baudrate": s.integer("baudrate", 9600, min=50, max=4_000_000),
        "bytesize": s.choice("bytesize", (5, 6, 7, 8), 8),
        "parity": s.choice("parity", ("N", "E", "O", "M", "S"), "N"),
        "stopbits": s.choice("stopbits", (1, 1.5, 2), 1),
        "terminator": s.text("terminator", "\r\n"),
        "encoding": s.text("encoding", "ascii"),
        "max_line": s.integer("max_line", 256, min=8, max=65536),  # bytes; longer is an error
    }
    encoding = params["encoding"]
    if isinstance(encoding, str):
        try:
            codecs.lookup(encoding)
        except LookupError:
            s.problem("encoding", f"{encoding!r} is not a known text encoding")
    poll = s.duration("poll_interval", 5.0, min=0.05)
    timeout = s.duration("timeout", 1.0, min=0.01, max=60)
    return DeviceKeys(params, poll, timeout)


def read_point(s: Section, device: DeviceKeys) -> PointKeys:
    query = s.text("query", None)  # sent to ask for a value; absent: the device streams lines
    pattern = s.text("pattern", required=True)
    if isinstance(pattern, str):
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            s.problem("pattern", f"is not a valid regular expression: {exc}")
        else:
            if "value" not in compiled.groupindex:
                s.problem("pattern", "needs a named group `(?P<value>...)` that captures the value")
    kind = s.choice("type", KINDS, "float")
    scale = s.number("scale", 1.0, nonzero=True)
    offset = s.number("offset", 0.0)
    command = s.text("command", None)  # template for writes, e.g. "SET {value}\r\n"
    if isinstance(command, str) and "{value}" not in command:
        s.problem("command", "a command template must contain {value}")
    params = {"query": query, "pattern": pattern, "type": kind, "scale": scale, "offset": offset,
              "command": command,
              "true_text": s.text("true_text", "1"), "false_text": s.text("false_text", "0"),
              "min_event_interval": s.duration("min_event_interval", 0.5)}
    keys = PointKeys(scaled_kind(kind or "float", scale or 1.0, offset or 0.0) if kind in
                     ("int", "float") else (kind or "float"), params)
    if command is None:
        keys.writable_ok = False
        keys.why_not_writable = "a writable serial point needs a `command` template"
    return keys
