"""Requests on the control socket: parsed strictly, and the role they may act with.

A request is one JSON object: `{"op": ..., "id": ..., ...}`. Unknown ops or fields, and fields of
the wrong type, are refused with a message that names them. The role comes from the peer's
credentials: root and the daemon's own user may take any role with `role`; anyone else gets the
role `access.users` gives them, or the default role, and may not ask for another.
"""

from __future__ import annotations

import functools
import pwd
import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from hermesd.config.model import Access
from hermesd.control.bounds import (
    MAX_AUDIO_REQUEST,
    MAX_ID,
    MAX_LISTEN_WINDOW,
    MAX_REQUEST,
    MAX_TIMEOUT,
)
from hermesd.control.limits import is_trusted
from hermesd.core.errors import BadRequest, Forbidden, ProtocolError
from hermesd.core.protocol import FrameDecoder, parse_frame

OPS: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    # op -> field -> (types, required)
    "status": {},
    "tools": {},
    "points": {},
    # one point, or several in one read (`points`, answered with `result.values`)
    "read": {"point": (str, False), "points": (list, False)},
    "write": {"point": (str, True), "value": ((str, int, float, bool), True)},
    # audio_wav: a WAV file, base64 (hermesctl ask --audio); audio: a path the daemon reads,
    # for root and the daemon's own user only (others' files are not the daemon's to read)
    "ask": {"text": (str, False), "audio": (str, False), "audio_wav": (str, False)},
    "call": {"tool": (str, True), "action": (str, True), "args": (dict, False)},
    # push-to-talk: the next utterance at the microphone, without the wake phrase
    "listen": {"window": ((int, float), False)},
    # the past of a point (hermesd/history): a stat over from..to (or since, a duration);
    # series: up to that many buckets of min/max/mean as well, each at least `step` seconds
    # (sparklines, CSV)
    "history": {"point": (str, True), "stat": (str, False), "from": (str, False),
                "to": (str, False), "since": (str, False), "series": (int, False),
                "step": ((int, float), False), "value": ((str, int, float, bool), False)},
    "alarms": {"active": (bool, False)},
    "ack": {"alarm": (str, True)},
}
COMMON: dict[str, tuple[type | tuple[type, ...], bool]] = {
    "op": (str, True), "id": ((str, int), False), "role": (str, False),
    "dry_run": (bool, False), "timeout": ((int, float), False),
}
AUDIO_PREFIX = re.compile(rb'\{\s*"op"\s*:\s*"ask"\s*,\s*"audio_wav"\s*:\s*"')


@dataclass(frozen=True)
class Peer:
    """The process at the other end of a control connection (looked up once per connection)."""

    pid: int | None
    uid: int | None
    gid: int | None
    name: str | None = None  # the user name of uid, when it has one

    @classmethod
    def of(cls, pid: int | None, uid: int | None, gid: int | None) -> Peer:
        name = None
        if uid is not None:
            try:
                name = pwd.getpwuid(uid).pw_name
            except KeyError:
                name = None
        return cls(pid, uid, gid, name)

    @property
    def trusted(self) -> bool:
        """Root or hermesd's own user: any role, and the control socket's reserved slots."""
        return is_trusted(self.uid)

    def describe(self) -> str:
        return self._described

    @functools.cached_property
    def _described(self) -> str:  # said in every request's context: worked out once
        if self.uid is None:
            return "unknown peer"
        return f"uid {self.uid} ({self.name or '?'}) pid {self.pid}"


class Request(NamedTuple):  # immutable, and made on every request for less than a dataclass
    op: str
    fields: dict[str, Any]
    id: Any = None
    role: str | None = None
    dry_run: bool = False
    timeout: float | None = None


_new_request = tuple.__new__  # a Request of every field, without its Python __new__
_COMMON_KEYS = COMMON.keys()
#: each op's fields with the common ones, merged once rather than per request
_SPECS = {op: {**COMMON, **fields} for op, fields in OPS.items()}
#: ... as each field's types (a tuple, for isinstance) and the op's required fields
_TYPES = {op: {name: types if isinstance(types, tuple) else (types,)
               for name, (types, _) in spec.items()} for op, spec in _SPECS.items()}
