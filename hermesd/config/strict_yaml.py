"""The YAML every config and profile file is read with: PyYAML's safe loader, except that a
key written twice in one mapping is an error (not the last one kept, silently), and the words
of values YAML 1.1 takes for booleans are kept beside them (`YamlMapping.bool_texts`), so a
value map may name a state `off`."""

from __future__ import annotations

import re
from typing import Any

import yaml


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate keys instead of keeping the last one."""


class YamlMapping(dict[Any, Any]):
    """A mapping as the file wrote it: `bool_texts` keeps the words of values YAML 1.1 took
    for booleans (`0: off` is {0: False}; a value map needs the word "off" back)."""

    bool_texts: dict[Any, str]


_BOOL_TAG = "tag:yaml.org,2002:bool"


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: dict[Any, int] = {}
    texts: dict[Any, str] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if isinstance(key, list | dict):
            continue
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key] + 1})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line
        if isinstance(value_node, yaml.ScalarNode) and value_node.tag == _BOOL_TAG \
                and not value_node.style:
            texts[key] = value_node.value
    mapping = YamlMapping(loader.construct_mapping(node, deep=deep))
    mapping.bool_texts = texts
    return mapping


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _construct_text(loader: _StrictLoader, node: yaml.ScalarNode) -> Any:
    """A string, unless an escape made it hold a surrogate ("\\ud800"): no UTF-8 can carry
    it, so nothing downstream (a tool's configure frame, a topic, a log) could; or a NUL
    ("\\0", "\\x00"), which no path, topic, command argument or C string can hold."""
    text = loader.construct_yaml_str(node)
    if _SURROGATE.search(text):
        raise yaml.constructor.ConstructorError(
            None, None, "a \\uD800-\\uDFFF escape is half of a character, not text (write "
            "a character beyond U+FFFF as \\U0001F600 or as itself)", node.start_mark)
    if "\x00" in text:
        raise yaml.constructor.ConstructorError(
            None, None, "a NUL character (\\0) is not text: no path, topic or name can hold "
            "it", node.start_mark)
    return text


_StrictLoader.add_constructor("tag:yaml.org,2002:str", _construct_text)


def load(text: str) -> Any:
    """The document in `text`; yaml.YAMLError (with its mark) for bad YAML or a duplicate key."""
    return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
