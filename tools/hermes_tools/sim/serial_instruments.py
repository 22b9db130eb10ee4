"""How each simulated serial instrument talks: pure request -> reply text, no ports, no time.

- `scale`: the dev plant's packing scale. `W` (or `Q`, `S`) answers `ST,GS,+012.34 kg`, `T` tares
  it (`OK`), anything else is `ES` (the "syntax error" answer of A&D-style scales).
- `gasmeter`: streams `F:+0012.500 m3/h T:00001234.567 m3` (flow and running total) each period.
- `barcode`: pushes an EAN-13 code each period (and at once when one is set, like a scan).
- `controller`: a setpoint controller. `PV?` -> `PV=+0049.8`, `SP?` -> `SP=+0050.0`, `SP=x` sets
  the setpoint (0..200, `OK`), else `ERR RANGE`; unknown requests `ERR SYNTAX`.

`writes(request)` tells a request that changes the instrument from one that only asks, and
`peek_line()` is what a streaming instrument shows now (both for `hermes-sim ctl status`/`get`).
`infer_kind` picks the instrument a config's device describes. Nothing here may block or do I/O.
"""

from __future__ import annotations

import re
from typing import Any

from hermesd.config.model import Device

KINDS = ("scale", "gasmeter", "barcode", "controller")
EAN_CODES = ("4006381333931", "5012345678900", "9780201379624", "4012345678901")


class Instrument:
    kind = "instrument"
    period: float | None = None  # seconds between streamed lines; None: answers only

    def answer(self, request: str) -> str | None:
        """The reply line (without terminator) to a request line, or None for no reply."""
        return None

    def stream_line(self) -> str | None:
        """The next line a streaming instrument sends on its own."""
        return None

    def peek_line(self) -> str | None:
        """The line a streaming instrument shows now, without moving it on."""
        return None

    def writes(self, request: str) -> bool:
        """Whether a request changes the instrument (a command) rather than asking it."""
        return False

    def set_value(self, value: str) -> str | None:
        """Change what the instrument measures; a line to send at once, if that is a push."""
        raise ValueError(f"a {self.kind} has no value to set")


class Scale(Instrument):
    kind = "scale"

    def __init__(self) -> None:
        self.weight = 12.34  # kg

    def answer(self, request: str) -> str | None:
        command = request.strip().upper()
        if command in ("W", "Q", "S"):
            return f"ST,GS,{self.weight:+07.2f} kg"
        if command == "T":
            self.weight = 0.0
            return "OK"
        return "ES"

    def writes(self, request: str) -> bool:
        return request.strip().upper() == "T"

    def set_value(self, value: str) -> str | None:
        self.weight = float(value)
        return None


class GasMeter(Instrument):
    kind = "gasmeter"
    period = 1.0

    def __init__(self) -> None:
        self.flow = 12.5  # m3/h
        self.total = 1234.567  # m3

    def answer(self, request: str) -> str | None:
        return "ERR SYNTAX"

    def stream_line(self) -> str | None:
        self.total += self.flow * (self.period or 1.0) / 3600.0
        return self.peek_line()

    def peek_line(self) -> str | None:
        return f"F:{self.flow:+09.3f} m3/h T:{self.total:012.3f} m3"

    def set_value(self, value: str) -> str | None:
        self.flow = float(value)
        return None


class BarcodeReader(Instrument):
    kind = "barcode"
    period = 5.0

    def __init__(self) -> None:
        self.next = 0
        self.last: str | None = None  # the code scanned last

    def stream_line(self) -> str | None:
        self.last = EAN_CODES[self.next % len(EAN_CODES)]
        self.next += 1
        return self.last

    def peek_line(self) -> str | None:
        return self.last

    def set_value(self, value: str) -> str | None:
        self.last = value
        return value  # a scan: the code goes out at once


class Controller(Instrument):
    kind = "controller"
    LIMITS = (0.0, 200.0)

    def __init__(self) -> None:
        self.pv = 49.8
        self.sp = 50.0

    def answer(self, request: str) -> str | None:
        command = request.strip().upper()
        if command == "PV?":
            return f"PV={self.pv:+07.1f}"
        if command == "SP?":
            return f"SP={self.sp:+07.1f}"
        match = re.fullmatch(r"SP=\s*([-+]?\d+(?:\.\d+)?)", command)
        if match is None:
            return "ERR SYNTAX"
        value = float(match.group(1))
        if not self.LIMITS[0] <= value <= self.LIMITS[1]:
            return "ERR RANGE"
        self.sp = value
        return "OK"

    def writes(self, request: str) -> bool:
        return request.strip().upper().startswith("SP=")

    def set_value(self, value: str) -> str | None:
        self.pv = float(value)
        return None


def make(kind: str) -> Instrument:
    classes: dict[str, Any] = {"scale": Scale, "gasmeter": GasMeter, "barcode": BarcodeReader,
                               "controller": Controller}
    if kind not in classes:
        raise ValueError(f"unknown instrument {kind!r}; one of {', '.join(KINDS)}")
    instrument: Instrument = classes[kind]()
    return instrument


def infer_kind(device: Device) -> str | None:
    """The instrument a serial device's points describe, or None when they do not say."""
    queries = [str(p.params.get("query") or "").strip().upper() for p in device.points.values()]
    if any(q in ("W", "Q", "S") for q in queries):
        return "scale"
    if any(q.startswith(("PV", "SP")) for q in queries):
        return "controller"
    if device.points and not any(queries):
        if any(p.kind == "string" for p in device.points.values()):
            return "barcode"
        return "gasmeter"
    return None