_REQUIRED = {op: frozenset(name for name, (_, required) in spec.items() if required)
             for op, spec in _SPECS.items()}


def _fields_hold(obj: dict[str, Any], op: str) -> bool:
    """Whether every field of `obj` is one of the op's, of its types, and none required is
    missing: the common case in a few C-level passes over what came (no Python step per
    field); `_refuse_fields` says what did not."""
    types = _TYPES[op]
    try:
        if not all(map(isinstance, obj.values(), map(types.__getitem__, obj))):
            return False
    except KeyError:  # a field the op does not have
        return False
    if bool in map(type, obj.values()):  # a bool is an int: only a field of bools takes one
        for name, value in obj.items():
            if value.__class__ is bool and bool not in types[name]:
                return False
    return obj.keys() >= _REQUIRED[op]


def _refuse_fields(obj: dict[str, Any], op: str) -> None:
    """BadRequest naming the first thing wrong with the fields of `obj`, in the spec's order."""
    spec = _SPECS[op]
    unknown = sorted(k for k in obj if k not in spec)
    if unknown:
        raise BadRequest(f"{op}: unknown field(s) {', '.join(unknown)}")
    for name, (types, required) in spec.items():
        if name not in obj:
            if required:
                raise BadRequest(f"{op}: missing field {name!r}")
            continue
        value = obj[name]
        allowed = types if isinstance(types, tuple) else (types,)
        if isinstance(value, bool) and bool not in allowed:
            raise BadRequest(f"{op}: field {name!r} has the wrong type (boolean)")
        if not isinstance(value, allowed):
            raise BadRequest(f"{op}: field {name!r} has the wrong type ({type(value).__name__})")


def parse(obj: dict[str, Any]) -> Request:
    op = obj.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise BadRequest(f"unknown op {op!r}; expected one of {', '.join(OPS)}")
    if not _fields_hold(obj, op):
        _refuse_fields(obj, op)
    if op == "read":
        if "points" not in obj:
            if "point" not in obj:
                raise BadRequest("read: missing field 'point' (or 'points', a list of point "
                                 "ids)")
        elif "point" in obj:
            raise BadRequest("read: give one of point or points, not both")
        elif not (obj["points"] and all(isinstance(p, str) for p in obj["points"])):
            raise BadRequest("read: points must be a non-empty list of point ids")
    elif op == "ask" and sum(k in obj for k in ("text", "audio", "audio_wav")) != 1:
        raise BadRequest("ask: give exactly one of text, audio or audio_wav")
    elif op == "listen" and not 0 < obj.get("window", 10) <= MAX_LISTEN_WINDOW:
        raise BadRequest(f"listen: window must be in (0, {MAX_LISTEN_WINDOW:g}] seconds")
    request_id = obj.get("id")
    if request_id.__class__ is str and len(request_id) > MAX_ID:
        raise BadRequest(f"id is {len(request_id)} characters long, more than the {MAX_ID} an "
                         "id may have")
    timeout = obj.get("timeout")
    if timeout is not None and not 0 < timeout <= MAX_TIMEOUT:
        raise BadRequest(f"timeout must be in (0, {MAX_TIMEOUT:g}] seconds")
    fields = obj.copy()  # the op's own fields, in the order they came
    for name in _COMMON_KEYS & obj.keys():  # (mostly only `op`: no pass over every field)
        del fields[name]
    return _new_request(Request, (op, fields, request_id, obj.get("role"),
                                  bool(obj.get("dry_run", False)), timeout))


