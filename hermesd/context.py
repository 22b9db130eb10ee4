"""The immutable context of one request: who asked, from where, by when, and whether to act.

It is made once at the edge (control socket, MQTT, voice) and passed unchanged through router,
policy and dispatcher; tools receive its public part. Nothing downstream may widen the role.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any, Literal, NamedTuple

Source = Literal["control", "mqtt", "voice", "internal"]


#: trace ids tell requests apart in answers and audit records; nothing relies on them being
#: unguessable. Drawn from a generator seeded once from the system's randomness: os.urandom
#: is a getrandom() system call on every request
_TRACE_IDS = random.Random()  # noqa: S311  # an id, not a secret
#: a process forked from this one draws its own, as the random module's own generator does:
#: else parent and child would hand out the same ids from then on
os.register_at_fork(after_in_child=_TRACE_IDS.seed)


_new_tuple = tuple.__new__  # a named tuple made from its fields, without its Python __new__


def new_trace_id() -> str:
    return f"{_TRACE_IDS.getrandbits(64):016x}"  # 16 hex digits, as os.urandom(8).hex()


class RequestContext(NamedTuple):
    """Made by `make` only (every field given). A named tuple: immutable, and made at the cost
    of one tuple; a frozen dataclass set each of its nine fields by a call, on every request."""

    source: Source
    role: str
    deadline: float  # time.monotonic() by which the answer is due
    dry_run: bool
    peer_uid: int | None  # control socket peer (SO_PEERCRED)
    peer: str  # who, in words: "uid 1000 (alice)", "mqtt", "voice"
    #: where exactly it came in, when that is more than the peer says: an MQTT topic. Never
    #: part of `peer`: the audit log bounds records per peer, and a topic is anyone's choice
    origin: str
    trace_id: str
    started: float  # time.monotonic() when it came in

    @classmethod
    def make(cls, source: Source, role: str, *, timeout: float = 5.0, dry_run: bool = False,
             peer_uid: int | None = None, peer: str = "", origin: str = "",
             trace_id: str | None = None, started: float | None = None) -> RequestContext:
        """A context due `timeout` seconds from now (the fields as named; a new trace id and
        now as its start unless given). Every request makes one: no keyword dict is built."""
        now = time.monotonic()
        return _new_tuple(cls, (source, role, now + timeout, dry_run, peer_uid, peer, origin,
                                new_trace_id() if trace_id is None else trace_id,
                                now if started is None else started))

    def remaining(self) -> float:
        """Seconds left before the deadline (never negative)."""
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline

    def for_tool(self) -> dict[str, Any]:
        """What a tool may know of the request."""
        return {"trace_id": self.trace_id, "source": self.source, "role": self.role,
                "dry_run": self.dry_run}
