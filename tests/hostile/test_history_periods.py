"""Hostile periods for the `history` action and questions about the past: any text as
`from`, `to` or `since` (years 1 and 9999, local times before the epoch, a future period,
absurd durations) is a period hermesd can answer about, or BadRequest naming it; never another
exception (the control socket would answer INTERNAL: a bug)."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd.core.errors import BadRequest
from hermesd.history import asking, periods

NOW = time.time()

_times = st.one_of(
    st.text(max_size=40),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)).map(
        lambda d: d.isoformat()),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)).map(
        lambda d: d.isoformat() + "Z"),
    st.tuples(st.integers(0, 10**30), st.sampled_from(["s", "m", "h", "d", "w"])).map(
        lambda t: f"{t[0]}{t[1]}"),
)


def _answerable(frm: float, to: float) -> None:
    assert frm <= to and frm <= NOW
    assert to - frm <= periods.MAX_SPAN
    for ts in (frm, to):  # what the answer says of them is ISO 8601, a four-digit year
        text = periods.iso(ts)
        assert len(text.split("-", 1)[0]) == 4, text


@given(start=st.one_of(st.none(), _times), end=st.one_of(st.none(), _times),
       since=st.one_of(st.none(), _times))
def test_any_period_is_answerable_or_refused_by_name(start: str | None, end: str | None,
                                                      since: str | None) -> None:
    try:
        frm, to = periods.period(start, end, since, NOW)
    except BadRequest as exc:
        refusal = str(exc)
    else:
        _answerable(frm, to)
        return
    assert refusal


@pytest.mark.parametrize(("start", "end", "why"), [
    ("0001-01-01T00:00", None, "not a usable time"),           # local year 1: before year 1
    ("0001-01-01T00:00Z", "0001-01-02T00:00Z", "not a usable time"),
    ("9999-12-31T00:00Z", "9999-12-31T23:59:59-14:00", "not a usable time"),  # year 10000
    ("9999-12-30T00:00Z", "9999-12-31T00:00Z", "in the future"),
    (None, "9999-12-31T00:00Z", "in the future"),
])
def test_times_no_answer_could_say_are_refused(start: str | None, end: str | None,
                                               why: str) -> None:
    with pytest.raises(BadRequest, match=why):
        periods.period(start, end, None, NOW)


@given(amount=st.integers(1, 10**40), unit=st.sampled_from(["seconds", "hours", "days",
                                                             "weeks"]))
def test_a_question_over_an_absurd_stretch_of_the_past_is_refused_by_the_action(
        amount: int, unit: str) -> None:
    question = asking.parse(f"what was the highest boiler temperature in the last {amount} "
                            f"{unit}", NOW)
    assert question is not None and question.start is not None and question.end is not None
    start, end = periods.iso(question.start), periods.iso(question.end)  # no OverflowError
    try:
        frm, to = periods.period(start, end, None, NOW)
    except BadRequest as exc:
        refusal = str(exc)
    else:
        _answerable(frm, to)
        return
    assert "at most 400 days" in refusal


def test_a_chinese_question_over_an_absurd_stretch_is_one_too() -> None:
    question = asking.parse("过去99999999999999999999小时锅炉温度最高是多少", NOW)
    assert question is not None and question.start is not None
    with pytest.raises(BadRequest, match="at most 400 days"):
        periods.period(periods.iso(question.start), "now", None, NOW)
