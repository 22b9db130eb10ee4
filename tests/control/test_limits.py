"""The control socket's limits: per-user slots, root's reserve, absolute deadlines, quiet logs.

The accounting is tested as plain objects; the deadlines and the per-user limits against a real
ControlServer on a Unix socket in this test's event loop, with small limits so that a deadline
is a fraction of a second, and other users played by forked children (the tests run as root).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import shutil
import socket
import struct
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.control.client import Client, _closed_by_peer
from hermesd.control.limits import Limits, OncePerCause, Slots
from hermesd.control.requests import Peer
from hermesd.control.server import ControlServer
from hermesd.core.eventloop import loop_factory
from tests.support.peers import (
    NOBODY,
    as_user_async,
    control_server,
    needs_root,
    read_answers,
)
from tests.support.until import until, until_sync

STRANGER = 60001


# -- the accounting, as plain objects -----------------------------------------------------------


def test_one_user_gets_per_uid_and_no_more_and_root_gets_the_reserve() -> None:
    slots = Slots(Limits(connections=10, reserved=3, per_uid=4))
    assert [slots.admit_connection(NOBODY, "nobody") for _ in range(4)] == [None] * 4
    cause, reason = slots.admit_connection(NOBODY, "nobody") or ("", "")
    assert cause == f"uid {NOBODY}" and "already holds 4 control connections" in reason
    assert slots.admit_connection(STRANGER, "stranger") is None  # another user is not affected
    for uid in (STRANGER, 60002):
        while slots.admit_connection(uid, "x") is None:
            pass
    assert slots.total == 7  # 10 - 3 reserved: everyone else is now refused
    cause, reason = slots.admit_connection(60003, "x") or ("", "")
    assert cause == "others full" and "all but root" in reason
    assert [slots.admit_connection(0, "root") for _ in range(3)] == [None] * 3
    assert slots.admit_connection(0, "root") == ("full", "the control socket is full (10 "
                                                         "connections)")
    assert "others full" not in slots.release_connection(STRANGER)  # 9 held: still full
    assert slots.total == 9


def test_requests_in_flight_per_user() -> None:
    slots = Slots(Limits(inflight_per_uid=2))
    assert slots.admit_request(NOBODY, "nobody") is None
    assert slots.admit_request(NOBODY, "nobody") is None
    assert slots.admit_request(NOBODY, "nobody") is not None
    assert all(slots.admit_request(0, "root") is None for _ in range(10))  # root is not bounded
    slots.release_request(NOBODY)
    assert slots.admit_request(NOBODY, "nobody") is None


def test_requests_in_flight_of_all_other_users_leave_room_for_root() -> None:
    slots = Slots(Limits(inflight_per_uid=2, inflight_others=5))
    admitted = [uid for uid in (60001, 60001, 60002, 60002, 60003, 60003)
                if slots.admit_request(uid, str(uid)) is None]
    assert admitted == [60001, 60001, 60002, 60002, 60003]
    cause, reason = slots.admit_request(60004, "a fourth") or ("", "")
    assert cause == "others busy" and "other than root" in reason
    assert slots.admit_request(0, "root") is None
    slots.release_request(60002)
    assert "others busy" in slots.request_causes(60002)
    assert slots.admit_request(60004, "a fourth") is None


def test_a_cause_is_logged_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    quiet = OncePerCause(logging.getLogger("test.quiet"))
    with caplog.at_level(logging.INFO, logger="test.quiet"):
        for _ in range(1000):
            quiet.warn("uid 5", "refusing %s", "uid 5")
        quiet.warn("uid 6", "refusing %s", "uid 6")
        quiet.clear("uid 5", "uid 5 accepted again")
        quiet.clear("uid 5", "uid 5 accepted again")  # already clear: nothing more
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["refusing uid 5", "refusing uid 6",
                     "uid 5 accepted again (999 more refused since it was logged, over 0 s)"]


def test_a_cause_that_goes_on_is_repeated_with_a_count(caplog: pytest.LogCaptureFixture) -> None:
    quiet = OncePerCause(logging.getLogger("test.quiet"), every=0.0)
    with caplog.at_level(logging.INFO, logger="test.quiet"):
        quiet.warn("slow", "cut %s", "x")
        quiet.warn("slow", "cut %s", "x")
    assert [r.getMessage() for r in caplog.records] == ["cut x", "cut x (and 0 more since, "
                                                                 "not logged)"]


# -- a real server with small limits ------------------------------------------------------------

SMALL = Limits(connections=8, reserved=2, per_uid=3, inflight_per_uid=4, per_connection=2,
               frame_deadline=0.5, idle=0.6, send=1.0)


SIXTEEN_K: list[Any] = []  # the ids of the 16k answers made


def _answered(conn: Any, request_id: int) -> bool:
    return request_id in SIXTEEN_K and not conn.inflight


def fds() -> int:
    """This process's open file descriptors."""
    return len(os.listdir("/proc/self/fd"))


