"""The device and point keys of each driver, validated into `params` for its tool.

Each driver module (listed in hermesd/config/driver_table.py) offers `read_device(section) -> DeviceKeys` and
`read_point(section, device) -> PointKeys`. The loader reads the keys every point has (name,
aliases, unit, max_age, writable, min, max, choices); a driver reads the rest and says what kind
of value its points carry and the range their type can hold.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hermesd.config.model import Deadband, Point, ValueKind
from hermesd.config.reader import Section, describe

#: the shortest poll interval of a device, a group or a point: a poll of even one block takes
#: a few milliseconds on a fast link, and a serial line at 9600 baud needs ~30 ms per request
POLL_FLOOR = 0.05


@dataclass(frozen=True)
class PollGroup:
    """A named poll group of a device (`groups:`): its points' interval and deadband."""

    poll_interval: float | None
    deadband: Deadband | None = None


@dataclass
class DeviceKeys:
    params: dict[str, Any]
    poll_interval: float | None
    timeout: float
    groups: dict[str, PollGroup] = field(default_factory=dict)  # poll groups, by name


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
    poll_interval: float | None = None  # its own (or its group's) poll interval, if it has one
    deadband: Deadband | None = None  # its group's deadband, if it has one (the point's wins)


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


def read_poll_interval(s: Section, key: str = "poll_interval", default: float | None = None,
                       ) -> float | None:
    """A poll interval: a duration no shorter than `POLL_FLOOR`."""
    seconds = s.duration(key, default, min=0.0)
    if seconds is not None and seconds < POLL_FLOOR:
        s.problem(key, f"{s.raw(key)} is shorter than the shortest poll interval "
                       f"({POLL_FLOOR * 1000:g}ms)")
        return default
    return seconds  # type: ignore[no-any-return]


#: the number of a deadband written as text ("2%"): ASCII digits, a point, an exponent
_AMOUNT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def read_deadband(s: Section, key: str = "deadband") -> Deadband | None:
    """`deadband: 0.5` (a change in the point's unit) or `deadband: 2%` (of the value last
    published); None when absent or wrong (the problem is recorded)."""
    raw = s.raw(key, None)
    if raw is None:
        return None
    what = (f"expected a change in the point's unit (e.g. 0.5) or a percentage of the last "
            f"published value (e.g. 2%), got {describe(raw)}")
    percent = isinstance(raw, str) and raw.strip().endswith("%")
    text = raw.strip().removesuffix("%").strip() if isinstance(raw, str) else raw
    if isinstance(text, bool) or not isinstance(text, int | float | str) or \
            (isinstance(text, str) and not _AMOUNT.fullmatch(text)):
        # float() would also take "1_0", "１" (fullwidth), "nan" and "infinity"
        s.problem(key, what)
        return None
    amount = float(text)
    if isinstance(raw, str) and not percent:
        s.problem(key, what)  # "0.5" in quotes is no number; "2 %" is a percentage
        return None
    if not math.isfinite(amount):
        s.problem(key, f"{raw} is not a finite number (leave the key out to publish and keep "
                       "every change)")
        return None
    if not amount > 0:
        s.problem(key, f"{raw} must be more than 0 (leave the key out to publish and keep every change)")
        return None
    if percent and amount > 100:
        s.problem(key, f"{raw} is more than 100%")
        return None
    return Deadband(amount, percent=percent)
