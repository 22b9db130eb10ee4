"""The last check before a write that words asked for, whichever stage placed it.

The rules, the semantic stage and the model each propose; this gate asks one question of the
words alone: do they plainly ask, now, for this one value on this one point? It is kept apart
from the stages so that none of them can talk its way past it, and it is deliberately simple:

- **one value, stated**: the numbers of the command that do not name the point ("pump 1") must
  be exactly one, equal to the value written; an on/off point needs its on or off word (or 1/0)
  and no other number; a choice must be named. Nothing unreadable, no ordinal or number that
  names some other thing ("pump 2" is no value for pump 1).
- **now, and meant**: no condition, time or deferral ("if", "when", "at 5 pm", "in 10
  minutes", "tomorrow", "如果", "明天", "5点"), no question ("should I", "?", "吗", "谁"), no
  negation ("don't", "不要"), no statement of a state ("valve 2 is open", "2号阀打开了").
- **exact**: no approximation or bound ("about", "at least", "~", "一千多", "1000以上"), no
  change by an amount ("by 100", "raise 100"), no fraction word.
- **one target**: no plural or second target ("all", "both", "valves", "and", "所有", "和").
- **its unit**: every unit the command names is the point's own ("°F" is no value for a °C
  point, "%" none for rpm).

The words of the point's own names are never held against it ("After-cooler fan" may say
"after"). Intents of the config are the plant's own phrases and do not come here. A doubt is
answered with a question back naming the words; nothing is sent to any device.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hermesd.answer import Action, respond
from hermesd.config.model import Point
from hermesd.replies import gate_question, is_chinese, printable
from hermesd.router.concepts import lexicon
from hermesd.router.normalize import Token, tokens, unit_symbol
from hermesd.router.numbers import Number, exact, is_cjk
from hermesd.router.vocabulary import OFF_WORDS, ON_WORDS, ZH_WORDS

#: the problems, in the order they are looked for (the first found is answered)
PROBLEMS = ("unreadable", "negation", "correction", "when", "question", "approximate", "relative",
            "several_targets", "unit", "other_thing", "several", "not_stated")

_NEGATION = frozenset("not don't dont never no nothing neither nor without cancel undo abort "
                      "doesn't shouldn't won't wont isn't aren't".split())
_WHEN = frozenset("""
    if when whenever unless once after before until till then later soon tomorrow tonight
    today yesterday daily hourly weekly schedule scheduled every o'clock oclock am pm noon
    midnight morning evening afternoon night minute minutes second seconds hour hours day days
    week weeks sec secs mins hr hrs wait timer eventually
""".split())
_CORRECTION = frozenset("actually sorry instead rather oops nope correction mean meant scratch "
                        "oh hmm erm um uh".split())
_QUESTION = frozenset("""
    should shall may might must do does did is are was were am has have had been being what
    whats what's which who whom whose why how whether tell remind notify wonder think maybe
    perhaps suppose check see know
""".split())
#: "can/could/would/will you ..." is a request made politely, not a question
_POLITE = frozenset("can could would will".split())
_APPROXIMATE = frozenset("""
    about around approximately approx roughly nearly almost circa ca some ish least most more
    less over under above below beyond within between max maximum minimum upto greater
    fewer plus than something
""".split())
_RELATIVE = frozenset("""
    by increase decrease raise lower reduce bump boost drop slow add subtract double triple halve
    twice times step steps notch notches bit little faster slower hotter colder warmer cooler
    higher up down
""".split())
_FRACTIONS = frozenset("half halves third thirds quarter quarters fraction".split())
_SEVERAL = frozenset("""
    all every each both everything whole entire rest others other together also too and &
    plus respectively either or
