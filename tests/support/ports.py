"""A free TCP port on loopback, for a server a test or benchmark starts (a broker, a PLC).

The port is free when asked; the server binds it a moment later. Nothing else on a test machine
takes ports from the ephemeral range in between often enough to matter.
"""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
