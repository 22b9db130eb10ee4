"""WAV parsing: the one format whisper takes, and a clear message for everything else."""

from __future__ import annotations

import struct

import pytest

from hermesd.core.wav import NeedMore, WavError, duration, parse_header, read_wav, wav_bytes


def _fmt(code: int = 1, channels: int = 1, rate: int = 16000, bits: int = 16) -> bytes:
    block = channels * bits // 8
    return struct.pack("<4sIHHIIHH", b"fmt ", 16, code, channels, rate, rate * block, block, bits)


def _wav(*chunks: bytes) -> bytes:
    body = b"WAVE" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def _data(pcm: bytes, size: int | None = None) -> bytes:
    return b"data" + struct.pack("<I", len(pcm) if size is None else size) + pcm


def test_round_trip_and_duration() -> None:
    pcm = bytes(range(256)) * 125  # 32000 bytes: one second
    assert read_wav(wav_bytes(pcm)) == pcm
    assert duration(pcm) == 1.0


def test_extra_chunks_are_skipped_with_their_padding() -> None:
    pcm = b"\x01\x00" * 10
    odd = b"LIST" + struct.pack("<I", 5) + b"hello" + b"\0"  # odd size: one pad byte
    assert read_wav(_wav(_fmt(), odd, _data(pcm))) == pcm


def test_a_stream_header_has_no_length_and_whole_samples_are_kept() -> None:
    pcm = b"\x01\x00" * 10 + b"\x01"  # cut inside the last sample, as a killed recorder leaves it
    header = parse_header(_wav(_fmt(), _data(pcm, 0x7FFFFFFF)))
    assert header.data_size is None
    assert read_wav(_wav(_fmt(), _data(pcm, 0xFFFFFFFF))) == pcm[:-1]


def test_partial_headers_ask_for_more() -> None:
    full = _wav(_fmt(), _data(b"\0\0"))
    for cut in (0, 5, 11, 20, 40):
        with pytest.raises(NeedMore):
            parse_header(full[:cut])


@pytest.mark.parametrize(("data", "message"), [
    (b"", "the WAV file is empty"),
    (b"ID3\x04 an mp3 file", "not a WAV file: it starts with b'ID3"),
    (_wav(_fmt(rate=44100), _data(b"\0\0")), "its sample rate is 44100 Hz, not 16000 Hz"),
    (_wav(_fmt(channels=2), _data(b"\0\0\0\0")), "it has 2 channels, not 1 (mono)"),
    (_wav(_fmt(bits=24), _data(b"\0\0\0")), "it has 24-bit samples, not 16-bit"),
    (_wav(_fmt(code=3, bits=32), _data(b"\0" * 4)), "it is float audio, not integer PCM"),
    (_wav(_fmt(code=85), _data(b"\0\0")), "other (format code 85) audio"),
    (_wav(_fmt(rate=8000, channels=2), _data(b"")), "8000 Hz, not 16000 Hz; it has 2 channels"),
    (_wav(_data(b"\0\0")), "data before its fmt chunk"),
    (_wav(_fmt(), _data(b"\0" * 10, 100)), "truncated WAV: its data chunk claims 100 bytes"),
    (_wav(_fmt(), _data(b"\0" * 3)), "truncated WAV: the data ends inside a sample"),
    (_wav(_fmt())[:30], "truncated WAV: the file ends inside its header"),
    (_wav(struct.pack("<4sI", b"fmt ", 4) + b"\0" * 4, _data(b"")), "fmt chunk is 4 bytes"),
])
def test_unusable_audio_is_named(data: bytes, message: str) -> None:
    with pytest.raises(WavError) as caught:
        read_wav(data)
    assert message in str(caught.value)
    if "Hz" in message or "channels" in message or "bit" in message:
        assert "sox IN.wav -r 16000 -c 1 -b 16 OUT.wav" in str(caught.value)  # how to fix it
