"""Request counters and latency histograms, kept in memory for `status` and the metrics endpoint.

Cheap enough for every request: a dict increment and a bisect. Never blocks, never does I/O.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

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


class Metrics:
    def __init__(self) -> None:
        self.requests: Counter[tuple[str, str]] = Counter()  # (route, status) -> count
        self.latency: dict[str, Histogram] = {}
        self.events: Counter[str] = Counter()  # named happenings: tool restarts, bad frames, ...

    def observe(self, route: str, status: str, seconds: float) -> None:
        self.requests[(route, status)] += 1
        self.latency.setdefault(route, Histogram()).observe(seconds)

    def count(self, event: str, n: int = 1) -> None:
        self.events[event] += n

    def summary(self) -> dict[str, Any]:
        by_route: dict[str, Any] = {}
        for (route, status), n in sorted(self.requests.items()):
            by_route.setdefault(route, {"count": 0, "by_status": {}})
            by_route[route]["count"] += n
            by_route[route]["by_status"][status] = n
        for route, hist in self.latency.items():
            by_route[route]["latency_ms"] = {
                "mean": round(hist.total / hist.n * 1000, 3) if hist.n else None,
                "p50_le": _ms(hist.quantile(0.5)), "p99_le": _ms(hist.quantile(0.99)),
                "buckets_s": dict(zip([*map(str, BUCKETS), "+Inf"], hist.counts, strict=True)),
            }
        return {"requests": by_route, "events": dict(self.events)}


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000
