"""Generators of hostile input: strict JSON, JSON that is not quite, and bytes that are not JSON.

Every generator says, by construction, whether what it makes is acceptable (`strict_values`,
`request_objects`) or must be refused (`bad_json_texts`, `bad_frames`, `oversize_frames`):
tests judge hermesd against that, not against hermesd's own parser. Also: batches of control
frames as one peer sends them (`batches`, then `batch_bytes` and `cut`), the point ids of a
flood of reads (`odd_point_ids`), and what a stranger sends to a tool's socket
(`stranger_payloads`). Shared by the tests in this package and the soak's hostile mix
(tests/support/soak/hostile_inputs.py), so a long soak runs the very generators the suite does.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

INT_MIN, INT_MAX = -(2**63), 2**64 - 1  # the documented integer range of hermesd's JSON
MAX_DEPTH = 64

# -- acceptable JSON ------------------------------------------------------------------------------

texts = st.text(st.characters(codec="utf-8"), max_size=40)  # no lone surrogates
scalars = st.one_of(st.none(), st.booleans(), st.integers(INT_MIN, INT_MAX),
                    st.floats(allow_nan=False, allow_infinity=False), texts)
strict_values = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                     st.dictionaries(texts, inner, max_size=5)),
    max_leaves=25)


# -- JSON that must be refused --------------------------------------------------------------------

def _lone_surrogate_escape(draw: st.DrawFn) -> str:
    high = draw(st.booleans())
    code = draw(st.integers(0xD800, 0xDBFF) if high else st.integers(0xDC00, 0xDFFF))
    escape = f"\\u{code:04x}" if draw(st.booleans()) else f"\\u{code:04X}"
    # a high half followed by anything but a low half, or a low half alone
    after = draw(st.sampled_from(["", "x", "\\u0041", "\\n"])) if high else ""
    before = draw(st.sampled_from(["", "a", "\\u00e9"]))
    return f'"{before}{escape}{after}"'


@st.composite
def bad_atoms(draw: st.DrawFn) -> str:
    """One JSON token (as source text) that strict JSON refuses."""
    kind = draw(st.sampled_from(["constant", "huge float", "long decimal", "huge int",
                                 "surrogate", "deep"]))
    if kind == "constant":
        return draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "-NaN", "nan", "inf"]))
    if kind == "huge float":
        return f"{draw(st.sampled_from(['1', '-1', '9.99', '-0.5']))}e{draw(st.integers(309, 5000))}"
    if kind == "long decimal":
        return "1" * draw(st.integers(310, 1000)) + ".5"
    if kind == "huge int":
        big = draw(st.one_of(st.integers(INT_MAX + 1, 10**400),
                             st.integers(-(10**400), INT_MIN - 1)))
        return str(big)
    if kind == "surrogate":
        return _lone_surrogate_escape(draw)
    depth = draw(st.integers(MAX_DEPTH + 1, 30_000))
    return "[" * depth + "]" * draw(st.sampled_from([0, depth]))


def _embed(draw: st.DrawFn, inner: str) -> str:
    """`inner` placed somewhere inside a few levels of otherwise valid JSON."""
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            others = [json.dumps(v) for v in draw(st.lists(strict_values, max_size=2))]
            at = draw(st.integers(0, len(others)))
            inner = "[" + ",".join([*others[:at], inner, *others[at:]]) + "]"
        else:
            inner = "{" + json.dumps(draw(texts)) + ":" + inner + "}"
    return inner


@st.composite
def bad_json_texts(draw: st.DrawFn) -> str:
    """A JSON text that would be valid to Python's `json`, but holds one thing strict JSON
    refuses (the frame's top level is an object, as a request's is)."""
    text = _embed(draw, draw(bad_atoms()))
    key = json.dumps(draw(st.sampled_from(["op", "point", "value", "id", "text", "args"])))
    return "{" + key + ":" + text + "}"


_BROKEN_UTF8 = [b"\xff", b"\xfe", b"\xc3\x28", b"\xa0\xa1", b"\xe2\x28\xa1", b"\xf0\x28\x8c\xbc",
                b"\xc0\xaf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf8\x88\x80\x80\x80", b"\x80"]


@st.composite
def bad_frames(draw: st.DrawFn) -> bytes:
    """One line (without its newline) that the control socket must answer BAD_REQUEST."""
    kind = draw(st.sampled_from(["json", "bytes in a string", "not json", "not an object",
                                 "empty"]))
    if kind == "json":
        return draw(bad_json_texts()).encode()
    if kind == "bytes in a string":
        good = json.dumps({"op": "read", "point": "level"}).encode()
        at = good.index(b"level")
        return good[:at] + draw(st.sampled_from(_BROKEN_UTF8)) + good[at:]
    if kind == "not json":
        junk = draw(st.binary(min_size=1, max_size=200)).replace(b"\n", b" ")
        return b"\x00" + junk  # a NUL first: never a JSON text
    if kind == "not an object":
        value = draw(st.one_of(scalars, st.lists(scalars, max_size=3)))
        return json.dumps(value).encode()
    return draw(st.sampled_from([b"", b" ", b"\t", b"\r"]))


# -- requests: every op, every field, right and wrong types -------------------------------------

OPS = ["status", "tools", "points", "read", "write", "ask", "call", "listen"]
FIELDS = ["op", "id", "role", "dry_run", "timeout", "point", "value", "text", "audio",
          "audio_wav", "tool", "action", "args", "window"]


@st.composite
def request_objects(draw: st.DrawFn, points: list[str], tool: str,
                    actions: list[str]) -> dict[str, Any]:
    """A request object: often well formed, often with a wrong or odd value in some field."""
    op = draw(st.sampled_from([*OPS, "explode", ""]))
    obj: dict[str, Any] = {"op": op}
    plausible: dict[str, Any] = {
        "point": st.sampled_from([*points, "no_such_point"]) | texts,
        "value": st.one_of(st.booleans(), st.integers(INT_MIN, INT_MAX),
                           st.floats(allow_nan=False, allow_infinity=False), texts),
        "text": st.sampled_from(["what is the tank level", "set valve on", "hello",
                                 "set speed to 1 600 rpm", "set speed to 1e4"]) | texts,
        "tool": st.sampled_from([tool, "nope"]),
        "action": st.sampled_from(actions) | texts,
        "args": st.dictionaries(st.sampled_from(["point", "value", "device", "x"]) | texts,
                                strict_values, max_size=3),
        "timeout": st.floats(0.05, 2.0) | st.integers(-5, 10**6),
        "window": st.floats(0.05, 0.5) | st.integers(-5, 10**6),
        "dry_run": st.booleans(),
        "role": st.sampled_from(["viewer", "operator", "engineer", "wizard"]),
        "audio_wav": st.sampled_from(["", "UklGRg==", "not base64!"]),
        "audio": st.sampled_from(["/nonexistent.wav", "", "relative.wav"]),
    }
    for name in draw(st.lists(st.sampled_from(FIELDS[1:]), max_size=4, unique=True)):
        wrong = draw(st.integers(0, 3)) == 0
        obj[name] = draw(strict_values if wrong else plausible.get(name, strict_values))
    return obj


# -- batches: requests (by construction acceptable JSON) and at most one bad frame -------------

BAD_ID = st.one_of(st.booleans(), st.none(), st.floats(allow_nan=False, allow_infinity=False),
                   st.lists(strict_values, max_size=2), st.dictionaries(st.text(max_size=3),
                                                                        strict_values, max_size=2))


@st.composite
def batches(draw: st.DrawFn, points: list[str], tool: str, actions: list[str]) -> dict[str, Any]:
    """What one peer sends on one connection: `items` (`("request", (obj, ascii_only))` or
    `("bad", frame)`) and `cuts`, where the bytes are split into separate sends."""
    requests = st.tuples(request_objects(points, tool, actions),
                         st.booleans(),  # a wrong-typed id (then the answer carries none)
                         st.booleans())  # ASCII escapes or UTF-8
    items: list[tuple[str, Any]] = []
    for n, (drawn, bad_id, ascii_only) in enumerate(draw(st.lists(requests, max_size=6))):
        obj = {**drawn, "id": draw(BAD_ID) if bad_id else f"h{n}"}
        items.append(("request", (obj, ascii_only)))
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), ("bad", draw(bad_frames())))
    return {"items": items, "cuts": draw(st.lists(st.integers(1, 1 << 20), max_size=6))}


def batch_bytes(items: list[tuple[str, Any]], *, dry_run: bool) -> bytes:
    """The bytes of a batch's items, one line each (every request a dry run, if asked)."""
    lines = []
    for kind, item in items:
        if kind == "bad":
            lines.append(item)
            continue
        obj, ascii_only = item
        if dry_run:
            obj = {**obj, "dry_run": True}
        lines.append(json.dumps(obj, ensure_ascii=ascii_only).encode())
    return b"".join(line + b"\n" for line in lines)


