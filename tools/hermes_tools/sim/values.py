"""Plausible, slowly varying values for simulated points: pure, seeded, no I/O.

Each read-only point wanders around a base value (given in a values file, else guessed from its
unit and name) and stays inside its range; counters count up; writable points hold what was
last written, as a real setpoint does. The simulator encodes these values into registers.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: a typical reading by unit, for points the values file does not name
TYPICAL_BY_UNIT = {
    "°c": 180.0, "c": 180.0, "degc": 180.0, "°f": 350.0, "k": 450.0, "bar": 12.5, "mbar": 1013.0,
    "pa": 101325.0, "kpa": 101.3, "psi": 180.0, "%": 73.4, "rpm": 1200.0, "kg": 12.34,
    "g": 250.0, "t": 1.2, "m/min": 24.5, "m/s": 1.5, "m3/h": 42.0, "l/min": 30.0, "a": 16.0,
    "v": 230.0, "hz": 50.0, "kw": 45.0, "w": 450.0, "kwh": 12345.0, "mm": 120.0, "m": 3.2,
    "ph": 7.0, "ppm": 400.0,
}
ON_WORDS = ("running", "ready", "enabled", "healthy", "ok", "on")
COUNTER_WORDS = ("count", "counter", "total", "produced", "bottles", "pieces", "pcs")
#: temperatures of the air around people, not of a process (°C)
AMBIENT_WORDS = ("outdoor", "outside", "ambient", "room", "weather", "air")
AMBIENT_C = 18.0


@dataclass
class Wander:
    """One point's simulated value: a mean-reverting random walk, a counter, or a fixed value."""

    base: Any
    lo: float | None = None
    hi: float | None = None
    kind: str = "float"  # bool | int | float | string
    counter: bool = False
    fixed: bool = False  # writable points and texts hold their value
    value: Any = None

    def __post_init__(self) -> None:
        if self.value is None:
            self.value = self.base

    def step(self, rng: random.Random, dt: float) -> Any:
        """The value `dt` seconds later."""
        if self.fixed or self.kind in ("bool", "string"):
            return self.value
        if self.counter:
            self.value = self._clamp(self.value + max(1, round(rng.uniform(0.5, 1.5) * dt)))
            return self.value
        spread = max(abs(float(self.base)) * 0.004, 0.05)  # about 0.4 % of the reading
        pull = (float(self.base) - float(self.value)) * min(1.0, 0.2 * dt)
        moved = float(self.value) + pull + rng.gauss(0.0, spread) * min(1.0, dt)
        self.value = self._clamp(round(moved) if self.kind == "int" else round(moved, 2))
        return self.value

    def _clamp(self, value: Any) -> Any:
        if self.lo is not None and value < self.lo:
            value = self.lo
        if self.hi is not None and value > self.hi:
            value = self.hi
        return int(value) if self.kind == "int" else value


def guess(point: Mapping[str, Any]) -> Any:
    """A believable reading for a point nobody gave a value for."""
    kind = point.get("kind", "float")
    words = f"{point.get('id', '')} {point.get('name', '')}".lower()
    if kind == "bool":
        tokens = set(re.split(r"[^a-z0-9]+", words))
        return not point.get("writable") and any(w in tokens for w in ON_WORDS)
    if kind == "string":
        return "OK"
    if any(w in words for w in COUNTER_WORDS):
        return 1000
    lo, hi = point.get("min"), point.get("max")
    if lo is not None and hi is not None:
        value: float = lo + 0.75 * (hi - lo)
    else:
        unit = str(point.get("unit") or "").strip().lower()
        value = TYPICAL_BY_UNIT.get(unit, 100.0)
        if unit in ("°c", "c", "degc") and \
                set(re.split(r"[^a-z0-9]+", words)) & set(AMBIENT_WORDS):
            value = AMBIENT_C
    return round(value) if kind == "int" else value


def wander_for(point: Mapping[str, Any], given: Any = None,
               type_range: tuple[float, float] | None = None) -> Wander:
    """The simulation of one point (its slice of hermesd's config) from a base value."""
    kind = str(point.get("kind", "float"))
    base = guess(point) if given is None else given
    lo, hi = point.get("min"), point.get("max")
    if type_range is not None:
        lo = type_range[0] if lo is None else max(lo, type_range[0])
        hi = type_range[1] if hi is None else min(hi, type_range[1])
    words = f"{point.get('id', '')} {point.get('name', '')}".lower()
    wander = Wander(base=base, lo=lo, hi=hi, kind=kind,
                    counter=kind in ("int", "float") and any(w in words for w in COUNTER_WORDS),
                    fixed=bool(point.get("writable")))
    wander.value = wander._clamp(base) if kind in ("int", "float") else base
    return wander
