"""A write reaches a device only when the words plainly ask for it, now, whichever stage placed it.

Plants are drawn fresh (the generator of test_command_values) and the commands with them. A
command that plainly asks for one value is written as it says; the same command with anything
that makes it no such request — a time or a condition, a question, a negation, an
approximation or a bound, a second target, a unit that is not the point's, a number that names
another thing — is never a write, and the answer names the words that stopped it. The model is
played by a hostile stand-in that proposes a write for every command it is handed (the right
one, or any other): what it proposes passes only where the words state it.
"""

from __future__ import annotations

import asyncio
import math
import re
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hermesd.answer import Action
from hermesd.config.model import Config, Point
from hermesd.context import RequestContext
from hermesd.router import Routed, Router
from hermesd.router.normalize import unit_symbol
from hermesd.router.rules import Analysis
from hermesd.router.write_gate import PROBLEMS
from tests.hostile.test_command_values import (
    QUANTITIES,
    THINGS,
    chinese_command,
    english_command,
    parts,
    plants,
)
from tests.hostile.value_words import said
from tests.support.plants import config_of, dev_plant

#: the problems only the gate names (the rules name the others too)
GATE_ONLY = frozenset(PROBLEMS) - {"unreadable", "negation", "correction", "relative", "several"}


class HostileModel:
    """Stands in for the model: proposes `proposal` for every command it is handed."""

    def __init__(self, proposal: Action) -> None:
        self.proposal = proposal
        self.asked = 0

    async def __call__(self, ctx: RequestContext, text: str, analysis: Analysis) -> Routed:
        self.asked += 1
        return Routed(self.proposal, "llm")


_routers: dict[int, tuple[Config, Router]] = {}


def route(config: Config, text: str, proposal: Action) -> Action:
    kept = _routers.get(id(config))
    if kept is None or kept[0] is not config:
        _routers.clear()  # one plant at a time: a router is built once per drawn plant
        kept = _routers[id(config)] = (config, Router(config))
    router = kept[1]
    router.model = HostileModel(proposal)
    ctx = RequestContext.make("control", "operator")
    return asyncio.run(router.route(ctx, text)).action


def write(point: Point, value: Any) -> Action:
    return Action("write", {"point": point.id, "value": value})


def writable_numbers(config: Config) -> list[Point]:
    return [p for p in config.points.values() if p.kind in ("int", "float") and p.writable]


@st.composite
def values_in(draw: st.DrawFn, point: Point) -> tuple[int | float, str]:
    """A value inside the point's range, and its decimal text."""
    lo = math.ceil(point.min) if point.min is not None else -10**6
    hi = math.floor(point.max) if point.max is not None else 10**6
    assume(lo <= hi)
    whole = draw(st.integers(lo, min(hi, lo + 10**7)))
    half = draw(st.booleans()) and whole + 0.5 <= hi and point.kind == "float" and whole >= 0
    if half:
        return whole + 0.5, f"{whole}.5"
    return whole, str(whole)


# -- what makes words no plain request for a write, by class ------------------------------------

OTHER_UNITS = ["rpm", "°F", "degrees F", "kelvin", "bar", "psi", "Hz", "kW", "m/s", "l/min",
               "m³/h", "%", "percent", "volts", "amps", "NTU", "mg/l"]


