"""The audit log's files: append-only JSON lines, written whole or not at all, then fsynced.

`ActivityLog` is `audit.jsonl`: every action, rotated by size (`audit.jsonl.1` … `.N`), so it
is bounded and its oldest lines go first. `Trail` is one file per UTC month
(`audit-trail-2026-11.jsonl`) of what must be kept by time — write intents and outcomes, other
actions that may touch a device — removed only when the whole month is older than the retention.
Reads never reach the trail, so no flood of them can push a write out of it.

Every file is opened with `O_NOFOLLOW` as a regular file (hermesd/core/statefiles.py). A line torn by
a power cut is closed off when the file is opened, so the records after it stay readable. A
batch cut short (a full disk) is truncated away, so no half record is left for the next batch to
be glued onto. All of this blocks: it runs in the daemon's disk thread.
"""

from __future__ import annotations

import calendar
import contextlib
import logging
import os
import re
import time
from pathlib import Path

from hermesd.core.statefiles import fsync_dir, open_state

log = logging.getLogger(__name__)

#: before this (2024-01-01 UTC) the clock is not set (a board without a real-time clock): the
#: trail is not pruned, and months stamped before it are never pruned by age
CLOCK_FLOOR = 1704067200.0
PRUNE_EVERY = 3600.0  # seconds between looks for trail months past the retention


class AppendFile:
    """One append-only file, opened lazily; `append` writes a batch whole and fsyncs it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    @property
    def is_open(self) -> bool:
        return self._fd is not None

    def open(self) -> None:
        if self._fd is not None:
            return
        existed = os.path.lexists(self.path)
        fd = open_state(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                os.write(fd, b"\n")  # a record torn by a power cut: close it off
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        if not existed:
            with contextlib.suppress(OSError):
                fsync_dir(self.path.parent)  # the new file's name survives a power cut too

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def _follow(self) -> None:
        """When the path no longer names the open file (deleted, or moved away by someone),
        the records go to a file at the path again, never into one nobody can find."""
        if self._fd is None:
            return
        held = os.fstat(self._fd)
        try:
            there = os.lstat(self.path)
        except FileNotFoundError:
            there = None
        if there is None or (there.st_ino, there.st_dev) != (held.st_ino, held.st_dev):
            log.warning("%s was %s while open; writing to a new file there", self.path,
                        "deleted" if there is None else "replaced")
            self.close()

    def size(self) -> int:
        return os.fstat(self._fd).st_size if self._fd is not None else 0

    def append(self, data: bytes) -> None:
        self._follow()
        self.open()
        fd = self._fd
        assert fd is not None
        start = os.lseek(fd, 0, os.SEEK_END)
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            # all or nothing: a write cut short by a full disk must not leave half a record
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
            raise


class ActivityLog(AppendFile):
    """`audit.jsonl`: rotated into `.1` … `.keep` before it would grow past `max_bytes` (a
    single longer line is the only exception), the oldest dropped."""

    def __init__(self, path: Path, max_bytes: int, keep: int) -> None:
        super().__init__(path)
        self.max_bytes = max_bytes
        self.keep = keep

    def append(self, data: bytes) -> None:
        for chunk in _chunks(data, self.max_bytes):
            self._follow()
            self.open()
            size = self.size()
            if size and size + len(chunk) > self.max_bytes:
                self.rotate()
            super().append(chunk)

    def rotate(self) -> None:
        self.close()
        name = self.path.name
        for i in range(self.keep - 1, 0, -1):
            older = self.path.with_name(f"{name}.{i}")
            if os.path.lexists(older):  # a rename moves a link itself, never what it names
                older.replace(self.path.with_name(f"{name}.{i + 1}"))
        if self.keep > 0:
            self.path.replace(self.path.with_name(f"{name}.1"))
        else:
            self.path.unlink()
        fsync_dir(self.path.parent)
        self.open()


def _chunks(data: bytes, limit: int) -> list[bytes]:
    """`data` cut at line ends into pieces of at most `limit` bytes (or one longer line)."""
    if len(data) <= limit:
        return [data]
    chunks = []
    start = 0
    while start < len(data):
        end = data.rfind(b"\n", start, start + limit)
        end = data.find(b"\n", start + limit) if end < 0 else end
        end = len(data) if end < 0 else end + 1
        chunks.append(data[start:end])
        start = end
    return chunks


class Trail:
    """Files `<stem>-YYYY-MM.jsonl`, one per UTC month, each kept until `retention` after it."""

    def __init__(self, directory: Path, stem: str, retention: float) -> None:
        self.directory = directory
        self.stem = stem
        self.retention = retention
        self._pattern = re.compile(rf"^{re.escape(stem)}-(\d{{4}})-(\d{{2}})\.jsonl$")
        self._file: AppendFile | None = None
        self._pruned_at = 0.0

    def path_for(self, now: float) -> Path:
        return self.directory / f"{self.stem}-{time.strftime('%Y-%m', time.gmtime(now))}.jsonl"

    @property
    def current(self) -> Path | None:
        return self._file.path if self._file is not None else None

    @property
    def is_open(self) -> bool:
        return self._file is not None and self._file.is_open

    def open(self, now: float | None = None) -> None:
        now = time.time() if now is None else now
        path = self.path_for(now)
        if self._file is not None and self._file.path == path and self._file.is_open:
            return
        new = AppendFile(path)
        new.open()  # the month's file first: the old one stays until the new one is there
        if self._file is not None:
            self._file.close()
        self._file = new
        self._pruned_at = now
        self.prune(now)  # at start and at each new month, and hourly while writing

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def append(self, data: bytes, now: float | None = None) -> None:
        now = time.time() if now is None else now
        self.open(now)
        assert self._file is not None
        self._file.append(data)
        if now - self._pruned_at >= PRUNE_EVERY:
            self._pruned_at = now
            self.prune(now)

    def months(self) -> list[tuple[Path, float]]:
        """Every trail file with the end of its month (epoch seconds), oldest first."""
        out = []
        for name in sorted(os.listdir(self.directory)):
            match = self._pattern.match(name)
            if match is None:
                continue
            year, month = int(match.group(1)), int(match.group(2))
            if not 1 <= month <= 12:
                continue
            end = calendar.timegm((year + month // 12, month % 12 + 1, 1, 0, 0, 0))
            out.append((self.directory / name, float(end)))
        return out

    def prune(self, now: float) -> list[Path]:
        """Remove the files of months that ended more than `retention` ago."""
        if now < CLOCK_FLOOR:
            return []  # the clock is not set yet: nothing can be judged old
        removed: list[Path] = []
        try:
            months = self.months()
        except OSError as exc:
            log.warning("cannot list the audit trail in %s: %s", self.directory, exc)
            return removed
        for path, end in months:
            if end <= CLOCK_FLOOR or end + self.retention > now:
                continue  # written before the clock was set, or still within the retention
            if self._file is not None and self._file.path == path:
                continue
            try:
                path.unlink()
            except OSError as exc:
                log.warning("cannot remove %s (past the audit retention): %s", path, exc)
                continue
            log.info("removed %s: its month ended more than %.0f days ago (audit.retention)",
                     path.name, self.retention / 86400)
            removed.append(path)
        return removed
