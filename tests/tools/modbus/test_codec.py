"""Register <-> value conversion for every type and order, checked against known register images
and against pymodbus's own converters (an independent implementation)."""

from __future__ import annotations

import math
import struct
from typing import Any

import pytest
from hermes_tools.modbus.codec import (
    CodecError,
    Layout,
    decode,
    decode_raw,
    encode,
    merge,
    set_bit,
)
from pymodbus.client import AsyncModbusTcpClient

ORDERS = [("big", "big"), ("little", "big"), ("big", "little"), ("little", "little")]
DT = AsyncModbusTcpClient.DATATYPE


def _swap_bytes(words: list[int]) -> list[int]:
    return [((w & 0xFF) << 8) | (w >> 8) for w in words]


# -- known register images ------------------------------------------------------------------

@pytest.mark.parametrize(("word", "byte", "registers"), [
    ("big", "big", [0x4060, 0x0000]),
    ("little", "big", [0x0000, 0x4060]),
    ("big", "little", [0x6040, 0x0000]),
    ("little", "little", [0x0000, 0x6040]),
])
def test_float32_3_5_in_every_order(word: str, byte: str, registers: list[int]) -> None:
    layout = Layout("float32", word_order=word, byte_order=byte)
    assert encode(3.5, layout) == registers
    assert decode(registers, layout) == 3.5


@pytest.mark.parametrize(("word", "byte", "registers"), [
    ("big", "big", [0x0102, 0x0304]),
    ("little", "big", [0x0304, 0x0102]),
    ("big", "little", [0x0201, 0x0403]),
    ("little", "little", [0x0403, 0x0201]),
])
def test_uint32_byte_positions(word: str, byte: str, registers: list[int]) -> None:
    layout = Layout("uint32", word_order=word, byte_order=byte)
    assert encode(0x01020304, layout) == registers
    assert decode(registers, layout) == 0x01020304


def test_dev_plant_register_images() -> None:
    """The values plant-dev-registers.md lists, as a PLC holds them (big-endian, high word first)."""
    assert decode(encode(523.4, Layout("float32")), Layout("float32")) == 523.4
    assert decode([1250], Layout("uint16", scale=0.01)) == 12.5
    assert decode([734], Layout("uint16", scale=0.1)) == 73.4
    assert decode([245], Layout("int16", scale=0.1)) == 24.5
    assert decode([0x0010, 0x0001], Layout("uint32")) == 1048577
    assert encode(1048577, Layout("uint32")) == [0x0010, 0x0001]


# -- every type, every order, edge values, against pymodbus -----------------------------------

EDGES: dict[str, list[Any]] = {
    "int16": [0, 1, -1, 32767, -32768, 1234, -1234],
    "uint16": [0, 1, 65535, 32768, 1200],
    "int32": [0, -1, 2**31 - 1, -(2**31), 1048577, -1048577],
    "uint32": [0, 1, 2**32 - 1, 2**31, 1048577],
    "float32": [0.0, -0.0, 1.5, -1.5, 523.4, -273.15, 3.4e38, -3.4e38, 1e-38],
    "float64": [0.0, 1.5, -2.25, 1.7976931348623157e308, -1e-300, 523.4],
}


@pytest.mark.parametrize("rtype", list(EDGES))
@pytest.mark.parametrize(("word", "byte"), ORDERS)
def test_round_trip_matches_pymodbus(rtype: str, word: str, byte: str) -> None:
    layout = Layout(rtype, word_order=word, byte_order=byte)
    for value in EDGES[rtype]:
        registers = encode(value, layout)
        # pymodbus converts with the word order only; bytes inside a word stay big-endian
        theirs = AsyncModbusTcpClient.convert_to_registers(value, getattr(DT, rtype.upper()),
                                                           word_order=word)  # type: ignore[arg-type]
        if byte == "little":
            theirs = _swap_bytes(theirs)
        assert registers == theirs, (rtype, value)
        back = decode(registers, layout)
        if rtype == "float32":
            assert back == struct.unpack(">f", struct.pack(">f", value))[0] or \
                math.isclose(back, value, rel_tol=1e-7)
        else:
            assert back == value
            assert type(back) is type(value)


