"""Value maps at the edge between hermesd and its tools: names inside, raw values outside.

A point with `map: {0: off, 1: auto}` is, to everything in hermesd (policy, router, replies,
cache, MQTT, Home Assistant), a point of text whose choices are its names. Its tool never sees
a name: it is configured with the raw kind and writes the raw value, and every value a tool
reports (a poll, a read, a write's result) is turned into its name here. A raw value the map
does not name is kept as the number's text ("7"), never dropped and never taken for a name:
names are never numbers (the config refuses them), so "7" always means "a value not in the map".
This module must never guess a name for a value or a value for a name.
"""

from __future__ import annotations

from typing import Any

from hermesd.config.model import MapEntry, Point


def raw_kind(point: Point) -> str:
    """The kind of value the point's tool reads and writes: the map's raw kind, or its own."""
    if not point.value_map:
        return point.kind
    return "bool" if isinstance(point.value_map[0].raw, bool) else "int"


def from_device(point: Point, value: Any) -> Any:
    """The value hermesd keeps for what the tool reported: its name when the point maps it."""
    if not point.value_map or isinstance(value, str):
        return value
    for entry in point.value_map:
        if _same(entry.raw, value):
            return entry.name
    return str(int(value)) if isinstance(value, bool) else str(value)


def reported(point: Point, value: Any) -> Any:
    """The value a tool reported for `point`, as hermesd keeps it (`from_device`), or
    ValueError when it is not of the point's raw kind: text for a number, a number for text,
    a bool for a number. A tool of one's own ("exec") may say an on/off as 0 or 1. Such a
    value is no reading: kept, it would show "hot" as a good temperature, clear an alarm, or
    name a choice no map has ("turbo")."""
    if not point.value_map and (value.__class__ is float or value.__class__ is int) and \
            point.kind in _NUMBER_KINDS:
        return value  # a number of a number point without a map (most reads): kept as it is
    kind = raw_kind(point)
    if kind == "bool" and not isinstance(value, bool) and type(value) is int and \
            value in (0, 1):
        value = bool(value)
    if kind == "bool":
        fits = isinstance(value, bool)
    elif kind == "string":
        fits = isinstance(value, str)
    else:
        fits = isinstance(value, (int, float)) and not isinstance(value, bool)  # no union built per read
    if not fits:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ValueError(f"{point.id} holds {_KIND_WORDS.get(kind, kind)}, not {shown}")
    return from_device(point, value)


_NUMBER_KINDS = frozenset({"int", "float"})
_KIND_WORDS = {"bool": "on/off (true or false)", "int": "whole numbers", "float": "numbers",
               "string": "text"}


def to_device(point: Point, name: Any) -> Any:
    """The raw value the tool writes for `name` (one of the point's choices, as policy made
    sure); unchanged for a point without a map."""
    if not point.value_map:
        return name
    entry = entry_named(point, name)
    if entry is None:  # policy refuses it before this; a caller that did not is a bug
        raise ValueError(f"{name!r} is not one of {', '.join(point.choices)}")
    return entry.raw


def entry_named(point: Point, name: Any) -> MapEntry | None:
    """The entry whose name (or, failing that, whose name in another language) `name` is,
    compared without case and spacing."""
    if not isinstance(name, str):
        return None
    folded = " ".join(name.casefold().split())
    for entry in point.value_map:
        if entry.name.casefold() == folded:
            return entry
    for entry in point.value_map:
        if any(" ".join(local.casefold().split()) == folded for local in entry.names.values()):
            return entry
    return None


def canonical(point: Point, value: Any) -> Any:
    """A written value as the point's own name ("AUTO" or "自动" -> "auto"); anything that
    names no entry is returned as it is, for policy to refuse."""
    entry = entry_named(point, value) if point.value_map else None
    return entry.name if entry is not None else value


def shown(point: Point, value: Any, lang: str) -> Any:
    """The value as a reply in `lang` says it: the name in that language where the map gives
    one."""
    if not point.value_map or not isinstance(value, str):
        return value
    for entry in point.value_map:
        if entry.name == value:
            return entry.label(lang)
    return value


def _same(raw: int | bool, value: Any) -> bool:
    if isinstance(raw, bool):
        return isinstance(value, bool | int) and bool(value) == raw and value in (0, 1)
    return not isinstance(value, bool) and isinstance(value, int | float) and value == raw


def spellings(point: Point) -> list[tuple[str, str]]:
    """(choice, a way to say it) for each choice of a point: its own text and, for a mapped
    point, its names in other languages ("auto", "自动")."""
    out = [(choice, choice) for choice in point.choices]
    for entry in point.value_map:
        out += [(entry.name, local) for local in entry.names.values()]
    return out
