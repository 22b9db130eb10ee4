"""The tool protocol: every message type round-trips; bad frames raise ProtocolError."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hermesd.core.errors import ProtocolError
from hermesd.core.protocol import (
    EXPIRES_AT_VERSION,
    MAX_FRAME,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    ActionSpec,
    Call,
    Configure,
    Error,
    Event,
    FrameDecoder,
    Hello,
    Message,
    Ping,
    Pong,
    Result,
    decode,
    encode,
    encode_call,
    encode_result,
)

SPEC = ActionSpec("read", "Read a point.", {"type": "object"}, {"type": "object"}, "read")
SAMPLES: list[Message] = [
    Hello(tool="modbus", version="1.0", pid=42, actions=(SPEC,)),
    Configure(id=1, config={"devices": {"plc1": {"points": {}}}}),
    Call(id=2, action="read", args={"point": "boiler3_temp"},
         context={"trace_id": "abc", "role": "viewer"}, deadline_ms=1500),
    Call(id=5, action="write", args={"point": "speed", "value": 444}, context={},
         deadline_ms=3000, expires_at=81234.5625),
    Result(id=2, value={"point": "boiler3_temp", "value": 523.4, "ts": 1.5}),
    Error(id=3, code="DEVICE_OFFLINE", message="plc1 does not answer", retryable=False),
    Event(kind="values", data={"values": [{"point": "x", "value": True, "ts": 2.0}]}),
    Ping(id=4),
    Pong(id=4),
]


def test_every_message_type_has_a_sample() -> None:
    assert {type(m) for m in SAMPLES} == set(MESSAGE_TYPES.values())


@pytest.mark.parametrize("message", SAMPLES, ids=lambda m: m.TYPE)
def test_round_trip(message: Message) -> None:
    frame = encode(message)
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1
    (obj,) = FrameDecoder().feed(frame)
    assert decode(obj) == message


def test_frames_split_anywhere_are_reassembled() -> None:
    stream = b"".join(encode(m) for m in SAMPLES)
    decoder = FrameDecoder()
    got: list[Message] = []
    for i in range(0, len(stream), 7):
        got.extend(decode(o) for o in decoder.feed(stream[i:i + 7]))
    assert got == SAMPLES
    assert decoder.pending == 0


def test_unicode_survives() -> None:
    msg = Result(id=1, value={"reply": "3号锅炉 523.4 °C"})
    (obj,) = FrameDecoder().feed(encode(msg))
    assert decode(obj) == msg


@pytest.mark.parametrize(("raw", "message"), [
    (b"not json\n", "not valid JSON"),
    (b"[1, 2]\n", "not an object"),
    (b'{"type": "nope"}\n', "unknown message type"),
    (b'{"id": 1}\n', "unknown message type"),
    (b'{"type": "ping"}\n', "missing field 'id'"),
    (b'{"type": "ping", "id": "1"}\n', "expected an integer"),
    (b'{"type": "ping", "id": true}\n', "expected an integer"),
    (b'{"type": "ping", "id": 1, "extra": 2}\n', "unknown field(s) extra"),
    (b'{"type": "error", "id": 1, "code": "OOPS", "message": "x"}\n', "not a documented code"),
    (b'{"type": "call", "id": 1, "action": "read", "args": [], "context": {}, "deadline_ms": 5}\n',
     "expected an object"),
    (b'{"type": "call", "id": 1, "action": "read", "args": {}, "context": {}, "deadline_ms": 5, '
     b'"expires_at": "soon"}\n', "expected a number"),
    (b'{"type": "call", "id": 1, "action": "read", "args": {}, "context": {}, "deadline_ms": 5, '
     b'"expires_at": true}\n', "expected a number"),
    (b'{"type": "call", "id": 1, "action": "read", "args": {}, "context": {}, "deadline_ms": 5, '
     b'"expires_at": 1' + b"0" * 400 + b'}\n', "outside 64 bits"),
    (b'{"type": "call", "id": 1, "action": "read", "args": {}, "context": {}, "deadline_ms": 5, '
     b'"expires": 1.5}\n', "unknown field(s) expires"),
    (b'{"type": "hello", "tool": "t", "version": "1", "pid": 1, "actions": [1]}\n',
     "expected objects"),
    (b'{"type": "hello", "tool": "t", "version": "1", "pid": 1, "actions": [{"name": "a", '
     b'"description": "", "input_schema": {}, "output_schema": {}, "effect": "delete"}]}\n',
     "effect"),
    (b"\xff\xfe\n", "not valid JSON"),
])
def test_bad_frames_raise(raw: bytes, message: str) -> None:
    def decode_all() -> None:
        for obj in FrameDecoder().feed(raw):
            decode(obj)

    with pytest.raises(ProtocolError, match=message.replace("(", r"\(").replace(")", r"\)")):
        decode_all()


def test_oversize_frame_raises_before_its_end() -> None:
    decoder = FrameDecoder(limit=1024)
    decoder.feed(b"x" * 1000)
    with pytest.raises(ProtocolError, match="exceeds 1024"):
        decoder.feed(b"x" * 100)  # no newline yet: refused without waiting for one


def test_oversize_message_is_not_encoded() -> None:
    big: dict[str, Any] = {"blob": "x" * (MAX_FRAME + 1)}
    with pytest.raises(ProtocolError, match="exceeds"):
        encode(Result(id=1, value=big))


def test_encoding_is_compact_json() -> None:
    frame = encode(Ping(id=7))
    assert json.loads(frame) == {"type": "ping", "id": 7}


@pytest.mark.parametrize("value", [73.4, "中文 ok", {"point": "p", "value": True, "ts": 1.5},
                                   [1, None, {"deep": [2**63]}]])
def test_call_and_result_frames_are_those_of_their_messages(value: Any) -> None:
    """The frames every tool call and answer is sent as, built without the message first, are
    byte for byte the message's frame."""
    context = {"trace_id": "0123456789abcdef", "source": "control", "role": "viewer",
               "dry_run": False}
    assert encode_call(7, "read", {"value": value}, context, 5000) == \
        encode(Call(7, "read", {"value": value}, context, 5000))
    assert encode_result(7, value) == encode(Result(7, value))
    assert encode_call(7, "read", {"value": value}, context, 5000, 1234.25) == \
        encode(Call(7, "read", {"value": value}, context, 5000, 1234.25))