def test_float32_decodes_to_the_shortest_equal_decimal() -> None:
    layout = Layout("float32")
    assert decode(encode(0.1, layout), layout) == 0.1
    assert decode(encode(176.0, layout), layout) == 176.0
    assert decode(encode(-12.34, layout), layout) == -12.34


def test_float_nan_and_infinity_are_read_but_never_written() -> None:
    layout = Layout("float32")
    assert math.isnan(decode([0x7FC0, 0x0000], layout))
    assert decode([0x7F80, 0x0000], layout) == math.inf
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(CodecError):
            encode(bad, layout)
    with pytest.raises(CodecError, match="too large"):
        encode(3.5e38, layout)


# -- scale and offset -------------------------------------------------------------------------

def test_scale_and_offset_both_ways() -> None:
    layout = Layout("int16", scale=0.1, offset=-40.0)
    assert decode([0], layout) == -40.0
    assert decode([650], layout) == 25.0
    assert decode([65535], layout) == -40.1  # -1 as int16
    assert encode(25.0, layout) == [650]
    assert encode(-40.1, layout) == [65535]


def test_integral_scale_keeps_integers() -> None:
    layout = Layout("uint16", scale=10, offset=5)
    value = decode([3], layout)
    assert value == 35 and isinstance(value, int)
    assert encode(35, layout) == [3]


def test_scaled_values_that_the_register_cannot_hold_are_refused() -> None:
    layout = Layout("int16", scale=0.1)
    assert encode(24.5, layout) == [245]
    with pytest.raises(CodecError, match=r"steps of 0\.1"):
        encode(24.55, layout)
    with pytest.raises(CodecError, match="does not fit"):
        encode(3276.8, layout)
    with pytest.raises(CodecError, match="does not fit"):
        encode(-3276.9, layout)
    with pytest.raises(CodecError, match="does not fit"):
        encode(-1, Layout("uint16"))
    with pytest.raises(CodecError, match="does not fit"):
        encode(65536, Layout("uint16"))
    with pytest.raises(CodecError, match="whole"):
        encode(1.5, Layout("uint16"))
    with pytest.raises(CodecError, match="not a number"):
        encode(True, Layout("uint16"))
    with pytest.raises(CodecError, match="not a number"):
        encode("12", Layout("uint16"))


def test_scaled_float_register() -> None:
    layout = Layout("float32", scale=2.0, offset=1.0)
    assert decode(encode(11.0, layout), layout) == 11.0
    assert encode(11.0, layout) == encode(5.0, Layout("float32"))


# -- strings --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("byte", "registers"), [
    ("big", [0x4142, 0x4300, 0x0000]),
    ("little", [0x4241, 0x0043, 0x0000]),
])
def test_string_padding_and_byte_order(byte: str, registers: list[int]) -> None:
    layout = Layout("string", length=3, byte_order=byte)
    assert encode("ABC", layout) == registers
    assert decode(registers, layout) == "ABC"


def test_string_matches_pymodbus_and_strips_padding() -> None:
    layout = Layout("string", length=4)
    theirs = AsyncModbusTcpClient.convert_to_registers("HERMES", DT.STRING)
    assert encode("HERMES", layout)[:3] == theirs
    assert decode([0x4F4B, 0x2020, 0x2020, 0x0000], layout) == "OK"  # space-padded
    assert decode([0, 0, 0, 0], layout) == ""
    with pytest.raises(CodecError, match="9 bytes; 4 registers hold 8"):
        encode("TOOLONGXX", layout)
    with pytest.raises(CodecError, match="takes text"):
        encode(12, layout)


def test_string_word_order_is_ignored() -> None:
    assert encode("ABCD", Layout("string", length=2, word_order="little")) == [0x4142, 0x4344]


def test_non_utf8_bytes_are_replaced_not_fatal() -> None:
    assert decode([0xFF41], Layout("string", length=1)) == "\ufffdA"


# -- bits -------------------------------------------------------------------------------------------

def test_bool_packed_in_a_register() -> None:
    layout = Layout("bool", bit=3)
    assert decode_raw([0b1000], layout) is True
    assert decode_raw([0b0111], layout) is False
    assert decode([0xFFFF], Layout("bool", bit=15)) is True
    assert set_bit(0b0001, 3, True) == 0b1001
    assert set_bit(0xFFFF, 15, False) == 0x7FFF
    assert set_bit(0, 0, False) == 0
    with pytest.raises(CodecError):
        set_bit(0, 16, True)
    with pytest.raises(CodecError, match="coil or a bit"):
        encode(True, layout)


