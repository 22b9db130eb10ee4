"""Where the listening loop's audio comes from: a microphone through arecord, a FIFO, a WAV file.

`voice.input` is an ALSA device name (`default`, `hw:1,0`, `plughw:CARD=USB,DEV=0`): arecord
records 16 kHz mono 16-bit raw PCM from it as a child process (its own session, terminated
then killed at stop). Or it is a path (with a `/` or ending in `.wav`; relative to the config
file): a FIFO gets one WAV stream per writer (`arecord -t wav > fifo`, `cat x.wav > fifo`) and
is reopened for the next; a regular WAV file is played through once (replays, tests).

`chunks()` yields PCM bytes; an empty chunk marks the end of one stream (an utterance in
progress ends there). A source that fails raises `SourceError` with the reason (arecord's own
message, the WAV problem); the loop restarts it with backoff. Sources never parse speech.
"""

from __future__ import annotations

import asyncio
import collections
import os
import stat
from collections.abc import AsyncGenerator
from pathlib import Path

from hermesd.children import stop_child
from hermesd.core.wav import NeedMore, WavError, parse_header

CHUNK = 3200  # bytes: 100 ms
ARECORD = "arecord"
STOP_GRACE = 1.5


class SourceError(Exception):
    """The audio input failed; the message says why."""


class Source:
    kind = "?"
    live = False  # live audio may be dropped when behind; replays never are

    def describe(self) -> str:
        raise NotImplementedError

    def chunks(self) -> AsyncGenerator[bytes, None]:
        raise NotImplementedError


def is_path(spec: str) -> bool:
    return "/" in spec or spec.endswith(".wav")


def open_source(spec: str, base: Path) -> Source:
    if not is_path(spec):
        return ArecordSource(spec)
    path = Path(spec) if Path(spec).is_absolute() else base / spec
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise SourceError(f"voice.input {path}: {exc.strerror or exc}") from None
    if stat.S_ISFIFO(mode):
        return FifoSource(path)
    if stat.S_ISREG(mode):
        return WavFileSource(path)
    raise SourceError(f"voice.input {path} is neither a FIFO nor a WAV file")


class ArecordSource(Source):
    kind = "alsa"
    live = True

    def __init__(self, device: str) -> None:
        self.device = device

    def describe(self) -> str:
        return f"ALSA device {self.device} (arecord)"

    async def chunks(self) -> AsyncGenerator[bytes, None]:
        argv = [ARECORD, "-D", self.device, "-f", "S16_LE", "-r", "16000", "-c", "1",
                "-t", "raw", "-q"]
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise SourceError(f"cannot run {ARECORD}: {exc.strerror or exc} (install "
                              "alsa-utils)") from None
        assert proc.stdout is not None and proc.stderr is not None
        errors: collections.deque[str] = collections.deque(maxlen=3)
        drain = asyncio.create_task(_drain(proc.stderr, errors), name="arecord-stderr")
        try:
            while True:
                data = await proc.stdout.read(CHUNK)
                if not data:
                    break
                yield data
            code = await proc.wait()
            await drain
            why = "; ".join(errors) or "no message"
            raise SourceError(f"arecord -D {self.device} stopped (exit code {code}): {why}")
        finally:
            drain.cancel()
            await asyncio.gather(drain, return_exceptions=True)
            await _stop(proc)


async def _drain(stream: asyncio.StreamReader, lines: collections.deque[str]) -> None:
    """Keep reading a child's stderr (so it never blocks on a full pipe), keep the last lines."""
    while True:
        line = await stream.readline()
        if not line:
            return
        text = line.decode(errors="replace").strip()
        if text:
            lines.append(text[:200])


async def _stop(proc: asyncio.subprocess.Process) -> None:
    await stop_child(proc, STOP_GRACE)


class _WavStream:
    """Strips and checks the WAV header at the start of a byte stream; then passes samples on."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.head = b""
        self.remaining: int | None = None
        self.started = False
        self.odd = b""

    def feed(self, data: bytes) -> bytes:
        if not self.started:
            self.head += data
            try:
                header = parse_header(self.head)
            except NeedMore:
                return b""
            except WavError as exc:
                raise SourceError(f"{self.where}: {exc}") from None
            try:
                header.format.check()
            except WavError as exc:
                raise SourceError(f"{self.where}: {exc}") from None
            self.started = True
            self.remaining = header.data_size
            data, self.head = self.head[header.data_offset:], b""
        if self.remaining is not None:
            data = data[:self.remaining]
            self.remaining -= len(data)
        data = self.odd + data
        cut = len(data) - len(data) % 2
        self.odd = data[cut:]
        return data[:cut]


class WavFileSource(Source):
    kind = "file"

    def __init__(self, path: Path) -> None:
        self.path = path

    def describe(self) -> str:
        return f"WAV file {self.path}"

    async def chunks(self) -> AsyncGenerator[bytes, None]:
        stream = _WavStream(str(self.path))
        try:
            f = self.path.open("rb")
        except OSError as exc:
            raise SourceError(f"{self.path}: {exc.strerror or exc}") from None
        with f:
            while True:
                data = f.read(16 * CHUNK)  # a local file: reads do not block for long
                if not data:
                    break
                pcm = stream.feed(data)
                if pcm:
                    yield pcm
                await asyncio.sleep(0)  # let the loop breathe between chunks
        if not stream.started:
            raise SourceError(f"{self.path}: the file ends inside its WAV header")
        yield b""


class FifoSource(Source):
    kind = "fifo"

    def __init__(self, path: Path) -> None:
        self.path = path

    def describe(self) -> str:
        return f"FIFO {self.path}"

    async def chunks(self) -> AsyncGenerator[bytes, None]:
        loop = asyncio.get_running_loop()
        while True:  # one WAV stream per writer
            try:
                fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
            except OSError as exc:
                raise SourceError(f"{self.path}: {exc.strerror or exc}") from None
            pipe = os.fdopen(fd, "rb", buffering=0)
            reader = asyncio.StreamReader()
            transport, _ = await loop.connect_read_pipe(
                lambda r=reader: asyncio.StreamReaderProtocol(r), pipe)  # type: ignore[misc]
            stream = _WavStream(f"{self.path} (stream)")
            try:
                while True:
                    data = await reader.read(CHUNK)
                    if not data:
                        break
                    pcm = stream.feed(data)
                    if pcm:
                        yield pcm
            finally:
                transport.close()
            if stream.started:
                yield b""
