"""Generated commands on generated plants: a write takes exactly the one number the words say.

Plants are drawn fresh (things, numbers, quantities, units, ranges, writable or not), and so are
the ways a value is said: digits, grouped digits ("1,600", "1 600"), decimals, full-width digits,
English number words, Chinese numerals and digit strings, negatives. Whenever the rules place a
write, or the model stage is offered one, its value is that number and never the number that
names the point. Hostile ways — two values, a correction, an exponent, hex, "1_000", other
scripts' digits, "-0", doubled or dangling signs, a change "by" an amount, ill-formed number
words — place no write, offer the model none, and the answer names the words it could not read.
Typed values (`coerce_value`) and the step check are held to the same standard.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from hermesd.config.model import Config, Point
from hermesd.core.errors import ErrorCode, Rejected
from hermesd.policy import whole_steps
from hermesd.registry import INT_LIMIT, coerce_value
from hermesd.router.grammar import Choice
from hermesd.router.model_stage import ModelStage
from hermesd.router.rules import SWITCH_PROBLEMS, RuleRouter
from tests.hostile.value_words import FULL_WIDTH, hostile, said, values, zh_number
from tests.support.plants import FAKE_TOOL, NoWorker, config_of

# -- plants ------------------------------------------------------------------------------------

#: things and quantities with the Chinese words the vocabulary maps to them
THINGS = {"pump": "泵", "fan": "风机", "valve": "阀门", "boiler": "锅炉", "mixer": "搅拌机",
          "motor": "电机", "heater": "加热器", "compressor": "压缩机", "oven": "烤箱",
          "kiln": "窑", "tank": "罐", "conveyor": "输送带"}
QUANTITIES = {"speed": "转速", "temperature": "温度", "level": "液位", "pressure": "压力",
              "flow": "流量", "position": "开度", "frequency": "频率", "power": "功率"}
UNITS = {"speed": "rpm", "temperature": "°C", "level": "%", "pressure": "bar", "flow": "l/min",
         "position": "%", "frequency": "Hz", "power": "kW"}


@st.composite
def plants(draw: st.DrawFn, unnumbered: bool = False) -> Config:
    """A plant of numbered things ("pump 7 speed"), each name a different triple; with
    `unnumbered`, some things have no number ("conveyor speed")."""
    numbers = st.one_of(st.none(), st.integers(1, 99)) if unnumbered else st.integers(1, 99)
    triples = draw(st.lists(st.tuples(st.sampled_from(sorted(THINGS)), numbers,
                                      st.sampled_from(sorted(QUANTITIES))),
                            min_size=1, max_size=8, unique=True))
    points: dict[str, Any] = {}
    for thing, number, quantity in triples:
        kind = draw(st.sampled_from(["int", "float", "float", "bool"]))
        name = " ".join(str(x) for x in (thing, number, quantity) if x is not None)
        point: dict[str, Any] = {"name": name, "type": kind,
                                 "params": {"value": False if kind == "bool" else 0}}
        if kind != "bool":
            point["unit"] = UNITS[quantity]
            if draw(st.booleans()):
                lo = draw(st.integers(-100_000, 100_000))
                point.update(writable=True, min=lo, max=lo + draw(st.integers(1, 10**6)))
        elif draw(st.booleans()):
            point["writable"] = True
        points[f"{thing}{number or ''}_{quantity}"] = point
    return config_of({"node": {"id": "gen"}, "devices": {"dev": {
        "driver": "exec", "command": ["python3", str(FAKE_TOOL)], "points": points}}})


def numeric(config: Config) -> list[Point]:
    return [p for p in config.points.values() if p.kind in ("int", "float")]


def parts(point: Point) -> tuple[str, str | None, str]:
    """(thing, number or None, quantity) of a generated point's name."""
    words = point.name.split()
    return (words[0], None, words[1]) if len(words) == 2 else (words[0], words[1], words[2])


def english_command(data: st.DataObject, point: Point, value_text: str) -> str:
    thing, number, quantity = parts(point)
    unit = f" {point.unit}" if point.unit and data.draw(st.booleans()) else ""
    if number is None:
        return data.draw(st.sampled_from([
            f"set {thing} {quantity} to {value_text}{unit}",
            f"set the {thing} {quantity} to {value_text}{unit}",
            f"change {quantity} of the {thing} to {value_text}{unit}",
            f"{thing} {quantity} to {value_text}{unit} please",
            f"set {thing} {quantity} {value_text}{unit}",  # "speed 1 600" is 1600
        ]))
    return data.draw(st.sampled_from([
        f"set {thing} {number} {quantity} to {value_text}{unit}",
        f"set the {thing} {number} {quantity} to {value_text}{unit}",
        f"change {quantity} of {thing} {number} to {value_text}{unit}",
        f"{thing} {number} {quantity} to {value_text}{unit} please",
        f"please set {thing} {number} {quantity} at {value_text}{unit}",
        f"set {thing} {number} {quantity} {value_text}{unit}",
        f"set {thing} {number} {value_text}{unit}",  # "pump 1 600": pump 1, 600
        f"set #{number} {thing} {quantity} to {value_text}",
        f"set {thing} number {number} {quantity} to {value_text}",
    ]))


