"""The device and point keys of each driver, validated into `params` for its tool.

Each driver module (listed in hermesd/config/driver_table.py) offers `read_device(section) -> DeviceKeys` and
`read_point(section, device) -> PointKeys`. The loader reads the keys every point has (name,
aliases, unit, max_age, writable, min, max, choices); a driver reads the rest and says what kind
of value its points carry and the range their type can hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hermesd.config.model import Point, ValueKind
from hermesd.config.reader import Section


@dataclass
class DeviceKeys:
    params: dict[str, Any]
    poll_interval: float | None
    timeout: float


@dataclass
class PointKeys:
    kind: ValueKind
    params: dict[str, Any] = field(default_factory=dict)
    writable_ok: bool = True  # can this point be written at all (e.g. not an input register)
    why_not_writable: str = ""
    lo: float | None = None  # the range the point's type can hold, in engineering units
    hi: float | None = None
    step: float | None = None  # the resolution a write can hold (e.g. 0.1 for a x0.1 register)
    step_origin: float = 0.0  # ...counted from here (a register's offset)


#: checks across a driver's devices: [(dotted path, keys)] -> [(dotted path, problem)]
CrossCheck = Callable[[list[tuple[str, DeviceKeys]]], list[tuple[str, str]]]
#: checks across one device's points: (dotted path of its points, {id: point}) -> problems
PointsCheck = Callable[[str, Mapping[str, Point]], list[tuple[str, str]]]


@dataclass(frozen=True)
class DriverKeys:
    read_device: Callable[[Section], DeviceKeys]
    read_point: Callable[[Section, DeviceKeys], PointKeys]
    check_devices: CrossCheck | None = None  # e.g. two devices on one serial port must agree
    check_points: PointsCheck | None = None  # e.g. two writable registers must not overlap


def scaled_kind(raw_kind: ValueKind, scale: float, offset: float) -> ValueKind:
    """An integer register with a fractional scale or offset reads as a float."""
    if raw_kind == "int" and (scale != int(scale) or offset != int(offset)):
        return "float"
    return raw_kind
