"""The quick schema check says what fastjsonschema says, for every schema it takes and every
value: it may only ever answer *valid* where fastjsonschema does, and hands the rest to it."""

from __future__ import annotations

import itertools
from typing import Any

import fastjsonschema
import pytest
from hermes_tools.runtime import READ_SPEC, WRITE_SPEC

from hermesd.quick_schema import _simple, quick

SCALARS: list[Any] = [None, True, False, 0, 1, -7, 2**70, 0.0, 3.0, 2.5, float("inf"), "", "x",
                      [], [1], {}, {"a": 1}]
SCHEMAS: list[dict[str, Any]] = [
    READ_SPEC.input_schema, READ_SPEC.output_schema, WRITE_SPEC.input_schema,
    WRITE_SPEC.output_schema,
    {"type": "object"},
    {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}},
    {"type": "object", "properties": {"n": {"type": ["null", "boolean"]}, "s": {}},
     "additionalProperties": False, "description": "annotated"},
    {"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "number"}}},
]


def _verdict(check: Any, value: Any) -> bool:
    try:
        check(value)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


@pytest.mark.parametrize("schema", SCHEMAS)
def test_the_quick_check_agrees_with_fastjsonschema(schema: dict[str, Any]) -> None:
    assert _simple(schema) is not None  # each is of the form the quick check takes
    full = fastjsonschema.compile(schema)
    checked = quick(schema, full)
    names = ["point", "value", "ts", "n", "s", "a", "b", "confirmed", "other"]
    cases: list[Any] = [*SCALARS]
    for k, scalars in ((1, SCALARS), (2, SCALARS[:12]), (3, [None, True, 1, 2.5, "x"])):
        for keys in itertools.combinations(names, k):
            cases.extend(dict(zip(keys, values, strict=True))
                         for values in itertools.product(scalars, repeat=k))
    for value in cases:
        assert _verdict(checked, value) == _verdict(full, value), (schema, value)


def test_a_refusal_is_worded_by_fastjsonschema() -> None:
    schema = READ_SPEC.output_schema
    checked = quick(schema, fastjsonschema.compile(schema))
    with pytest.raises(fastjsonschema.JsonSchemaValueException, match=r"data\.ts must be number"):
        checked({"point": "p", "value": 1, "ts": "now"})


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
    {"type": "object", "properties": {"n": {"type": "integer", "default": 3}}},
    {"type": "object", "properties": {"o": {"type": "object"}}},
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"type": ["object", "null"]},
    {"type": "object", "properties": {"n": {"type": []}}},
    {"$ref": "#/definitions/x"},
])
def test_any_other_schema_is_left_to_fastjsonschema(schema: dict[str, Any]) -> None:
    full = fastjsonschema.compile(schema) if "$ref" not in schema else (lambda v: v)
    assert _simple(schema) is None
    assert quick(schema, full) is full
