"""Requests on the control socket: parsed strictly, and the role they may act with.

A request is one JSON object: `{"op": ..., "id": ..., ...}`. Unknown ops or fields, and fields of
the wrong type, are refused with a message that names them. The role comes from the peer's
credentials: root and the daemon's own user may take any role with `role`; anyone else gets the
role `access.users` gives them, or the default role, and may not ask for another.
"""

from __future__ import annotations

import os
import pwd
from dataclasses import dataclass, field
from typing import Any

from hermesd.config.model import Access
from hermesd.errors import BadRequest, Forbidden

OPS: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    # op -> field -> (types, required)
    "status": {},
    "tools": {},
    "points": {},
    "read": {"point": (str, True)},
    "write": {"point": (str, True), "value": ((str, int, float, bool), True)},
    "ask": {"text": (str, False), "audio": (str, False)},
    "call": {"tool": (str, True), "action": (str, True), "args": (dict, False)},
}
COMMON: dict[str, tuple[type | tuple[type, ...], bool]] = {
    "op": (str, True), "id": ((str, int), False), "role": (str, False),
    "dry_run": (bool, False), "timeout": ((int, float), False),
}
MAX_TIMEOUT = 120.0


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

    def describe(self) -> str:
        if self.uid is None:
            return "unknown peer"
        return f"uid {self.uid} ({self.name or '?'}) pid {self.pid}"


@dataclass(frozen=True)
class Request:
    op: str
    fields: dict[str, Any] = field(default_factory=dict)
    id: Any = None
    role: str | None = None
    dry_run: bool = False
    timeout: float | None = None


def parse(obj: dict[str, Any]) -> Request:
    op = obj.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise BadRequest(f"unknown op {op!r}; expected one of {', '.join(OPS)}")
    spec = {**COMMON, **OPS[op]}
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
    if op == "ask" and ("text" in obj) == ("audio" in obj):
        raise BadRequest("ask: give exactly one of text or audio")
    timeout = obj.get("timeout")
    if timeout is not None and not 0 < timeout <= MAX_TIMEOUT:
        raise BadRequest(f"timeout must be in (0, {MAX_TIMEOUT:g}] seconds")
    fields = {k: v for k, v in obj.items() if k not in COMMON}
    return Request(op=op, fields=fields, id=obj.get("id"), role=obj.get("role"),
                   dry_run=bool(obj.get("dry_run", False)), timeout=timeout)


def role_for(peer: Peer, requested: str | None, access: Access) -> str:
    """The role a peer acts with; Forbidden if it asks for one it may not take."""
    trusted = peer.uid is not None and peer.uid in (0, os.getuid())
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
    if not trusted:
        raise Forbidden(f"{peer.describe()} may act only as {own!r}, not {requested!r}")
    return requested
