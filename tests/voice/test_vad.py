"""The voice activity detector on real audio: where utterances start and end, what is not speech."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermesd.core.vad import FRAME_BYTES, Vad, VadSettings, voiced_seconds
from hermesd.core.wav import read_wav
from tests.voice.speech import Speech, duration


def _pcm(path: Path) -> bytes:
    return read_wav(path.read_bytes())


def _cut(pcm: bytes, settings: VadSettings | None = None,
         chunk: int = 3200) -> list[tuple[float, float, bool]]:
    vad = Vad(settings)
    out = []
    for i in range(0, len(pcm), chunk):
        out += vad.feed(pcm[i:i + chunk])
    out += vad.flush()
    return [(round(u.start_s, 2), round(u.end_s, 2), u.too_long) for u in out]


def test_commands_between_pauses_are_cut_where_they_are(speech: Speech) -> None:
    a, b = speech.say("Hermes, what is the tank level."), speech.say("Hermes, open valve 2.")
    joined = speech.join([speech.silence(1.0), a, speech.silence(1.5), b,
                          speech.silence(1.0)], "two.wav")
    cuts = _cut(_pcm(joined))
    assert len(cuts) == 2
    (s1, e1, _), (s2, e2, _) = cuts
    # the pre-roll keeps the first syllable; the hangover ends each soon after its last word
    assert 0.6 <= s1 <= 1.0 and 1.0 + duration(a) - 0.3 <= e1 <= 1.0 + duration(a) + 0.4
    start_b = 2.5 + duration(a)
    assert start_b - 0.4 <= s2 <= start_b and e2 <= start_b + duration(b) + 0.4


def test_the_cut_does_not_depend_on_how_the_stream_is_chunked(speech: Speech) -> None:
    pcm = _pcm(speech.join([speech.silence(0.7), speech.say("Set feed pump 1 to 1000 rpm."),
                            speech.silence(1.0)], "chunks.wav"))
    assert _cut(pcm, chunk=3200) == _cut(pcm, chunk=977) == _cut(pcm, chunk=len(pcm))


@pytest.mark.parametrize("kind", ["whitenoise", "pinknoise", "brownnoise", "hum"])
def test_noise_is_not_speech(speech: Speech, kind: str) -> None:
    pcm = _pcm(speech.join([speech.silence(2.0), speech.noise(kind, 4.0), speech.silence(1.0)],
                           f"{kind}.wav"))
    assert _cut(pcm) == []
    assert voiced_seconds(pcm) < 0.2


def test_speech_in_steady_noise_is_found(speech: Speech) -> None:
    command = speech.join([speech.silence(1.0), speech.say("What is the tank level."),
                           speech.silence(1.0)], "cmd-noise.wav")
    mixed = speech.mix(command, speech.noise("brownnoise", 4.0, volume=0.05), "mixed.wav")
    assert len(_cut(_pcm(mixed))) == 1
    assert voiced_seconds(_pcm(mixed)) > 0.5


def test_long_speech_is_cut_at_the_maximum_and_the_rest_skipped(speech: Speech) -> None:
    ramble = speech.say("and the pumps and the boilers and the valves " * 6)
    assert duration(ramble) > 8
    pcm = _pcm(speech.join([speech.silence(1.0), ramble, speech.silence(1.5),
                            speech.say("Open valve 2."), speech.silence(1.0)], "long.wav"))
    cuts = _cut(pcm, VadSettings(max_utterance=3.0))
    assert len(cuts) == 2
    (s1, e1, long1), (_s2, _e2, long2) = cuts
    assert long1 and e1 - s1 == pytest.approx(3.0, abs=0.031)
    assert not long2


def test_a_click_is_too_short_to_be_an_utterance() -> None:
    click = (b"\xff\x7f\x01\x80" * 240) * 3  # 90 ms of a full-scale square wave
    assert _cut(bytes(32000) + click + bytes(32000)) == []
    assert len(bytes(FRAME_BYTES)) == 960