def cut(stream: bytes, cuts: list[int]) -> list[bytes]:
    """`stream` split at the positions `cuts` names (modulo its length): the sends of a peer."""
    at = sorted({c % len(stream) for c in cuts if len(stream) > 1} - {0})
    return [stream[a:b] for a, b in zip([0, *at], [*at, len(stream)], strict=True)]


@st.composite
def oversize_frames(draw: st.DrawFn, limit: int) -> bytes:
    """One line (without its newline) longer than `limit` bytes: valid JSON, or not even that."""
    size = draw(st.integers(limit + 1, 4 * limit))
    kind = draw(st.sampled_from(["long point", "long text", "junk"]))
    if kind == "long point":
        return json.dumps({"op": "read", "point": "x" * size}).encode()
    if kind == "long text":
        return json.dumps({"op": "ask", "text": "read " + "boiler " * (size // 7)}).encode()
    return draw(st.binary(min_size=1, max_size=16)).replace(b"\n", b" ") * (size // 8 + 1)


# -- reads of point ids nobody configured: the audit flood --------------------------------------

odd_point_ids = st.one_of(
    st.text(min_size=0, max_size=2000),  # any Unicode but surrogates: JSON carries it
    st.integers(1000, 2000).map(lambda n: "x" * n),
    st.text(alphabet=st.sampled_from("\x00\x1b\u202e\ufeff\U0001f525\"\\/\n\t"), max_size=300),
    st.sampled_from(["oven_temp ", "OVEN_TEMP", "oven_temp\x00", "../lkv.json", "*"]),
)
#: lone surrogates, as text: in JSON only as escapes (refused), in UTF-8 not at all. A high one
#: right before a low one is no lone surrogate but a pair: its escapes are valid JSON of one
#: character (\ud83d\ude00 is U+1F600), which the daemon rightly reads, so none is generated
surrogate_texts = st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
                          min_size=1, max_size=4).filter(
    lambda t: not re.search("[\ud800-\udbff][\udc00-\udfff]", t))


# -- a stranger at a tool's socket --------------------------------------------------------------

def stranger_payloads(frames: bytes) -> st.SearchStrategy[bytes]:
    """What a process that is not the daemon sends to a tool: nothing, the very frames the daemon
    would send (`frames`: a configure and a write), or a few bytes of anything."""
    return st.one_of(st.just(b""), st.just(frames), st.binary(max_size=64))
