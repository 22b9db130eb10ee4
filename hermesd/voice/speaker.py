"""Spoken answers: espeak-ng renders the reply, aplay plays it on `voice.output`.

The voice follows the language of the reply (Mandarin for Chinese text, English otherwise),
and units are spoken as words ("°C" -> "degrees Celsius"). `voice.output` is an ALSA device
name, or, for tests and replays, a directory (each answer is written there as
`answer-NNNN.wav`) or a `.wav` file (overwritten by each answer). Both programs are child
processes with a deadline; they are killed when it passes or when the daemon stops. Text goes
to espeak-ng on stdin, never as an argument, so a reply can never become an option.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from pathlib import Path

from hermesd.children import stop_child
from hermesd.core.statefiles import write_atomic
from hermesd.replies import is_chinese

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
APLAY = "aplay"
VOICE_EN = "en-us"
VOICE_ZH = "cmn"
RENDER_TIMEOUT = 10.0
PLAY_MARGIN = 5.0  # seconds allowed beyond the length of the audio
_UNITS_EN = [("°C", " degrees Celsius"), ("°F", " degrees Fahrenheit"), ("m/min", " metres per minute"),
             ("%", " percent"), ("rpm", " r p m"), ("kg", " kilograms"), ("bar", " bar")]
_UNITS_ZH = [("°C", "摄氏度"), ("%", "%"), ("m/min", "米每分钟"), ("kg", "公斤"), ("rpm", "转每分")]


class SpeakError(Exception):
    """The answer could not be said; the message says why."""


def speakable(text: str) -> tuple[str, str]:
    """The espeak-ng voice and the text as it should be read aloud."""
    zh = is_chinese(text)
    for unit, words in _UNITS_ZH if zh else _UNITS_EN:
        text = re.sub(rf"(?<=[\d\s]){re.escape(unit)}(?![A-Za-z])", words, text)
    return (VOICE_ZH if zh else VOICE_EN), " ".join(text.split())


class Speaker:
    def __init__(self, output: str, base: Path) -> None:
        self.output = output
        self.path: Path | None = None
        if "/" in output or output.endswith(".wav"):
            path = Path(output)
            self.path = path if path.is_absolute() else base / path
        self._numbers = itertools.count(1)
        self.spoken = 0

    def describe(self) -> str:
        return str(self.path) if self.path is not None else f"ALSA device {self.output}"

    async def say(self, text: str) -> Path | None:
        """Say `text`; returns the file written when the output is a file or directory."""
        voice, words = speakable(text)
        if not words:
            return None
        audio = await _run([ESPEAK, "-v", voice, "-s", "160", "--stdin", "--stdout"],
                           words.encode(), RENDER_TIMEOUT)
        if not audio.startswith(b"RIFF"):
            raise SpeakError(f"{ESPEAK} produced no WAV audio")
        written = None
        if self.path is not None:
            written = self._write(audio)
        else:
            seconds = max(0, len(audio) - 44) / (2 * 22050)  # espeak-ng: 22050 Hz mono 16-bit
            await _run([APLAY, "-q", "-D", self.output, "-"], audio, seconds + PLAY_MARGIN)
        self.spoken += 1
        return written

    def _write(self, audio: bytes) -> Path:
        assert self.path is not None
        if self.path.suffix == ".wav":
            target = self.path
        else:
            self.path.mkdir(parents=True, exist_ok=True)
            target = self.path / f"answer-{next(self._numbers):04d}.wav"
        # never through a link planted in place of the answer file or its temp file
        try:
            write_atomic(target, audio, mode=0o644)
        except OSError as exc:  # a full disk, a planted link: this answer is not said
            raise SpeakError(f"cannot write {target}: {exc}") from None
        return target


async def _run(argv: list[str], stdin: bytes, timeout: float) -> bytes:
    """Run a program with `stdin`, return its stdout; killed at the deadline or on cancel."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        raise SpeakError(f"cannot run {argv[0]}: {exc.strerror or exc}") from None
    try:
        async with asyncio.timeout(timeout):
            out, err = await proc.communicate(stdin)
    except TimeoutError:
        raise SpeakError(f"{argv[0]} took longer than {timeout:.0f} s") from None
    finally:
        await stop_child(proc, 0)  # past its deadline or cancelled: nothing left to wait for
    if proc.returncode != 0:
        tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise SpeakError(f"{argv[0]} failed with code {proc.returncode}: {tail[0][:200]}")
    return out
