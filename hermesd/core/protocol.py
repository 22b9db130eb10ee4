"""The one protocol spoken between hermesd and its tool processes (and its control clients).

Framing is newline-delimited JSON: one UTF-8 JSON object per line, at most `MAX_FRAME` bytes.
JSON never contains a raw newline, so a line is a frame; a person can watch a socket with `socat`.
Encoding and decoding are pure functions over bytes; no I/O happens here. Anything malformed,
oversize, or of an unknown type raises `ProtocolError`, and the caller closes that connection —
a bad frame is never taken for the end of the stream.

Messages (the `type` field names them):
  tool -> daemon: `hello` (name, version, actions with input/output JSON Schemas), `result`,
                  `error` (documented code), `event` (tool-initiated data), `pong`
  daemon -> tool: `configure` (the tool's slice of the config), `call` (id, action, args,
                  context, deadline), `ping`

Versions (`Hello.protocol`, the tool's): 2 adds `Call.expires_at`, the call's deadline on the
host's monotonic clock. The daemon sends it only to a tool that says 2 or more, so a tool of
version 1 is never sent a field it would refuse.
"""

from __future__ import annotations

import dataclasses
import json
import operator
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from hermesd.core import strict_json
from hermesd.core.errors import ErrorCode, ProtocolError

MAX_FRAME = 1024 * 1024  # bytes, newline excluded
PROTOCOL_VERSION = 2  # what the tools of this tree speak (see the module docstring)
#: the first version whose calls carry `expires_at`
EXPIRES_AT_VERSION = 2

Effect = Literal["none", "read", "write"]


def encode(message: Message) -> bytes:
    """One frame: the message's JSON and a newline. Raises ProtocolError if it would be oversize."""
    raw = strict_json.encode(message.to_dict())
    if len(raw) > MAX_FRAME:
        raise ProtocolError(f"{message.TYPE} frame of {len(raw)} bytes exceeds {MAX_FRAME}")
    return raw + b"\n"


def encode_call(msg_id: int, action: str, args: dict[str, Any], context: dict[str, Any],
                deadline_ms: int, expires_at: float | None = None) -> bytes:
    """`encode(Call(...))` without building the message first: the frame of every tool call."""
    obj = {"type": "call", "id": msg_id, "action": action, "args": args, "context": context,
           "deadline_ms": deadline_ms}
    if expires_at is not None:
        obj["expires_at"] = expires_at
    raw = strict_json.encode(obj)
    if len(raw) > MAX_FRAME:
        raise ProtocolError(f"call frame of {len(raw)} bytes exceeds {MAX_FRAME}")
    return raw + b"\n"


def encode_result(msg_id: int, value: Any) -> bytes:
    """`encode(Result(msg_id, value))` without building the message first: every answer of a
    tool."""
    raw = strict_json.encode({"type": "result", "id": msg_id, "value": value})
    if len(raw) > MAX_FRAME:
        raise ProtocolError(f"result frame of {len(raw)} bytes exceeds {MAX_FRAME}")
    return raw + b"\n"


def encode_json(obj: dict[str, Any], limit: int = MAX_FRAME) -> bytes:
    """Frame a plain JSON object (the control socket's requests and answers)."""
    raw = strict_json.encode(obj)
    if len(raw) > limit:
        raise ProtocolError(f"frame of {len(raw)} bytes exceeds {limit}")
    return raw + b"\n"


class FrameDecoder:
    """Splits a byte stream into JSON objects; holds back an incomplete last line.

    `feed` returns the objects completed by the new bytes. A line longer than `limit` raises at
    once (without waiting for its end), as does a line that is not a JSON object.
    """

    def __init__(self, limit: int = MAX_FRAME) -> None:
        self.limit = limit
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        if not self._buffer and data.find(b"\n") == len(data) - 1 >= 0:
            # one whole frame in one read, nothing held (a request's every frame, mostly):
            # the same checks without the copies in and out of the buffer
            if len(data) - 1 > self.limit:
                raise ProtocolError(f"frame of {len(data) - 1} bytes exceeds {self.limit}")
            return [parse_frame(data[:-1])]
        self._buffer += data
        frames: list[dict[str, Any]] = []
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.limit:
                    raise ProtocolError(f"frame exceeds {self.limit} bytes")
                return frames
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if len(line) > self.limit:
                raise ProtocolError(f"frame of {len(line)} bytes exceeds {self.limit}")
            frames.append(parse_frame(line))

    @property
    def pending(self) -> int:
        """Bytes of an unfinished frame."""
        return len(self._buffer)


