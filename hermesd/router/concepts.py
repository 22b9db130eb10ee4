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
from typing import Literal, get_args

Kind = Literal["quantity", "thing", "medium", "role", "state", "action", "modifier", "unit"]
KINDS: tuple[Kind, ...] = get_args(Kind)

#: form markers (see the format in `hermesd.router.lexicon`)
SHARED, EXACT, AFTER_NUMBER, JOINED = "~", "=", "#", "^"
_MARKS = SHARED + EXACT + AFTER_NUMBER + JOINED

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


@dataclass(slots=True)
class _Words:
    """The words of a text, as matched; parallel lists, for speed."""

    keys: list[str]  # case-folded, plural-stripped, traditional folded to simplified
    pieces: list[str]  # each key as it continues a key: " pump", but "度" (see `_key`)
    starts: list[int]  # where each word is in the original text
    ends: list[int]
    numbers: set[int]  # positions of numbers: digits, or a Chinese numeral
    traditional: set[int]  # positions of traditional characters


_Entry = Concept | int


@dataclass(frozen=True, slots=True)
class _Index:
    """Compact on purpose (a Pi has little memory). An entry is the concept itself where the
    key is the form as written and it has no marker (most are: "pump", "清水池"); else one int,
    `number << 8 | n`, for the n-th form (English, then Chinese) of the concept numbered
    `number`."""

    keys: dict[str, _Entry | tuple[_Entry, ...]]  # a form's words (see `_key`) -> its entries
    exact: dict[int, str]  # entries of "=" forms -> the form's word characters in their case
    after_number: frozenset[int]  # entries of "#" forms
    joined: frozenset[str] = frozenset()  # keys of "^" forms: parts of words written together


