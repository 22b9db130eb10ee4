"""A tool's answer to a point's read or write that is not what hermesd's protocol says one is (no
time, a time that is no number, a list, no value, another point's): the tool's fault, named, and
never hermesd's INTERNAL. A read falls back on the last value, marked stale; a write was sent,
so it is answered "not sure" (NOT_CONFIRMED), and its wish is never taken for a reading.

The fake tool runs with `--loose`: it declares its read and write answers as any JSON, so only
hermesd's own schemas stand in the way, as for a third-party exec tool."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.in_process import DEVICE, Rig, engine_with_fake_tool

NOW = time.time()
BAD_READS: dict[str, tuple[Any, str]] = {  # point -> (the tool's answer, what the error names)
    "no_ts": ({"point": "no_ts", "value": 1.0}, "without a time (ts)"),
    "text_ts": ({"point": "text_ts", "value": 1.0, "ts": "soon"},
                "with a time (ts) that is a string"),
    "bool_ts": ({"point": "bool_ts", "value": 1.0, "ts": True},
                "with a time (ts) that is a boolean"),
    "a_list": ([1.0, NOW], "with a list, not an object"),
    "no_value": ({"point": "no_value", "ts": NOW}, "without a value"),
    "a_string": ("21.5", "with a string, not an object"),
}
POINTS: dict[str, Any] = {
    pid: {"name": f"Rig {pid.replace('_', ' ')}", "type": "float",
          "params": {"answer": answer}} for pid, (answer, _) in BAD_READS.items()}
POINTS["far_ts"] = {"name": "Rig far ts", "type": "float",
                    "params": {"answer": {"point": "far_ts", "value": 3.5, "ts": 1e17}}}
BAD_WRITES: dict[str, Any] = {
    "w_list": ["ok"],
    "w_text_ts": {"point": "w_text_ts", "value": 40, "ts": "now", "confirmed": True},
    "w_other": {"point": "elsewhere", "value": 40, "ts": NOW, "confirmed": True},
    "w_bad_value": {"point": "w_bad_value", "value": "lots", "ts": NOW, "confirmed": True},
    # a float's largest, "confirmed": no measurement, as a read's answer (atk25s)
    "w_huge": {"point": "w_huge", "value": 1e308, "ts": NOW, "confirmed": True},
}
for pid, answer in BAD_WRITES.items():
    POINTS[pid] = {"name": f"Rig {pid[2:].replace('_', ' ')} setpoint",
                   "type": "float" if pid == "w_huge" else "int",
                   "writable": True, "min": 0, "max": 100,
                   "params": {"value": 10, "write_answer": answer}}
POINTS["w_far_ts"] = {"name": "Rig far ts setpoint", "type": "int", "writable": True, "min": 0,
                      "max": 100, "params": {"value": 10, "write_answer": {
                          "point": "w_far_ts", "value": 40, "ts": 1e17, "confirmed": True}}}


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with engine_with_fake_tool(tmp_path, POINTS, loose=True) as rig:
        yield rig


@pytest.mark.parametrize("point", sorted(BAD_READS))
async def test_a_read_answered_out_of_shape_is_a_device_error_naming_it(rig: Rig,
                                                                         point: str) -> None:
    answer = await rig.engine.read(rig.ctx(), point)
    assert answer.status == "error", answer
    assert answer.error is not None
    assert answer.error["code"] == "DEVICE_ERROR", answer.error
    assert f"tool {DEVICE} answered the read of {point} {BAD_READS[point][1]}" in \
        answer.error["message"]
    assert rig.cache.judge(point) is None  # nothing of it kept as a reading


async def test_a_read_answered_out_of_shape_falls_back_on_the_last_value_marked_stale(
        rig: Rig) -> None:
    rig.cache.update("no_ts", 7.25, time.time() - 5)  # as a poll left it
    answer = await rig.engine.read(rig.ctx(), "no_ts")
    assert answer.status == "stale", answer
    assert answer.result is not None
    assert (answer.result["value"], answer.result["quality"]) == (7.25, "stale")
    assert "without a time (ts)" in answer.result["stale_reason"]


async def test_a_read_stamped_with_no_time_one_can_read_is_never_fresh(rig: Rig) -> None:
    answer = await rig.engine.read(rig.ctx(), "far_ts")
    assert answer.status == "stale", answer
    assert answer.result is not None
    assert answer.result["value"] == 3.5
    assert "no time one can read" in answer.result["stale_reason"]


@pytest.mark.parametrize("point", sorted(BAD_WRITES))
async def test_a_write_answered_out_of_shape_is_not_sure_and_never_a_reading(
        rig: Rig, point: str) -> None:
    answer = await rig.engine.write(rig.ctx("operator"), point, 40)
    assert answer.status == "error", answer
    assert answer.error is not None
    assert answer.error["code"] == "NOT_CONFIRMED", answer.error
    assert "whether" in answer.error["message"] and point in answer.error["message"]
    assert answer.reply.startswith("Not sure"), answer.reply
    # the tool took it (that is why "not sure"): hermesd keeps no reading of its wish
    assert (await rig.call("read", {"point": point}))["value"] == 40
    assert rig.cache.judge(point) is None
    records = await rig.audit_records(answer.trace_id, count=2)
    assert [r["phase"] for r in records] == ["intent", "done"], records
    assert (records[1]["status"], records[1]["error"]) == ("error", "NOT_CONFIRMED"), records


async def test_a_write_stamped_with_no_time_one_can_read_is_stamped_when_answered(
        rig: Rig) -> None:
    before = time.time()
    answer = await rig.engine.write(rig.ctx("operator"), "w_far_ts", 40)
    assert answer.status == "ok", answer
    judged = rig.cache.judge("w_far_ts")
    assert judged is not None and judged.reading.value == 40
    assert before <= judged.reading.ts <= time.time()


async def test_a_write_whose_tool_dies_after_taking_it_is_not_sure(tmp_path: Path) -> None:
    """The connection broke after the write reached the tool (it died; or sent a bad frame):
    it had been answered "could not do that", TOOL_UNAVAILABLE (review atk25s, #4)."""
    points = {"sp": {"name": "Rig dying setpoint", "type": "int", "writable": True, "min": 0,
                     "max": 100, "params": {"value": 10, "write_exits": True}}}
    async with engine_with_fake_tool(tmp_path, points) as rig:
        answer = await rig.engine.write(rig.ctx("operator"), "sp", 40)
    assert answer.status == "error" and answer.error is not None, answer
    assert answer.error["code"] == "NOT_CONFIRMED", answer.error
    assert "after the write reached it" in answer.error["message"]
    # in the words of every write that may be done (a raw call's, an unanswered write's)
    assert answer.error["message"].endswith("whether sp was set is not known; the write may or "
                                            "may not have taken effect"), answer.error
    assert answer.reply.startswith("Not sure whether Rig dying setpoint was set to 40"), \
        answer.reply


async def test_a_write_its_tool_cuts_at_the_deadline_is_not_sure(tmp_path: Path) -> None:
    """The tool had begun the write (it reached the device) when the request's deadline came:
    its tool cut it there and answered TIMEOUT, which was "Could not do that". Whichever of
    the tool's answer and hermesd's own deadline comes first, the write is "not sure"."""
    points = {"sp": {"name": "Rig slow setpoint", "type": "int", "writable": True, "min": 0,
                     "max": 100, "params": {"value": 10, "delay": 30}}}
    async with engine_with_fake_tool(tmp_path, points) as rig:
        for value in (40, 41, 42):  # the two deadlines race: each write is a new draw
            answer = await rig.engine.write(rig.ctx("operator", timeout=0.4), "sp", value)
            assert answer.status == "error" and answer.error is not None, answer
            assert answer.error["code"] in ("NOT_CONFIRMED", "TIMEOUT"), answer.error
            assert answer.error["message"].endswith(
                "; the write may or may not have taken effect"), answer.error
            assert answer.reply.startswith(
                f"Not sure whether Rig slow setpoint was set to {value}: "), answer.reply
