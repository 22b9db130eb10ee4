"""A free TCP port on loopback, for a server a test or benchmark starts (a broker, a PLC).

The port is free when asked; the server binds it a moment later. Nothing else on a test machine
takes ports from the ephemeral range in between often enough to matter, but this process may:
two calls before either server binds can be handed the same port by the kernel (a TLS broker's
second listener once got its first one's), so a port is never handed out twice.
"""

from __future__ import annotations

import socket

_GIVEN: set[int] = set()


def free_port() -> int:
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in _GIVEN:
            _GIVEN.add(port)
            return port
