"""strict_json, the gate of every input: what it takes it can write back, and nothing looser.

Generated: strict values round-trip; a text holding any one non-standard thing (NaN, Infinity,
a number past a float or an integer past 64 bits, a lone surrogate escaped or raw, broken
UTF-8, nesting past 64) is refused with ProtocolError and nothing else; any bytes at all are
either refused that way or give a value that `dumps` writes again.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError
from hermesd.core.protocol import parse_frame
from tests.hostile.strategies import INT_MAX, INT_MIN, bad_frames, bad_json_texts, strict_values


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@given(strict_values)
def test_strict_values_round_trip(value: Any) -> None:
    assert _same(strict_json.loads(strict_json.encode(value)), value)
    assert _same(strict_json.loads(json.dumps(value)), value)  # ASCII escapes, pairs and all


@given(bad_json_texts())
def test_anything_non_standard_is_refused_as_text_and_as_bytes(text: str) -> None:
    for data in (text, text.encode()):
        with pytest.raises(ProtocolError):
            strict_json.loads(data)


@given(bad_frames())
def test_bad_frames_are_refused(frame: bytes) -> None:
    with pytest.raises(ProtocolError):
        parse_frame(frame)  # strict JSON, and an object


@given(st.binary(max_size=300))
def test_any_bytes_are_refused_or_can_be_written_back(data: bytes) -> None:
    try:
        value = strict_json.loads(data)
    except ProtocolError:
        return
    assert _same(strict_json.loads(strict_json.encode(value)), value)


@given(st.sampled_from([math.nan, math.inf, -math.inf, INT_MAX + 1, INT_MIN - 1, 10**400,
                        "\udcff", "a\ud800"]),
       st.integers(0, 3))
def test_dumps_writes_nothing_loads_would_refuse(bad: Any, depth: int) -> None:
    value: Any = bad
    for level in range(depth):
        value = [value] if level % 2 else {"k": value}
    with pytest.raises(ProtocolError):
        strict_json.dumps(value)


def test_the_integer_range_is_int64_and_uint64() -> None:
    assert strict_json.loads(f"[{INT_MIN}, {INT_MAX}]") == [INT_MIN, INT_MAX]
    with pytest.raises(ProtocolError, match="outside 64 bits"):
        strict_json.loads(str(INT_MAX + 1))
    with pytest.raises(ProtocolError, match="outside 64 bits"):
        strict_json.loads(str(INT_MIN - 1))
    # a string of digits is a string, not a number
    assert strict_json.loads('"' + "9" * 500 + '"') == "9" * 500


def test_a_long_decimal_without_exponent_is_not_infinity() -> None:
    with pytest.raises(ProtocolError, match="too large"):
        strict_json.loads('{"value": ' + "1" * 400 + ".5}")


_PIECES = st.sampled_from([
    "{", "}", "[", "]", '"', ":", ",", " ", "\t", "\n", "\r", "\x0c", "\ufeff", "\x00", "1e5",
    "-0", "0", "-", "1", "9" * 20, str(INT_MAX), str(INT_MAX + 1), str(INT_MIN - 1), "1.5e308",
    "1e309", "NaN", "Infinity", "true", "null", '"a"', '"\\ud800"', '"\\ud83d\\ude00"', '"\\',
    "é", '"k":1', '"k":2', "01", "1.", ".5", "+1", '"\\x"', "\u2028"])


def _outcome(decode: Any, text: str) -> tuple[str, Any]:
    try:
        return "value", json.dumps(decode(text))
    except ProtocolError as exc:
        return "refused", str(exc)
    except ValueError as exc:  # JSONDecodeError
        return "invalid", str(exc)
    except RecursionError:
        return "deep", None


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_the_scanner_called_directly_decodes_as_the_decoder_does(text: str) -> None:
    """`loads` calls the decoder's scanner itself, around `JSONDecoder.decode`'s two frames:
    the same value, or the same error with the same message and position, for any text."""
    for decoder in (strict_json._PLAIN, strict_json._FLOATS_CHECKED, strict_json._CHECKED):
        assert _outcome(functools.partial(strict_json._decode, decoder), text) == \
            _outcome(decoder.decode, text)


# -- the pre-check: a text is decoded the quick way (no Python call per number) unless it may
#    hold a number that does not fit; whichever way it went, the outcome must be the checked one

_STRING_PARTS = st.sampled_from([
    "0", "7", "4e5f", "3d4E", "1e400", "9" * 19, "9" * 20, "-0", "NaN", "Infinity", "x", " ",
    ":", ",", "[", "{", "}", ".", '\\"', "\\\\", "\\u0030", "\\u0065", "\\n", "\\/", "é"])
_STRINGS = st.one_of(
    st.lists(_STRING_PARTS, max_size=8).map(lambda parts: '"' + "".join(parts) + '"'),
    st.integers(0, 2**64 - 1).map(lambda n: f'"{n:016x}"'))  # trace ids, as hermesd makes them
_NUMBERS = st.one_of(
    st.sampled_from(["0", "-0", "-0.0", "1e5", "1E+2", "2.5e-3", "1e400", "-1e400", "1E400",
                     "-1E+309", "1e-400", "1.5e308", "1e309", str(INT_MAX), str(INT_MAX + 1),
                     str(INT_MIN), str(INT_MIN - 1), "9" * 19, "9" * 20, "-" + "9" * 20, "1" * 400 + ".5",
                     "0." + "1" * 25, "NaN", "Infinity", "-Infinity"]),
    st.integers(INT_MIN - 10, INT_MAX + 10).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr))
_SPACE = st.sampled_from(["", "", " ", "\n", "\t "])


@st.composite
def _texts_with_numbers(draw: st.DrawFn) -> str:
    """JSON texts of numbers of every kind among strings full of digits and escapes, often a
    tool call's frame; sometimes cut short, so the decoder stops at an error part way."""
    def joined(items: list[str], left: str, right: str) -> str:
        return left + ",".join(draw(_SPACE) + item + draw(_SPACE) for item in items) + right
    value = draw(st.recursive(
        st.one_of(_NUMBERS, _STRINGS, st.sampled_from(["true", "null"])),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(lambda items: joined(items, "[", "]")),
            st.lists(st.tuples(_STRINGS, inner), max_size=4).map(
                lambda pairs: joined([f"{k}:{v}" for k, v in pairs], "{", "}"))),
        max_leaves=12))
    if draw(st.booleans()):
        value = (f'{{"type":"call","id":{draw(_NUMBERS)},"action":"read","args":{value},'
                 f'"context":{{"trace_id":{draw(_STRINGS)},"source":"control"}},'
                 f'"deadline_ms":{draw(_NUMBERS)}}}')
    if draw(st.integers(0, 4)) == 0:
        value = value[:draw(st.integers(0, len(value)))]
    return value


