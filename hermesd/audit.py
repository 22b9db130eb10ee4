"""The append-only audit log: one JSON line per action (who, what, route, result, trace id).

Records are appended and fsynced in batches by one writer task (group commit): a record that
must be durable (a write's intent) is flushed at once, others at most `flush_delay` later, so a
stream of reads costs a few fsyncs a second, not one each. A write is held until its record is
on disk — the intent before the device is touched, the outcome after — and if the log cannot be
written, writes are refused while reads go on. Files rotate by size (`audit.jsonl`, `.1`, …
`.N`). A line torn by a power cut is closed off at the next start so the records after it stay
readable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


class AuditUnavailable(Exception):
    """The audit log cannot be written: actions that must be audited are refused."""


class AuditLog:
    def __init__(self, path: Path, *, max_bytes: int = 10 * 1024 * 1024, keep: int = 5,
                 flush_delay: float = 0.2, executor: Executor | None = None) -> None:
        self.path = path
        self._executor = executor  # the thread that does the blocking write and fsync
        self.flush_delay = flush_delay
        self._urgent = asyncio.Event()
        self.max_bytes = max_bytes
        self.keep = keep
        self._queue: list[tuple[float, dict[str, Any], asyncio.Future[None] | None]] = []
        self._wake = asyncio.Event()
        self._fd: int | None = None
        self.failing: str | None = None  # why the log cannot be written, while it cannot
        self.records = 0

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        size = os.fstat(fd).st_size
        if size:
            with open(self.path, "rb") as f:
                f.seek(size - 1)
                if f.read(1) != b"\n":  # a record torn by a power cut: close it off
                    os.write(fd, b"\n")
        self._fd = fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def append(self, record: dict[str, Any]) -> None:
        """Queue a record; it reaches the disk within one batch."""
        self._queue.append((time.time(), record, None))  # serialised by the writer, off the request path
        self._wake.set()

    async def append_durable(self, record: dict[str, Any]) -> None:
        """Queue a record and wait until it is fsynced; raises AuditUnavailable if it cannot be."""
        if self.failing is not None and self._fd is None:
            raise AuditUnavailable(self.failing)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((time.time(), record, fut))
        self._wake.set()
        self._urgent.set()
        await fut

    @staticmethod
    def _lines(batch: list[tuple[float, dict[str, Any], Any]]) -> bytes:
        return b"".join(json.dumps({"ts": _iso(ts), **record}, ensure_ascii=False,
                                   separators=(",", ":"), default=str).encode() + b"\n"
                        for ts, record, _ in batch)

    async def run(self) -> None:
        """The writer: drains the queue in batches, one write and one fsync per batch."""
        try:
            while True:
                await self._wake.wait()
                if not self._urgent.is_set():  # gather more records unless one must be durable
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self.flush_delay):
                            await self._urgent.wait()
                self._wake.clear()
                self._urgent.clear()
                batch, self._queue = self._queue, []
                if not batch:
                    continue
                data = self._lines(batch)
                try:
                    await asyncio.get_running_loop().run_in_executor(self._executor,
                                                                     self._write, data)
                except OSError as exc:
                    if self.failing is None:
                        log.error("audit log %s cannot be written: %s; writes are refused "
                                  "until it can", self.path, exc)
                    self.failing = f"audit log cannot be written: {exc.strerror or exc}"
                    for _, _, fut in batch:
                        if fut is not None and not fut.done():
                            fut.set_exception(AuditUnavailable(self.failing))
                    continue
                if self.failing is not None:
                    log.info("audit log %s is writable again", self.path)
                    self.failing = None
                self.records += len(batch)
                for _, _, fut in batch:
                    if fut is not None and not fut.done():
                        fut.set_result(None)
        finally:
            if self._queue:
                with contextlib.suppress(OSError):
                    self._write(self._lines(self._queue))
            for _, _, fut in self._queue:
                if fut is not None and not fut.done():
                    fut.cancel()
            self._queue = []

    def _write(self, data: bytes) -> None:
        if self._fd is None:
            self.open()
        assert self._fd is not None
        start = os.lseek(self._fd, 0, os.SEEK_END)
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
        except OSError:
            # a batch is all or nothing: a write cut short by a full disk must not leave half a
            # record for the next batch to be glued onto (one unreadable line, two records lost)
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, start)
            raise
        if os.fstat(self._fd).st_size >= self.max_bytes:
            self._rotate()

    def _rotate(self) -> None:
        self.close()
        for i in range(self.keep - 1, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{i}")
            if older.exists():
                older.replace(self.path.with_name(f"{self.path.name}.{i + 1}"))
        self.path.replace(self.path.with_name(f"{self.path.name}.1"))
        self.open()


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts % 1 * 1000):03d}Z"
