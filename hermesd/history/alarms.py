"""Alarms: per-point limits (with hysteresis and a delay) and states, and a device offline for
longer than its points' max age.

A numeric point's `high` alarm is raised once its value has stayed above `high` for `delay`
seconds, and cleared once the value is below `high - hysteresis` (a `low` alarm mirrors it); a
bool point's alarm is raised once it has been in its alarm `state` for `delay`. A device's
`<device>_offline` alarm is raised once it has been offline for the shortest max age of its
points (at once when they have none). Each raising is an occurrence with its times: raised,
cleared, acknowledged (and by whom); states are `active`, `acknowledged` (still active) and
`cleared`. What happens is handed to listeners (the store, MQTT, the voice loop) as
`AlarmEvent`s. Pure state: the clock is always passed in, nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from hermesd.config.model import Config, Point
from hermesd.registry import format_value

Kind = Literal["high", "low", "state", "offline"]

@dataclass(frozen=True, slots=True)
class AlarmDef:
    id: str  # <point>_high, <point>_low, <point>_state, <device>_offline
    kind: Kind
    point: str | None  # None for a device's offline alarm
    device: str
    limit: float | bool | None
    hysteresis: float = 0.0
    delay: float = 0.0

@dataclass(frozen=True, slots=True)
class Occurrence:
    alarm: str
    kind: Kind
    point: str | None
    message: str
    value: Any
    raised: float
    cleared: float | None = None
    acked: float | None = None
    acked_by: str | None = None

    @property
    def state(self) -> str:
        if self.cleared is not None:
            return "cleared"
        return "acknowledged" if self.acked is not None else "active"

    def to_dict(self, iso: Callable[[float], str]) -> dict[str, Any]:
        return {"id": self.alarm, "kind": self.kind, "point": self.point, "state": self.state,
                "message": self.message, "value": self.value, "raised": iso(self.raised),
                "cleared": None if self.cleared is None else iso(self.cleared),
                "acked": None if self.acked is None else iso(self.acked),
                "acked_by": self.acked_by}

@dataclass(frozen=True, slots=True)
class AlarmEvent:
    what: Literal["raised", "cleared", "acknowledged"]
    occurrence: Occurrence
    message_zh: str | None = None  # the message in Chinese (the point's zh name), when told

@dataclass
class _Watch:
    definition: AlarmDef
    pending: float | None = None  # since when the condition holds (not yet raised)
    current: Occurrence | None = None  # the latest occurrence (active, or cleared unacked)
    value: Any = None

def definitions(config: Config) -> list[AlarmDef]:
    out: list[AlarmDef] = []
    for pid, point in config.points.items():
        a = point.alarms
        if a is None:
            continue
        if a.state is not None:
            out.append(AlarmDef(f"{pid}_state", "state", pid, point.device, a.state,
                                delay=a.delay))
        if a.high is not None:
            out.append(AlarmDef(f"{pid}_high", "high", pid, point.device, a.high, a.hysteresis,
                                a.delay))
        if a.low is not None:
            out.append(AlarmDef(f"{pid}_low", "low", pid, point.device, a.low, a.hysteresis,
                                a.delay))
    for dev_id, device in config.devices.items():
        ages = [p.max_age for p in device.points.values() if p.max_age is not None]
        out.append(AlarmDef(f"{dev_id}_offline", "offline", None, dev_id, None,
                            delay=min(ages) if ages else 0.0))
    return out

class AlarmBook:
    """Every alarm's watch; `on_value`, `on_device` and `tick` move them, `ack` acknowledges."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._watches: dict[str, _Watch] = {}
        self.listeners: list[Callable[[AlarmEvent], None]] = []
        self.reconfigure(config)

    def reconfigure(self, config: Config) -> None:
        """New limits apply from the next value; an alarm whose definition is gone keeps its
        occurrence (listed, acknowledgeable) but is no longer watched."""
        self.config = config
        defs = {d.id: d for d in definitions(config)}
        for alarm_id, watch in list(self._watches.items()):
            if alarm_id in defs:
                watch.definition = defs[alarm_id]
            elif watch.current is None or watch.current.state == "cleared":
                del self._watches[alarm_id]
        for alarm_id, d in defs.items():
            self._watches.setdefault(alarm_id, _Watch(d))

    def restore(self, occurrences: Iterable[Occurrence]) -> None:
        """Occurrences from the store at start (the latest of each alarm not yet done with)."""
        for occ in occurrences:
            watch = self._watches.get(occ.alarm)
            if watch is not None:
                watch.current = occ

    # -- what happens ----------------------------------------------------------------------

    def on_value(self, pid: str, value: Any, t: float) -> None:
        self.tick(t)  # a delay that ran out before this value raises first
        for watch in self._watches.values():
            d = watch.definition
            if d.point != pid or d.kind == "offline":
                continue
            watch.value = value
            active = watch.current is not None and watch.current.cleared is None
            if active:
                if _clears(d, value):
                    self._clear(watch, t)
                continue
            if _holds(d, value):
                if watch.pending is None:
                    watch.pending = t
            else:
                watch.pending = None
        self.tick(t)

    def on_device(self, device: str, online: bool, since: float, now: float) -> None:
        watch = self._watches.get(f"{device}_offline")
        if watch is None:
            return
        watch.value = not online
        if online:
            watch.pending = None
            if watch.current is not None and watch.current.cleared is None:
                self._clear(watch, since)
        elif watch.pending is None and (watch.current is None or
                                        watch.current.cleared is not None):
            watch.pending = since
        self.tick(now)

    def tick(self, now: float) -> None:
        """Raise the alarms whose condition has held for their delay."""
        for watch in self._watches.values():
            d = watch.definition
            if watch.pending is not None and now - watch.pending >= d.delay:
                raised = watch.pending + d.delay
                watch.pending = None
                occ = Occurrence(d.id, d.kind, d.point, self._message(d, watch.value),
                                 _plain(watch.value), raised)
                watch.current = occ
                self._emit(AlarmEvent("raised", occ))

    def next_due(self) -> float | None:
        """When the first pending alarm's delay runs out (None: none is pending)."""
        due = [w.pending + w.definition.delay for w in self._watches.values()
               if w.pending is not None]
        return min(due) if due else None

    def ack(self, alarm_id: str, who: str, now: float) -> Occurrence:
        """Acknowledge the alarm's current occurrence; KeyError if there is none to ack."""
        watch = self._watches.get(alarm_id)
        if watch is None or watch.current is None or watch.current.acked is not None:
            raise KeyError(alarm_id)
        occ = replace(watch.current, acked=now, acked_by=who)
        watch.current = occ
        self._emit(AlarmEvent("acknowledged", occ))
        return occ

    # -- questions -------------------------------------------------------------------------

    def current(self) -> list[Occurrence]:
        """Occurrences not done with: active, or cleared but not yet acknowledged."""
        return [w.current for w in self._watches.values() if w.current is not None and
                (w.current.cleared is None or w.current.acked is None)]

    def active(self) -> list[Occurrence]:
        return [o for o in self.current() if o.cleared is None]

    def states(self) -> dict[str, str]:
        """Every watched alarm's state: its current occurrence's, else cleared."""
        return {alarm_id: w.current.state if w.current is not None else "cleared"
                for alarm_id, w in self._watches.items()}

    def definition(self, alarm_id: str) -> AlarmDef | None:
        watch = self._watches.get(alarm_id)
        return None if watch is None else watch.definition

    def ids(self) -> list[str]:
        return list(self._watches)

    # -- inside ----------------------------------------------------------------------------

    def _clear(self, watch: _Watch, t: float) -> None:
        assert watch.current is not None
        occ = replace(watch.current, cleared=max(t, watch.current.raised))
        watch.current = occ
        watch.pending = None
        self._emit(AlarmEvent("cleared", occ))

    def _emit(self, event: AlarmEvent) -> None:
        for listener in self.listeners:
            listener(event)

    def _message(self, d: AlarmDef, value: Any) -> str:
        return alarm_message(d, self.config.points.get(d.point) if d.point else None, value)