def parse_frame(line: bytes) -> dict[str, Any]:
    try:
        obj = strict_json.loads(line)
    except ProtocolError as exc:
        if line.startswith(b"\xef\xbb\xbf"):  # else "Expecting value", which hides it
            raise ProtocolError("frame begins with a UTF-8 byte-order mark (EF BB BF); send "
                                "the JSON without one") from None
        raise ProtocolError(f"frame is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ProtocolError(f"frame is a JSON {type(obj).__name__}, not an object")
    return obj


def decode(obj: dict[str, Any]) -> Message:
    """The typed message for a decoded frame."""
    kind = obj.get("type")
    fast = _FAST.get(kind) if isinstance(kind, str) else None
    if fast is not None:
        message: Message | None = fast(obj)
        if message is not None:
            return message
    cls = MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError(f"unknown message type {kind!r}")
    return cls.from_dict(obj)


# ---------------------------------------------------------------------------------------------
# typed messages


@dataclass(frozen=True, slots=True)
class Message:
    TYPE: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        names = _NAMES.get(type(self))
        if names is None:
            names = _NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))
        for name in names:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = [v.to_dict() if isinstance(v, ActionSpec) else v for v in value]
            out[name] = value
        return out

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> typing.Self:
        return _build(cls, obj, skip=("type",))


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action a tool offers: what it does, its argument and result schemas, its effect."""

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    effect: str = "read"  # "none" | "read" | "write": what policy a direct call must pass

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> ActionSpec:
        spec = _build(cls, obj)
        if spec.effect not in ("none", "read", "write"):
            raise ProtocolError(f"action {spec.name!r}: effect {spec.effect!r} is not none|read|write")
        return spec


@dataclass(frozen=True, slots=True)
class Hello(Message):
    TYPE: ClassVar[str] = "hello"
    tool: str
    version: str
    pid: int
    actions: tuple[ActionSpec, ...]
    protocol: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Configure(Message):
    TYPE: ClassVar[str] = "configure"
    id: int
    config: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Call(Message):
    TYPE: ClassVar[str] = "call"
    id: int
    action: str
    args: dict[str, Any]
    context: dict[str, Any]
    deadline_ms: int  # milliseconds from receipt: relative, so clock jumps cannot expire it
    #: when the call expires, in `time.monotonic()` seconds (CLOCK_MONOTONIC: one clock for
    #: every process on the host, and wall-clock jumps do not move it). A tool that reads the
    #: frame only after it (it was held up: stopped, swapping, its loop blocked) drops the call
    #: undone: its caller was answered TIMEOUT already. None from a daemon of version 1.
    expires_at: float | None = None

    def to_dict(self) -> dict[str, Any]:  # the generic one's result, on every tool call
        out = {"type": "call", "id": self.id, "action": self.action, "args": self.args,
               "context": self.context, "deadline_ms": self.deadline_ms}
        if self.expires_at is not None:
            out["expires_at"] = self.expires_at
        return out


@dataclass(frozen=True, slots=True)
class Result(Message):
    TYPE: ClassVar[str] = "result"
    id: int
    value: Any

    def to_dict(self) -> dict[str, Any]:  # the generic one's result, on every tool answer
        return {"type": "result", "id": self.id, "value": self.value}


@dataclass(frozen=True, slots=True)
class Error(Message):
    TYPE: ClassVar[str] = "error"
    id: int
    code: str
    message: str
    retryable: bool = False

    def __post_init__(self) -> None:
        if self.code not in ErrorCode.__members__:
            raise ProtocolError(f"error code {self.code!r} is not a documented code")


@dataclass(frozen=True, slots=True)
class Event(Message):
    TYPE: ClassVar[str] = "event"
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Ping(Message):
    TYPE: ClassVar[str] = "ping"
    id: int


@dataclass(frozen=True, slots=True)
class Pong(Message):
    TYPE: ClassVar[str] = "pong"
    id: int


MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.TYPE: cls for cls in (Hello, Configure, Call, Result, Error, Event, Ping, Pong)
}
_NAMES: dict[type, tuple[str, ...]] = {}


# -- fast paths for the frames of every request: the well-formed case without the generic
#    checker; anything unusual (None) falls through to the strict generic path and its messages


def _is_int(value: Any) -> bool:
    return type(value) is int


def _fast_result(obj: dict[str, Any]) -> Message | None:
    msg_id = obj.get("id")
    if len(obj) == 3 and msg_id.__class__ is int and "value" in obj:
        return Result(msg_id, obj["value"])
    return None


#: a call's fields, fetched in one C-level call, and the classes they must be of (exactly: a
#: bool is no id)
_CALL_FIELDS = operator.itemgetter("id", "action", "args", "context", "deadline_ms")
_CALL_CLASSES = (int, str, dict, dict, int)


def _fast_call(obj: dict[str, Any]) -> Message | None:
    size = len(obj)
    if size not in (6, 7):
        return None
    try:
        fields = _CALL_FIELDS(obj)  # with `type`: six, so nothing else
    except KeyError:
        return None
    if tuple(map(type, fields)) != _CALL_CLASSES:
        return None
    if size == 6:
        return Call(*fields)
    expires_at = obj.get("expires_at")  # the seventh field, and only it
    if expires_at.__class__ is float:
        msg_id, action, args, context, deadline_ms = fields
        return Call(msg_id, action, args, context, deadline_ms, expires_at)
    return None


def _fast_ping(cls: type[Ping] | type[Pong]) -> Any:
    def build(obj: dict[str, Any]) -> Message | None:
        if len(obj) == 2 and _is_int(obj.get("id")):
            return cls(obj["id"])
        return None
    return build


_FAST: dict[str, Any] = {"result": _fast_result, "call": _fast_call, "ping": _fast_ping(Ping),
                         "pong": _fast_ping(Pong)}


# ---------------------------------------------------------------------------------------------
# strict construction from untrusted dicts

_T = typing.TypeVar("_T")
_HINTS: dict[type, dict[str, Any]] = {}


def _build(cls: type[_T], obj: dict[str, Any], skip: tuple[str, ...] = ()) -> _T:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    name = getattr(cls, "TYPE", "") or cls.__name__
    unknown = [k for k in obj if k not in fields and k not in skip]
    if unknown:
        raise ProtocolError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
    kwargs: dict[str, Any] = {}
    for fname, f in fields.items():
        if fname not in obj:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ProtocolError(f"{name}: missing field {fname!r}")
            continue
        kwargs[fname] = _check(name, fname, obj[fname], hints[fname])
    try:
        return cls(**kwargs)
    except ProtocolError:
        raise
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"{name}: {exc}") from None


def _check(msg: str, fname: str, value: Any, hint: Any) -> Any:
    if hint is Any:
        return value
    origin = typing.get_origin(hint)
    if origin is tuple:  # tuple[ActionSpec, ...]
        item = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise ProtocolError(f"{msg}.{fname}: expected a list, got {type(value).__name__}")
        return tuple(item.from_dict(v) if isinstance(v, dict) else _bad(msg, fname, v) for v in value)
    if origin is dict:
        if not isinstance(value, dict):
            raise ProtocolError(f"{msg}.{fname}: expected an object, got {type(value).__name__}")
        return value
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        hint = next(o for o in options if o is not type(None))
    # bool is an int in Python; refuse it where a number is meant, and vice versa
    if hint is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise ProtocolError(f"{msg}.{fname}: expected an integer, got {json.dumps(value)[:40]}")
    if hint is bool and not isinstance(value, bool):
        raise ProtocolError(f"{msg}.{fname}: expected true or false, got {json.dumps(value)[:40]}")
    if hint is str and not isinstance(value, str):
        raise ProtocolError(f"{msg}.{fname}: expected a string, got {json.dumps(value)[:40]}")
    if hint is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ProtocolError(f"{msg}.{fname}: expected a number, got {json.dumps(value)[:40]}")
        return float(value)  # (frames hold no integer beyond 64 bits: strict_json refuses it)
    return value


def _bad(msg: str, fname: str, value: Any) -> Any:
    raise ProtocolError(f"{msg}.{fname}: expected objects in the list, got {type(value).__name__}")