""".split())
_TIME_UNITS = frozenset(("s", "min", "h", "ms", "d"))
#: the English words that make a write doubtful, by problem, in the order they are looked for
_EN = (("negation", _NEGATION), ("correction", _CORRECTION), ("when", _WHEN),
       ("question", _QUESTION | _POLITE), ("approximate", _APPROXIMATE | _FRACTIONS),
       ("relative", _RELATIVE), ("several_targets", _SEVERAL))

#: Chinese words that make a write doubtful, by problem (matched as whole segments)
_ZH = {
    "negation": "不 别 没 勿 莫 未 不要 不用 别再 取消",
    "when": "如果 假如 要是 若是 若 的话 一旦 只要 除非 直到 等到 之前 以前 以后 之后 然后 稍后 "
            "再 等会 等会儿 待会 明天 今天 今晚 晚上 早上 上午 下午 中午 凌晨 分钟 小时 秒钟 "
            "点钟 每天 每小时 定时 时候 后",
    "question": "吗 呢 么 什么 怎么 为什么 如何 是否 有没有 是不是 多少 几 谁 哪 哪个 应该 "
                "需要 提醒 告诉 通知 检查 看看",
    "approximate": "多 左右 大约 约 大概 差不多 以上 以下 上下 至少 最多 超过 不到 不超过 "
                   "低于 高于 大于 小于 之间 来",
    "relative": "增加 减少 提高 降低 调高 调低 升高 加 减 升 降 倍 一半 分之 半",
    "several_targets": "所有 全部 全都 都 每 每个 每台 各 各个 和 与 及 以及 跟 还有 同时 一起 "
                       "分别 或 或者 还是 、 其它 其他 别的 其余 剩下 也 两台 几台",
}
#: a change verb followed by one of these sets a value ("提高到1000" raises it to 1000)
_ZH_TO = ("到", "至", "为", "成")
_ZH_NUMERAL = frozenset("零〇一二三四五六七八九十百千万亿两0123456789")
_STATE_DONE = "了"  # "2号阀打开了": a state, unless "把" makes it a command ("把2号阀打开了")


@dataclass(frozen=True, slots=True)
class Doubt:
    """Why the words do not plainly ask for this write, and the words that say so."""

    problem: str
    words: tuple[str, ...]


def doubt(text: str, point: Point, value: Any) -> Doubt | None:
    """None when `text` plainly asks, now, for `value` on `point`; else why not."""
    own = _Own.of(point)
    toks = tokens(text)
    folded = unicodedata.normalize("NFKC", text).casefold()
    return (_unreadable(toks, own) or _english_words(toks, own) or _marks(text, folded, point.unit, own)
            or _chinese(folded, own) or _units(toks, own, point)
            or _value(toks, own, point, value))


def doubt_raw(text: str) -> Doubt | None:
    """For a raw register write ("set holding register 40011 on plc1 to 99"), whose numbers
    its own rule reads: None when the words ask for it now, plainly, once; else why not."""
    toks = tokens(text)
    folded = unicodedata.normalize("NFKC", text).casefold()
    return (_english_words(toks, _NOBODY) or _marks(text, folded, None, _NOBODY)
            or _chinese(folded, _NOBODY))


@dataclass(frozen=True, slots=True)
class _Own:
    """What the point's own names say: their words, numbers and Chinese text."""

    texts: frozenset[str]  # canonical words of its names
    raws: frozenset[str]  # as written
    numbers: frozenset[float]
    id_words: frozenset[str]  # words its names put before a number ("pump" of "pump 1")
    zh_names: tuple[str, ...]
    labels: tuple[str, ...]  # its names, case-folded

    @staticmethod
    def of(point: Point) -> _Own:
        return _own(point.id, point.device, point.name, tuple(point.aliases),
                    tuple(point.names.values()))


@lru_cache(maxsize=4096)
def _own(ident: str, device: str, name: str, aliases: tuple[str, ...],
         names: tuple[str, ...]) -> _Own:
    texts: set[str] = set()
    raws: set[str] = set()
    numbers: set[float] = set()
    id_words: set[str] = set()
    labels = (ident.replace("_", " "), device.replace("_", " "), name, *aliases, *names)
    for label in labels:
        toks = tokens(label)
        for i, t in enumerate(toks):
            if t.number is not None:
                numbers.add(float(t.number))
                numbers.update(float(g) for g in t.groups if g.isdigit())
                if i > 0 and toks[i - 1].number is None:
                    id_words.add(toks[i - 1].text)  # "pump" of "pump 1" (and of "1号泵")
            else:
                texts.add(t.text)
                raws.add(t.raw)
    zh_names = tuple(n.casefold() for n in labels if any(is_cjk(c) for c in n))
    return _Own(frozenset(texts), frozenset(raws), frozenset(numbers), frozenset(id_words),
                zh_names, tuple(unicodedata.normalize("NFKC", x).casefold() for x in labels))


