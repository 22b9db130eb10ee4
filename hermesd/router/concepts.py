"""Which plant concepts a text names: the plant lexicon (`hermesd.router.lexicon`) as queries.

`concepts_of_text("NTU after filtration?")` finds the unit NTU (which measures turbidity), the
modifier "downstream" and the thing "filter"; `concepts_of_text("清水池液位")` finds the clear
well and the level. Matching is on words, longest first: English case-folded, plural-stripped and
punctuation-tolerant ("set-point" is "set point", multi-word forms like "state of charge"),
Chinese character by character with no spaces needed, traditional characters folded to
simplified. `unit_concepts("%")` is the set of quantities a unit can measure; `concept(id)` has
the English and Chinese labels a reply can use.

The data are read once, on first use, and validated completely: every problem, with its file and
line, in one `LexiconError`. This module never sees a config and knows no plant: relating what
it finds to points is the router's work. Queries are pure functions of their text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Literal, NamedTuple, get_args

Kind = Literal["quantity", "thing", "medium", "role", "state", "action", "modifier", "unit"]
KINDS: tuple[Kind, ...] = get_args(Kind)

#: form markers (see the format in `hermesd.router.lexicon`)
SHARED, EXACT, AFTER_NUMBER = "~", "=", "#"
_MARKS = SHARED + EXACT + AFTER_NUMBER

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: a Chinese character, a number, a run of letters, or a symbol that units are written with;
#: everything else (spaces, punctuation, "/", "-", "·") only separates words
_TOKEN = re.compile(rf"[{_CJK}]|\d+(?:[.,]\d+)*|[^\W\d_{_CJK}]+|[%°‰$€£¥]")
#: what counts as a number before a "#" form ("5 m", "三十度")
_ZH_NUMERALS = frozenset("零〇一二两三四五六七八九十百千万亿半")
_PLURAL_KEPT = ("ss", "us", "is")


class LexiconError(ValueError):
    """The lexicon data are invalid; `problems` lists every one, each with its file and line."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(f"{len(self.problems)} problem(s) in the plant lexicon:\n  "
                         + "\n  ".join(self.problems))


@dataclass(frozen=True, slots=True)
class Concept:
    """One meaning a point name or a command word can carry."""

    id: str  # "<kind>.<slug>", e.g. "quantity.turbidity"
    kind: Kind
    en: str  # English label
    zh: str  # Chinese label, simplified characters
    zh_hant: str  # Chinese label, traditional characters (the same as `zh` where no character differs)
    #: unit: the quantities it measures; action: the state it brings about; else broader concepts
    links: tuple[str, ...]
    en_forms: tuple[str, ...]  # as written in the data, without markers; the label first
    zh_forms: tuple[str, ...]

    def label(self, lang: str) -> str:
        """The label for a reply in `lang`: "en", "zh" (simplified) or "zh-Hant"."""
        if lang == "en":
            return self.en
        if lang.replace("_", "-").lower() in ("zh-hant", "zh-tw", "zh-hk"):
            return self.zh_hant
        if lang.startswith("zh"):
            return self.zh
        raise ValueError(f"no label in language {lang!r} (en, zh, zh-Hant)")


@dataclass(frozen=True, slots=True)
class Match:
    """A concept found in a text: `text[start:end]` is written as one of its surface forms."""

    concept: Concept
    start: int
    end: int
    form: str  # the surface form of the lexicon that matched, without markers
    traditional: bool = False  # written with traditional Chinese characters

    @property
    def kind(self) -> Kind:
        return self.concept.kind

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.end


class _Entry(NamedTuple):
    concept: Concept
    form: str
    exact: str  # "=" forms: the form's letters in their case; "" otherwise
    after_number: bool


class _Token(NamedTuple):
    key: str  # case-folded, plural-stripped, traditional folded to simplified
    start: int  # in the original text
    end: int
    number: bool
    traditional: bool


