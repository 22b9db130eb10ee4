"""The point registry: every configured point by id, name and alias, and the tool that serves it.

It is rebuilt from each (re)loaded config and never changed in place. Lookups by name are
case- and space-insensitive; the router builds its richer matching on top of `labels()`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from hermesd.config.model import Config, Device, Point
from hermesd.core.errors import ErrorCode, Rejected, UnknownPoint
from hermesd.value_maps import canonical

#: how many poll intervals without a fresh value make a polled value stale, by default
DEFAULT_MAX_AGE_POLLS = 3
#: driver keys that say how often or how a point is asked or answered, not what its value means
#: (left out of its definition's fingerprint)
NOT_MEANING = frozenset({"poll_interval", "min_event_interval", "qos", "retain", "confirm",
                         "command_topic", "command_key"})


def fingerprint(point: Point) -> str:
    """What a value of `point` means, in a few hex digits: its device, driver, unit and driver
    keys (register, table, type, scale, topic, key, ...). A value kept under another
    fingerprint was read under another definition (another register, scale or unit) and is
    not this point's value. Names, texts, limits and value maps are not in it (a map is
    applied to a kept value anew: `ValueCache.restate`)."""
    meaning = {"device": point.device, "driver": point.driver, "unit": point.unit,
               "params": {k: v for k, v in point.params.items() if k not in NOT_MEANING}}
    text = json.dumps(meaning, sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fold(text: str) -> str:
    return " ".join(text.casefold().split())


def tool_of(device: Device) -> str:
    """The tool process that serves a device: one per driver, one per `exec` device."""
    return device.id if device.driver == "exec" else device.driver


@dataclass(frozen=True)
class Registry:
    points: Mapping[str, Point]
    devices: Mapping[str, Device]
    by_label: Mapping[str, str]  # folded name or alias -> point id
    max_ages: Mapping[str, float | None]  # effective max age of each point

    @classmethod
    def build(cls, config: Config) -> Registry:
        by_label: dict[str, str] = {}
        max_ages: dict[str, float | None] = {}
        for pid, point in config.points.items():
            for label in (pid, point.name, *point.aliases):
                by_label.setdefault(fold(label), pid)
            device = config.devices[point.device]
            max_ages[pid] = effective_max_age(point, device)
        return cls(points=config.points, devices=config.devices,
                   by_label=MappingProxyType(by_label), max_ages=MappingProxyType(max_ages))

    def __contains__(self, point: object) -> bool:
        return point in self.points

    def __iter__(self) -> Iterator[Point]:
        return iter(self.points.values())

    def get(self, point: str) -> Point:
        found = self.points.get(point)
        if found is None:
            raise UnknownPoint(point)
        return found

    def find(self, label: str) -> Point | None:
        pid = self.by_label.get(fold(label))
        return self.points[pid] if pid else None

    def tool(self, point: Point) -> str:
        return tool_of(self.devices[point.device])

    def served_by(self, tool: str) -> frozenset[str]:
        """The ids of the points `tool` serves (none for a tool that serves none)."""
        return self._served.get(tool, frozenset())

    @functools.cached_property
    def _served(self) -> dict[str, frozenset[str]]:
        # worked out once per registry: a poll's event names every point it read (a bridge's
        # 120 points each second), and each must be the sending tool's own
        served: dict[str, set[str]] = {}
        for pid, point in self.points.items():
            served.setdefault(self.tool(point), set()).add(pid)
        return {tool: frozenset(pids) for tool, pids in served.items()}

    def device_of(self) -> dict[str, str]:
        return {pid: p.device for pid, p in self.points.items()}

    def fingerprints(self) -> dict[str, str]:
        """Each point's `fingerprint`: the cache drops a value kept under another."""
        return {pid: fingerprint(p) for pid, p in self.points.items()}


def effective_max_age(point: Point, device: Device) -> float | None:
    """A point's own max_age, else a few of its poll intervals, else none (event-fed)."""
    if point.max_age is not None:
        return point.max_age
    interval = point.poll_interval or device.poll_interval  # its own, else its device's
    if interval is not None:
        return DEFAULT_MAX_AGE_POLLS * interval + device.timeout
    return None


# -- values -------------------------------------------------------------------------------

_TRUE = {"true", "on", "1", "yes", "open", "start", "enable", "enabled", "high"}
_FALSE = {"false", "off", "0", "no", "close", "closed", "stop", "disable", "disabled", "low"}
#: a number as text: ASCII digits, one optional minus, one optional decimal point. Not "1_000",
#: "1e4", "0x10", "nan", "inf", "+5", " ١٢" or "１２": Python's float() takes those, people don't
#: mean them, and a typed value must be exactly what the person typed
_TYPED_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?", re.ASCII)
_MAX_DIGITS = 4000  # beyond, int() refuses (and no point holds such a number anyway)
#: no point holds an integer beyond uint64 (the widest Modbus type): larger is out of any range
INT_LIMIT = 2**64