async def _handler(obj: dict[str, Any], peer: Peer) -> dict[str, Any]:
    if obj.get("op") == "sleep":
        await asyncio.sleep(float(obj.get("seconds", 0)))
    if obj.get("op") == "explode":
        raise RuntimeError("a bug in a handler")
    if obj.get("op") == "not a dict":
        return "surprise"  # type: ignore[return-value]
    if obj.get("op") == "nan":
        return {"status": "ok", "value": float("nan")}
    if obj.get("op") == "big":
        return {"status": "ok", "text": "x" * (1024 * 1024)}
    if obj.get("op") == "16k":
        SIXTEEN_K.append(obj.get("id"))
        return {"status": "ok", "text": "x" * (16 * 1024)}
    return {"status": "ok", "op": obj.get("op"), "uid": peer.uid}


@pytest.fixture
async def server() -> AsyncIterator[ControlServer]:
    async with control_server(_handler, SMALL, "hl") as srv:
        yield srv


async def _connect(srv: ControlServer) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_unix_connection(str(srv.path))


async def _close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    try:
        await writer.wait_closed()
    except ConnectionError:
        # the server closed first (what these tests wait for); a byte written after that
        # fails with EPIPE and the transport keeps that error for wait_closed
        pass


async def _rest(reader: asyncio.StreamReader) -> bytes:
    """What the server sends before it closes. A server that closes with some of our bytes
    unread (a trickle) makes the kernel end our reading with ECONNRESET instead of EOF, after
    everything it sent: the same end here."""
    rest = b""
    try:
        async with asyncio.timeout(20):
            while chunk := await reader.read(65536):
                rest += chunk
    except (ConnectionResetError, BrokenPipeError):  # the latter: our trickle met the close
        pass
    return rest


async def test_a_trickled_frame_is_cut_at_its_deadline_however_often_bytes_come(
        server: ControlServer) -> None:
    # a plain socket, not streams: a trickled byte that meets the closed server (EPIPE) must
    # not end our reading before the answer already sent is read (a stream transport would)
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.setblocking(False)
    await loop.sock_connect(sock, str(server.path))
    await loop.sock_sendall(sock, b'{"op": "st')

    async def trickle() -> None:  # a byte every 0.1 s: a deadline renewed per byte never fires
        with contextlib.suppress(OSError):  # until the server has closed
            while True:
                await asyncio.sleep(0.1)
                await loop.sock_sendall(sock, b" ")

    async def received() -> bytes:  # everything until the server closes
        data = b""
        with contextlib.suppress(ConnectionResetError):  # it closed with our bytes unread
            while chunk := await loop.sock_recv(sock, 65536):
                data += chunk
        return data

    trickler = asyncio.create_task(trickle())
    try:
        # the trickling never stops by itself: only a deadline that bytes do not renew cuts it
        lines = (await asyncio.wait_for(received(), 20)).splitlines()
        assert len(lines) == 1  # one answer, then closed
        answer = json.loads(lines[0])
        assert answer["status"] == "rejected"
        assert answer["error"]["code"] == "BAD_REQUEST"
        assert "not finished within 0.5 s of its first byte" in answer["error"]["message"]
    finally:
        trickler.cancel()
        await asyncio.gather(trickler, return_exceptions=True)
        sock.close()