class Lexicon:
    """The loaded, validated lexicon. Immutable; its queries are pure."""

    __slots__ = ("_fold", "_index", "_longest", "_narrower", "concepts")

    def __init__(self, concepts: Mapping[str, Concept], index: Mapping[str, tuple[_Entry, ...]],
                 fold: Mapping[str, str]) -> None:
        self.concepts = concepts
        self._index = index
        self._fold = fold
        longest: dict[str, int] = {}
        for key in index:
            words = key.split(" ")
            longest[words[0]] = max(longest.get(words[0], 0), len(words))
        self._longest = longest
        narrower: dict[str, list[str]] = {}
        for c in concepts.values():
            if c.kind not in ("unit", "action"):
                for broader in c.links:
                    narrower.setdefault(broader, []).append(c.id)
        self._narrower = {k: tuple(v) for k, v in narrower.items()}

    def concept(self, ident: str) -> Concept:
        """The concept with this id; KeyError if there is none."""
        return self.concepts[ident]

    def concepts_of_text(self, text: str) -> list[Match]:
        """The concepts `text` names, left to right, each at its longest surface form.

        Where one span is a form of several concepts (of different kinds, or marked shared within
        a kind) there is one match for each, in the order of their ids."""
        toks = self._tokens(text)
        out: list[Match] = []
        i, n = 0, len(toks)
        while i < n:
            most = self._longest.get(toks[i].key, 0)
            taken = 0
            for k in range(min(most, n - i), 0, -1):
                key = toks[i].key if k == 1 else " ".join(t.key for t in toks[i:i + k])
                entries = self._index.get(key)
                if entries is None:
                    continue
                start, end = toks[i].start, toks[i + k - 1].end
                traditional = any(t.traditional for t in toks[i:i + k])
                for e in entries:
                    if e.after_number and not (i and toks[i - 1].number):
                        continue
                    if e.exact and _shape(text[start:end]) != e.exact:
                        continue
                    out.append(Match(e.concept, start, end, e.form, traditional))
                    taken = k
                if taken:
                    break
            i += taken or 1
        return out

    def units(self, unit: str) -> tuple[Concept, ...]:
        """The unit concepts a unit as a config writes it names ("°C", "m³/h", "bar(g)"): the
        one whose form it is, or else those found in it ("kWh (total)"); several only where the
        data mark a spelling shared ("公斤": kg, or bar as Chinese speakers say it)."""
        toks = self._tokens(unit)
        entries = self._index.get(" ".join(t.key for t in toks), ())
        whole = tuple(e.concept for e in entries
                      if e.concept.kind == "unit" and (not e.exact or _shape(unit) == e.exact))
        if whole:
            return whole
        found: dict[str, Concept] = {}
        for m in self.concepts_of_text(unit):
            if m.kind == "unit":
                found.setdefault(m.concept.id, m.concept)
        return tuple(found.values())

    def unit_concepts(self, unit: str) -> tuple[Concept, ...]:
        """The quantities a unit can measure, sorted by id: those its unit concept links, and the
        narrower ones of each ("°C": temperature, dew point, mould temperature...). A unit of one
        quantity decides little; "%" narrows to a set (level, opening, humidity, charge...)."""
        found: dict[str, Concept] = {}
        for u in self.units(unit):
            for ident in u.links:
                for q in self.narrower(ident, include_self=True):
                    found[q.id] = q
        return tuple(found[k] for k in sorted(found))

    def narrower(self, ident: str, *, include_self: bool = False) -> tuple[Concept, ...]:
        """The concepts whose links lead up to `ident` ("quantity.chlorine": free chlorine,
        total chlorine...), transitively, sorted by id."""
        seen: set[str] = {ident} if include_self else set()
        todo = [ident]
        while todo:
            for child in self._narrower.get(todo.pop(), ()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        return tuple(self.concepts[k] for k in sorted(seen))

    def words(self) -> frozenset[str]:
        """Every word of every surface form as it is matched (case-folded, singular, Chinese
        characters simplified): what a fuzzy matcher may correct a mistyped word to."""
        return frozenset(word for key in self._index for word in key.split(" "))

    def _tokens(self, text: str) -> list[_Token]:
        norm, where = _normalise(text)
        fold = self._fold
        out = []
        for m in _TOKEN.finditer(norm):
            word = m.group()
            a, b = m.span()
            if where is not None:
                a, b = where[a], where[b - 1] + 1
            c = word[0]
            if c.isdigit():
                out.append(_Token(word, a, b, True, False))
            elif len(word) == 1 and _is_cjk(c):
                simple = fold.get(c, c)
                out.append(_Token(simple, a, b, c in _ZH_NUMERALS, simple != c))
            else:
                out.append(_Token(_singular(word), a, b, False, False))
        return out


def _is_cjk(c: str) -> bool:
    return "\u3400" <= c <= "\u4dbf" or "\u4e00" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff"


def _normalise(text: str) -> tuple[str, list[int] | None]:
    """NFKC and case-folded text, and where each of its characters came from in `text` (None:
    the same place, as for ASCII text)."""
    if text.isascii():
        return text.lower(), None
    parts: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        n = ch.lower() if ch < "\x80" else unicodedata.normalize("NFKC", ch).casefold()
        parts.append(n)
        where.extend([i] * len(n))
    return "".join(parts), where


def _singular(word: str) -> str:
    """ "pumps" -> "pump", "batteries" -> "battery", "switches" -> "switch"; text and forms go
    through the same rule, so it needs to be consistent more than right ("gases" -> "gase")."""
    if len(word) <= 3 or word[-1] != "s" or not word.isascii() or word.endswith(_PLURAL_KEPT):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return word[:-2]
    return word[:-1]


def _shape(text: str) -> str:
    """The word characters of `text`, in their case: what an "=" form is compared with."""
    return "".join(_TOKEN.findall(unicodedata.normalize("NFKC", text)))


# -- loading and validation ------------------------------------------------------------------

T2S_FILE = "t2s.txt"


@dataclass
class _Row:
    where: str
    ident: str
    kind: Kind
    en: list[str]
    zh: list[str]
    zh_hant: str
    links: list[str]


def load(directory: Traversable | None = None) -> Lexicon:
    """Read and validate the lexicon in `directory` (default: the data shipped with hermesd).

    Raises LexiconError naming every problem found."""
    root = directory if directory is not None else resources.files("hermesd.router.lexicon")
    problems: list[str] = []
    fold = _read_fold(root, problems)
    rows: list[_Row] = []
    for f in sorted((f for f in root.iterdir() if f.name.endswith(".tsv")), key=lambda f: f.name):
        rows.extend(_read_rows(f, problems))
    concepts = _concepts(rows, problems)
    index = _index(rows, concepts, fold, problems)
    _check_links(rows, concepts, problems)
    _check_hant(rows, fold, problems)
    if problems:
        raise LexiconError(problems)
    return Lexicon(concepts, index, fold)


@functools.cache
def lexicon() -> Lexicon:
    """The shipped lexicon, loaded and validated on first use."""
    return load()


def concepts_of_text(text: str) -> list[Match]:
    """The concepts `text` names (see `Lexicon.concepts_of_text`)."""
    return lexicon().concepts_of_text(text)


def unit_concepts(unit: str) -> tuple[Concept, ...]:
    """The quantities a unit can measure (see `Lexicon.unit_concepts`)."""
    return lexicon().unit_concepts(unit)


def concept(ident: str) -> Concept:
    """The concept with this id; KeyError if there is none."""
    return lexicon().concept(ident)


def _lines(f: Traversable) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            yield number, line


def _read_fold(root: Traversable, problems: list[str]) -> dict[str, str]:
    fold: dict[str, str] = {}
    f = root / T2S_FILE
    if not f.is_file():
        problems.append(f"{T2S_FILE}: missing")
        return fold
    for number, line in _lines(f):
        pair = line.split("\t")
        if len(pair) != 2 or len(pair[0]) != 1 or len(pair[1]) != 1 or pair[0] == pair[1]:
            problems.append(f"{T2S_FILE}:{number}: expected two different characters and a TAB")
        elif pair[0] in fold:
            problems.append(f"{T2S_FILE}:{number}: {pair[0]} is folded twice")
        else:
            fold[pair[0]] = pair[1]
    return fold


_ID = re.compile(r"[a-z]+\.[a-z0-9_]+")


def _read_rows(f: Traversable, problems: list[str]) -> Iterator[_Row]:
    kind = f.name.split(".")[0]
    if kind not in KINDS:
        problems.append(f"{f.name}: unknown kind {kind!r} (the file name starts with one of "
                        f"{', '.join(KINDS)})")
        return
    previous = ""
    for number, line in _lines(f):
        where = f"{f.name}:{number}"
        cols = line.split("\t")
        if len(cols) != 5:
            problems.append(f"{where}: expected 5 TAB-separated columns "
                            f"(id, en, zh, zh_hant, links), found {len(cols)}")
            continue
        ident, en, zh, hant, links = cols
        if not _ID.fullmatch(ident) or not ident.startswith(kind + "."):
            problems.append(f"{where}: id {ident!r} is not '{kind}.<slug>' (a-z, 0-9, _)")
        if ident <= previous:
            problems.append(f"{where}: {ident} is out of order (lines are sorted by id)")
        previous = ident
        yield _Row(where, ident, kind, en.split("|") if en else [], zh.split("|") if zh else [],
                   hant, links.split())


def _concepts(rows: list[_Row], problems: list[str]) -> dict[str, Concept]:
    concepts: dict[str, Concept] = {}
    for r in rows:
        if r.ident in concepts:
            problems.append(f"{r.where}: {r.ident} is defined twice")
            continue
        for lang, forms in (("English", r.en), ("Chinese", r.zh)):
            if not forms:
                problems.append(f"{r.where}: {r.ident} has no {lang} form")
            for form in forms:
                problem = _form_problem(form, chinese=lang == "Chinese")
                if problem:
                    problems.append(f"{r.where}: {lang} form {form!r}: {problem}")
        en = tuple(form.lstrip(_MARKS) for form in r.en)
        zh = tuple(form.lstrip(_MARKS) for form in r.zh)
        concepts[r.ident] = Concept(r.ident, r.kind, en[0] if en else "", zh[0] if zh else "",
                                    r.zh_hant or (zh[0] if zh else ""), tuple(r.links), en, zh)
    return concepts


def _form_problem(form: str, *, chinese: bool) -> str:
    text = form.lstrip(_MARKS)
    if not text.strip():
        return "empty"
    if any(c in _MARKS for c in text[:1]) or "|" in text:
        return "a marker is only allowed at the start"
    words = _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())
    if not words:
        return "no word or symbol in it"
    if words[0][0].isdigit():
        return "starts with a number (numbers are the router's to read)"
    has_cjk = bool(re.search(f"[{_CJK}]", text))
    if chinese and not has_cjk:
        return "no Chinese character in it (it belongs in the English column)"
    if not chinese and has_cjk:
        return "Chinese characters belong in the zh column"
    if form.startswith(EXACT) and text.casefold() == text:
        return "'=' (exact case) on a form without capitals"
    return ""


