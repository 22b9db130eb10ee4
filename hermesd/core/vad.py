"""A voice activity detector: cuts utterances out of a 16 kHz mono stream. Pure numpy, no model.

Each 30 ms frame is "voiced" when its energy in the speech band (200 Hz - 4 kHz, after
pre-emphasis) is well above the running noise floor and its spectrum there is not flat (hiss,
fans, white, pink and brown noise are flat after pre-emphasis; voices have formants and
harmonics and are not; mains hum lies below the band). Speech starts after a few voiced
frames in a row (with a short pre-roll so the first syllable is kept) and ends after a
hangover of unvoiced frames (pauses between words do not cut a command in two). The noise
floor follows the room: down at once, up slowly, and not at all while someone speaks.

An utterance that reaches `max_utterance` seconds is cut there and marked `too_long`; the rest
of that speech is skipped until the next silence. The detector works on sample counts, never
on the wall clock, so a WAV file replayed faster than real time is cut exactly as if heard live.
It decides nothing about what was said.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

RATE = 16000
FRAME = 480  # samples: 30 ms
FRAME_BYTES = FRAME * 2
FRAME_S = FRAME / RATE
_BAND = slice(6, 121)  # rfft bins of a 480-sample frame: 33.3 Hz each -> 200 Hz .. 4 kHz
_WINDOW = np.hanning(FRAME).astype(np.float32)


@dataclass(frozen=True)
class VadSettings:
    max_utterance: float = 15.0  # seconds; longer speech is cut and marked too_long
    above_floor_db: float = 12.0  # a voiced frame is this much above the noise floor
    min_level_db: float = -55.0  # and at least this loud (dBFS in the speech band)
    max_flatness: float = 0.25  # spectral flatness above this is noise, not voice
    start_frames: int = 3  # voiced frames in a row that start an utterance (90 ms)
    hangover_frames: int = 25  # unvoiced frames that end one (750 ms)
    preroll_frames: int = 10  # kept from before the start (300 ms)
    tail_frames: int = 6  # kept after the last voiced frame (180 ms)
    min_voiced_frames: int = 8  # shorter bursts (a cough, a click) are dropped (240 ms)
    floor_rise_db: float = 0.05  # per frame (1.7 dB/s): how fast the floor follows more noise


@dataclass(frozen=True)
class Utterance:
    pcm: bytes  # 16-bit little-endian samples
    start_s: float  # position in the stream
    end_s: float
    too_long: bool = False

    @property
    def duration(self) -> float:
        return len(self.pcm) / (2 * RATE)


def voiced_seconds(pcm: bytes, settings: VadSettings | None = None) -> float:
    """How much of a clip sounds like a voice (loud, not flat, in runs), whatever its noise floor.

    Whisper writes confident text for silence and noise ("Thank you for watching."); a clip
    with less voice than `min_voiced_frames` is not worth decoding.
    """
    s = settings or VadSettings()
    usable = len(pcm) - len(pcm) % FRAME_BYTES
    if not usable:
        return 0.0
    frames = np.frombuffer(pcm[:usable], dtype="<i2").reshape(-1, FRAME)
    voiced, _levels = Vad(s)._classify(frames)
    # only runs as long as the detector's start rule count: noise has stray voice-like frames
    total = run = 0
    for v in voiced:
        run = run + 1 if v else 0
        if run == s.start_frames:
            total += run
        elif run > s.start_frames:
            total += 1
    return total * FRAME_S


class Vad:
    def __init__(self, settings: VadSettings | None = None) -> None:
        self.s = settings or VadSettings()
        self.floor_db: float | None = None
        self.frames_seen = 0
        self._pending = b""
        self._preroll: deque[bytes] = deque(maxlen=self.s.preroll_frames)
        self._state = "silence"  # silence | speech | skip
        self._run = 0  # voiced frames in a row (silence) or unvoiced in a row (speech, skip)
        self._frames: list[bytes] = []
        self._voiced = 0
        self._start = 0
        self._max_frames = max(1, int(self.s.max_utterance / FRAME_S))

    @property
    def in_speech(self) -> bool:
        return self._state == "speech"

    def feed(self, pcm: bytes) -> list[Utterance]:
        """Take more samples; returns the utterances they complete."""
        data = self._pending + pcm
        usable = len(data) - len(data) % FRAME_BYTES
        self._pending = data[usable:]
        if not usable:
            return []
        frames = np.frombuffer(data[:usable], dtype="<i2").reshape(-1, FRAME)
        voiced, levels = self._classify(frames)
        out: list[Utterance] = []
        for i in range(frames.shape[0]):
            raw = data[i * FRAME_BYTES:(i + 1) * FRAME_BYTES]
            done = self._step(raw, bool(voiced[i]), float(levels[i]))
            if done is not None:
                out.append(done)
            self.frames_seen += 1
        return out

    def flush(self) -> list[Utterance]:
        """End of stream: an utterance in progress ends here."""
        if self._state == "speech":
            done = self._finish(len(self._frames))
            self._reset()
            return [done] if done is not None else []
        self._reset()
        return []

    # -- per frame ------------------------------------------------------------------------------

    def _classify(self, frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = frames.astype(np.float32) / 32768.0
        # pre-emphasis tilts the spectrum up 6 dB/octave: brown and pink noise, which fall off
        # like voices do, become flat and are told apart by their flatness
        x[:, 1:] -= 0.97 * x[:, :-1].copy()
        spectrum = np.abs(np.fft.rfft(x * _WINDOW, axis=1)) ** 2 + 1e-12
        band = spectrum[:, _BAND]
        level = 10.0 * np.log10(band.sum(axis=1) * 2.0 / (FRAME * float(np.sum(_WINDOW ** 2))))
        flatness = np.exp(np.log(band).mean(axis=1)) / band.mean(axis=1)
        loud_enough = level > self.s.min_level_db
        return loud_enough & (flatness < self.s.max_flatness), level

    def _step(self, raw: bytes, voiced_shape: bool, level: float) -> Utterance | None:
        floor = level if self.floor_db is None else self.floor_db
        voiced = voiced_shape and level > floor + self.s.above_floor_db
        if self._state != "speech":  # the floor follows the room, except under speech
            rise = self.s.floor_rise_db * (4 if self._state == "skip" else 1)
            floor = level if level < floor else min(level, floor + rise)
        self.floor_db = max(floor, -100.0)
        if self._state == "silence":
            self._run = self._run + 1 if voiced else 0
            if self._run >= self.s.start_frames:
                self._state = "speech"
                self._frames = [*self._preroll, raw]
                self._start = self.frames_seen + 1 - len(self._frames)
                self._voiced = self._run
                self._run = 0
                self._preroll.clear()
            else:
                self._preroll.append(raw)
            return None
        if self._state == "skip":
            self._run = 0 if voiced else self._run + 1
            if self._run >= self.s.hangover_frames:
                self._reset()
            return None
        self._frames.append(raw)
        if voiced:
            self._voiced += 1
            self._run = 0
        else:
            self._run += 1
        if len(self._frames) >= self._max_frames:
            cut = Utterance(b"".join(self._frames), self._start * FRAME_S,
                             (self._start + len(self._frames)) * FRAME_S, too_long=True)
            self._state, self._run, self._frames = "skip", 0, []
            return cut
        if self._run >= self.s.hangover_frames:
            keep = len(self._frames) - self._run + min(self._run, self.s.tail_frames)
            done = self._finish(keep)
            self._reset()
            return done
        return None

    def _finish(self, keep: int) -> Utterance | None:
        if self._voiced < self.s.min_voiced_frames:
            return None
        frames = self._frames[:keep]
        return Utterance(b"".join(frames), self._start * FRAME_S,
                         (self._start + len(frames)) * FRAME_S)

    def _reset(self) -> None:
        self._state = "silence"
        self._run = 0
        self._frames = []
        self._voiced = 0
        self._preroll.clear()
