"""Plan the requests of a poll: neighbouring points of a table coalesced into one read.

Pure: spans in, blocks out. A block never exceeds the protocol's limit for its table (125
registers or 2000 bits per read) nor the device's `max_block`, and bridges at most `max_gap`
unused registers (16 × `max_gap` unused bits in a bit table: the same bytes on the wire). A span
larger than the limit (a long string) is read alone, in one request, so it stays consistent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: the most a single read may ask for, by table (Modbus application protocol 1.1b3, 6.1-6.4)
READ_LIMIT = {"holding": 125, "input": 125, "coil": 2000, "discrete": 2000}
#: the most a single write may carry (6.11, 6.12)
WRITE_LIMIT = {"holding": 123, "coil": 1968}
BIT_TABLES = frozenset({"coil", "discrete"})


@dataclass(frozen=True, slots=True)
class Span:
    """What one point occupies: `count` registers (or bits) of `table` from `address`."""

    key: str
    table: str
    address: int
    count: int

    @property
    def end(self) -> int:
        return self.address + self.count


@dataclass(frozen=True, slots=True)
class Block:
    """One read request and the spans it serves."""

    table: str
    address: int
    count: int
    members: tuple[Span, ...]

    @property
    def end(self) -> int:
        return self.address + self.count

    @property
    def keys(self) -> str:
        """Its spans' keys, space-separated (point ids hold no spaces)."""
        return " ".join(span.key for span in self.members)

    def slice(self, values: list[int] | list[bool], span: Span) -> list[int] | list[bool]:
        """The part of this block's answer that belongs to `span`."""
        start = span.address - self.address
        return values[start:start + span.count]


def limits(table: str, max_block: int, max_gap: int) -> tuple[int, int]:
    """(largest request, largest gap) for a table, in its own units (registers or bits)."""
    if table in BIT_TABLES:
        return min(READ_LIMIT[table], max_block * 16), max_gap * 16
    return min(READ_LIMIT[table], max_block), max_gap


def plan(spans: Iterable[Span], *, max_block: int = 125, max_gap: int = 8,
         coalesce: bool = True) -> list[Block]:
    """The blocks that read every span, in table and address order.

    With `coalesce=False` every span is its own request (what naive pollers do; kept for
    comparison and for devices that refuse reads across their register map's holes).
    """
    by_table: dict[str, list[Span]] = {}
    for span in spans:
        if span.count < 1:
            raise ValueError(f"span {span.key} has count {span.count}")
        by_table.setdefault(span.table, []).append(span)
    blocks: list[Block] = []
    for table in sorted(by_table):
        ordered = sorted(by_table[table], key=lambda s: (s.address, s.count, s.key))
        if not coalesce:
            blocks.extend(Block(table, s.address, s.count, (s,)) for s in ordered)
            continue
        limit, gap = limits(table, max_block, max_gap)
        current: list[Span] = []
        start = end = 0
        for span in ordered:
            if current and span.address - end <= gap and max(end, span.end) - start <= limit:
                current.append(span)
                end = max(end, span.end)
                continue
            if current:
                blocks.append(Block(table, start, end - start, tuple(current)))
            current, start, end = [span], span.address, span.end
        if current:
            blocks.append(Block(table, start, end - start, tuple(current)))
    return blocks
