"""A quick first check of a tool's data against the simplest JSON Schemas, before fastjsonschema.

Most schemas a tool gives its actions are flat objects: `type: object`, `required`, `properties`
whose values are of one or a few scalar types, perhaps `additionalProperties: false` (a read's
result: point, value, ts). fastjsonschema's code for such a schema builds two sets and walks
them on every call (a hundred-odd bytecodes on every read); `quick` checks the same in a third
of that. It only ever says *valid*: data it is not sure of (of another shape, a whole float
where an integer is asked, an int subclass) goes to the full validator, which decides and words
the refusal. So a schema's verdict is fastjsonschema's, always; a schema of any other form
(defaults, nesting, patterns, bounds, `$ref`...) is not quick-checked at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: the classes JSON values of each scalar type decode to, compared exactly (`__class__ in`):
#: a bool is no number and no integer, as JSON Schema has it
_CLASSES: dict[str, tuple[type, ...]] = {
    "string": (str,), "number": (int, float), "integer": (int,), "boolean": (bool,),
    "null": (type(None),)}
_ANNOTATIONS = frozenset({"description", "title"})
_OBJECT_KEYS = frozenset({"type", "required", "properties", "additionalProperties"}) | _ANNOTATIONS
_PROPERTY_KEYS = frozenset({"type"}) | _ANNOTATIONS


def _simple(schema: Any) -> tuple[frozenset[str], frozenset[str] | None,
                                  tuple[tuple[str, frozenset[type]], ...]] | None:
    """(required, the only keys allowed or None, (property, its classes)...) of a flat object
    schema; None for a schema of any other form."""
    if not isinstance(schema, dict) or not schema.keys() <= _OBJECT_KEYS or \
            schema.get("type") != "object":
        return None
    required = schema.get("required", [])
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required) or \
            not isinstance(properties, dict) or (extra is not True and extra is not False):
        return None
    items = []
    for name, sub in properties.items():
        if not isinstance(name, str) or not isinstance(sub, dict) or \
                not sub.keys() <= _PROPERTY_KEYS:
            return None
        if "type" not in sub:  # any value
            continue
        kinds = sub["type"] if isinstance(sub["type"], list) else [sub["type"]]
        if not kinds or not all(isinstance(k, str) and k in _CLASSES for k in kinds):
            return None
        items.append((name, frozenset(c for k in kinds for c in _CLASSES[k])))
    return frozenset(required), (None if extra else frozenset(properties)), tuple(items)


def quick(schema: Any, full: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`full` (a compiled validator of `schema`: returns the data or raises), preceded by the
    quick check when the schema is simple enough: what the quick check is sure of is returned
    at once, anything else is `full`'s to judge."""
    simple = _simple(schema)
    if simple is None:
        return full
    required, allowed, items = simple
    # each property's classes, and the class of a property that is not there (which passes):
    # every property looked at in C-level passes, no Python step per property
    names = tuple(name for name, _ in items)
    classes = tuple(kinds | {_Absent} for _, kinds in items)
    absent = (_ABSENT,) * len(names)
    holds = frozenset.__contains__

    def check(data: Any) -> Any:
        if data.__class__ is dict and data.keys() >= required and \
                (allowed is None or data.keys() <= allowed) and \
                all(map(holds, classes, map(type, map(data.get, names, absent)))):
            return data
        return full(data)

    return check


class _Absent:
    """The class of what `dict.get` gives for a property that is not there."""


_ABSENT = _Absent()
