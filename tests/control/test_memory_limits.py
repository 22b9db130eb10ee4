"""What the control socket holds for its peers stays bounded: recordings being sent, and answers
nobody reads.

A real ControlServer on a Unix socket in this test's event loop, with limits a few hundred KiB
small so that an attack is quick; other users are played by forked children (the tests run
as root).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.control.limits import Limits
from hermesd.control.requests import Peer
from hermesd.control.server import ControlServer
from tests.support.peers import (
    NOBODY,
    as_user_async,
    control_server,
    needs_root,
    read_answers,
)
from tests.support.until import until, until_sync

KIB = 1024
#: a user may hold 200 KiB of recordings, all but root 300 KiB, everyone 400 KiB; 1 MiB of
#: answers not yet read, all but root 2 MiB; the send limit is long: only those cut here
SMALL = Limits(per_uid=4, audio_per_uid=200 * KIB, audio_others=300 * KIB,
               audio_total=400 * KIB, unsent_per_uid=1024 * KIB, unsent_others=2048 * KIB,
               send=30.0)
BIG = 256 * KIB  # the answer to `big`
PREFIX = b'{"op": "ask", "audio_wav": "'


async def _handler(obj: dict[str, Any], peer: Peer) -> dict[str, Any]:
    if obj.get("op") == "ask":
        return {"status": "ok", "audio_chars": len(obj.get("audio_wav", ""))}
    if obj.get("op") == "big":
        return {"status": "ok", "text": "x" * BIG}
    return {"status": "ok", "op": obj.get("op")}


@pytest.fixture
async def server() -> AsyncIterator[ControlServer]:
    async with control_server(_handler, SMALL, "hm") as srv:
        yield srv


def _unfinished_recordings(path: str, count: int, size: int, gate: str) -> dict[str, Any]:
    """Begin `count` recordings of `size` bytes, one a connection, none finished (the attack,
    small); say what each refused one was told. Then, at the test's word (the file `gate`),
    finish the first and return its answer too."""
    socks, refused = [], []
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        sock.connect(path)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # refused mid-way
            sock.sendall(PREFIX + b"A" * size)
        socks.append(sock)
    for sock in socks[1:]:  # the first is held; the others are answered and closed
        refused += read_answers(sock)
    Path(gate + ".ready").write_text("")
    until_sync(Path(gate).exists, 10, "the test's word")
    socks[0].sendall(b'", "id": "first"}\n')
    socks[0].shutdown(socket.SHUT_WR)
    first = read_answers(socks[0])
    for sock in socks:
        sock.close()
    return {"refused": refused, "first": first}


@pytest.mark.timeout(60)
@pytest.mark.skipif(not needs_root(), reason="plays other users with setuid (needs root)")
async def test_one_user_holds_one_recording_at_a_time_and_the_rest_are_refused_by_name(
        server: ControlServer) -> None:
    gate = Path(tempfile.mkdtemp(prefix="hg", dir="/tmp"))
    gate.chmod(0o777)
    attack = asyncio.create_task(as_user_async(
        NOBODY, _unfinished_recordings, str(server.path), 4, 150 * KIB, str(gate / "go")))
    try:
        await until((gate / "go.ready").exists, 20, "the attacker's refusals",
                    gone=lambda: "the attacker ended" if attack.done() else None)
        # three of the four refused; what is held is the first, no more than the user's share
        held = server.status()["recording_bytes"]
        assert 150 * KIB < held <= SMALL.audio_per_uid
        assert server.status()["connections"] == 1  # the refused ones are closed
        (gate / "go").write_text("")
        out = await asyncio.wait_for(attack, 30)
    finally:
        (gate / "go").write_text("")
        shutil.rmtree(gate, ignore_errors=True)
    assert len(out["refused"]) == 3
    for answer in out["refused"]:
        assert (answer["status"], answer["error"]["code"]) == ("busy", "BUSY")
        message = answer["error"]["message"]
        assert f"over the {SMALL.audio_per_uid} one user may" in message, message
        assert "closing this connection" in message
    # the one it was allowed is answered as any recording is, and its bytes are let go
    assert out["first"] == [{"status": "ok", "audio_chars": 150 * KIB, "id": "first"}]
    await until(lambda: server.status()["recording_bytes"] == 0, what="the bytes let go")


async def _send_recording(srv: ControlServer, size: int, request_id: str,
                          finish: bool = True) -> tuple[asyncio.StreamReader,
                                                        asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(str(srv.path))
    writer.write(PREFIX + b"A" * size + (b'", "id": "%s"}\n' % request_id.encode()
                                         if finish else b""))
    await writer.drain()
    return reader, writer


@pytest.mark.timeout(60)
async def test_everyone_together_holds_no_more_than_the_total(server: ControlServer) -> None:
    """Root is not bound by one user's share, but by hermesd's total: recordings past it are
    refused by name and hermesd lets go of them; a recording sent alone is still answered."""
    # 2 x 150 KiB: within the total of 400 KiB
    held = [await _send_recording(server, 150 * KIB, "", finish=False) for _ in range(2)]
    try:
        await until(lambda: server.status()["recording_bytes"] >= 300 * KIB,
                    what="two recordings held")
        reader, writer = await _send_recording(server, 150 * KIB, "", finish=False)
        answer = json.loads(await asyncio.wait_for(reader.readline(), 20))
        assert answer["error"]["code"] == "BUSY"
        assert f"over its limit of {SMALL.audio_total}" in answer["error"]["message"]
        with contextlib.suppress(ConnectionResetError):  # closed with our bytes unread
            assert await asyncio.wait_for(reader.read(), 20) == b""  # and closed
        writer.close()
        assert server.status()["recording_bytes"] <= SMALL.audio_total
    finally:
        for _, w in held:
            w.close()
    await until(lambda: server.status()["recording_bytes"] == 0, what="the cut ones let go")
    reader, writer = await _send_recording(server, 300 * KIB, "alone")
    try:
        answer = json.loads(await asyncio.wait_for(reader.readline(), 20))
        assert answer == {"status": "ok", "audio_chars": 300 * KIB, "id": "alone"}
    finally:
        writer.close()
    await until(lambda: server.status()["recording_bytes"] == 0, what="the answered one let go")


def _never_read(path: str, count: int, gate: str, then: bytes = b"") -> list[dict[str, Any]]:
    """Pipeline `count` requests for a large answer and read none of them (the attack, small);
    at the test's word (`gate`), send `then` on a second connection and return its answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        sock.sendall(b"".join(b'{"op": "big", "id": %d}\n' % i for i in range(count)))
        Path(gate + ".ready").write_text("")
        until_sync(Path(gate).exists, 20, "the test's word")
        if not then:
            return []
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as other:
            other.settimeout(10)
            other.connect(path)
            other.sendall(then)
            other.shutdown(socket.SHUT_WR)
            return read_answers(other)