def coerce_value(point: Point, value: Any) -> Any:
    """The value as the point's kind, from JSON or command-line text; Rejected if it is not one.

    Numbers are taken exactly or not at all: text must be plain ASCII digits (with a minus and a
    decimal point), minus zero is no number anyone means, a float must be finite, and a number
    no point could hold (a 400-digit integer) is OUT_OF_RANGE, never an internal error.
    """
    kind = point.kind
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, int | float) and not _minus_zero(value) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise Rejected(f"{point.id} is on/off: {_show(value)} is not true/false/on/off",
                       code=ErrorCode.OUT_OF_RANGE)
    if kind in ("int", "float"):
        number = _number(point, value)
        if kind == "int":
            if isinstance(number, float):
                if not number.is_integer():
                    raise Rejected(f"{point.id} takes whole numbers, not {_show(value)}",
                                   code=ErrorCode.OUT_OF_RANGE)
                number = int(number)
            return number
        if isinstance(number, int):
            as_float = float(number)
            if int(as_float) != number:
                raise Rejected(f"{_show(value)} has more digits than {point.id} can hold "
                               "exactly", code=ErrorCode.OUT_OF_RANGE)
            return as_float
        return number
    if not isinstance(value, str):
        if point.choices:
            raise Rejected(f"{point.id} takes one of {', '.join(point.choices)}, not "
                           f"{_show(value)}", code=ErrorCode.OUT_OF_RANGE)
        raise Rejected(f"{point.id} takes text, not {_show(value)}", code=ErrorCode.OUT_OF_RANGE)
    if point.value_map:
        return canonical(point, value)  # a map's name as written in any case or language
    hidden = next((c for c in value if unicodedata.category(c) in _UNPRINTABLE), None)
    if hidden is not None:  # "a\r\nFAKE", an ESC sequence: not text a person means to write
        raise Rejected(f"{point.id} takes printable text: {_show(value)} has the control or "
                       f"format character U+{ord(hidden):04X}", code=ErrorCode.OUT_OF_RANGE)
    return canonical(point, value)  # a map's name as written in any case or language


#: Unicode categories of characters no text written to a device may hold: controls (CR, LF,
#: ESC...), invisible formatting, line and paragraph separators
_UNPRINTABLE = frozenset({"Cc", "Cf", "Zl", "Zp"})


def _number(point: Point, value: Any) -> int | float:
    """A JSON number, or text of one, exactly; Rejected otherwise."""
    number: int | float
    if isinstance(value, str):
        text = value.strip()
        if not _TYPED_NUMBER.fullmatch(text) or _minus_zero_text(text):
            raise Rejected(f"{point.id} takes a number, not {_show(value)}",
                           code=ErrorCode.OUT_OF_RANGE)
        whole, _, frac = text.lstrip("-").partition(".")
        if len(whole) > _MAX_DIGITS or len(frac) > _MAX_DIGITS:
            raise _far_out(point, value)
        if not frac:
            number = int(text)
        else:
            exact = Decimal(text)
            number = float(exact)
            if not math.isfinite(number):
                raise _far_out(point, value)
            if Decimal(repr(number)) != exact:
                raise Rejected(f"{_show(value)} has more digits than {point.id} can hold "
                               "exactly", code=ErrorCode.OUT_OF_RANGE)
    elif isinstance(value, bool) or not isinstance(value, int | float):
        raise Rejected(f"{point.id} takes a number, not {_show(value)}",
                       code=ErrorCode.OUT_OF_RANGE)
    else:
        number = value
    if isinstance(number, float) and (not math.isfinite(number) or _minus_zero(number)):
        raise Rejected(f"{point.id} takes a number, not {_show(value)}",
                       code=ErrorCode.OUT_OF_RANGE)
    if abs(number) >= INT_LIMIT:
        raise _far_out(point, value)
    return number


def _far_out(point: Point, value: Any) -> Rejected:
    return Rejected(f"{_show(value)} is outside the allowed range of {point.label()}",
                    code=ErrorCode.OUT_OF_RANGE)


def _minus_zero(value: float) -> bool:
    return value == 0 and math.copysign(1.0, value) < 0


def _minus_zero_text(text: str) -> bool:
    return text.startswith("-") and not text.strip("-0.")


def _show(value: Any) -> str:
    """A value for a message: short, and a huge integer by its length (never all its digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        try:
            return f"a {len(str(abs(value)))}-digit number"
        except ValueError:  # beyond the digits int() will write out
            return f"a number of over {_MAX_DIGITS} digits"
    text = value.strip() if isinstance(value, str) else ""
    if len(text) > 30 and re.fullmatch(r"-?[0-9]+", text, re.ASCII):
        return f"a {len(text.lstrip('-'))}-digit number"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def format_value(point: Point, value: Any, *, exact: bool = False) -> str:
    """A value as a person reads it: on/off, numbers to two decimals at most, with the unit.

    `exact`: every digit of the number (what is written or refused must not look rounded:
    30.00000000001 is not 30).
    """
    if point.kind == "bool" or isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        if exact:
            text = repr(value)
            text = text[:-2] if text.endswith(".0") else text
        elif -1 < value < 1:
            text = f"{value:.3g}"
        elif -1e15 < value < 1e15:
            text = f"{value:.2f}".rstrip("0").rstrip(".")
        else:  # (and inf, nan: as before)
            text = f"{value:.6g}"
    elif isinstance(value, int) and abs(value) >= 10**30:
        text = _show(value)
    else:
        text = str(value)
    return f"{text} {point.unit}" if point.unit else text
