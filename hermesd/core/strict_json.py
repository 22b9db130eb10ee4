"""Strict JSON for every input hermesd and its tools take: RFC 8259 and nothing looser.

Python's `json` accepts more than JSON: `NaN`, `Infinity`, numbers too large for a float (which
become `inf`, with or without an exponent), lone UTF-16 surrogate escapes (`"\\udcff"`, a string
no UTF-8 encoder will take), nesting deep enough to exhaust the interpreter's stack, and an
object that names one key twice (the last one silently wins: `{"point": "a", "point": "x"}`
reads x, while a reader that keeps the first, or a person, sees a). Any of
these, let in at one edge, fails later somewhere else (an audit writer, an answer encoder) where
it can hurt more than the one request. So do integers of hundreds of digits, which Python holds
but which no device value, id or timeout can be and which overflow the first float() they meet:
integers are taken only within 64 bits (INT_MIN..INT_MAX, int64 and uint64 together). `loads`
refuses them all with a `ProtocolError` that says what was wrong; `dumps` never writes anything
`loads` would refuse. Pure functions, no I/O; shared by the daemon and the tools. Every frame
passes here, so it stays fast: refusing repeated keys costs one C-level dict build per object
(`scripts/bench/strict_json.py` measures it against the same decoding without it).
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from hermesd.core.errors import ProtocolError

MAX_DEPTH = 64  # arrays and objects nested deeper than any message of ours
INT_MIN = -(2**63)  # the smallest integer taken (int64)
INT_MAX = 2**64 - 1  # the largest (uint64)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: a number that might not fit: an exponent, or 19 digits in a row (every integer outside
#: INT_MIN..INT_MAX, and every decimal too large for a float, has them; strings may too)
_MAYBE_LARGE = re.compile(r"[0-9](?:[eE]|[0-9]{18})")  # one class first: twice as fast
#: a run of 19 digits (an integer past 64 bits may be in the text) shows as 19 nines once every
#: digit is a nine: ten times faster than a regular expression on a long text
_DIGITS_TO_NINES = str.maketrans("0123456789", "9" * 10)
_NINETEEN_NINES = "9" * 19
#: the same on UTF-8 bytes: several times faster again (no digit is part of a multi-byte
#: character, so the runs are the same); `encode` checks the bytes it returns anyway
_BYTE_DIGITS_TO_NINES = bytes.maketrans(b"0123456789", b"9" * 10)
_NINETEEN_NINE_BYTES = b"9" * 19
#: ... and for what `loads` asks of the bytes of a frame, in one pass: digits as nines and E as
#: e (a number that may not fit shows "9e" or nineteen nines: `_MAYBE_LARGE`), [ as { (the
#: brackets that may nest too deep). Searched with find/count: `in` on bytes first tries the
#: needle as a byte value and pays for the TypeError
_BYTE_MARKS = bytes.maketrans(b"0123456789E[", b"9" * 10 + b"e{")


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not allowed")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"number {_head(text)} is too large")
    return value


def _bounded(text: str) -> int:
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise ProtocolError(f"integer {_head(text)} is outside 64 bits")
    return value


def _head(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:20]}… ({len(text)} characters)"


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ProtocolError(f"duplicate key {_head(json.dumps(key))} in an object")
            seen.add(key)
    return obj


_PLAIN = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_unique)
_CHECKED = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite,
                            parse_int=_bounded, object_pairs_hook=_unique)
#: for a text with an exponent but no run of 19 digits (a hex trace id's "4e5f" looks like
#: one): its integers have 18 digits at most, within 64 bits, and only a float may not fit
_FLOATS_CHECKED = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite,
                                   object_pairs_hook=_unique)
_WHITESPACE = re.compile(r"[ \t\n\r]*").match  # JSON's whitespace, as json.decoder's


def _decode(decoder: json.JSONDecoder, text: str) -> Any:
    """`decoder.decode(text)`, its scanner called directly: the same value and the same
    errors, without two Python frames around it on every frame that comes in."""
    start = _WHITESPACE(text, 0).end()  # type: ignore[union-attr]  # `*` always matches
    try:
        value, end = decoder.scan_once(text, start)  # type: ignore[attr-defined]
    except StopIteration as err:
        raise json.JSONDecodeError("Expecting value", text, err.value) from None
    end = _WHITESPACE(text, end).end()  # type: ignore[union-attr]
    if end != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return value


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """The value of one JSON text; ProtocolError if it is not strict JSON.

    The error's message says only what is wrong ("NaN is not allowed"); callers say what it
    was wrong in ("frame is not valid JSON: ...").
    """
    if isinstance(data, str):
        text = data
        if _SURROGATE.search(text):
            raise ProtocolError("text holds a lone surrogate, which is not Unicode")
        deep = text.count("[") + text.count("{") > MAX_DEPTH
        decoder = _CHECKED if _MAYBE_LARGE.search(text) else _PLAIN
    else:
        raw = bytes(data)
        try:
            text = raw.decode("utf-8")  # strict: no surrogates, no broken sequences
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"not UTF-8 (byte {exc.start})") from None
        # the same two questions of the bytes (no digit or bracket is part of a multi-byte
        # character): a third of the regular expression's time on a frame
        marks = raw.translate(_BYTE_MARKS)
        deep = marks.count(b"{") > MAX_DEPTH
        if marks.find(_NINETEEN_NINE_BYTES) >= 0:
            decoder = _CHECKED
        elif marks.find(b"9e") >= 0:
            decoder = _FLOATS_CHECKED  # no Python call per integer (a call frame has two)
        else:
            decoder = _PLAIN
    if deep:
        _check_depth(text)
    try:
        value = _decode(decoder, text)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, and ints past Python's digit limit
        raise ProtocolError(str(exc)) from None
    if "\\" in text and _SURROGATE_ESCAPE.search(text):  # (no escape in most frames)
        _check_strings(value)
    return value


#: what `json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)` builds
#: anew on every call; every frame passes here (a control answer, a tool call, an MQTT payload)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
#: ... and its C encoder, which `JSONEncoder.encode` also makes anew on every call. No cycle
#: check (markers None): a cycle ends in RecursionError, refused like any other value
_C_ENCODE = c_make_encoder(None, _ENCODER.default, encode_basestring, None, ":", ",", False,
                           False, False) if c_make_encoder is not None else None


def _encoded(value: Any) -> str:
    if _C_ENCODE is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def _text(value: Any) -> str:
    """Compact JSON text of `value`, lone surrogates refused; integers not checked yet."""
    try:
        text = _encoded(value)
    except (ValueError, TypeError, RecursionError) as exc:
        raise ProtocolError(f"cannot be written as JSON: {exc}") from None
    # ASCII text holds no surrogate, so the scan of the whole text is mostly skipped
    if not text.isascii() and _SURROGATE.search(text):
        raise ProtocolError("cannot be written as JSON: a string holds a lone surrogate")
    return text


def dumps(value: Any) -> str:
    """Compact JSON text of `value`; ProtocolError if it holds anything JSON cannot say."""
    text = _text(value)
    if _NINETEEN_NINES in text.translate(_DIGITS_TO_NINES):
        _check_ints(value)
    return text


def encode(value: Any) -> bytes:
    """`dumps` as UTF-8 bytes."""
    if value.__class__ is dict and _C_ENCODE is not None:
        # `_text(value)` of an object (every frame's), without its two Python calls
        try:
            text = "".join(_C_ENCODE(value, 0))
        except (ValueError, TypeError, RecursionError) as exc:
            raise ProtocolError(f"cannot be written as JSON: {exc}") from None
        if not text.isascii() and _SURROGATE.search(text):
            raise ProtocolError("cannot be written as JSON: a string holds a lone surrogate")
        raw = text.encode()
    else:
        raw = _text(value).encode()
    if raw.translate(_BYTE_DIGITS_TO_NINES).find(_NINETEEN_NINE_BYTES) >= 0:
        _check_ints(value)
    return raw


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: no backtracking
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the parser recurses into it.

    Strings are taken out first (a bracket in a string nests nothing), then only the brackets
    are counted: a few C-level passes, not a Python loop over every character (a tool's
    `values` event of 200 points has hundreds of brackets and tens of kilobytes of text)."""
    brackets = _BRACKETS.findall(_STRING.sub("", text))
    if max(accumulate(_STEP[b] for b in brackets), default=0) > MAX_DEPTH:
        raise ProtocolError(f"nested deeper than {MAX_DEPTH} levels")


def _check_strings(value: Any) -> None:
    """A decoded surrogate escape must have been half of a valid pair."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise ProtocolError("a string holds a lone surrogate escape, which is not Unicode")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _check_ints(value: Any) -> None:
    """Every integer in `value` is within INT_MIN..INT_MAX (what `loads` takes)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            if not INT_MIN <= item <= INT_MAX:
                raise ProtocolError(f"cannot be written as JSON: integer {_head(str(item))} "
                                    "is outside 64 bits")
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
