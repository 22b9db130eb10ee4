"""One open serial port, on pyserial, feeding the bytes it reads to the event loop.

Why threads: pyserial's API is blocking, and the tool must serve paths (`/dev/serial/by-id/...`),
`socket://` and `rfc2217://` URLs alike. Only the tty backend exposes a file descriptor that
`loop.add_reader` could watch (rfc2217 reads through its own thread and queue), so a non-blocking
fd path would be a second implementation for one backend. Instead each open port has two threads
that own all of its blocking calls:

- a *reader* thread is the only one that takes input from the port. It blocks in `read()` (a
  short timeout slice so it notices a stop, and `cancel_read()` where the backend has it), hands
  each chunk to the loop with one `call_soon_threadsafe`, and between two reads makes the *cuts*:
  it discards the input not read yet and tells the loop, in order with the chunks;
- a *worker* thread runs the other blocking calls in order: open, every write, close. Before it
  writes a question it asks the reader for a cut and waits until it is made.

A cut and a read never overlap, so every chunk is unambiguously before or after each cut: the
loop sees chunks and cuts in the order the reader made them, and what follows a question's cut
was taken from the port after the stale input was thrown away (never a chunk read before it and
delivered late). The loop never waits on the port; it awaits futures the threads complete.
`close()` stops the reader, joins both threads and closes the port, so nothing outlives the link.
This module must never interpret the bytes: framing and matching belong to the device, on the loop.
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

from hermesd.core.settings.serial import SerialDeviceSettings

log = logging.getLogger(__name__)

READ_SLICE = 0.2  # seconds a read blocks before the reader looks at its stop flag again
# A backend without cancel_read() (socket://, rfc2217://) cannot be woken for a cut: its reads
# block only this long, so a question waits at most this for the reader to discard stale input.
QUICK_SLICE = 0.01
READ_CHUNK = 4096


@dataclass(frozen=True)
class PortSettings:
    port: str  # a device path or a pyserial URL
    # the rest: the config's defaults (hermesd.core.settings.serial)
    baudrate: int = SerialDeviceSettings.baudrate
    bytesize: int = SerialDeviceSettings.bytesize
    parity: str = SerialDeviceSettings.parity
    stopbits: float = SerialDeviceSettings.stopbits
    terminator: bytes = SerialDeviceSettings.terminator.encode(SerialDeviceSettings.encoding)
    encoding: str = SerialDeviceSettings.encoding
    max_line: int = SerialDeviceSettings.max_line  # bytes of a line without its terminator
    write_timeout: float = 1.0

    @classmethod
    def from_config(cls, dev: dict[str, Any]) -> PortSettings:
        """The port settings of a device's config slice (its settings and its `timeout`)."""
        d = SerialDeviceSettings.from_dict(dev, f"devices.{dev.get('id', '?')}")
        return cls(port=d.port, baudrate=d.baudrate, bytesize=d.bytesize, parity=d.parity,
                   stopbits=d.stopbits, terminator=d.terminator.encode(d.encoding),
                   encoding=d.encoding, max_line=d.max_line,
                   write_timeout=float(dev["timeout"]))

    @property
    def is_path(self) -> bool:
        """A local device path (watched for unplugging), not a URL."""
        return "://" not in self.port


class PortLost(Exception):
    """The port failed under us (unplugged, read or write error). `begun`: it failed while
    the bytes of a write were going out, so some or all of them may be on the line."""

    def __init__(self, reason: str, *, begun: bool = False) -> None:
        super().__init__(reason)
        self.begun = begun


Job = tuple[Callable[[], Any], asyncio.Future[Any]]


class _Cut:
    """A question's request to the reader: discard unread input, then say so to the loop."""

    def __init__(self, question: object) -> None:
        self.question = question
        self.made = False
        self.over = threading.Event()  # made, or never will be (the reader stopped)


