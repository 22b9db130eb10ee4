"""The Modbus devices of the tool's config: their points, request plan, health and backoff.

A `ModbusDevice` is one unit on one link. Its `Health` follows what the device did last: a
device that fails is offline at once and is tried again at its next poll while a try costs
nobody else anything — its link is down (the try is a connect probe: refused at once, or no
one else could use the link anyway), or it has the link to itself — so it is back within one
poll interval of answering again. Only a unit that is silent on a link other units use backs
off further, jittered and doubling up to `backoff_max`, so it never holds their bus for more
than one timeout per try. Nothing here does I/O; `tool` drives it.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from hermes_tools.modbus.blocks import Block, Span, plan
from hermes_tools.modbus.bus import Bus, LinkSpec
from hermes_tools.modbus.codec import Layout
from hermes_tools.modbus.diagnostics import DeviceDiagnostics

BIT_TABLES = frozenset({"coil", "discrete"})
MODICON_PREFIX = {"coil": 0, "discrete": 1, "input": 3, "holding": 4}
TABLE_WORDS = {"coil": "coil", "discrete": "discrete input", "input": "input register",
               "holding": "holding register"}


def modicon(table: str, address: int) -> str:
    """The Modicon number PLC people use: holding 0 is 40001, coil 1 is 00002."""
    number = address + 1
    width = 4 if number <= 9999 else 5
    return f"{MODICON_PREFIX[table]}{number:0{width}d}"


def describe_registers(table: str, address: int, count: int = 1) -> str:
    """ "holding register 40011 (address 10)", or a range of them, in words."""
    name = TABLE_WORDS[table]
    if count <= 1:
        return f"{name} {modicon(table, address)} (address {address})"
    last = address + count - 1
    return (f"{name}s {modicon(table, address)}..{modicon(table, last)} "
            f"(address {address}..{last})")


@dataclass(frozen=True, slots=True)
class PointDef:
    id: str
    device: str
    table: str
    address: int
    layout: Layout
    kind: str  # bool | int | float | string: what hermesd expects
    writable: bool = False
    min: float | None = None
    max: float | None = None
    unit: str | None = None
    poll_interval: float | None = None  # its own or its group's; None: its device's

    @property
    def span(self) -> Span:
        return Span(self.id, self.table, self.address, self.layout.words)

    @property
    def registers(self) -> str:
        return describe_registers(self.table, self.address,
                                  1 if self.table in BIT_TABLES else self.layout.words)

    @classmethod
    def of(cls, device: str, pid: str, params: dict[str, Any]) -> PointDef:
        layout = Layout.of(params)
        return cls(id=pid, device=device, table=params["table"], address=int(params["address"]),
                   layout=layout, kind=str(params.get("kind", "float")),
                   writable=bool(params.get("writable", False)), min=params.get("min"),
                   max=params.get("max"), unit=params.get("unit"),
                   poll_interval=params.get("poll_interval"))


@dataclass
class Health:
    """What the device did last, and when to ask it again."""

    online: bool | None = None  # None: not asked yet
    since: float = 0.0  # wall-clock time of the last change
    reason: str = ""
    failures: int = 0  # in a row
    next_try: float = 0.0  # monotonic time before which an offline device is not asked

    def due(self, now: float | None = None) -> bool:
        return self.online is not False or (now or time.monotonic()) >= self.next_try

    def succeeded(self) -> bool:
        """Record an answer; True when that brings the device (back) online."""
        self.failures = 0
        self.reason = ""
        if self.online is True:
            return False
        self.online, self.since = True, time.time()
        return True

    def failed(self, reason: str, first_delay: float, most: float) -> bool:
        """Record a failure and schedule the next try, never more than `most` seconds away;
        True when the device just went offline."""
        self.failures += 1
        delay = min(most, first_delay * 2 ** (self.failures - 1))
        wait = min(most, delay * random.uniform(0.8, 1.2))  # noqa: S311
        self.next_try = time.monotonic() + wait
        went = self.online is not False
        if went:
            self.online, self.since = False, time.time()
        self.reason = reason
        return went

    def retry_in(self) -> float:
        return max(0.0, self.next_try - time.monotonic())


@dataclass
class PollGroup:
    """The points of a device read at one interval: their own coalesced blocks, their own task."""

    interval: float | None  # None: not polled
    blocks: list[Block]

    def describe(self) -> str:
        return "not polled" if self.interval is None else f"every {self.interval:g} s"


@dataclass
class ModbusDevice:
    id: str
    unit: int
    link: LinkSpec
    bus: Bus
    timeout: float
    poll_interval: float | None
    points: dict[str, PointDef]
    max_block: int = 125
    max_gap: int = 8
    retries: int = 1
    single_write: bool = True
    backoff_max: float = 30.0
    shares_link: bool = False  # other devices use the same link (set by the tool)
    health: Health = field(default_factory=Health)
    #: points by poll interval, fastest first; blocks never mix points of two groups
    groups: list[PollGroup] = field(default_factory=list)
    point_errors: dict[str, str] = field(default_factory=dict)  # why a point cannot be read
    requests: int = 0
    probing: bool = False  # a poll of this offline device is under way (one try at a time)
    diagnostics: DeviceDiagnostics = field(default_factory=DeviceDiagnostics)
    #: what each block read last (by table, address, count), while every point of it was sent:
    #: a point whose registers read the same again is reported `fresh`, not decoded and sent
    seen: dict[tuple[str, int, int], list[Any]] = field(default_factory=dict)
    seen_since: float = 0.0  # monotonic time `seen` was last emptied

    def forget_seen(self, now: float) -> None:
        """Send every value in full at the next poll (after a write, a read on demand, an
        outage, and every FULL_EVERY seconds in any case)."""
        self.seen.clear()
        self.seen_since = now

    def __post_init__(self) -> None:
        if not self.groups:
            by_interval: dict[float | None, list[Span]] = {}
            for p in self.points.values():
                interval = p.poll_interval or self.poll_interval
                by_interval.setdefault(interval, []).append(p.span)
            self.groups = [PollGroup(interval, plan(spans, max_block=self.max_block,
                                                    max_gap=self.max_gap))
                           for interval, spans in sorted(by_interval.items(),
                                                         key=lambda item: item[0] or math.inf)]

    @property
    def blocks(self) -> list[Block]:
        """Every block of every group (one poll of each group)."""
        return [b for g in self.groups for b in g.blocks]

    @blocks.setter
    def blocks(self, blocks: list[Block]) -> None:
        """Read all points in these blocks at the device's interval (benchmarks compare plans)."""
        self.groups = [PollGroup(self.poll_interval, list(blocks))]

    @property
    def fastest(self) -> float | None:
        """The shortest poll interval of its groups: how often an offline device is probed."""
        return min((g.interval for g in self.groups if g.interval), default=self.poll_interval)

    def split(self, block: Block) -> list[Block]:
        """Read a refused block's points one by one from now on (a hole in the register map)."""
        singles = plan(block.members, coalesce=False)
        for group in self.groups:
            if block in group.blocks:
                at = group.blocks.index(block)
                group.blocks[at:at + 1] = singles
        return singles

    def failed(self, reason: str, *, link_down: bool = False) -> bool:
        """Record a failure; `link_down`: the link itself could not be opened (a try of this
        device is then only a connect probe, which holds nobody's bus)."""
        first = self.fastest or self.timeout
        cheap = self.fastest is not None and (link_down or not self.shares_link)
        return self.health.failed(reason, first, first if cheap else
                                  max(first, self.backoff_max))

    def offline_text(self) -> str:
        since = time.strftime("%H:%M:%S", time.localtime(self.health.since))
        return f"{self.id} is offline since {since} ({self.health.reason}); next try in " \
               f"{self.health.retry_in():.0f} s"

    @classmethod
    def of(cls, dev_id: str, params: dict[str, Any], bus: Bus) -> ModbusDevice:
        points = {pid: PointDef.of(dev_id, pid, p) for pid, p in params["points"].items()}
        return cls(id=dev_id, unit=int(params.get("unit", 1)), link=LinkSpec.of(params), bus=bus,
                   timeout=float(params.get("timeout", 1.0)),
                   poll_interval=params.get("poll_interval"), points=points,
                   max_block=int(params.get("max_block", 125)),
                   max_gap=int(params.get("max_gap", 8)), retries=int(params.get("retries", 1)),
                   single_write=bool(params.get("single_write", True)),
                   backoff_max=float(params.get("backoff_max", 30.0)))
