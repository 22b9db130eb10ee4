"""The outbox: messages that must reach the broker even if it is away (answers, deletions).

A durable message stays here from the moment it is accepted until the broker acknowledges it
(QoS 1 PUBACK), across broker outages and restarts of this tool: the outbox is saved to the
state dir with an atomic replace. It is bounded: when full, the oldest message is dropped and
counted, so a long outage cannot eat the memory or the disk. State updates are not kept here:
they are re-announced in full after every reconnect. Device writes are never kept here either:
a write must not happen later, at a moment nobody chose.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermesd.core.statefiles import read_state, remove_stale_temps, write_atomic

log = logging.getLogger(__name__)

FORMAT_VERSION = 1


@dataclass(slots=True)
class Message:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False
    correlation: bytes | None = None  # MQTT 5 correlation data of the request it answers
    content_type: str | None = None
    expiry: int | None = None  # MQTT 5 message expiry interval, seconds
    mid: int | None = field(default=None, compare=False)  # paho's id once handed to it

    def to_dict(self) -> dict[str, Any]:
        return {"topic": self.topic, "payload": base64.b64encode(self.payload).decode(),
                "qos": self.qos, "retain": self.retain,
                "correlation": self.correlation.hex() if self.correlation is not None else None,
                "content_type": self.content_type, "expiry": self.expiry}

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> Message:
        correlation = obj.get("correlation")
        return cls(topic=str(obj["topic"]), payload=base64.b64decode(obj["payload"]),
                   qos=int(obj.get("qos", 1)), retain=bool(obj.get("retain", False)),
                   correlation=bytes.fromhex(correlation) if correlation else None,
                   content_type=obj.get("content_type"), expiry=obj.get("expiry"))


class Outbox:
    def __init__(self, path: Path | None, limit: int) -> None:
        self.path = path
        self.limit = limit
        self._messages: OrderedDict[int, Message] = OrderedDict()  # by sequence number
        self._by_mid: dict[int, int] = {}
        self._seq = 0
        self._written: bytes | None = None
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._messages)

    def load(self) -> int:
        """Take back what a previous run left unsent; a corrupt file is set aside."""
        if self.path is None:
            return 0
        remove_stale_temps(self.path)  # a snapshot a stopped process did not finish
        try:
            raw = read_state(self.path)
        except FileNotFoundError:
            return 0
        except OSError as exc:
            log.error("cannot read the MQTT outbox %s: %s; starting empty", self.path, exc)
            return 0
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
                raise ValueError("unknown format")
            messages = [Message.from_dict(m) for m in data["messages"]]
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            aside = self.path.with_suffix(".corrupt")
            log.error("the MQTT outbox %s is unreadable (%s); moved to %s", self.path, exc, aside)
            with contextlib.suppress(OSError):
                self.path.replace(aside)
            return 0
        for message in messages[-self.limit:] if self.limit else []:
            self.add(message)
        self._written = raw
        return len(self._messages)

    def add(self, message: Message) -> Message | None:
        """Keep a message until it is acknowledged; returns the one dropped to make room."""
        if self.limit <= 0:
            return message
        dropped = None
        if len(self._messages) >= self.limit:
            _, dropped = self._messages.popitem(last=False)
            if dropped.mid is not None:
                self._by_mid.pop(dropped.mid, None)
            self.dropped += 1
        self._seq += 1
        message.mid = None
        self._messages[self._seq] = message
        return dropped

    def unsent(self) -> list[tuple[int, Message]]:
        """Messages not yet handed to the client, oldest first."""
        return [(seq, m) for seq, m in self._messages.items() if m.mid is None]

    def handed(self, seq: int, mid: int) -> None:
        message = self._messages.get(seq)
        if message is not None:
            message.mid = mid
            self._by_mid[mid] = seq

    def acked(self, mid: int) -> bool:
        """The broker has it: forget it. Returns whether it was one of ours."""
        seq = self._by_mid.pop(mid, None)
        if seq is None:
            return False
        self._messages.pop(seq, None)
        return True

    def forget_client(self) -> None:
        """The client was replaced: everything not acknowledged is to be handed over again."""
        self._by_mid.clear()
        for message in self._messages.values():
            message.mid = None

    def snapshot(self) -> bytes:
        return json.dumps({"version": FORMAT_VERSION,
                           "messages": [m.to_dict() for m in self._messages.values()]},
                          separators=(",", ":")).encode()

    def save(self, data: bytes) -> bool:
        """Write a snapshot unless it is what the file already holds (blocking)."""
        if self.path is None or data == self._written:
            return False
        write_atomic(self.path, data)
        self._written = data
        return True
