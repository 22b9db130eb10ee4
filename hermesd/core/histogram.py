"""A latency histogram in fixed buckets: the daemon's request metrics and a tool's bus latency.

Shared by daemon and tools (a tool reports its buckets, the daemon adds them up), so both count
into the same bounds. Cheap for every observation: a bisect and two additions.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

#: latency bucket upper bounds in seconds (Prometheus-style, cumulative when exported)
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


@dataclass
class Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0
    n: int = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds
        self.n += 1

    def quantile(self, q: float) -> float | None:
        """Upper bound of the bucket holding the q-quantile (None when empty or beyond)."""
        if not self.n:
            return None
        rank = q * self.n
        seen = 0
        for bound, count in zip((*BUCKETS, float("inf")), self.counts, strict=True):
            seen += count
            if seen >= rank:
                return None if bound == float("inf") else bound
        return None
