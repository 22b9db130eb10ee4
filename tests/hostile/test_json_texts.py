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
    for decoder in (strict_json._PLAIN, strict_json._CHECKED):
        assert _outcome(functools.partial(strict_json._decode, decoder), text) == \
            _outcome(decoder.decode, text)
