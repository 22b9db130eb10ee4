"""Where a Modbus link really goes, as this tool connects to it: for the guard on raw writes.

hermesd's config check sees one place behind every spelling of a link the system connects
without DNS (`hermesd.config.drivers.modbus.one_link`), and its policy refuses a raw write to
the registers of a configured point of the unit written to. A host name the resolver looks up
elsewhere (DNS, mDNS, an NSS module) can still be a second spelling of a configured PLC, and a
raw write through it would reach a point's registers past the point's range and role. This
tool connects to those names itself; so at a raw write it asks the resolver as its connection
does, and refuses the write when another device of its config is the same place and unit with
a point on the registers written.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import stat
import time
from typing import Any

from hermes_tools.modbus.bus import LinkSpec

#: a TCP unit id a gateway or a plain TCP device answers whatever it is (MBAP)
ANY_UNIT = (0, 255)


#: how long a raw write waits for a host name to resolve (the resolver's own timeout is
#: seconds; a write never waits on it longer than this)
RESOLVE_S = 1.0
#: how long an answer of the resolver is kept: one lookup of a name at a time, however many
#: raw writes ask (a slow resolver's lookups had piled up in the tool's threads — atk29)
KEEP_S = 30.0

Place = frozenset[tuple[str, str, int]]


class Places:
    """The places links reach, their names resolved one lookup at a time."""

    def __init__(self) -> None:
        self._lookups: dict[tuple[str, int], tuple[float, asyncio.Task[Any]]] = {}

    async def of(self, link: LinkSpec, peer: str | None = None) -> Place | None:
        """The places a link reaches: ("ip", address, port) for the address its connection is
        open to (`peer`), else for each its host resolves to (this machine's loopback
        addresses as one); ("serial", device, 0) for the device node a serial port is. An
        empty set: its host does not resolve. None: the resolver did not answer in time."""
        if not link.network:
            return frozenset({("serial", _device_node(str(link.port)), 0)})
        port = int(link.port)
        if peer is not None:
            return frozenset({("ip", _address(peer), port)})
        assert link.host is not None
        lookup = self._lookup(link.host, port)
        try:
            async with asyncio.timeout(RESOLVE_S):
                found = await asyncio.shield(lookup)
        except TimeoutError:
            return None
        except (OSError, UnicodeError):
            return frozenset()
        return frozenset(("ip", _address(str(info[4][0])), port) for info in found)

    def _lookup(self, host: str, port: int) -> asyncio.Task[Any]:
        now = time.monotonic()
        kept = self._lookups.get((host, port))
        if kept is not None and (not kept[1].done() or now - kept[0] < KEEP_S):
            return kept[1]
        task = asyncio.ensure_future(asyncio.get_running_loop().getaddrinfo(
            host, port, type=socket.SOCK_STREAM))
        task.add_done_callback(_seen)
        self._lookups[(host, port)] = (now, task)
        return task

    def close(self) -> None:
        """Stop the lookups still under way (the tool is stopping)."""
        for _, task in self._lookups.values():
            task.cancel()
        self._lookups.clear()


def _seen(task: asyncio.Task[Any]) -> None:
    """Retrieve a lookup's failure, whether or not a write still waits for it."""
    if not task.cancelled():
        task.exception()


def one_unit(a_link: LinkSpec, a_unit: int, b_link: LinkSpec, b_unit: int) -> bool:
    """Whether two units of one place answer the same registers: the same unit id, or on
    MBAP (tcp, udp) unit 0 or 255 beside any other."""
    return a_unit == b_unit or (
        a_link.transport in ("tcp", "udp") and b_link.transport in ("tcp", "udp")
        and (a_unit in ANY_UNIT or b_unit in ANY_UNIT))


def _address(text: str) -> str:
    """An address as one place: without its zone, IPv4 mapped into IPv6 as IPv4, every
    loopback and unspecified address as this machine."""
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return "this machine" if ip.is_loopback or ip.is_unspecified else str(ip)


def _device_node(path: str) -> str:
    """A serial port as the device node it is, however linked (by-id, by-path, a symlink)."""
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    if stat.S_ISCHR(st.st_mode):
        return f"char {os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
    return os.path.realpath(path)
