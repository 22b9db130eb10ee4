"""What an audit record is worth keeping, how much of it, and how it becomes one line of JSON.

`classify` sorts records: a write's intent and everything after an intent (its outcome) belong
to the trail, which is kept by time; a read, a greeting or a refused read is `read` or
`read_failed`; any other action that never reached an intent (a refused write, a dry run, a
tool call, a raw register read) is an `attempt`. `PeerBudget` bounds what one peer can make us
write: each peer may have so many records of each of those kinds written one by one per window;
beyond that they are counted into one `aggregate` record per peer and kind (counts by action,
status and error, a few sample point ids). Trail records are never counted away, and root and
hermesd's own user have no budget.

`encode` turns a record into one line that is always strict JSON and always UTF-8: what cannot
be encoded (a lone surrogate, a NaN, a huge integer, any odd object, a cycle) is written escaped
as text and the record is marked `escaped: true`. It never raises: one bad record must cost
neither its batch nor the daemon. Long texts are cut (`truncated: true`).
"""

from __future__ import annotations

import enum
import functools
import json
import math
import re
import time
from dataclasses import dataclass, field
from itertools import repeat
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from operator import add
from typing import Any


class Kind(enum.Enum):
    TRAIL = "trail"  # a write intent, an outcome after an intent, a durable record
    ATTEMPT = "attempt"  # any other non-read action: refused writes, dry runs, tool calls
    READ = "read"  # reads, greetings, answers that touched nothing
    READ_FAILED = "read_failed"  # reads refused or failed (unknown points, forbidden, busy)


READ_ACTIONS = frozenset({"read", "history", "respond"})
READ_OK = frozenset({"ok", "stale", "dry_run"})


def classify(record: Any, *, after_intent: bool) -> Kind:
    if after_intent:
        return Kind.TRAIL
    if not isinstance(record, dict):
        return Kind.ATTEMPT
    if record.get("phase") == "intent":
        return Kind.TRAIL
    action = record.get("action")
    if action is not None:  # (no action: an answer that touched nothing, as a read)
        if not isinstance(action, dict):
            return Kind.ATTEMPT
        name = action.get("name")
        if not isinstance(name, str):  # (an odd name, even one of no hash, names no read)
            return Kind.ATTEMPT
        if name == "respond":
            args = action.get("args")
            refused = args.get("refused") if isinstance(args, dict) else None
            if isinstance(refused, dict):
                # a command the policy refused: a refused read is a failed read, anything
                # else an attempt
                return Kind.READ_FAILED if _text(refused.get("name")) in READ_ACTIONS else \
                    Kind.ATTEMPT
        if name not in READ_ACTIONS:
            return Kind.ATTEMPT
    status = record.get("status")
    return Kind.READ if isinstance(status, str) and status in READ_OK else Kind.READ_FAILED


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# -- per-peer budgets ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Budgets:
    """Records of one kind one peer may have written one by one per window."""

    window: float = 60.0  # seconds
    read: int = 600
    read_failed: int = 60
    attempt: int = 60
    max_peers: int = 4096  # windows tracked at once; more close them all early
    max_groups: int = 16  # distinct "action status error" counts in one aggregate
    max_samples: int = 5  # sample point ids in one aggregate
    sample_chars: int = 64

    def limit(self, kind: Kind) -> int | None:
        if kind is Kind.READ:
            return self.read
        if kind is Kind.READ_FAILED:
            return self.read_failed
        if kind is Kind.ATTEMPT:
            return self.attempt
        return None  # the trail has no budget


@dataclass(slots=True)
class _Window:
    kind: Kind
    start: float
    end: float
    who: Any
    source: Any
    uid: Any
    written: int = 0
    counted: int = 0
    first: float = 0.0
    last: float = 0.0
    by: dict[str, int] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)


