"""Two edges of every frame: a key named twice, and the last frame of a stream.

`{"op": "read", "point": "a", "point": "x"}` read x on the control socket (Python's `json`
keeps the last), while MQTT refused it: now strict JSON refuses a repeated key on every input
(control frames, tool frames, MQTT payloads, hermesctl's arguments), wherever in the text it
is and however it is spelled (`"a"` and `"\\u0061"` are one key). And a client that sent its
last request without a newline and closed its side got no answer: now it is answered.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd.control.requests import RequestDecoder
from hermesd.core import strict_json
from hermesd.core.errors import ProtocolError
from hermesd.core.protocol import FrameDecoder, parse_frame
from tests.hostile.strategies import strict_values, texts
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.peers import NOBODY, as_user, open_to_everyone


def _spelled(draw: st.DrawFn, key: str) -> str:
    """`key` as a JSON string: plain, or with some characters as \\u escapes."""
    if not draw(st.booleans()):
        return json.dumps(key, ensure_ascii=draw(st.booleans()))
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 and draw(st.booleans())
                         else json.dumps(c)[1:-1] for c in key) + '"'


@st.composite
def objects_with_a_repeated_key(draw: st.DrawFn) -> str:
    """A JSON text, strict in every other way, with one object that names a key twice, at any
    depth, with any values, the two in any places among the other members."""
    members = draw(st.dictionaries(texts, strict_values, max_size=4))
    key = draw(texts)
    pairs = [(_spelled(draw, k), json.dumps(v)) for k, v in members.items() if k != key]
    for value in (draw(strict_values), draw(strict_values)):
        pairs.insert(draw(st.integers(0, len(pairs))), (_spelled(draw, key), json.dumps(value)))
    text = "{" + ",".join(f"{k}:{v}" for k, v in pairs) + "}"
    for _ in range(draw(st.integers(0, 3))):  # inside other objects and lists
        if draw(st.booleans()):
            text = "[" + ",".join([json.dumps(draw(strict_values)), text][::draw(
                st.sampled_from([1, -1]))]) + "]"
        else:
            text = "{" + json.dumps(draw(texts)) + ":" + text + "}"
    return "{" + json.dumps(draw(st.sampled_from(["op", "args", "data", "value"]))) + ":" + \
        text + "}"


@given(objects_with_a_repeated_key())
def test_a_repeated_key_is_refused_wherever_it_is(text: str) -> None:
    for data in (text, text.encode()):
        with pytest.raises(ProtocolError, match="duplicate key"):
            strict_json.loads(data)
    with pytest.raises(ProtocolError, match="duplicate key"):
        parse_frame(text.encode())  # every tool frame and control frame
    with pytest.raises(ProtocolError, match="duplicate key"):
        FrameDecoder().feed(text.encode() + b"\n")


@given(st.dictionaries(texts, strict_values, min_size=1, max_size=6))
def test_distinct_keys_are_taken_as_they_are(obj: dict[str, Any]) -> None:
    assert strict_json.loads(json.dumps(obj)) == obj
    assert strict_json.loads(json.dumps({"outer": [obj, obj]})) == {"outer": [obj, obj]}


# -- the control socket ----------------------------------------------------------------------

POINTS = {"a": 1, "x": 99}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("frames"))
    config = base_config({"dev": fake_device({
        pid: {"name": f"Point {pid}", "type": "int", "writable": True, "min": 0, "max": 100,
              "params": {"value": v}} for pid, v in POINTS.items()})})
    try:
        d = runner.start(config)
        open_to_everyone(d.socket)
        yield d
    finally:
        runner.cleanup()


def _exchange(path: str, data: bytes) -> list[dict[str, Any]]:
    """Send `data`, close our side, read every answer until the daemon closes."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        buf = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                buf += chunk
    return [json.loads(line) for line in buf.splitlines() if line.strip()]


def test_the_review_frame_reads_nothing(daemon: RunningDaemon) -> None:
    [answer] = _exchange(str(daemon.socket), b'{"op":"read","point":"a","point":"x"}\n')
    assert (answer["status"], answer["error"]["code"]) == ("rejected", "BAD_REQUEST")
    assert 'duplicate key "point"' in answer["error"]["message"]
    assert answer["result"] is None


@given(field=st.sampled_from(["op", "point", "value", "role", "id", "dry_run"]),
       first=strict_values, second=strict_values, other_user=st.booleans())
def test_a_request_naming_a_field_twice_is_refused_and_changes_nothing(
        daemon: RunningDaemon, field: str, first: Any, second: Any, other_user: bool) -> None:
    base = {"op": "write", "point": "a", "value": 50, "role": "engineer", "id": "w"}
    pairs = [(k, json.dumps(v)) for k, v in base.items() if k != field]
    pairs += [(field, json.dumps(first)), (field, json.dumps(second))]
    frame = ("{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in pairs) + "}\n").encode()
    answers = as_user(NOBODY, _exchange, str(daemon.socket), frame) if other_user else \
        _exchange(str(daemon.socket), frame)
    assert [(a["status"], a["error"]["code"]) for a in answers] == [("rejected", "BAD_REQUEST")]
    for pid, value in POINTS.items():
        assert daemon.request({"op": "read", "point": pid})["result"]["value"] == value


@given(requests=st.lists(st.sampled_from([
    {"op": "read", "point": "a"}, {"op": "read", "point": "x"}, {"op": "status"},
    {"op": "read", "point": "nope"}, {"op": "ask", "text": "hello"}]), min_size=1, max_size=5),
    ending=st.sampled_from([b"", b" ", b"\r", b"\t "]))
def test_the_last_request_before_the_end_of_the_stream_is_answered(
        daemon: RunningDaemon, requests: list[dict[str, Any]], ending: bytes) -> None:
    """With or without its newline: a client may send and close its side, then read."""
    frames = [json.dumps({**r, "id": i}).encode() for i, r in enumerate(requests)]
    data = b"\n".join(frames) + ending  # the last one has no newline
    answers = _exchange(str(daemon.socket), data)
    assert sorted(a["id"] for a in answers) == list(range(len(requests))), answers
    assert all(a["status"] in ("ok", "rejected") for a in answers)


@given(tail=st.sampled_from([b'{"op": "read", "point": "a"', b"\x00junk", b'{"op": NaN}',
                             b'{"op":"read","point":"a","point":"x"}', b"[1]"]))
def test_an_unfinished_or_bad_last_frame_is_answered_bad_request(daemon: RunningDaemon,
                                                                 tail: bytes) -> None:
    answers = _exchange(str(daemon.socket), b'{"op": "status", "id": 1}\n' + tail)
    assert [a.get("id") for a in answers] == [1, None]
    assert (answers[-1]["status"], answers[-1]["error"]["code"]) == ("rejected", "BAD_REQUEST")


def test_the_decoder_takes_the_last_frame_at_the_end() -> None:
    decoder = RequestDecoder()
    assert decoder.feed(b'{"op": "status"}\n{"op": "read", "point": "a"}') == [{"op": "status"}]
    assert decoder.finish() == {"op": "read", "point": "a"}
    assert decoder.finish() is None  # nothing left
    decoder.feed(b"  \r\t")
    assert decoder.finish() is None  # blanks are no frame
