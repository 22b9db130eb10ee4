"""How much of the control socket one peer may take, so that no local user can starve the others.

Every user in the socket's group may connect; none may hold it. `Slots` admits or refuses each
new connection and each request by the peer's uid: any one user may hold `per_uid` connections
and `inflight_per_uid` requests at once, all of them together `inflight_others` requests, and
the last `reserved` of the `connections` slots are kept for root and hermesd's own user, who
can still ask `status` (and act) when everyone else has filled theirs. The bytes of recordings
(frames past MAX_REQUEST: an audio `ask`) are counted the same way, from a frame's first byte
past that size until its answer is sent: any one user may hold `audio_per_uid`, all but root
and hermesd's own user together `audio_others`, everyone `audio_total`; else 32 unfinished
8 MiB frames of one user would take hermesd past its memory budget. The bytes of answers
not yet read are bounded per user (`unsent_per_uid`) and for all but root and hermesd's own
(`unsent_others`); the server counts them (control/server.py). The time limits
(`frame_deadline`, `idle`, `send`) are absolute: trickling a byte at a time renews none of
them. `OncePerCause` logs a refusal when its cause first appears and when it clears, never once
per attempt. No I/O here besides logging.
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hermesd.control.bounds import MAX_ANSWER, MAX_AUDIO_REQUEST

MAX_CONNECTIONS = 512  # control connections at once, everyone together
RESERVED = 32  # of those, the slots only root and hermesd's own user may take
MAX_PER_UID = 32  # connections any other user may hold at once
MAX_INFLIGHT_PER_UID = 64  # requests any other user may have in flight at once
#: requests all other users together may have in flight: half of what the engine takes at once
#: (hermesd.engine.MAX_INFLIGHT), so root, MQTT and voice are never the ones answered BUSY
MAX_INFLIGHT_OTHERS = 256
MAX_PER_CONNECTION = 64  # requests in flight on one connection (everyone)
FRAME_DEADLINE = 10.0  # seconds from a frame's first byte to its newline
IDLE_TIMEOUT = 60.0  # seconds a connection may hold no request in flight before it is closed
SEND_TIMEOUT = 10.0  # seconds an answer may wait for its peer to read it
#: bytes of recordings (frames over MAX_REQUEST) one user may hold at once, being received or
#: being answered: one recording of the largest size (MAX_AUDIO_REQUEST) at a time
AUDIO_PER_UID = MAX_AUDIO_REQUEST
#: ... all users but root and hermesd's own together; and everyone. Each byte held costs about
#: twice that while it is answered (the frame's text, then its WAV): 24 MiB of recordings stay
#: well within the daemon's default soft memory budget (96 MiB) on top of its ~35 MiB
AUDIO_OTHERS = 2 * MAX_AUDIO_REQUEST
AUDIO_TOTAL = 3 * MAX_AUDIO_REQUEST
#: bytes of answers one user has not read yet (all its connections), and all users but root
#: and hermesd's own together: past half of it their new requests are answered BUSY, and a
#: connection whose answer would take it past it is closed (else 32 connections of answers
#: never read took hermesd past its memory budget). Twice the largest answer (MAX_ANSWER).
UNSENT_PER_UID = 2 * MAX_ANSWER
UNSENT_OTHERS = 4 * MAX_ANSWER


@dataclass(frozen=True)
class Limits:
    """The control socket's limits; the defaults are the documented ones (README)."""

    connections: int = MAX_CONNECTIONS
    reserved: int = RESERVED
    per_uid: int = MAX_PER_UID
    inflight_per_uid: int = MAX_INFLIGHT_PER_UID
    inflight_others: int = MAX_INFLIGHT_OTHERS
    per_connection: int = MAX_PER_CONNECTION
    frame_deadline: float = FRAME_DEADLINE
    idle: float = IDLE_TIMEOUT
    send: float = SEND_TIMEOUT
    audio_per_uid: int = AUDIO_PER_UID
    audio_others: int = AUDIO_OTHERS
    audio_total: int = AUDIO_TOTAL
    unsent_per_uid: int = UNSENT_PER_UID
    unsent_others: int = UNSENT_OTHERS


def is_trusted(uid: int | None) -> bool:
    """Root and hermesd's own user: they may take any role, and the reserved slots."""
    return uid is not None and uid in (0, os.getuid())


