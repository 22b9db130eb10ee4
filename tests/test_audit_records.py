"""What an audit record is worth keeping, what a peer's budget admits, and strict encoding."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd.audit_records import (
    TEXT_LIMIT,
    Budgets,
    Kind,
    PeerBudget,
    bound,
    classify,
    encode,
    encode_plain,
    printable,
    within_bounds,
)


def _done(name: str | None, status: str, **args: Any) -> dict[str, Any]:
    return {"phase": "done", "status": status,
            "action": None if name is None else {"name": name, "args": args}}


@pytest.mark.parametrize(("record", "after_intent", "kind"), [
    ({"phase": "intent", "action": {"name": "write"}}, False, Kind.TRAIL),
    (_done("write", "error"), True, Kind.TRAIL),  # an outcome after its intent, whatever it is
    (_done("modbus.write_registers", "ok"), True, Kind.TRAIL),
    (_done("write", "forbidden"), False, Kind.ATTEMPT),  # refused before any intent
    (_done("write", "dry_run"), False, Kind.ATTEMPT),
    (_done("modbus.read_registers", "ok"), False, Kind.ATTEMPT),  # raw register access
    (_done("fake.nothing", "error"), False, Kind.ATTEMPT),
    (_done("ack", "ok"), False, Kind.ATTEMPT),  # an action we do not know of is no read
    (_done("respond", "forbidden", refused={"name": "write", "args": {}}), False, Kind.ATTEMPT),
    (_done("respond", "forbidden", refused={"name": "read", "args": {}}), False,
     Kind.READ_FAILED),
    (_done("read", "ok"), False, Kind.READ),
    (_done("read", "stale"), False, Kind.READ),
    (_done("respond", "ok", reason="greeting"), False, Kind.READ),
    (_done("read", "rejected"), False, Kind.READ_FAILED),
    (_done(None, "busy"), False, Kind.READ_FAILED),
    ({"status": ["unhashable"], "action": {"name": {"odd": 1}}}, False, Kind.ATTEMPT),
    ("not a mapping", False, Kind.ATTEMPT),
])
def test_classify(record: Any, after_intent: bool, kind: Kind) -> None:
    assert classify(record, after_intent=after_intent) is kind


def test_each_peer_and_kind_has_its_own_budget() -> None:
    budget = PeerBudget(Budgets(window=10, read=2, read_failed=1, attempt=1, max_groups=2))
    alice = {"source": "control", "uid": 1000, "who": "uid 1000 (alice) pid 5"}
    bob = {**alice, "uid": 1001, "who": "uid 1001 (bob) pid 6"}
    admitted = [budget.admit(Kind.READ, {**alice, "trace_id": str(i)}, 100.0) for i in range(4)]
    assert admitted == [True, True, False, False]
    assert budget.admit(Kind.READ, bob, 100.0)  # another peer: its own budget
    assert budget.admit(Kind.READ_FAILED, alice, 100.0)  # another kind: its own budget
    assert budget.admit(Kind.TRAIL, alice, 100.0)  # the trail has no budget
    for status in ("rejected", "forbidden", "busy"):
        assert not budget.admit(Kind.READ_FAILED, {**alice, **_done("read", status)}, 101.0)
    assert budget.next_due(101.0) == pytest.approx(9.0)
    assert budget.due(105.0) == []
    aggregates = {r["kind"]: r for _, r in budget.due(110.0)}
    assert aggregates["read"]["count"] == 2 and aggregates["read"]["uid"] == 1000
    # two groups (max_groups), the rest as "other"
    assert aggregates["read_failed"]["by"] == {"read rejected": 1, "read forbidden": 1,
                                               "other": 1}
    assert budget.admit(Kind.READ, alice, 110.0)  # a new window
    assert budget.counted == 5


def test_bound_cuts_long_texts_and_big_collections() -> None:
    value, cut = bound({"point": "x" * 1000, "list": list(range(100)), "ok": "short"}, 50)
    assert cut and value["ok"] == "short"
    assert value["point"].startswith("x" * 50) and value["point"].endswith("(+950 chars)")
    assert len(value["list"]) == 65
    assert bound({"a": "b"}, 50) == ({"a": "b"}, False)


def test_encode_is_strict_json_and_marks_what_it_escaped() -> None:
    line, escaped = encode({"ts": "T", "seq": 1}, {"seq": 99, "point": "\udcff", "v": float("nan")})
    assert escaped
    record = json.loads(line.decode("utf-8"))
    assert record == {"ts": "T", "seq": 1, "point": "\\udcff", "v": "nan", "escaped": True}
    line, escaped = encode({"ts": "T", "seq": 2}, {"point": "Kessel 3 – 温度"})
    assert not escaped and json.loads(line)["point"] == "Kessel 3 – 温度"


def test_root_and_hermesds_own_user_have_no_budget() -> None:
    budget = PeerBudget(Budgets(read=1, attempt=1), trusted=frozenset({0, 999}))
    for uid in (0, 999):
        assert all(budget.admit(Kind.READ, {"source": "control", "uid": uid}, 1.0)
                   for _ in range(10))
    assert budget.admit(Kind.READ, {"source": "control", "uid": 1000}, 1.0)
    assert not budget.admit(Kind.READ, {"source": "control", "uid": 1000}, 1.0)
    assert budget.admit(Kind.READ, {"source": "mqtt", "who": "mqtt"}, 1.0)  # no uid: by who
    assert not budget.admit(Kind.READ, {"source": "mqtt", "who": "mqtt"}, 1.0)


def test_encode_escapes_what_readers_take_for_a_line_end() -> None:
    text = "a\x85b\u2028c\u2029d\x0be\x1cf"
    line, escaped = encode({"ts": "T"}, {"point": text})
    assert not escaped
    assert len(line.decode("utf-8").splitlines()) == 1  # str.splitlines breaks on all of those
    assert json.loads(line)["point"] == text


def _unescape(shown: str) -> str:
    return shown.encode("latin-1", "backslashreplace").decode("unicode_escape")


@given(text=st.text(max_size=300), limit=st.integers(1, 1200))
def test_printable_is_what_was_said_in_characters_a_reader_sees(text: str, limit: int) -> None:
    """The words of an ask in the audit trail: nothing a log reader would not see (a control
    character, a bidi override, a lone surrogate), nothing lost that was not cut, no longer
    than the limit."""
    shown, cut = printable(text, limit)
    assert len(shown) <= limit
    assert all(ch.isprintable() for ch in shown)
    if cut:  # a prefix of the whole, cut between escapes, never inside one
        assert printable(text, 10**6)[0].startswith(shown)
        assert text.startswith(_unescape(shown))
    else:
        assert _unescape(shown) == text
    line, escaped = encode({"ts": "t", "seq": 1}, {"text": shown})
    assert not escaped and line.count(b"\n") == 1  # always one line of strict JSON


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=300),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner,
                                                                max_size=6),
    max_leaves=30)
#: a list around the item limit (64), and text around the limits used below
_RECORD = st.fixed_dictionaries({"many": st.lists(st.integers(0, 9), max_size=70)},
                                optional={"text": st.text(max_size=300), "more": _JSON})


@given(record=_RECORD, limit=st.sampled_from([8, 40, 256, 2048]))
def test_a_line_judged_within_bounds_is_the_line_bounding_would_write(
        record: dict[str, Any], limit: int) -> None:
    """The writer's shortcut: a record whose line looks within bounds is written as it is, so
    that must be exactly what bounding it first would have written."""
    head = {"ts": "2026-11-30T09:00:00.000Z", "seq": 1}
    line, escaped = encode(head, record)
    if not escaped and within_bounds(line, limit):
        bounded, changed = bound(record, limit)
        assert not changed
        assert encode(head, bounded)[0] == line


def test_a_small_record_is_judged_within_bounds_and_a_long_text_is_not() -> None:
    head = {"ts": "2026-11-30T09:00:00.000Z", "seq": 1}
    small = {"phase": "done", "status": "ok", "action": {"name": "read", "args": {"point": "p"}}}
    assert within_bounds(encode(head, small)[0], 256)
    deep: list[Any] = []
    for _ in range(20):
        deep = [deep]
    for record in ({**small, "text": "x" * 257}, {**small, "text": '\\"' * 200},
                   {**small, "values": list(range(70))}, {**small, "deep": deep}):
        line = encode(head, record)[0]
        assert not within_bounds(line, 256)
        assert bound(record, 256)[1]  # and bounding does cut it


@pytest.mark.parametrize("limit", [8, 256, 2048])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("char", ["x", "é", "水"])
def test_a_stretch_just_at_the_limit_is_within_and_one_byte_more_is_not(
        limit: int, where: str, char: str) -> None:
    """The longest stretch between quotes, in bytes of the line (a multi-byte character
    counts as its bytes), wherever it is: before the first quote, between two, after the last."""
    def line(size: int) -> bytes:
        width = len(char.encode())
        stretch = (char * (size // width)).encode() + b"y" * (size % width)
        padding = b'"a":"b",' * 3
        if where == "first":
            return stretch + b'"' + padding
        if where == "last":
            return padding + b'"' + stretch
        return padding + b'"' + stretch + b'"' + padding
    assert within_bounds(line(limit), limit)
    assert not within_bounds(line(limit + 1), limit)


@pytest.mark.parametrize("limit", [256, 2048])
def test_texts_just_within_the_limit_are_within(limit: int) -> None:
    """Sixty texts of exactly `limit` bytes (fewer commas than MAX_ITEMS: the shortcut is
    taken) are within; one more byte in the last of them is not. (What judging such a line
    costs is measured by scripts/bench/audit_lines.py, not asserted here.)"""
    record: dict[str, Any] = {f"k{i}": "x" * limit for i in range(60)}
    line = encode({"ts": "2026-11-30T09:00:00.000Z", "seq": 1}, record)[0]
    assert within_bounds(line, limit)
    record["k59"] += "x"
    assert not within_bounds(encode({"ts": "2026-11-30T09:00:00.000Z", "seq": 1}, record)[0],
                             limit)


#: records as the writer meets them: mostly plain reads, some with texts past the limit, odd
#: characters (escapes, line breaks JSON leaves raw, lone surrogates), long lists, deep nesting,
#: values JSON cannot say, and records that are no dict at all
_TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("\u2028\u0085\\\"\n\ud800"),
                max_size=300)
_ODD = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**70, 2**70),
                 _TEXT, st.lists(st.integers(0, 9), max_size=70), _JSON)
_READ = st.fixed_dictionaries(
    {"trace_id": st.from_regex(r"[0-9a-f]{16}", fullmatch=True), "phase": st.just("done"),
     "source": st.just("control"), "who": st.sampled_from(["uid 0 (root) pid 17", "voice"]),
     "role": st.just("viewer"), "route": st.just("direct"), "dry_run": st.booleans(),
     "action": st.fixed_dictionaries({"name": st.just("read"),
                                      "args": st.fixed_dictionaries({"point": _TEXT})}),
     "status": st.sampled_from(["ok", "stale", "error"]), "value": _ODD},
    optional={"uid": st.integers(0, 2**32), "ts": _TEXT, "seq": _ODD})


@given(records=st.lists(_READ | _JSON | st.dictionaries(_TEXT, _ODD, max_size=5), min_size=1,
                        max_size=8))
def test_a_batch_encoded_at_once_is_the_lines_one_by_one(records: list[Any]) -> None:
    """The writer's batch shortcut: when it encodes a batch at once, that is exactly the lines
    the records give one by one, each within the bounds of the tighter text limit (so that no
    trail record, bounded by the looser one, is written differently)."""
    heads = [{"ts": "2026-11-30T09:00:00.000Z", "seq": i} for i in range(len(records))]
    joined = encode_plain(heads, records)
    if joined is None:
        return
    lines = []
    for head, record in zip(heads, records, strict=True):
        line, escaped = encode(head, record)
        assert not escaped
        assert within_bounds(line, TEXT_LIMIT)
        lines.append(line)
    assert joined == b"".join(lines)


def test_a_batch_of_reads_is_encoded_at_once_and_an_odd_one_is_not() -> None:
    heads = [{"ts": "2026-11-30T09:00:00.000Z", "seq": i} for i in range(3)]
    reads = [{"trace_id": f"{i:016x}", "phase": "done", "who": "uid 1000 (ana) pid 9",
              "action": {"name": "read", "args": {"point": "boiler3_temp"}}, "status": "ok",
              "value": 523.4 + i} for i in range(3)]
    assert encode_plain(heads, reads) == b"".join(encode(h, r)[0] for h, r in
                                                   zip(heads, reads, strict=True))
    for odd in ({"value": float("nan")}, {"who": "\ud800"}, {"who": "x" * 257},
                {"who": "a\\b"}, {"values": list(range(64))}):
        assert encode_plain(heads, [*reads[:2], {**reads[2], **odd}]) is None
    assert encode_plain(heads, [*reads[:2], "not a mapping"]) is None
