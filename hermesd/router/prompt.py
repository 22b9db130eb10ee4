"""The model's prompt, built from the live point registry: a stable prefix and a short suffix.

The prefix (instructions, the point catalogue, a few examples made from the config's own points)
is the same for every command, so the worker evaluates it once and reuses that state; only the
suffix (the command and the chat markup around it) is evaluated per command. It is rebuilt from
each (re)loaded config. Prompts are lists of parts: our own ChatML markup, and text, which the
worker tokenizes with special tokens disabled — so neither a command nor a point name can close
a turn or open a system message. Live values (which MQTT payloads could shape) never enter it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hermesd.config.model import Point
from hermesd.router.normalize import content, tokens
from hermesd.router.tags import tag_described

SYSTEM = "<|im_start|>system\n"
USER = "<|im_start|>user\n"
ASSISTANT = "<|im_start|>assistant\n"
END = "<|im_end|>\n"
REASONS = ("greeting", "not_understood", "unknown_point", "not_allowed", "out_of_scope")
MAX_CATALOGUE = 120  # points listed in the prefix; beyond, the grammar alone names them
MAX_ABOUT = 90  # characters of a point's description in the catalogue

INSTRUCTIONS = """\
You map an operator's command (English or Chinese) to exactly one action on this plant.
Points (id: name, unit, whether it can be set, what it is):
{catalogue}
Answer with one line:
read <point id>
write <point id> <value>
respond <reason>
Reasons: greeting, not_understood, unknown_point (a thing this plant does not have), \
not_allowed (destructive or against the rules), out_of_scope (not about these points).
Use only the point ids above. Values: numbers as digits, on/off for switches."""


@dataclass(frozen=True)
class Prompt:
    prefix: tuple[dict[str, Any], ...]
    examples: int

    def suffix(self, text: str) -> list[dict[str, Any]]:
        return [{"text": text}, {"text": END + ASSISTANT, "markup": True}]


def describe(point: Point, *, about: int = MAX_ABOUT, names: int = 3) -> str:
    bits = []
    if point.kind == "bool":
        bits.append("on/off")
    elif point.unit:
        bits.append(point.unit)
    if point.writable:
        if point.min is not None and point.max is not None:
            bits.append(f"settable {point.min:g}..{point.max:g}")
        else:
            bits.append("settable")
    else:
        bits.append("read-only")
    others = [*point.aliases[:3], *list(point.names.values())[:2]][:names]
    own = point.name
    if about < MAX_ABOUT and (said := tag_described(point)):
        own = said  # a shortened catalogue lists a code-named point by what it is
        # ("Absorber 2 lean amine inlet temperature", not "10HTC20CT001"): its id is its code
    name = " / ".join((own, *others))
    text = f"{point.id}: {name} ({', '.join(bits)})"
    if point.description and about:
        said = point.description if len(point.description) <= about else \
            point.description[:about - 3].rsplit(" ", 1)[0] + "..."
        text += f" - {said}"
    return text


def build(points: Iterable[Point], *, examples: bool = True, about: int = MAX_ABOUT,
          names: int = 3, listed: int = MAX_CATALOGUE) -> Prompt:
    """The prefix: instructions, the catalogue of the first `listed` points (each with up to
    `names` other names and `about` characters of its description), and examples."""
    pts = list(points)
    catalogue = "\n".join(describe(p, about=about, names=names) for p in pts[:listed])
    parts: list[dict[str, Any]] = [
        {"text": SYSTEM, "markup": True},
        {"text": INSTRUCTIONS.format(catalogue=catalogue)},
        {"text": END, "markup": True}]
    shots = few_shot(pts) if examples else []
    for question, answer in shots:
        parts += [{"text": USER, "markup": True}, {"text": question},
                  {"text": END + ASSISTANT, "markup": True}, {"text": answer},
                  {"text": END, "markup": True}]
    parts.append({"text": USER, "markup": True})
    return Prompt(tuple(parts), len(shots))


def shorter(points: Iterable[Point]) -> list[tuple[str, Prompt]]:
    """Shorter prefixes than `build`'s, each with what it leaves out, tersest last: for a
    model context (`llm.context`) the full one does not fit. The worker prepares the first
    that fits, and says which; the grammar names every point whatever the catalogue lists."""
    pts = list(points)
    out = [("descriptions cut to 40 characters", build(pts, about=40)),
           ("descriptions cut to 40 characters, one other name each",
            build(pts, about=40, names=1)),
           ("no descriptions, one other name each", build(pts, about=0, names=1)),
           ("no descriptions, no other names", build(pts, about=0, names=0))]
    listed = min(len(pts), MAX_CATALOGUE) // 2
    while listed >= 8:
        out.append((f"only the first {listed} points, by name",
                    build(pts, about=0, names=0, listed=listed)))
        listed //= 2
    return out


def few_shot(points: list[Point], unknown_example: bool = False) -> list[tuple[str, str]]:
    """Examples made from this config's own points (none are fitted to any plant)."""
    shots: list[tuple[str, str]] = [("hello there", "respond greeting")]
    numeric = [p for p in points if p.kind in ("int", "float")]
    reads = [p for p in numeric if not p.writable] or numeric
    if reads:
        p = reads[len(reads) // 2]
        shots.append((f"what's the {p.name.lower()} now", f"read {p.id}"))
    shots.append(("what is the weather in Paris", "respond out_of_scope"))
    settable = [p for p in numeric if p.writable and p.min is not None and p.max is not None]
    if settable:
        p = settable[0]
        assert p.min is not None and p.max is not None
        value = _round_between(p.min, p.max)
        shots.append((f"please set {p.name.lower()} to {value:g}", f"write {p.id} {value:g}"))
    if unknown_example:
        unknown = _unknown_thing(points)
        if unknown:
            shots.append((f"read {unknown}", "respond unknown_point"))
    switches = [p for p in points if p.kind == "bool" and p.writable]
    if switches:
        p = switches[-1]
        shots.append((f"switch {p.name.lower()} off", f"write {p.id} off"))
    flags = [p for p in points if p.kind == "bool" and not p.writable]
    if flags:
        p = flags[0]
        shots.append((f"is {p.name.lower()} on?", f"read {p.id}"))
    return shots



def _round_between(lo: float, hi: float) -> float:
    mid = lo + (hi - lo) * 0.4
    step = 10 ** max(0, len(str(int(abs(mid)))) - 2)
    return float(round(mid / step) * step)


def _unknown_thing(points: list[Point]) -> str | None:
    """ "pump 9" where the plant has pumps but no pump 9: an example of unknown_point."""
    for p in points:
        toks = content(tokens(p.name))
        for i, t in enumerate(toks[:-1]):
            nxt = toks[i + 1]
            if not t.is_id and nxt.number is not None:
                rest = " ".join(x.raw for x in toks if x is not t and x is not nxt)
                taken = {_num(x) for q in points for x in tokens(q.name) if x.number is not None}
                n = next(n for n in range(9, 100) if n not in taken)
                return f"{t.raw} {n} {rest}".strip()
    return None


def _num(t: Any) -> int:
    return int(t.number)
