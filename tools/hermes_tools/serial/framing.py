"""Cutting a byte stream into lines: sans-io, so it is tested without a port.

`LineFramer.feed(data, wall)` takes the bytes one read returned and the time they were read, and
returns the complete lines. A line longer than `max_line` bytes is reported once as oversize and
the rest of it, up to the next terminator, is discarded: memory stays bounded whatever a device
sends. `reset()` forgets an unfinished line (a question was sent: what came before it is stale)
and says how many bytes that dropped. It never decodes text.
"""

from __future__ import annotations

from dataclasses import dataclass

PREVIEW = 32  # bytes of an oversize line kept to show in the error


@dataclass(frozen=True, slots=True)
class Line:
    raw: bytes  # the line without its terminator (for an oversize line: its first bytes)
    wall: float  # time.time() of the read that completed the line (or cut it off)
    cut_at: int = 0  # >0: the line ran past this many bytes (max_line) and was cut off

    def describe(self) -> str:
        """The line as a person reads it in an error message."""
        if self.cut_at:
            return f"a line longer than {self.cut_at} bytes (starting {self.raw[:PREVIEW]!r})"
        text = repr(self.raw)
        return text if len(text) <= 60 else text[:57] + "..."


class LineFramer:
    """Lines ending in `terminator`, each at most `max_line` bytes long (terminator excluded)."""

    def __init__(self, terminator: bytes, max_line: int) -> None:
        if not terminator:
            raise ValueError("a line terminator cannot be empty")
        self.terminator = terminator
        self.max_line = max_line
        self._buf = bytearray()
        self._discarding = False  # inside an oversize line, until its terminator

    @property
    def mid_line(self) -> bool:
        """Whether a line has begun and not ended (bytes kept, or an oversize line running)."""
        return bool(self._buf) or self._discarding

    def reset(self) -> int:
        """Forget the unfinished line; the number of its bytes still kept here."""
        dropped = len(self._buf)
        self._buf.clear()
        self._discarding = False
        return dropped

    def feed(self, data: bytes, wall: float) -> list[Line]:
        lines: list[Line] = []
        term = self.terminator
        search_from = max(0, len(self._buf) - len(term) + 1)  # a terminator split across reads
        self._buf += data
        while True:
            end = self._buf.find(term, search_from)
            if end < 0:
                break
            if self._discarding:
                self._discarding = False
            elif end > self.max_line:
                lines.append(Line(bytes(self._buf[:min(end, PREVIEW)]), wall, self.max_line))
            else:
                lines.append(Line(bytes(self._buf[:end]), wall))
            del self._buf[:end + len(term)]
            search_from = 0
        if len(self._buf) >= self.max_line + len(term):  # no terminator can end it in time
            if not self._discarding:
                lines.append(Line(bytes(self._buf[:PREVIEW]), wall, self.max_line))
                self._discarding = True
            # keep only what may be the start of a terminator
            del self._buf[:len(self._buf) - (len(term) - 1)]
        return lines
