"""Strict JSON for every input hermesd and its tools take: RFC 8259 and nothing looser.

Python's `json` accepts more than JSON: `NaN`, `Infinity`, numbers too large for a float (which
become `inf`), lone UTF-16 surrogate escapes (`"\\udcff"`, a string no UTF-8 encoder will take),
and nesting deep enough to exhaust the interpreter's stack. Any of these, let in at one edge,
fails later somewhere else (an audit writer, an answer encoder) where it can hurt more than the
one request. `loads` refuses them all with a `ProtocolError` that says what was wrong; `dumps`
never writes them. Pure functions, no I/O; shared by the daemon and the tools.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from hermesd.errors import ProtocolError

MAX_DEPTH = 64  # arrays and objects nested deeper than any message of ours
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_EXPONENT = re.compile(r"[0-9][eE]")


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not allowed")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"number {text[:24]} is too large")
    return value


_PLAIN = json.JSONDecoder(parse_constant=_no_constant)
_CHECKED_FLOATS = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """The value of one JSON text; ProtocolError if it is not strict JSON.

    The error's message says only what is wrong ("NaN is not allowed"); callers say what it
    was wrong in ("frame is not valid JSON: ...").
    """
    if isinstance(data, str):
        text = data
        if _SURROGATE.search(text):
            raise ProtocolError("text holds a lone surrogate, which is not Unicode")
    else:
        try:
            text = bytes(data).decode("utf-8")  # strict: no surrogates, no broken sequences
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"not UTF-8 (byte {exc.start})") from None
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _check_depth(text)
    decoder = _CHECKED_FLOATS if _EXPONENT.search(text) else _PLAIN
    try:
        value = decoder.decode(text)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, and ints past Python's digit limit
        raise ProtocolError(str(exc)) from None
    if _SURROGATE_ESCAPE.search(text):
        _check_strings(value)
    return value


def dumps(value: Any) -> str:
    """Compact JSON text of `value`; ProtocolError if it holds anything JSON cannot say."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError) as exc:
        raise ProtocolError(f"cannot be written as JSON: {exc}") from None
    if _SURROGATE.search(text):
        raise ProtocolError("cannot be written as JSON: a string holds a lone surrogate")
    return text


def encode(value: Any) -> bytes:
    """`dumps` as UTF-8 bytes."""
    return dumps(value).encode()


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the parser recurses into it."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ProtocolError(f"nested deeper than {MAX_DEPTH} levels")
        elif ch in "]}":
            depth -= 1


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
