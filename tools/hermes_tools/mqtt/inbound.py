"""Requests that arrive over MQTT, checked before anything acts on them.

Every payload here comes from anyone who may publish to the broker. A command (`B/N/command`)
is plain text or a JSON object `{"text", "id", "dry_run"}`; a write request (`B/N/<point>/set`)
is a plain value or `{"value", "id", "dry_run"}`. Sizes are bounded before decoding, text must
be UTF-8, JSON is parsed by `hermesd.core.strict_json` (RFC 8259 only: no NaN or Infinity, no number
too large for a float, no lone surrogate escape, bounded nesting) and refuses duplicate keys,
unknown fields and wrong types are refused, a set topic must name a possible point id, and an
MQTT 5 response topic may not point into any hermesd node's namespace, the discovery prefix or a
device's topics (else an answer could overwrite an entity or drive a device), nor outside
`mqtt.response_topics` when that allow-list is set. The result is always an event for the
daemon: a request, or a refusal (`error`) it must answer, carrying the request's id when one
can be read even from a refused payload. Nothing that is not strict JSON is ever passed on, so
nothing of it can be echoed into an answer. Nothing here executes anything.

Which form a payload has is decided once, the same way for both topics, so JSON can never be
taken for words: one leading byte-order mark (U+FEFF) is dropped (RFC 8259 §8.1 lets a parser
ignore it; some editors and Windows tools write one), and a payload that then starts with `{`
or `[` after JSON's own whitespace is JSON — parsed strictly, or refused. Anything else is plain
text, and must be plain: no invisible or formatting characters (a second BOM, a zero-width
space, a bidi override — each could hide a `{` from the test above or the words from a reader),
no `{ } [ ]` and no JSON member (`"key": …`) even in compatibility forms (fullwidth braces), so
a JSON request that is disguised or broken is refused instead of run as words without its id
and dry-run flag. Command words may not ask for a dry run either ("dry run", "dry_run", …): the
router would not see it and would act; a dry run is asked for with `"dry_run": true`, and words
that mention one are taken only from a JSON command that states `dry_run` itself.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from paho.mqtt.client import topic_matches_sub

from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError

MAX_COMMAND_BYTES = 4096  # a command of 1000 characters, in UTF-8 and JSON, fits
MAX_SET_BYTES = 256
MAX_ID_CHARS = 128
MAX_CORRELATION_BYTES = 256
MAX_TOPIC_BYTES = 256
MAX_INT_ID = 2**53  # an id JSON carries exactly
COMMAND_FIELDS = ("text", "id", "dry_run")
SET_FIELDS = ("value", "id", "dry_run")
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}
BOM = "\ufeff"
JSON_SPACE = " \t\n\r"  # the only whitespace RFC 8259 allows before a JSON text
#: general categories plain text may not hold: format (BOM, zero-width, bidi controls),
#: private use and unassigned code points (surrogates cannot pass the UTF-8 decoder)
_INVISIBLE = frozenset({"Cf", "Co", "Cn"})
_STRUCTURE = re.compile(r"[{}\[\]]")
_MEMBER = re.compile(r'"[^"]*"\s*:')
#: a dry run asked for in words (on NFKC-folded text): "dry run", "dry-run", "dry_run", "dryrun"
_DRY_RUN_WORDS = re.compile(r"(?<![a-z0-9])dry[\s_\-.]*run(?![a-z0-9])")
#: what a config point id may be (config.loader's IDENT), with a bound on its length
_POINT_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,199}")


@dataclass(frozen=True, slots=True)
class Incoming:
    """One message as it arrived (copied out of paho's message)."""

    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False
    dup: bool = False
    response_topic: str | None = None  # MQTT 5 only
    correlation: bytes | None = None  # MQTT 5 only


class Refused(Exception):
    """A payload that is not a request we take; the message says what is wrong with it.

    `request_id` is the id the payload carried, when one could be read despite the fault,
    so the refusal reaches the requester under it."""

    def __init__(self, message: str, request_id: str | int | None = None) -> None:
        super().__init__(message)
        self.request_id = request_id


@dataclass(frozen=True, slots=True)
class ReplyRules:
    """Where answers go by default, the topics an answer may never be sent to, and (when the
    config lists them) the only other topics it may be sent to."""

    default: str
    #: topic filters: every hermesd node's namespace (`B/#`), discovery, device topics
    protected: tuple[str, ...]
    #: `mqtt.response_topics`: topic filters an answer may go to; None: any not protected
    allowed: tuple[str, ...] | None = None


def check_reply_topic(topic: str, rules: ReplyRules) -> None:
    """Raise Refused unless `topic` is a place an answer may be published to."""
    if not topic:
        raise Refused("the response topic is empty")
    if len(topic.encode()) > MAX_TOPIC_BYTES:
        raise Refused(f"the response topic is longer than {MAX_TOPIC_BYTES} bytes")
    if any(ch in topic for ch in "+#\x00"):
        raise Refused(f"the response topic {show(topic)} contains a wildcard or NUL")
    if topic.startswith("$"):
        raise Refused(f"the response topic {show(topic)} is a broker topic ($...)")
    if topic == rules.default:
        return
    for pattern in rules.protected:
        if topic_matches_sub(pattern, topic):
            raise Refused(f"answers may not be sent to {show(topic)}: it is one of hermesd's, "
                          "Home Assistant's or a device's own topics")
    if rules.allowed is not None and not any(topic_matches_sub(pattern, topic)
                                             for pattern in rules.allowed):
        raise Refused(f"answers may not be sent to {show(topic)}: it is not {rules.default} and "
                      "not in mqtt.response_topics")


class Redeliveries:
    """Spots a QoS 1 redelivery (DUP flag) of a request seen a moment ago.

    A request with an id or correlation data is also deduplicated by the daemon, for as long as
    it remembers answers; this catches the copies of plain-text requests too. Only messages
    flagged DUP are dropped: the same command sent twice on purpose runs twice.
    """

    def __init__(self, window: float = 60.0, memory: int = 4096) -> None:
        self.window = window
        self.memory = memory
        self._seen: OrderedDict[bytes, float] = OrderedDict()

    def seen_again(self, msg: Incoming) -> bool:
        key = hashlib.blake2b(b"\0".join((
            msg.topic.encode(), msg.payload, (msg.response_topic or "").encode(),
            msg.correlation or b"")), digest_size=16).digest()
        now = time.monotonic()
        while self._seen and (len(self._seen) >= self.memory
                              or next(iter(self._seen.values())) < now - self.window):
            self._seen.popitem(last=False)
        seen = key in self._seen
        self._seen[key] = now
        self._seen.move_to_end(key)
        return msg.dup and seen


def command_event(msg: Incoming, rules: ReplyRules) -> dict[str, Any]:
    """The `command` event for a message on the command topic (a request or a refusal)."""
    event = _base_event(msg, rules)
    event.update(text=None)
    try:
        if event["error"] is not None:
            return event
        raw, is_json = _payload(msg.payload, MAX_COMMAND_BYTES, "a command")
        if is_json:
            obj = _json_object(raw, "the command")
            event["id"] = _request_id(obj)
            _only(obj, COMMAND_FIELDS, "a command")
            text = obj.get("text")
            if not isinstance(text, str):
                raise Refused("a JSON command needs \"text\": the command as text")
            event["dry_run"] = _flag(obj, "dry_run")
            event["text"] = _words(text, "the command text", dry_run_stated="dry_run" in obj)
        else:
            event["text"] = _words(raw, "the command", dry_run_stated=False)
    except Refused as exc:
        event["error"] = _bad(str(exc))
        event["text"] = None
        if event["id"] is None:
            event["id"] = exc.request_id
    return event


def set_event(msg: Incoming, point: str, rules: ReplyRules) -> dict[str, Any]:
    """The `set` event for a message on `B/N/<point>/set` (a write request or a refusal)."""
    event = _base_event(msg, rules)
    event.update(point=point, value=None)
    try:
        if event["error"] is not None:
            return event
        if not _POINT_ID.fullmatch(point):
            raise Refused(f"the topic {show(msg.topic)} names no point: a point id is at most "
                          "200 letters, digits, _ and -")
        raw, is_json = _payload(msg.payload, MAX_SET_BYTES, "a write request")
        if is_json:
            obj = _json_object(raw, "the write request")
            event["id"] = _request_id(obj)
            _only(obj, SET_FIELDS, "a write request")
            if "value" not in obj:
                raise Refused("a JSON write request needs \"value\"")
            value = obj["value"]
            if isinstance(value, str):  # in JSON a text may hold braces; it is still checked
                value = _visible(_clean(value, "the value"), "the value")
            elif not isinstance(value, bool | int | float):
                raise Refused(f"the value must be a number, true/false or text, not "
                              f"{_kind(value)}")
            event["value"] = value
            event["dry_run"] = _flag(obj, "dry_run")
        else:
            event["value"] = _plain(raw, "the value")
    except Refused as exc:
        event["error"] = _bad(str(exc))
        event["value"] = None
        if event["id"] is None:
            event["id"] = exc.request_id
    return event


def point_of_set_topic(topic: str, set_filter: str) -> str | None:
    """`B/N/<point>/set` -> `<point>`, for the topics the set filter (`B/N/+/set`) matches.

    The level may be anything one topic level can hold, even empty: `set_event` refuses a
    level that cannot be a point id, so a request that reached us is always answered."""
    prefix = set_filter.removesuffix("+/set")
    if not topic.startswith(prefix):
        return None
    rest = topic[len(prefix):]
    if not rest.endswith("/set"):
        return None
    point = rest[:-len("/set")]
    return None if "/" in point else point


def ha_status(msg: Incoming) -> bool | None:
    """Home Assistant's birth (`online`) or will (`offline`); None for anything else."""
    if len(msg.payload) > 16:
        return None
    return {b"online": True, b"offline": False}.get(msg.payload.strip())


# -- pieces ------------------------------------------------------------------------------------


def _base_event(msg: Incoming, rules: ReplyRules) -> dict[str, Any]:
    event: dict[str, Any] = {"topic": msg.topic, "id": None, "dry_run": False, "reply_to": None,
                             "correlation": None, "error": None}
    if msg.correlation is not None:
        if len(msg.correlation) > MAX_CORRELATION_BYTES:
            event["error"] = _bad(f"correlation data longer than {MAX_CORRELATION_BYTES} bytes")
        else:
            event["correlation"] = msg.correlation.hex()
    if msg.response_topic is not None and event["error"] is None:
        try:
            check_reply_topic(msg.response_topic, rules)
        except Refused as exc:
            event["error"] = _bad(str(exc))
        else:
            event["reply_to"] = msg.response_topic
    return event


def _bad(message: str) -> dict[str, str]:
    return {"code": "BAD_REQUEST", "message": message}


def _text(payload: bytes, limit: int, what: str) -> str:
    if len(payload) > limit:
        raise Refused(f"{what} of {len(payload)} bytes is longer than the {limit} allowed")
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(f"{what} must be UTF-8 text") from None


def _payload(payload: bytes, limit: int, what: str) -> tuple[str, bool]:
    """The payload as text without one leading BOM, and whether it is meant as JSON."""
    raw = _text(payload, limit, what).removeprefix(BOM)
    return raw, raw.lstrip(JSON_SPACE).startswith(("{", "["))


def _visible(text: str, what: str) -> str:
    """`text`, unless it holds a character that shows nothing or is no character at all."""
    for ch in text:
        if unicodedata.category(ch) in _INVISIBLE:
            raise Refused(f"{what} holds an invisible or formatting character "
                          f"(U+{ord(ch):04X}); send plain text, or a JSON object")
    return text


def _plain(raw: str, what: str) -> str:
    """Plain text that is not JSON in disguise: JSON is sent as JSON, or refused.

    A refusal carries the id of a JSON object found inside, so it reaches its requester."""
    try:
        text = _visible(_clean(raw, what), what)
        folded = unicodedata.normalize("NFKC", text)  # fullwidth ｛ is { here
        if _STRUCTURE.search(folded):
            raise Refused(f"{what} holds {{ }} [ or ] but is not a JSON request (one starts "
                          "with { after at most one byte-order mark and spaces); send plain "
                          "words, or JSON")
        if _MEMBER.search(folded):
            raise Refused(f"{what} holds a JSON member (\"key\": ...) in plain text; send a "
                          "JSON object")
    except Refused as exc:
        start = raw.find("{")
        raise Refused(str(exc), _readable_id(raw[start:]) if start >= 0 else None) from None
    return text


def _words(raw: str, what: str, *, dry_run_stated: bool) -> str:
    """The words of a command; they may not ask for a dry run unless JSON states dry_run."""
    text = _plain(raw, what)
    if not dry_run_stated and _DRY_RUN_WORDS.search(unicodedata.normalize("NFKC", text)
                                                     .casefold()):
        raise Refused(f"{what} asks for a dry run in words, which would not stop it from "
                      "acting; send {\"text\": ..., \"dry_run\": true}")
    return text


def _clean(text: str, what: str) -> str:
    stripped = text.strip()
    if not stripped:
        raise Refused(f"{what} is empty")
    if any((ord(ch) < 32 and ch not in _ALLOWED_CONTROLS) or ord(ch) == 127 for ch in stripped):
        raise Refused(f"{what} contains control characters")
    return stripped


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {show(key)}")
        out[key] = value
    return out


_DUPLICATES = json.JSONDecoder(object_pairs_hook=_no_duplicates)


def _json_object(raw: str, what: str) -> dict[str, Any]:
    try:
        strict_json.loads(raw)  # the payload is bounded: a second parse below costs little
        obj = _DUPLICATES.decode(raw)  # strict JSON already: only duplicate keys can fail
    except (ProtocolError, ValueError) as exc:
        raise Refused(f"{what} is not valid JSON: {exc}", _readable_id(raw)) from None
    if not isinstance(obj, dict):
        raise Refused(f"{what} must be a JSON object, not {_kind(obj)}")
    return obj


def _readable_id(raw: str) -> str | int | None:
    """The id of a payload refused as JSON, when a lenient parse finds a good one in it.

    Only an id that passes `_request_id` (printable text, a whole number JSON carries exactly)
    is kept, so nothing non-standard in the payload reaches the answer."""
    try:
        obj = json.loads(raw, parse_constant=lambda _name: None)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    try:
        return _request_id(obj)
    except Refused:
        return None


def _only(obj: dict[str, Any], fields: Iterable[str], what: str) -> None:
    allowed = tuple(fields)
    unknown = sorted(k for k in obj if k not in allowed)
    if unknown:
        raise Refused(f"{what} takes only {', '.join(allowed)}; unknown field(s): "
                      f"{', '.join(show(k) for k in unknown)}")


def _request_id(obj: dict[str, Any]) -> str | int | None:
    if "id" not in obj or obj["id"] is None:
        return None
    rid = obj["id"]
    # isprintable() is false for surrogates, controls and unassigned code points
    if isinstance(rid, str) and 0 < len(rid) <= MAX_ID_CHARS and rid.isprintable():
        return rid
    if isinstance(rid, int) and not isinstance(rid, bool) and abs(rid) <= MAX_INT_ID:
        return rid
    raise Refused(f"\"id\" must be printable text of at most {MAX_ID_CHARS} characters or a "
                  "whole number")


def _flag(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise Refused(f"\"{key}\" must be true or false")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, float) and not math.isfinite(value):
        return "a non-finite number"
    return type(value).__name__


def show(text: str, limit: int = 60) -> str:
    """`text` for a log line or a message: quoted, escaped, and cut to `limit` characters."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."
