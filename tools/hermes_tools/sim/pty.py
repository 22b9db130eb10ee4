"""A virtual null-modem cable: two pseudo-terminals whose masters are copied into each other.

One `os.openpty()` pair offers a single openable path (the slave); two pairs bridged by the
event loop give two paths that behave like the ends of a serial cable, so a pymodbus RTU server
can sit on one end and hermesd's tool (or any Modbus master) open the other. Baud rate and
parity have no effect on a pty; frames arrive as fast as the loop copies them. It never blocks
the loop: both masters are non-blocking, and bytes nobody reads are dropped as on a wire.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tty


class PtyBridge:
    def __init__(self) -> None:
        self.master_a, self.slave_a = os.openpty()
        self.master_b, self.slave_b = os.openpty()
        for fd in (self.slave_a, self.slave_b):
            tty.setraw(fd)  # before anyone writes: no echo, no newline translation
        for fd in (self.master_a, self.master_b):
            os.set_blocking(fd, False)
        self.path_a = os.ttyname(self.slave_a)  # the simulator's end
        self.path_b = os.ttyname(self.slave_b)  # the end a Modbus master opens
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.master_a, self._copy, self.master_a, self.master_b)
        self._loop.add_reader(self.master_b, self._copy, self.master_b, self.master_a)

    @staticmethod
    def _copy(src: int, dst: int) -> None:
        try:
            data = os.read(src, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # EIO: nobody has the other end open; the bytes are lost, as on a wire
            return
        if data:
            with contextlib.suppress(BlockingIOError, OSError):
                os.write(dst, data)

    def close(self) -> None:
        if self._loop is not None:
            for fd in (self.master_a, self.master_b):
                with contextlib.suppress(ValueError, OSError):
                    self._loop.remove_reader(fd)
            self._loop = None
        for fd in (self.master_a, self.slave_a, self.master_b, self.slave_b):
            with contextlib.suppress(OSError):
                os.close(fd)