_NOBODY = _Own(frozenset(), frozenset(), frozenset(), frozenset(), (), ())


def _mine(t: Token, own: _Own) -> bool:
    return t.number is None and t.text in own.texts and (t.raw in own.raws or not _plural(t))


def _plural(t: Token) -> bool:
    return t.raw != t.text and t.raw in (t.text + "s", t.text + "es")


def _unreadable(toks: list[Token], own: _Own) -> Doubt | None:
    odd = tuple(t.raw for t in toks if t.unreadable and t.text not in own.texts)
    return Doubt("unreadable", odd) if odd else None


def _english_words(toks: list[Token], own: _Own) -> Doubt | None:
    raw = [t.raw for t in toks]
    for i, t in enumerate(toks):
        if t.zh or t.number is not None or t.unit:
            continue
        if t.text in own.texts:
            if _plural(t) and t.raw not in own.raws and t.text in own.id_words:
                return Doubt("several_targets", (t.raw,))  # "valves" for valve 2 (of several)
            continue
        word = t.raw
        if word in _POLITE and raw[i + 1:i + 2] == ["you"] and raw[:i] in ([], ["please"]):
            continue  # "could you open valve 2": a request made politely
        problem = next((p for p, listed in _EN if word in listed), None)
        if t.text in ("?not",):
            problem = "negation"
        elif t.text in ("?yn", "who"):
            problem = "question"
        elif t.text == "?fix":
            problem = "correction"
        if problem == "relative" and word != "by" and (
                "to" in raw[i + 1:] or (word in ("up", "down") and not any(
                    x.number is not None for x in toks[i + 1:]))):
            continue  # "raise pump 1 to 1000": to a value; "shut the genset down": a particle
        if problem is not None:
            return Doubt(problem, (t.shown,))
    return None


_APPROX_MARKS = re.compile(r"[~≈±<>≤≥∼〜～]|\+/-|(?<![\w.])-?\d[\d.,]*\s*(?:ish|\+)(?!\w)")
_PERCENT = re.compile(r"%|％|\bper\s*cent\b|\bpercent\b|\bpct\b|百分之")
_GLUED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([a-z]+)(?![\w/])")
_ORDINAL_ENDS = frozenset(("st", "nd", "rd", "th"))
_DURATION = re.compile(r"(?<![\w.'’])\d+(?:\.\d+)?\s?(?:s|secs?|mins?|h|hrs?|ms|d)(?![\w/])")
_TIME = re.compile(r"\d{1,2}\s*:\s*\d{2}|\d\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])")


def _marks(text: str, folded: str, unit: str | None, own: _Own) -> Doubt | None:
    """What only the characters say: a question mark, an approximation, a percent sign."""
    mark = _APPROX_MARKS.search(folded)
    if mark:
        return Doubt("approximate", (mark.group(0).strip(),))
    time = _TIME.search(folded)
    if time is None and (unit_symbol(unit or "") or unit) not in _TIME_UNITS:
        time = _DURATION.search(folded)  # "in 10 s", "for 5 min", never the "s" of "2's"
    if time:
        return Doubt("when", (time.group(0),))
    stripped = folded.rstrip()
    if stripped.endswith("?") and not re.match(
            r"\s*(?:please\s+)?(?:can|could|would|will)\s+you\b", folded):
        return Doubt("question", (text.rstrip()[-1],))
    mine = unit_symbol(unit or "") or (unit or "").casefold()
    for glued in _GLUED.finditer(folded):  # "1aaa", "2a": no number a person means
        letters = glued.group(2)
        symbol = unit_symbol(letters)
        if letters in _ORDINAL_ENDS or symbol == mine or \
                any(glued.group(0) in name for name in own.labels):
            continue
        if symbol is not None and len(letters) > 1:
            return Doubt("unit", (glued.group(0),))  # "20hz" for an rpm point
        return Doubt("other_thing", (glued.group(0),))
    percent = _PERCENT.search(folded)
    if percent and (unit_symbol(unit or "") or "") not in ("%", "%rh"):
        return Doubt("unit", (percent.group(0),))
    return None


