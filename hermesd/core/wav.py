"""WAV files and streams: parse strictly, write simply. Standard library only.

Whisper wants 16 kHz, mono, 16-bit signed PCM; anything else is refused with a message that
names what is wrong and how to fix it (never resampled or mixed down silently: a wrong rate
would give confident nonsense). `parse_header` works on the first bytes of a stream (a FIFO or
`arecord -t wav`), whose data length is unknown; `read_wav` on a whole file, where a data chunk
shorter than it claims is a truncated file. This module must never touch a sound device.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

SAMPLE_RATE = 16000
SAMPLE_WIDTH = 2  # bytes: signed 16-bit little-endian
CHANNELS = 1
FIX = f"convert it with: sox IN.wav -r {SAMPLE_RATE} -c 1 -b 16 OUT.wav"
#: data sizes that mean "unknown length" (streams; arecord writes these until it is stopped)
STREAM_SIZES = frozenset({0, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FFFF000})
MAX_HEADER = 64 * 1024  # a header (with LIST/INFO chunks) longer than this is not believed
PCM = 1
EXTENSIBLE = 0xFFFE
FLOAT = 3
_PCM_GUID_TAIL = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"


class WavError(ValueError):
    """Audio that cannot be used; the message says what is wrong."""


class NeedMore(Exception):
    """The header is not complete yet: read more bytes and try again."""


@dataclass(frozen=True)
class WavFormat:
    sample_rate: int
    channels: int
    bits: int
    encoding: str  # "pcm" | "float" | "other (code N)"

    def check(self) -> None:
        """Raise WavError unless this is 16 kHz mono 16-bit PCM."""
        problems = []
        if self.encoding != "pcm":
            problems.append(f"it is {self.encoding} audio, not integer PCM")
        elif self.bits != 16:
            problems.append(f"it has {self.bits}-bit samples, not 16-bit")
        if self.sample_rate != SAMPLE_RATE:
            problems.append(f"its sample rate is {self.sample_rate} Hz, not {SAMPLE_RATE} Hz")
        if self.channels != CHANNELS:
            problems.append(f"it has {self.channels} channels, not 1 (mono)")
        if problems:
            raise WavError(f"unusable WAV: {'; '.join(problems)}; {FIX}")


@dataclass(frozen=True)
class Header:
    format: WavFormat
    data_offset: int  # where the samples start
    data_size: int | None  # None: a stream of unknown length


def parse_header(buf: bytes) -> Header:
    """The header of a WAV file or stream; NeedMore if `buf` ends inside it."""
    if len(buf) < 12:
        if buf and not (b"RIFF".startswith(buf[:4]) or buf[:4] == b"RIFF"):
            raise WavError(_not_wav(buf))
        raise NeedMore
    if buf[:4] != b"RIFF" or buf[8:12] != b"WAVE":
        raise WavError(_not_wav(buf))
    pos = 12
    fmt: WavFormat | None = None
    while True:
        if pos > MAX_HEADER:
            raise WavError(f"no data chunk within the first {MAX_HEADER} bytes")
        if pos + 8 > len(buf):
            raise NeedMore
        chunk, size = buf[pos:pos + 4], struct.unpack_from("<I", buf, pos + 4)[0]
        body = pos + 8
        if chunk == b"data":
            if fmt is None:
                raise WavError("the WAV has its data before its fmt chunk (or no fmt chunk)")
            return Header(fmt, body, None if size in STREAM_SIZES else size)
        if size > MAX_HEADER:
            raise WavError(f"the WAV chunk {chunk!r} claims {size} bytes before any audio")
        if body + size > len(buf):
            raise NeedMore
        if chunk == b"fmt ":
            fmt = _fmt(buf[body:body + size])
        pos = body + size + (size & 1)  # chunks are padded to an even length


def _fmt(raw: bytes) -> WavFormat:
    if len(raw) < 16:
        raise WavError(f"the WAV fmt chunk is {len(raw)} bytes; at least 16 expected")
    code, channels, rate, _byte_rate, _align, bits = struct.unpack_from("<HHIIHH", raw)
    if code == EXTENSIBLE and len(raw) >= 40:
        sub = struct.unpack_from("<H", raw, 24)[0]
        code = sub if raw[26:40] == _PCM_GUID_TAIL else -1
    encoding = {PCM: "pcm", FLOAT: "float"}.get(code, f"other (format code {code})")
    return WavFormat(rate, channels, bits, encoding)


def _not_wav(buf: bytes) -> str:
    return f"not a WAV file: it starts with {bytes(buf[:12])!r}, not a RIFF/WAVE header"


def read_wav(data: bytes) -> bytes:
    """The samples of a whole 16 kHz mono 16-bit WAV file, as little-endian int16 bytes."""
    if not data:
        raise WavError("the WAV file is empty")
    try:
        header = parse_header(data)
    except NeedMore:
        raise WavError(f"truncated WAV: the file ends inside its header ({len(data)} bytes)") \
            from None
    header.format.check()
    available = len(data) - header.data_offset
    if header.data_size is None:
        size = available - available % SAMPLE_WIDTH  # a stream cut off: whole samples only
    elif header.data_size > available:
        raise WavError(f"truncated WAV: its data chunk claims {header.data_size} bytes but only "
                       f"{available} follow")
    else:
        size = header.data_size
    if size % SAMPLE_WIDTH:
        raise WavError("truncated WAV: the data ends inside a sample")
    return data[header.data_offset:header.data_offset + size]


def wav_bytes(pcm: bytes, sample_rate: int = SAMPLE_RATE, channels: int = CHANNELS) -> bytes:
    """A complete WAV file around 16-bit PCM."""
    block = channels * SAMPLE_WIDTH
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(pcm), b"WAVE", b"fmt ", 16,
                         PCM, channels, sample_rate, sample_rate * block, block, 16, b"data",
                         len(pcm))
    return header + pcm


def duration(pcm: bytes) -> float:
    """Seconds of 16 kHz mono 16-bit PCM."""
    return len(pcm) / (SAMPLE_RATE * SAMPLE_WIDTH)
