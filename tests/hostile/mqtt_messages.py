"""Generated MQTT messages of hostile clients: any bytes, any topic level, big payloads, JSON that
is not strict, odd response topics and user properties, on hermesd's command and set topics and
next to them; and retained requests, which must never run again on a reconnect.

Each message says, by construction, what it may make hermesd write (`Message.says`): on a set
topic, the value its payload states (`stated_value`: a JSON number, or for a switch an on/off
word, true/false or 0/1); on the command topic, the one number of a generated command; nothing
for a dry run or anything else. Whether the command role may write that point, in range, is for
the judge to add. Parametrised by the plant (the base topic `B/N`, its points), so a test's
small plant (tests/hostile/test_mqtt_payloads.py) and the soak's dev plant
(tests/support/soak/hostile_inputs.py) draw the same messages. Topics and properties hold only what
a broker takes (no surrogates, controls or non-characters: Mosquitto disconnects a client that
sends them; no wildcards in a topic published to).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from hermesd.core import strict_json
from hermesd.mqtt.requests import JSON_NUMBER

# what a broker takes in a topic or a property: no surrogates, controls or non-characters
# (Mosquitto disconnects a client that sends them), no wildcards in a topic it publishes to
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
    b'{"text": "read speed", "text": "set speed to 5"}', b'{"text": "\\udcff", "id": "s1"}',
    b'{"value": "\\ud800", "id": 7}', b'{"text": "read speed"', b"\xed\xb3\xbf", b"\xff\xfe",
    b'{"text": "set speed to 100", "role": "engineer"}', b'{"value": 100, "dry_run": "no"}',
    b"{}", b"[]", b"null", b'"text"', b"\x00", b" ",
    b'\xef\xbb\xbf\xef\xbb\xbf{"text": "set speed to 100", "dry_run": true}',  # two BOMs
    b'\xe2\x80\x8b{"value": 100, "dry_run": true}',  # a zero-width space first
    b'set speed to 100 {"dry_run": true}', b"dry run: set speed to 100"])
QOS = st.sampled_from([0, 1])
USER_PROPERTIES = st.lists(st.tuples(st.text(LEVEL, max_size=10) | st.just("\ufeff"),
                                     st.text(LEVEL, max_size=20)), max_size=3)
TRUE_WORDS, FALSE_WORDS = frozenset({"true", "on", "1", "yes"}), frozenset({"false", "off", "0",
                                                                             "no"})
_COMMAND = re.compile(r"(?:set|change|put) (\S+) to (-?[0-9]+)(?: please| now)?")


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    qos: int
    response_topic: str | None
    user_properties: list[tuple[str, str]] = field(default_factory=list)
    retain: bool = False
    says: tuple[str, Any] | None = None  # (point, value) it may make hermesd write, if any


def json_bytes(obj: dict[str, Any], ascii_only: bool) -> bytes:
    # non-ASCII output keeps a lone surrogate as one: encoded, it is not UTF-8
    return json.dumps(obj, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def stated_value(switch: bool, payload: bytes) -> Any:
    """The value a set payload states for a point (a switch, or not); None when it states none
    hermesd could take: text must be a JSON number, or for a switch an on/off word."""
    try:
        obj = strict_json.loads(payload)
    except Exception:
        obj = None
    value = obj.get("value") if isinstance(obj, dict) else payload.decode("utf-8", "replace")
    if isinstance(value, str):
        text = value.strip()
        if switch:
            return True if text.lower() in TRUE_WORDS else False if text.lower() in FALSE_WORDS \
                else None
        return float(text) if JSON_NUMBER.fullmatch(text) else None
    if switch and isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    return value


def says(topic: str, payload: bytes, base: str, points: dict[str, bool]) -> tuple[str, Any] | None:
    """The one write a message may make hermesd do (point, value), or None."""
    try:
        obj = strict_json.loads(payload)
    except Exception:
        obj = None
    if isinstance(obj, dict) and obj.get("dry_run") is True:
        return None
    point = topic.removeprefix(f"{base}/").removesuffix("/set")
    if topic == f"{base}/{point}/set" and point in points:
        value = stated_value(points[point], payload)
        return None if value is None or isinstance(value, list | dict) else (point, value)
    if topic != f"{base}/command":
        return None
    text = obj.get("text") if isinstance(obj, dict) else payload.decode("utf-8", "replace")
    match = _COMMAND.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or match.group(1) not in points:
        return None
    point, number = match.group(1), int(match.group(2))
    if points[point]:  # a switch is on or off: 1 and 0 say so, other numbers nothing
        return (point, bool(number)) if number in (0, 1) else None
    return point, number


def messages(base: str, points: dict[str, bool], replies: str) -> st.SearchStrategy[Message]:
    """Messages to hermesd at `base` (`B/N`) with `points` (id -> is a switch; the first is the
    one whose state and set topics are offered as odd places for an answer), answers asked for
    under `replies`: a third well-formed enough to reach policy, a third aimed at parsing, a
    third anything."""
    command, response = f"{base}/command", f"{base}/response"
    first = next(iter(points))
    ids = st.sampled_from([*points, "nope"])
    command_texts = st.builds(lambda verb, point, n, tail: f"{verb} {point} to {n}{tail}",
                              st.sampled_from(["set", "change", "put"]), ids,
                              st.integers(-100, 5000), st.sampled_from(["", " please", " now"]))
    payloads = st.one_of(
        st.binary(max_size=300),
        st.integers(4097, 40_000).map(lambda n: b"x" * n),
        JUNK_JSON,
        NUMBER_TEXTS.map(str.encode),
        command_texts.map(str.encode),
        st.builds(json_bytes, st.fixed_dictionaries(
            {"text": st.one_of(command_texts, ANY_TEXT)},
            optional={"id": IDS, "dry_run": st.one_of(st.booleans(), ANY_TEXT),
                      "role": st.just("engineer")}), st.booleans()),
        st.builds(json_bytes, st.fixed_dictionaries(
            {"value": VALUES},
            optional={"id": IDS, "dry_run": st.booleans(), "point": ids}), st.booleans()),
    )
    topics = st.one_of(
        st.just(command),
        ids.map(lambda p: f"{base}/{p}/set"),
        st.text(LEVEL, max_size=30).map(lambda p: f"{base}/{p}/set"),  # any level, even empty
        st.text(TOPIC_TEXT, min_size=1, max_size=40).map(lambda t: f"{base}/{t}"),
        st.sampled_from(["homeassistant/status", f"{base}/talk", f"{base}/{first}/state"]),
    )
    node = base.rpartition("/")[2]
    response_topics = st.one_of(
        st.none(), st.just(f"{replies}/panel"),
        st.text(TOPIC_TEXT, min_size=1, max_size=30).map(lambda t: f"{replies}/{t}"),
        st.sampled_from([f"{base}/{first}/set", command, f"{base}/availability",
                         "$SYS/broker/x", f"homeassistant/number/{node}/{first}/config",
                         f"{base.rpartition('/')[0]}/other-node/command",
                         f"{base.rpartition('/')[0]}/other-node/{first}/set",
                         "r" * 300, response,
                         f"{replies}/\ufeff"]))  # U+FEFF: allowed by MQTT, refused by paho
    set_payloads = st.one_of(
        NUMBER_TEXTS.map(str.encode), JUNK_JSON,
        st.builds(json_bytes, st.fixed_dictionaries(
            {"value": st.one_of(VALUES, st.integers(-100, 4000))},
            optional={"id": IDS, "dry_run": st.booleans()}), st.booleans()))
    command_payloads = st.one_of(
        command_texts.map(str.encode), JUNK_JSON,
        st.builds(json_bytes, st.fixed_dictionaries(
            {"text": command_texts}, optional={"id": IDS, "dry_run": st.booleans()}),
                  st.booleans()))

    def said(m: Message) -> Message:
        return Message(m.topic, m.payload, m.qos, m.response_topic, m.user_properties,
                       says=says(m.topic, m.payload, base, points))

    return st.one_of(
        st.builds(Message, ids.map(lambda p: f"{base}/{p}/set"), set_payloads, QOS,
                  response_topics, USER_PROPERTIES),
        st.builds(Message, st.just(command), command_payloads, QOS, response_topics,
                  USER_PROPERTIES),
        st.builds(Message, topics, payloads, QOS, response_topics, USER_PROPERTIES),
    ).map(said)


def retained_requests(base: str, writes: dict[str, tuple[bool, float, float]],
                      replies: str) -> st.SearchStrategy[Message]:
    """A request its sender asks the broker to keep: a set of a point the command role may write
    (`writes`: id -> (is a switch, min, max)) with a plain value in range, or a command saying
    a number for one (a switch is set on its set topic: words name it better than its id).
    Live, it runs once; kept, it must never run again (on a reconnect)."""
    @st.composite
    def one(draw: st.DrawFn) -> Message:
        point = draw(st.sampled_from(sorted(writes)))
        switch, lo, hi = writes[point]
        value: Any = draw(st.booleans()) if switch else draw(st.integers(int(lo), int(hi)))
        shown = ("ON" if value else "OFF") if switch else str(value)
        if switch or draw(st.booleans()):
            topic, payload = f"{base}/{point}/set", shown.encode()
        else:
            topic, payload = f"{base}/command", f"set {point} to {shown}".encode()
        return Message(topic, payload, 1, f"{replies}/kept", retain=True, says=(point, value))
    return one()