@lru_cache(maxsize=1)
def _zh_dictionary() -> tuple[frozenset[str], dict[str, str], int]:
    """Chinese words for segmentation (so that the 和 of 饱和 is no "and"), and ours."""
    words = {w for w in ZH_WORDS if len(w) > 1}
    for c in lexicon().concepts.values():
        words.update(f for f in c.zh_forms if len(f) > 1)
    ours = {w: problem for problem, listed in _ZH.items() for w in listed.split()}
    words.update(ours)
    return frozenset(words), ours, max(map(len, words))


def _segments(run: str, words: frozenset[str], longest: int) -> list[str]:
    """Forward maximum matching: the longest known word at each place, else one character."""
    out = []
    i = 0
    while i < len(run):
        for n in range(min(longest, len(run) - i), 0, -1):
            piece = run[i:i + n]
            if n == 1 or piece in words:
                out.append(piece)
                i += n
                break
    return out


def _chinese(folded: str, own: _Own) -> Doubt | None:
    if not any(is_cjk(c) for c in folded):
        return None
    for name in sorted(own.zh_names, key=len, reverse=True):
        folded = folded.replace(name, " ")
    words, ours, longest = _zh_dictionary()
    text = re.sub(r"\s+", "", folded)
    pieces = _segments(text, words, longest)
    for k, piece in enumerate(pieces):
        problem = ours.get(piece)
        before = pieces[k - 1] if k else ""
        after = pieces[k + 1] if k + 1 < len(pieces) else ""
        if piece == "点" and before and before[-1] in _ZH_NUMERAL and not (
                after and after[0] in _ZH_NUMERAL):
            return Doubt("when", (before + piece,))  # "5点", "三点": a time of day
        if piece == _STATE_DONE and "把" not in text:
            return Doubt("question", (text[max(0, text.find("了") - 2):text.find("了") + 1],))
        if problem is None:
            continue
        if problem == "approximate" and piece in ("多", "来") and not (
                before and before[-1] in _ZH_NUMERAL):
            continue  # 多 of 多少 is a question, caught there; "来" of "来一下" is no bound
        if problem == "relative" and after.startswith(_ZH_TO):
            continue  # "提高到1000": to a value
        if problem == "question" and piece in ("需要",) and not text.endswith(("吗", "?", "？")):
            continue
        return Doubt(problem, (piece,))
    return None


def _units(toks: list[Token], own: _Own, point: Point) -> Doubt | None:
    mine = unit_symbol(point.unit or "") or (point.unit or "").casefold()
    for i, t in enumerate(toks):
        if t.unit:
            after = toks[i + 1].raw if i + 1 < len(toks) else ""
            if t.unit != mine or (t.unit == "°c" and after in ("f", "k", "fahrenheit",
                                                                  "kelvin")):
                return Doubt("unit", (t.shown if t.unit == mine else t.raw,)
                             if t.unit != mine else (f"{t.raw} {after}",))
        elif t.raw in ("fahrenheit", "kelvin", "kelvins") and not _mine(t, own):
            return Doubt("unit", (t.raw,))
        elif i > 0 and toks[i - 1].number is not None and len(t.raw) > 1 and \
                (symbol := unit_symbol(t.raw)) is not None and symbol != mine:
            return Doubt("unit", (t.raw,))  # "5 bar", said as a word
    return None