class PeerBudget:
    """Admits records within each peer's budget; counts the rest into aggregate records.

    Root and hermesd's own user (`trusted` uids) have no budget: they can rewrite the state dir
    anyway, so bounding them protects nothing, and their tools may read a lot."""

    def __init__(self, budgets: Budgets | None = None,
                 trusted: frozenset[int] = frozenset()) -> None:
        self.budgets = budgets or Budgets()
        self.trusted = trusted
        self._windows: dict[tuple[Any, ...], _Window] = {}
        self._closed: list[_Window] = []
        self.counted = 0  # records counted into aggregates instead of written

    def admit(self, kind: Kind, record: Any, now: float) -> bool:
        if kind is Kind.TRAIL:
            return True  # the trail has no budget
        if isinstance(record, dict) and record.get("uid").__class__ is int and \
                record["uid"] in self.trusted:
            return True  # before the peer's texts are cut for its key: most records are here
        limit = self.budgets.limit(kind)
        if limit is None:
            return True
        source, uid, who = _peer(record)
        if uid in self.trusted:
            return True
        key = (kind, source, uid if uid is not None else who)
        window = self._windows.get(key)
        if window is None or now >= window.end:
            if window is not None and window.counted:
                self._closed.append(window)
            if window is None and len(self._windows) >= self.budgets.max_peers:
                self._close_all()
            window = _Window(kind, now, now + self.budgets.window, who, source, uid)
            self._windows[key] = window
        if window.written < limit:
            window.written += 1
            return True
        self._count(window, record, now)
        return False

    def _count(self, window: _Window, record: Any, now: float) -> None:
        if not window.counted:
            window.first = now
        window.counted += 1
        window.last = now
        self.counted += 1
        group = _group(record)
        b = self.budgets
        if group in window.by or len(window.by) < b.max_groups:
            window.by[group] = window.by.get(group, 0) + 1
        else:
            window.by["other"] = window.by.get("other", 0) + 1
        if len(window.samples) < b.max_samples:
            sample = _subject(record)
            if sample is not None and cut(sample, b.sample_chars) not in window.samples:
                window.samples.append(cut(sample, b.sample_chars))

    def _close_all(self) -> None:
        self._closed.extend(w for w in self._windows.values() if w.counted)
        self._windows.clear()

    def next_due(self, now: float) -> float | None:
        """Seconds until an aggregate is due (0: one is), None when none is pending."""
        if self._closed:
            return 0.0
        ends = [w.end for w in self._windows.values() if w.counted]
        return max(0.0, min(ends) - now) if ends else None

    def due(self, now: float) -> list[tuple[Kind, dict[str, Any]]]:
        """The aggregates of windows that have ended; forgets windows that are over."""
        done = self._closed
        self._closed = []
        for key, window in list(self._windows.items()):
            if now >= window.end:
                del self._windows[key]
                if window.counted:
                    done.append(window)
        return [(w.kind, self._aggregate(w)) for w in done]

    def drain(self) -> list[tuple[Kind, dict[str, Any]]]:
        """Every pending aggregate, now (at shutdown)."""
        self._close_all()
        return self.due(time.time())

    def _aggregate(self, w: _Window) -> dict[str, Any]:
        limit = self.budgets.limit(w.kind)
        record: dict[str, Any] = {
            "phase": "aggregate", "kind": w.kind.value, "source": w.source, "who": w.who,
            "from": iso(w.first), "to": iso(w.last), "count": w.counted,
            "by": dict(sorted(w.by.items())), "samples": w.samples,
            "why": f"more than {limit} {w.kind.value.replace('_', ' ')} records from this peer "
                   f"in {self.budgets.window:g} s: the rest are counted here, not written "
                   "one by one"}
        if w.uid is not None:
            record["uid"] = w.uid
        return record


def _peer(record: Any) -> tuple[Any, Any, Any]:
    if not isinstance(record, dict):
        return None, None, None
    uid = record.get("uid")
    uid = uid if isinstance(uid, int) and not isinstance(uid, bool) else None
    source, who = record.get("source"), record.get("who")
    return (cut(source, 32) if isinstance(source, str) else None, uid,
            cut(who, 64) if isinstance(who, str) else None)


def _group(record: Any) -> str:
    if not isinstance(record, dict):
        return "odd record"
    action = record.get("action")
    name = action.get("name") if isinstance(action, dict) else None
    parts = [name if isinstance(name, str) else "-", record.get("status"), record.get("error")]
    return cut(" ".join(str(p) for p in parts if isinstance(p, str)), 64)


def _subject(record: Any) -> str | None:
    """What a counted record was about: its point id, else its action's name."""
    if not isinstance(record, dict) or not isinstance(record.get("action"), dict):
        return None
    action = record["action"]
    args = action.get("args")
    if isinstance(args, dict):
        for key in ("point", "tool"):
            if isinstance(args.get(key), str):
                return str(args[key])
        refused = args.get("refused")
        if isinstance(refused, dict) and isinstance(refused.get("args"), dict) and \
                isinstance(refused["args"].get("point"), str):
            return str(refused["args"]["point"])
    name = action.get("name")
    return name if isinstance(name, str) else None


# -- bounding and encoding -------------------------------------------------------------------

