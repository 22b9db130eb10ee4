"""The voice ops of the control socket: `ask` with a recording, and `listen` (push-to-talk).

`hermesctl ask --audio FILE.wav` sends the WAV file itself (base64, `audio_wav`): the daemon
usually runs as its own user and may not read the technician's files, and it must not read
files for a caller that could not read them. A plain path (`audio`) is accepted only from root
and the daemon's own user. The recording must be 16 kHz mono 16-bit and at most
`voice.max_utterance` long (a longer one is refused politely, as at the microphone); it then
takes the same path as an utterance (`ask.answer_recording`) with the caller's role, and no
wake phrase is needed (one at the start is dropped). What is wrong with a file named by path is
said without a byte of it: a file that is not a usable WAV may be any file the daemon can read
(`/etc/shadow`), and an error message is no way to read it. A recording sent as `audio_wav` is
the caller's own bytes, so its errors say exactly what is wrong.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hermesd.answer import Answer, failure
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.core.wav import WavError, duration, read_wav
from hermesd.engine import Engine
from hermesd.voice.ask import answer_recording
from hermesd.voice.transcribe import Transcriber

if TYPE_CHECKING:
    from hermesd.components import Component

MAX_WAV = 8 * 1024 * 1024


def _refused(ctx: RequestContext, code: str, message: str, started: float) -> Answer:
    answer = failure(code, message, trace_id=ctx.trace_id)
    answer.timings_ms["total"] = (time.perf_counter() - started) * 1000
    return answer


def _read(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(MAX_WAV + 1)


async def ask_audio(engine: Engine, config: Config, ctx: RequestContext, audio: str, *,
                    encoded: bool) -> Answer:
    """Answer a recording sent on the control socket (see the module docstring)."""
    started = time.perf_counter()
    if encoded:
        try:
            data = base64.b64decode(audio, validate=True)
        except (binascii.Error, ValueError):
            return _refused(ctx, "BAD_REQUEST", "ask: audio_wav is not valid base64", started)
    else:
        if ctx.peer_uid not in (0, os.getuid()):
            return _refused(ctx, "FORBIDDEN", "ask: only root and the daemon's user may name a "
                            "file; send the recording itself (hermesctl ask --audio does)",
                            started)
        try:
            if not stat.S_ISREG(os.stat(audio).st_mode):  # a FIFO or device would block us
                return _refused(ctx, "BAD_REQUEST", f"ask: {audio} is not a regular file",
                                started)
            data = await asyncio.to_thread(_read, Path(audio))
        except OSError as exc:
            return _refused(ctx, "BAD_REQUEST", f"ask: cannot read {audio}: "
                            f"{exc.strerror or exc}", started)
        if len(data) > MAX_WAV:
            return _refused(ctx, "BAD_REQUEST", f"ask: {audio} is larger than {MAX_WAV} bytes",
                            started)
    try:
        pcm = read_wav(data)
    except WavError as exc:
        if not encoded:  # a file's content is never echoed, however little of it
            return _refused(ctx, "BAD_REQUEST", f"ask: {audio} is not a usable recording (a "
                            "16 kHz mono 16-bit PCM WAV file); its content is not shown: "
                            "send it with `hermesctl ask --audio FILE`, which says what is "
                            "wrong", started)
        return _refused(ctx, "BAD_REQUEST", f"ask --audio: {exc}", started)
    voice = config.voice
    seconds = duration(pcm)
    if seconds < 0.1:
        return _refused(ctx, "BAD_REQUEST", "ask --audio: the recording is empty", started)
    transcriber = Transcriber(engine.dispatcher, config.paths.runtime_dir / "voice")
    too_long = seconds > voice.max_utterance
    if too_long:  # transcribe only as much as a command may be, then refuse politely
        pcm = pcm[:int(voice.max_utterance * 16000) * 2]
    outcome = await answer_recording(engine, transcriber, ctx, pcm,
                                     wake_phrase=voice.wake_phrase, require_wake=False,
                                     too_long=too_long)
    assert outcome.answer is not None  # without a wake phrase requirement there is always one
    outcome.answer.extra["audio_s"] = round(seconds, 2)
    return outcome.answer


async def listen(components: Sequence[Component], ctx: RequestContext,
                 window: float) -> Answer:
    """Push-to-talk: the answer to the next utterance at the microphone."""
    from hermesd.voice.loop import VoiceLoop

    started = time.perf_counter()
    loop = next((c for c in components if isinstance(c, VoiceLoop)), None)
    if loop is None or not loop.voice.enabled:
        return _refused(ctx, "TOOL_UNAVAILABLE", "listen: voice is not enabled "
                        "(voice.enabled: false)", started)
    if loop.voice.input == "none":
        return _refused(ctx, "TOOL_UNAVAILABLE", "listen: there is no microphone "
                        "(voice.input: none)", started)
    outcome = await loop.push_to_talk(ctx.peer or "hermesctl", window)
    if outcome is None:
        return _refused(ctx, "TIMEOUT", f"listen: nothing was heard within {window:g} s",
                        started)
    assert outcome.answer is not None
    return outcome.answer
