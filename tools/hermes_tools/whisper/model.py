"""One whisper.cpp model in this process: verified, loaded once, used by one transcription at a time.

Loading checks the file before whisper.cpp sees it: its sha256 against the pin (the default
model's, or `voice.model_sha256`), and its structure with our own ggml reader, so a truncated
or foreign file gets a clear error here instead of a crash inside C++. whisper.cpp's own log
lines go to Python logging at debug level. Nothing here is async: the tool runs `transcribe`
in a worker thread (whisper.cpp releases the GIL) and may ask it to stop through `abort`.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hermesd.core.ggml_whisper import GgmlFormatError, read_ggml
from hermesd.core.hashing import sha256_file

log = logging.getLogger(__name__)

#: whisper's markers for non-speech ("[BLANK_AUDIO]", "(music)", "*coughs*"): not words said
_NON_SPEECH = re.compile(r"\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|♪+")


class ModelError(Exception):
    """The model file cannot be used; the message says why."""


@dataclass
class Transcript:
    text: str
    language: str
    segments: list[dict[str, Any]] = field(default_factory=list)
    decode_ms: float = 0.0
    aborted: bool = False


class WhisperModel:
    def __init__(self, path: Path, sha256: str, info: dict[str, Any], threads: int) -> None:
        self.path = path
        self.sha256 = sha256
        self.info = info
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()  # whisper.cpp contexts are not re-entrant

    @classmethod
    def load(cls, path: Path, expected_sha256: str | None, threads: int) -> WhisperModel:
        started = time.perf_counter()
        if not path.is_file():
            raise ModelError(f"model file {path} does not exist")
        digest = sha256_file(path)
        if expected_sha256 is not None and digest != expected_sha256.lower():
            raise ModelError(f"model file {path} has sha256 {digest}, expected "
                             f"{expected_sha256.lower()}: damaged or replaced; prepare it again "
                             "with scripts/models")
        try:
            ggml = read_ggml(path)
        except GgmlFormatError as exc:
            raise ModelError(str(exc)) from None
        h = ggml.hparams
        info = {"path": str(path), "sha256": digest, "type": h.model_type,
                "multilingual": h.multilingual, "n_vocab": h.n_vocab, "n_mels": h.n_mels,
                "size": path.stat().st_size}
        model = cls(path, digest, info, threads)
        model._open()
        info["load_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return model

    def _open(self) -> None:
        import _pywhispercpp as pw
        from pywhispercpp.model import Model

        pw.whisper_log_set(_whisper_log)
        logging.getLogger("pywhispercpp").setLevel(logging.WARNING)  # it logs every call at info
        self._model = Model(str(self.path), n_threads=self.threads, print_progress=False,
                            print_realtime=False, print_timestamps=False, no_context=True,
                            single_segment=False, suppress_blank=True, suppress_nst=True)
        if self._model._ctx is None:
            raise ModelError(f"whisper.cpp could not load {self.path}")

    def transcribe(self, samples: np.ndarray, language: str, prompt: str,
                   abort: threading.Event) -> Transcript:
        """Text of float32 16 kHz mono samples; `prompt` steers the words, `abort` stops early."""
        import _pywhispercpp as pw

        if not self.info["multilingual"]:
            language = "en"  # an English-only model knows nothing else
        # whisper.cpp detects the language for "" (the binding passes "auto" on as a code it
        # does not know, and English is then assumed)
        wanted = "" if language == "auto" else language
        with self._lock:
            started = time.perf_counter()
            segments = self._model.transcribe(
                samples, language=wanted, detect_language=False, initial_prompt=prompt,
                max_tokens=token_budget(len(samples) / 16000), abort_callback=abort.is_set)
            decode_ms = (time.perf_counter() - started) * 1000
            lang_id = pw.whisper_full_lang_id(self._model._ctx)
        detected = pw.whisper_lang_str(lang_id) if lang_id >= 0 else language
        parts = []
        out_segments = []
        for seg in segments:
            text = _NON_SPEECH.sub(" ", seg.text)
            text = " ".join(text.split())
            if text:
                parts.append(text)
                out_segments.append({"start_ms": int(seg.t0) * 10, "end_ms": int(seg.t1) * 10,
                                     "text": text})
        return Transcript(text=" ".join(parts), language=str(detected or language),
                          segments=out_segments, decode_ms=decode_ms, aborted=abort.is_set())

    def close(self) -> None:
        """Free the model and give whisper.cpp its own logger back (it logs while freeing)."""
        import _pywhispercpp as pw

        with self._lock:
            self._model = None
        pw.whisper_log_set(None)


def token_budget(seconds: float) -> int:
    """Tokens a segment may have: a fast talker says about 4 tokens a second.

    Without a bound, audio that is not speech can send whisper into repetition loops that its
    temperature fallback retries with 5 candidates at 6 temperatures, up to 224 tokens each:
    86 s for 3 s of pink noise on 2 cores. The bound keeps a bad clip to a few seconds.
    """
    return int(10 + 6 * min(seconds, 30.0))


def _whisper_log(level: int, text: str) -> None:
    # ggml's levels: 1 debug, 2 info, 3 warn, 4 error, 5 continuation; its info is our debug
    line = text.rstrip()
    if line:
        log.log(logging.WARNING if level in (3, 4) else logging.DEBUG, "whisper.cpp: %s", line)