@st.composite
def doubtful_english(draw: st.DrawFn, command: str, value_text: str, point: Point
                     ) -> tuple[str, str]:
    """`command` made doubtful, and the class of what made it so."""
    n = draw(st.integers(1, 59))
    kind = draw(st.sampled_from(["when", "question", "negation", "approximate", "several",
                                 "unit"]))
    if kind == "when":
        return draw(st.sampled_from([
            f"in {n} minutes {command}", f"{command} in {n} seconds", f"tomorrow {command}",
            f"{command} at {n % 12 + 1} pm", f"{command} at {n % 24}:{n:02d}",
            f"if the tank is full {command}", f"when the alarm clears, {command}",
            f"{command} tonight", f"after the shift {command}", f"{command} for {n} min",
            f"{command} every day", f"once the boiler is hot {command}",
            f"{command} later", f"{command} until {n % 12 + 1} o'clock"])), kind
    if kind == "question":
        return draw(st.sampled_from([
            f"should I {command}", f"{command}?", f"did you {command}",
            f"tell me if I should {command}", f"is it safe to {command}",
            f"what happens if I {command}", f"who said to {command}", f"why {command}",
            f"do I need to {command}", f"how do I {command}"])), kind
    if kind == "negation":
        return draw(st.sampled_from([
            f"don't {command}", f"do not {command}", f"never {command}", f"no, {command}",
            f"not now: {command}", f"{command}, not", f"cancel: {command}"])), kind
    if kind == "approximate":
        bound = draw(st.sampled_from(["about", "around", "roughly", "approximately",
                                      "at least", "at most", "no more than", "more than",
                                      "less than", "~", "≈", "nearly", "almost", "over",
                                      "under", "above", "below", "up to a max of"]))
        assume(f" {value_text}" in f" {command}")
        head, _, tail = f" {command}".rpartition(f" {value_text}")
        suffix = draw(st.sampled_from(["", "", " or so", "ish"]))
        return f"{head} {bound} {value_text}{suffix}{tail}".strip(), kind
    if kind == "several":
        numbered = re.search(r"([a-z]+) (\d+)\b", point.name.casefold())
        thing = numbered.group(1) if numbered else point.name.split()[0].casefold()
        other = f"{thing} {int(numbered.group(2)) + 1}" if numbered else f"the other {thing}"
        return draw(st.sampled_from([
            f"{command} and {other} too", f"{command}, and the same for {other}",
            f"{command} for all of them", f"{command} on both", f"{command} and everything else",
            f"{command} on every {thing}", f"{command} as well as {other}"])), kind
    mine = unit_symbol(point.unit or "")
    unit = draw(st.sampled_from([u for u in OTHER_UNITS if unit_symbol(u) != mine
                                 and not (mine == "°c" and u == "degrees F")]))
    assume(f" {value_text}" in f" {command}")
    head, _, tail = f" {command}".rpartition(f" {value_text}")
    return f"{head} {value_text} {unit}{tail}".strip(), kind


@st.composite
def doubtful_chinese(draw: st.DrawFn, command: str, value_text: str) -> tuple[str, str]:
    kind = draw(st.sampled_from(["when", "question", "negation", "approximate", "several"]))
    if kind == "when":
        return draw(st.sampled_from([
            f"明天{command}", f"十分钟后{command}", f"如果压力太高就{command}", f"下午三点{command}",
            f"{command}，等会儿再说", f"晚上{command}", f"{command}以后告诉我"])), kind
    if kind == "question":
        return draw(st.sampled_from([
            f"{command}吗", f"是否{command}", f"谁让你{command}", f"要不要{command}",
            f"为什么{command}", f"{command}了没有？"])), kind
    if kind == "negation":
        return draw(st.sampled_from([f"不要{command}", f"别{command}", f"先不{command}",
                                     f"千万别{command}"])), kind
    if kind == "approximate":
        assume(command.endswith(value_text))
        return draw(st.sampled_from([
            f"{command}左右", f"{command}以上", f"{command}以下", f"{command[:-len(value_text)]}"
            f"大约{value_text}", f"{command}上下", f"{command[:-len(value_text)]}至少{value_text}"
        ])), kind
    return draw(st.sampled_from([f"所有的{command}", f"{command}，其它的也一样",
                                 f"{command}，全部都要", f"{command}和另一台一起"])), kind


@st.composite
def plain_write(draw: st.DrawFn) -> tuple[Config, Point, int | float, str, str, bool]:
    """A plant, a writable number point, a value in its range, how it is said, the command."""
    config = draw(plants(unnumbered=True))
    points = writable_numbers(config)
    assume(points)
    point = draw(st.sampled_from(points))
    thing, number, quantity = parts(point)
    # "compressor flow" beside "compressor 1 flow": which compressor is asked back (the gate's
    # peers), so such a command is no plain one
    assume(number is not None or not any(
        parts(other)[::2] == (thing, quantity) for other in config.points.values()
        if other is not point))
    value, text = draw(values_in(point))
    zh = draw(st.booleans())
    value_text = draw(said(value, text, zh))
    data = draw(st.data())
    command = (chinese_command if zh else english_command)(data, point, value_text)
    return config, point, value, value_text, command, zh


# -- the properties ------------------------------------------------------------------------------


@pytest.mark.timeout(300)
@given(plain_write())
def test_a_plain_command_writes_its_value_and_the_model_cannot_change_it(
        case: tuple[Config, Point, int | float, str, str, bool]) -> None:
    config, point, value, _, command, _ = case
    # the model proposing the very write the words say: it passes (or the rules place it)
    action = route(config, command, write(point, value))
    gate = action.args.get("value_problem") in GATE_ONLY
    assert not gate, (command, action)
    if action.name == "write":
        assert action.args["value"] == value, (command, action)
    # the model proposing another value, or the value for another point: never written
    other = value + 1 if value + 1 != value else value - 1
    for proposal in (write(point, other), write(point, -value if value else 1)):
        action = route(config, command, proposal)
        assert not (action.name == "write" and action.args["value"] != value), \
            (command, proposal, action)


