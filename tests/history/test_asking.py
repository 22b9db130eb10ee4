"""Questions about the past in English and Chinese: the statistic, the period, the words left
for the point; and what is not such a question is handed on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime

import pytest

from hermesd.history.asking import parse


@pytest.fixture
def shanghai(monkeypatch: pytest.MonkeyPatch) -> Iterator[float]:
    """Local time is Asia/Shanghai; `now` is 2026-11-30 14:30 there."""
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield datetime(2026, 11, 30, 14, 30).timestamp()
    monkeypatch.undo()
    time.tzset()


def _local(now: float, day: int, hour: int, minute: int = 0) -> float:
    del now
    return datetime(2026, 11, day, hour, minute).timestamp()


@pytest.mark.parametrize(("text", "stat", "start", "end", "rest"), [
    ("what was the highest boiler 3 temperature this morning", "max", (30, 0), (30, 12),
     "boiler 3 temperature"),
    ("mean tank level over the last 2 hours", "mean", (30, 12, 30), None, "tank level"),
    ("what was the lowest tank level in the past 30 minutes", "min", (30, 14), None,
     "tank level"),
    ("average outdoor temperature yesterday", "mean", (29, 0), (30, 0), "outdoor temperature"),
    ("boiler 3 pressure since 8:00", "mean", (30, 8), None, "boiler 3 pressure"),
    ("boiler 3 pressure since 8 pm", "mean", (29, 20), None, "boiler 3 pressure"),
    ("what was the tank level at 8:15", "at", (30, 8, 15), (30, 8, 15), "tank level"),
    # 12 am is midnight, 12 pm noon (12 am was read as noon)
    ("boiler 3 pressure since 12 am", "mean", (30, 0), None, "boiler 3 pressure"),
    ("boiler 3 pressure since 12 pm", "mean", (30, 12), None, "boiler 3 pressure"),
    ("what was the tank level at 12:30 am", "at", (30, 0, 30), (30, 0, 30), "tank level"),
    ("how long was feed pump 1 on today", "on_time", (30, 0), None, "feed pump 1"),
    ("3号锅炉今天最高温度是多少", "max", (30, 0), None, "3号锅炉 温度"),
    ("过去一小时平均液位", "mean", (30, 13, 30), None, "液位"),
    ("过去两个小时3号锅炉压力最低是多少", "min", (30, 12, 30), None, "3号锅炉压力"),
    ("昨天室外平均温度", "mean", (29, 0), (30, 0), "室外 温度"),
    ("1号给水泵今天运行了多长时间", "on_time", (30, 0), None, "1号给水泵"),
    ("8点以来3号锅炉压力", "mean", (30, 8), None, "3号锅炉压力"),
])
def test_periods_and_stats(shanghai: float, text: str, stat: str, start: tuple[int, ...],
                           end: tuple[int, ...] | None, rest: str) -> None:
    now = shanghai
    q = parse(text, now)
    assert q is not None and q.kind == "history", text
    assert q.stat == stat
    assert q.start == _local(now, *start)
    assert q.end == (now if end is None else _local(now, *end))
    assert q.rest == rest


def test_when_did_it_last_change_looks_back_a_month_at_on_off_points(shanghai: float) -> None:
    for text, to in (("when did feed pump 1 last stop", False), ("1号给水泵什么时候停的", False),
                     ("when did the beacon last turn on", True), ("1号给水泵什么时候启动的", True),
                     ("when did the blower last change", None)):
        q = parse(text, shanghai)
        assert q is not None and q.stat == "changed_at" and q.wants_bool, text
        assert q.start == shanghai - 30 * 86400 and q.end == shanghai
        assert q.to_value is to, text


@pytest.mark.parametrize("text", ["any alarms?", "are there any active alarms", "alarms",
                                  "有报警吗", "有没有报警", "当前报警"])
def test_alarm_questions(text: str) -> None:
    q = parse(text, time.time())
    assert q is not None and q.kind == "alarms"


@pytest.mark.parametrize("text", [
    "what is boiler 3 temperature", "what's the tank level", "max boiler 3 temperature",
    "set pump 1 speed to max", "set the boiler 3 setpoint to the maximum today",
    "is the boiler house alarm on", "turn on the beacon", "what is the temperature today",
    "acknowledge the alarm", "3号锅炉温度是多少", "把1号给水泵转速调到最大", "",
    "the boiler alarm", "clear alarms",
])
def test_what_is_not_about_the_past_is_handed_on(text: str) -> None:
    assert parse(text, time.time()) is None
