"""The daemon's end of a tool connection, over a real Unix socket pair."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import socket
import tracemalloc

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from hermesd.core.eventloop import loop_factory
from hermesd.core.protocol import ActionSpec, Event, Hello, Result, encode
from hermesd.tool_link import ToolLink
from tests.support.until import until

READ = ActionSpec("read", "read a point",
                  {"type": "object", "properties": {"point": {"type": "string"}},
                   "required": ["point"], "additionalProperties": False},
                  {"type": "object"})


async def _linked(*actions: ActionSpec, limit: int = 2**16
                  ) -> tuple[ToolLink, asyncio.StreamReader, asyncio.StreamWriter]:
    """A link that has shaken hands with a tool of `actions` (READ when none) over a socket
    pair, and the tool's end of it (`limit`: both stream readers' buffer, asyncio's default)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    reader, writer = await asyncio.open_unix_connection(sock=ours, limit=limit)
    tool_reader, tool_writer = await asyncio.open_unix_connection(sock=theirs, limit=limit)
    link = ToolLink("fake", reader, writer, lambda tool, event: None)
    tool_writer.write(encode(Hello(tool="fake", version="1", pid=os.getpid(),
                                   actions=actions or (READ,))))
    await link.handshake(timeout=5)
    return link, tool_reader, tool_writer


LOOPS = {"asyncio": None, **({"uvloop": loop_factory()} if loop_factory() else {})}


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_call_on_a_connection_closed_under_it_is_tool_unavailable(loop: str) -> None:
    async def main() -> HermesError:
        link, _, tool_writer = await _linked()
        link._writer.transport.abort()  # what the event loop does when the peer dies
        try:
            await link.call("read", {"point": "oven_temp"}, {}, timeout=2)
        except HermesError as exc:
            return exc
        finally:
            tool_writer.close()
            await link.close()
        raise AssertionError("the call did not fail")

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        exc = runner.run(main())
    assert exc.code is ErrorCode.TOOL_UNAVAILABLE
    assert "fake" in str(exc) and "closed" in str(exc)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_events_sent_in_one_write_with_the_hello_all_arrive(loop: str) -> None:
    """A tool that writes its hello and its first events at once: the handshake's read holds
    them all, and none may be lost at the hand-over to the link's protocol."""
    async def main() -> list[int]:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        _, tool_writer = await asyncio.open_unix_connection(sock=theirs)
        seen: list[int] = []
        link = ToolLink("fake", reader, writer, lambda tool, event: seen.append(event.data["n"]))
        hello = encode(Hello(tool="fake", version="1", pid=os.getpid(), actions=(READ,)))
        tool_writer.write(hello + b"".join(encode(Event("values", {"n": n})) for n in range(3)))
        await tool_writer.drain()
        await link.handshake(timeout=5)
        server = asyncio.create_task(link.serve())
        try:
            tool_writer.write(encode(Event("values", {"n": 3})))
            await until(lambda: 3 in seen, what="the event after the hello's write")
            return seen
        finally:
            tool_writer.close()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        assert runner.run(main()) == [0, 1, 2, 3]


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_flood_of_events_before_the_handshake_reads_does_not_stop_the_link(loop: str) -> None:
    """Megabytes of events after the hello, there before the daemon reads the hello: the
    stream reader stops reading past twice its limit (2 MiB in the supervisor) and would start
    again only when read below it. The link that took the connection over reads on."""
    async def main() -> int:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        reader, writer = await asyncio.open_unix_connection(sock=ours, limit=2 * 1024 * 1024)
        _, tool_writer = await asyncio.open_unix_connection(sock=theirs)
        seen: list[int] = []
        link = ToolLink("fake", reader, writer, lambda tool, event: seen.append(event.data["n"]))
        hello = encode(Hello(tool="fake", version="1", pid=os.getpid(), actions=(READ,)))
        pad = "x" * 1000
        count = 6000  # ~6 MB
        tool_writer.write(hello + b"".join(encode(Event("values", {"n": n, "pad": pad}))
                                           for n in range(count)))
        # wait until the daemon's side has taken in more than 4 MiB unread (and stopped)
        await until(lambda: tool_writer.transport.get_write_buffer_size() < 1800 * 1024,
                    what="the daemon's reader to fill")
        await link.handshake(timeout=5)
        server = asyncio.create_task(link.serve())
        try:
            await until(lambda: len(seen) == count, what="every event")
            return len(seen)
        finally:
            tool_writer.close()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        assert runner.run(main()) == 6000