async def test_an_idle_connection_is_closed_whatever_it_trickles() -> None:
    where = Path(tempfile.mkdtemp(prefix="hl", dir="/tmp"))
    srv = ControlServer(where / "control.sock", _handler,
                        Limits(frame_deadline=30.0, idle=0.5))  # here only idleness can cut it
    await srv.start()
    reader, writer = await _connect(srv)

    async def trickle() -> None:  # a frame that never ends, a byte every 0.05 s
        writer.write(b'{"op": "status", "padding": "')
        while not writer.is_closing():
            await asyncio.sleep(0.05)
            writer.write(b"x")
            await writer.drain()

    trickler = asyncio.create_task(trickle())
    try:
        assert await _rest(reader) == b""  # closed, with nothing to say
    finally:
        trickler.cancel()
        await asyncio.gather(trickler, return_exceptions=True)
        await _close(writer)
        await srv.stop()
        shutil.rmtree(where, ignore_errors=True)


async def test_idle_is_counted_without_a_request_in_flight(server: ControlServer) -> None:
    reader, writer = await _connect(server)
    try:
        writer.write(b'{"op": "sleep", "seconds": 1.2, "id": 1}\n')  # twice the idle limit
        answer = json.loads(await asyncio.wait_for(reader.readline(), 20))
        assert answer == {"status": "ok", "op": "sleep", "uid": 0, "id": 1}
        assert await _rest(reader) == b""  # then idle again, and closed
    finally:
        await _close(writer)


async def test_a_failing_handler_still_answers_and_the_connection_goes_on(
        server: ControlServer) -> None:
    reader, writer = await _connect(server)
    try:
        for op in ("explode", "not a dict", "nan"):
            writer.write(json.dumps({"op": op, "id": op}).encode() + b"\n")
            answer = json.loads(await asyncio.wait_for(reader.readline(), 20))
            assert (answer["id"], answer["status"], answer["error"]["code"]) == \
                (op, "error", "INTERNAL")
        writer.write(b'{"op": "status", "id": 7}\n')
        assert json.loads(await asyncio.wait_for(reader.readline(), 20))["id"] == 7
    finally:
        await _close(writer)


async def test_good_frames_before_a_bad_one_are_answered(server: ControlServer) -> None:
    reader, writer = await _connect(server)
    try:
        writer.write(b'{"op": "a", "id": 1}\n{"op": NaN}\n{"op": "never", "id": 2}\n')
        answers = [json.loads(line) for line in
                   (await asyncio.wait_for(reader.read(), 20)).splitlines()]
        assert [a.get("id") for a in answers] == [1, None]  # the refusal comes last
        assert answers[1]["error"]["code"] == "BAD_REQUEST"
        assert "NaN is not allowed" in answers[1]["error"]["message"]
    finally:
        await _close(writer)


async def test_a_client_that_does_not_read_its_answers_is_cut_after_the_send_limit(
        server: ControlServer, caplog: pytest.LogCaptureFixture) -> None:
    reader, writer = await _connect(server)
    try:
        with caplog.at_level(logging.WARNING, logger="hermesd.control.server"):
            # far more answer than the socket holds (two in flight, 1 MiB each), and never
            # a byte of it read; the connection's idle limit (0.6 s) is shorter than the send
            # limit (1 s): unread answers are no idleness, and no graceful close waits forever
            writer.write(b'{"op": "big", "id": 1}\n{"op": "big", "id": 2}\n')
            cut = "did not read its answer within 1 s; closing"
            await until(lambda: any(cut in r.getMessage() for r in caplog.records),
                        what="the slow reader to be cut")
            await until(lambda: server.status()["connections"] == 0, what="its slot freed")
        other_reader, other_writer = await _connect(server)
        try:
            other_writer.write(b'{"op": "status", "id": 1}\n')
            answer = json.loads(await asyncio.wait_for(other_reader.readline(), 20))
            assert (answer["status"], answer["id"]) == ("ok", 1)  # everyone else is served
        finally:
            await _close(other_writer)
    finally:
        writer.transport.abort()