class Lexicon:
    """The loaded, validated lexicon. Immutable; its queries are pure."""

    __slots__ = ("_fold", "_index", "_longest", "_narrower", "_numbered", "_simplify", "concepts")

    def __init__(self, concepts: Mapping[str, Concept], index: _Index,
                 fold: Mapping[str, str]) -> None:
        self.concepts = concepts
        self._numbered = tuple(concepts.values())
        self._index = index
        self._fold = fold
        self._simplify = str.maketrans(dict(fold))
        # the first word of each key of several words -> the most words of a key it starts;
        # the string of a one-word key is reused for its word
        one_word = {key: key for key in index.keys if len(_TOKEN.findall(key)) == 1}
        longest: dict[str, int] = {}
        for key in index.keys:
            words = _TOKEN.findall(key)
            if len(words) > 1:
                first = one_word.get(words[0], words[0])
                longest[first] = max(longest.get(first, 1), len(words))
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

    def simplified(self, text: str) -> str:
        """`text` with its traditional Chinese characters written simplified (啟動1號泵 ->
        启动1号泵)."""
        return text.translate(self._simplify)

    def concepts_of_text(self, text: str) -> list[Match]:
        """The concepts `text` names, left to right, each at its longest surface form.

        The text is split into forms so that they cover the most of its words, in as few forms
        as may be; of equal splits, the one taking the longest form first. Greedy longest-first
        matching alone reads "漂洗水电导率" (rinse water conductivity) as 水电 (hydropower) and
        leaves 导率 over; covering the most reads 水 + 电导率. Where one span is a form of
        several concepts (of different kinds, or marked shared within a kind) there is one match
        for each, in the order of their ids."""
        w = self._words(text)
        n = len(w.keys)
        found = [self._forms_at(text, w, i) for i in range(n)]
        # best[i]: (words covered, -forms) of the best split of words i.. ; how: the length taken
        best: list[tuple[int, int]] = [(0, 0)] * (n + 1)
        how = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            best[i], how[i] = best[i + 1], 0
            for k in found[i]:  # longest first: a shorter form must do strictly better
                covered, forms = best[i + k]
                if (covered + k, forms - 1) > best[i]:
                    best[i], how[i] = (covered + k, forms - 1), k
        out: list[Match] = []
        i = 0
        while i < n:
            k = how[i]
            if k:
                out.extend(found[i][k])
            i += k or 1
        return out

    def _forms_at(self, text: str, w: _Words, i: int) -> dict[int, list[Match]]:
        """The forms that begin at word `i`, by their length in words, longest first."""
        keys, pieces, index = w.keys, w.pieces, self._index
        n = len(keys)
        first = keys[i]
        at: dict[int, list[Match]] = {}
        for k in range(min(self._longest.get(first, 1), n - i), 0, -1):
            key = first if k == 1 else first + "".join(pieces[i + 1:i + k])
            found = index.keys.get(key)
            if found is None:
                continue
            start, end = w.starts[i], w.ends[i + k - 1]
            traditional = bool(w.traditional) and any(
                p in w.traditional for p in range(i, i + k))
            matches: list[Match] = []
            for entry in found if isinstance(found, tuple) else (found,):
                if isinstance(entry, Concept):  # the key is the form
                    matches.append(Match(entry, start, end, key, traditional))
                    continue
                if entry in index.after_number and i - 1 not in w.numbers:
                    continue
                exact = index.exact.get(entry)
                if exact is not None and _shape(text[start:end]) != exact:
                    continue
                matches.append(self._match(entry, start, end, traditional))
            if matches:
                at[k] = matches
        return at

    def _concept_of(self, entry: _Entry) -> Concept:
        return entry if isinstance(entry, Concept) else self._numbered[entry >> 8]

    def _match(self, entry: int, start: int, end: int, traditional: bool) -> Match:
        c = self._numbered[entry >> 8]
        n = entry & 0xFF
        form = c.en_forms[n] if n < len(c.en_forms) else c.zh_forms[n - len(c.en_forms)]
        return Match(c, start, end, form, traditional)

    def units(self, unit: str) -> tuple[Concept, ...]:
        """The unit concepts a unit as a config writes it names ("°C", "m³/h", "bar(g)"): the
        one whose form it is, or else those found in it ("kWh (total)"); several only where the
        data mark a spelling shared ("公斤": kg, or bar as Chinese speakers say it)."""
        found = self._index.keys.get(_key(self._words(unit)), ())
        shape = _shape(unit)
        whole = tuple(self._concept_of(e)
                      for e in (found if isinstance(found, tuple) else (found,))
                      if self._concept_of(e).kind == "unit"
                      and (isinstance(e, Concept) or self._index.exact.get(e, shape) == shape))
        if whole:
            return whole
        inside: dict[str, Concept] = {}
        for m in self.concepts_of_text(unit):
            if m.kind == "unit":
                inside.setdefault(m.concept.id, m.concept)
        return tuple(inside.values())

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
        return frozenset(word for key in self._index.keys for word in _TOKEN.findall(key))

    def _words(self, text: str) -> _Words:
        norm, where = _normalise(text)
        fold = self._fold
        w = _Words([], [], [], [], set(), set())
        continues = False  # whether the previous word is one a next word joins with a space
        for m in _TOKEN.finditer(norm):
            word = m.group()
            a, b = m.span()
            if where is not None:
                a, b = where[a], where[b - 1] + 1
            c = word[0]
            p = len(w.keys)
            if c.isdigit():
                w.numbers.add(p)
                piece = " " + word if continues else word
                continues = True
            elif len(word) == 1 and c >= "\u3400":  # a Chinese character (tokens make it one)
                word = fold.get(c, c)
                if word != c:
                    w.traditional.add(p)
                if c in _ZH_NUMERALS:
                    w.numbers.add(p)
                piece = word
                continues = False
            else:
                if len(word) > 3 and word[-1] == "s":
                    word = singular(word)
                *head, word = self._parts(word)
                for part in head:  # a compound's first words, found where it is
                    w.keys.append(part)
                    w.pieces.append(" " + part if continues else part)
                    w.starts.append(a)
                    w.ends.append(b)
                    continues = True
                piece = " " + word if continues else word
                continues = True
            w.keys.append(word)
            w.pieces.append(piece)
            w.starts.append(a)
            w.ends.append(b)
        return w

    def _parts(self, word: str, depth: int = 2) -> tuple[str, ...]:
        """A word no form begins with, as the forms it is written of: German writes its
        plant words together ("Kraftstofftemperatur": kraftstoff + temperatur, "Pumpen-
        druck": pumpe(n) + druck). Only of long words, into parts that are each a form
        marked as one ("^", of German words: English words written together are read whole,
        "powerhouse" is no power), the first of which may be a compound itself, of four
        letters or more and five for the last; or, where no form begins it, as its first
        letters and its last part ("Sammelstörung": sammel + störung); any other word
        whole."""
        joined = self._index.joined
        if len(word) < _COMPOUND or word in self._index.keys or word in self._longest or \
                not word.isalpha() or not word.isascii():
            return (word,)
        for i in range(len(word) - _LAST_PART, _PART - 1, -1):  # the longest last part first
            tail = word[i:]
            if tail not in joined:
                continue
            head = word[:i]
            for first in (head, head[:-1] if head.endswith(("s", "n")) else None):
                if first is None or len(first) < _PART:
                    continue
                if first in joined:
                    return first, tail
                if depth > 1 and len(parts := self._parts(first, depth - 1)) > 1:
                    return *parts, tail
        # a compound whose first part no form is, by its last ("Sammelstörung": a fault,
        # "Zellenlüftung": a ventilation): the last part of a German compound says what it is
        for i in range(_PART, len(word) - _LAST_PART + 1):
            if word[i:] in joined:
                return word[:i], word[i:]
        return (word,)


