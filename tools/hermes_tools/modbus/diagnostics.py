"""What each Modbus device did on the wire, counted for hermesd's `status` and `/metrics`.

Per device: requests sent, Modbus exceptions by code, timeouts (silence until the deadline),
bad replies (garbled, cut short, or answering another request), reconnects (a link opened again
after it had been up) and a latency histogram of the requests that got an answer. `Bus` counts
into the diagnostics of the device whose request it is carrying: the tool sets `CURRENT`
around each request (a context variable, so on a shared link every unit's requests are its
own). Counters only: nothing here logs, decides or does I/O.
"""

from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from hermesd.core.histogram import Histogram


@dataclass
class DeviceDiagnostics:
    requests: int = 0
    exceptions: Counter[int] = field(default_factory=Counter)  # Modbus exception code -> count
    timeouts: int = 0
    bad_replies: int = 0
    reconnects: int = 0
    latency: Histogram = field(default_factory=Histogram)  # seconds, answered requests only
    reported: int = -1  # `changes` when last sent to hermesd
    changes: int = 0

    def sent(self) -> None:
        self.requests += 1
        self.changes += 1

    def answered(self, seconds: float, exception: int | None = None) -> None:
        self.latency.observe(seconds)
        if exception is not None:
            self.exceptions[exception] += 1

    def timed_out(self) -> None:
        self.timeouts += 1
        self.changes += 1

    def bad_reply(self) -> None:
        self.bad_replies += 1
        self.changes += 1

    def reconnected(self) -> None:
        self.reconnects += 1
        self.changes += 1

    def to_dict(self) -> dict[str, Any]:
        """Counts since the tool started; `latency.buckets` follow `hermesd.metrics.BUCKETS`
        (not cumulative; the last is beyond the largest bound)."""
        return {"requests": self.requests, "timeouts": self.timeouts,
                "bad_replies": self.bad_replies, "reconnects": self.reconnects,
                "exceptions": {str(code): n for code, n in sorted(self.exceptions.items())},
                "latency": {"buckets": list(self.latency.counts),
                            "sum_s": round(self.latency.total, 6), "count": self.latency.n}}


#: the diagnostics of the device whose request the running task is making (set by the tool)
CURRENT: ContextVar[DeviceDiagnostics | None] = ContextVar("modbus_device", default=None)
_UNCOUNTED = DeviceDiagnostics()  # requests made outside any device's (tests of the bus alone)


def current() -> DeviceDiagnostics:
    return CURRENT.get() or _UNCOUNTED
