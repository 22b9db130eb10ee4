"""Generated control frames against a real hermesd: one answer each, the daemon lives, no writes.

Batches of frames — requests of every op with right and wrong values in every field, strict
JSON with one non-standard thing in it (NaN, Infinity, numbers past a float or 64 bits, lone
surrogates escaped or raw, broken UTF-8, 30,000 `[`), bytes that are not JSON at all — are
sent by another local user (a forked child that setuid()s to it), split at arbitrary byte
boundaries. After each batch: hermesd is alive and answers `status`; every whole request before
the first bad frame got exactly one answer with a documented status and code (and never
INTERNAL); a bad frame got one BAD_REQUEST, said last, and the connection was closed; nothing
was written. One user is a viewer; the other an operator whose every request is a dry run.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given

from hermesd.answer import STATUS_EXIT
from hermesd.control.requests import RequestDecoder
from hermesd.core import strict_json
from hermesd.core.errors import ErrorCode, ProtocolError
from tests.hostile.strategies import batch_bytes, batches, cut
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.peers import NOBODY, as_user, needs_root, open_to_everyone

OPERATOR = 60010  # a user access.users makes an operator; every request it sends is a dry run
POINTS = {
    "level": {"name": "Tank level", "type": "float", "unit": "%", "params": {"value": 73.4}},
    "valve": {"name": "Steam valve", "type": "bool", "writable": True,
              "params": {"value": False}},
    "speed": {"name": "Feed pump speed", "type": "int", "unit": "rpm", "writable": True,
              "min": 0, "max": 1500, "params": {"value": 1200}},
}
INITIAL = {"level": 73.4, "valve": False, "speed": 1200}
ACTIONS = ["echo", "read", "write", "raw_poke", "bad_result"]

pytestmark = pytest.mark.skipif(not needs_root(), reason="plays other users with setuid")


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("frames"))
    config = base_config({"dev": fake_device(POINTS)})
    config["access"]["users"] = {str(OPERATOR): "operator"}
    d = runner.start(config)
    open_to_everyone(d.socket)
    yield d
    assert d.terminate() == 0
    runner.cleanup()


def _send_batch(path: str, chunks: list[str]) -> list[str]:
    """In the child: send the chunks, say no more, and collect every answer line."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for chunk in chunks:
                sock.sendall(chunk.encode("latin-1"))
            sock.shutdown(socket.SHUT_WR)
        buf = b""
        while True:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:  # closed with our bytes unread: after its answers
                break
            if not data:
                break
            buf += data
    return [line.decode("latin-1") for line in buf.split(b"\n") if line]


# -- the checks ---------------------------------------------------------------------------------

DOCUMENTED = set(STATUS_EXIT)
CODES = set(ErrorCode.__members__)


def _check_answers(items: list[tuple[str, Any]], lines: list[str], *, dry_run: bool) -> None:
    answers = []
    for line in lines:
        try:
            answers.append(strict_json.loads(line.encode("latin-1")))
        except ProtocolError as exc:  # hermesd must never say anything but strict JSON
            pytest.fail(f"an answer is not strict JSON ({exc}): {line[:200]!r}")
    first_bad = next((i for i, (kind, _) in enumerate(items) if kind == "bad"), len(items))
    whole = [item for kind, item in items[:first_bad]]
    ids = sorted(obj["id"] for obj, _ in whole if isinstance(obj["id"], str))
    without_id = sum(1 for obj, _ in whole if not isinstance(obj["id"], str))
    for answer in answers:
        assert isinstance(answer, dict)
        assert answer["status"] in DOCUMENTED, answer
        error = answer.get("error")
        if error is not None:
            assert error["code"] in CODES, answer
            assert error["code"] != "INTERNAL", answer  # a documented refusal, never a bug
        action = (answer.get("action") or {}).get("name")
        if answer["status"] == "ok":  # nothing this user may not do was done
            assert action not in ("write", "dev.raw_poke", "dev.write"), answer
        if dry_run and action in ("write", "dev.raw_poke"):
            assert answer["status"] != "ok", answer
    got_ids = sorted(a["id"] for a in answers if isinstance(a.get("id"), str))
    assert got_ids == ids  # exactly one answer for every whole request, none for the rest
    closing = [a for a in answers if "id" not in a]
    if first_bad < len(items):
        assert answers and "id" not in answers[-1], "the bad frame's refusal is said last"
        assert answers[-1]["error"]["code"] == "BAD_REQUEST"
        assert answers[-1]["status"] == "rejected"
        assert len(closing) == without_id + 1
    else:
        assert len(closing) == without_id


def _check_daemon(daemon: RunningDaemon) -> None:
    assert daemon.proc.poll() is None, daemon.log
    assert daemon.request({"op": "status"})["status"] == "ok"
    for point, value in INITIAL.items():
        assert daemon.request({"op": "read", "point": point})["result"]["value"] == value