#: the fewest letters of a word read as a compound, of each of its parts, and of its last
#: (`_parts`): English words written together end in short ones ("washdown", "overflow")
_COMPOUND = 8
_PART = 4
_LAST_PART = 5


def _key(w: _Words) -> str:
    """The index key of words: how a form is found. English words are joined with a space,
    Chinese characters written together ("clear well", "清水池", "ph值"), so that the key of
    a form is often the form itself (and the two share one string)."""
    return "".join(w.pieces)


def _normalise(text: str) -> tuple[str, list[int] | None]:
    """NFKC and case-folded text, and where each of its characters came from in `text` (None:
    the same place, as for ASCII text)."""
    if text.isascii():
        return text.lower(), None
    parts: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        n = ch.lower() if ch < "\x80" else _unaccented(unicodedata.normalize("NFKC", ch).casefold())
        parts.append(n)
        where.extend([i] * len(n))
    return "".join(parts), where


def unaccented(word: str) -> str:
    """A word case-folded and without the accents of its Latin letters ("Habilitación":
    habilitacion), as the lexicon matches it."""
    return "".join(_unaccented(unicodedata.normalize("NFKC", ch).casefold()) for ch in word)


def _unaccented(ch: str) -> str:
    """A Latin letter without its accents ("ó" -> "o", "ü" -> "u"): names written by a
    Spanish or German builder are typed without them ("deposito", "Drucklufter"); any other
    character as it is (a Chinese character, "°", "µ")."""
    if len(ch) != 1 or not ch.isalpha():
        return ch
    bare = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
    return bare if bare.isascii() and bare else ch


#: plurals in -ves of plant things ("shelves" of the "Shelf inlet temperature"); not "valves",
#: nor "leaves" (the water "leaves" the chiller)
_PLURAL_VES = {"shelves": "shelf", "halves": "half", "knives": "knife", "calves": "calf",
               "wharves": "wharf", "loaves": "loaf"}


def singular(word: str) -> str:
    """ "pumps" -> "pump", "batteries" -> "battery", "switches" -> "switch"; text and forms go
    through the same rule, so it needs to be consistent more than right ("gases" -> "gase")."""
    if len(word) <= 3 or word[-1] != "s" or not word.isascii() or word.endswith(_PLURAL_KEPT):
        return word
    if word in _PLURAL_VES:
        return _PLURAL_VES[word]
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


