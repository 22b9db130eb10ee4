"""The coalescing planner: neighbours share a request, limits and gaps are respected."""

from __future__ import annotations

import pytest
from hermes_tools.modbus.blocks import Block, Span, limits, plan


def _spans(table: str, *items: tuple[int, int]) -> list[Span]:
    return [Span(f"{table}{a}", table, a, c) for a, c in items]


def test_dev_plant_plan() -> None:
    spans = [*_spans("input", (0, 2), (2, 2), (4, 2), (6, 1), (7, 1)),
             *_spans("holding", (10, 1), (11, 1), (12, 2), (20, 2)),
             *_spans("discrete", (0, 1), (1, 1)), *_spans("coil", (1, 1))]
    blocks = plan(spans, max_block=125, max_gap=8)
    assert [(b.table, b.address, b.count) for b in blocks] == [
        ("coil", 1, 1), ("discrete", 0, 2), ("holding", 10, 12), ("input", 0, 8)]
    holding = blocks[2]
    assert [m.key for m in holding.members] == ["holding10", "holding11", "holding12", "holding20"]
    assert holding.slice(list(range(10, 22)), holding.members[3]) == [20, 21]


def test_gap_larger_than_max_gap_splits() -> None:
    spans = _spans("holding", (0, 1), (9, 1), (19, 1))
    assert [(b.address, b.count) for b in plan(spans, max_gap=8)] == [(0, 10), (19, 1)]
    assert [(b.address, b.count) for b in plan(spans, max_gap=9)] == [(0, 20)]
    assert [(b.address, b.count) for b in plan(spans, max_gap=0)] == [(0, 1), (9, 1), (19, 1)]


def test_max_block_and_protocol_limit() -> None:
    spans = _spans("holding", *((a, 2) for a in range(0, 300, 2)))
    blocks = plan(spans, max_block=125, max_gap=8)
    assert all(b.count <= 125 for b in blocks)
    assert sum(len(b.members) for b in blocks) == 150
    # a float32 is never split across two requests
    assert all(b.count % 2 == 0 for b in blocks)
    small = plan(spans, max_block=10, max_gap=8)
    assert all(b.count <= 10 for b in small) and len(small) == 30


def test_bit_tables_use_bit_limits() -> None:
    assert limits("coil", 125, 8) == (2000, 128)
    assert limits("discrete", 10, 2) == (160, 32)
    spans = _spans("coil", *((a, 1) for a in range(0, 4000, 100)))
    blocks = plan(spans, max_block=125, max_gap=100)
    assert all(b.count <= 2000 for b in blocks)
    assert [b.address for b in blocks] == [0, 2000]


def test_overlapping_spans_share_registers() -> None:
    # two bools packed into the same register, and a uint32 over a uint16
    spans = [Span("a", "holding", 5, 1), Span("b", "holding", 5, 1), Span("c", "holding", 4, 2)]
    (block,) = plan(spans)
    assert (block.address, block.count) == (4, 2)
    assert {m.key for m in block.members} == {"a", "b", "c"}


def test_span_larger_than_limit_is_read_alone() -> None:
    spans = [Span("s", "holding", 0, 20), Span("x", "holding", 20, 1)]
    blocks = plan(spans, max_block=10)
    assert [(b.address, b.count) for b in blocks] == [(0, 20), (20, 1)]


def test_one_request_per_point() -> None:
    spans = _spans("input", (0, 2), (2, 2), (4, 1))
    blocks = plan(spans, coalesce=False)
    assert blocks == [Block("input", 0, 2, (spans[0],)), Block("input", 2, 2, (spans[1],)),
                      Block("input", 4, 1, (spans[2],))]


def test_empty_and_bad_spans() -> None:
    assert plan([]) == []
    with pytest.raises(ValueError, match="count 0"):
        plan([Span("z", "holding", 0, 0)])


def test_two_hundred_registers_in_twenty_blocks() -> None:
    spans = [Span(f"p{b}_{i}", "holding", b * 100 + i, 1) for b in range(20) for i in range(10)]
    blocks = plan(spans)
    assert len(blocks) == 20 and all(b.count == 10 for b in blocks)
    assert len(plan(spans, coalesce=False)) == 200