@pytest.mark.timeout(300)
@given(st.data(), plain_write())
def test_words_that_do_not_plainly_ask_never_write(
        data: st.DataObject, case: tuple[Config, Point, int | float, str, str, bool]) -> None:
    config, point, value, value_text, command, zh = case
    if zh:
        doubtful, kind = data.draw(doubtful_chinese(command, value_text))
    else:
        doubtful, kind = data.draw(doubtful_english(command, value_text, point))
    action = route(config, doubtful, write(point, value))
    assert action.name != "write", (doubtful, kind, action)
    if action.args.get("value_problem") in GATE_ONLY:
        named = action.args["unreadable"]
        assert named and all(w in doubtful.casefold() or w in doubtful for w in named), \
            (doubtful, action)
        assert all(w in action.args["text"] for w in named), (doubtful, action)


@pytest.mark.timeout(300)
@given(st.data(), plants(unnumbered=True))
def test_a_switch_is_written_only_the_way_its_words_say(data: st.DataObject,
                                                        config: Config) -> None:
    switches = [p for p in config.points.values() if p.kind == "bool" and p.writable]
    assume(switches)
    point = data.draw(st.sampled_from(switches))
    thing, number, _ = parts(point)
    on = data.draw(st.booleans())
    verb = data.draw(st.sampled_from(["switch on", "turn on", "start", "open", "enable"] if on
                                      else ["switch off", "turn off", "stop", "close", "disable"]))
    command = data.draw(st.sampled_from([f"{verb} {point.name}", f"{verb} the {point.name}",
                                         f"please {verb} {point.name}"]))
    # what the words say passes; the opposite, proposed by the model, never
    assert route(config, command, write(point, not on)).name != "write" or \
        route(config, command, write(point, not on)).args["value"] == on, command
    zh_verb = "打开" if on else "关闭"
    zh_thing = THINGS[thing]
    zh_command = f"{zh_verb}{number or ''}{'号' if number else ''}{zh_thing}"
    action = route(config, zh_command, write(point, not on))
    assert not (action.name == "write" and action.args["value"] != on), (zh_command, action)
    # a question, a condition or a statement about it: never a write at all
    doubtful = data.draw(st.sampled_from([
        f"is {point.name} on", f"tell me if {point.name} is {'on' if on else 'off'}",
        f"should I {command}", f"{command} at {data.draw(st.integers(1, 12))} pm",
        f"if the alarm goes off {command}", f"who {verb}ed {point.name}",
        f"{zh_command}了吗", f"谁{zh_command}的", f"明天{zh_command}", f"如果太热就{zh_command}",
        f"{number or ''}{'号' if number else ''}{zh_thing}{zh_verb}了"]))
    action = route(config, doubtful, write(point, on))
    assert action.name != "write", (doubtful, action)


@pytest.mark.timeout(300)
@given(st.data(), plants(unnumbered=True))
def test_a_command_without_a_write_in_it_is_never_written_by_the_model(
        data: st.DataObject, config: Config) -> None:
    point = data.draw(st.sampled_from(list(config.points.values())))
    thing, number, quantity = parts(point)
    named = " ".join(x for x in (thing, number, quantity) if x is not None)
    text = data.draw(st.sampled_from([
        f"what is the {named}", f"how high is {named}", f"{named}?", f"show me {named}",
        f"is the {named} ok", f"{named} status", f"tell me about {named}",
        f"{number or ''}{'号' if number else ''}{THINGS[thing]}{QUANTITIES[quantity]}是多少"]))
    value = data.draw(st.one_of(st.booleans(), st.integers(-10**6, 10**6)))
    action = route(config, text, write(point, value))
    assert action.name != "write", (text, action)


# -- the review's cases, on the development plant --------------------------------------------

