"""Keys of `driver: serial` line-protocol instruments and their points.

Device: `port` (a path, best a stable `/dev/serial/by-id/...` link, or `socket://HOST:PORT`,
`rfc2217://HOST:PORT`), `baudrate`, `bytesize`, `parity` (N|E|O|M|S), `stopbits`, `terminator`
(ends each line the device sends; default CR LF), `encoding` (of the text on the line; default ascii),
`max_line` (bytes; a longer line is an error, not a value), `timeout` (for one answer),
`poll_interval` (of the query points).
Point: `query` (sent to ask; without it the device streams lines), `pattern` (a regular
expression with a `(?P<value>...)` group), `type` (float|int|string|bool), `scale`, `offset`,
`true_text`/`false_text` (bool), `min_event_interval` (streamed points: at most one value event
per interval), `command` (write template with `{value}`, optionally `{value:.1f}`), `ack` (the
line that acknowledges a command).

Bytes that go on the wire (`terminator`, `query`, `command`) are written in YAML double quotes so
that `\\r\\n` becomes a carriage return and a line feed; a literal backslash escape (single quotes)
is reported, never sent as it stands. Nothing here opens a port.
"""

from __future__ import annotations

import codecs
import re
import string
from typing import Any

from hermesd.config.drivers import DeviceKeys, PointKeys, scaled_kind
from hermesd.config.reader import MISSING, Section, describe
from hermesd.core.settings.serial import SerialDeviceSettings, SerialPointSettings

KINDS = ("float", "int", "string", "bool")
#: what a backslash escape looks like when YAML did not turn it into the character
_LITERAL_ESCAPE = re.compile(r"\\[rnt0]|\\x[0-9a-fA-F]{2}")


def read_device(s: Section) -> DeviceKeys:
    d = SerialDeviceSettings  # its fields' defaults are the keys' defaults
    params: dict[str, Any] = {
        "port": s.text("port", required=True),  # a path (prefer /dev/serial/by-id/...) or URL
        "baudrate": s.integer("baudrate", d.baudrate, min=50, max=4_000_000),
        "bytesize": s.choice("bytesize", (5, 6, 7, 8), d.bytesize),
        "parity": s.choice("parity", ("N", "E", "O", "M", "S"), d.parity),
        "stopbits": s.choice("stopbits", (1, 1.5, 2), d.stopbits),
        "terminator": _wire(s, "terminator", d.terminator),
        "encoding": s.text("encoding", d.encoding),
        "max_line": s.integer("max_line", d.max_line, min=8, max=65536),  # longer: an error
    }
    encoding = params["encoding"]
    if isinstance(encoding, str):
        try:
            codecs.lookup(encoding)
        except LookupError:
            s.problem("encoding", f"{encoding!r} is not a known text encoding")
            params["encoding"] = d.encoding  # so the points' checks below can still run
    _wire_text(s, "terminator", params["terminator"], params["encoding"])
    port = params["port"]
    if isinstance(port, str) and "://" in port and \
            not port.startswith(("socket://", "rfc2217://", "loop://")):
        s.problem("port", f"{port!r}: a URL port is socket://HOST:PORT or rfc2217://HOST:PORT")
    poll = s.duration("poll_interval", 5.0, min=0.05)
    timeout = s.duration("timeout", 1.0, min=0.01, max=60)
    return DeviceKeys(SerialDeviceSettings(**params).to_dict(), poll, timeout)


