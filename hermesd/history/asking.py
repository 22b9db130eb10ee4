"""Questions about the past, in English and Chinese: which statistic, over which period.

"what was the highest boiler 3 temperature this morning", "how long was feed pump 1 on
today", "when did feed pump 1 last stop", "mean tank level over the last 2 hours", "what was
the tank level at 8:00", "3号锅炉今天最高温度是多少", "过去一小时平均液位", "any alarms?",
"有报警吗". `parse` finds the statistic and the period and takes their words out of the text;
what is left names the point, which the point rules place as they place a read. It answers
only when the words are surely about the past (a statistic with a period or a past tense, a
"how long" or "when did", an alarm question) and hands everything else on: a command in the
present ("set the max speed", "is the boiler house alarm on") is never taken for one. Pure:
the clock is passed in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from hermesd.history.periods import MAX_SPAN

_NUM_EN = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "fifteen": 15, "twenty": 20, "thirty": 30, "forty-five": 45, "half an": 0.5,
           "half a": 0.5}
_NUM_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
           "九": 9, "十": 10, "十二": 12, "二十四": 24, "半": 0.5}
_UNIT_EN = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600,
            "day": 86400, "week": 7 * 86400}
_UNIT_ZH = {"秒": 1, "分钟": 60, "分": 60, "小时": 3600, "钟头": 3600, "天": 86400,
            "日": 86400, "周": 7 * 86400, "星期": 7 * 86400}

_EN_NUM = "|".join(sorted((re.escape(k) for k in _NUM_EN), key=len, reverse=True))
_ZH_NUM = "|".join(sorted(_NUM_ZH, key=len, reverse=True))

STATS_EN = [
    ("max", re.compile(r"\b(?:highest|maximum|max|peak|hottest|top)\b")),
    ("min", re.compile(r"\b(?:lowest|minimum|min|coldest)\b")),
    ("mean", re.compile(r"\b(?:average|mean|avg)\b")),
    ("on_time", re.compile(r"\bhow (?:long|much time)\b")),
    ("changed_at", re.compile(r"\bwhen (?:did|was|has)\b|\blast (?:changed?|stopp?e?d?|started"
                              r"|turned (?:on|off)|switched (?:on|off)|went (?:on|off))\b")),
]
STATS_ZH = [
    ("max", re.compile(r"最高|最大|峰值")),
    ("min", re.compile(r"最低|最小")),
    ("mean", re.compile(r"平均")),
    ("on_time", re.compile(r"(?:开|运行|运转|打开|开启|工作)了?(?:多久|多长时间|几个?小时)|"
                           r"多长时间|多久")),
    ("changed_at", re.compile(r"(?:什么时候|何时|几点)")),
]
_CHANGE_WORDS = re.compile(r"\b(?:last|stopp?e?d?|started|start|stop|changed?|turn(?:ed)?|"
                           r"switch(?:ed)?|go|gone|shut|down|closed?|opened|"
                           r"went|on|off|running|run|open|active|in operation)\b|最后一次|最后|"
                           r"上次|上一次|停止?了?|启动了?|关了?|开了?|变化?了?|运行了?|运转了?")
_TO_OFF = re.compile(r"\b(?:stop|stopped|turn(?:ed)? off|switch(?:ed)? off|go(?:ne)? off|"
                     r"went off|shut (?:down|off)|close|closed)\b|停|关")
_TO_ON = re.compile(r"\b(?:start|started|turn(?:ed)? on|switch(?:ed)? on|go(?:ne)? on|went on|"
                    r"open|opened)\b|启动|开")
PAST_EN = re.compile(r"\b(?:was|were|did|been|had)\b")
ALARMS_EN = re.compile(r"^(?:(?:are there|is there|any|what|which|list|show(?: me)?|"
                       r"current|active)\s+)+(?:(?:the|any|active|current|open)\s+)*"
                       r"alarms?(?:\s+(?:now|active|right now|at the moment|today))?\s*\??$|"
                       r"^alarms?\s*\??$")
ALARMS_ZH = re.compile(r"^(?:现在|当前|目前)?(?:有(?:没有|什么|哪些)?|哪些|什么)(?:报警|警报)"
                       r"(?:吗|么|没有)?[?？]?$|^(?:当前|现在)?(?:报警|警报)(?:列表)?[?？]?$")

# periods: (pattern, resolver name)
_PERIODS_EN = [
    (re.compile(rf"\b(?:in|over|during|for|within)?\s*(?:the\s+)?(?:last|past|previous)\s+"
                rf"(\d+(?:\.\d+)?|{_EN_NUM})?\s*(second|sec|minute|min|hour|hr|day|week)s?\b"),
     "last"),
    (re.compile(r"\b(?:since|from)\s+(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|o'?clock)?\b"), "since"),
    (re.compile(r"\bthis morning\b"), "morning"),
    (re.compile(r"\bthis afternoon\b"), "afternoon"),
    (re.compile(r"\b(?:this evening|tonight)\b"), "evening"),
    (re.compile(r"\blast night\b"), "night"),
    (re.compile(r"\byesterday\b"), "yesterday"),
    (re.compile(r"\btoday\b|\bso far\b"), "today"),
    (re.compile(r"\bthis week\b"), "week"),
    (re.compile(r"\bat\s+(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|o'?clock)?(?=\W|$)"), "at"),
]
_PERIODS_ZH = [
    (re.compile(rf"(?:过去|最近|近|前)(\d+(?:\.\d+)?|{_ZH_NUM})?个?半?"
                r"(秒|分钟|小时|钟头|天|日|周|星期)(?:以来|内|里|中)?"), "last"),
    (re.compile(rf"(?:从|自|自从)?(\d{{1,2}}|{_ZH_NUM})点(?:(\d{{1,2}})分?|半)?"
                r"(?:以来|到现在|开始|之后|起)"), "since"),
    (re.compile(r"(?:今天)?(?:上午|早上|今早|早晨)"), "morning"),
    (re.compile(r"(?:今天)?下午"), "afternoon"),
    (re.compile(r"今晚|(?:今天)?晚上"), "evening"),
    (re.compile(r"昨晚|昨天晚上"), "night"),
    (re.compile(r"昨天"), "yesterday"),
    (re.compile(r"今天|今日"), "today"),
    (re.compile(r"本周|这周|这个星期"), "week"),
    (re.compile(rf"(\d{{1,2}}|{_ZH_NUM})点(?:(\d{{1,2}})分?)?(?:的时候|时)"), "at"),
]
_WRITE_START = re.compile(r"^\s*(?:please\s+)?(?:set|turn|switch|write|put|make|change|"
                          r"increase|decrease|raise|lower|open|close|start|stop)\b|"
                          r"^\s*(?:请)?(?:把|将|设置|设定|调到|打开|关闭|启动|停止)")
_FILLER = re.compile(r"\b(?:what|was|were|is|the|of|did|has|been|for|value|level\s+of)\b|"
                     r"是多少|多少|是什么|吗|呢|了|的|[?？,，。.!]")


@dataclass(frozen=True, slots=True)
class PastQuestion:
    kind: str  # "history" or "alarms"
    stat: str | None = None
    start: float | None = None
    end: float | None = None
    rest: str = ""  # the words left to name the point
    wants_bool: bool = False  # on/off words: the point is an on/off one
    to_value: bool | None = None  # "when did it last stop": the change to off


def parse(text: str, now: float) -> PastQuestion | None:
    low = " ".join(text.lower().split())
    if not low or len(low) > 300:
        return None
    if ALARMS_EN.match(low) or ALARMS_ZH.match(low.replace(" ", "")):
        return PastQuestion("alarms")
    if _WRITE_START.search(low) and "when" not in low and "什么时候" not in low:
        return None
    zh = bool(re.search(r"[\u4e00-\u9fff]", low))
    stat, stat_span = _find(STATS_ZH if zh else STATS_EN, low)
    period = _period(low, now, zh)
    if stat is None and period is None:
        return None
    past = bool(PAST_EN.search(low)) or zh
    if period is None and not (stat in ("on_time", "changed_at") or (stat and past)):
        return None
    if stat is None and period is not None and period[2] in ("today", "evening") and not past:
        return None  # "the temperature today" may ask for the value now
    start = end = None
    cut = [stat_span] if stat_span else []
    if period is not None:
        start, end, how, span = period
        cut.append(span)
        if how == "at":
            stat = "at"
    if stat is None:
        stat = "mean"
    if stat == "changed_at" and period is None:
        start, end = now - 30 * 86400, now  # "when did it last stop": the last month
    rest = low
    for a, b in sorted(cut, reverse=True):
        rest = rest[:a] + " " + rest[b:]
    wants_bool = stat in ("on_time", "changed_at")
    to_value = None
    if stat == "changed_at":
        if _TO_OFF.search(rest):
            to_value = False
        elif _TO_ON.search(rest):
            to_value = True
    if wants_bool:
        rest = _CHANGE_WORDS.sub(" ", rest)
    rest = " ".join(_FILLER.sub(" ", rest).split())
    if not rest:
        return None
    return PastQuestion("history", stat, start, end, rest, wants_bool, to_value)


def _find(table: list[tuple[str, re.Pattern[str]]], text: str
          ) -> tuple[str | None, tuple[int, int] | None]:
    for stat, pattern in table:
        match = pattern.search(text)
        if match:
            return stat, match.span()
    return None, None


def _period(text: str, now: float, zh: bool
            ) -> tuple[float, float, str, tuple[int, int]] | None:
    for pattern, how in (_PERIODS_ZH if zh else _PERIODS_EN):
        match = pattern.search(text)
        if match is None:
            continue
        resolved = _resolve(how, match, now, zh)
        if resolved is not None:
            return resolved[0], resolved[1], how, match.span()
    return None


def _resolve(how: str, m: re.Match[str], now: float, zh: bool) -> tuple[float, float] | None:
    today = datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)

    def at(hours: float) -> float:
        return (today + timedelta(hours=hours)).timestamp()

    if how == "last":
        amount = _number(m.group(1), zh) if m.group(1) else 1.0
        if amount is None or amount <= 0:
            return None
        unit = (_UNIT_ZH if zh else _UNIT_EN)[m.group(2)]
        if "半" in m.group(0) and m.group(1) and m.group(1) != "半":
            amount += 0.5  # 一个半小时: an hour and a half
        # a period longer than any answered (periods.MAX_SPAN) is refused as such by the
        # action; bounded here so that its start is still a time ("the last 1e30 hours")
        return now - min(amount * unit, 2 * MAX_SPAN), now
    if how in ("since", "at"):
        hour = _number(m.group(1), zh)
        if hour is None or hour > 24:
            return None
        minute = int(m.group(2)) if m.group(2) and m.group(2).isdigit() else 0
        if zh and "半" in m.group(0):
            minute = 30
        suffix = "" if zh else (m.group(3) or "")
        if suffix == "pm" and hour < 12:
            hour += 12
        if suffix == "am" and hour == 12:
            hour = 0  # 12 am is midnight (12 pm is noon)
        if minute > 59:
            return None
        t = at(hour + minute / 60)
        if t > now:
            t -= 86400  # "since 22:00" in the early morning: yesterday's
        return (t, now) if how == "since" else (t, t)
    spans = {"today": (0, None), "morning": (0, 12), "afternoon": (12, 18),
             "evening": (18, None), "yesterday": (-24, 0), "night": (-6, 6)}
    if how == "week":
        monday = today - timedelta(days=today.weekday())
        return monday.timestamp(), now
    lo, hi = spans[how]
    start = at(lo)
    end = now if hi is None else min(now, at(hi))
    return (start, end) if end > start else None


def _number(word: str, zh: bool) -> float | None:
    try:
        return float(word)
    except ValueError:
        pass
    table: dict[str, float] = dict(_NUM_ZH if zh else _NUM_EN)
    if word in table:
        return table[word]
    if zh and len(word) == 2 and word[0] == "十" and word[1] in _NUM_ZH:
        return 10 + _NUM_ZH[word[1]]
    return None