TEXT_LIMIT = 256  # characters of one text field in a record that may be counted away
TRAIL_TEXT_LIMIT = 2048  # ... in a trail record
MAX_ITEMS = 64  # entries of one list or mapping
MAX_DEPTH = 16


def printable(text: str, limit: int) -> tuple[str, bool]:
    """`text` as it came, with what a log reader would not see as it is escaped: control and
    format characters (bidi overrides, zero-width joiners), lone surrogates and other
    non-printable ones as `\\xNN`/`\\uNNNN`/`\\UNNNNNNNN`, and a backslash as `\\\\` (so the
    escapes are unambiguous); at most `limit` characters of it. Returns (text, whether it was
    cut)."""
    if "\\" not in text and text.isprintable():
        return (text, False) if len(text) <= limit else (text[:limit], True)
    out: list[str] = []
    size = 0
    for ch in text:
        if ch == "\\":
            piece = "\\\\"
        elif ch.isprintable():
            piece = ch
        else:
            code = ord(ch)
            piece = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
                else f"\\U{code:08x}"
        if size + len(piece) > limit:
            return "".join(out), True
        out.append(piece)
        size += len(piece)
    return "".join(out), False


def cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…(+{len(text) - limit} chars)"


def bound(value: Any, limit: int) -> tuple[Any, bool]:
    """A copy of `value` with long texts cut and big collections shortened; and whether it was."""
    changed = False

    def walk(v: Any, depth: int) -> Any:
        nonlocal changed
        if isinstance(v, str):
            if len(v) > limit:
                changed = True
                return cut(v, limit)
            return v
        if depth >= MAX_DEPTH and isinstance(v, dict | list | tuple):
            changed = True
            return "…(nested too deep)"
        if isinstance(v, dict):
            items = list(v.items())
            if len(items) > MAX_ITEMS:
                changed = True
                items = [*items[:MAX_ITEMS], ("…", f"+{len(items) - MAX_ITEMS} entries")]
            return {walk(k, depth + 1) if isinstance(k, str) else k: walk(x, depth + 1)
                    for k, x in items}
        if isinstance(v, list | tuple):
            if len(v) > MAX_ITEMS:
                changed = True
                return [walk(x, depth + 1) for x in v[:MAX_ITEMS]] + \
                    [f"…(+{len(v) - MAX_ITEMS} items)"]
            return [walk(x, depth + 1) for x in v]
        return v

    return walk(value, 0), changed


def within_bounds(line: bytes, limit: int) -> bool:
    """Whether `bound(record, limit)` would leave the record that `line` encodes unchanged,
    told from the line alone (most records are small): fewer commas than MAX_ITEMS (no list
    or mapping longer), fewer brackets than MAX_DEPTH (none deeper), and no stretch between
    two quotes longer than `limit` (no longer text; a line with an escape is not judged). It
    may say False of a record within bounds (then it is bounded the long way), never True of
    one that is not."""
    if line.count(b",") >= MAX_ITEMS or line.count(b"{") + line.count(b"[") >= MAX_DEPTH:
        return False
    if len(line) <= limit:
        return True
    if b"\\" in line:
        return False
    first = line.find(b'"')  # the stretch before the first quote, then those after each one
    longer = _LONGER_THAN.get(limit) or _longer_than(limit)
    return 0 <= first <= limit and longer.search(line) is None


@functools.lru_cache(maxsize=8)
def _longer_than(limit: int) -> re.Pattern[bytes]:
    """A quote and then more than `limit` bytes with no quote among them: one C-level scan of
    the line, not a split of it into pieces (this is on every read's record). The quote comes
    first so that the search starts only at quotes (found by a fast scan for that byte): a
    search for the stretch alone starts at every byte and runs to the next quote, `limit`/2
    steps a byte on a line of texts just within the limit."""
    return re.compile(rb'"[^"]{%d}' % (limit + 1))


#: ... for the writer's two limits, looked up without a call on every record
_LONGER_THAN = {limit: _longer_than(limit) for limit in (TEXT_LIMIT, TRAIL_TEXT_LIMIT)}


def encode(head: dict[str, Any], record: Any) -> tuple[bytes, bool]:
    """One JSON line: `head` (ts, seq) then the record's fields. Returns (line, escaped)."""
    try:
        # head first and head's values: a record cannot forge its own time or number
        obj = {**head, **record, **head} if isinstance(record, dict) else \
            {**head, "record": record}
    except Exception:  # a mapping that cannot even be copied
        obj = {**head, "record": _odd(record)}
    try:
        return _dumps(obj), False
    except Exception:  # noqa: S110  # anything at all: then it is written escaped
        pass  # (try, not contextlib.suppress: that is two calls more on every record)
    try:
        safe = _escape(obj, 0)
        safe["escaped"] = True
        return _dumps(safe), True
    except Exception:  # the last resort must not fail either
        return _dumps({**{k: v for k, v in head.items() if isinstance(v, str | int)},
                       "phase": "unencodable", "escaped": True}), True


