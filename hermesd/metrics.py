"""Request counters and latency histograms, kept in memory for `status` and the metrics endpoint.

Cheap enough for every request: a dict increment and a bisect. Never blocks, never does I/O.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hermesd.core.histogram import BUCKETS, Histogram

__all__ = ["BUCKETS", "Histogram", "Metrics"]

class Metrics:
    def __init__(self) -> None:
        self.requests: Counter[tuple[str, str]] = Counter()  # (route, status) -> count
        self.latency: dict[str, Histogram] = {}
        self.events: Counter[str] = Counter()  # named happenings: tool restarts, bad frames, ...

    def observe(self, route: str, status: str, seconds: float) -> None:
        self.requests[(route, status)] += 1
        hist = self.latency.get(route)
        if hist is None:  # not setdefault: that would build a Histogram on every request
            hist = self.latency[route] = Histogram()
        hist.observe(seconds)

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
