"""Untrusted request payloads: every kind of bad one is refused with a reason, nothing slips by."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hermes_tools.mqtt.inbound import (
    MAX_COMMAND_BYTES,
    Incoming,
    Redeliveries,
    ReplyRules,
    command_event,
    ha_status,
    point_of_set_topic,
    set_event,
)

RULES = ReplyRules(default="hermesd/n1/response",
                   protected=("hermesd/n1/#", "homeassistant/#", "plant/yard/beacon/set"))
CMD = "hermesd/n1/command"


def _cmd(payload: bytes | str, **kw: Any) -> dict[str, Any]:
    raw = payload.encode() if isinstance(payload, str) else payload
    return command_event(Incoming(CMD, raw, **kw), RULES)


def _set(payload: bytes | str, **kw: Any) -> dict[str, Any]:
    raw = payload.encode() if isinstance(payload, str) else payload
    return set_event(Incoming("hermesd/n1/pump/set", raw, **kw), "pump", RULES)


def test_plain_text_and_json_commands() -> None:
    plain = _cmd("  read boiler 3 temperature \n")
    assert plain["text"] == "read boiler 3 temperature"
    assert plain["error"] is None and plain["id"] is None
    js = _cmd(json.dumps({"text": "read boiler 3 temperature", "id": "abc-1", "dry_run": True}))
    assert (js["text"], js["id"], js["dry_run"], js["error"]) == \
        ("read boiler 3 temperature", "abc-1", True, None)
    assert _cmd(json.dumps({"text": "hi", "id": 42}))["id"] == 42


def test_mqtt5_response_topic_and_correlation_are_kept() -> None:
    event = _cmd("hello", response_topic="clients/ha/answers", correlation=b"\x01\x02")
    assert event["reply_to"] == "clients/ha/answers"
    assert event["correlation"] == "0102"
    assert event["error"] is None


HOSTILE_COMMANDS: dict[str, tuple[str | bytes, str]] = {
    "oversize": ("x" * (MAX_COMMAND_BYTES + 1), "longer than"),
    "not utf-8": (b"\xff\xfe read", "UTF-8"),
    "empty": ("   ", "empty"),
    "control characters": ("read \x00 boiler", "control characters"),
    "bad json": ('{"text": "read", ', "not valid JSON"),
    "json list": ('["read boiler"]', "JSON object"),
    "deep nesting": ("[" * 2040 + "]" * 2040, "nested deeper than"),
    "lone surrogate": ('{"text": "\\udcff"}', "lone surrogate"),
    "lone surrogate in a key": ('{"text": "hi", "\\ud800": 1}', "lone surrogate"),
    "Infinity": ('{"text": "read", "id": -Infinity}', "not valid JSON"),
    "overflowing number": ('{"text": "read", "id": 1e400}', "too large"),
    "huge integer": ('{"text": "read", "id": ' + "9" * 5000 + '}', "longer than"),
    "duplicate keys": ('{"text": "read a", "text": "write b"}', "duplicate key"),
    "NaN": ('{"text": "read", "id": NaN}', "not valid JSON"),
    "unknown field": ('{"text": "read", "role": "engineer"}', "unknown field(s): 'role'"),
    "no text": ('{"id": 1}', "needs \"text\""),
    "text not a string": ('{"text": 5}', "needs \"text\""),
    "bool id": ('{"text": "read", "id": true}', "\"id\" must be"),
    "huge id": ('{"text": "read", "id": "' + "i" * 200 + '"}', "\"id\" must be"),
    "dry_run not bool": ('{"text": "read", "dry_run": "yes"}', "\"dry_run\" must be"),
    # JSON that must not be taken for words (the beacon the review switched off)
    "two byte-order marks": ('\ufeff\ufeff{"text": "turn off the beacon", "dry_run": true}',
                             "invisible or formatting character (U+FEFF)"),
    "zero-width space before JSON": ('\u200b{"text": "turn off the beacon", "dry_run": true}',
                                     "invisible or formatting character (U+200B)"),
    "JSON after words": ('turn off the beacon {"dry_run": true}', "{ } [ or ]"),
    "fullwidth braces": ('\uff5b"text": "x"\uff5d', "{ } [ or ]"),
    "a JSON member in words": ('turn off the beacon, "dry_run": true', "JSON member"),
    "a dry run in words": ("dry run: turn off the beacon", "asks for a dry run in words"),
    "JSON inside the text": ('{"text": "{\\"text\\": \\"turn off\\"}"}', "{ } [ or ]"),
    "bidi override in the text": ('{"text": "turn \u202eoff"}', "U+202E"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_COMMANDS))
def test_hostile_commands_are_refused_with_a_reason(name: str) -> None:
    payload, reason = HOSTILE_COMMANDS[name]
    event = _cmd(payload)
    assert event["text"] is None
    assert event["error"]["code"] == "BAD_REQUEST"
    assert reason in event["error"]["message"]


def test_one_byte_order_mark_is_dropped() -> None:
    event = _cmd('\ufeff {"text": "turn off the beacon", "id": "b1", "dry_run": true}')
    assert (event["text"], event["id"], event["dry_run"]) == ("turn off the beacon", "b1", True)
    js = _set('\ufeff{"value": "ON", "dry_run": true}')
    assert (js["value"], js["dry_run"], js["error"]) == ("ON", True, None)
    assert _set("\ufeffON")["value"] == "ON"


@pytest.mark.parametrize(("payload", "reason"), [
    ('\ufeff\ufeff{"value": "x", "dry_run": true}', "U+FEFF"),
    ('label {"dry_run": true}', "{ } [ or ]"),
    ('"dry_run": true', "JSON member"),
    ('{"value": "a\u200bb"}', "U+200B"),
])
def test_a_set_meant_as_json_is_never_a_plain_value(payload: str, reason: str) -> None:
    event = _set(payload)
    assert event["value"] is None and reason in event["error"]["message"]


def test_a_refused_json_command_still_carries_its_id() -> None:
    event = _cmd('{"text": "read", "id": "r7", "extra": 1}')
    assert event["id"] == "r7" and event["error"] is not None


@pytest.mark.parametrize("payload", [
    '{"text": "\\udcff", "id": "r8"}', '{"text": "read", "id": "r8", "x": NaN}',
    '{"text": 1e999, "id": "r8"}', '{"id": "r8", "text": "a", "text": "b"}',
])
def test_the_id_of_a_payload_that_is_not_strict_json_is_recovered(payload: str) -> None:
    event = _cmd(payload)
    assert event["error"]["code"] == "BAD_REQUEST" and event["text"] is None
    assert event["id"] == "r8"
    assert _set(payload.replace('"text"', '"value"'))["id"] == "r8"


@pytest.mark.parametrize("payload", ['{"text": "read", "id": "\\udcff"}',
                                     '{"text": "read", "id": NaN}',
                                     '{"text": "read", "id": "a\\u0000b"}'])
def test_an_id_that_is_not_clean_is_never_passed_on(payload: str) -> None:
    event = _cmd(payload)
    assert event["error"]["code"] == "BAD_REQUEST" and event["id"] is None
    json.dumps(event, allow_nan=False).encode()  # nothing in it that JSON or UTF-8 refuses


@pytest.mark.parametrize(("topic", "reason"), [
    ("homeassistant/switch/n1/pump/config", "Home Assistant's or a device's own topics"),
    ("hermesd/n1/pump/set", "own topics"),
    ("plant/yard/beacon/set", "own topics"),
    ("answers/+", "wildcard"),
    ("$SYS/broker", "broker topic"),
    ("a" * 300, "longer than"),
])
def test_response_topics_that_could_do_harm_are_refused(topic: str, reason: str) -> None:
    event = _cmd("read boiler", response_topic=topic, correlation=b"c")
    assert event["text"] is None and event["reply_to"] is None
    assert reason in event["error"]["message"]
    assert event["correlation"] == "63"  # still echoed, so the requester can match the refusal


def test_the_default_response_topic_is_allowed() -> None:
    assert _cmd("hi", response_topic="hermesd/n1/response")["reply_to"] == "hermesd/n1/response"


def test_oversize_correlation_data_is_refused() -> None:
    assert _cmd("hi", correlation=b"x" * 300)["error"]["code"] == "BAD_REQUEST"


def test_set_payloads() -> None:
    assert _set("1000")["value"] == "1000"
    assert _set(" ON ")["value"] == "ON"
    js = _set(json.dumps({"value": 12.5, "id": 9}))
    assert (js["value"], js["id"], js["error"]) == (12.5, 9, None)
    assert _set(json.dumps({"value": False}))["value"] is False


@pytest.mark.parametrize(("payload", "reason"), [
    ("9" * 300, "longer than"),
    ("", "empty"),
    ('{"value": [1, 2]}', "not a list"),
    ('{"value": null}', "not null"),
    ('{"value": {"x": 1}}', "not an object"),
    ('{"id": 3}', "needs \"value\""),
    ('{"value": 1, "point": "other"}', "unknown field(s): 'point'"),
    ('{"value": Infinity}', "not valid JSON"),
    ('{"value": 1e400}', "too large"),
    ('{"value": "\\udcff"}', "lone surrogate"),
    (b"\xed\xb3\xbf", "UTF-8"),  # a surrogate, encoded: not UTF-8
])
def test_hostile_set_payloads_are_refused(payload: str | bytes, reason: str) -> None:
    event = _set(payload)
    assert event["value"] is None
    assert reason in event["error"]["message"]


@pytest.mark.parametrize("point", ["a.b", "über", "x" * 201, "-lead", "sp ace", "tab\t", ""])
def test_a_set_topic_that_can_name_no_point_is_refused(point: str) -> None:
    event = set_event(Incoming(f"hermesd/n1/{point}/set", b"1"), point, RULES)
    assert event["value"] is None and "names no point" in event["error"]["message"]


def test_point_of_set_topic() -> None:
    f = "hermesd/n1/+/set"
    assert point_of_set_topic("hermesd/n1/pump1_speed/set", f) == "pump1_speed"
    assert point_of_set_topic("hermesd/n1/set", f) is None
    assert point_of_set_topic("hermesd/n1//set", f) == ""  # an empty level: refused, answered
    assert point_of_set_topic("hermesd/n2/pump/set", f) is None
    assert point_of_set_topic("hermesd/n1/a/b/set", f) is None


def test_ha_status() -> None:
    def status(payload: bytes) -> bool | None:
        return ha_status(Incoming("homeassistant/status", payload))

    assert status(b"online") is True
    assert status(b"offline") is False
    assert status(b"restarting") is None
    assert status(b"online" * 100) is None
    assert status(b" online\n") is True
    assert status(b"\xffonline") is None


def test_a_redelivery_is_spotted_but_a_repeat_on_purpose_is_not() -> None:
    seen = Redeliveries()
    msg = Incoming(CMD, b"set feed pump 1 to 900 rpm")
    assert not seen.seen_again(msg)
    assert not seen.seen_again(msg)  # sent twice on purpose (no DUP flag): runs twice
    assert seen.seen_again(Incoming(CMD, msg.payload, dup=True))
    assert not seen.seen_again(Incoming(CMD, b"another command", dup=True))
