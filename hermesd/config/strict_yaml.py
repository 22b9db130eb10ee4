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

#: the longest whole number a config may write (digits, with a sign, 0x, _ or base-60 colons):
#: no setting takes more, and a number of thousands of digits cannot even be converted
MAX_INT_TEXT = 40


def _construct_int(loader: _StrictLoader, node: yaml.ScalarNode) -> Any:
    """A whole number, unless it is written longer than `MAX_INT_TEXT` characters."""
    if len(node.value) > MAX_INT_TEXT:
        raise yaml.constructor.ConstructorError(
            None, None, f"a whole number written in {len(node.value)} characters: no setting "
            f"takes one longer than {MAX_INT_TEXT}", node.start_mark)
    return loader.construct_yaml_int(node)


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


#: how many values aliases (`*name`) may add to what the file writes out: a shared block reused
#: for hundreds of points is fine, "a billion laughs" (aliases of aliases, 10^10 values from
#: 1 KB) is refused before anything is built from it
MAX_ALIASED = 50_000


def load(text: str) -> Any:
    """The document in `text`; yaml.YAMLError (with its mark) for bad YAML, a duplicate key,
    nesting too deep to read, an alias that contains itself, or aliases that multiply the file
    past `MAX_ALIASED` values."""
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_aliases(node)
        return loader.construct_document(node)
    except RecursionError:
        raise yaml.YAMLError("blocks nested too deeply (thousands of [ or { inside each "
                             "other)") from None
    finally:
        loader.dispose()


def _check_aliases(root: yaml.Node) -> None:
    """Count the values the document stands for with every alias expanded (each node once, by
    memo, without recursion: nesting may be deep), and refuse a node that contains itself."""
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            continue
        if key in size:
            continue
        if key in on_path:
            raise yaml.constructor.ConstructorError(
                None, None, "an alias refers to a block that contains it: the value would "
                "never end", node.start_mark)
        on_path.add(key)
        stack.append((node, True))
        for child in children:
            if id(child) in on_path:
                raise yaml.constructor.ConstructorError(
                    None, None, "an alias refers to a block that contains it: the value would "
                    "never end", child.start_mark)
            if id(child) not in size:
                stack.append((child, False))
    written = len(size)
    if size[id(root)] - written > MAX_ALIASED:
        raise yaml.constructor.ConstructorError(
            None, None, f"aliases (*name) expand this file to {size[id(root)]:,} values, "
                        f"{written:,} written: more than {MAX_ALIASED:,} repeated values is no "
                        "config but a bomb", root.start_mark)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