def _value(toks: list[Token], own: _Own, point: Point, value: Any) -> Doubt | None:
    stated: list[tuple[str, Number]] = []  # (as written, value): the numbers that name nothing
    for i, t in enumerate(toks):
        if t.number is None:
            continue
        before = toks[i - 1] if i else None
        after = toks[i + 1] if i + 1 < len(toks) else None
        to_value = before is not None and before.raw in ("to", "at", "=")
        if t.groups and before is not None and before.text in own.id_words and \
                _float(t.groups[0]) in own.numbers:
            rest = exact("".join(t.groups[1:]))  # "pump 1 600": pump 1, and 600
            if rest is None:
                return Doubt("unreadable", (t.raw,))
            stated.append((" ".join(t.groups[1:]), rest))
            continue
        beside_thing = any(x is not None and x.number is None and x.text in own.id_words
                           for x in (before, after))
        if t.ordinal or (beside_thing and not to_value):
            if float(t.number) not in own.numbers:
                return Doubt("other_thing", (t.shown,))
            continue  # "pump 1", "3号": it names the point
        stated.append((t.shown, t.number))
    # on and off words count even where the point's name has them ("Valve 2 open")
    words = {t.text for t in toks if t.number is None}
    on, off = bool(words & ON_WORDS), bool(words & OFF_WORDS)
    if len({n for _, n in stated}) > 1:
        return Doubt("several", tuple(w for w, _ in stated))
    if point.kind == "bool":
        if stated:
            number = stated[0][1]
            if number not in (0, 1) or (on != off and on != bool(number)):
                return Doubt("not_stated", (stated[0][0],))
            said = bool(number)
        elif on != off:
            said = on
        else:
            return Doubt("not_stated", tuple(sorted(words & (ON_WORDS | OFF_WORDS))))
        return None if isinstance(value, bool) and said == value else \
            Doubt("not_stated", (str(value),))
    if point.kind == "string":
        wanted = {t.text for t in tokens(str(value)) if t.number is None}
        if not stated and wanted and wanted <= {t.text for t in toks}:
            return None
        return Doubt("not_stated", (str(value),))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return Doubt("not_stated", (str(value),))
    if stated:
        return None if float(stated[0][1]) == float(value) else \
            Doubt("not_stated", (stated[0][0],))
    if value == 0 and off and not on:
        return None  # "stop pump 1", "close vent 1": to zero (the rules allow it per point)
    return Doubt("not_stated", ())


def _float(digits: str) -> float | None:
    number = exact(digits)
    return None if number is None else float(number)


def gated(text: str, point: Point, value: Any) -> Action | None:
    """None when the write may go on; else the question back that replaces it."""
    found = doubt(text, point, value)
    if found is None:
        return None
    zh = is_chinese(text)
    label = point.label("zh" if zh else "en")
    return respond("not_understood", unreadable=[printable(w) for w in found.words],
                   value_problem=found.problem,
                   text=gate_question(found.problem, found.words, label, point.unit or "",
                                      _example(point, zh), zh=zh))


def gated_raw(text: str, example: str) -> Action | None:
    """None when a raw register write may go on; else the question back that replaces it."""
    found = doubt_raw(text)
    if found is None:
        return None
    zh = is_chinese(text)
    return respond("not_understood", unreadable=[printable(w) for w in found.words],
                   value_problem=found.problem,
                   text=gate_question(found.problem, found.words, "the register", "",
                                      example, zh=zh))


def _example(point: Point, zh: bool) -> str:
    """A plain command for the point, with a value inside its range."""
    label = point.label("zh" if zh else "en")
    if point.kind == "bool":
        return f"打开{label}" if zh else f"switch on {label}"
    if point.kind == "string" and point.choices:
        return f"把{label}设为{point.choices[0]}" if zh else f"set {label} to {point.choices[0]}"
    lo = point.min if point.min is not None else 0.0
    hi = point.max if point.max is not None else lo + 100
    value = lo + (hi - lo) * 0.5
    if point.kind == "int" or value == int(value):
        value = round(value)
    shown = str(value) if isinstance(value, int) else f"{value:.1f}"
    unit = f" {point.unit}" if point.unit else ""
    return f"把{label}设为{shown}{point.unit or ''}" if zh else f"set {label} to {shown}{unit}"