def simplified(text: str) -> str:
    """`text` in simplified Chinese characters (see `Lexicon.simplified`)."""
    return lexicon().simplified(text) if not text.isascii() else text


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
           problems: list[str]) -> _Index:
    """The entries of every form by key; keys shared within a kind checked against '~' marks.
    Built straight into its final shape: a Pi keeps what loading leaves behind."""
    scratch = Lexicon({}, _Index({}, {}, frozenset()), fold)
    numbers = {ident: number for number, ident in enumerate(concepts)}
    numbered = tuple(concepts.values())

    def concept_of(e: _Entry) -> Concept:
        return e if isinstance(e, Concept) else numbered[e >> 8]

    keys: dict[str, _Entry | tuple[_Entry, ...]] = {}
    exact: dict[int, str] = {}
    after_number: set[int] = set()
    joined: set[str] = set()
    shared: set[_Entry] = set()
    # German forms as a PLC symbol must spell them, without umlauts ("Laeuft", "Stoerung")
    spelled: list[tuple[str, int, bool]] = []
    where: dict[str, str] = {}
    for r in rows:
        c = concepts.get(r.ident)
        if c is None or r.ident in where:
            continue  # a second definition of the id (reported already)
        where[r.ident] = r.where
        seen: dict[str, str] = {}
        for n, (form, text) in enumerate(zip(r.en + r.zh, c.en_forms + c.zh_forms, strict=True)):
            key = _key(scratch._words(text))
            if not key:
                continue
            if key in seen:
                problems.append(f"{r.where}: {r.ident}: forms {seen[key]!r} and {form!r} are the "
                                "same words")
                continue
            seen[key] = form
            if n > 0xFF:
                problems.append(f"{r.where}: {r.ident}: more than 256 forms")
                break
            marks = form[:len(form) - len(text)]
            if key == text:
                key = text  # one string for both
            number = numbers[r.ident] << 8 | n
            entry: _Entry = c if key is text and not marks else number
            before = keys.get(key)
            keys[key] = entry if before is None else tuple(sorted(
                (before if isinstance(before, tuple) else (before,)) + (entry,),
                key=lambda e: concept_of(e).id))
            if EXACT in marks:
                exact[number] = _shape(text)
            if AFTER_NUMBER in marks:
                after_number.add(number)
            if JOINED in marks:
                joined.add(key)
            if SHARED in marks:
                shared.add(entry)
            if _UMLAUTS.search(text):
                spelled.append((_key(scratch._words(_spelled_out(text))), number, JOINED in marks))
    for key, number, part in spelled:  # where no form has these words already
        if key not in keys:
            keys[key] = number
            if part:
                joined.add(key)
    for key, found in keys.items():
        entries = [concept_of(e) for e in (found if isinstance(found, tuple) else (found,))]
        flags = [e in shared for e in (found if isinstance(found, tuple) else (found,))]
        for kind in {c.kind for c in entries}:
            same = [c.id for c in entries if c.kind == kind]
            marked = [f for c, f in zip(entries, flags, strict=True) if c.kind == kind]
            if len(same) > 1 and not all(marked):
                places = ", ".join(f"{ident} ({where[ident]})" for ident in same)
                problems.append(f"{where[same[0]]}: {key!r} is a {kind} form of {places}: mark "
                                f"it '{SHARED}' in each, or keep it in one")
            if len(same) == 1 and marked[0]:
                problems.append(f"{where[same[0]]}: {same[0]}: {key!r} is marked '{SHARED}' but "
                                f"no other {kind} has it")
    return _Index(keys, exact, frozenset(after_number), frozenset(joined))


_UMLAUTS = re.compile("[äöüÄÖÜ]")
_SPELLED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def _spelled_out(text: str) -> str:
    """A German word as written where umlauts cannot be: "Läufer" -> "Laeufer"."""
    return text.translate(_SPELLED)


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
