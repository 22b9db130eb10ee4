"""Pure conversion between Modbus registers (or bits) and point values, both ways.

A `Layout` says how a point sits in its registers: its type, word order (which register holds the
most significant word), byte order (which byte of a register comes first), scale and offset
(value = raw × scale + offset), the length of a string and the bit of a bool packed in a
register. Some points hold only part of one register: a bool's `bit`, an 8-bit half (`int8`,
`uint8` with `byte: high|low`, the register's bits 8-15 or 0-7 whatever the byte order), a
field (`mask`, `shift`: raw = (register & mask) >> shift). `decode` and `encode` are pure
functions over lists of 16-bit register values; they do no I/O and never guess: a value that
its registers cannot hold exactly raises `CodecError`. A part of a register is written by
`merge` into the register's current value (the tool reads it first).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hermesd.core.strict_json import INT_MAX, INT_MIN

#: registers each fixed-size type occupies
WORDS = {"int8": 1, "uint8": 1, "int16": 1, "uint16": 1, "int32": 2, "uint32": 2, "int64": 4,
         "uint64": 4, "float32": 2, "float64": 4}
#: struct formats of the types stored in whole registers, big-endian
_FORMATS = {"int16": ">h", "uint16": ">H", "int32": ">i", "uint32": ">I", "int64": ">q",
            "uint64": ">Q", "float32": ">f", "float64": ">d"}
#: the raw range each integer type can hold
INT_RANGE = {"int8": (-(2**7), 2**7 - 1), "uint8": (0, 2**8 - 1),
             "int16": (-(2**15), 2**15 - 1), "uint16": (0, 2**16 - 1),
             "int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1),
             "int64": (-(2**63), 2**63 - 1), "uint64": (0, 2**64 - 1)}
BYTE_MASK = {"high": 0xFF00, "low": 0x00FF}
FLOAT32_MAX = 3.4028234663852886e38
#: how close to a whole number a scaled value must come to be written to an integer register
_WHOLE = 1e-6


class CodecError(ValueError):
    """A value that cannot be represented in (or read from) its registers."""


@dataclass(frozen=True, slots=True)
class Layout:
    type: str  # bool | int16 | uint16 | int32 | uint32 | float32 | float64 | string
    word_order: str = "big"  # big: the first register holds the most significant word
    byte_order: str = "big"  # big: the high byte of each register comes first
    scale: float = 1.0
    offset: float = 0.0
    length: int | None = None  # registers of a string (two bytes each)
    bit: int | None = None  # a bool packed in a holding or input register: its bit 0..15
    byte: str | None = None  # int8/uint8: the half of the register, high (bits 8-15) or low
    mask: int | None = None  # a field of a uint16: its bits (one run, e.g. 0x0F00)
    shift: int | None = None  # ...and how far its raw value is shifted (default: lowest bit)

    @property
    def part(self) -> int | None:
        """The bits of its one register the point holds (None: whole registers); a write of
        such a point is merged into the register's current value."""
        if self.type == "bool" and self.bit is not None:
            return 1 << self.bit
        if self.byte is not None:
            return BYTE_MASK[self.byte]
        return self.mask

    @property
    def field_shift(self) -> int:
        part = self.part or 1
        if self.byte is not None or self.shift is None:
            return (part & -part).bit_length() - 1
        return self.shift

    @property
    def words(self) -> int:
        """Registers (or, for a bool in a bit table, bits) the point occupies."""
        if self.type == "string":
            return self.length or 1
        return WORDS.get(self.type, 1)

    @property
    def integral(self) -> bool:
        """Whether decoded values are whole numbers (an integer type, whole scale and offset)."""
        return self.type in INT_RANGE and float(self.scale).is_integer() \
            and float(self.offset).is_integer()

    @classmethod
    def of(cls, params: dict[str, Any]) -> Layout:
        """The layout of a point from its config params (as hermesd sends them)."""
        return cls(type=params["type"], word_order=params.get("word_order", "big"),
                   byte_order=params.get("byte_order", "big"),
                   scale=float(params.get("scale", 1.0)), offset=float(params.get("offset", 0.0)),
                   length=params.get("length"), bit=params.get("bit"), byte=params.get("byte"),
                   mask=params.get("mask"), shift=params.get("shift"))


# -- words and bytes ----------------------------------------------------------------------