def test_wrong_register_counts_and_values_are_refused() -> None:
    with pytest.raises(CodecError, match="expected 2 registers, got 1"):
        decode([1], Layout("float32"))
    with pytest.raises(CodecError, match=r"not 0\.\.65535"):
        decode([70000], Layout("uint16"))
    with pytest.raises(CodecError, match=r"not 0\.\.65535"):
        decode([-1], Layout("int16"))
    with pytest.raises(CodecError, match="unknown type"):
        decode([1], Layout("int4"))


def test_layout_from_config_params() -> None:
    layout = Layout.of({"type": "string", "length": 5, "word_order": "little",
                        "byte_order": "little", "scale": 1, "offset": 0})
    assert layout.words == 5 and layout.byte_order == "little"
    assert Layout.of({"type": "float64"}).words == 4
    assert Layout.of({"type": "bool", "bit": 2}).words == 1


# -- 64-bit integers, bytes and fields --------------------------------------------------------

@pytest.mark.parametrize(("rtype", "value", "words"), [
    ("uint64", 2**64 - 1, [0xFFFF] * 4),
    ("uint64", 12_345_678_901, [0, 0x0002, 0xDFDC, 0x1C35]),
    ("int64", -2, [0xFFFF, 0xFFFF, 0xFFFF, 0xFFFE]),
    ("int64", -(2**63), [0x8000, 0, 0, 0]),
])
def test_64_bit_counters_round_trip_exactly(rtype: str, value: int, words: list[int]) -> None:
    layout = Layout(rtype)
    assert layout.words == 4
    assert encode(value, layout) == words and decode(words, layout) == value
    little = Layout(rtype, word_order="little")
    assert encode(value, little) == words[::-1] and decode(words[::-1], little) == value


def test_64_bit_ranges_are_held_to() -> None:
    with pytest.raises(CodecError, match="does not fit a uint64"):
        encode(2**64, Layout("uint64"))
    with pytest.raises(CodecError, match="does not fit a uint64"):
        encode(-1, Layout("uint64"))
    # a scaled energy counter: Wh counts read as kWh
    assert decode([0, 0, 0, 1500], Layout("uint64", scale=0.001)) == 1.5


def test_the_two_bytes_of_a_register() -> None:
    high, low = Layout("uint8", byte="high"), Layout("int8", byte="low")
    assert decode([0x12FB], high) == 0x12 and decode([0x12FB], low) == -5
    assert merge(0xAB, high, 0x12FB) == 0xABFB  # the low byte as it was
    assert merge(-1, low, 0x1200) == 0x12FF and merge(127, low, 0x12FF) == 0x127F
    with pytest.raises(CodecError, match="does not fit an int8"):
        merge(128, low, 0)
    with pytest.raises(CodecError, match=r"high byte\) of its register \(0\.\.255\)"):
        merge(256, high, 0)
    with pytest.raises(CodecError, match="merged into the register"):
        encode(1, high)


def test_a_field_with_mask_and_shift() -> None:
    stage = Layout("uint16", mask=0x0F00)  # shift: the mask's lowest bit, 8
    assert decode([0xA5C3], stage) == 5
    assert merge(9, stage, 0xA5C3) == 0xA9C3
    with pytest.raises(CodecError, match=r"mask 0x0F00\) of its register \(0\.\.15\)"):
        merge(16, stage, 0)
    with pytest.raises(CodecError, match="whole number"):
        merge(2.5, stage, 0)
    # a field read in steps: shifted less than its lowest bit, its raw value counts in 2s
    coarse = Layout("uint16", mask=0x00F0, shift=3)
    assert decode([0x0030], coarse) == 6
    assert merge(6, coarse, 0xFF0F) == 0xFF3F
    with pytest.raises(CodecError, match="does not fit"):
        merge(5, coarse, 0)  # 5 << 3 has a bit outside the mask
    # a bit is a field too: only its own bit changes
    assert merge(True, Layout("bool", bit=15), 0x00FF) == 0x80FF
    assert merge(False, Layout("bool", bit=0), 0x00FF) == 0x00FE
    with pytest.raises(CodecError, match=r"not 0\.\.65535"):
        merge(1, stage, 70000)
