"""Requests that came over MQTT (from the mqtt tool's `command` and `set` events), and their answers.

The tool has already checked the payload; the daemon checks the event again (it is still input
from another process) and never widens what it may do: the role is always `mqtt.command_role`.
A request that carries an id or MQTT 5 correlation data is executed once: a second delivery
while it runs is dropped, and one after it ran gets the same answer again, marked `duplicate`.
A delivery is the same request only if what it asks is the same too (text, point, value,
dry run, or the refusal of its payload): the same id with other content is a new request,
run and answered on its own, so an id seen by someone else cannot be used to suppress the
real request or hand it another request's answer.
A written value in text for a numeric point must be a number as JSON writes it. Answers are in
the DESIGN `--json` shape with the request's `id`, and are kept and sent only as strict JSON.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

from hermesd.answer import Answer, failure
from hermesd.config.model import Point
from hermesd.context import new_trace_id
from hermesd.core import strict_json
from hermesd.core.errors import ErrorCode, ProtocolError
from hermesd.replies import error_reply

Kind = Literal["command", "set"]
PENDING = "pending"
#: a number as JSON writes it (RFC 8259), in ASCII digits
JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True, slots=True)
class MqttRequest:
    kind: Kind
    topic: str
    text: str | None = None  # command
    point: str | None = None  # set
    value: Any = None  # set
    id: str | int | None = None
    dry_run: bool = False
    reply_to: str | None = None  # MQTT 5 response topic (checked by the tool)
    correlation: str | None = None  # MQTT 5 correlation data, hex
    error: dict[str, str] | None = None  # the tool refused the payload: answer, do nothing

    @classmethod
    def from_event(cls, kind: Kind, data: dict[str, Any]) -> MqttRequest:
        """The request an event describes; ProtocolError if the event is malformed."""
        def get(key: str, types: tuple[type, ...], optional: bool = True) -> Any:
            value = data.get(key)
            if value is None and optional:
                return None
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                raise ProtocolError(f"{kind} event: {key} has the wrong type")
            return value

        error = get("error", (dict,))
        if error is not None and not (isinstance(error.get("code"), str)
                                      and isinstance(error.get("message"), str)):
            raise ProtocolError(f"{kind} event: error needs a code and a message")
        req = cls(kind=kind, topic=get("topic", (str,), optional=False),
                  text=get("text", (str,)), point=get("point", (str,)),
                  value=get("value", (str, int, float, bool)), id=get("id", (str, int)),
                  dry_run=bool(get("dry_run", (bool,))), reply_to=get("reply_to", (str,)),
                  correlation=get("correlation", (str,)),
                  error=None if error is None else {"code": error["code"],
                                                    "message": error["message"][:300]})
        if req.error is None:
            if kind == "command" and req.text is None:
                raise ProtocolError("command event without text or error")
            if kind == "set" and (req.point is None or req.value is None):
                raise ProtocolError("set event without point and value, or error")
        return req

    def key(self) -> tuple[Any, ...] | None:
        """What makes two deliveries the same request; None when nothing does.

        The names (id, correlation data, where the answer goes) and the content: a value is
        kept with its type, so `1`, `1.0`, `true` and `"1"` are different requests."""
        if self.id is None and self.correlation is None:
            return None
        value = None if self.value is None else (type(self.value).__name__, self.value)
        error = None if self.error is None else (self.error["code"], self.error["message"])
        return (self.kind, self.topic, self.reply_to, self.correlation, self.id,
                self.text, self.point, value, self.dry_run, error)


def payload_refusal(error: dict[str, str]) -> Answer:
    """The answer to a request that is not taken (a payload the tool refused)."""
    return failure(error["code"], error["message"], reply=error_reply(error["message"]),
                   trace_id=new_trace_id())


def answer_payload(answer: Answer, request: MqttRequest) -> dict[str, Any]:
    return {**answer.to_dict(), "id": request.id}


def unwritable_answer(request: MqttRequest) -> dict[str, Any]:
    """What is sent instead of an answer that cannot be written as strict JSON."""
    message = "the answer could not be written as JSON; see hermesd's log"
    answer = failure(ErrorCode.INTERNAL, message, reply=error_reply(message),
                     trace_id=new_trace_id())
    return {**answer.to_dict(), "id": request.id}


def malformed_value(point: Point, value: Any) -> str | None:
    """Why a written value in text is not a number a sender means, for a numeric point.

    Text a number parser would take but JSON would not write (`1_000`, non-ASCII digits,
    `+5`, `.5`, `0012`) is refused rather than read as some number: a machine's payload says
    numbers as JSON does. Non-numbers (`fast`, `NaN`) are left to policy, which refuses them.
    """
    if point.kind not in ("int", "float") or not isinstance(value, str):
        return None
    text = value.strip()
    if JSON_NUMBER.fullmatch(text):
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    shown = repr(text) if len(text) <= 40 else repr(text[:37]) + "..."
    return (f"{shown} is not a number as MQTT payloads write one for {point.id}: digits 0-9, "
            "an optional leading -, decimal point and exponent (JSON)")


class RecentRequests:
    """Requests by key for a while: in progress, or done with their answer.

    Bounded in count and age: a broker redelivers a QoS 1 message within seconds of a
    reconnect, and a requester re-sends within its own timeout, so a few hundred recent
    requests cover any plant's command rate. A key is kept as a 16-byte digest and an answer
    as compact JSON, so the full store holds about 150 KiB.
    """

    def __init__(self, limit: int = 256, ttl: float = 600.0) -> None:
        self.limit = limit
        self.ttl = ttl
        self._items: OrderedDict[bytes, tuple[float, Any]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: tuple[Any, ...]) -> Any:
        """PENDING, the answer payload, or None when not seen (or long ago)."""
        self._expire()
        item = self._items.get(_digest(key))
        if item is None:
            return None
        return strict_json.loads(item[1]) if isinstance(item[1], bytes) else item[1]

    def begin(self, key: tuple[Any, ...]) -> None:
        self._items[_digest(key)] = (time.monotonic(), PENDING)
        self._expire()

    def finish(self, key: tuple[Any, ...], payload: dict[str, Any]) -> None:
        compact = strict_json.encode(payload)
        digest = _digest(key)
        self._items[digest] = (time.monotonic(), compact)
        self._items.move_to_end(digest)

    def _expire(self) -> None:
        cutoff = time.monotonic() - self.ttl
        while self._items and (len(self._items) > self.limit
                               or next(iter(self._items.values()))[0] < cutoff):
            self._items.popitem(last=False)


def _digest(key: tuple[Any, ...]) -> bytes:
    return hashlib.blake2b(repr(key).encode(), digest_size=16).digest()