def alarm_message(d: AlarmDef, point: Point | None, value: Any, lang: str = "en") -> str:
    """"Boiler 3 temperature high, 545 °C" / "3号锅炉温度过高，545 °C"."""
    zh = lang == "zh"
    if d.kind == "offline" or point is None:
        return f"设备 {d.device} 离线" if zh else f"device {d.device} offline"
    name = point.label(lang)
    shown = format_value(point, value) if value is not None else "?"
    if d.kind == "state":
        return f"{name}：{shown}" if zh else f"{name} {shown}"
    word = {"high": ("high", "过高"), "low": ("low", "过低")}[d.kind][1 if zh else 0]
    return f"{name}{word}，{shown}" if zh else f"{name} {word}, {shown}"

def _holds(d: AlarmDef, value: Any) -> bool:
    if d.kind == "state":
        return isinstance(value, bool) and value == d.limit
    if isinstance(value, bool) or not isinstance(value, int | float) or d.limit is None:
        return False
    return value > d.limit if d.kind == "high" else value < d.limit

def _clears(d: AlarmDef, value: Any) -> bool:
    if d.kind == "state":
        return isinstance(value, bool) and value != d.limit
    if isinstance(value, bool) or not isinstance(value, int | float) or d.limit is None:
        return False
    limit = float(d.limit)
    return value < limit - d.hysteresis if d.kind == "high" else value > limit + d.hysteresis

def _plain(value: Any) -> Any:
    return value if isinstance(value, bool | int | float | str) or value is None else str(value)
