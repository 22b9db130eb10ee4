"""Generated MQTT messages of hostile clients: any bytes, any topic level, big payloads, JSON that
is not strict, odd response topics and user properties, on hermesd's command and set topics and
next to them; and retained requests, which must never run again on a reconnect.

Each message says, by construction, what it may make hermesd write (`Message.says`): a set
payload's stated value (`stated_value`: a plain decimal or JSON number, or an on/off word for a
switch), a generated command's one number, nothing for everything else. Whether the command
role may write that point, in range, is for the judge to add. Parametrised by the plant (the
base topic `B/N`, its points), so the soak's dev plant and a test's small one both use it.
Topics and properties hold only what a broker takes (no surrogates, controls or non-characters:
Mosquitto disconnects a client that sends them; no wildcards in a topic published to).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from hypothesis import strategies as st

LEVEL = st.characters(exclude_categories=("Cs", "Cc", "Cn"), exclude_characters="/+#")
TOPIC_TEXT = st.characters(exclude_categories=("Cs", "Cc", "Cn"), exclude_characters="+#")
SURROGATES = st.sampled_from(["\udcff", "a\ud800", "\udfff\ud800"])
ANY_TEXT = st.one_of(st.text(max_size=40), SURROGATES, st.text(LEVEL, max_size=10))
IDS = st.one_of(st.text(max_size=20), st.integers(-2**60, 2**60), st.floats(), st.booleans(),
                st.none(), SURROGATES)
VALUES = st.one_of(st.integers(-10**30, 10**30), st.floats(), st.booleans(), ANY_TEXT,
                   st.none(), st.lists(st.integers(), max_size=2),
                   st.sampled_from(["1_000", "١٢٣", "+5", ".5", "0x5DD", "1e3", "-0", "ON"]))
NUMBER_TEXTS = st.one_of(
    st.integers(-5000, 5000).map(str),
    st.sampled_from(["1_000", "١٢٣", "１２", "+5", ".5", "5.", "0012", "0x5DD", "1e3", "-0",
                     "NaN", "inf", "-Infinity", "1e400", " 12 ", "ON", "off", "TRUE", "maybe"]))
JUNK_JSON = st.sampled_from([
    b'{"text": NaN}', b'{"value": 1e400}', b'{"value": -Infinity}', b"[" * 3000,
    b'{"text": "read it", "text": "set it to 5"}', b'{"text": "\\udcff", "id": "s1"}',
    b'{"value": "\\ud800", "id": 7}', b'{"text": "read it"', b"\xed\xb3\xbf", b"\xff\xfe",
    b'{"text": "set it to 100", "role": "engineer"}', b'{"value": 100, "dry_run": "no"}',
    b"{}", b"[]", b"null", b'"text"', b"\x00", b" "])
QOS = st.sampled_from([0, 1])
USER_PROPERTIES = st.lists(st.tuples(st.text(LEVEL, max_size=10), st.text(LEVEL, max_size=20)),
                           max_size=3)
TRUE_WORDS, FALSE_WORDS = frozenset({"true", "on", "1", "yes"}), frozenset({"false", "off", "0",
                                                                             "no"})
#: a number as a person or a program writes it plainly: no sign but minus, no exponent words,
#: ASCII digits only (JSON's exponents are fine: a program's number states one value)
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    qos: int
    response_topic: str | None
    user_properties: tuple[tuple[str, str], ...] = ()
    retain: bool = False
    says: tuple[str, Any] | None = None  # (point, value) it may make hermesd write, if any


def json_bytes(obj: dict[str, Any], ascii_only: bool) -> bytes:
    # non-ASCII output keeps a lone surrogate as one: encoded, it is not UTF-8
    return json.dumps(obj, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def stated_value(switch: bool, payload: bytes) -> Any:
    """The one value a set payload states (None when it states none): a plain number, or for a
    switch an on/off word, true/false or 0/1; in a JSON object, its `value`."""
    try:
        obj = json.loads(payload, parse_constant=lambda name: None)
    except (ValueError, RecursionError):
        obj = None
    if isinstance(obj, dict):
        value = obj.get("value")
    else:
        try:
            value = payload.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if isinstance(value, str):
        text = value.strip().lower()
        if switch:
            return True if text in TRUE_WORDS else False if text in FALSE_WORDS else None
        if not _PLAIN_NUMBER.fullmatch(text):
            return None
        try:
            number = Decimal(text)
        except InvalidOperation:
            return None
        return int(number) if number == number.to_integral_value() else float(number)
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if switch:
            return bool(value) if value in (0, 1) else None
        return value
    return None


def messages(base: str, points: dict[str, bool], replies: str) -> st.SearchStrategy[Message]:
    """Messages to hermesd at `base` (`B/N`) with `points` (id -> is a switch), answers asked for
    under `replies`: a third well-formed enough to reach policy, a third aimed at parsing, a
    third anything."""
    command = f"{base}/command"
    ids = st.sampled_from([*points, "nope"])
    topics = st.one_of(
        st.just(command),
        ids.map(lambda p: f"{base}/{p}/set"),
        st.text(LEVEL, max_size=30).map(lambda p: f"{base}/{p}/set"),  # any level, even empty
        st.text(TOPIC_TEXT, min_size=1, max_size=40).map(lambda t: f"{base}/{t}"),
        st.sampled_from(["homeassistant/status", f"{base}/talk", f"{base}/{next(iter(points))}/state"]),
    )
    response_topics = st.one_of(
        st.none(), st.just(f"{replies}/panel"),
        st.text(TOPIC_TEXT, min_size=1, max_size=30).map(lambda t: f"{replies}/{t}"),
        st.sampled_from([f"{base}/{next(iter(points))}/set", command, f"{base}/availability",
                         "$SYS/broker/x", "homeassistant/number/x/y/config", "r" * 300]))
    command_texts = st.tuples(st.sampled_from(["set", "change", "put"]), ids,
                              st.integers(-100, 5000), st.sampled_from(["", " please", " now"]))
    said_commands = command_texts.map(lambda t: (f"{t[0]} {t[1]} to {t[2]}{t[3]}", (t[1], t[2])))
    set_payloads = st.one_of(
        NUMBER_TEXTS.map(str.encode), JUNK_JSON,
        st.builds(json_bytes, st.fixed_dictionaries(
            {"value": st.one_of(VALUES, st.integers(-100, 4000))},
            optional={"id": IDS, "dry_run": st.booleans()}), st.booleans()))

    @st.composite
    def a_set(draw: st.DrawFn) -> Message:
        point = draw(ids)
        payload = draw(set_payloads)
        says = None if point not in points else (point, stated_value(points[point], payload))
        return Message(f"{base}/{point}/set", payload, draw(QOS), draw(response_topics),
                       tuple(draw(USER_PROPERTIES)), says=says if says and says[1] is not None
                       else None)

    @st.composite
    def a_command(draw: st.DrawFn) -> Message:
        text, (point, n) = draw(said_commands)
        says: tuple[str, Any] | None = (point, n)
        if points.get(point):  # a switch is on or off: 1 and 0 say so, other numbers nothing
            says = (point, bool(n)) if n in (0, 1) else None
        shape = draw(st.sampled_from(["text", "json", "junk"]))
        if shape == "junk":
            payload, says = draw(JUNK_JSON), None
        elif shape == "json":
            obj: dict[str, Any] = {"text": text}
            extra = draw(st.fixed_dictionaries({}, optional={"id": IDS, "dry_run": st.booleans()}))
            payload = json_bytes({**obj, **extra}, draw(st.booleans()))
            if extra.get("dry_run") is True:
                says = None
        else:
            payload = text.encode()
        return Message(command, payload, draw(QOS), draw(response_topics),
                       tuple(draw(USER_PROPERTIES)), says=says)

    anything = st.builds(Message, topics, st.one_of(
        st.binary(max_size=300), st.integers(4097, 40_000).map(lambda n: b"x" * n), JUNK_JSON,
        NUMBER_TEXTS.map(str.encode), st.builds(json_bytes, st.fixed_dictionaries(
            {"text": ANY_TEXT}, optional={"id": IDS, "role": st.just("engineer")}),
            st.booleans())), QOS, response_topics, USER_PROPERTIES.map(tuple))
    return st.one_of(a_set(), a_command(), anything)


def retained_requests(base: str, writes: dict[str, tuple[bool, float, float]],
                      replies: str) -> st.SearchStrategy[Message]:
    """A request its sender asks the broker to keep: a set of a point the command role may write
    (`writes`: id -> (is a switch, min, max)) with a plain value in range, or a command saying
    one. Live, it runs once; kept, it must never run again (on a reconnect)."""
    @st.composite
    def one(draw: st.DrawFn) -> Message:
        point = draw(st.sampled_from(sorted(writes)))
        switch, lo, hi = writes[point]
        value: Any = draw(st.booleans()) if switch else draw(st.integers(int(lo), int(hi)))
        shown = ("ON" if value else "OFF") if switch else str(value)
        if draw(st.booleans()):
            topic, payload = f"{base}/{point}/set", shown.encode()
        else:
            topic, payload = f"{base}/command", f"set {point} to {shown}".encode()
        return Message(topic, payload, 1, f"{replies}/kept", retain=True, says=(point, value))
    return one()