@dataclass
class Slots:
    """Who holds which connections and requests; `admit_*` says why not, or None and counts."""

    limits: Limits = field(default_factory=Limits)
    connections: Counter[int | None] = field(default_factory=Counter)
    inflight: Counter[int | None] = field(default_factory=Counter)
    others_inflight: int = 0
    audio: Counter[int | None] = field(default_factory=Counter)  # bytes of recordings held
    audio_others: int = 0

    @property
    def total(self) -> int:
        return self.connections.total()

    def admit_connection(self, uid: int | None, who: str) -> tuple[str, str] | None:
        """None when `uid` may connect (and it is counted); else (cause, reason)."""
        refusal = self._connection_refusal(uid, who)
        if refusal is None:
            self.connections[uid] += 1
        return refusal

    def _connection_refusal(self, uid: int | None, who: str) -> tuple[str, str] | None:
        lim = self.limits
        if is_trusted(uid):
            if self.total >= lim.connections:
                return "full", f"the control socket is full ({lim.connections} connections)"
            return None
        if self.connections[uid] >= lim.per_uid:
            return (f"uid {uid}", f"{who} already holds {lim.per_uid} control connections, "
                                  "the most one user may")
        if self.total >= lim.connections - lim.reserved:
            return ("others full", f"the control socket is full for all but root and hermesd's "
                                   f"own user ({lim.connections - lim.reserved} connections)")
        return None

    def release_connection(self, uid: int | None) -> list[str]:
        """Forget one connection of `uid`; the causes of refusal this ended."""
        self.connections[uid] -= 1
        if self.connections[uid] <= 0:
            del self.connections[uid]
        lim = self.limits
        cleared = [f"uid {uid}"]
        if self.total < lim.connections - lim.reserved:
            cleared.append("others full")
        if self.total < lim.connections:
            cleared.append("full")
        return cleared

    def admit_request(self, uid: int | None, who: str,
                      trusted: bool | None = None) -> tuple[str, str] | None:
        """None when `uid` may start one more request (and it is counted); else (cause, reason).
        `trusted`: `is_trusted(uid)`, when the caller knows it already (it is asked per
        request, and a connection's peer does not change)."""
        lim = self.limits
        inflight = self.inflight
        held = inflight.get(uid, 0)  # (not inflight[uid]: Counter's __missing__ is Python)
        if not (is_trusted(uid) if trusted is None else trusted):
            if held >= lim.inflight_per_uid:
                return (f"requests of uid {uid}", f"{who} already has {lim.inflight_per_uid} "
                        "requests in flight, the most one user may")
            if self.others_inflight >= lim.inflight_others:
                return ("others busy", f"hermesd is working on {lim.inflight_others} requests "
                        "of users other than root and its own, the most it takes at once")
            self.others_inflight += 1
        inflight[uid] = held + 1
        return None

    def release_request(self, uid: int | None, trusted: bool | None = None) -> None:
        """Forget one request of `uid`; `request_causes` names the causes of refusal this may
        have ended."""
        inflight = self.inflight
        held = inflight.get(uid, 0) - 1
        if held > 0:
            inflight[uid] = held
        else:
            inflight.pop(uid, None)  # (not del: Counter's __delitem__ is Python)
        if not (is_trusted(uid) if trusted is None else trusted):
            self.others_inflight -= 1

    def admit_audio(self, uid: int | None, who: str, size: int,
                    trusted: bool) -> tuple[str, str] | None:
        """None when `uid` may hold `size` more bytes of recordings (and they are counted);
        else (cause, reason), naming the limit."""
        lim = self.limits
        if not trusted:
            held = self.audio.get(uid, 0)
            if held + size > lim.audio_per_uid:
                return (f"recordings of uid {uid}", f"{who} would hold {held + size} bytes of "
                        f"recordings being sent or answered, over the {lim.audio_per_uid} one "
                        "user may (send one recording at a time)")
            if self.audio_others + size > lim.audio_others:
                return ("recordings of others", f"users other than root and hermesd's own "
                        f"would hold {self.audio_others + size} bytes of recordings being sent "
                        f"or answered, over the {lim.audio_others} they may together")
        total = self.audio.total()
        if total + size > lim.audio_total:
            return ("recordings", f"hermesd would hold {total + size} bytes of recordings being "
                    f"sent or answered, over its limit of {lim.audio_total}")
        self.audio[uid] += size
        if not trusted:
            self.audio_others += size
        return None

    def release_audio(self, uid: int | None, size: int, trusted: bool) -> None:
        """Forget `size` bytes of recordings of `uid` (admitted before)."""
        if not size:
            return
        self.audio[uid] -= size
        if self.audio[uid] <= 0:
            del self.audio[uid]
        if not trusted:
            self.audio_others -= size

    @staticmethod
    def audio_causes(uid: int | None) -> list[str]:
        """The causes of refusal releasing recordings of `uid` may end."""
        return [f"recordings of uid {uid}", "recordings of others", "recordings"]

    @staticmethod
    def request_causes(uid: int | None) -> list[str]:
        """The causes of refusal a request of `uid` ending may end."""
        return [f"requests of uid {uid}", "others busy"]


@dataclass
class _Seen:
    first: float
    logged: float
    last: float
    more: int = 0


class OncePerCause:
    """Log a cause of refusal once when it appears and once when it ends, not per attempt.

    A cause that never "ends" by itself (a client cut at a deadline) is repeated at most every
    `every` seconds, with the count of the ones not logged in between, and forgotten once it
    has not recurred for that long.
    """

    def __init__(self, logger: logging.Logger, every: float = 300.0) -> None:
        self._log = logger
        self.every = every
        self._seen: dict[str, _Seen] = {}

    def warn(self, cause: str, message: str, *args: Any, exc_info: bool = False) -> None:
        now = time.monotonic()
        seen = self._seen.get(cause)
        if seen is None:
            self._forget_old(now)
            self._seen[cause] = _Seen(now, now, now)
            self._log.warning(message, *args, exc_info=exc_info)
            return
        seen.last = now
        if now - seen.logged >= self.every:
            self._log.warning(message + " (and %d more since, not logged)", *args, seen.more)
            seen.logged, seen.more = now, 0
        else:
            seen.more += 1

    @property
    def holding(self) -> bool:
        """Whether any cause is held (else `clear` has nothing to do: callers on every request
        need not even word their message)."""
        return bool(self._seen)

    def clear(self, cause: str, message: str) -> None:
        """The cause is gone: say so (with how many were refused quietly) if it was logged."""
        seen = self._seen.pop(cause, None)
        if seen is not None:
            self._log.info("%s (%d more refused since it was logged, over %.0f s)", message,
                           seen.more, time.monotonic() - seen.first)

    def active(self) -> list[str]:
        """The causes seen within the last `every` seconds."""
        now = time.monotonic()
        return [cause for cause, seen in self._seen.items() if now - seen.last < self.every]

    def _forget_old(self, now: float) -> None:
        for cause in [c for c, seen in self._seen.items() if now - seen.last >= self.every]:
            del self._seen[cause]
