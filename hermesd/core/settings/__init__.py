"""Typed driver settings, one frozen class per driver's device (and point) keys, shared by the
config (which checks the keys and builds them), the daemon (which sends them to the driver's
tool in its configure message) and the tool and plant simulator (which read them back with the
same class).

A settings class is a frozen dataclass of plain JSON values (or of settings classes).
`to_dict` leaves out what is None (a key the device does not have); `settings_of(cls, obj,
where)` builds one from a dict, ignoring keys that are not its fields (a slice also carries the
keys every point has) and taking the class's defaults for missing ones, so a default is
written once, on the class. A value of the wrong type is a `BadRequest` that names its dotted
path. Nothing here imports the rest of hermesd.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from hermesd.core.errors import BadRequest

T = TypeVar("T")

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _accepts(hint: Any, value: Any) -> tuple[bool, Any]:
    """Whether `value` is a `hint`, and the value as the field holds it (an int as a float)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            ok, held = _accepts(option, value)
            if ok:
                return True, held
        return False, value
    if hint is type(None):
        return value is None, value
    if hint is bool:
        return isinstance(value, bool), value
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool), value
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return ok, float(value) if ok else value
    if hint is str:
        return isinstance(value, str), value
    if isinstance(hint, type) and hasattr(hint, "from_dict"):  # a nested settings class
        return isinstance(value, Mapping), hint.from_dict(value) if isinstance(value, Mapping) \
            else value
    raise TypeError(f"settings fields hold JSON scalars, not {hint!r}")


def _expected(hint: Any) -> str:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_expected(h) for h in typing.get_args(hint))
    return {type(None): "null", bool: "true or false", int: "an integer", float: "a number",
            str: "a string"}.get(hint, "an object")


def settings_of(cls: type[T], obj: Mapping[str, Any], where: str = "") -> T:
    """The settings `cls` of a config slice; BadRequest naming the key when one is wrong."""
    if not isinstance(obj, Mapping):
        raise BadRequest(f"{where or cls.__name__}: expected an object, got {obj!r}")
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name not in obj:
            if f.default is dataclasses.MISSING:
                raise BadRequest(f"{where}.{f.name}: required" if where else f"{f.name}: required")
            continue
        ok, held = _accepts(hints[f.name], obj[f.name])
        if not ok:
            raise BadRequest(f"{where}.{f.name}: expected {_expected(hints[f.name])}, got "
                             f"{obj[f.name]!r}")
        kwargs[f.name] = held
    return cls(**kwargs)


def settings_dict(settings: Any) -> dict[str, Any]:
    """The fields of `settings` that hold a value (None: the key is not there)."""
    return {f.name: value.to_dict() if hasattr(value, "to_dict") else value
            for f in dataclasses.fields(settings) if (value := getattr(settings, f.name)) is not None}