def _to_bytes(registers: Sequence[int], layout: Layout) -> bytes:
    words = list(registers)
    if layout.byte_order == "little":
        words = [((w & 0xFF) << 8) | (w >> 8) for w in words]
    if layout.word_order == "little" and layout.type != "string":
        words.reverse()
    return b"".join(w.to_bytes(2, "big") for w in words)


def _from_bytes(data: bytes, layout: Layout) -> list[int]:
    words = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]
    if layout.word_order == "little" and layout.type != "string":
        words.reverse()
    if layout.byte_order == "little":
        words = [((w & 0xFF) << 8) | (w >> 8) for w in words]
    return words


def _check_registers(registers: Sequence[int], count: int) -> None:
    if len(registers) != count:
        raise CodecError(f"expected {count} registers, got {len(registers)}")
    for r in registers:
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 0xFFFF:
            raise CodecError(f"register value {r!r} is not 0..65535")


# -- raw values (before scale and offset) -------------------------------------------------


def decode_raw(registers: Sequence[int], layout: Layout) -> int | float | str | bool:
    """The raw value in `registers` (exactly `layout.words` of them)."""
    if layout.type == "bool":
        if layout.bit is None:
            raise CodecError("a bool in a register needs its bit")
        _check_registers(registers, 1)
        return bool((registers[0] >> layout.bit) & 1)
    _check_registers(registers, layout.words)
    part = layout.part
    if part is not None:
        raw = (registers[0] & part) >> layout.field_shift
        if layout.type == "int8" and raw >= 0x80:
            raw -= 0x100
        return raw
    data = _to_bytes(registers, layout)
    if layout.type == "string":
        return data.rstrip(b"\x00").decode("utf-8", errors="replace").rstrip()
    fmt = _FORMATS.get(layout.type)
    if fmt is None:
        raise CodecError(f"unknown type {layout.type!r}")
    value: int | float = struct.unpack(fmt, data)[0]
    if layout.type == "float32":
        value = _shortest_float32(float(value))
    return value


def encode_raw(raw: int | float | str, layout: Layout) -> list[int]:
    """The registers that hold the raw value `raw`."""
    if layout.type == "string":
        if not isinstance(raw, str):
            raise CodecError(f"a string point takes text, not {raw!r}")
        data = raw.encode("utf-8")
        room = layout.words * 2
        if len(data) > room:
            raise CodecError(f"{raw!r} is {len(data)} bytes; {layout.words} registers hold {room}")
        return _from_bytes(data.ljust(room, b"\x00"), layout)
    fmt = _FORMATS.get(layout.type)
    if fmt is None or layout.part is not None:
        raise CodecError(f"a {layout.type} {_part_words(layout)}is part of a register: it is "
                         "merged into the register's value, not written alone")
    if layout.type in INT_RANGE:
        lo, hi = INT_RANGE[layout.type]
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise CodecError(f"a {layout.type} register takes whole numbers, not {raw!r}")
        if not lo <= raw <= hi:
            raise CodecError(f"raw value {raw} does not fit a {layout.type} ({lo}..{hi})")
    else:
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
            raise CodecError(f"a {layout.type} takes a finite number, not {raw!r}")
        if layout.type == "float32" and abs(raw) > FLOAT32_MAX:
            raise CodecError(f"{raw:g} is too large for a float32")
    return _from_bytes(struct.pack(fmt, raw), layout)


def _shortest_float32(value: float) -> float:
    """The shortest decimal that is the same float32: 523.4, not 523.4000244140625."""
    if not math.isfinite(value):
        return value
    bits = struct.pack(">f", value)
    for digits in range(6, 10):
        candidate = float(f"{value:.{digits}g}")
        if struct.pack(">f", candidate) == bits:
            return candidate
    return value


# -- engineering values -------------------------------------------------------------------


def _decimals(number: float) -> int:
    """Decimal places a scale or offset carries (0.1 -> 1, 0.25 -> 2), at most 10."""
    text = repr(float(number))
    if "e" in text or "E" in text:
        return 10
    return min(10, len(text.partition(".")[2].rstrip("0")))


