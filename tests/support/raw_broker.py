"""A raw MQTT server on loopback that speaks just enough of the protocol to misbehave on
purpose: a huge message, a broker that stops reading. Real sockets, run in the test's loop."""

from __future__ import annotations

import asyncio
import contextlib
import struct


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


async def read_packet(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    header = (await reader.readexactly(1))[0]
    mult, length = 1, 0
    while True:
        byte = (await reader.readexactly(1))[0]
        length += (byte & 127) * mult
        mult *= 128
        if not byte & 128:
            return header, await reader.readexactly(length)


def connack(v5: bool) -> bytes:
    return b"\x20\x03\x00\x00\x00" if v5 else b"\x20\x02\x00\x00"


def suback(body: bytes, v5: bool) -> bytes:
    """Grant every filter of a SUBSCRIBE at QoS 1."""
    i = 2
    if v5:
        i += 1 + body[i]  # properties (short in our client's packets)
    count = 0
    while i < len(body):
        i += 2 + struct.unpack(">H", body[i:i + 2])[0] + 1
        count += 1
    payload = body[:2] + (b"\x00" if v5 else b"") + b"\x01" * count
    return b"\x90" + varint(len(payload)) + payload


def publish_header(topic: str, payload_length: int, v5: bool) -> bytes:
    """A QoS 0 PUBLISH's header and topic; `payload_length` bytes of payload are to follow."""
    name = topic.encode()
    head = struct.pack(">H", len(name)) + name + (b"\x00" if v5 else b"")
    return b"\x30" + varint(len(head) + payload_length) + head


class RawBroker:
    """Accepts clients; answers CONNECT and SUBSCRIBE; then does what `after_suback` says."""

    def __init__(self, v5: bool, after_suback: str) -> None:
        self.v5 = v5
        self.after_suback = after_suback  # "huge" | "stop_reading" | "never" (no SUBACK)
        self.connections = 0
        self.sent_huge = 0  # bytes of the huge message written
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: list[asyncio.StreamWriter] = []
        self._closing = asyncio.Event()

    async def __aenter__(self) -> RawBroker:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._server.close()
        self._closing.set()
        for writer in self._writers:
            writer.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.connections += 1
        self._writers.append(writer)
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                header, body = await read_packet(reader)
                kind = header >> 4
                if kind == 1:  # CONNECT
                    writer.write(connack(self.v5))
                elif kind == 8 and self.after_suback == "never":  # SUBSCRIBE: left unanswered
                    continue
                elif kind == 8:  # SUBSCRIBE
                    writer.write(suback(body, self.v5))
                    await writer.drain()
                    if self.after_suback == "huge":
                        await self._huge(writer)
                    await self._closing.wait()  # never reads again, never answers
                    return
                elif kind == 12:  # PINGREQ
                    writer.write(b"\xd0\x00")
                elif kind == 14:  # DISCONNECT
                    return
                await writer.drain()

    async def _huge(self, writer: asyncio.StreamWriter) -> None:
        """A 255 MiB message (near MQTT's largest), sent 1 MiB at a time while the client
        takes it."""
        size = 255 << 20
        writer.write(publish_header("big/x", size, self.v5))
        chunk = b"h" * (1 << 20)
        for _ in range(size // len(chunk)):
            if self._closing.is_set():
                return
            writer.write(chunk)
            await writer.drain()
            self.sent_huge += len(chunk)
