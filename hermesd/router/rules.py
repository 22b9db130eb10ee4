"""The deterministic rule stage of routing: places everyday commands in well under a millisecond.

It matches point ids, names and aliases against the normalised command, finds the verb (read,
set, on/off, open/close, start/stop, raise/lower) and the value, and answers only when it is
sure: one point clearly ahead of the others, a value where a write needs one. Everything else is
handed on (`None`) to the next stage. It knows nothing of any particular plant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hermesd.answer import Action, respond
from hermesd.config.model import Intent, Point
from hermesd.router.normalize import Token, content, tokens

WRITE_VERBS = frozenset("""
    set change adjust make put raise lower increase decrease reduce bump slow drop boost
    write turn switch open close start stop enable disable activate deactivate shut
""".split())
ON_WORDS = frozenset("on open start enable activate up".split())
OFF_WORDS = frozenset("off close shut stop disable deactivate".split())
QUESTION_START = frozenset("is are was does do did has have can whats what's what how which "
                           "tell show read get check".split())
YES_NO_START = frozenset("is are was does do did has have".split())
GREETINGS = frozenset("hello hi hey morning afternoon evening greetings".split())
THANKS = frozenset("thanks thank thx cheers".split())
MIN_SCORE = 0.6
MIN_MARGIN = 0.15
LONE_MIN_SCORE = 0.3


@dataclass(frozen=True, slots=True)
class Label:
    point: str
    toks: tuple[Token, ...]
    weight: float

    @property
    def numbers(self) -> set[str]:
        return {t.text for t in self.toks if t.is_number}


@dataclass(frozen=True, slots=True)
class Placement:
    action: Action
    score: float  # how sure the rules are (0..1)
    candidates: tuple[str, ...] = ()  # other points that were close, best first


class RuleRouter:
    def __init__(self, points: list[Point], intents: tuple[Intent, ...] = ()) -> None:
        self.points = {p.id: p for p in points}
        self.labels: list[Label] = []
        self.numbered: set[tuple[str, str]] = set()  # ("boiler", "3"): numbered things we have
        for p in points:
            for text in (p.id, p.name, *p.aliases):
                toks = tuple(content(tokens(text)))
                if toks:
                    weight = sum(2.0 if t.is_number else 1.0 for t in toks)
                    self.labels.append(Label(p.id, toks, weight))
                    for i, t in enumerate(toks[:-1]):
                        if toks[i + 1].is_number and not t.is_number:
                            self.numbered.add((t.text, toks[i + 1].text))
        self.families = {word for word, _ in self.numbered}  # "boiler", "pump": numbered words
        self.intents = {" ".join(t.text for t in tokens(phrase)): intent
                        for intent in intents for phrase in intent.phrases}

    def place(self, text: str) -> Placement | None:
        toks = tokens(text)
        if not toks:
            return Placement(respond("not_understood"), 1.0)
        key = " ".join(t.text for t in toks)
        intent = self.intents.get(key)
        if intent is not None:
            return Placement(_intent_action(intent), 1.0)
        words = {t.raw for t in toks}
        first = toks[0].raw
        unknown = self._unknown_numbered(toks)
        if unknown:
            return Placement(respond("unknown_point", asked=unknown), 0.9)
        scored = self._score(toks)
        if not scored:
            if words & GREETINGS or ({"who", "you"} <= words):
                return Placement(respond("greeting"), 1.0)
            if words & THANKS:
                return Placement(respond("thanks"), 1.0)
            return None

        wants_write = bool(words & WRITE_VERBS) and first not in YES_NO_START
        if wants_write:
            writable = [(s, p) for s, p in scored if self.points[p].writable]
            if writable:
                scored = writable
        else:
            scored = self._prefer_kind(scored, yes_no=first in YES_NO_START)
        best_score, best = scored[0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        others = tuple(p for _, p in scored[1:4])
        # one point alone shares words with the command: low coverage is still unambiguous
        floor = LONE_MIN_SCORE if len(scored) == 1 else MIN_SCORE
        if best_score < floor or best_score - second < MIN_MARGIN:
            return None
        point = self.points[best]
        if not wants_write:
            return Placement(Action("read", {"point": best}), best_score, others)
        value = self._value(toks, point, words)
        if value is None:
            return None
        return Placement(Action("write", {"point": best, "value": value}), best_score, others)

    # -- matching ---------------------------------------------------------------------------

    def _score(self, toks: list[Token]) -> list[tuple[float, str]]:
        text = {t.text for t in content(toks)}
        numbers = {t.text for t in toks if t.is_number}
        best: dict[str, float] = {}
        for label in self.labels:
            matched = sum(2.0 if t.is_number else 1.0 for t in label.toks if t.text in text)
            words_matched = sum(1 for t in label.toks if not t.is_number and t.text in text)
            if not words_matched:
                continue
            missing_numbers = label.numbers - numbers
            if missing_numbers and numbers - self._value_numbers(toks):
                continue  # the text names another number ("boiler 7" is not "boiler 1")
            score = matched / label.weight
            if missing_numbers:
                score *= 0.8
            if score > best.get(label.point, 0.0):
                best[label.point] = score
        return sorted(((s, p) for p, s in best.items()), key=lambda sp: (-sp[0], sp[1]))

    @staticmethod
    def _value_numbers(toks: list[Token]) -> set[str]:
        """Numbers that look like a value to set (after "to", or the last of several)."""
        out = set()
        for i, t in enumerate(toks):
            if t.is_number and i > 0 and toks[i - 1].raw in ("to", "at", "by"):
                out.add(t.text)
        return out

    def _prefer_kind(self, scored: list[tuple[float, str]], *, yes_no: bool) -> list[tuple[float, str]]:
        """Among equally good matches, a yes/no question wants an on/off point, others a number."""
        top = scored[0][0]
        tied = [(s, p) for s, p in scored if top - s < MIN_MARGIN]
        if len(tied) < 2:
            return scored
        fits = [(s, p) for s, p in tied if (self.points[p].kind == "bool") == yes_no]
        if len(fits) == 1:
            rest = [(s, p) for s, p in scored if p != fits[0][1]]
            return [(top + 2 * MIN_MARGIN, fits[0][1]), *rest]
        return scored

    def _unknown_numbered(self, toks: list[Token]) -> str | None:
        """ "boiler 7" when there are boilers but no boiler 7: an unknown point, not a guess."""
        values = self._value_numbers(toks)
        for i, t in enumerate(toks[:-1]):
            nxt = toks[i + 1]
            if t.text in self.families and nxt.is_number and nxt.text not in values \
                    and (t.text, nxt.text) not in self.numbered:
                return f"{t.raw} {nxt.raw}"
        return None

    def _value(self, toks: list[Token], point: Point, words: set[str]) -> Any:
        if point.kind == "bool":
            on, off = bool(words & ON_WORDS), bool(words & OFF_WORDS)
            if on == off:
                return None
            return on
        label_numbers: set[str] = set()
        for label in self.labels:
            if label.point == point.id:
                label_numbers |= label.numbers
        numbers = [t for t in toks if t.is_number]
        after_to = [t for i, t in enumerate(toks) if t.is_number and i > 0
                    and toks[i - 1].raw in ("to", "at")]
        candidates = after_to or [t for t in numbers if t.text not in label_numbers]
        if len(candidates) == 1 and candidates[0].number is not None:
            number = candidates[0].number
            return int(number) if number == int(number) else number
        stopping = bool(words & {"stop", "shut", "off"}) and (point.min is None or point.min <= 0)
        if (not numbers or not candidates) and stopping:
            return 0  # "stop pump 1": its speed to zero
        return None


def _intent_action(intent: Intent) -> Action:
    if intent.action == "respond":
        return respond("intent", text=intent.reply, intent=intent.name)
    args: dict[str, Any] = {"point": intent.point}
    if intent.action == "write":
        args["value"] = intent.value
    return Action(intent.action, args)