def _index(rows: list[_Row], concepts: dict[str, Concept], fold: Mapping[str, str],
           problems: list[str]) -> dict[str, tuple[_Entry, ...]]:
    """Key (the form's words, space-joined) -> entries; shared keys checked against '~' marks."""
    scratch = Lexicon(concepts, {}, fold)
    index: dict[str, list[tuple[_Entry, bool, str]]] = {}
    for r in rows:
        c = concepts.get(r.ident)
        if c is None or c.id != r.ident:
            continue
        seen: dict[str, str] = {}
        for form in r.en + r.zh:
            text = form.lstrip(_MARKS)
            marks = form[:len(form) - len(text)]
            key = " ".join(t.key for t in scratch._tokens(text))
            if not key:
                continue
            if key in seen:
                problems.append(f"{r.where}: {r.ident}: forms {seen[key]!r} and {form!r} are the "
                                "same words")
                continue
            seen[key] = form
            entry = _Entry(c, text, _shape(text) if EXACT in marks else "", AFTER_NUMBER in marks)
            index.setdefault(key, []).append((entry, SHARED in marks, r.where))
    for key, entries in index.items():
        for kind in {e.concept.kind for e, _, _ in entries}:
            same = [(e, shared, where) for e, shared, where in entries if e.concept.kind == kind]
            if len(same) > 1 and not all(shared for _, shared, _ in same):
                places = ", ".join(f"{e.concept.id} ({where})" for e, _, where in same)
                problems.append(f"{same[0][2]}: {key!r} is a {kind} form of {places}: mark it "
                                f"'{SHARED}' in each, or keep it in one")
            if len(same) == 1 and same[0][1]:
                e, _, where = same[0]
                problems.append(f"{where}: {e.concept.id}: {e.form!r} is marked '{SHARED}' but "
                                f"no other {kind} has it")
    return {key: tuple(sorted((e for e, _, _ in entries), key=lambda e: e.concept.id))
            for key, entries in index.items()}


