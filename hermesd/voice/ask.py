"""One recording through the request path: transcribe, check the wake phrase, ask, answer.

Used by the listening loop (each utterance), push-to-talk, and `hermesctl ask --audio`. The
words go through `Engine.ask` exactly as typed text does (rules, then the LLM when present,
then policy with the caller's role), so speech can never do more than the same words typed.
The answer carries `transcript` and `transcription` (language and timings); `timings_ms`
gains `transcribe` and its `total` covers the whole way from recording to answer.

Outcomes that are not commands get no device effect: not addressed to us (no wake phrase:
ignored, nothing answered), nothing intelligible, too long (refused politely), or the
transcription failed (reported as an error answer).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from hermesd.answer import Action, Answer, failure
from hermesd.audit_records import printable
from hermesd.context import RequestContext
from hermesd.core.errors import ErrorCode, HermesError
from hermesd.engine import MAX_TEXT, Engine
from hermesd.replies import is_chinese
from hermesd.voice.transcribe import Heard, Transcriber
from hermesd.voice.wake import match_wake

Kind = Literal["answered", "ignored", "wake_only", "empty", "too_long", "failed"]

TOO_LONG = ("Sorry, that was too long for me. Please say one short command, for example "
            "\"{wake}, what is the tank level\".",
            "抱歉，这段话太长了。请说一句简短的指令。")
EMPTY = ("Sorry, I did not catch a command. Please say it again.",
         "抱歉，我没有听清指令，请再说一遍。")
FAILED = ("Sorry, I could not make out what was said: {why}", "抱歉，无法识别语音：{why}")


@dataclass
class Outcome:
    kind: Kind
    heard: Heard | None
    answer: Answer | None  # None: nothing to answer (ignored, wake phrase alone)


async def answer_recording(engine: Engine, transcriber: Transcriber, ctx: RequestContext,
                           pcm: bytes, *, wake_phrase: str, require_wake: bool,
                           too_long: bool = False) -> Outcome:
    """Transcribe `pcm` and act on it; never raises for anything the caller did wrong."""
    started = time.perf_counter()
    try:
        heard = await transcriber.transcribe(ctx, pcm)
    except HermesError as exc:
        answer = failure(exc.code, exc.message, route="rule",
                         reply=FAILED[0].format(why=exc.message))
        return Outcome("failed", None, _finish(engine, ctx, answer, None, started))
    zh = heard.language == "zh" or is_chinese(heard.text)
    woke = match_wake(heard.text, wake_phrase)
    if woke is None and require_wake:
        return Outcome("ignored", heard, None)
    command = woke.command if woke is not None else heard.text
    if too_long:
        refusal = failure(ErrorCode.BAD_REQUEST, "the recording is longer than "
                          "voice.max_utterance", route="rule",
                          action=Action("respond", {"reason": "not_understood",
                                                 "too_long": True}),
                          reply=TOO_LONG[zh].format(wake=wake_phrase.capitalize()))
        return Outcome("too_long", heard, _finish(engine, ctx, refusal, heard, started))
    if not command:
        if woke is not None and require_wake:
            return Outcome("wake_only", heard, None)
        nothing = failure(ErrorCode.BAD_REQUEST, "no words were recognised", route="rule",
                          action=Action("respond", {"reason": "not_understood"}),
                          reply=EMPTY[zh])
        return Outcome("empty", heard, _finish(engine, ctx, nothing, heard, started))
    answer = await engine.ask(ctx, command, transcript=heard.text)
    return Outcome("answered", heard, _finish(engine, ctx, answer, heard, started,
                                              audited=True))


def _finish(engine: Engine, ctx: RequestContext, answer: Answer, heard: Heard | None,
            started: float, *, audited: bool = False) -> Answer:
    answer.trace_id = ctx.trace_id
    if heard is not None:
        answer.extra["transcript"] = heard.text
        answer.extra["transcription"] = heard.summary()
        answer.timings_ms["transcribe"] = heard.timings_ms["total"]
    answer.timings_ms["total"] = (time.perf_counter() - started) * 1000
    if not audited:  # answers the engine did not make are recorded like the ones it did
        record = {"trace_id": ctx.trace_id, "phase": "done", "source": ctx.source,
                  "who": ctx.peer, "role": ctx.role, "route": answer.route,
                  "dry_run": ctx.dry_run,
                  "action": answer.action.to_dict() if answer.action else None,
                  "status": answer.status}
        if answer.error:
            record["error"] = answer.error["code"]
        if heard is not None:  # what was said, as the engine records it for a command
            record["transcript"] = printable(heard.text, MAX_TEXT)[0]
        engine.audit.append(record)
    return answer
