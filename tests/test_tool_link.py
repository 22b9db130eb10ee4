"""The daemon's end of a tool connection, over a real Unix socket pair."""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

from hermesd.core.errors import ErrorCode, HermesError
from hermesd.core.eventloop import loop_factory
from hermesd.core.protocol import ActionSpec, Hello, encode
from hermesd.tool_link import ToolLink

READ = ActionSpec("read", "read a point",
                  {"type": "object", "properties": {"point": {"type": "string"}},
                   "required": ["point"], "additionalProperties": False},
                  {"type": "object"})


async def _linked() -> tuple[ToolLink, asyncio.StreamWriter]:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    _, tool_writer = await asyncio.open_unix_connection(sock=theirs)
    link = ToolLink("fake", reader, writer, lambda tool, event: None)
    tool_writer.write(encode(Hello(tool="fake", version="1", pid=os.getpid(), actions=(READ,))))
    await link.handshake(timeout=5)
    return link, tool_writer


LOOPS = {"asyncio": None, **({"uvloop": loop_factory()} if loop_factory() else {})}


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_call_on_a_connection_closed_under_it_is_tool_unavailable(loop: str) -> None:
    async def main() -> HermesError:
        link, tool_writer = await _linked()
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