def read_point(s: Section, device: DeviceKeys) -> PointKeys:
    p = SerialPointSettings  # its fields' defaults are the keys' defaults
    encoding = device.params.get("encoding") or SerialDeviceSettings.encoding
    query = _wire(s, "query", None)  # sent to ask for a value; absent: the device streams lines
    _wire_text(s, "query", query, encoding)
    pattern = s.text("pattern", required=True)
    _regex(s, "pattern", pattern, need_value=True)
    kind = s.choice("type", KINDS, p.type)
    scale = s.number("scale", p.scale, nonzero=True)
    offset = s.number("offset", p.offset)
    command = _wire(s, "command", None)  # template for writes, e.g. "SET {value}\r\n"
    if isinstance(command, str):
        _template(s, command, kind or p.type)
        _wire_text(s, "command", command, encoding)
    ack = s.text("ack", None)  # a line that confirms a command was taken, e.g. '^OK$'
    _regex(s, "ack", ack, need_value=False)
    if ack is not None and command is None:
        s.problem("ack", "only a point with a `command` waits for an acknowledgement")
    params: dict[str, Any] = {
        "query": query, "pattern": pattern, "type": kind, "scale": scale, "offset": offset,
        "command": command, "ack": ack, "true_text": s.text("true_text", p.true_text),
        "false_text": s.text("false_text", p.false_text),
        "min_event_interval": s.duration("min_event_interval", p.min_event_interval)}
    if kind == "bool" and params["true_text"] == params["false_text"]:
        s.problem("false_text", "true_text and false_text must differ")
    keys = PointKeys(scaled_kind(kind, scale or 1.0, offset or 0.0) if kind in
                     ("int", "float") else (kind or "float"), SerialPointSettings(**params).to_dict())
    if command is None:
        keys.writable_ok = False
        keys.why_not_writable = "a writable serial point needs a `command` template"
    return keys


def _wire(s: Section, key: str, default: str | None) -> str | None:
    """Text sent or matched on the wire: any non-empty text, a lone "\r" included."""
    value = s.raw(key, MISSING)
    if value is MISSING:
        return default
    if isinstance(value, str) and value:
        return value
    s.problem(key, f"expected non-empty text, got {describe(value)}")
    return default


def _regex(s: Section, key: str, pattern: object, *, need_value: bool) -> None:
    if not isinstance(pattern, str):
        return
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        s.problem(key, f"is not a valid regular expression: {exc}")
        return
    if need_value and "value" not in compiled.groupindex:
        s.problem(key, "needs a named group `(?P<value>...)` that captures the value")


#: the widest field or precision a command template's format may ask for
MAX_FORMAT_WIDTH = 64


def _template(s: Section, command: str, kind: str) -> None:
    """A command template holds `{value}` (optionally with a format spec) and nothing else."""
    try:
        parsed = [(f, spec or "") for _, f, spec, _ in string.Formatter().parse(command)
                  if f is not None]
    except ValueError as exc:
        s.problem("command", f"is not a valid template ({exc}); write a literal brace as {{{{ or }}}}")
        return
    if any("{" in spec for _, spec in parsed):
        # "{value:>{value}}": a width the value itself gives, past any bound (atk24s, #6)
        s.problem("command", "the format of {value} may not hold another field: its width "
                             "and precision are numbers written in the template")
        return
    fields = [f for f, _ in parsed]
    widest = max((int(n) for _, spec in parsed for n in re.findall(r"\d+", spec)), default=0)
    if widest > MAX_FORMAT_WIDTH:
        # "{value:>900000000}" made the check (and each write) build 900 MB (review atk20s, #17)
        s.problem("command", f"a width or precision of {widest} in the format of {{value}} is "
                             f"more than a device line takes (at most {MAX_FORMAT_WIDTH})")
        return
    if "value" not in fields:
        s.problem("command", "a command template must contain {value}")
        return
    others = sorted({f for f in fields if f != "value"})
    if others:
        s.problem("command", f"a command template may only use {{value}}, not {{{others[0]}}}")
        return
    sample: object = {"float": 1.5, "int": 1, "bool": "1", "string": "x"}.get(kind, 1)
    try:
        command.format(value=sample)
    except (ValueError, TypeError) as exc:
        s.problem("command", f"the format of {{value}} does not suit a {kind} value: {exc}")


def _wire_text(s: Section, key: str, text: object, encoding: object) -> None:
    if not isinstance(text, str):
        return
    if _LITERAL_ESCAPE.search(text):
        s.problem(key, f"{text!r} holds a literal backslash escape; write it in double quotes "
                       f"(e.g. \"W\\r\\n\") so YAML turns it into the control character")
    if isinstance(encoding, str):
        try:
            text.encode(encoding)
        except (UnicodeEncodeError, LookupError):
            s.problem(key, f"{text!r} cannot be sent in the device's encoding {encoding}")
