"""The words of a history answer, composed from the figures (never by the model), in English
or Chinese, always saying when the record has gaps."""

from __future__ import annotations

import time
from typing import Any

from hermesd.config.model import Point
from hermesd.registry import format_value

_STAT_EN = {"min": "lowest", "max": "highest", "mean": "average", "last": "last value"}
_STAT_ZH = {"min": "最低", "max": "最高", "mean": "平均", "last": "最后的值"}


def span(seconds: float, zh: bool = False) -> str:
    seconds = max(0.0, seconds)
    if zh:
        if seconds < 120:
            return f"{seconds:.0f} 秒"
        if seconds < 7200:
            return f"{seconds / 60:.0f} 分钟"
        if seconds < 172800:
            return f"{seconds / 3600:.1f} 小时".replace(".0 ", " ")
        return f"{seconds / 86400:.1f} 天".replace(".0 ", " ")
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h".replace(".0 ", " ")
    return f"{seconds / 86400:.1f} days".replace(".0 ", " ")


def clock(ts: float, now: float) -> str:
    """A local time as people say it: 14:05 today, else with the date."""
    here = time.localtime(ts)
    if time.strftime("%Y-%m-%d", here) == time.strftime("%Y-%m-%d", time.localtime(now)):
        return time.strftime("%H:%M", here)
    return time.strftime("%Y-%m-%d %H:%M", here)


def when(start: float, end: float, now: float, zh: bool) -> str:
    if zh:
        return f"{clock(start, now)} 到 {clock(end, now)}"
    return f"from {clock(start, now)} to {clock(end, now)}"


def history_reply(point: Point, stat: str, result: dict[str, Any], start: float, end: float,
                  now: float, zh: bool) -> str:
    name = point.label("zh" if zh else "en")
    value = result["value"]
    period = when(start, end, now, zh)
    if value is None:
        text = (f"{period}没有{name}的记录。" if zh else
                f"There is no record of {name} {period}.")
    elif stat == "on_time":
        text = (f"{period}{name}开启了 {span(value, True)}。" if zh else
                f"{name} was on for {span(value)} {period}.")
    elif stat == "changed_at":
        to = format_value(point, result.get("changed_to"))
        text = (f"{name}最后一次变化在 {clock(_ts(value), now)}，变为 {to}。" if zh else
                f"{name} last changed at {clock(_ts(value), now)}, to {to}.")
    elif stat == "at":
        text = (f"{name}在 {clock(end, now)} 是 {format_value(point, value)}。" if zh else
                f"{name} was {format_value(point, value)} at {clock(end, now)}.")
    else:
        shown = format_value(point, value)
        if zh:
            text = f"{period}{name}{_STAT_ZH[stat]}是 {shown}。"
        else:
            text = f"The {_STAT_EN[stat]} of {name} {period} was {shown}."
        if stat in ("min", "max") and result.get("when"):
            at = clock(_ts(result["when"]), now)
            text = text[:-1] + (f"（{at}）。" if zh else f" (at {at}).")
    missing = result.get("missing_s", 0.0)
    if value is not None and missing >= 1:
        reasons = sorted({g["reason"] for g in result.get("gaps", [])})
        if result.get("unrecorded_s", 0.0) >= 1:  # not an outage: nothing was recorded yet
            reasons.insert(0, "记录开始之前" if zh else "before recording began")
        why = ("：" + "、".join(reasons)) if zh and reasons else \
            (": " + ", ".join(reasons)) if reasons else ""
        text += (f" 注意：这段时间有 {span(missing, True)} 没有数据{why}。" if zh else
                 f" Note: {span(missing)} of the period has no data{why}.")
    return text


def _ts(iso_text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso_text.replace("Z", "+00:00")).timestamp()
