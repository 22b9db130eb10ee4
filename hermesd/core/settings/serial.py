"""The settings of a `driver: serial` line-protocol instrument and of its points, as the
config checked them (hermesd/config/drivers/serial.py builds them) and as the serial tool and
the plant simulator read them back from the configure message. The defaults here are the
config's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermesd.core.settings import settings_dict, settings_of


@dataclass(frozen=True)
class SerialDeviceSettings:
    """The port and how lines are framed and coded on it."""

    port: str  # a device path (best /dev/serial/by-id/...) or socket://, rfc2217:// URL
    baudrate: int = 9600
    bytesize: int = 8
    parity: str = "N"  # N, E, O, M, S
    stopbits: int | float = 1  # 1, 1.5, 2
    terminator: str = "\r\n"  # ends each line the device sends
    encoding: str = "ascii"  # of the text on the line
    max_line: int = 256  # bytes of a line without its terminator; a longer one is an error

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "device") -> SerialDeviceSettings:
        return settings_of(cls, obj, where)


@dataclass(frozen=True)
class SerialPointSettings:
    """How a point's value is asked for, found in a line, and written."""

    pattern: str  # a regular expression with a (?P<value>...) group
    type: str = "float"  # float | int | string | bool: how the captured text is read
    query: str | None = None  # sent to ask; None: the device streams lines
    scale: float = 1.0
    offset: float = 0.0
    command: str | None = None  # write template with {value}
    ack: str | None = None  # a line (regular expression) that acknowledges a command
    true_text: str = "1"
    false_text: str = "0"
    min_event_interval: float = 0.5  # streamed points: at most one value event per interval

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "point") -> SerialPointSettings:
        return settings_of(cls, obj, where)
