"""A bounded scan of one Modbus link: which unit ids answer, and what their registers hold.

The scan runs in the Modbus tool, on the link's own `Bus`, so each probe is one request queued
with the pollers' requests: polling on that line is delayed by at most one scan request (and a
silent unit's probe timeout), never stopped. It only reads. It stops at its time limit, its
request limit or its value limit, whichever comes first, and says where it stopped so the next
scan can go on from there. Silence and a gateway's "target failed to respond" mean nobody is
there; any other answer, a Modbus exception included, means a device is. It never changes a
device's health or backoff: a scan is not a poll.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from hermes_tools.modbus.blocks import BIT_TABLES
from hermes_tools.modbus.bus import (
    BadReply,
    Bus,
    ExceptionReply,
    NoAnswer,
    NotConnected,
    raise_if_cancelled,
)

#: exception codes a gateway gives for a unit id nobody answers to on its serial side
NOBODY = frozenset({10, 11})
MAX_VALUES = 20_000  # registers or bits one scan reports, at most (its answer stays small)
DEADLINE_MARGIN = 0.25  # seconds kept to send the answer before the request's deadline


@dataclass(frozen=True, slots=True)
class Span:
    table: str
    address: int
    count: int


@dataclass
class ScanLimits:
    timeout: float  # per request
    time_limit: float  # seconds for the whole scan
    max_requests: int
    block: int  # registers (bits) per request within a range


@dataclass
class Scan:
    bus: Bus
    units: list[int]
    probe: Span
    ranges: list[Span]
    limits: ScanLimits
    deadline: float  # monotonic: the request's own deadline
    configured: dict[int, str] = field(default_factory=dict)  # unit -> device on this link
    requests: int = 0
    values: int = 0
    stopped: str | None = None
    _until: float = field(default=0.0, init=False)  # monotonic: when the scan must end

    def _budget(self, count: int = 1) -> bool:
        """Whether one more request (of `count` values) fits; else why not, in `stopped`."""
        now = time.monotonic()
        if self.requests >= self.limits.max_requests:
            self.stopped = f"request limit of {self.limits.max_requests} reached"
        elif now + self.limits.timeout > self._until:
            self.stopped = f"time limit of {self.limits.time_limit:g} s reached" \
                if self._until < self.deadline - DEADLINE_MARGIN else \
                "the request's own timeout was near"
        elif self.values + count > MAX_VALUES:
            self.stopped = f"value limit of {MAX_VALUES} registers reached"
        return self.stopped is None

    async def _read(self, unit: int, span: Span) -> list[int] | list[bool]:
        self.requests += 1
        data = await self.bus.read(unit, span.table, span.address, span.count,
                                   self.limits.timeout, probe=True)
        raise_if_cancelled()
        self.values += span.count
        return data

    async def run(self) -> dict[str, Any]:
        started = time.monotonic()
        self._until = min(started + self.limits.time_limit, self.deadline - DEADLINE_MARGIN)
        found: list[dict[str, Any]] = []
        silent: list[int] = []
        next_unit: int | None = None
        for unit in self.units:
            if not self._budget():
                next_unit = unit
                break
            try:
                entry = await self._probe(unit)
                if entry is not None and entry["answer"] != "bad_reply" and self.ranges:
                    entry["ranges"] = await self._ranges(unit)
            except LinkLost as exc:
                if not found and not silent:
                    raise
                self.stopped, next_unit = f"the link was lost: {exc.reason}", unit
                break
            if entry is None:
                silent.append(unit)
                continue
            found.append(entry)
            if self.stopped is not None:
                next_unit = unit  # its ranges were cut short: scan it again
                break
        return {"link": self.bus.spec.describe(), "transport": self.bus.spec.transport,
                "probe": {"table": self.probe.table, "address": self.probe.address},
                "found": found, "silent": silent, "requests": self.requests,
                "elapsed_s": round(time.monotonic() - started, 3),
                "complete": self.stopped is None, "stopped": self.stopped,
                "next_unit": next_unit}

    async def _probe(self, unit: int) -> dict[str, Any] | None:
        sent = time.monotonic()
        entry: dict[str, Any] = {"unit": unit}
        if unit in self.configured:
            entry["device"] = self.configured[unit]
        try:
            data = await self._read(unit, self.probe)
        except ExceptionReply as exc:
            if exc.code in NOBODY:
                return None
            entry.update(answer="exception", exception=exc.code, detail=exc.name)
        except NoAnswer:
            return None
        except BadReply as exc:
            entry.update(answer="bad_reply", detail=exc.reason)
        except NotConnected as exc:
            raise LinkLost(exc.reason, unit) from None
        else:
            entry.update(answer="ok", value=data[0])
        entry["latency_ms"] = round((time.monotonic() - sent) * 1000, 1)
        return entry

    async def _ranges(self, unit: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for span in self.ranges:
            pending = [Span(span.table, a, min(self.limits.block, span.address + span.count - a))
                       for a in range(span.address, span.address + span.count, self.limits.block)]
            while pending:
                part = pending.pop(0)
                if not self._budget(part.count):
                    return out
                record: dict[str, Any] = {"table": part.table, "address": part.address,
                                          "count": part.count}
                try:
                    record.update(_values(part.table, await self._read(unit, part)))
                except ExceptionReply as exc:
                    if exc.code == 2 and part.count > 1:  # a hole inside: find its edges
                        pending[:0] = [Span(part.table, a, 1)
                                       for a in range(part.address, part.address + part.count)]
                        continue
                    record["error"] = f"exception {exc.code} ({exc.name})"
                except (NoAnswer, BadReply) as exc:
                    record["error"] = exc.reason
                except NotConnected as exc:
                    raise LinkLost(exc.reason, unit) from None
                out.append(record)
        return _merge(out)


class LinkLost(Exception):
    """The link itself went down during a scan."""

    def __init__(self, reason: str, unit: int) -> None:
        super().__init__(reason)
        self.reason, self.unit = reason, unit


def _values(table: str, data: list[int] | list[bool]) -> dict[str, Any]:
    if table in BIT_TABLES:
        return {"bits": [bool(b) for b in data]}
    return {"registers": [int(r) for r in data]}


def _merge(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Adjacent answers of one table as one run; errors of one kind as one run too."""
    out: list[dict[str, Any]] = []
    for rec in records:
        last = out[-1] if out else None
        if last is not None and last["table"] == rec["table"] \
                and last["address"] + last["count"] == rec["address"] \
                and last.get("error") == rec.get("error"):
            key = "bits" if "bits" in rec else "registers" if "registers" in rec else None
            if key is None or key in last:
                if key is not None:
                    last[key] = last[key] + rec[key]
                last["count"] += rec["count"]
                continue
        out.append(dict(rec))
    return out