# -- the examples the issue names, then generated batches -------------------------------------

NAMED = [
    [("bad", b'{"op": "read", "point": "\\udcff", "id": "s"}')],
    [("bad", b'{"op": "write", "point": "valve", "value": "\\udcff"}')],
    [("bad", b'{"op": "write", "point": "speed", "value": ' + b"9" * 400 + b"}")],
    [("bad", b"[" * 30_000)],
    [("bad", b'{"op": "read", "point": "lev\xed\xb3\xbfel"}')],  # a raw surrogate, in UTF-8
    [("request", ({"op": "read", "point": "level", "id": "a"}, True)),
     ("bad", b'{"op": "write", "point": "speed", "value": NaN}'),
     ("request", ({"op": "status", "id": "never"}, True))],
]


@pytest.mark.parametrize("who", [NOBODY, OPERATOR])
@given(batch=batches(list(POINTS), "dev", ACTIONS))
@example(batch={"items": NAMED[0], "cuts": []})
@example(batch={"items": NAMED[1], "cuts": [3, 9]})
@example(batch={"items": NAMED[2], "cuts": [50]})
@example(batch={"items": NAMED[3], "cuts": [1, 4096, 8192]})
@example(batch={"items": NAMED[4], "cuts": []})
@example(batch={"items": NAMED[5], "cuts": [20, 21, 60]})
def test_every_frame_is_answered_and_nothing_breaks(daemon: RunningDaemon, who: int,
                                                    batch: dict[str, Any]) -> None:
    items = [(k, (dict(v[0]), v[1]) if k == "request" else v) for k, v in batch["items"]]
    for kind, item in items:  # ids as the strategy gives them (the named examples lack some)
        if kind == "request":
            item[0].setdefault("id", f"n{id(item)}")
    dry_run = who == OPERATOR
    stream = batch_bytes(items, dry_run=dry_run)
    chunks = [c.decode("latin-1") for c in cut(stream, batch["cuts"])]
    lines = as_user(who, _send_batch, str(daemon.socket), chunks)
    _check_answers(items, lines, dry_run=dry_run)
    _check_daemon(daemon)


def test_no_write_intent_reached_the_audit_trail(daemon: RunningDaemon) -> None:
    """After the generated batches (same daemon) and these writes, no write was ever about to
    happen: the audit trail holds their refusals and dry runs, and no write intent."""
    writes: list[dict[str, Any]] = [
        {"op": "write", "point": "valve", "value": True, "id": "w1"},
        {"op": "call", "tool": "dev", "action": "raw_poke", "args": {}, "id": "w2"}]
    for who in (NOBODY, OPERATOR):
        frames = [json.dumps({**w, "dry_run": who == OPERATOR}) + "\n" for w in writes]
        answers = [json.loads(line) for line in as_user(who, _send_batch, str(daemon.socket),
                                                         frames)]
        expected = ["forbidden", "forbidden"] if who == NOBODY else ["dry_run", "forbidden"]
        assert [a["status"] for a in sorted(answers, key=lambda a: a["id"])] == expected
    records = daemon.audit_records()
    assert {r["trace_id"] for r in records if r.get("role") == "operator" and r["dry_run"]}
    assert not [r for r in records if r.get("phase") == "intent"]


# -- the decoder alone: however the bytes are cut, the same frames -------------------------------


def _decode_all(chunks: list[bytes]) -> tuple[list[dict[str, Any]], str | None]:
    decoder = RequestDecoder()
    frames: list[dict[str, Any]] = []
    try:
        for chunk in chunks:
            frames += decoder.feed(chunk)
            if decoder.error is not None:
                return frames, "bad"
    except ProtocolError:
        return frames, "bad"
    return frames, None


@given(batch=batches(list(POINTS), "dev", ACTIONS))
def test_cutting_the_bytes_anywhere_changes_nothing(batch: dict[str, Any]) -> None:
    stream = batch_bytes(batch["items"], dry_run=False)
    whole = _decode_all([stream])
    in_pieces = _decode_all(cut(stream, batch["cuts"]))
    one_by_one = _decode_all([stream[i:i + 1] for i in range(len(stream))])
    assert in_pieces == whole == one_by_one
    assert whole[1] == ("bad" if any(k == "bad" for k, _ in batch["items"]) else None)


def test_a_real_surrogate_pair_is_text_not_a_refusal(daemon: RunningDaemon) -> None:
    # json.dumps sends the emoji as the escaped pair \\ud83d\\ude00: one character, not two
    answer = daemon.request({"op": "ask", "text": "what is the tank level 😀"})
    assert answer["status"] == "ok"