def decode(registers: Sequence[int], layout: Layout) -> Any:
    """The point's value (scaled) from its registers.

    A float register holding NaN or an infinity decodes to that float, as read (raw register
    access shows it in words); a point's read refuses it as no measurement. A finite reading
    that scale and offset carry past what a float or a 64-bit integer holds is a CodecError:
    it is never a value, and never an OverflowError.
    """
    if layout.type == "uint16" and layout.byte_order == "big" and len(registers) == 1 \
            and layout.mask is None and type(registers[0]) is int and 0 <= registers[0] <= 0xFFFF:
        raw: Any = registers[0]  # the common case, without struct (polls decode many of them)
    else:
        raw = decode_raw(registers, layout)
    if isinstance(raw, bool | str):
        return raw
    if layout.scale == 1.0 and layout.offset == 0.0:
        return raw
    if isinstance(raw, float) and not math.isfinite(raw):
        return raw
    value = raw * layout.scale + layout.offset
    if not math.isfinite(value):
        raise CodecError(f"raw value {raw} × {layout.scale:g} + {layout.offset:g} is beyond any "
                         "number")
    if layout.integral:
        whole = round(value)
        if not INT_MIN <= whole <= INT_MAX:  # what hermesd's strict JSON carries
            raise CodecError(f"raw value {raw} × {layout.scale:g} + {layout.offset:g} is "
                             "beyond a 64-bit integer")
        return whole
    if layout.type in INT_RANGE:
        # 734 × 0.1 is 73.4, not 73.40000000000001
        return round(value, max(_decimals(layout.scale), _decimals(layout.offset)))
    return value


def _part_words(layout: Layout) -> str:
    if layout.byte is not None:
        return f"({layout.byte} byte) "
    if layout.mask is not None:
        return f"(mask 0x{layout.mask:04X}) "
    return ""


def raw_of(value: Any, layout: Layout) -> int | float:
    """The raw number for the point's value (before scale and offset are applied)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CodecError(f"{value!r} is not a number")
    plain = layout.scale == 1.0 and layout.offset == 0.0
    raw: int | float = value if plain else (value - layout.offset) / layout.scale
    if layout.type in INT_RANGE:
        whole = round(raw)
        if abs(raw - whole) > _WHOLE * max(1.0, abs(raw)):
            step = f"{layout.scale:g}"
            raise CodecError(f"{value:g} is not a whole number of steps of {step}, "
                             f"which is all the register can hold")
        raw = int(whole)
    return raw


def merge(value: Any, layout: Layout, current: int) -> int:
    """The register `current` with the point's own bits (a bool's bit, a byte, a field) set to
    `value` and every other bit as it was: the write of a part of a register."""
    part = layout.part
    if part is None:
        raise CodecError(f"a {layout.type} takes whole registers")
    if isinstance(current, bool) or not isinstance(current, int) or not 0 <= current <= 0xFFFF:
        raise CodecError(f"register value {current!r} is not 0..65535")
    if layout.type == "bool":
        if not isinstance(value, bool):
            raise CodecError(f"a bit takes true or false, not {value!r}")
        return (current | part) if value else (current & ~part & 0xFFFF)
    raw = raw_of(value, layout)
    assert isinstance(raw, int)
    if layout.type == "int8":
        if not -128 <= raw <= 127:
            raise CodecError(f"raw value {raw} does not fit an int8 (-128..127)")
        raw &= 0xFF
    shifted = raw << layout.field_shift
    if raw < 0 or shifted & ~part:
        hi = part >> layout.field_shift
        raise CodecError(f"raw value {raw} does not fit {_part_words(layout)}of its register "
                         f"(0..{hi})")
    return (current & ~part & 0xFFFF) | shifted


def encode(value: Any, layout: Layout) -> list[int]:
    """The registers for the point's value (scaled); CodecError if they cannot hold it exactly."""
    if layout.type == "bool":
        raise CodecError("a bool is written as a coil or a bit, not as registers")
    if layout.type == "string":
        return encode_raw(value, layout)
    if layout.part is not None:
        raise CodecError(f"a {layout.type} {_part_words(layout)}is part of a register: its "
                         "write is merged into the register's current value")
    return encode_raw(raw_of(value, layout), layout)


def set_bit(register: int, bit: int, on: bool) -> int:
    """`register` with `bit` set or cleared (a read-modify-write of a packed bool)."""
    if not 0 <= bit <= 15:
        raise CodecError(f"bit {bit} is not 0..15")
    return (register | (1 << bit)) if on else (register & ~(1 << bit) & 0xFFFF)
