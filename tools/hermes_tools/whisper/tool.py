"""The whisper tool: speech to text with whisper.cpp (through pywhispercpp), one model per process.

Config (sent by the daemon, see `hermesd.toolspecs`): `model` (a ggml file), `sha256` (the pin
it must match, or null), `threads`, `language` (`auto` or a code such as `en`, `zh`), `prompt`
(the plant's vocabulary, see `hermesd.voice.prompt`) and `spool` (the only directory `path`
arguments may name). The model is loaded once, at the first
configure, and again only when the file or its pin changes; a model that fails its checks is
refused with the reason, so `hermesctl status` shows it.

Action `transcribe {path | pcm [, sample_rate, channels], [language]}` ->
`{text, language, segments, timings: {audio_ms, wait_ms, decode_ms, rtf}}`. One transcription
runs at a time (in a worker thread: the event loop keeps answering pings); `MAX_WAITING` more
may wait, beyond that the answer is BUSY. A call whose deadline passes aborts whisper.cpp.
A clip with (almost) no voice in it is answered with no words without decoding: whisper
invents sentences for silence and noise.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from hermes_tools.runtime import Tool
from hermes_tools.whisper.audio import pcm_of, samples
from hermes_tools.whisper.model import ModelError, WhisperModel
from hermesd.core.errors import BadRequest, ErrorCode, ToolError
from hermesd.core.protocol import ActionSpec
from hermesd.core.vad import voiced_seconds

log = logging.getLogger(__name__)

MAX_WAITING = 4
MIN_VOICE = 0.2  # seconds of voice-like sound below which a clip is not decoded
LANGUAGE = {"type": "string", "pattern": "^(auto|[a-z]{2,3})$"}
TRANSCRIBE_SPEC = ActionSpec(
    name="transcribe",
    description="Speech to text: a 16 kHz mono 16-bit WAV in the spool, or raw PCM (base64).",
    input_schema={
        "type": "object", "additionalProperties": False,
        "properties": {"path": {"type": "string", "maxLength": 4096},
                       "pcm": {"type": "string"},
                       "sample_rate": {"type": "integer"}, "channels": {"type": "integer"},
                       "language": LANGUAGE}},
    output_schema={
        "type": "object", "required": ["text", "language", "timings"],
        "properties": {"text": {"type": "string"}, "language": {"type": "string"},
                       "segments": {"type": "array"},
                       "timings": {"type": "object", "required": ["audio_ms", "decode_ms"]}}},
    effect="none")
MODEL_SPEC = ActionSpec(
    name="model", description="The loaded model: file, sha256, type, languages, load time.",
    input_schema={"type": "object", "additionalProperties": False},
    output_schema={"type": "object", "required": ["path", "sha256"]}, effect="none")


class WhisperTool(Tool):
    name = "whisper"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.model: WhisperModel | None = None
        self.language = "auto"
        self.prompt = ""  # the plant's words, to steer decoding (hermesd.voice.prompt)
        self.spool: Path | None = None
        self._lock = asyncio.Lock()
        self._waiting = 0
        self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="whisper")
        self._abort: threading.Event | None = None
        self.counts = {"transcriptions": 0, "aborted": 0, "busy": 0, "no_voice": 0}
        self.action(TRANSCRIBE_SPEC, self.transcribe)
        self.action(MODEL_SPEC, self.model_info)

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        path = config.get("model")
        if not isinstance(path, str) or not path:
            raise ToolError(ErrorCode.BAD_REQUEST, str(config.get("missing") or "no model file "
                            "given: set voice.model to a ggml file"))
        pin = config.get("sha256")
        threads = int(config.get("threads") or min(4, os.cpu_count() or 1))
        self.language = str(config.get("language") or "auto")
        self.prompt = str(config.get("prompt") or "")
        self.spool = Path(config["spool"]) if config.get("spool") else None
        current = self.model
        if current is None or str(current.path) != path or (pin and current.sha256 != pin) \
                or current.threads != threads:
            loop = asyncio.get_running_loop()
            try:
                model = await loop.run_in_executor(self._executor, WhisperModel.load,
                                                   Path(path), pin, threads)
            except ModelError as exc:
                raise ToolError(ErrorCode.BAD_REQUEST, str(exc)) from None
            if current is not None:
                await loop.run_in_executor(self._executor, current.close)
            self.model = model
            log.info("whisper model %s loaded (%s, sha256 %s, %s ms)", path,
                     model.info["type"], model.sha256[:12], model.info["load_ms"])
        assert self.model is not None
        return {**self.model.info, "language": self.language}

    async def model_info(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        if self.model is None:
            raise ToolError(ErrorCode.NOT_READY, "no model loaded yet")
        return {**self.model.info, **self.counts}

    async def transcribe(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        model = self.model
        if model is None:
            raise ToolError(ErrorCode.NOT_READY, "no model loaded yet")
        pcm = pcm_of(args, self.spool)
        language = str(args.get("language") or self.language)
        if language != "auto" and not model.info["multilingual"] and language != "en":
            raise BadRequest(f"transcribe: the model is English-only; language {language!r} "
                             "needs a multilingual model (voice.model)")
        if self._waiting >= MAX_WAITING:
            self.counts["busy"] += 1
            raise ToolError(ErrorCode.BUSY, "whisper is busy with other recordings",
                            retryable=True)
        audio_ms = len(pcm) / 32.0
        if voiced_seconds(pcm) < MIN_VOICE:  # silence or noise: whisper would invent words
            self.counts["no_voice"] += 1
            return {"text": "", "language": language if language != "auto" else "en",
                    "segments": [], "no_voice": True,
                    "timings": {"audio_ms": round(audio_ms, 1), "wait_ms": 0.0,
                                "decode_ms": 0.0, "rtf": 0.0}}
        queued = time.perf_counter()
        self._waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self._waiting -= 1
        abort = threading.Event()
        self._abort = abort
        work = asyncio.get_running_loop().run_in_executor(
            self._executor, model.transcribe, samples(pcm), language, self.prompt, abort)
        # the lock is released when whisper.cpp has really stopped, not when we stop waiting
        work.add_done_callback(self._finished)
        wait_ms = (time.perf_counter() - queued) * 1000
        try:
            result = await asyncio.shield(work)
        except asyncio.CancelledError:
            abort.set()  # the caller gave up (deadline): stop whisper.cpp early
            self.counts["aborted"] += 1
            raise
        self.counts["transcriptions"] += 1
        return {"text": result.text, "language": result.language, "segments": result.segments,
                "timings": {"audio_ms": round(audio_ms, 1), "wait_ms": round(wait_ms, 1),
                            "decode_ms": round(result.decode_ms, 1),
                            "rtf": round(result.decode_ms / audio_ms, 3) if audio_ms else 0.0}}

    def _finished(self, work: asyncio.Future[Any]) -> None:
        self._lock.release()
        if not work.cancelled() and work.exception() is not None:
            log.error("transcription failed: %s", work.exception())

    async def close(self) -> None:
        if self._abort is not None:
            self._abort.set()
        if self.model is not None:
            model, self.model = self.model, None
            await asyncio.get_running_loop().run_in_executor(self._executor, model.close)
        self._executor.shutdown(wait=True)
