"""Opposite words that tell things apart: heat and cool, fast and slow, full and empty.

The vocabulary folds each pair into one quantity ("how hot", "how cold": a temperature), as a
question about a reading should. In a name they tell two things apart: "AHU 1 heat enable" and
"AHU 1 cool enable", the slow and the fast fill valve, the full and the empty bottle conveyor.
A point whose names say one pole of a pair is not what a command means that says only the
other ("turn on AHU 1 cool" never switches the heating on), whatever else they share.

A pole word the command says of the reading, not of a thing ("how hot", "too warm", 多热), says
no pole: every temperature is one of "how hot is the chilled water".
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from hermesd.config.model import Point
from hermesd.router.choices import verb_forms
from hermesd.router.normalize import Token, tokens
from hermesd.value_maps import spellings

#: pairs of opposite words a name tells things apart by: pair -> (one pole, the other);
#: English words as written (lower case), Chinese ones as characters a word holds
POLES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "heat": (frozenset("hot heat heated heating heater warm 热 暖".split()),
             frozenset("cold cool cooled cooling chill chilled chilly 冷 凉".split())),
    "pace": (frozenset("fast quick rapid 快".split()),
             frozenset("slow creep crawl inch 慢".split())),
    "fill": (frozenset("full 满".split()), frozenset("empty".split())),
    # what a level or a time starts or stops: "duty start SP" is no "duty stop SP" (blind
    # batch 35; of a number only, see `point_poles`)
    "start": (frozenset("start starting 启".split()), frozenset("stop stopping 停".split())),
    # which side of a thing: "dryer exhaust air temp" is no "Dryer inlet air temperature"
    # ("supply" and "return" are no sides: a chiller's supply leaves it)
    "side": (frozenset("inlet intake entering incoming entry suction upstream inflow".split()),
             frozenset("outlet exit exhaust leaving outgoing discharge downstream outflow"
                       .split())),
}
#: Chinese words of a side the vocabulary leaves in characters (进水, 出口 are read as "inlet
#: water", "outlet"): 烘干机出风温度 is no 烘干机进风温度 (blind batch 30)
_SIDE_ZH = {"进风": "side+", "入风": "side+", "进气": "side+", "进料": "side+",
            "出风": "side-", "排风": "side-", "出气": "side-", "排气": "side-", "出料": "side-"}
#: words before a pole word that make it a question or a judgement of the reading ("how hot",
#: "too cold", "running hot"), which names no pole
_ASKED = frozenset("how too so very quite getting gets get running run is are it's was".split())
#: Chinese words holding a pole's character that say no pole: 多热 (how hot), 太冷 (too cold)
_ASKED_ZH = ("多", "太", "很", "好", "够", "有点", "过")


def _poles_of(t: Token) -> set[str]:
    """The poles a word says: "heat+", "heat-"."""
    found = set()
    for pair, (plus, minus) in POLES.items():
        for sign, words in (("+", plus), ("-", minus)):
            if t.raw in words or (t.zh and t.written
                                  and any(c in t.written for c in words if len(c) == 1
                                          and not c.isascii())):
                found.add(pair + sign)
    return found


def said_poles(toks: list[Token], choices: frozenset[str] = frozenset()) -> frozenset[str]:
    """The poles a command says of a thing (not of a reading: "how hot", "too cold"; nor the
    value it sets, a word of `choices`: "set heat pump 1 to cool")."""
    found: set[str] = set()
    for i, t in enumerate(toks):
        if t.raw in choices or t.text in choices:
            continue
        poles = _poles_of(t)
        if not poles:
            continue
        before = toks[i - 1] if i else None
        if before is not None and (before.raw in _ASKED or (
                before.zh and before.written.endswith(_ASKED_ZH))):
            continue
        if t.zh and t.written.startswith(_ASKED_ZH):
            continue
        following = toks[i + 1] if i + 1 < len(toks) else None
        if following is not None and following.raw == "enough":
            continue  # "is the freezer cold enough"
        found |= poles
    return frozenset(found | _sides_zh(toks))


def _sides_zh(toks: list[Token]) -> set[str]:
    """The sides two Chinese characters in a row say (进风, 出料)."""
    return {_SIDE_ZH[pair] for a, b in pairwise(toks)
            if a.zh and b.zh and (pair := a.raw + b.raw) in _SIDE_ZH}


def name_poles(texts: Iterable[str]) -> frozenset[str]:
    """The poles a point's names say (every name, alias and localized name)."""
    return frozenset(p for text in texts for toks in (tokens(text),)
                     for p in {q for t in toks for q in _poles_of(t)} | _sides_zh(toks))


def point_poles(point: Point) -> frozenset[str]:
    poles = name_poles((point.name, *point.aliases, *point.names.values()))
    # (an on/off point named by starting or stopping is a button or a state, which the rules
    # weigh as such: "stop pump 1" is no press of "Start pump 1", nor a reason to pass it by)
    return frozenset(p for p in poles if p[:-1] != "start") if point.kind == "bool" else poles


def opposed(named: frozenset[str], said: frozenset[str]) -> tuple[str, ...]:
    """The pairs on which a name says one pole and a command only the other: () when none."""
    return tuple(sorted(pair for pair in POLES
                        if (n := {p for p in named if p[:-1] == pair})
                        and (s := {p for p in said if p[:-1] == pair}) and not n & s))


def opposite_words(toks: list[Token], pairs: tuple[str, ...]) -> tuple[str, ...]:
    """The command's words that say the other pole, as written (for the reply)."""
    return tuple(t.shown for t in toks if any(p[:-1] in pairs for p in _poles_of(t)))


def choice_words(point: Point) -> frozenset[str]:
    """The words of a point's choices, in every spelling ("cool", "cooling")."""
    if not point.choices:
        return frozenset()
    return frozenset(f for _, spelled in spellings(point) for t in tokens(spelled)
                     for w in (t.raw, t.text) for f in (w, *verb_forms(w)))  # ("cooling")
