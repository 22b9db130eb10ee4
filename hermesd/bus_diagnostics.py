"""Bus diagnostics of field devices as their tools report them, kept for `status` and `/metrics`.

A tool (the modbus tool) sends each device's counts since that tool process started in a
`diagnostics` event: requests, exceptions by Modbus exception code, timeouts, bad replies,
reconnects and a latency histogram (buckets of `hermesd.core.histogram.BUCKETS`). The counters here
are hermesd's and only grow while hermesd runs: when a tool restarts (its report names another
`started` time), what its previous run counted is kept as a base, so `/metrics` shows one
counter per device, not one that drops to zero with every tool restart. A malformed report is a
`ProtocolError` (the engine counts and logs it) and changes nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hermesd.config.model import Config, Device
from hermesd.core.errors import ProtocolError
from hermesd.core.histogram import BUCKETS, Histogram
from hermesd.registry import tool_of

COUNTS = ("requests", "timeouts", "bad_replies", "reconnects")
#: the most one report may say, and where hermesd's sums stop: a count a float holds exactly,
#: and seconds (31,000 years) no bus has waited. A tool claiming more (or naming a new run in
#: every report, so that its claims add up) once drove the latency sum to infinity, and
#: `status` could no longer be written as JSON until hermesd restarted
MAX_COUNT = 2**53
MAX_SECONDS = 1e12


@dataclass
class BusCounts:
    requests: int = 0
    timeouts: int = 0
    bad_replies: int = 0
    reconnects: int = 0
    exceptions: Counter[str] = field(default_factory=Counter)  # exception code -> count
    latency: Histogram = field(default_factory=Histogram)

    @classmethod
    def from_report(cls, data: Any) -> BusCounts:
        if not isinstance(data, dict):
            raise ProtocolError("diagnostics: a device's counts must be an object")
        counts = cls()
        for key in COUNTS:
            setattr(counts, key, _count(data.get(key, 0), key))
        exceptions = data.get("exceptions", {})
        if not isinstance(exceptions, dict):
            raise ProtocolError("diagnostics: exceptions must be an object")
        for code, n in exceptions.items():
            if not (isinstance(code, str) and code.isascii() and code.isdigit()
                    and 0 < int(code) < 256):
                raise ProtocolError(f"diagnostics: {code!r} is no Modbus exception code")
            counts.exceptions[str(int(code))] = _count(n, f"exceptions {code}")
        latency = data.get("latency", {})
        if not isinstance(latency, dict):
            raise ProtocolError("diagnostics: latency must be an object")
        buckets = latency.get("buckets", [0] * (len(BUCKETS) + 1))
        if not isinstance(buckets, list) or len(buckets) != len(BUCKETS) + 1:
            raise ProtocolError(f"diagnostics: latency buckets must be {len(BUCKETS) + 1} counts")
        counts.latency.counts = [_count(n, "latency bucket") for n in buckets]
        counts.latency.n = min(sum(counts.latency.counts), MAX_COUNT)
        total = latency.get("sum_s", 0.0)
        if isinstance(total, bool) or not isinstance(total, int | float) \
                or not math.isfinite(total) or not 0 <= total <= MAX_SECONDS:
            raise ProtocolError(f"diagnostics: latency sum_s must be seconds (0..{MAX_SECONDS:g})")
        counts.latency.total = float(total)
        return counts

    def plus(self, other: BusCounts) -> BusCounts:
        latency = Histogram([_sum(a, b) for a, b in zip(self.latency.counts,
                                                        other.latency.counts, strict=True)],
                            min(self.latency.total + other.latency.total, MAX_SECONDS),
                            _sum(self.latency.n, other.latency.n))
        exceptions = Counter({code: _sum(self.exceptions[code], other.exceptions[code])
                              for code in self.exceptions.keys() | other.exceptions.keys()})
        total = BusCounts(exceptions=exceptions, latency=latency)
        for key in COUNTS:
            setattr(total, key, _sum(getattr(self, key), getattr(other, key)))
        return total

    def to_dict(self) -> dict[str, Any]:
        hist = self.latency
        return {**{key: getattr(self, key) for key in COUNTS},
                "exceptions": dict(sorted(self.exceptions.items(), key=lambda kv: int(kv[0]))),
                "latency_ms": {
                    "mean": round(hist.total / hist.n * 1000, 3) if hist.n else None,
                    "p50_le": _ms(hist.quantile(0.5)), "p99_le": _ms(hist.quantile(0.99)),
                    "sum_s": round(hist.total, 6), "count": hist.n,
                    "buckets_s": dict(zip([*map(str, BUCKETS), "+Inf"], hist.counts,
                                          strict=True))}}


@dataclass
class _Device:
    started: float | None = None  # the tool run the last report came from
    base: BusCounts = field(default_factory=BusCounts)  # what earlier runs of the tool counted
    last: BusCounts = field(default_factory=BusCounts)  # what the current run has counted


class BusDiagnostics:
    """Each device's bus counts, from the `diagnostics` events of the tool that serves it."""

    def __init__(self, config: Config) -> None:
        self._devices: Mapping[str, Device] = config.devices
        self._counts: dict[str, _Device] = {}

    def reconfigure(self, config: Config) -> None:
        self._devices = config.devices
        self._counts = {d: c for d, c in self._counts.items() if d in config.devices}

    def on_event(self, tool: str, data: dict[str, Any]) -> None:
        devices, started = data.get("devices"), data.get("started")
        if not isinstance(devices, dict):
            raise ProtocolError("diagnostics: expected {devices: {id: counts}}")
        if started is not None and (isinstance(started, bool)
                                    or not isinstance(started, int | float)):
            raise ProtocolError("diagnostics: started must be a time")
        reports = {}
        for dev_id, counts in devices.items():
            device = self._devices.get(dev_id) if isinstance(dev_id, str) else None
            if device is None or tool_of(device) != tool:
                raise ProtocolError(f"diagnostics for {dev_id!r}, which tool {tool} does not "
                                    "serve")
            reports[dev_id] = BusCounts.from_report(counts)
        for dev_id, counts in reports.items():  # all checked: now take them
            entry = self._counts.setdefault(dev_id, _Device())
            if entry.started is not None and started != entry.started:
                entry.base = entry.base.plus(entry.last)  # a new run of the tool
            entry.started, entry.last = started, counts

    def status(self, device: str) -> dict[str, Any] | None:
        entry = self._counts.get(device)
        return None if entry is None else entry.base.plus(entry.last).to_dict()


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise ProtocolError(f"diagnostics: {what} must be a count (0..2**53), got "
                            f"{str(value)[:40]}")
    return value


def _sum(a: int, b: int) -> int:
    return min(a + b, MAX_COUNT)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000