def encode_plain(heads: list[dict[str, Any]], records: list[Any]) -> bytes | None:
    """The lines `encode(head, record)` makes of each pair, joined, made in one go when every
    record is a plain dict of strict JSON and every line plainly within the bounds of
    TEXT_LIMIT, as `within_bounds` judges them (no line a record of a trail's limit could be
    cut to): the same bytes. None when any is not; then each is encoded, and bounded, on its
    own. The writer's batch of reads costs no Python call per record this way."""
    if _C_ENCODE is None or set(map(type, records)) - {dict}:
        return None
    try:
        # head first and head's values, as encode(): a record cannot forge its own time
        objs = [{**head, **record, **head} for head, record in zip(heads, records,
                                                                    strict=True)]
        text = "\n".join(map("".join, map(_C_ENCODE, objs, repeat(0)))) + "\n"
        if not text.isascii():
            text = text.translate(_LINE_BREAKS)
        data = text.encode("utf-8")  # a lone surrogate: encoded (escaped) on its own
    except Exception:  # anything JSON cannot say: each record is encoded on its own
        return None
    if b"\\" in data or _LONGER_THAN[TEXT_LIMIT].search(data) is not None:
        return None  # an escape (within_bounds judges no line with one), or a long text
    lines = data.split(b"\n")
    if max(map(bytes.count, lines, repeat(b","))) >= MAX_ITEMS or \
            max(map(add, map(bytes.count, lines, repeat(b"{")),
                    map(bytes.count, lines, repeat(b"[")))) >= MAX_DEPTH:
        return None  # a list or mapping that may be too long, or nesting too deep
    return data


#: characters JSON leaves raw but that many readers (Python's str.splitlines among them) take
#: for line ends; in JSON they can only be inside strings, where their escapes mean the same
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


#: built once: `json.dumps` with these arguments builds an encoder on every call
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                            check_circular=True)
#: ... and its C encoder, which `JSONEncoder.encode` makes anew for every line. Without the
#: cycle check: a cycle ends in RecursionError, and the record is written escaped as before
_C_ENCODE = c_make_encoder(None, _ENCODER.default, encode_basestring, None, ":", ",", False,
                           False, False) if c_make_encoder is not None else None


def _dumps(obj: Any) -> bytes:
    text = "".join(_C_ENCODE(obj, 0)) if _C_ENCODE is not None and isinstance(obj, dict) \
        else _ENCODER.encode(obj)
    if not text.isascii():  # the line breaks above are not ASCII: most lines need no pass
        text = text.translate(_LINE_BREAKS)
    return text.encode("utf-8") + b"\n"


def _escape_text(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _escape(v: Any, depth: int) -> Any:
    """Only what strict JSON and UTF-8 take: the rest as text that says what it was."""
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, str):
        return _escape_text(v)
    if isinstance(v, int):  # beyond ~1,200 digits Python refuses to print it; so do we
        return int(v) if v.bit_length() < 4000 else f"<int of {v.bit_length()} bits>"
    if isinstance(v, float):
        return float(v) if math.isfinite(v) else str(v)
    if depth >= MAX_DEPTH:
        return "<nested too deep>"
    if isinstance(v, dict):
        return {_escape_text(k) if isinstance(k, str) else _odd(k): _escape(x, depth + 1)
                for k, x in list(v.items())[:MAX_ITEMS]}
    if isinstance(v, list | tuple):
        return [_escape(x, depth + 1) for x in list(v)[:MAX_ITEMS]]
    return _odd(v)


def _odd(v: Any) -> str:
    try:
        text = repr(v)
    except Exception:  # a repr that raises is one more odd thing
        text = "?"
    return f"<{type(v).__name__}> {_escape_text(cut(text, 200))}"


def iso(ts: float) -> str:
    """UTC time with milliseconds, as every answer and audit line writes it."""
    return _iso_second(math.floor(ts)) + f".{int(ts % 1 * 1000):03d}Z"


@functools.lru_cache(maxsize=64)
def _iso_second(whole: int) -> str:
    # one strftime per second, not per answer and record: most stamps share their second
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
