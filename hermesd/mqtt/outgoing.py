"""Messages on their way from the daemon to the mqtt tool, batched and coalesced.

Retained messages (configs, states, availabilities) are kept one per topic: a newer value
replaces one not yet sent, so a fast-changing point costs one message per batch, not one per
change. Answers keep their order in a bounded queue. One task sends whatever is waiting as one
`publish` call; when the tool cannot take it (restarting), everything stays and is tried again
with a growing pause. Nothing here decides what is published.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hermesd.core.errors import HermesError, ToolUnavailable

log = logging.getLogger(__name__)

MAX_BATCH = 2000  # messages in one publish call (the tool takes up to 5000)
MAX_BATCH_CHARS = 128 * 1024  # and their size: even escaped UTF-8, well inside one frame
MAX_ANSWERS = 1000  # answers waiting while the tool is away; the oldest are dropped
RETRY_FIRST = 0.2
RETRY_MAX = 2.0


@dataclass(frozen=True, slots=True)
class Outgoing:
    topic: str
    payload: str
    retain: bool = False
    qos: int = 1
    durable: bool = False  # kept in the tool's outbox until the broker has it
    correlation: str | None = None  # hex
    content_type: str | None = None
    expiry: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"topic": self.topic, "payload": self.payload, "qos": self.qos,
                               "retain": self.retain, "durable": self.durable}
        if self.correlation is not None:
            out["correlation"] = self.correlation
        if self.content_type is not None:
            out["content_type"] = self.content_type
        if self.expiry is not None:
            out["expiry"] = self.expiry
        return out


Publish = Callable[[list[dict[str, Any]]], Awaitable[Any]]


class Sender:
    def __init__(self, publish: Publish,
                 on_sent: Callable[[list[Outgoing]], None] | None = None) -> None:
        self._publish = publish
        self._on_sent = on_sent
        self._retained: OrderedDict[str, Outgoing] = OrderedDict()
        self._answers: deque[Outgoing] = deque()
        self._wake = asyncio.Event()
        self.sent = 0
        self.failures = 0
        self.dropped = 0
        self.last_error = ""

    @property
    def pending(self) -> int:
        return len(self._retained) + len(self._answers)

    def put(self, message: Outgoing) -> None:
        if message.retain:
            self._retained.pop(message.topic, None)
            self._retained[message.topic] = message
        else:
            if len(self._answers) >= MAX_ANSWERS:
                lost = self._answers.popleft()
                self.dropped += 1
                log.warning("too many MQTT answers waiting for the mqtt tool: dropped one to %s",
                            lost.topic)
            self._answers.append(message)
        self._wake.set()

    def discard_retained(self) -> None:
        """Forget retained messages not sent yet (an announcement will send them afresh)."""
        self._retained.clear()

    async def run(self) -> None:
        delay = RETRY_FIRST
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._answers or self._retained:
                batch = self._take()
                try:
                    await self._publish([m.to_dict() for m in batch])
                except Exception as exc:
                    if not isinstance(exc, HermesError):  # a bug: never retry it forever
                        log.exception("dropped %d MQTT messages that could not be handed over",
                                      len(batch))
                        self.dropped += len(batch)
                        continue
                    self._give_back(batch)
                    self.failures += 1
                    if self.last_error != exc.message:
                        self.last_error = exc.message
                        # a tool still starting (as at every start of hermesd) is no trouble
                        starting = isinstance(exc, ToolUnavailable) and exc.reason == "starting"
                        log.log(logging.INFO if starting else logging.WARNING,
                                "cannot hand MQTT messages to the mqtt tool yet: %s" if starting
                                else "cannot hand MQTT messages to the mqtt tool: %s",
                                exc.message)
                    await asyncio.sleep(delay)
                    delay = min(RETRY_MAX, delay * 2)
                    continue
                delay = RETRY_FIRST
                self.last_error = ""
                self.sent += len(batch)
                if self._on_sent is not None:
                    self._on_sent(batch)

    def _take(self) -> list[Outgoing]:
        batch: list[Outgoing] = []
        size = 0

        def room(message: Outgoing) -> bool:
            return not batch or (len(batch) < MAX_BATCH
                                 and size + len(message.payload) + len(message.topic) * 2
                                 < MAX_BATCH_CHARS)

        while self._answers and room(self._answers[0]):  # answers first: someone waits
            batch.append(self._answers.popleft())
            size += len(batch[-1].payload) + len(batch[-1].topic) * 2
        while self._retained and room(next(iter(self._retained.values()))):
            batch.append(self._retained.popitem(last=False)[1])
            size += len(batch[-1].payload) + len(batch[-1].topic) * 2
        return batch

    def _give_back(self, batch: list[Outgoing]) -> None:
        answers = [m for m in batch if not m.retain]
        self._answers.extendleft(reversed(answers))
        while len(self._answers) > MAX_ANSWERS:
            self._answers.popleft()
            self.dropped += 1
        retained = OrderedDict((m.topic, m) for m in batch if m.retain)
        for topic, newer in self._retained.items():  # what came meanwhile is newer: it wins
            retained.pop(topic, None)
            retained[topic] = newer
        self._retained = retained