async def test_requests_beyond_a_connections_share_answer_busy(server: ControlServer) -> None:
    reader, writer = await _connect(server)
    try:
        writer.write(b"".join(json.dumps({"op": "sleep", "seconds": 0.3, "id": i}).encode()
                              + b"\n" for i in range(4)))
        answers = [json.loads(await asyncio.wait_for(reader.readline(), 20)) for _ in range(4)]
        busy = sorted(a["id"] for a in answers if a["status"] == "busy")
        assert busy == [2, 3]  # two in flight per connection (SMALL)
        assert all(a["error"]["code"] == "BUSY" for a in answers if a["id"] in busy)
    finally:
        await _close(writer)


def _flood(path: str, count: int) -> dict[str, Any]:
    """Open `count` connections at once, then ask on each; report what each was told."""
    socks = []
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(5)
        sock.connect(path)
        socks.append(sock)
    held, busy = 0, []
    for sock in socks:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b'{"op": "hello"}\n')  # a refused one was answered and closed already
        buf = b""
        while b"\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buf += chunk
        answer = json.loads(buf.partition(b"\n")[0])
        if answer["status"] == "busy":
            busy.append(answer["error"]["message"])
        elif answer.get("op") == "hello":
            held += 1
    for sock in socks:
        sock.close()
    return {"held": held, "busy": busy}


@pytest.mark.skipif(not needs_root(), reason="plays other users with setuid (needs root)")
async def test_one_user_cannot_take_more_than_its_share(server: ControlServer,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="hermesd.control.server"):
        out = await as_user_async(NOBODY, _flood, str(server.path), 12)
    assert out["held"] == SMALL.per_uid
    assert len(out["busy"]) == 12 - SMALL.per_uid
    assert all("already holds 3 control connections" in m for m in out["busy"])
    refusals = [r for r in caplog.records if "refusing control connections" in r.getMessage()]
    assert len(refusals) == 1  # once per cause, not once per attempt


def _fill_and_hold(path: str, count: int, hold: str) -> dict[str, Any]:
    """Open connections until `count` or a refusal; keep them until `hold` exists."""
    socks = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            sock.sendall(b'{"op": "sleep", "seconds": 60}\n')  # in flight: never idle
            socks.append(sock)
        Path(hold + ".ready").write_text("")
        with contextlib.suppress(TimeoutError):  # the test's word (a file) to let go
            until_sync(Path(hold).exists, 10, "the test's word")
        return {"opened": len(socks)}
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.skipif(not needs_root(), reason="plays other users with setuid (needs root)")
async def test_root_keeps_its_reserve_when_everyone_else_has_filled_theirs(
        server: ControlServer, tmp_path: Path) -> None:
    gate = Path(tempfile.mkdtemp(prefix="hg", dir="/tmp"))
    gate.chmod(0o777)  # the children say "ready" here, and wait for the test's word
    holders = [asyncio.create_task(as_user_async(uid, _fill_and_hold, str(server.path),
                                                 SMALL.per_uid, str(gate / str(uid))))
               for uid in (STRANGER, 60002)]
    try:
        for uid in (STRANGER, 60002):
            await until((gate / f"{uid}.ready").exists, what=f"uid {uid} to hold its share")
        await until(lambda: server.status()["connections"] >= 6, what="six connections")
        # 6 of 8 slots are taken, and 2 are reserved: a third user is refused ...
        third = await as_user_async(60003, read_answers_after, str(server.path))
        assert third[0]["status"] == "busy"
        assert "full for all but root" in third[0]["error"]["message"]
        # ... while root is answered
        reader, writer = await _connect(server)
        writer.write(b'{"op": "status"}\n')
        assert json.loads(await asyncio.wait_for(reader.readline(), 20))["uid"] == 0
        await _close(writer)
    finally:
        for uid in (STRANGER, 60002):
            (gate / str(uid)).write_text("")
        await asyncio.gather(*holders)
        shutil.rmtree(gate, ignore_errors=True)


