"""One open serial port, on pyserial, feeding the bytes it reads to the event loop.

Why threads: pyserial's API is blocking, and the tool must serve paths (`/dev/serial/by-id/...`),
`socket://` and `rfc2217://` URLs alike. Only the tty backend exposes a file descriptor that
`loop.add_reader` could watch (rfc2217 reads through its own thread and queue), so a non-blocking
fd path would be a second implementation for one backend. Instead each open port has two threads
that own all of its blocking calls:

- a *reader* thread blocks in `read()` (a short timeout slice so it notices a stop, and
  `cancel_read()` where the backend has it) and hands each chunk, stamped with the time it was
  read, to the loop with one `call_soon_threadsafe`;
- a *worker* thread runs the other blocking calls in order: open, every write, close.

The loop never waits on the port; it awaits futures the threads complete. `close()` stops the
reader, joins both threads and closes the port, so nothing outlives the link. This module must
never interpret the bytes: framing and matching belong to the device, on the loop, where they
can be cut exactly at the moment a question is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

log = logging.getLogger(__name__)

READ_SLICE = 0.2  # seconds a read blocks before the reader looks at its stop flag again
READ_CHUNK = 4096


@dataclass(frozen=True)
class PortSettings:
    port: str  # a device path or a pyserial URL
    baudrate: int = 9600
    bytesize: int = 8
    parity: str = "N"
    stopbits: float = 1
    terminator: bytes = b"\r\n"
    encoding: str = "ascii"
    max_line: int = 256  # bytes of a line without its terminator
    write_timeout: float = 1.0

    @classmethod
    def from_config(cls, dev: dict[str, Any]) -> PortSettings:
        encoding = str(dev.get("encoding", "ascii"))
        return cls(port=str(dev["port"]), baudrate=int(dev.get("baudrate", 9600)),
                   bytesize=int(dev.get("bytesize", 8)), parity=str(dev.get("parity", "N")),
                   stopbits=dev.get("stopbits", 1),
                   terminator=str(dev.get("terminator", "\r\n")).encode(encoding),
                   encoding=encoding, max_line=int(dev.get("max_line", 256)),
                   write_timeout=float(dev.get("timeout", 1.0)))

    @property
    def is_path(self) -> bool:
        """A local device path (watched for unplugging), not a URL."""
        return "://" not in self.port


class PortLost(Exception):
    """The port failed under us (unplugged, read or write error)."""


Job = tuple[Callable[[], Any], asyncio.Future[Any]]


class SerialLink:
    """An open port. Create with `await SerialLink.open(...)`; always `await close()`."""

    def __init__(self, name: str, settings: PortSettings,
                 on_data: Callable[[bytes, float, float], None],
                 on_lost: Callable[[str], None]) -> None:
        self.name = name
        self.settings = settings
        self.opened: str = settings.port  # what the path resolved to when it was opened
        self._on_data = on_data
        self._on_lost = on_lost
        self._loop = asyncio.get_running_loop()
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._serial: Any = None
        self._stopping = threading.Event()
        self.lost_reason: str | None = None  # set once, by whichever thread saw the failure
        self.cut: tuple[object, float] | None = None  # the last question and when it went out
        self._flushes = 0  # input flushes so far (written by the worker, read by the reader)
        self._lost_lock = threading.Lock()
        self._worker = threading.Thread(target=self._work, name=f"serial-{name}-io", daemon=True)
        self._reader: threading.Thread | None = None
        self._worker_done: asyncio.Future[None] = self._loop.create_future()
        self._closed = False

    @classmethod
    async def open(cls, name: str, settings: PortSettings,
                   on_data: Callable[[bytes, float, float], None],
                   on_lost: Callable[[str], None]) -> SerialLink:
        """Open the port (in the worker thread); raises OSError/SerialException if it cannot.

        `on_data(chunk, t, wall)` gets every chunk read, with time.monotonic() and time.time()
        of the read; `on_lost(reason)` is called once if the port fails. Both on the loop.
        """
        link = cls(name, settings, on_data, on_lost)
        link._worker.start()
        try:
            await link._submit(link._open_blocking)
        except BaseException:
            await link.close()
            raise
        return link

    async def write(self, data: bytes, *, question: object | None = None) -> None:
        """Send bytes; PortLost if the port failed.

        With `question` (a token of the request), input not read yet is discarded first and
        `cut` becomes (question, time.monotonic()) just before the bytes go out: whatever is
        read after that moment came after the question.
        """
        if self._closed or self.lost_reason is not None:
            raise PortLost(f"{self.settings.port} is closed")
        await self._submit(lambda: self._write_blocking(data, question))

    async def close(self) -> None:
        """Stop the reader, close the port and join both threads (idempotent)."""
        if not self._closed:
            self._closed = True
            self._stopping.set()
            self._cancel_read()
            cancel_write = getattr(self._serial, "cancel_write", None)
            if cancel_write is not None:  # a write stuck on a full output buffer ends now
                with contextlib.suppress(Exception):
                    cancel_write()
            self._jobs.put(None)
        if self._worker.is_alive() or not self._worker_done.done():
            # the worker completes the future as its very last step, so join() returns at once
            await asyncio.shield(self._worker_done)
        self._worker.join()

    # -- the worker thread ---------------------------------------------------------------------

    def _submit(self, fn: Callable[[], Any]) -> asyncio.Future[Any]:
        fut: asyncio.Future[Any] = self._loop.create_future()
        self._jobs.put((fn, fut))
        return fut

    def _work(self) -> None:
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    break
                fn, fut = job
                try:
                    result = fn()
                except BaseException as exc:
                    self._post(_settle, fut, None, exc)
                else:
                    self._post(_settle, fut, result, None)
            while True:  # jobs queued after close: fail them, do not run them
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is not None:
                    self._post(_settle, job[1], None, PortLost(f"{self.settings.port} is closed"))
        finally:
            self._shut_port()
            self._post(_settle, self._worker_done, None, None)

    def _open_blocking(self) -> None:
        s = self.settings
        if s.is_path:
            self.opened = os.path.realpath(s.port)
        port = serial.serial_for_url(
            s.port, do_not_open=True, baudrate=s.baudrate, bytesize=s.bytesize,
            parity=s.parity, stopbits=s.stopbits, timeout=READ_SLICE,
            # pyserial's rfc2217 refuses a write timeout (NotImplementedError at open)
            write_timeout=None if s.port.startswith("rfc2217://") else s.write_timeout,
            exclusive=True if s.is_path else None)
        port.open()
        self._serial = port
        if self._stopping.is_set():
            return
        self._reader = threading.Thread(target=self._read, name=f"serial-{self.name}-read",
                                        daemon=True)
        self._reader.start()

    def _write_blocking(self, data: bytes, question: object | None) -> None:
        try:
            if question is not None:
                self._flushes += 1  # before the flush: the reader checks it after a failed read
                self._serial.reset_input_buffer()
                self.cut = (question, time.monotonic())
            self._serial.write(data)
        except (serial.SerialException, OSError) as exc:
            self._report_lost(f"write failed: {exc}")
            raise PortLost(str(exc)) from None

    def _shut_port(self) -> None:
        self._stopping.set()
        self._cancel_read()
        if self._reader is not None:
            self._reader.join()
        if self._serial is not None:
            with contextlib.suppress(Exception):
                self._serial.close()

    def _cancel_read(self) -> None:
        port = self._serial
        cancel = getattr(port, "cancel_read", None)
        if cancel is not None:
            with contextlib.suppress(Exception):
                cancel()

    # -- the reader thread ---------------------------------------------------------------------

    def _read(self) -> None:
        port = self._serial
        while not self._stopping.is_set():
            flushes = self._flushes
            try:
                waiting = port.in_waiting
                data = port.read(min(max(1, waiting), READ_CHUNK))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                # TypeError/AttributeError: pyserial's own state torn down by a concurrent close
                if self._stopping.is_set():
                    return
                if flushes != self._flushes and "returned no data" in str(exc):
                    # our own flush emptied the input between select() and read() (a tty with
                    # VMIN=0 then reads 0 bytes, which pyserial takes for a disconnect)
                    continue
                self._report_lost(_reason(exc))
                return
            if data:
                self._post(self._on_data, data, time.monotonic(), time.time())

    def _report_lost(self, reason: str) -> None:
        with self._lost_lock:  # the reader and the worker may both see the failure
            if self.lost_reason is not None:
                return
            self.lost_reason = reason
        self._post(self._on_lost, reason)

    def _post(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            self._loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass


def _settle(fut: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if fut.done():
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(result)


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "readiness to read but returned no data" in text:
        return "the device stopped answering reads (unplugged?)"
    return f"read failed: {text}"
