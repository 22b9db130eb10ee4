"""Every `respond` action hermesd can answer keeps `args.reason` in the fixed set the README
lists (DESIGN: "respond keeps args.reason in its fixed set"): found in the source, so a new
door or stage that makes up a reason of its own fails here."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

from hermesd.answer import RespondReason

ROOT = Path(__file__).resolve().parents[1]


def documented() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = re.search(r"`args\.reason` is one of (.*?);", readme, re.S)
    assert sentence, "README no longer lists respond's reasons"
    return set(re.findall(r"`(\w+)`", sentence.group(1)))


def reasons_in_source() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = []
    for path in (ROOT / "hermesd").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            if name == "respond" and isinstance(first, ast.Constant):
                found.append((f"{path.name}:{node.lineno}", first.value))
            elif name == "Action" and isinstance(first, ast.Constant) \
                    and first.value == "respond" and len(node.args) > 1 \
                    and isinstance(node.args[1], ast.Dict):
                for key, value in zip(node.args[1].keys, node.args[1].values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "reason" \
                            and isinstance(value, ast.Constant):
                        found.append((f"{path.name}:{node.lineno}", value.value))
    return found


def test_the_typed_reasons_are_the_documented_ones() -> None:
    assert set(typing.get_args(RespondReason)) == documented()


def test_every_reason_the_source_answers_is_documented() -> None:
    found = reasons_in_source()
    assert len(found) > 5, found  # the walk finds the places it checks
    allowed = documented()
    assert [(where, r) for where, r in found if r not in allowed] == []
