"""The control client, blocking and asyncio, against a real control server in this process and
against a peer that answers what hermesd never would: what comes back, and what is refused."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.control.async_client import AsyncClient
from hermesd.control.client import BadAnswer, Unreachable, Unsendable, request_once
from hermesd.control.requests import Peer
from hermesd.control.server import ControlServer


async def _handler(obj: dict[str, Any], peer: Peer) -> dict[str, Any]:
    await asyncio.sleep(float(obj.get("seconds", 0)))
    return {"status": "ok", "op": obj.get("op"), "n": obj.get("n")}


@pytest.fixture
def where() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hc", dir="/tmp"))  # short: AF_UNIX paths
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
async def server(where: Path) -> AsyncIterator[ControlServer]:
    srv = ControlServer(where / "control.sock", _handler)
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


async def test_pipelined_answers_are_matched_by_id_whichever_ends_first(
        server: ControlServer) -> None:
    async with AsyncClient(server.path) as client:
        slow = asyncio.create_task(client.request({"op": "status", "seconds": 0.5, "n": 1}))
        fast = await client.request({"op": "status", "n": 2})
        assert not slow.done()  # the fast one was answered first, on the same connection
        assert (fast["n"], (await slow)["n"]) == (2, 1)
        assert fast["id"] != (await slow)["id"]


async def test_the_blocking_client_asks_as_hermesctl_does(server: ControlServer) -> None:
    answer = await asyncio.to_thread(request_once, server.path, {"op": "status", "n": 7})
    assert (answer["status"], answer["n"]) == ("ok", 7)


@pytest.mark.parametrize("request_obj", [
    {"op": "read", "point": "x", "value": float("nan")},  # no NaN in strict JSON
    {"op": "ask", "text": "lone \ud800 surrogate"},
])
async def test_a_request_that_is_not_strict_json_is_never_sent(
        where: Path, request_obj: dict[str, Any]) -> None:
    path = where / "nobody.sock"  # nothing listens: a request that went out would say so
    with pytest.raises(Unsendable, match="the request cannot be sent"):
        await asyncio.to_thread(request_once, path, request_obj)
    async with AsyncClient(path) as client:
        with pytest.raises(Unsendable, match="the request cannot be sent"):
            await client.request(request_obj)


async def test_no_daemon_is_unreachable(where: Path) -> None:
    with pytest.raises(Unreachable, match=r"cannot connect to hermesd at .*nobody\.sock"):
        await asyncio.to_thread(request_once, where / "nobody.sock", {"op": "status"})
    async with AsyncClient(where / "nobody.sock") as client:
        with pytest.raises(Unreachable, match="cannot connect to hermesd"):
            await client.request({"op": "status"})


# -- a peer that answers what hermesd never would -------------------------------------------------

@contextlib.asynccontextmanager
async def _peer(path: Path, answer: Callable[[bytes], bytes]) -> AsyncIterator[None]:
    """Answers each request line with `answer(line)`; an empty answer closes the connection."""
    serving: set[asyncio.Task[Any]] = set()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        serving.add(asyncio.current_task())  # type: ignore[arg-type]
        try:
            while line := await reader.readline():
                out = answer(line)
                if not out:
                    break
                writer.write(out)
                await writer.drain()
        finally:
            writer.close()

    server = await asyncio.start_unix_server(serve, str(path))
    try:
        yield
    finally:
        server.close()
        await server.wait_closed()
        await asyncio.gather(*serving, return_exceptions=True)


@pytest.mark.parametrize(("line", "why"), [
    (b'{"status": "ok", "id": "c1", "value": NaN}\n', "the answer is not valid JSON"),
    (b'{"status": "ok", "status": "error", "id": "c1"}\n', "the answer is not valid JSON"),
    (b'["ok"]\n', "the answer is a JSON list, not an object"),
    (b'{"status": "fine", "id": "c1"}\n', "the answer's status 'fine' is not one of"),
])
async def test_an_answer_not_in_the_documented_shape_is_refused(where: Path, line: bytes,
                                                               why: str) -> None:
    path = where / "odd.sock"
    async with _peer(path, lambda _: line):
        with pytest.raises(BadAnswer, match=why):
            await asyncio.to_thread(request_once, path, {"op": "status"})
        async with AsyncClient(path) as client:
            with pytest.raises(BadAnswer, match=why):
                await client.request({"op": "status", "id": "c1"}, timeout=10)


async def test_a_connection_closed_without_an_answer_is_unreachable(where: Path) -> None:
    path = where / "rude.sock"
    async with _peer(path, lambda _: b""):
        with pytest.raises(Unreachable, match="closed the connection without an answer"):
            await asyncio.to_thread(request_once, path, {"op": "status"})
        async with AsyncClient(path) as client:
            with pytest.raises(Unreachable, match="closed the connection without an answer"):
                await client.request({"op": "status"}, timeout=10)
