"""The settings of a `driver: modbus` device and of its register points, as the config checked
them (hermesd/config/drivers/modbus.py builds them, README "Modbus" documents each key) and as
the modbus tool and the plant simulator read them back from the configure message.

The defaults here are the config's defaults: the config reads a missing key as the field's
default, and a tool reading a slice does the same, so there is one default per key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermesd.core.settings import settings_dict, settings_of

#: transports that reach the device over IP (`host`, `port`), and over a serial port (`port`)
NETWORK = ("tcp", "udp", "rtu_over_tcp", "rtu_over_udp")
SERIAL = ("rtu", "ascii")
TRANSPORTS = (*NETWORK, *SERIAL)
#: keys of a serial line: a network device reaches its line through a gateway and has none
LINE_KEYS = ("baudrate", "parity", "stopbits", "bytesize", "frame_gap")


def link_key(transport: object, host: object, port: object) -> tuple[object, ...]:
    """What devices share when they share a link: a TCP or UDP endpoint (a gateway), or a
    serial port (an RS-485 bus). The config checks units and framing per link; the tool
    opens one connection per link."""
    if transport in NETWORK:
        return ("udp" if transport in ("udp", "rtu_over_udp") else "tcp", host, port)
    return ("serial", port)


@dataclass(frozen=True)
class ModbusDeviceSettings:
    """One unit on one link (a TCP or UDP endpoint, or a serial port)."""

    transport: str  # one of TRANSPORTS
    port: int | str  # TCP or UDP port, or a serial device path
    unit: int = 1  # the unit (slave) id
    host: str | None = None  # network transports only
    baudrate: int = 9600  # serial transports only, like the rest of LINE_KEYS
    parity: str = "N"  # N, E, O (ASCII's default, E, is the config's choice)
    stopbits: int = 1
    bytesize: int = 8
    frame_gap: float | None = None  # None: 3.5 characters at the baud rate (RTU)
    word_order: str = "big"  # default for its points
    byte_order: str = "big"
    max_block: int = 125  # registers per request
    max_gap: int = 8  # unused registers a block may span
    retries: int = 1  # extra attempts after a garbled reply or a dropped connection
    single_write: bool = True  # false: write one register or coil with function 16/15
    backoff_max: float = 30.0  # the longest wait between tries of a silent device

    @property
    def network(self) -> bool:
        return self.transport in NETWORK

    @property
    def link(self) -> tuple[object, ...]:
        return link_key(self.transport, self.host, self.port)

    def to_dict(self) -> dict[str, Any]:
        out = settings_dict(self)
        if self.network:
            for key in LINE_KEYS:
                out.pop(key, None)
        return out

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "device") -> ModbusDeviceSettings:
        return settings_of(cls, obj, where)


@dataclass(frozen=True)
class ModbusPointSettings:
    """Where a point's value sits in its device's registers and how it is coded there."""

    table: str  # holding | input | coil | discrete
    address: int  # 0-based, as on the wire
    type: str  # one of hermesd.core.registers.TYPES
    word_order: str = "big"  # big: the first register holds the most significant word
    byte_order: str = "big"  # big: the high byte of each register comes first
    scale: float = 1.0  # value = raw * scale + offset
    offset: float = 0.0
    bit: int | None = None  # a bool packed in a holding or input register: its bit 0..15
    byte: str | None = None  # int8/uint8: the half of the register, high or low
    mask: int | None = None  # a field of a uint16: its bits (one run, e.g. 0x0F00)
    shift: int | None = None  # ...and how far its raw value is shifted
    length: int | None = None  # registers of a string
    group: str | None = None  # the device's poll group it is read with

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "point") -> ModbusPointSettings:
        return settings_of(cls, obj, where)
