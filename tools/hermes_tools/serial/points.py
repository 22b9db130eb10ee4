"""What a serial point is: the bytes that ask for it, the line that answers, the command that sets it.

`PointSpec.from_config` reads the point slice the daemon sends; `value_of(text)` turns a line into
a typed, scaled value (or raises `BadAnswer` saying why not); `render(value)` turns a value into
command bytes after checking it against the point's range and choices, so nothing unchecked is
ever sent. Pure functions of text and bytes: no I/O here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from hermesd.core.errors import ErrorCode, HermesError, Rejected
from hermesd.core.settings.serial import SerialPointSettings
from hermesd.core.strict_json import INT_MAX, INT_MIN

CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# what an instrument writes as a number: ASCII digits, a sign, a point, an exponent. Not what
# Python's int()/float() also take: "1_000", non-ASCII digits, "nan", "inf", "Infinity".
DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
WHOLE = re.compile(r"[+-]?\d+", re.ASCII)


class BadAnswer(HermesError):
    """The device answered, but not with a line this point can use."""

    code = ErrorCode.DEVICE_ERROR


@dataclass(frozen=True)
class PointSpec:
    id: str
    device: str
    kind: str  # the value type people see: float, int, bool, string
    raw_type: str  # how the captured text is read: float, int, bool, string
    pattern: re.Pattern[str]
    query: bytes | None  # None: the device streams lines for this point
    command: str | None  # write template with {value}
    ack: re.Pattern[str] | None  # the line that acknowledges a command
    scale: float = 1.0
    offset: float = 0.0
    true_text: str = "1"
    false_text: str = "0"
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    writable: bool = False
    max_age: float | None = None
    min_event_interval: float = 0.5
    encoding: str = "ascii"

    @classmethod
    def from_config(cls, device: str, pid: str, p: dict[str, Any], encoding: str) -> PointSpec:
        """A point of the config slice: the keys every point has and its serial settings."""
        s = SerialPointSettings.from_dict(p, f"devices.{device}.points.{pid}")
        return cls(
            id=pid, device=device, kind=str(p["kind"]), raw_type=s.type,
            pattern=re.compile(s.pattern),
            query=s.query.encode(encoding) if s.query is not None else None,
            command=s.command, ack=re.compile(s.ack) if s.ack is not None else None,
            scale=s.scale, offset=s.offset, true_text=s.true_text, false_text=s.false_text,
            minimum=p.get("min"), maximum=p.get("max"), choices=tuple(p.get("choices") or ()),
            writable=bool(p.get("writable")), max_age=p.get("max_age"),
            min_event_interval=s.min_event_interval, encoding=encoding)

    @property
    def streamed(self) -> bool:
        return self.query is None

    # -- reading ------------------------------------------------------------------------------

    def match(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(text)

    def value_of(self, found: re.Match[str]) -> Any:
        """The typed, scaled value a matching line carries; BadAnswer if it carries none."""
        text = (found.group("value") or "").strip()
        if self.raw_type == "string":
            return text
        if self.raw_type == "bool":
            if text.casefold() == self.true_text.casefold():
                return True
            if text.casefold() == self.false_text.casefold():
                return False
            raise BadAnswer(f"{self.device} sent {text!r} for {self.id}, which is neither "
                            f"{self.true_text!r} (on) nor {self.false_text!r} (off)")
        shown = text if len(text) <= 40 else f"{text[:36]}… ({len(text)} characters)"
        whole = self.raw_type == "int"
        if not (WHOLE if whole else DECIMAL).fullmatch(text):
            if text.strip("+-").casefold() in ("nan", "inf", "infinity"):
                raise BadAnswer(f"{self.device} sent {shown!r} for {self.id}, not a measurement")
            raise BadAnswer(f"{self.device} sent {shown!r} for {self.id}, which is not "
                            f"{'a whole number' if whole else 'a number'}")
        try:
            raw: float = int(text) if whole else float(text)
            if isinstance(raw, float) and not math.isfinite(raw):  # past what a float holds
                raise OverflowError
            if isinstance(raw, int) and self.scale == 1.0 and self.offset == 0.0:
                value: float = raw  # exact, however many digits a float would lose
            else:
                value = raw * self.scale + self.offset  # an int past a float overflows here
            if isinstance(value, float) and not math.isfinite(value):
                raise OverflowError
            if self.kind == "int":
                rounded = round(value)
                if not INT_MIN <= rounded <= INT_MAX:  # what hermesd's strict JSON carries
                    raise OverflowError
                return rounded
            return float(value)
        except (ValueError, OverflowError):  # more digits than a number can hold
            raise BadAnswer(f"{self.device} sent {shown!r} for {self.id}, which is out of "
                            "range for a measurement") from None

    # -- writing ------------------------------------------------------------------------------

    def render(self, value: Any) -> bytes:
        """The command bytes that set `value`; Rejected, before anything is sent, if it may not."""
        if self.command is None or not self.writable:
            raise HermesError(f"{self.id} is not writable", code=ErrorCode.NOT_WRITABLE)
        raw: Any
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise Rejected(f"{self.id} takes true or false, not {value!r}")
            raw = self.true_text if value else self.false_text
        elif self.kind == "string":
            raw = self._checked_text(value)
        else:
            raw = self._raw_number(value)
        try:
            return self.command.format(value=raw).encode(self.encoding)
        except UnicodeEncodeError:
            raise Rejected(f"{value!r} cannot be sent to {self.device} in {self.encoding}") \
                from None

    def _checked_text(self, value: Any) -> str:
        if not isinstance(value, str):
            raise Rejected(f"{self.id} takes text, not {value!r}")
        if self.choices and value not in self.choices:
            raise Rejected(f"{value!r} is not one of {', '.join(self.choices)} for {self.id}")
        if CONTROL.search(value):
            # a line terminator inside a value would send a second, unchecked command
            raise Rejected(f"{self.id} takes one line of text: control characters are refused")
        return value

    def _raw_number(self, value: Any) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise Rejected(f"{self.id} takes a number, not {value!r}")
        if self.kind == "int" and value != int(value):
            raise Rejected(f"{self.id} takes whole numbers, not {value!r}")
        if (self.minimum is not None and value < self.minimum) or \
                (self.maximum is not None and value > self.maximum):
            lo = "" if self.minimum is None else f"{self.minimum:g}"
            hi = "" if self.maximum is None else f"{self.maximum:g}"
            raise Rejected(f"{value:g} is out of range for {self.id} ({lo}..{hi})")
        raw = (value - self.offset) / self.scale
        if self.raw_type == "int":
            whole = round(raw)
            if abs(raw - whole) > 1e-9 * max(1.0, abs(raw)):
                raise Rejected(f"{value:g} cannot be sent to {self.id}: it is not a whole step "
                               f"of {self.scale:g}")
            return whole
        # (value - offset) / scale leaves binary noise (0.3 / 0.1 = 2.9999999999999996): the
        # instrument gets the decimal meant, 12 significant digits, never in exponent form
        return _Plain(f"{raw:.12g}")

    def same(self, wanted: Any, seen: Any) -> bool:
        """Whether a value read back is the value written (numbers within half a step)."""
        if isinstance(wanted, int | float) and not isinstance(wanted, bool) \
                and isinstance(seen, int | float) and not isinstance(seen, bool):
            step = abs(self.scale) if self.raw_type == "int" else 0.0
            return abs(float(wanted) - float(seen)) <= step / 2 + 1e-9 * max(1.0, abs(wanted))
        return bool(wanted == seen)


class _Plain(float):
    """A float that a bare `{value}` writes as a plain decimal: "0.000001", not "1e-06"."""

    def __format__(self, spec: str) -> str:
        if spec:
            return super().__format__(spec)
        text = repr(float(self))
        if "e" in text or "E" in text:
            text = format(Decimal(text), "f")
        return text

    def __str__(self) -> str:
        return self.__format__("")