DEV = config_of(dev_plant())
REVIEW_CASES = [
    ("in 10 minutes stop feed pump 1", "pump1_speed", 10),
    ("in 10 minutes stop feed pump 1", "pump1_speed", 0),
    ("set feed pump 1 to about 1000 rpm", "pump1_speed", 1000),
    ("set feed pump 1 to ~1000 rpm", "pump1_speed", 1000),
    ("把1号给水泵转速设为一千多", "pump1_speed", 1000),
    ("1号给水泵转速设为1000以上", "pump1_speed", 1000),
    ("set feed pump 1 to twenty something", "pump1_speed", 20),
    ("set feed pump 1 to 1aaa", "pump1_speed", 1),
    ("set feed pump 1 to the first setting", "pump1_speed", 1),
    ("set feed pump #5 to 30", "pump1_speed", 30),
    ("set feed pump 1 to 1000 at 5 pm", "pump1_speed", 1000),
    ("set feed pump 1 to 1000 tomorrow", "pump1_speed", 1000),
    ("set feed pump 1 to 50 %", "pump1_speed", 50),
    ("set feed pump 1 to 20 hz", "pump1_speed", 20),
    ("set boiler 3 temperature setpoint to 500 °F", "boiler3_setpoint", 500),
    ("set boiler 3 temperature setpoint to 500 kelvin", "boiler3_setpoint", 500),
    ("set boiler 3 temperature setpoint to 5 bar", "boiler3_setpoint", 5),
    ("set the conveyor to 30 m/s", "conveyor_speed", 30),
    ("tell me if steam valve 2 is open", "valve2_open", True),
    ("should I open steam valve 2", "valve2_open", True),
    ("if the pressure is high then open steam valve 2", "valve2_open", True),
    ("谁打开了2号蒸汽阀", "valve2_open", True),
    ("2号蒸汽阀打开了", "valve2_open", True),
    ("明天打开2号蒸汽阀", "valve2_open", True),
    ("open all valves", "valve2_open", True),
    ("open steam valves 2 and 3", "valve2_open", True),
    ("set feed pump 1 to 1000 and open steam valve 2", "pump1_speed", 1000),
    ("set feed pump 1 to 1000 and open steam valve 2", "valve2_open", True),
    ("open steam valve 2a", "valve2_open", True),
    ("what is the conveyor speed", "conveyor_speed", 0),
    ("how fast is feed pump 1", "pump1_speed", 1000),
]


@pytest.mark.parametrize(("text", "point", "value"), REVIEW_CASES,
                         ids=[f"{t} -> {p}={v}" for t, p, v in REVIEW_CASES])
def test_the_review_s_cases_never_write(text: str, point: str, value: Any) -> None:
    action = route(DEV, text, Action("write", {"point": point, "value": value}))
    assert action.name != "write", (text, action)


#: what the model proposes against the words: the rules may write what the words say, never this
AGAINST_CASES = [
    ("switch off the beacon", "warning_beacon", True),
    ("set pump speed 30", "conveyor_speed", 30),
    ("set feed pump 1 to 1000 rpm", "pump1_speed", 100),
    ("stop feed pump 1", "pump1_speed", 1),
]


@pytest.mark.parametrize(("text", "point", "value"), AGAINST_CASES,
                         ids=[f"{t} -> {p}={v}" for t, p, v in AGAINST_CASES])
def test_the_model_is_never_believed_against_the_words(text: str, point: str,
                                                        value: Any) -> None:
    proposal = Action("write", {"point": point, "value": value})
    assert route(DEV, text, proposal).to_dict() != proposal.to_dict(), text


PLAIN_CASES = [
    ("set feed pump 1 to 1000 rpm", "pump1_speed", 1000),
    ("set feed pump 1 to 1 600 rpm", "pump1_speed", 1600),
    ("feed pump 1 to nine hundred and fifty", "pump1_speed", 950),
    ("could you set feed pump 1 to 1200?", "pump1_speed", 1200),
    ("raise feed pump 1 speed to 1100 rpm", "pump1_speed", 1100),
    ("把1号给水泵转速设为一千五", "pump1_speed", 1500),
    ("bump the conveyor up to 40", "conveyor_speed", 40),
    ("open steam valve 2", "valve2_open", True),
    ("打开2号蒸汽阀", "valve2_open", True),
    ("close steam valve 2", "valve2_open", False),
    ("switch off the yard warning beacon", "warning_beacon", False),
]


@pytest.mark.parametrize(("text", "point", "value"), PLAIN_CASES,
                         ids=[f"{t} -> {p}={v}" for t, p, v in PLAIN_CASES])
def test_plain_commands_still_write(text: str, point: str, value: Any) -> None:
    action = route(DEV, text, Action("write", {"point": point, "value": value}))
    assert action.to_dict() == {"name": "write", "args": {"point": point, "value": value}}


# -- raw register writes ------------------------------------------------------------------------

RAW = config_of({"node": {"id": "raw"}, "devices": {"plc1": {
    "driver": "modbus", "host": "127.0.0.1", "port": 1502, "unit": 1,
    "points": {"speed": {"name": "Fan speed", "table": "holding", "address": 0,
                         "type": "uint16", "writable": True, "min": 0, "max": 1500}}}}})
