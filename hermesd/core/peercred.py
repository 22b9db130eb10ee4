"""Who is at the other end of a connected Unix socket: the kernel's SO_PEERCRED, nothing else.

The daemon uses it to check that a tool socket is served by the very child it started, and each
tool to accept only the daemon that started it. The credentials are the ones the kernel recorded
when the peer connected (or listened); a peer cannot choose them. This module never trusts what
a peer says about itself.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from dataclasses import dataclass

_CREDS = struct.Struct("3i")  # struct ucred: pid, uid, gid


@dataclass(frozen=True, slots=True)
class PeerCred:
    pid: int
    uid: int
    gid: int


def of_socket(sock: socket.socket) -> PeerCred | None:
    """The peer's credentials, or None when the socket cannot tell (closed, not AF_UNIX)."""
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDS.size)
    except (OSError, AttributeError):
        return None
    pid, uid, gid = _CREDS.unpack(raw)
    return PeerCred(pid, uid, gid)


def of_stream(writer: asyncio.StreamWriter) -> PeerCred | None:
    """The credentials of the peer of an asyncio (or uvloop) Unix stream."""
    sock = writer.get_extra_info("socket")
    return None if sock is None else of_socket(sock)