def role_for(peer: Peer, requested: str | None, access: Access) -> str:
    """The role a peer acts with; Forbidden if it asks for one it may not take."""
    own = access.default_role
    if peer.uid is not None:
        own = access.users.get(str(peer.uid), own)
        if peer.name is not None:
            own = access.users.get(peer.name, own)
    if requested is None or requested == own:
        return own
    if requested not in access.roles:
        raise Forbidden(f"role {requested!r} is not defined "
                        f"(roles: {', '.join(sorted(access.roles))})")
    if not peer.trusted:
        raise Forbidden(f"{peer.describe()} may act only as {own!r}, not {requested!r}")
    return requested


class RequestDecoder(FrameDecoder):
    """Request frames of at most MAX_REQUEST bytes, except an audio `ask` (MAX_AUDIO_REQUEST).

    The larger limit is granted by the first bytes of the frame being assembled, so it holds
    only for the one op that needs it; a frame of any other shape is refused at 64 KiB as
    before, without waiting for its end.

    A bad frame raises ProtocolError; when good frames came before it in the same bytes, `feed`
    returns those and keeps the error in `error` (the next `feed` raises it), so every request
    that was whole is still answered before the connection is closed. At the end of the stream,
    `finish` takes what is left as the last frame: a client that sends its request and closes
    its side without a final newline is answered too.

    The frames over MAX_REQUEST that `feed` or `finish` returned are also in `large`, with
    their sizes, until the caller takes them (the server counts the bytes of recordings each
    user holds); `discard` lets go of an unfinished frame at once (a connection cut).
    """

    def __init__(self) -> None:
        super().__init__(MAX_REQUEST)
        self._searched = 0  # bytes of the buffer known to hold no newline
        self.error: ProtocolError | None = None
        self.large: list[tuple[dict[str, Any], int]] = []

    def discard(self) -> None:
        """Forget the unfinished frame (its memory too: a recording may be 8 MiB)."""
        self._buffer = bytearray()
        self._searched = 0

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        if self.error is not None:
            raise self.error
        frames: list[dict[str, Any]] = []
        try:
            self._feed(data, frames)
        except ProtocolError as exc:
            if not frames:
                raise
            self.error = exc
        return frames

    def finish(self) -> dict[str, Any] | None:
        """The frame left unfinished when the stream ended (None: nothing but blanks were);
        ProtocolError if it is not a request frame. The size limit was kept by `feed`."""
        if self.error is not None:
            raise self.error
        line = bytes(self._buffer)
        self._buffer.clear()
        self._searched = 0
        if not line.strip():
            return None
        obj = parse_frame(line)
        if len(line) > MAX_REQUEST:
            self.large.append((obj, len(line)))
        return obj

    def _feed(self, data: bytes, frames: list[dict[str, Any]]) -> None:
        buffer = self._buffer
        if not buffer and data.find(b"\n") == len(data) - 1 >= 0:
            # one whole frame in one read, nothing held (most requests): the same checks
            # without the copies in and out of the buffer, and whether it is an audio ask
            # (the larger limit) asked only of a frame past the smaller one
            if len(data) - 1 > MAX_REQUEST:
                limit = MAX_AUDIO_REQUEST if AUDIO_PREFIX.match(data, 0, 64) else MAX_REQUEST
                if len(data) - 1 > limit:
                    raise ProtocolError(f"frame of {len(data) - 1} bytes exceeds {limit}")
                frames.append(parse_frame(data[:-1]))
                self.large.append((frames[-1], len(data) - 1))
                return
            frames.append(parse_frame(data[:-1]))
            return
        buffer += data
        while True:
            end = buffer.find(b"\n", self._searched)
            limit = MAX_AUDIO_REQUEST if AUDIO_PREFIX.match(buffer, 0, 64) else MAX_REQUEST
            if end < 0:
                self._searched = len(buffer)
                if len(buffer) > limit:
                    raise ProtocolError(f"frame exceeds {limit} bytes")
                return
            line = bytes(buffer[:end])
            del buffer[:end + 1]
            self._searched = 0
            if len(line) > limit:
                raise ProtocolError(f"frame of {len(line)} bytes exceeds {limit}")
            obj = parse_frame(line)
            frames.append(obj)
            if len(line) > MAX_REQUEST:
                self.large.append((obj, len(line)))
