"""systemd's notify protocol: READY, STATUS, WATCHDOG, RELOADING, STOPPING over NOTIFY_SOCKET.

Works the same under systemd and in tests: the socket path comes from `NOTIFY_SOCKET` (a path,
or an abstract name written with a leading `@`), the watchdog interval from `WATCHDOG_USEC`
(honoured only when `WATCHDOG_PID` is unset or ours). Without `NOTIFY_SOCKET` every call is a
no-op. A failure to send is logged once, never raised: notifications must not kill the daemon,
and never block it — a notify socket whose queue is full (nobody reading it) drops the message
instead of stalling the event loop.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        path = env.get("NOTIFY_SOCKET", "")
        self.address: str | None = None
        if path.startswith("@"):
            self.address = "\0" + path[1:]
        elif path.startswith("/"):
            self.address = path
        self._sock: socket.socket | None = None
        self._failed = False
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        self.watchdog_usec = int(usec) if usec.isdigit() and int(usec) > 0 and \
            (not pid or pid == str(os.getpid())) else 0

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def watchdog_interval(self) -> float | None:
        """Seconds between WATCHDOG=1 pings: half of WATCHDOG_USEC, or None when not asked."""
        return self.watchdog_usec / 2e6 if self.watchdog_usec else None

    def send(self, *lines: str) -> bool:
        if self.address is None:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                                           | socket.SOCK_NONBLOCK)
            self._sock.sendto("\n".join(lines).encode(), self.address)
        except OSError as exc:
            if not self._failed:
                log.warning("cannot notify systemd at %s: %s", self.address.replace("\0", "@"),
                            exc)
                self._failed = True
            return False
        return True

    def ready(self, status: str) -> None:
        self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> None:
        self.send(f"STATUS={status}")

    def reloading(self) -> None:
        usec = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
        self.send("RELOADING=1", f"MONOTONIC_USEC={usec}", "STATUS=reloading the config")

    def stopping(self) -> None:
        self.send("STOPPING=1", "STATUS=stopping")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
