"""`map:` of a point: raw values a device holds, and the names people read and write instead.

```yaml
map: {0: off, 1: auto, 2: manual}                  # or, with names in other languages:
map:
  0: off
  1: {name: auto, names: {zh: 自动}}
```

A mapped point reads, writes and answers in its names; its raw values are whole numbers (or
true/false for a coil or bit point). YAML 1.1 reads a bare `off`, `on`, `yes` or `no` as a
boolean: the strict loader keeps the words as written for such values (`strict_yaml.YamlMapping`),
so `{0: off}` maps 0 to "off"; a config given as data without them must quote those names.
Nothing here guesses: a name that is no text, a number as a name, a name used twice, a raw
value the register cannot hold, are each an error naming the entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hermesd.config.model import MapEntry, ValueKind
from hermesd.config.reader import Section, blank, describe, folded

#: a name that reads as a number would be taken for a raw value ("set mode to 1")
_NUMBERLIKE = re.compile(r"[-+]?(?:\d[\d_]*\.?\d*|\.\d+)(?:e[-+]?\d+)?", re.IGNORECASE)
MAX_ENTRIES = 256  # a map is a choice people make, not a table of every register value
MAX_NAME = 64
_TRUE = ("1", "true", "on")
_FALSE = ("0", "false", "off")


def read_map(s: Section, kind: ValueKind, lo: float | None, hi: float | None,
             name_language: re.Pattern[str]) -> tuple[MapEntry, ...]:
    """The point's value map (empty without `map`); `kind` is what its driver reads (only
    whole numbers and bools map), `lo`..`hi` the raw range its type holds."""
    raw_map = s.raw("map", None)
    if raw_map is None:
        return ()
    where = s.at("map")
    if not isinstance(raw_map, Mapping) or not raw_map:
        s.problem("map", f"expected raw values and their names ({{0: off, 1: auto}}), got "
                         f"{describe(raw_map)}")
        return ()
    if kind not in ("int", "bool"):
        s.problem("map", f"only whole-number or on/off points map values to names; this one "
                         f"reads {'text' if kind == 'string' else 'fractional numbers (a scale or offset)'}")
        return ()
    if len(raw_map) > MAX_ENTRIES:
        s.problem("map", f"has {len(raw_map)} entries; at most {MAX_ENTRIES}")
        return ()
    texts: Mapping[Any, str] = getattr(raw_map, "bool_texts", {})
    entries: list[MapEntry] = []
    seen_raw: dict[Any, Any] = {}
    seen_name: dict[str, tuple[Any, str]] = {}  # folded name -> (raw value, name as written)
    for key, value in raw_map.items():
        at = f"{where}.{key}"
        raw = _raw(key, kind)
        if raw is None:
            what = "0 or 1 (false or true)" if kind == "bool" else "a whole number"
            s.problems.add(at, f"a raw value of this point is {what}, not {describe(key)}")
            continue
        if kind == "int" and lo is not None and hi is not None and not lo <= raw <= hi:
            s.problems.add(at, f"{raw} cannot be held by this point's register "
                               f"({lo:g}..{hi:g})")
            continue
        if raw in seen_raw:
            s.problems.add(at, f"raw value {raw} is already mapped (as {seen_raw[raw]!r})")
            continue
        entry = _entry(s, at, raw, value, texts.get(key), name_language)
        if entry is None:
            continue
        for label in (entry.name, *entry.names.values()):
            # names that look alike (au<ZWJ>to, full-width ａｕｔｏ, Auto) are one to an operator
            said = folded(label)
            if said in seen_name and seen_name[said][0] != raw:
                other, written = seen_name[said]
                shown = "" if written == label else f" ({written!r})"
                s.problems.add(at, f"name {label!r} also names raw value {other}{shown}")
            seen_name.setdefault(said, (raw, label))
        seen_raw[raw] = entry.name
        entries.append(entry)
    return tuple(entries)


def _raw(key: Any, kind: ValueKind) -> int | bool | None:
    if kind == "bool":
        if isinstance(key, bool):
            return key
        if isinstance(key, int) and key in (0, 1):
            return bool(key)
        if isinstance(key, str) and key.casefold() in (*_TRUE, *_FALSE):
            return key.casefold() in _TRUE
        return None
    if isinstance(key, bool) or not isinstance(key, int):
        return None
    return key


def _entry(s: Section, at: str, raw: int | bool, value: Any, written: str | None,
           name_language: re.Pattern[str]) -> MapEntry | None:
    names: dict[str, str] = {}
    if isinstance(value, Mapping):
        entry = Section(s.problems, at, value)
        name = _name(s, f"{at}.name", entry.raw("name", None, required=True),
                     getattr(value, "bool_texts", {}).get("name"))
        langs = entry.section("names")
        for lang, text in langs.mapping_items():
            langs.known.add(lang)
            if not name_language.fullmatch(lang):
                langs.problem(lang, "is not a language code such as zh, de or pt-BR")
                continue
            local = _name(s, langs.at(lang), text, None)
            if local is not None:
                names[lang] = local
        entry.finish()
    else:
        name = _name(s, at, value, written)
    if name is None:
        return None
    return MapEntry(raw=raw, name=name, names=MappingProxyType(names))


def _name(s: Section, at: str, value: Any, written: str | None) -> str | None:
    if isinstance(value, bool) and written is not None:
        value = written  # `0: off` as written, not YAML 1.1's false
    if isinstance(value, bool):
        s.problems.add(at, f"{describe(value)} is no name: YAML reads a bare off/on/yes/no as a "
                           "boolean; quote the name (\"off\")")
        return None
    if not isinstance(value, str) or blank(value):
        s.problems.add(at, f"expected a name, got {describe(value)}")
        return None
    name = " ".join(value.split())
    if _NUMBERLIKE.fullmatch(name):
        s.problems.add(at, f"{name!r} reads as a number; a name must be words (a raw value "
                           "is written as the key)")
        return None
    if len(name) > MAX_NAME:
        s.problems.add(at, f"is {len(name)} characters; at most {MAX_NAME}")
        return None
    return name
