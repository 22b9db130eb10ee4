"""Where a simulated instrument is plugged in: a pseudo-terminal behind a stable symlink, or TCP.

`PtyPort` makes a pty pair in raw mode and points a symlink (the path the config names, like a
`/dev/serial/by-id/...` link) at its slave; unplugging closes the pair and removes the link, and
plugging in again makes a new pty (a new /dev/pts number) behind the same link, as udev does for
a USB adapter. `TcpPort` serves a `socket://HOST:PORT` device and `Rfc2217Port` an
`rfc2217://HOST:PORT` one (Telnet and RFC 2217 negotiation by pyserial's `PortManager`). All
run on the event loop with `add_reader` and never block: bytes that cannot be written at once
are dropped, as a UART with nobody listening would lose them.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import serial
from serial import rfc2217

log = logging.getLogger(__name__)

#: (bytes received, reply function for them)
Receiver = Callable[[bytes, Callable[[bytes], None]], None]


class SimPort:
    """The plug of one instrument."""

    @property
    def where(self) -> str:
        """What a person needs to know: the link and its tty, or the TCP address."""
        raise NotImplementedError

    def plug(self) -> None:
        raise NotImplementedError

    def unplug(self) -> None:
        raise NotImplementedError

    def send(self, data: bytes) -> None:
        """Send to everyone connected (streamed lines, pushed bytes)."""
        raise NotImplementedError

    @property
    def plugged(self) -> bool:
        raise NotImplementedError


def _write_all(fd: int, data: bytes) -> int:
    """Write without blocking; return the bytes dropped because the other side is not reading."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            break
        except OSError as exc:
            if exc.errno != errno.EIO:
                log.debug("write failed: %s", exc)
            break
    return len(view)


class PtyPort(SimPort):
    def __init__(self, link: Path, on_data: Receiver) -> None:
        self.link = link
        self.on_data = on_data
        self._master: int | None = None
        self._slave: int | None = None  # kept open so the master never sees a hang-up
        self.tty = ""
        self.dropped_bytes = 0

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def where(self) -> str:
        return f"{self.link} -> {self.tty}" if self.plugged else f"{self.link} (unplugged)"

    def plug(self) -> None:
        if self.plugged:
            return
        if self.link.exists() and not self.link.is_symlink():
            raise FileExistsError(f"{self.link} exists and is not a symlink: it is not ours to "
                                  "replace (use --link-dir)")
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no CR/LF translation: bytes pass as they are
        os.set_blocking(master, False)
        self.tty = os.ttyname(slave)
        self.link.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.link.with_name(f".{self.link.name}.new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        try:
            tmp.symlink_to(self.tty)
            tmp.replace(self.link)  # atomic: the link is never seen half made
        except OSError:
            os.close(master)
            os.close(slave)
            raise
        self._master, self._slave = master, slave
        asyncio.get_running_loop().add_reader(master, self._readable)

    def unplug(self) -> None:
        if self._master is None:
            return
        asyncio.get_running_loop().remove_reader(self._master)
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def send(self, data: bytes) -> None:
        if self._master is not None:
            self.dropped_bytes += _write_all(self._master, data)

    def _readable(self) -> None:
        master = self._master
        if master is None:
            return
        try:
            data = os.read(master, 4096)
        except BlockingIOError:
            return
        except OSError as exc:
            log.debug("%s: read failed: %s", self.link, exc)
            return
        if data:
            self.on_data(data, self.send)


class TcpPort(SimPort):
    def __init__(self, url: str, on_data: Receiver) -> None:
        parts = urlsplit(url)
        if parts.hostname is None or parts.port is None:
            raise ValueError(f"{url!r} is not {parts.scheme}://HOST:PORT")
        self.address = (parts.hostname, parts.port)
        self.scheme = parts.scheme
        self.on_data = on_data
        self._listener: socket.socket | None = None
        self._clients: set[socket.socket] = set()

    @property
    def plugged(self) -> bool:
        return self._listener is not None

    @property
    def where(self) -> str:
        state = "" if self.plugged else " (unplugged)"
        return f"{self.scheme}://{self.address[0]}:{self.address[1]}{state}"

    def plug(self) -> None:
        if self._listener is not None:
            return
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind(self.address)
            listener.listen(4)
        except OSError:
            listener.close()
            raise
        listener.setblocking(False)
        self._listener = listener
        asyncio.get_running_loop().add_reader(listener.fileno(), self._accept)

    def unplug(self) -> None:
        loop = asyncio.get_running_loop()
        for client in list(self._clients):
            self._drop_client(client)
        if self._listener is not None:
            loop.remove_reader(self._listener.fileno())
            self._listener.close()
            self._listener = None

    def send(self, data: bytes) -> None:
        for client in list(self._clients):
            self._send_to(client, data)

    def _send_to(self, client: socket.socket, data: bytes) -> None:
        if client in self._clients:
            _write_all(client.fileno(), self._outgoing(client, data))

    # the wire format of a connection: plain bytes here, Telnet-framed for RFC 2217

    def _accepted(self, client: socket.socket) -> None:
        pass

    def _incoming(self, client: socket.socket, data: bytes) -> bytes:
        return data

    def _outgoing(self, client: socket.socket, data: bytes) -> bytes:
        return data

    def _closing(self, client: socket.socket) -> None:
        pass

    def _accept(self) -> None:
        if self._listener is None:
            return
        try:
            client, _ = self._listener.accept()
        except BlockingIOError:
            return
        client.setblocking(False)
        self._clients.add(client)
        self._accepted(client)
        asyncio.get_running_loop().add_reader(client.fileno(), self._readable, client)

    def _readable(self, client: socket.socket) -> None:
        try:
            data = client.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop_client(client)
            return
        data = self._incoming(client, data)
        if data:
            self.on_data(data, lambda reply: self._send_to(client, reply))

    def _drop_client(self, client: socket.socket) -> None:
        if client in self._clients:
            self._clients.discard(client)
            asyncio.get_running_loop().remove_reader(client.fileno())
            self._closing(client)
            client.close()


class _Connection:
    """What pyserial's PortManager writes its Telnet replies to."""

    def __init__(self, client: socket.socket) -> None:
        self.client = client

    def write(self, data: bytes) -> None:
        _write_all(self.client.fileno(), data)


class Rfc2217Port(TcpPort):
    def __init__(self, url: str, on_data: Receiver) -> None:
        super().__init__(url, on_data)
        self._managers: dict[socket.socket, tuple[Any, Any]] = {}

    def _accepted(self, client: socket.socket) -> None:
        # the port settings a client asks for land on a loop:// stand-in: a simulated
        # instrument takes any baud rate, as a real one set up for it would
        stand_in = serial.serial_for_url("loop://")
        self._managers[client] = (rfc2217.PortManager(stand_in, _Connection(client)), stand_in)

    def _incoming(self, client: socket.socket, data: bytes) -> bytes:
        return b"".join(self._managers[client][0].filter(data))

    def _outgoing(self, client: socket.socket, data: bytes) -> bytes:
        return b"".join(self._managers[client][0].escape(data))

    def _closing(self, client: socket.socket) -> None:
        _, stand_in = self._managers.pop(client)
        stand_in.close()