def chinese_command(data: st.DataObject, point: Point, value_text: str) -> str:
    thing, number, quantity = parts(point)
    zh_thing, zh_quantity = THINGS[thing], QUANTITIES[quantity]
    if number is None:
        return data.draw(st.sampled_from([f"把{zh_thing}{zh_quantity}设为{value_text}",
                                          f"{zh_thing}的{zh_quantity}调到{value_text}"]))
    n = number if data.draw(st.booleans()) else zh_number(int(number), False)
    return data.draw(st.sampled_from([
        f"把{n}号{zh_thing}{zh_quantity}设为{value_text}",
        f"{n}号{zh_thing}的{zh_quantity}调到{value_text}",
        f"请把{n}号{zh_thing}的{zh_quantity}设置为{value_text}",
    ]))


# -- the properties ----------------------------------------------------------------------------




def stage(config: Config) -> ModelStage:
    return ModelStage(config, NoWorker())


def offered_numbers(offered: list[Choice]) -> list[Any]:
    return [c.args["value"] for c in offered
            if c.name == "write" and not isinstance(c.args["value"], bool)]


@given(st.data(), plants(unnumbered=True))
def test_a_write_is_exactly_the_number_said(data: st.DataObject, config: Config) -> None:
    points = numeric(config)
    assume(points)
    point = data.draw(st.sampled_from(points))
    value, text = data.draw(values())
    zh = data.draw(st.booleans())
    value_text = data.draw(said(value, text, zh))
    command = (chinese_command if zh else english_command)(data, point, value_text)
    rules = RuleRouter(list(config.points.values()))
    analysis = rules.analyse(command)
    placed = rules.place(analysis)
    # one value, said once, is never asked back: the rules write it or hand the command on
    assert placed is None or placed.action.name == "write", (command, placed)
    if placed is not None:
        assert placed.action.args["value"] == value, (command, placed.action)
        # and to the point the words name (the quantity, when they name none, may be any)
        written = parts(config.points[placed.action.args["point"]])
        assert written[:2] == parts(point)[:2], (command, placed.action)
        if f" {parts(point)[2]}" in command:
            assert written == parts(point), (command, placed.action)
    for offered in offered_numbers(stage(config).offer(analysis)):
        assert offered == value, (command, offered)
    # not vacuous: the plain English form of a writable point's value is placed, exactly
    if not zh and point.writable and command.startswith(f"set {point.name} to "):
        assert placed is not None and placed.action.to_dict() == {
            "name": "write", "args": {"point": point.id, "value": value}}, (command, placed)


@given(st.data(), plants(), hostile())
def test_hostile_values_place_no_write_and_are_named(
        data: st.DataObject, config: Config, case: tuple[str, list[str], str]) -> None:
    shown, words, problem = case
    point = data.draw(st.sampled_from(list(config.points.values())))
    thing, number, quantity = point.name.split()
    command = data.draw(st.sampled_from([
        f"set {thing} {number} {quantity} to {shown}",
        f"change the {quantity} of {thing} {number} to {shown}",
        f"{thing} {number} {quantity} to {shown}",
        f"把{number}号{THINGS[thing]}{QUANTITIES[quantity]}设为{shown}",
    ]))
    rules = RuleRouter(list(config.points.values()))
    analysis = rules.analyse(command)
    placed = rules.place(analysis)
    assert placed is not None, command
    args = placed.action.args
    assert placed.action.name == "respond" and args["reason"] == "not_understood", \
        (command, placed.action)
    assert args["value_problem"] == problem, (command, args)
    named = " ".join(args["unreadable"]).casefold()
    for word in words:
        assert word.casefold() in named and word.casefold() in args["text"].casefold(), \
            (command, word, args)
    offered = stage(config).offer(analysis)
    assert not offered_numbers(offered), (command, offered)
    if problem in SWITCH_PROBLEMS:
        assert not [c for c in offered if c.name == "write"], (command, offered)


