"""The GBNF grammar that constrains the model to well-formed actions over real points.

Built per command from the registry and the rules' analysis: `read` names only points that
exist (narrowed to the likely candidates when the command shares words with some), `write`
names only writable ones and only with a value the command itself gives (a number it contains,
on/off from its words) — so the model picks, it never invents a point or a value — and `respond`
carries a reason from the fixed set. Every alternative is a literal; there is no free text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hermesd.router.prompt import REASONS


@dataclass(frozen=True)
class Choice:
    """One action the grammar admits, as the model writes it and as the router means it."""

    line: str  # "write pump1_speed 900"
    name: str  # read | write | respond
    args: dict[str, Any] = field(default_factory=dict)


def show_value(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


def choices(reads: Iterable[str], writes: Iterable[tuple[str, Any]],
            reasons: Iterable[str] = REASONS) -> list[Choice]:
    out = [Choice(f"read {p}", "read", {"point": p}) for p in reads]
    out += [Choice(f"write {p} {show_value(v)}", "write", {"point": p, "value": v})
            for p, v in writes]
    out += [Choice(f"respond {r}", "respond", {"reason": r}) for r in reasons]
    return out


def gbnf(options: list[Choice]) -> str:
    """root ::= one of the literal lines, grouped by action so the first token decides it."""
    by_action: dict[str, list[str]] = {}
    for choice in options:
        verb, _, rest = choice.line.partition(" ")
        by_action.setdefault(verb, []).append(rest)
    rules = []
    names = []
    for verb, rests in by_action.items():
        names.append(verb)
        alts = " | ".join(_literal(r) for r in dict.fromkeys(rests))
        rules.append(f"{verb} ::= {_literal(verb + ' ')} ({alts})")
    return "root ::= " + " | ".join(names) + "\n" + "\n".join(rules) + "\n"


def _literal(text: str) -> str:
    # JSON string escaping is valid GBNF literal escaping for the characters we emit
    return json.dumps(text, ensure_ascii=False)
