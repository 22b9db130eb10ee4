"""The quick schema check against fastjsonschema, on generated schemas and hostile values.

Every schema of the form `hermesd.quick_schema` takes (a flat object: `required`, scalar-typed
`properties`, `additionalProperties` true or false, annotations), with `required` keys that no
property names and with `additionalProperties: false` too; every value a tool's reply or the
daemon's arguments might hold, and some no JSON decoder makes: int and float subclasses, an
IntEnum, bool where a number is asked, whole floats for integers, NaN and infinities, integers
past 64 bits, Decimal, dict subclasses, keys that are not strings or are str subclasses. The
two must say the same (valid, or refused), and a valid value comes back the same object,
unchanged.
"""

from __future__ import annotations

import copy
import enum
from collections import OrderedDict
from decimal import Decimal
from typing import Any

import fastjsonschema
from hypothesis import given
from hypothesis import strategies as st

from hermesd.quick_schema import _simple, quick

NAMES = ["point", "value", "ts", "type", "title", "n"]
TYPES = ["string", "number", "integer", "boolean", "null"]


class _Int(int):
    pass


class _Float(float):
    pass


class _Str(str):
    pass


class _Dict(dict):  # type: ignore[type-arg]
    pass


class _Level(enum.IntEnum):
    LOW = 1


SCALARS: list[Any] = [None, True, False, 0, 1, -1, 2**63, 2**64 - 1, 2**80, 1.0, -0.0, 0.5,
                      float("nan"), float("inf"), float("-inf"), "", "x", _Str("s"), _Int(3),
                      _Float(2.0), _Level.LOW, Decimal("1"), b"x", (), [], {}, [1], {"a": 1}]

_property = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), min_size=1, max_size=3,
                                              unique=True),
    "description": st.just("what it is"), "title": st.just("It")})
schemas = st.fixed_dictionaries({"type": st.just("object")}, optional={
    "required": st.lists(st.sampled_from(NAMES), max_size=3, unique=True),
    "properties": st.dictionaries(st.sampled_from(NAMES), _property, max_size=4),
    "additionalProperties": st.booleans(),
    "description": st.just("a reply"), "title": st.just("Reply")})
_keys = st.sampled_from([*NAMES, "other"]) | st.sampled_from([1, _Str("point"), None])
values = st.sampled_from(SCALARS) | st.builds(
    lambda cls, items: cls(items), st.sampled_from([dict, dict, dict, _Dict, OrderedDict]),
    st.dictionaries(_keys, st.sampled_from(SCALARS), max_size=5))


def _verdict(check: Any, value: Any) -> tuple[Any, ...]:
    try:
        out = check(value)
    except fastjsonschema.JsonSchemaValueException:
        return ("refused",)
    except Exception as exc:  # the same failure from both, if any
        return ("raised", type(exc).__name__)
    return ("valid", out is value)


@given(schemas, st.lists(values, min_size=1, max_size=30))
def test_the_quick_check_says_what_fastjsonschema_says(schema: dict[str, Any],
                                                        cases: list[Any]) -> None:
    assert _simple(schema) is not None  # each is of the form the quick check takes
    try:
        full = fastjsonschema.compile(schema)
    except fastjsonschema.JsonSchemaDefinitionException:
        # e.g. a `required` key that `additionalProperties: false` leaves no room for: the
        # tool link refuses such a hello, so no value is ever checked against it
        return
    checked = quick(schema, full)
    for value in cases:
        before = copy.deepcopy(value)
        assert _verdict(checked, value) == _verdict(full, value), (schema, value)
        assert repr(value) == repr(before)  # nothing filled in or taken out