@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize(("then", "said"), [
    (b'{"type": "result", "id": 1, "va', "stream ended inside a frame (31 bytes)"),  # then closes
    (b"garbage\n", "bad frame"),
    (b'{"type": "result", "id": 1, "value": {"x": "' + b"y" * (5 * 1024 * 1024) + b'"}}\n',
     "bad frame"),
])
def test_a_tool_that_breaks_off_mid_answer_fails_the_call_at_once(loop: str, then: bytes,
                                                                   said: str) -> None:
    """The call in flight fails as soon as the tool's answer cannot be one (half a frame and
    the end, a line that is no frame, a frame past the limit), long before its deadline."""
    async def main() -> tuple[HermesError, float]:
        link, _, tool_writer = await _linked()
        server = asyncio.create_task(link.serve())
        started = asyncio.get_running_loop().time()
        call = asyncio.create_task(link.call("read", {"point": "p"}, {}, timeout=30))
        try:
            tool_writer.write(then)
            tool_writer.write_eof()
            try:
                await call
            except HermesError as exc:
                return exc, asyncio.get_running_loop().time() - started
            raise AssertionError("the call did not fail")
        finally:
            tool_writer.close()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        exc, took = runner.run(main())
    assert exc.code is ErrorCode.TOOL_UNAVAILABLE and said in str(exc)
    assert took < 10


@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize(("asked", "answer"), [
    ("call", b'{"type": "pong", "id": %d}\n'),
    ("configure", b'{"type": "pong", "id": %d}\n'),
    ("ping", b'{"type": "result", "id": %d, "value": 1}\n'),
])
def test_a_request_answered_with_the_wrong_kind_of_message_closes_the_link(
        loop: str, asked: str, answer: bytes) -> None:
    """A pong for a call or for the config, a result for a ping: the tool does not speak the
    protocol. The request fails as the tool being unavailable, saying why, and the link is
    closed (it used to end in an AssertionError out of the supervisor's configure)."""
    async def main() -> tuple[HermesError, bool]:
        link, tool_reader, tool_writer = await _linked()
        server = asyncio.create_task(link.serve())
        request = asyncio.create_task(
            link.call("read", {"point": "p"}, {}, timeout=30) if asked == "call"
            else link.configure({"devices": {}}, 30) if asked == "configure"
            else link.ping(30))
        try:
            msg_id = json.loads(await tool_reader.readline())["id"]
            tool_writer.write(answer % msg_id)
            try:
                await request
            except HermesError as exc:
                return exc, link.shut
            raise AssertionError(f"the {asked} did not fail")
        finally:
            tool_writer.close()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        exc, shut = runner.run(main())
    assert exc.code is ErrorCode.TOOL_UNAVAILABLE and shut
    wrong = "pong" if asked != "ping" else "result"
    assert f"answered {asked} " in str(exc) and f"with a {wrong}" in str(exc)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_call_to_a_tool_that_reads_nothing_ends_at_its_deadline(loop: str) -> None:
    """A hung tool reads none of its calls: once more than 4 MiB wait to be sent, a call
    waits for the tool to read, but no longer than its own deadline (the ping that finds the
    tool hung comes later)."""
    async def main() -> tuple[list[BaseException | None], float]:
        link, _, tool_writer = await _linked()
        server = asyncio.create_task(link.serve())
        loop = asyncio.get_running_loop()
        started = loop.time()
        calls = [asyncio.create_task(link.call("read", {"point": "x" * (1000 * 1000)}, {},
                                               timeout=1)) for _ in range(10)]
        try:
            done, _ = await asyncio.wait(calls, timeout=20)
            return [c.exception() if c in done else None for c in calls], loop.time() - started
        finally:
            for call in calls:
                call.cancel()
            await asyncio.gather(*calls, return_exceptions=True)
            tool_writer.transport.abort()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        errors, took = runner.run(main())
    assert all(isinstance(e, HermesError) and e.code is ErrorCode.TIMEOUT for e in errors), errors
    assert took < 10


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_calls_a_tool_never_answers_each_end_at_their_own_deadline(loop: str) -> None:
    """One timer keeps every call's deadline: calls started together with different
    deadlines each end at theirs, in their order, and a later call is not held by an earlier
    one's timer."""
    async def main() -> list[tuple[float, BaseException | None]]:
        link, _, tool_writer = await _linked()
        server = asyncio.create_task(link.serve())
        loop = asyncio.get_running_loop()
        started = loop.time()
        ended: list[tuple[float, BaseException | None]] = []

        async def call(timeout: float) -> None:
            try:
                await link.call("read", {"point": "p"}, {}, timeout=timeout)
            except HermesError as exc:
                ended.append((timeout, exc))
            else:
                ended.append((timeout, None))
            ended[-1] = (loop.time() - started, ended[-1][1])

        try:
            await asyncio.gather(call(1.5), call(0.3), call(0.9))
            await call(0.2)  # after the others: the timer is armed again for it
            return ended
        finally:
            tool_writer.transport.abort()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        ended = runner.run(main())
    assert all(isinstance(e, HermesError) and e.code is ErrorCode.TIMEOUT for _, e in ended)
    took = [t for t, _ in ended]
    assert took == sorted(took)
    # uvloop's clock counts whole milliseconds and a timer may fire within one of its
    # deadline by the loop's own reading (CI saw 0.2999999999992724 for 0.3).
    tick = 0.002
    assert 0.3 - tick <= took[0] < 0.8 and 0.9 - tick <= took[1] < 1.4
    assert 1.5 - tick <= took[2] < 2.5 and 1.7 - tick <= took[3] < 2.9


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_arguments_are_checked_against_the_schema_on_every_call(loop: str) -> None:
    """The link remembers arguments that passed (every read's are the same): never one that
    did not, nor another point's."""
    strict = ActionSpec("read", "read a point",
                        {"type": "object", "properties": {"point": {"type": "string",
                                                               "pattern": "^ok_"}},
                         "required": ["point"], "additionalProperties": False},
                        {"type": "object"})

    async def main() -> list[ErrorCode]:
        link, _, tool_writer = await _linked(strict)
        codes = []
        try:
            for args in ({"point": "ok_a"}, {"point": "bad"}, {"point": "ok_a"},
                         {"point": "bad"}, {"point": "ok_a", "x": 1}, {"point": 5}):
                try:
                    await link.call("read", args, {}, timeout=0.05)
                except HermesError as exc:
                    codes.append(exc.code)
        finally:
            tool_writer.transport.abort()
            await link.close()
        return codes

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        codes = runner.run(main())
    # checked and sent (the tool never answers), refused, sent, refused, refused, refused
    assert codes == [ErrorCode.TIMEOUT, ErrorCode.BAD_REQUEST, ErrorCode.TIMEOUT,
                     ErrorCode.BAD_REQUEST, ErrorCode.BAD_REQUEST, ErrorCode.BAD_REQUEST]


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_every_call_carries_the_defaults_its_schema_fills_in(loop: str) -> None:
    """A schema with defaults fills them into the arguments as it checks them: a call whose
    arguments passed before is sent with them all the same (the tool sees one shape)."""
    with_default = ActionSpec("read", "read a point",
                              {"type": "object", "properties": {
                                  "point": {"type": "string"},
                                  "unit": {"type": "string", "default": "SI"}},
                               "required": ["point"], "additionalProperties": False},
                              {"type": "object"})

    async def main() -> list[dict[str, object]]:
        link, tool_reader, tool_writer = await _linked(with_default)
        sent = []
        try:
            for _ in range(3):
                with pytest.raises(HermesError):  # the tool never answers
                    await link.call("read", {"point": "p"}, {}, timeout=0.05)
                sent.append(json.loads(await tool_reader.readline())["args"])
        finally:
            tool_writer.transport.abort()
            await link.close()
        return sent

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        sent = runner.run(main())
    assert sent == [{"point": "p", "unit": "SI"}] * 3