def test_a_call_without_its_absolute_deadline_is_the_version_1_frame() -> None:
    """A daemon sends `expires_at` only to a tool that speaks version 2; without it, the frame
    is byte for byte what version 1 sent (a tool of version 1 refuses an unknown field)."""
    assert PROTOCOL_VERSION >= EXPIRES_AT_VERSION == 2
    assert Hello(tool="t", version="1", pid=1, actions=()).protocol == PROTOCOL_VERSION
    frame = encode(Call(1, "read", {}, {}, 5))
    assert json.loads(frame) == {"type": "call", "id": 1, "action": "read", "args": {},
                                 "context": {}, "deadline_ms": 5}
    assert decode(json.loads(frame)).expires_at is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("expires_at", [12.5, 12, 0.0])
def test_an_absolute_deadline_decodes_the_same_on_the_fast_and_the_strict_path(
        expires_at: float) -> None:
    """The fast path takes a float; an integer (another encoder's 12 for 12.0) takes the strict
    one: both give the same message, a float."""
    obj = {"type": "call", "id": 1, "action": "read", "args": {}, "context": {},
           "deadline_ms": 5, "expires_at": expires_at}
    message = decode(obj)
    assert message == Call(1, "read", {}, {}, 5, float(expires_at))
    assert type(message.expires_at) is float


def test_call_and_result_frames_refuse_what_their_messages_refuse() -> None:
    huge = "x" * (MAX_FRAME + 1)
    with pytest.raises(ProtocolError):
        encode_call(1, "read", {"v": huge}, {}, 1)
    for value in (huge, float("nan"), 2**64):
        with pytest.raises(ProtocolError):
            encode_result(1, value)
