"""What a device sends never becomes a value JSON cannot carry: NaN, infinities, overflow.

Generated: any registers under any layout (every type, word and byte order, any finite scale and
offset), and any text a serial instrument might send for a number. A Modbus point's read either
refuses it (CodecError, or DEVICE_ERROR naming it) or gives a value strict JSON carries; a serial
line either is a BadAnswer (DEVICE_ERROR) or such a value. Nothing else, and no OverflowError.
"""

from __future__ import annotations

import math
import struct
from typing import Any

from hermes_tools.modbus.codec import WORDS, CodecError, Layout, decode
from hermes_tools.modbus.device import PointDef
from hermes_tools.modbus.tool import ModbusTool
from hermes_tools.serial.points import BadAnswer, PointSpec
from hypothesis import given
from hypothesis import strategies as st

from hermesd.core import strict_json
from hermesd.core.errors import ErrorCode, ToolError

finite = st.floats(allow_nan=False, allow_infinity=False)
scales = st.one_of(st.sampled_from([1.0, 0.1, 0.01, 10.0, 1e300, -1e300, 1e-300]),
                   finite.filter(lambda x: x != 0))
numeric_types = st.sampled_from(sorted(WORDS))

# registers that hold NaN and infinities, as well as anything else
_SPECIAL32 = [math.nan, math.inf, -math.inf, 3.4028234663852886e38]
_SPECIAL64 = [math.nan, math.inf, -math.inf, 1.7976931348623157e308]


@st.composite
def registers_for(draw: st.DrawFn, layout: Layout) -> list[int]:
    count = layout.words
    if layout.type in ("float32", "float64") and draw(st.booleans()):
        fmt, specials = (">f", _SPECIAL32) if layout.type == "float32" else (">d", _SPECIAL64)
        data = struct.pack(fmt, draw(st.sampled_from(specials)))
        words = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]
        return words if layout.word_order == "big" else words[::-1]
    return draw(st.lists(st.integers(0, 0xFFFF), min_size=count, max_size=count))


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    return Layout(draw(numeric_types), word_order=draw(st.sampled_from(["big", "little"])),
                  byte_order=draw(st.sampled_from(["big", "little"])), scale=draw(scales),
                  offset=draw(st.sampled_from([0.0, -40.0, 1e308]) | finite))


def _carried(value: Any) -> bool:
    """Whether strict JSON carries `value` (what a tool frame may hold)."""
    try:
        strict_json.dumps(value)
    except Exception:
        return False
    return True


@given(st.data())
def test_modbus_registers_decode_to_a_value_json_carries_or_are_refused(data: st.DataObject) -> None:
    layout = data.draw(layouts())
    registers = data.draw(registers_for(layout))
    try:
        value = decode(registers, layout)
    except CodecError:
        return
    if isinstance(value, float) and not math.isfinite(value):
        return  # as read: a point's read refuses it (below); raw access says it in words
    assert _carried(value), value


@given(st.data())
def test_a_modbus_point_never_reads_nan_or_infinity(data: st.DataObject) -> None:
    layout = data.draw(layouts())
    registers = data.draw(registers_for(layout))
    point = PointDef(id="p", device="plc", table="holding", address=0, layout=layout,
                     kind="float")
    refused: ToolError | None = None
    try:
        value = ModbusTool()._decode(point, registers)
    except CodecError:
        return
    except ToolError as exc:
        refused = exc
    if refused is not None:
        assert refused.code == ErrorCode.DEVICE_ERROR
        assert "not a measurement" in refused.message
    else:
        assert _carried(value), value


number_texts = st.one_of(
    st.sampled_from(["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e999",
                     "1" * 400, "-" + "9" * 400, "1" * 400 + ".5", "18446744073709551616",
                     "9223372036854775807", "0", "-0", "+12.5", "1e308", "1.7976931348623157e308"]),
    st.integers(-(10**30), 10**30).map(str),
    st.floats().map(repr),
    st.text("0123456789.-+eEinfa", max_size=30))


@given(number_texts, st.sampled_from(["float", "int"]), st.sampled_from(["float", "int"]),
       scales, st.sampled_from([0.0, -40.0, 1e308]) | finite)
def test_a_serial_number_is_a_value_json_carries_or_a_bad_answer(
        text: str, kind: str, raw_type: str, scale: float, offset: float) -> None:
    spec = PointSpec.from_config("dev", "pt", {"kind": kind, "type": raw_type, "scale": scale,
                                               "offset": offset,
                                               "pattern": r"V=(?P<value>\S+)"}, "ascii")
    found = spec.match(f"V={text}")
    if found is None:
        return
    refused: BadAnswer | None = None
    try:
        value = spec.value_of(found)
    except BadAnswer as exc:
        refused = exc
    if refused is not None:
        assert refused.code == ErrorCode.DEVICE_ERROR
    else:
        assert _carried(value), value
        assert isinstance(value, int if kind == "int" else float)