def read_answers_after(path: str) -> list[dict[str, Any]]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(path)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b'{"op": "status"}\n')  # a refused one was answered and closed already
        return read_answers(sock)


async def test_a_flood_of_requests_never_read_holds_no_more_answers_than_the_socket_would(
        server: ControlServer) -> None:
    """A client that pipelines tiny requests and reads nothing: each read of its bytes (up to
    64 KiB, 21,845 frames of `{}`) must not be answered all at once into memory (a BUSY
    answer is ~80 times the frame), only until the peer's buffer is full, as with a blocking
    write. Measured on the server's side, in this process, before the send limit cuts it."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.connect(str(server.path))
    try:
        flood, sent = b"{}\n" * (512 * 1024 // 3), 0
        with contextlib.suppress(BlockingIOError):
            while sent < len(flood):
                sent += sock.send(flood[sent:sent + 65536])
                await asyncio.sleep(0)  # the server reads while we write
        assert sent > 128 * 1024
        await until(lambda: server.refused > 100, what="requests refused BUSY")
        (conn,) = server._connections
        assert conn.transport is not None
        # the transport's high-water mark is 64 KiB; one answer more may go over it
        assert conn.transport.get_write_buffer_size() < 128 * 1024
        # and the requests read but not started are one read's at most, a read at most
        # 64 KiB: 21,845 frames of `{}` (decoding 256 KiB of them held the loop ~0.3 s)
        await until(lambda: conn.backlog, what="requests held back")
        assert len(conn.backlog) <= 65536 // 3
    finally:
        sock.close()


async def test_a_flood_read_late_is_answered_request_by_request(server: ControlServer) -> None:
    """The same flood, read only once the server has stopped reading it: every request is
    answered once (the refused ones in order), and the connection goes on after it."""
    reader, writer = await _connect(server)
    count = 30000
    try:
        writer.write(b"".join(b'{"op":"x","id":%d}\n' % i for i in range(count)))
        await until(lambda: any(c._write_paused for c in server._connections),
                    what="the server to stop reading the flood")
        writer.write(b'{"op": "status", "id": "last"}\n')
        answers = [json.loads(await asyncio.wait_for(reader.readline(), 20))
                   for _ in range(count + 1)]
        ids = [a["id"] for a in answers]
        assert "last" in ids[-3:]  # answered with the last requests in flight (two)
        ids.remove("last")
        assert sorted(ids) == list(range(count))
        busy = [a["id"] for a in answers if a["status"] == "busy" and a["id"] != "last"]
        assert busy == sorted(busy) and len(busy) > count // 2
    finally:
        await _close(writer)


async def test_a_connection_ended_with_a_little_unread_is_still_cut_at_the_send_limit(
        server: ControlServer) -> None:
    """Answers never read that fill the socket and a little more, below the transport's
    high-water mark (so it never says to stop writing): when the connection then ends (idle),
    closing waits for them to be sent. It may wait `send` seconds, not for ever: its slot is
    free at once, so a user repeating this would hold a descriptor per connection until
    hermesd could accept none (root included)."""
    before = fds()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(server.path))
    try:
        await until(lambda: server.status()["connections"] == 1, what="the connection")
        (conn,) = server._connections
        assert conn.transport is not None
        transport = conn.transport
        for i in range(200):  # one answer at a time until the socket holds no more of them
            sock.send(b'{"op": "16k", "id": %d}\n' % i)
            await until(functools.partial(_answered, conn, i), what="the answer written")
            if transport.get_write_buffer_size():
                break
        assert 0 < transport.get_write_buffer_size() < 64 * 1024  # and never paused
        assert not conn._write_paused
        open_fds = fds()
        assert open_fds == before + 2  # ours and the server's
        await until(lambda: server.status()["connections"] == 0, what="idle: the slot freed")
        # idle 0.6 s, send 1 s: the server's end is gone well within 10 s
        await until(lambda: fds() == before + 1, what="the server's end of it closed")
    finally:
        sock.close()


async def test_a_client_gone_with_requests_in_flight_frees_its_slots_quietly(
        server: ControlServer, caplog: pytest.LogCaptureFixture) -> None:
    """Requests sent, then the connection reset at once: each request still runs to its end
    (nothing to answer it to), nothing is logged as a failure, and its slots are free."""
    with caplog.at_level(logging.WARNING):
        for _ in range(10):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(str(server.path))
            sock.sendall(b'{"op": "sleep", "seconds": 0.2, "id": 1}\n{"op": "x", "id": 2}\n')
            await until(lambda: server._slots.inflight.total() > 0, what="a request in flight")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()  # a reset, not an end of stream
            await until(lambda: server.status()["connections"] == 0, what="its slot freed")
            assert not server._slots.inflight.total()  # its requests done with it
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    reader, writer = await _connect(server)
    try:
        writer.write(b'{"op": "status", "id": 3}\n')
        answer = json.loads(await asyncio.wait_for(reader.readline(), 20))
        assert answer.get("id") == 3, (answer, server.status(), server._slots)
    finally:
        await _close(writer)


LOOPS = {"asyncio": None, **({"uvloop": loop_factory()} if loop_factory() else {})}


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_server_stopped_while_clients_connect_keeps_no_connection(loop: str) -> None:
    """Clients connecting and pipelining as the server stops: a connection the loop hands over
    after the stop began (uvloop delivers those it accepted before the listening socket
    closed) is refused, not served on with nobody left to end it."""
    async def attempt() -> tuple[int, int]:
        where = Path(tempfile.mkdtemp(prefix="hs", dir="/tmp"))
        srv = ControlServer(where / "control.sock", _handler, Limits())
        await srv.start()
        socks = []
        try:
            for _ in range(20):  # connected at once (the listening socket's backlog)
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(srv.path))
                sock.sendall(b"".join(json.dumps({"op": "sleep", "seconds": 0.05, "id": n})
                                      .encode() + b"\n" for n in range(8)))
                socks.append(sock)
            for _ in range(3):  # a few turns of the loop: it accepts some, hands over some
                await asyncio.sleep(0)
            await srv.stop()
            return srv.status()["connections"], srv._slots.inflight.total()
        finally:
            for sock in socks:
                sock.close()
            shutil.rmtree(where, ignore_errors=True)

    async def main() -> list[tuple[int, int]]:
        return [await attempt() for _ in range(5)]

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        left = runner.run(main())
    assert left == [(0, 0)] * 5  # connections, requests in flight


async def test_a_kept_client_connection_closed_for_idleness_is_made_anew() -> None:
    """`hermesctl ask` at its prompt keeps one connection; after a minute's pause hermesd had
    closed it, and the next question died with a broken pipe (review atk20s, #13). The client
    sees the close before it sends, and connects again."""
    where = Path(tempfile.mkdtemp(prefix="hl", dir="/tmp"))
    srv = ControlServer(where / "control.sock", _handler, Limits(idle=0.3))
    await srv.start()
    client = Client(where / "control.sock", timeout=10)
    try:
        first = await asyncio.to_thread(client.request, {"op": "status", "id": 1})
        assert first["status"] == "ok"
        kept = client._sock
        assert kept is not None
        await until(lambda: _closed_by_peer(kept), what="the idle connection closed")
        second = await asyncio.to_thread(client.request, {"op": "status", "id": 2})
        assert second["status"] == "ok" and second["op"] == "status"
        assert client._sock is not kept
    finally:
        client.close()
        await srv.stop()
        shutil.rmtree(where, ignore_errors=True)