@st.composite
def _one_number_among_strings(draw: st.DrawFn) -> str:
    """One number, the only thing in the text that may not fit, among strings of digits."""
    before, after = draw(st.lists(_STRINGS, max_size=3)), draw(st.lists(_STRINGS, max_size=3))
    number = draw(_NUMBERS)
    if draw(st.booleans()):
        return "[" + ",".join([*before, number, *after]) + "]"
    return "{" + ",".join(f"{k}:{draw(_STRINGS)}" for k in before) + \
        ("," if before else "") + f'"n":{draw(_SPACE)}{number}}}'


@given(st.one_of(_texts_with_numbers(), _one_number_among_strings()))
def test_the_quick_path_gives_what_the_checked_one_does(text: str) -> None:
    """Big integers and numbers past a float are refused as before, with the same message,
    however many digits, exponents and escapes the strings around them hold."""
    def verdict(decode: Any, data: str | bytes) -> tuple[str, str]:
        try:
            return "value", json.dumps(decode(data))
        except (ProtocolError, ValueError) as exc:  # the checked decoder raises either
            return "refused", str(exc)

    checked = verdict(functools.partial(strict_json._decode, strict_json._CHECKED), text)
    assert verdict(strict_json.loads, text) == checked
    assert verdict(strict_json.loads, text.encode()) == checked
