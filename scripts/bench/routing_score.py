"""The scoring rule of the routing benchmark (shared/data/eval/README.md), one command at a time.

Pure functions over an action in its `to_dict` shape (`{"name", "args"}`) and a command's
`expect`; nothing here routes or reads a file. A verdict is right or wrong, and a wrong one is
*confidently* wrong when the router acted (a read, a write or any other action) where it should
have done something else; a respond where an action was expected is wrong but not confident.
It never judges policy: a refused write counts as the write it names (`args.refused`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

TOLERANCE = 1e-6  # numbers within this are the same value
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")


@dataclass(frozen=True)
class Verdict:
    right: bool
    confident: bool = False  # wrong, and the router acted on it
    why: str = ""  # what was wrong (or "refused" for a right write that policy refused)

    @property
    def confidently_wrong(self) -> bool:
        return not self.right and self.confident


def category(expect: Mapping[str, Any]) -> str:
    """read | write | respond: what the command asks for."""
    return str(expect["action"])


def language(text: str) -> str:
    """zh when the command has a CJK character, else en."""
    return "zh" if CJK.search(text) else "en"


def same_value(got: Any, want: Any) -> bool:
    """Booleans exactly; numbers within TOLERANCE (a boolean is not a number here); else equal."""
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(got, bool) and isinstance(want, bool) and got == want
    if isinstance(want, int | float):
        return (isinstance(got, int | float) and math.isfinite(got)
                and abs(got - want) <= TOLERANCE)
    return bool(got == want)


def _points(args: Mapping[str, Any]) -> list[Any]:
    """The points an action names: `point`, or a several-point read's `points`."""
    if "points" in args and isinstance(args["points"], list):
        return list(args["points"])
    return [args.get("point")]


def _refused_write(args: Mapping[str, Any]) -> Mapping[str, Any] | None:
    refused = args.get("refused")
    if isinstance(refused, Mapping) and refused.get("name") == "write":
        inner = refused.get("args")
        return inner if isinstance(inner, Mapping) else None
    return None


def score(action: Mapping[str, Any] | None, expect: Mapping[str, Any]) -> Verdict:
    """The verdict on `action` (None: the router failed, e.g. a timeout) for `expect`."""
    if action is None:
        return Verdict(False, why="no action (error)")
    name = action.get("name")
    args = action.get("args") or {}
    want = expect["action"]
    if name == "respond":
        if want == "respond":
            return Verdict(True)
        refused = _refused_write(args)
        if want == "write" and refused is not None:
            if refused.get("point") == expect["point"] and "value" in refused and same_value(
                    refused["value"], expect["value"]):
                return Verdict(True, why="refused")
            return Verdict(False, why="refused another write")
        return Verdict(False, why=f"respond {args.get('reason', '?')}")
    # an action: every wrong one from here on is confidently wrong
    if want == "respond":
        return Verdict(False, True, f"{name} where respond was expected")
    if name != want:
        return Verdict(False, True, f"{name} where {want} was expected")
    # a read of several points (the development plants' `points`) names them all, in order
    if _points(args) != (list(expect["points"]) if "points" in expect else [expect["point"]]):
        return Verdict(False, True, "wrong point")
    if want == "write" and not ("value" in args and same_value(args["value"], expect["value"])):
        return Verdict(False, True, "wrong value")
    return Verdict(True)
