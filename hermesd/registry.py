"""The point registry: every configured point by id, name and alias, and the tool that serves it.

It is rebuilt from each (re)loaded config and never changed in place. Lookups by name are
case- and space-insensitive; the router builds its richer matching on top of `labels()`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from hermesd.config.model import Config, Device, Point
from hermesd.errors import ErrorCode, Rejected, UnknownPoint

#: how many poll intervals without a fresh value make a polled value stale, by default
DEFAULT_MAX_AGE_POLLS = 3


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

    def device_of(self) -> dict[str, str]:
        return {pid: p.device for pid, p in self.points.items()}


def effective_max_age(point: Point, device: Device) -> float | None:
    """A point's own max_age, else a few poll intervals of its device, else none (event-fed)."""
    if point.max_age is not None:
        return point.max_age
    if device.poll_interval is not None:
        return DEFAULT_MAX_AGE_POLLS * device.poll_interval + device.timeout
    return None


# -- values -------------------------------------------------------------------------------

_TRUE = {"true", "on", "1", "yes", "open", "start", "enable", "enabled", "high"}
_FALSE = {"false", "off", "0", "no", "close", "closed", "stop", "disable", "disabled", "low"}


def coerce_value(point: Point, value: Any) -> Any:
    """The value as the point's kind, from JSON or command-line text; Rejected if it is not one."""
    kind = point.kind
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, int | float) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise Rejected(f"{point.id} is on/off: {_show(value)} is not true/false/on/off",
                       code=ErrorCode.OUT_OF_RANGE)
    if kind in ("int", "float"):
        number = value
        if isinstance(value, str):
            try:
                number = float(value.strip())
            except ValueError:
                raise Rejected(f"{point.id} takes a number, not {_show(value)}",
                               code=ErrorCode.OUT_OF_RANGE) from None
        if isinstance(number, bool) or not isinstance(number, int | float) \
                or not math.isfinite(number):
            raise Rejected(f"{point.id} takes a number, not {_show(value)}",
                           code=ErrorCode.OUT_OF_RANGE)
        if kind == "int":
            if float(number) != int(number):
                raise Rejected(f"{point.id} takes whole numbers, not {_show(value)}",
                               code=ErrorCode.OUT_OF_RANGE)
            return int(number)
        return float(number)
    if not isinstance(value, str):
        raise Rejected(f"{point.id} takes text, not {_show(value)}", code=ErrorCode.OUT_OF_RANGE)
    return value


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def format_value(point: Point, value: Any) -> str:
    """A value as a person reads it: on/off, numbers to two decimals at most, with the unit."""
    if point.kind == "bool" or isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        text = f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}".rstrip("0").rstrip(".")
    else:
        text = str(value)
    return f"{text} {point.unit}" if point.unit else text