def _check_links(rows: list[_Row], concepts: dict[str, Concept], problems: list[str]) -> None:
    for r in rows:
        if r.kind == "unit" and not r.links:
            problems.append(f"{r.where}: {r.ident}: a unit links the quantities it measures")
        for target in r.links:
            t = concepts.get(target)
            want = {"unit": "quantity", "action": "state"}.get(r.kind, r.kind)
            if t is None:
                problems.append(f"{r.where}: {r.ident}: link to unknown {target}")
            elif t.kind != want:
                problems.append(f"{r.where}: {r.ident}: links {target}, a {t.kind}; a {r.kind} "
                                f"links {want} concepts")
    for r in rows:  # broader links must not come back round
        if r.kind in ("unit", "action"):
            continue
        path, todo = [r.ident], list(concepts[r.ident].links) if r.ident in concepts else []
        seen: set[str] = set()
        while todo:
            up = todo.pop()
            if up == r.ident:
                problems.append(f"{r.where}: {r.ident}: its broader links lead back to it")
                break
            if up in seen or up not in concepts:
                continue
            seen.add(up)
            path.append(up)
            todo.extend(concepts[up].links)


def _check_hant(rows: list[_Row], fold: Mapping[str, str], problems: list[str]) -> None:
    for r in rows:
        if not r.zh_hant:
            continue
        label = r.zh[0].lstrip(_MARKS) if r.zh else ""
        folded = "".join(fold.get(c, c) for c in r.zh_hant)
        if r.zh_hant == label:
            problems.append(f"{r.where}: {r.ident}: zh_hant is the same as the label; leave it "
                            "empty")
        elif folded not in {f.lstrip(_MARKS) for f in r.zh}:
            problems.append(f"{r.where}: {r.ident}: zh_hant {r.zh_hant!r} folds to {folded!r}, "
                            "which is no zh form (add it, or the missing pair to t2s.txt)")
