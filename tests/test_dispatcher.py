"""The dispatcher in process, with a real supervisor and the fake tool as a child process:
retries of what a tool marks retryable within the request's deadline, a failed read answered
from the last value, and a tool killed under a call."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import ErrorCode, HermesError, Timeout, ToolError, ToolUnavailable
from tests.support.in_process import DEVICE, Rig, engine_with_fake_tool
from tests.support.until import until

POINTS: dict[str, Any] = {
    "level": {"name": "Tank level", "type": "float", "params": {"value": 73.4}},
    "flaky": {"name": "Flaky level", "type": "float", "params": {"value": 5.0, "busy_times": 2}},
    "broken": {"name": "Broken level", "type": "float", "params": {"error": "DEVICE_OFFLINE"}},
}


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with engine_with_fake_tool(tmp_path, POINTS) as rig:
        yield rig


async def test_a_retryable_busy_is_retried_within_the_deadline(rig: Rig) -> None:
    point = rig.config.points["flaky"]
    outcome = await rig.engine.dispatcher.read(rig.ctx(timeout=10), point)
    assert outcome.error is None and not outcome.judgement.stale
    assert outcome.judgement.reading.value == 5.0


async def test_no_time_left_calls_nothing(rig: Rig) -> None:
    ctx = rig.ctx(timeout=0.0)
    with pytest.raises(Timeout, match=r"no time left for dev\.echo"):
        await rig.engine.dispatcher.call(ctx, DEVICE, "echo", {})


async def test_a_failed_read_is_the_last_value_marked_stale_with_why(rig: Rig) -> None:
    point = rig.config.points["broken"]
    with pytest.raises(ToolError):  # never read: nothing to fall back on
        await rig.engine.dispatcher.read(rig.ctx(), point)
    rig.cache.update("broken", 1.5, 1_000.0)  # as a poll long ago left it
    outcome = await rig.engine.dispatcher.read(rig.ctx(), point)
    assert outcome.error is not None and outcome.error.code.value == "DEVICE_OFFLINE"
    judged = outcome.judgement
    assert (judged.reading.value, judged.stale, judged.why) == (1.5, True, "dev is offline")


async def test_a_tool_killed_under_a_call_fails_it_at_once_and_comes_back(rig: Rig) -> None:
    marker = Path(rig.config.paths.state_dir) / "arrived"
    call = asyncio.create_task(rig.engine.dispatcher.call(
        rig.ctx("engineer", timeout=30), DEVICE, "sleep", {"seconds": 30, "marker": str(marker)}))
    await until(marker.exists, what="the call to reach the tool")
    pid = int(marker.read_text())
    os.kill(pid, signal.SIGKILL)
    # by the kill: its 30 s deadline would have raised Timeout
    with pytest.raises(ToolUnavailable):
        await call
    await until(lambda: rig.tool.restarts == 1 and rig.tool.state == "running", 30,
                "the tool restarted")
    assert rig.tool.status()["pid"] not in (None, pid)
    outcome = await rig.engine.dispatcher.read(rig.ctx(), rig.config.points["level"])
    assert outcome.judgement.reading.value == 73.4


async def test_a_read_answered_with_another_points_reading_is_not_taken(tmp_path: Path) -> None:
    """A tool that mixes up its answers (a result under the id of another call in flight, or
    a plain bug) answers a read of one point with another's reading: that value is never
    taken, nor kept, as the point's; the read fails, naming both."""
    points = {"tank": {"name": "Tank level", "type": "float", "params": {"value": 1.0}},
              "mixed": {"name": "Mixed level", "type": "float",
                        "params": {"value": 2.0, "answers_as": "tank"}}}
    async with engine_with_fake_tool(tmp_path, points) as rig:
        point = rig.engine.registry.get("mixed")
        with pytest.raises(ToolError) as caught:
            await rig.engine.dispatcher.read(rig.ctx(), point)
        kept = rig.cache.judge("mixed")
    assert caught.value.code is ErrorCode.DEVICE_ERROR
    assert "mixed" in caught.value.message and "tank" in caught.value.message
    assert kept is None


@pytest.mark.parametrize(("code", "tries"), [("NOT_CONFIRMED", 1), ("DEVICE_OFFLINE", 1),
                                             ("BUSY", 3)])
async def test_a_write_is_sent_again_only_when_the_tool_says_it_was_not_taken(
        tmp_path: Path, code: str, tries: int) -> None:
    """A tool that marks any error retryable: a write that "may have been done" had been sent
    seven times for one request (review atk25s). Only BUSY is a write not taken."""
    points = {"sp": {"name": "Setpoint", "type": "int", "writable": True, "min": 0, "max": 100,
                     "params": {"value": 1, "write_fails": {"code": code, "retryable": True}}}}
    async with engine_with_fake_tool(tmp_path, points) as rig:
        with pytest.raises(HermesError) as caught:
            await rig.engine.dispatcher.write(rig.ctx("operator", timeout=1.5),
                                              rig.config.points["sp"], 40)
        attempts = await rig.call("attempts", {})
    if code == "BUSY":
        # tried again within the deadline; the answer is the last BUSY, or the deadline met
        # while waiting to try again (a loaded machine: a fresh clone's run)
        assert caught.value.code in (ErrorCode.BUSY, ErrorCode.TIMEOUT), caught.value
        assert attempts["sp"] >= tries, attempts
    else:
        assert caught.value.code == ErrorCode(code)
        assert attempts == {"sp": tries}, attempts