class SerialLink:
    """An open port. Create with `await SerialLink.open(...)`; always `await close()`."""

    def __init__(self, name: str, settings: PortSettings,
                 on_data: Callable[[bytes, float], None],
                 on_cut: Callable[[object, int], None],
                 on_lost: Callable[[str], None]) -> None:
        self.name = name
        self.settings = settings
        self.opened: str = settings.port  # what the path resolved to when it was opened
        self._on_data = on_data
        self._on_cut = on_cut
        self._on_lost = on_lost
        self._loop = asyncio.get_running_loop()
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._cuts: queue.SimpleQueue[_Cut] = queue.SimpleQueue()  # worker -> reader
        self._serial: Any = None
        self._stopping = threading.Event()
        self.lost_reason: str | None = None  # set once, by whichever thread saw the failure
        self._lost_lock = threading.Lock()
        self._worker = threading.Thread(target=self._work, name=f"serial-{name}-io", daemon=True)
        self._reader: threading.Thread | None = None
        self._worker_done: asyncio.Future[None] = self._loop.create_future()
        self._closed = False

    @classmethod
    async def open(cls, name: str, settings: PortSettings,
                   on_data: Callable[[bytes, float], None],
                   on_cut: Callable[[object, int], None],
                   on_lost: Callable[[str], None]) -> SerialLink:
        """Open the port (in the worker thread); raises OSError/SerialException if it cannot.

        `on_data(chunk, wall)` gets every chunk read, with the time.time() of the read;
        `on_cut(question, discarded)` says that input was discarded for `question` (about
        `discarded` bytes were waiting): every chunk after it was read after that moment;
        `on_lost(reason)` is called once if the port fails. All on the loop, chunks and cuts in
        the order the reader made them.
        """
        link = cls(name, settings, on_data, on_cut, on_lost)
        link._worker.start()
        try:
            await link._submit(link._open_blocking)
        except BaseException:
            await link.close()
            raise
        return link

    async def write(self, data: bytes, *, question: object | None = None) -> None:
        """Send bytes; PortLost if the port failed.

        With `question` (a token of the request), the reader first discards the input it has
        not read yet and reports `on_cut(question, ...)`; only then do the bytes go out. So the
        chunks the loop gets after that cut were read after the stale input was thrown away.
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
        if getattr(port, "cancel_read", None) is None:  # a cut cannot wake its reads: keep them short
            port.timeout = QUICK_SLICE
        port.open()
        self._serial = port
        if self._stopping.is_set():
            return
        self._reader = threading.Thread(target=self._read, name=f"serial-{self.name}-read",
                                        daemon=True)
        self._reader.start()

    def _write_blocking(self, data: bytes, question: object | None) -> None:
        if question is not None:
            self._cut_blocking(question)
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError) as exc:
            self._report_lost(f"write failed: {exc}")
            raise PortLost(str(exc), begun=True) from None

    def _cut_blocking(self, question: object) -> None:
        """Have the reader discard unread input for `question`; return once it has."""
        cut = _Cut(question)
        self._cuts.put(cut)
        self._cancel_read()  # wake a reader blocked in read(); it makes the cut before the next
        while not cut.over.wait(READ_SLICE):
            if self._stopping.is_set() or self.lost_reason is not None:
                break  # the reader may have stopped before it saw the cut
        if not cut.made:
            raise PortLost(self.lost_reason or f"{self.settings.port} is closed")

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
        try:
            while not self._stopping.is_set():
                self._make_cuts(port)
                waiting = port.in_waiting
                data = port.read(min(max(1, waiting), READ_CHUNK))
                if data:
                    self._post(self._on_data, data, time.time())
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            # TypeError/AttributeError: pyserial's own state torn down by a concurrent close
            if not self._stopping.is_set():
                self._report_lost(_reason(exc))
        finally:
            while True:  # cuts asked for now will never be made: do not keep the worker waiting
                try:
                    self._cuts.get_nowait().over.set()
                except queue.Empty:
                    break

    def _make_cuts(self, port: Any) -> None:
        """Discard unread input for each question waiting to go out (between two reads)."""
        while True:
            try:
                cut = self._cuts.get_nowait()
            except queue.Empty:
                return
            try:
                waiting = port.in_waiting
                port.reset_input_buffer()
            except BaseException:
                self._cuts.put(cut)  # settled with the others once the failure is reported
                raise
            self._post(self._on_cut, cut.question, waiting)
            cut.made = True
            cut.over.set()

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
