"""Cutting bytes into lines, without a port: terminators split across reads, bounded length."""

from __future__ import annotations

from hermes_tools.serial.framing import LineFramer


def test_lines_and_the_time_they_were_read() -> None:
    f = LineFramer(b"\r\n", 64)
    assert f.feed(b"ST,GS,+0", 101.0) == []
    lines = f.feed(b"12.34 kg\r\nNEXT\r\nPART", 102.0)
    assert [(x.raw, x.wall) for x in lines] == [(b"ST,GS,+012.34 kg", 102.0), (b"NEXT", 102.0)]
    assert [x.raw for x in f.feed(b"IAL\r\n", 103.0)] == [b"PARTIAL"]
    assert f.feed(b"\r\n", 104.0)[0].raw == b""  # an empty line is a line


def test_a_terminator_split_across_reads() -> None:
    f = LineFramer(b"\r\n", 64)
    assert f.feed(b"A\r", 1.0) == []
    assert [x.raw for x in f.feed(b"\nB\r", 2.0)] == [b"A"]
    assert [x.raw for x in f.feed(b"\n", 3.0)] == [b"B"]
    f = LineFramer(b"\x03", 64)  # a one-byte terminator (ETX)
    assert [x.raw for x in f.feed(b"X\x03Y\x03", 1.0)] == [b"X", b"Y"]


def test_oversize_lines_are_reported_once_and_memory_stays_bounded() -> None:
    f = LineFramer(b"\r\n", 8)
    assert [x.raw for x in f.feed(b"12345678\r\n", 1.0)] == [b"12345678"]  # exactly max
    lines = f.feed(b"123456789\r\nOK\r\n", 2.0)
    assert [(x.cut_at, x.raw) for x in lines] == [(8, b"123456789"), (0, b"OK")]
    assert "longer than 8 bytes" in lines[0].describe()
    reported = f.feed(b"X" * 10_000, 3.0)
    assert len(reported) == 1 and reported[0].cut_at == 8
    assert f.feed(b"Y" * 10_000, 4.0) == []  # the same endless line: said once
    assert len(f._buf) < 16
    assert f.mid_line
    assert [x.raw for x in f.feed(b"tail\r\nGOOD\r\n", 5.0)] == [b"GOOD"]
    assert not f.mid_line


def test_reset_forgets_a_partial_line_and_says_how_much() -> None:
    f = LineFramer(b"\n", 64)
    f.feed(b"stale half", 1.0)
    assert f.mid_line
    assert f.reset() == len(b"stale half")
    assert not f.mid_line
    assert [x.raw for x in f.feed(b"fresh\n", 2.0)] == [b"fresh"]


def test_reset_ends_an_oversize_line() -> None:
    f = LineFramer(b"\n", 8)
    assert [x.cut_at for x in f.feed(b"Z" * 100, 1.0)] == [8]
    f.reset()  # what follows is a new line, not the rest of the long one to throw away
    assert [x.raw for x in f.feed(b"fresh\n", 2.0)] == [b"fresh"]