def _settled(server: ControlServer) -> bool:
    """The attacker's connection is cut, or has stopped reading with nothing left running."""
    conns = [c for c in server._open if not c.trusted]
    return not conns or all(c._write_paused and not c.inflight for c in conns)


@pytest.mark.timeout(60)
@pytest.mark.skipif(not needs_root(), reason="plays other users with setuid (needs root)")
async def test_answers_never_read_are_cut_at_the_users_share(
        server: ControlServer, caplog: pytest.LogCaptureFixture) -> None:
    """20 answers of 256 KiB asked for and never read: without a bound all 5 MiB are held
    (until the send limit, 30 s here); with it, the connection is cut once its next answer
    would take its user past 1 MiB, and nothing it asked for is held any more."""
    gate = Path(tempfile.mkdtemp(prefix="hg", dir="/tmp"))
    gate.chmod(0o777)
    attack = asyncio.create_task(as_user_async(NOBODY, _never_read, str(server.path), 20,
                                               str(gate / "go")))
    most = 0

    def cut() -> bool:
        nonlocal most
        most = max(most, server._unsent(NOBODY)[0])
        return (gate / "go.ready").exists() and not server._open and \
            not server._slots.inflight.total()

    try:
        with caplog.at_level(logging.WARNING, logger="hermesd.control.server"):
            await until(cut, 20, "the connection that reads nothing to be cut",
                        gone=lambda: "the attacker ended" if attack.done() else None)
        assert most <= SMALL.unsent_per_uid
        said = [r.getMessage() for r in caplog.records if "does not read" in r.getMessage()]
        assert len(said) == 1, said
        assert f"past the {SMALL.unsent_per_uid} bytes of unread answers one user may " \
               "hold; closing" in said[0]
    finally:
        (gate / "go").write_text("")
        await asyncio.wait_for(attack, 30)
        shutil.rmtree(gate, ignore_errors=True)


@pytest.mark.timeout(60)
@pytest.mark.skipif(not needs_root(), reason="plays other users with setuid (needs root)")
async def test_a_user_with_half_its_share_unread_is_answered_busy_and_root_is_served(
        server: ControlServer) -> None:
    """Three answers of 256 KiB unread (over half of 1 MiB): the same user's next request,
    on another connection, is answered BUSY naming the limit; root is answered as ever."""
    gate = Path(tempfile.mkdtemp(prefix="hg", dir="/tmp"))
    gate.chmod(0o777)
    attack = asyncio.create_task(as_user_async(
        NOBODY, _never_read, str(server.path), 3, str(gate / "go"),
        b'{"op": "status", "id": "next"}\n'))
    try:
        await until(lambda: (gate / "go.ready").exists() and server._open and
                    _settled(server), 20, "three answers held",
                    gone=lambda: "the attacker ended" if attack.done() else None)
        assert server._unsent(NOBODY)[0] >= SMALL.unsent_per_uid // 2
        reader, writer = await asyncio.open_unix_connection(str(server.path))
        try:
            writer.write(b'{"op": "status", "id": "root"}\n')
            answer = json.loads(await asyncio.wait_for(reader.readline(), 20))
            assert answer == {"status": "ok", "op": "status", "id": "root"}
        finally:
            writer.close()
        (gate / "go").write_text("")
        (answer,) = await asyncio.wait_for(attack, 30)
    finally:
        (gate / "go").write_text("")
        shutil.rmtree(gate, ignore_errors=True)
    assert (answer["status"], answer["error"]["code"], answer["id"]) == ("busy", "BUSY", "next")
    assert f"over half of the {SMALL.unsent_per_uid} one user may; read them first" in \
        answer["error"]["message"]