@given(st.data(), plants())
def test_a_change_by_an_amount_is_never_a_value(data: st.DataObject, config: Config) -> None:
    point = data.draw(st.sampled_from(list(config.points.values())))
    thing, number, quantity = point.name.split()
    _, text = data.draw(values())
    command = data.draw(st.sampled_from([
        f"increase {thing} {number} {quantity} by {text}",
        f"raise the {quantity} of {thing} {number} by {text}",
        f"lower {thing} {number} {quantity} {text}",
        f"把{number}号{THINGS[thing]}{QUANTITIES[quantity]}提高{text}",
    ]))
    rules = RuleRouter(list(config.points.values()))
    analysis = rules.analyse(command)
    placed = rules.place(analysis)
    assert placed is not None and placed.action.name == "respond", (command, placed)
    assert placed.action.args["value_problem"] == "relative"
    assert text in " ".join(placed.action.args["unreadable"])
    assert not offered_numbers(stage(config).offer(analysis))


@given(st.data(), plants())
def test_the_number_that_names_the_point_is_never_its_value(data: st.DataObject,
                                                             config: Config) -> None:
    points = [p for p in numeric(config) if p.writable]
    assume(points)
    point = data.draw(st.sampled_from(points))
    thing, number, quantity = point.name.split()
    value = data.draw(st.sampled_from([int(number), int(number) + 1, 0]))
    command = data.draw(st.sampled_from([
        f"set {thing} {number} {quantity} to {value}",
        f"set {thing} {number} {quantity} {value}",
        f"set {thing} {number} {value}",
    ]))
    rules = RuleRouter(list(config.points.values()))
    placed = rules.place(command)
    if command.startswith(f"set {point.name} to "):
        assert placed is not None, command
    if placed is not None and placed.action.name == "write":
        assert placed.action.args["value"] == value, (command, placed.action)


# -- typed values ------------------------------------------------------------------------------

INT_POINT = Point(id="speed", device="d", driver="modbus", name="Speed", kind="int",
                  writable=True, min=0, max=1500)
FLOAT_POINT = Point(id="level", device="d", driver="modbus", name="Level", kind="float",
                    writable=True, min=-50, max=50, step=0.1)


@given(st.one_of(st.integers(-10**12, 10**12).map(str),
                 st.decimals(-10**6, 10**6, places=3, allow_nan=False).map(str)))
def test_typed_plain_numbers_are_taken_exactly(text: str) -> None:
    assume(not (text.startswith("-") and Decimal(text) == 0))
    value = coerce_value(FLOAT_POINT, text)
    assert Decimal(repr(value)) == Decimal(text)


@given(st.one_of(
    st.integers(1, 10**6).map(lambda n: f"{n:_}").filter(lambda s: "_" in s),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6)
    .filter(lambda s: not s.isascii() and not all("０" <= c <= "９" for c in s)),
    st.sampled_from(["nan", "NaN", "inf", "-inf", "Infinity", "-0", "-0.0", "-00", "+5", "1e3",
                     "1E-3", "0x10", "0b1", "1,000", "1 000", "--5", "5-", ".5", "5.", ""]),
    st.integers(1, 10**6).map(lambda n: str(n).translate(FULL_WIDTH)),
))
def test_typed_text_that_is_no_plain_number_is_refused(text: str) -> None:
    for point in (INT_POINT, FLOAT_POINT):
        with pytest.raises(Rejected) as info:
            coerce_value(point, text)
        assert info.value.code == ErrorCode.OUT_OF_RANGE


@given(st.integers(min_value=INT_LIMIT).flatmap(lambda n: st.sampled_from([n, -n, str(n)])))
def test_typed_numbers_beyond_any_point_are_out_of_range(value: int | str) -> None:
    for point in (INT_POINT, FLOAT_POINT):
        with pytest.raises(Rejected) as info:
            coerce_value(point, value)
        assert info.value.code == ErrorCode.OUT_OF_RANGE
        assert len(info.value.message) < 200  # no 400-digit echo


def test_a_400_digit_integer_is_out_of_range_not_an_internal_error() -> None:
    for value in (int("9" * 400), "9" * 400, -int("9" * 400)):
        with pytest.raises(Rejected) as info:
            coerce_value(INT_POINT, value)
        assert info.value.code == ErrorCode.OUT_OF_RANGE


STEPS = ["0.1", "0.5", "0.25", "0.01", "1", "2.5", "0.001", "0.2"]


@given(st.sampled_from(STEPS), st.integers(-10**6, 10**6), st.sampled_from(["0", "0.05", "-1"]))
def test_whole_steps_accepts_exact_multiples_and_nothing_a_hair_away(
        step: str, count: int, origin: str) -> None:
    exact = Decimal(origin) + count * Decimal(step)
    value = float(exact)
    assume(Decimal(repr(value)) == exact)  # a float that is that decimal
    assert whole_steps(value, float(step), float(origin))
    for near in (math.nextafter(value, math.inf), math.nextafter(value, -math.inf)):
        assert not whole_steps(near, float(step), float(origin)), repr(near)


def test_the_issue_s_step_case() -> None:
    assert not whole_steps(30.00000000001, 0.1)
    assert whole_steps(30.0, 0.1) and whole_steps(30.1, 0.1)
