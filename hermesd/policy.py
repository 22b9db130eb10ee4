"""Policy: may this requester do this, with this value, now? Decided before any device is touched.

Every action passes here, however it was chosen (typed command, rule, LLM, MQTT, voice): the
point must exist and be readable or writable, the role must allow it, the value must be of the
point's kind and inside its range, and the role's write rate must not be exhausted. Each check
returns the sentence a dry run shows. Policy never widens a role and never fixes a value up.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hermesd.config.model import Access, Point, Role
from hermesd.context import RequestContext
from hermesd.errors import ErrorCode, Forbidden, Rejected
from hermesd.protocol import ActionSpec
from hermesd.registry import Registry, coerce_value, format_value


@dataclass
class _Bucket:
    tokens: float
    stamp: float = field(default_factory=time.monotonic)


class Policy:
    def __init__(self, access: Access, registry: Registry) -> None:
        self.access = access
        self.registry = registry
        self._buckets: dict[str, _Bucket] = {}

    def reconfigure(self, access: Access, registry: Registry) -> None:
        self.access = access
        self.registry = registry

    def role(self, ctx: RequestContext) -> Role:
        role = self.access.roles.get(ctx.role)
        if role is None:
            raise Forbidden(f"role {ctx.role!r} is not defined")
        return role

    @property
    def roles(self) -> Mapping[str, Role]:
        return self.access.roles

    # -- checks -----------------------------------------------------------------------------

    def check_read(self, ctx: RequestContext, point: Point) -> list[str]:
        role = self.role(ctx)
        if not role.read:
            raise Forbidden(f"role {role.name} may not read points")
        return [f"role {role.name} may read {point.id}"]

    def check_write(self, ctx: RequestContext, point: Point, value: Any) -> tuple[Any, list[str]]:
        """The value as the point takes it, and the checks passed; raises on the first failure."""
        role = self.role(ctx)
        if not point.writable:
            raise Rejected(f"{point.label()} ({point.id}) is read-only",
                           code=ErrorCode.NOT_WRITABLE)
        checks = [f"{point.id} is writable"]
        if not role.may_write(point.id):
            raise Forbidden(f"role {role.name} may not write {point.id}")
        checks.append(f"role {role.name} may write {point.id}")
        value = coerce_value(point, value)
        checks.append(f"{_show(value)} is a valid {point.kind}")
        if point.kind in ("int", "float"):
            lo, hi = point.min, point.max
            shown = format_value(point, value, exact=True)
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise Rejected(f"{shown} is outside the allowed range of "
                               f"{point.label()} ({_range(point)})", code=ErrorCode.OUT_OF_RANGE)
            checks.append(f"{shown} is within {_range(point)}")
            if point.step is not None and not (point.kind == "int" and point.step == 1):
                if not whole_steps(value, point.step, point.step_origin):
                    raise Rejected(f"{point.label()} takes steps of {point.step:g}"
                                   f"{' ' + point.unit if point.unit else ''}: {value!r} is "
                                   "between two", code=ErrorCode.OUT_OF_RANGE)
                checks.append(f"{value!r} is a whole number of {point.step:g} steps")
        if point.choices and value not in point.choices:
            raise Rejected(f"{value!r} is not one of {', '.join(point.choices)}",
                           code=ErrorCode.OUT_OF_RANGE)
        left = self._rate(role, consume=not ctx.dry_run)
        checks.append(f"role {role.name} has {left} of {role.writes_per_minute} writes left "
                      "this minute")
        return value, checks

    def check_call(self, ctx: RequestContext, tool: str, spec: ActionSpec) -> list[str]:
        role = self.role(ctx)
        if spec.effect == "write":
            if not role.raw_write:
                raise Forbidden(f"role {role.name} may not call {tool}.{spec.name}, which writes "
                                "to devices directly (needs raw_write)")
            left = self._rate(role, consume=not ctx.dry_run)
            return [f"role {role.name} may write raw ({tool}.{spec.name})",
                    f"role {role.name} has {left} writes left this minute"]
        if spec.effect == "read" and not role.raw_read:
            raise Forbidden(f"role {role.name} may not call {tool}.{spec.name}, which reads "
                            "devices directly (needs raw_read)")
        return [f"role {role.name} may call {tool}.{spec.name}"]

    def _rate(self, role: Role, *, consume: bool) -> int:
        """Token bucket of the role's writes per minute; returns what is left."""
        rate = role.writes_per_minute
        bucket = self._buckets.setdefault(role.name, _Bucket(float(rate)))
        now = time.monotonic()
        bucket.tokens = min(float(rate), bucket.tokens + (now - bucket.stamp) * rate / 60.0)
        bucket.stamp = now
        if bucket.tokens < 1.0:
            raise Rejected(f"role {role.name} has used its {rate} writes per minute; try again "
                           "shortly", code=ErrorCode.RATE_LIMITED)
        if consume:
            bucket.tokens -= 1.0
        return int(bucket.tokens)


def whole_steps(value: float, step: float, origin: float = 0.0) -> bool:
    """Whether `value` is `origin` plus a whole number of `step`s, exactly: each number is taken
    as the decimal its shortest repr says (0.1 is one tenth), so 30.00000000001 is not a whole
    number of 0.1 steps, however small the difference (no tolerance)."""
    counts = (_decimal(value) - _decimal(origin)) / _decimal(step)
    return counts.denominator == 1


def _decimal(number: float) -> Fraction:
    return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)


def _range(point: Point) -> str:
    unit = f" {point.unit}" if point.unit else ""
    return f"{point.min:g}..{point.max:g}{unit}" if point.min is not None and \
        point.max is not None else "any"


def _show(value: Any) -> str:
    return "on" if value is True else "off" if value is False else repr(value)
