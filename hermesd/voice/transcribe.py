"""The daemon's side of speech to text: hand a recording to the whisper tool, get the words back.

The recording is written as a WAV file into the spool directory (`<runtime_dir>/voice`, mode
0700, the only place the tool accepts paths from), the tool is called through the dispatcher
(the request's deadline applies; a tool that dies mid-call fails the call at once), and the
file is removed whatever happens. Transcription is not a device action: it is neither routed
nor audited; what the words then ask for is.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermesd.context import RequestContext
from hermesd.core.errors import ErrorCode, HermesError
from hermesd.core.wav import duration, wav_bytes
from hermesd.dispatcher import Dispatcher

TOOL = "whisper"
_counter = itertools.count(1)


@dataclass(frozen=True)
class Heard:
    text: str
    language: str
    timings_ms: dict[str, float]  # audio, wait, decode (in the tool), total (round trip)

    def summary(self) -> dict[str, Any]:
        return {"language": self.language, **{f"{k}_ms": round(v, 1)
                                              for k, v in self.timings_ms.items()}}


class Transcriber:
    def __init__(self, dispatcher: Dispatcher, spool: Path) -> None:
        self.dispatcher = dispatcher
        self.spool = spool

    def prepare(self) -> None:
        self.spool.mkdir(parents=True, exist_ok=True)
        os.chmod(self.spool, 0o700)

    async def transcribe(self, ctx: RequestContext, pcm: bytes) -> Heard:
        """The words of 16 kHz mono 16-bit PCM; raises HermesError (TOOL_UNAVAILABLE, ...)."""
        started = time.perf_counter()
        self.prepare()
        path = self.spool / f"{os.getpid()}-{next(_counter)}-{ctx.trace_id}.wav"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(wav_bytes(pcm))
            result = await self.dispatcher.call(ctx, TOOL, "transcribe", {"path": str(path)})
        except HermesError as exc:
            if exc.code == ErrorCode.TOOL_UNAVAILABLE and "no such tool" in exc.message:
                raise HermesError("speech recognition is off: set voice.enabled: true (the "
                                  "whisper tool runs only then)",
                                  code=ErrorCode.TOOL_UNAVAILABLE) from None
            raise
        finally:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        timings = result.get("timings") or {}
        return Heard(text=str(result.get("text", "")).strip(),
                     language=str(result.get("language") or "en"),
                     timings_ms={"audio": duration(pcm) * 1000,
                                 "wait": float(timings.get("wait_ms", 0.0)),
                                 "decode": float(timings.get("decode_ms", 0.0)),
                                 "total": (time.perf_counter() - started) * 1000})
