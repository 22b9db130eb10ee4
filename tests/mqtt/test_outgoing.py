"""The sender to the mqtt tool: coalesces retained messages, batches, keeps what failed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from hermesd.core.errors import ToolUnavailable
from hermesd.mqtt.outgoing import MAX_BATCH_CHARS, Outgoing, Sender


class Tool:
    """Stands in for the mqtt tool's `publish`: records batches, fails when told to."""

    def __init__(self) -> None:
        self.calls: list[list[dict[str, Any]]] = []
        self.attempts = 0
        self.fail: Exception | None = None
        self.changed = asyncio.Condition()

    async def publish(self, messages: list[dict[str, Any]]) -> None:
        async with self.changed:
            self.attempts += 1
            self.changed.notify_all()
            if self.fail is not None:
                raise self.fail
            self.calls.append(messages)
            self.changed.notify_all()

    async def wait_for(self, predicate: Callable[[], bool]) -> None:
        async with asyncio.timeout(10), self.changed:
            await self.changed.wait_for(predicate)

    def sent(self) -> list[tuple[str, str]]:
        return [(m["topic"], m["payload"]) for batch in self.calls for m in batch]


@asynccontextmanager
async def running(sender: Sender) -> AsyncIterator[None]:
    task = asyncio.create_task(sender.run())
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_retained_messages_coalesce_and_answers_keep_their_order() -> None:
    tool = Tool()
    sender = Sender(tool.publish)
    for value in range(5):
        sender.put(Outgoing("b/n/pump/state", str(value), retain=True))
    sender.put(Outgoing("b/n/response", "a1", durable=True))
    sender.put(Outgoing("b/n/response", "a2", durable=True))
    async with running(sender):
        await tool.wait_for(lambda: len(tool.sent()) == 3)
    assert tool.sent() == [("b/n/response", "a1"), ("b/n/response", "a2"),
                           ("b/n/pump/state", "4")]


async def test_batches_stay_small_enough_for_one_frame() -> None:
    tool = Tool()
    sender = Sender(tool.publish)
    for n in range(300):
        sender.put(Outgoing(f"ha/sensor/n/p{n}/config", "x" * 2000, retain=True))
    async with running(sender):
        await tool.wait_for(lambda: len(tool.sent()) == 300)
    assert len(tool.calls) > 1
    assert all(sum(len(m["payload"]) for m in batch) < MAX_BATCH_CHARS for batch in tool.calls)


async def test_a_tool_that_is_away_gets_everything_later_and_newer_wins() -> None:
    tool = Tool()
    tool.fail = ToolUnavailable("mqtt", "restarting")
    sender = Sender(tool.publish)
    sender.put(Outgoing("b/n/response", "answer", durable=True))
    sender.put(Outgoing("b/n/t/state", "1", retain=True))
    async with running(sender):
        await tool.wait_for(lambda: tool.attempts >= 2)
        sender.put(Outgoing("b/n/t/state", "2", retain=True))
        tool.fail = None
        await tool.wait_for(lambda: bool(tool.calls))
    assert tool.sent() == [("b/n/response", "answer"), ("b/n/t/state", "2")]


async def test_a_batch_that_breaks_something_else_is_dropped_not_retried() -> None:
    tool = Tool()
    tool.fail = ValueError("a bug")
    sender = Sender(tool.publish)
    sender.put(Outgoing("b/n/response", "x"))
    async with running(sender):
        await tool.wait_for(lambda: tool.attempts == 1)
        sender.put(Outgoing("b/n/response", "y"))  # and the sender goes on with the next
        await tool.wait_for(lambda: tool.attempts == 2)
    assert sender.dropped == 2 and sender.pending == 0


async def test_a_tool_still_starting_is_said_calmly_and_a_broken_one_as_a_warning(
        caplog: Any) -> None:
    tool = Tool()
    sender = Sender(tool.publish)
    caplog.set_level("INFO", logger="hermesd.mqtt.outgoing")
    tool.fail = ToolUnavailable("mqtt", "starting")  # every start of hermesd: no trouble
    sender.put(Outgoing("b/n/pump/state", "1", retain=True))
    async with running(sender):
        await tool.wait_for(lambda: tool.attempts >= 1)
        tool.fail = ToolUnavailable("mqtt", "exited with status 1")
        await tool.wait_for(lambda: tool.attempts >= 2)
        tool.fail = None
        await tool.wait_for(lambda: tool.sent() == [("b/n/pump/state", "1")])
    said = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "hermesd.mqtt.outgoing"]
    assert said == [
        ("INFO", "cannot hand MQTT messages to the mqtt tool yet: tool mqtt is unavailable: "
                 "starting"),
        ("WARNING", "cannot hand MQTT messages to the mqtt tool: tool mqtt is unavailable: "
                    "exited with status 1")]