RAW_WRITE = "set holding register 40011 on plc1 to 99"


@pytest.mark.timeout(120)
@given(st.sampled_from([
    "tomorrow {w}", "should I {w}", "{w}?", "don't {w}", "if the fan stops {w}", "{w} at 5 pm",
    "{w} tonight", "{w} and register 40012 too", "{w} for all of them", "明天{w}", "{w}吗",
    "tell me if I should {w}", "{w}, or so", "about {w}"]))
def test_a_raw_register_write_is_sent_only_when_plainly_asked(template: str) -> None:
    text = template.format(w=RAW_WRITE)
    action = route(RAW, text, Action("write", {"point": "speed", "value": 99}))
    assert action.name not in ("modbus.write_registers", "write"), (text, action)


def test_a_plain_raw_register_write_is_placed() -> None:
    action = route(RAW, RAW_WRITE, Action("respond", {"reason": "not_understood"}))
    assert action.name == "modbus.write_registers" and action.args["device"] == "plc1", action


# -- end to end: the real daemon, rules only, an engineer who may write anything -----------------

DEV_WRITES = [  # (plain command with {v}, point, value kind)
    ("set feed pump 1 to {v} rpm", "pump1_speed", "number"),
    ("set boiler 3 temperature setpoint to {v}", "boiler3_setpoint", "number"),
    ("set the line a conveyor speed to {v}", "conveyor_speed", "number"),
    ("把1号给水泵转速设为{v}", "pump1_speed", "number"),
    ("open steam valve 2", "valve2_open", "on"),
    ("switch on the yard warning beacon", "warning_beacon", "on"),
    ("打开2号蒸汽阀", "valve2_open", "on"),
]


@pytest.mark.timeout(300)
def test_the_daemon_writes_nothing_the_words_do_not_plainly_ask(daemon_runner: Any) -> None:
    """Generated doubtful commands to a running daemon, as an engineer (who may write every
    point): each is answered, none reaches a device, and the audit trail holds no write."""
    d = daemon_runner.start({**dev_plant(enabled=False)})
    before = {p: d.ctl_json("read", p)[1]["result"]["value"]
              for p in ("pump1_speed", "boiler3_setpoint", "conveyor_speed", "valve2_open",
                        "warning_beacon")}
    sent: list[str] = []

    @settings(max_examples=40, deadline=None)
    @given(st.data(), st.sampled_from(DEV_WRITES), st.integers(1, 40))
    def one(data: st.DataObject, case: tuple[str, str, str], v: int) -> None:
        template, _, _ = case
        command = template.format(v=v)
        zh = any("\u4e00" <= c <= "\u9fff" for c in command)
        doubtful, _ = data.draw(doubtful_chinese(command, str(v)) if zh and "{v}" in template
                                else doubtful_english(command, str(v), DEV.points[case[1]]))
        answer = d.request({"op": "ask", "text": doubtful, "role": "engineer"})
        assert answer["status"] != "ok" or (answer["action"] or {}).get("name") != "write", \
            (doubtful, answer)
        sent.append(doubtful)

    one()
    assert len(sent) >= 20
    after = {p: d.ctl_json("read", p)[1]["result"]["value"] for p in before}
    assert after == before
    writes = [r for r in d.audit_records() if (r.get("action") or {}).get("name") == "write"]
    assert not writes, writes[:3]
    assert d.status()["tools"]  # still answering
    # and the same daemon does write a plain command (the test can fail)
    answer = d.request({"op": "ask", "text": "set feed pump 1 to 33 rpm", "role": "engineer"})
    assert answer["status"] == "ok" and answer["action"]["args"] == {
        "point": "pump1_speed", "value": 33}, answer


@pytest.mark.parametrize(("text", "on"), [
    # "on" twice, "off" once: which is the value? asked back, never guessed
    ("turn coil 00002 on device plc1 off", None), ("turn coil 00002 on the plc1 off", None),
    ("switch coil 2 on plc1 on", True), ("set coil 2 on plc1 to off", False)])
def test_a_raw_coil_is_never_written_against_its_words(text: str, on: bool | None) -> None:
    action = route(RAW, text, Action("respond", {"reason": "not_understood"}))
    if on is None:
        assert action.name == "respond" and action.args["reason"] == "not_understood" \
            and action.args["value_problem"] == "not_stated", (text, action)
    else:
        assert action.name == "modbus.write_registers" and action.args["values"] == [on], \
            (text, action)
