"""Policy: may this requester do this, with this value, now? Decided before any device is touched.

Every action passes here, however it was chosen (typed command, rule, LLM, MQTT, voice): the
point must exist and be readable or writable, the role must allow it, the value must be of the
point's kind and inside its range, and the write rate must not be exhausted. Each check
returns the sentence a dry run shows. Policy never widens a role and never fixes a value up.

The write rate is counted per requester, not per role: each (role, source, identity) — a control
socket peer's uid, the MQTT topic a request came on, the voice — has its own bucket of the role's
`writes_per_minute`, so no one requester can spend the writes of everyone else in that role.

`call` is direct access to a tool, an engineer's tool: any action needs `raw_read`, one with a
device effect (`write`) needs `raw_write` and spends a write. hermesd's own workers (the LLM
worker, whisper) are no tools to call: their inputs (prompt markup, grammars, deadlines) come
from hermesd alone, and one caller could hold them for everyone else, so `call` refuses them for
every role; their state is in `hermesctl status`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hermesd.config.drivers.modbus import one_unit, span
from hermesd.config.model import Access, Point, Role
from hermesd.context import RequestContext
from hermesd.core.errors import ErrorCode, Forbidden, Rejected
from hermesd.core.protocol import ActionSpec
from hermesd.core.registers import BIT_TABLES, WORDS
from hermesd.registry import Registry, coerce_value, format_value
from hermesd.switch_values import action_word

log = logging.getLogger(__name__)

#: hermesd's own workers, by tool name: only hermesd calls them (config refuses devices so named)
INTERNAL_TOOLS: Mapping[str, str] = {"llm": "LLM worker", "whisper": "speech-to-text worker"}
MAX_BUCKETS = 4096  # requesters tracked at once; full buckets are forgotten first


@dataclass(frozen=True, slots=True)
class Requester:
    """Who spends a write: the role, where the request came from, and who it was there."""

    role: str
    source: str
    identity: str  # "uid 1000", "mqtt hermesd/node/pump1_speed/set", "voice"
    shown: str = field(default="", compare=False)  # "uid 1000 (alice)": in words

    @classmethod
    def of(cls, ctx: RequestContext) -> Requester:
        if ctx.peer_uid is not None:  # one user is one requester, whatever its process
            identity = f"uid {ctx.peer_uid}"
            shown = ctx.peer.split(" pid ")[0] if ctx.peer.startswith(identity) else identity
        elif ctx.source == "mqtt" and ctx.origin:
            # each topic a request came on (HA's set topic of each point, the command topic):
            # one client on one topic cannot spend the writes of the others (review atk20s,
            # #14); the bridge takes only those topics, so they are as many as the points
            identity = shown = f"mqtt {ctx.origin}"
        else:
            identity = shown = ctx.peer or ctx.source
        return cls(ctx.role, ctx.source, identity[:200], shown[:200])

    def describe(self) -> str:
        return f"role {self.role} for {self.shown or self.identity}"


@dataclass
class _Bucket:
    tokens: float
    stamp: float  # time.monotonic() of the last count
    refused: int = 0  # writes refused since this requester was last allowed one
    limited_since: float | None = None  # wall clock, while the bucket is empty


class Policy:
    def __init__(self, access: Access, registry: Registry, reserved: tuple[str, ...] = ()
                 ) -> None:
        self.access = access
        self.registry = registry
        #: MQTT topics a raw publish may not reach, each with all below it: hermesd's own
        #: (`mqtt.base_topic`), Home Assistant's discovery prefix, devices' availability
        self.reserved = reserved
        self._buckets: dict[Requester, _Bucket] = {}

    def reconfigure(self, access: Access, registry: Registry, reserved: tuple[str, ...] = ()
                    ) -> None:
        self.access = access
        self.registry = registry
        self.reserved = reserved

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
        role = self.may_read(ctx)
        return [f"role {role.name} may read {point.id}"]

    def may_read(self, ctx: RequestContext) -> Role:
        """`check_read` without its sentence, which only a dry run shows: the requester's role,
        or Forbidden."""
        role = self.role(ctx)
        if not role.read:
            raise Forbidden(f"role {role.name} may not read points")
        return role

    def check_write(self, ctx: RequestContext, point: Point, value: Any) -> tuple[Any, list[str]]:
        """The value as the point takes it, and the checks passed; raises on the first failure."""
        role = self.role(ctx)
        read_only = self.read_only(point)
        if read_only is not None:
            raise read_only
        checks = [f"{point.id} is writable"]
        if not role.may_write(point.id):
            raise Forbidden(f"role {role.name} may not write {point.id}")
        checks.append(f"role {role.name} may write {point.id}")
        value = value_fits(point, value, checks)
        checks.append(self._rate(ctx, role, consume=not ctx.dry_run))
        return value, checks

    @staticmethod
    def read_only(point: Point) -> Rejected | None:
        """The refusal (NOT_WRITABLE) of every write of `point`, whoever asks; None where it
        can be written."""
        if point.writable:
            return None
        return Rejected(f"{point.label()} ({point.id}) is read-only",
                        code=ErrorCode.NOT_WRITABLE)

    def check_call(self, ctx: RequestContext, tool: str, spec: ActionSpec,
                   args: Mapping[str, Any] | None = None) -> list[str]:
        """A direct tool call (`call`): never to hermesd's own workers; `raw_read` for any
        action, `raw_write` (and a write of the requester's rate) for one with a device effect;
        and a raw write never to the registers or coils of a configured point, whose own
        writability and range only a write of the point by name checks."""
        role = self.role(ctx)
        worker = INTERNAL_TOOLS.get(tool)
        if worker is not None:
            raise Forbidden(f"{tool}.{spec.name} belongs to hermesd's own {worker}, which only "
                            "hermesd calls (its state is in `hermesctl status`)")
        if spec.effect == "write":
            if not role.raw_write:
                raise Forbidden(f"role {role.name} may not call {tool}.{spec.name}, which writes "
                                "to devices directly (needs raw_write)")
            written = args or {}
            self._not_reserved(written)
            covered = self._configured_under(written)
            if covered is not None:
                table = written.get("table")
                what = "a topic of" if "messages" in written else \
                    f"{'coil' if table == 'coil' else f'{table} register'} " \
                    f"{written.get('address')} on {written.get('device')} holds"
                raise Forbidden(
                    f"{what} the configured point {covered.label()} ({covered.id}); write it by "
                    "name, so that its writability and range are checked")
            return [f"role {role.name} may write raw ({tool}.{spec.name})",
                    "no configured point is on the registers or topics written",
                    self._rate(ctx, role, consume=not ctx.dry_run)]
        if not role.raw_read:
            what = "reads devices directly" if spec.effect == "read" else \
                "is a direct tool call"
            raise Forbidden(f"role {role.name} may not call {tool}.{spec.name}, which {what} "
                            "(needs raw_read)")
        return [f"role {role.name} may call {tool}.{spec.name}"]

    def _one_device(self, device: str) -> set[str]:
        """The configured devices a raw request to `device` may reach: itself, and any other
        entry for the same unit under another spelling of its link (`localhost` and
        `127.0.0.1`), or unit 0 or 255 of a TCP device that ignores the unit id."""
        devices = self.registry.devices
        named = devices.get(device)
        if named is None or named.driver != "modbus":
            return {device}
        return {device} | {d.id for d in devices.values()
                           if d.driver == "modbus" and one_unit(named.params, d.params)}

    def _configured_under(self, args: Mapping[str, Any]) -> Point | None:
        """The configured point whose registers (or coils) a raw write's span touches, if any:
        `device`, `table`, `address`, and as many as its `values`, or as its one `value`'s
        `type` (or `length`) takes."""
        messages = args.get("messages")
        if isinstance(messages, list):
            return self._topic_of_a_point(messages)
        device, table, address = args.get("device"), args.get("table"), args.get("address")
        if isinstance(address, float) and address.is_integer():
            address = int(address)  # ("0.0": a whole number still, as the schema lets it be)
        if device is None and address is None:
            return None  # no register said: not a register write
        if not isinstance(device, str) or isinstance(address, bool) or \
                not isinstance(address, int):
            raise Rejected(f"a raw write needs a device and a whole-number address; got "
                           f"{device!r} and {address!r}", code=ErrorCode.BAD_REQUEST)
        values = args.get("values")
        if isinstance(values, list) and values:
            count = len(values)
        elif table in BIT_TABLES:
            count = 1
        else:
            length = args.get("length")
            count = WORDS.get(str(args.get("type")), length if isinstance(length, int) else 1)
        last = address + count - 1
        reached = self._one_device(device)
        for point in self.registry:
            if point.device not in reached or point.params.get("table") != table:
                continue
            taken = span(point.params)
            if taken is not None and taken[0] <= last and address <= taken[1]:
                return point
        return None

    def _not_reserved(self, args: Mapping[str, Any]) -> None:
        """A raw publish never reaches hermesd's own topics (states, discovery, answers of any
        node), Home Assistant's discovery, or a device's availability: one had faked a state
        for every HA client and deleted an entity (review atk20s, #11)."""
        messages = args.get("messages")
        if not isinstance(messages, list) or not self.reserved:
            return
        for m in messages:
            topic = m.get("topic") if isinstance(m, dict) else None
            if not isinstance(topic, str):
                continue
            for reserved in self.reserved:
                if topic == reserved or topic.startswith(reserved + "/"):
                    raise Forbidden(f"{topic!r} is one of hermesd's own topics, Home "
                                    f"Assistant's discovery or a device's availability "
                                    f"({reserved}): a raw publish may not go there")

    def _topic_of_a_point(self, messages: list[Any]) -> Point | None:
        """The configured MQTT point whose state or command topic a raw publish names, if any
        (a publish on its command topic would get round its range; on its state topic, fake
        its reading)."""
        topics = {m.get("topic") for m in messages if isinstance(m, dict)}
        for point in self.registry:
            if point.driver == "mqtt" and topics & {point.params.get("state_topic"),
                                                    point.params.get("command_topic")} - {None}:
                return point
        return None

    # -- write rate ------------------------------------------------------------------------

    def _rate(self, ctx: RequestContext, role: Role, *, consume: bool) -> str:
        """Spend one of the requester's writes this minute (a token bucket of the role's
        `writes_per_minute`, one per requester); the check's sentence, or RATE_LIMITED."""
        rate = role.writes_per_minute
        who = Requester.of(ctx)
        now = time.monotonic()
        bucket = self._buckets.get(who)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS:
                self._forget_full()
            bucket = self._buckets[who] = _Bucket(float(rate), now)
        bucket.tokens = min(float(rate), bucket.tokens + (now - bucket.stamp) * rate / 60.0)
        bucket.stamp = now
        if bucket.tokens < 1.0:
            bucket.refused += consume  # a dry run only looks
            if bucket.limited_since is None:
                bucket.limited_since = time.time()
                log.warning("%s has used its %d writes per minute; refusing its writes until "
                            "they recover", who.describe(), rate)
            raise Rejected(f"{who.describe()} has used its {rate} writes per minute; try again "
                           "shortly", code=ErrorCode.RATE_LIMITED)
        if bucket.limited_since is not None:
            log.info("%s may write again (%d writes were refused)", who.describe(),
                     bucket.refused)
            bucket.limited_since = None
            bucket.refused = 0
        if consume:
            bucket.tokens -= 1.0
        return f"{who.describe()} has {int(bucket.tokens)} of {rate} writes left this minute"

    def _forget_full(self) -> None:
        """Drop the buckets that have refilled (the same as none); if none has, the oldest."""
        now = time.monotonic()
        for who, bucket in list(self._buckets.items()):
            role = self.access.roles.get(who.role)
            rate = role.writes_per_minute if role is not None else 0
            if role is None or bucket.tokens + (now - bucket.stamp) * rate / 60.0 >= rate:
                del self._buckets[who]
        while len(self._buckets) >= MAX_BUCKETS:
            del self._buckets[next(iter(self._buckets))]

    def status(self) -> dict[str, Any]:
        """Who is rate-limited now (for `hermesctl status`)."""
        now = time.monotonic()
        limited = []
        for who, bucket in self._buckets.items():
            role = self.access.roles.get(who.role)
            if role is None or bucket.limited_since is None:
                continue
            tokens = bucket.tokens + (now - bucket.stamp) * role.writes_per_minute / 60.0
            if tokens >= 1.0:
                continue  # recovered; it is told when it next writes
            limited.append({"role": who.role, "source": who.source,
                            "who": who.shown or who.identity,
                            "writes_per_minute": role.writes_per_minute,
                            "refused": bucket.refused,
                            "since": _iso(bucket.limited_since),
                            "next_write_in_s": round((1.0 - tokens) * 60.0 /
                                                     role.writes_per_minute, 1)})
        return {"requesters": len(self._buckets), "limited": limited}


def whole_steps(value: float, step: float, origin: float = 0.0) -> bool:
    """Whether `value` is `origin` plus a whole number of `step`s, exactly: each number is taken
    as the decimal its shortest repr says (0.1 is one tenth), so 30.00000000001 is not a whole
    number of 0.1 steps, however small the difference (no tolerance)."""
    counts = (_decimal(value) - _decimal(origin)) / _decimal(step)
    return counts.denominator == 1


def _decimal(number: float) -> Fraction:
    return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)


def value_fits(point: Point, value: Any, checks: list[str]) -> Any:
    """`value` as `point` takes it (kind, range, steps, choices), each check passed added to
    `checks`; raises Rejected on the first that fails. Nothing of who asks: the config's write
    intents are checked with it too."""
    value = coerce_value(point, action_word(point, value))
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
    if point.choices:
        checks.append(f"{value} is one of {', '.join(point.choices)}")
    return value


def _range(point: Point) -> str:
    unit = f" {point.unit}" if point.unit else ""
    return f"{point.min:g}..{point.max:g}{unit}" if point.min is not None and \
        point.max is not None else "any"


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def _show(value: Any) -> str:
    return "on" if value is True else "off" if value is False else repr(value)