def test_arguments_passed_are_not_kept_whatever_their_size() -> None:
    """What the link remembers of arguments that passed stays small: calls with long strings
    (any `call` may give them) leave nothing of them behind once answered."""
    echo = ActionSpec("echo", "answer", {"type": "object"}, {"type": "object"}, "none")
    long_points = 64
    size = 60_000

    async def main() -> int:
        link, tool_reader, tool_writer = await _linked(echo, limit=2**20)

        async def answer() -> None:
            while line := await tool_reader.readline():
                tool_writer.write(encode(Result(json.loads(line)["id"], {})))

        tool = asyncio.create_task(answer())
        try:
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            for n in range(long_points):
                await link.call("echo", {"point": f"{n:05d}" + "x" * size}, {}, timeout=5)
            gc.collect()
            return tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
            tool_writer.transport.abort()
            await link.close()
            await tool

    kept = asyncio.run(main())
    assert kept < long_points * size // 4, kept


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_deadline_the_timer_reaches_early_is_not_a_spin(loop: str) -> None:
    """uvloop rounds a timer to whole milliseconds: the link's timer may fire a fraction of a
    millisecond before a call's deadline. The call still ends at its deadline, not before,
    and the timer is armed again a bounded number of times (not on every turn of the loop
    until the clock gets there)."""
    async def main() -> list[tuple[float, float, int]]:
        link, _, tool_writer = await _linked()
        armed: list[float] = []
        watch = link._watch

        def counted(loop: asyncio.AbstractEventLoop, due: float) -> None:
            armed.append(due)
            watch(loop, due)

        link._watch = counted  # type: ignore[method-assign]
        server = asyncio.create_task(link.serve())
        clock = asyncio.get_running_loop()
        ended = []
        try:
            for timeout in (0.0104, 0.0105, 0.0106, 0.01349, 0.02051, 0.03049):
                armed.clear()
                started = clock.time()
                with pytest.raises(HermesError):  # the tool never answers
                    await link.call("read", {"point": "p"}, {}, timeout=timeout)
                ended.append((timeout, clock.time() - started, len(armed)))
            return ended
        finally:
            tool_writer.transport.abort()
            await link.close()
            await server

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        ended = runner.run(main())
    for timeout, took, arms in ended:
        assert took >= timeout - 0.001, (timeout, took)  # the clock's own millisecond
        assert arms <= 3, (timeout, arms)
