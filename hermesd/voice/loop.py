"""The listening loop: microphone -> utterances -> whisper -> wake phrase -> ask -> spoken answer.

A daemon component (`voice.enabled`) with two tasks: the listener reads the input
(`sources`), cuts utterances (`vad`) and queues them; the worker takes one at a time through
`ask.answer_recording` with the role `voice.role` and says the reply (`speaker`, when
`voice.speak`). Live audio that falls behind is dropped rather than acted on late (an "open
the valve" carried out half a minute after it was said is worse than none); replays are never
dropped. While an answer is being spoken, live input is muted so we do not hear ourselves.

Push-to-talk skips the wake phrase for the next utterance: `hermesctl listen` (the `listen`
control op), and the Home Assistant button: the mqtt tool sends a `talk` event per press,
which arms the same window (`push_to_talk("mqtt", ...)`); presses are queued, a few at most.
The wake phrase alone ("Hermes.") opens the same window for the next utterance and answers "Yes?".

A failing input (arecord exits, a bad WAV stream) is reported in `status` and restarted with
backoff; a failed transcription (e.g. the whisper tool died) is reported for that utterance and
the loop goes on. Nothing here bypasses the engine: speech can do what the same words typed
with the voice role can do, and no more.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hermesd.config.model import Config, Voice
from hermesd.context import RequestContext
from hermesd.core.errors import ProtocolError
from hermesd.core.vad import Utterance, Vad, VadSettings
from hermesd.voice.ask import Outcome, answer_recording
from hermesd.voice.sources import Source, SourceError, open_source
from hermesd.voice.speaker import Speaker, SpeakError
from hermesd.voice.transcribe import TOOL, Transcriber

if TYPE_CHECKING:
    from hermesd.history.alarms import AlarmEvent
    from hermesd.services import Services

log = logging.getLogger(__name__)

ASK_TIMEOUT = 30.0  # seconds for transcription and the command together
LIVE_QUEUE = 4  # live utterances waiting; older ones are dropped beyond this
REPLAY_QUEUE = 2  # replays wait for room instead (backpressure on the file or FIFO)
STALE_AFTER = 15.0  # seconds: a live utterance older than this when its turn comes is dropped
FOLLOW_UP = 8.0  # seconds after "Hermes." (alone) in which the command needs no wake phrase
MUTE_TAIL = 0.3  # seconds of live input still ignored after we stop speaking
RECENT = 20
TOOL_WAIT = 20.0  # seconds an utterance waits for a whisper tool that is (re)starting
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
WAKE_REPLY = ("Yes?", "我在。")
TALK_WINDOW = 10.0  # seconds a push-to-talk press from Home Assistant waits for speech
TALK_PRESSES = 2  # presses waiting their turn; more are ignored (a stuck or bouncing button)


@dataclass
class _Item:
    utterance: Utterance
    emitted: float  # time.monotonic() when the detector finished it
    live: bool


@dataclass
class _Armed:
    origin: str
    since: float
    result: asyncio.Future[Outcome] = field(repr=False)
    claimed: bool = False  # an utterance for it is being worked on


class VoiceLoop:
    name = "voice"

    def __init__(self, services: Services) -> None:
        self.engine = services.engine
        self.supervisor = services.supervisor
        self.config: Config = services.config
        self.transcriber = Transcriber(services.engine.dispatcher,
                                       services.config.paths.runtime_dir / "voice")
        self.speaker = self._speaker(services.config)
        self.input_state = "starting"  # listening | input ended | input error | off | ...
        self.activity = "idle"  # idle | waiting for whisper | transcribing | speaking
        self.source: Source | None = None
        self.input_error: str | None = None
        self.counts: collections.Counter[str] = collections.Counter()
        self.recent: collections.deque[dict[str, Any]] = collections.deque(maxlen=RECENT)
        self._queue: asyncio.Queue[_Item] = asyncio.Queue()
        self._room = asyncio.Event()  # set whenever the worker takes an utterance
        self._armed: list[_Armed] = []
        self._follow = (0.0, 0.0)  # (after, until): the window opened by the wake phrase alone
        self._in_speech = False
        self._muted_until = 0.0
        self._speaking = False
        self._input_changed = asyncio.Event()
        self._presses: asyncio.Queue[float] = asyncio.Queue(maxsize=TALK_PRESSES)
        services.events.register("talk", self._on_talk)
        self._announcing: set[asyncio.Task[None]] = set()  # alarms being said
        self._saying = asyncio.Lock()
        services.alarms.subscribe(self._on_alarm)

    @property
    def state(self) -> str:
        """What `status` shows: the work in hand, else the state of the input."""
        return self.activity if self.activity != "idle" else self.input_state

    @property
    def voice(self) -> Voice:
        return self.config.voice

    def _speaker(self, config: Config) -> Speaker | None:
        v = config.voice
        return Speaker(v.output, config.source.parent) if v.speak else None

    # -- component -------------------------------------------------------------------------

    async def run(self) -> None:
        self.transcriber.prepare()
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self._listen_forever(), name="voice-listen")
                tg.create_task(self._work(), name="voice-work")
                tg.create_task(self._talk_presses(), name="voice-talk-presses")
        finally:
            self.input_state, self.activity = "stopped", "idle"
            for task in list(self._announcing):
                task.cancel()
            await asyncio.gather(*self._announcing, return_exceptions=True)
            for armed in self._armed:
                if not armed.result.done():
                    armed.result.cancel()

    async def reconfigure(self, config: Config) -> None:
        old = self.voice
        self.config = config
        self.speaker = self._speaker(config)
        if (old.input, old.max_utterance, old.enabled) != \
                (config.voice.input, config.voice.max_utterance, config.voice.enabled):
            self._input_changed.set()

    def status(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "input": self.source.describe() if self.source else self.voice.input,
            "input_error": self.input_error,
            "wake_phrase": self.voice.wake_phrase, "role": self.voice.role,
            "max_utterance_s": self.voice.max_utterance,
            "speak": self.speaker.describe() if self.speaker else False,
            "queued": self._queue.qsize(),
            "push_to_talk_armed": sum(1 for a in self._armed if not a.result.done()),
            "counts": dict(self.counts),
            "recent": list(self.recent),
        }

    # -- push-to-talk ------------------------------------------------------------------------

    async def push_to_talk(self, origin: str, window: float) -> Outcome | None:
        """The outcome of the next utterance, taken without the wake phrase.

        For `hermesctl listen` and for a push-to-talk button wired by another component (e.g.
        a Home Assistant button over MQTT: call this with origin "mqtt"). Returns None when
        nobody spoke within `window` seconds. Speech that began in the window is waited for.
        """
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        armed = _Armed(origin, time.monotonic(), future)
        self._armed.append(armed)
        self.counts["push_to_talk"] += 1
        log.info("push-to-talk from %s: listening for %g s", origin, window)
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(window):
                    return await asyncio.shield(future)
            if not (self._in_speech or armed.claimed or self._queue.qsize()):
                return None
            async with asyncio.timeout(self.voice.max_utterance + ASK_TIMEOUT):
                return await asyncio.shield(future)
        except TimeoutError:
            return None
        finally:
            self._armed.remove(armed)

    def _on_talk(self, tool: str, data: dict[str, Any]) -> None:
        """A push-to-talk press from Home Assistant (a `talk` event of the mqtt tool)."""
        if tool != "mqtt":
            raise ProtocolError(f"talk events come from the mqtt tool, not from {tool}")
        try:
            self._presses.put_nowait(time.monotonic())
        except asyncio.QueueFull:
            self.counts["push_to_talk_ignored"] += 1
            log.info("push-to-talk press ignored: %d already waiting", TALK_PRESSES)

    async def _talk_presses(self) -> None:
        while True:
            await self._presses.get()
            outcome = await self.push_to_talk("mqtt", TALK_WINDOW)
            if outcome is None:
                log.info("push-to-talk from mqtt: nothing was heard within %g s", TALK_WINDOW)

    # -- listening ---------------------------------------------------------------------------

    async def _listen_forever(self) -> None:
        attempt = 0
        while True:
            self._input_changed.clear()
            if not self.voice.enabled or self.voice.input == "none":
                self.input_state = "off" if not self.voice.enabled \
                    else "no input (ask --audio only)"
                self.source = None
                await self._input_changed.wait()
                continue
            started = time.monotonic()
            listening = asyncio.create_task(self._listen_once(), name="voice-input")
            changed = asyncio.create_task(self._input_changed.wait(), name="voice-input-changed")
            try:
                await asyncio.wait([listening, changed], return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (listening, changed):
                    task.cancel()
                await asyncio.gather(listening, changed, return_exceptions=True)
            if changed.done() and not changed.cancelled():
                log.info("voice input changed to %s", self.voice.input)
                attempt = 0
                continue
            error = listening.exception() if not listening.cancelled() else None
            if error is None:  # a WAV file played to its end
                self.input_state = "input ended"
                await self._input_changed.wait()
                continue
            if not isinstance(error, SourceError):
                raise error
            message = str(error)
            if message != self.input_error:
                log.warning("voice input failed: %s", message)
            self.input_error = message
            self.input_state = "input error"
            self.counts["input_errors"] += 1
            if time.monotonic() - started > 60:
                attempt = 0
            delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt) * random.uniform(0.8, 1.2)  # noqa: S311
            attempt += 1
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._input_changed.wait()

    async def _listen_once(self) -> None:
        self.source = open_source(self.voice.input, self.config.source.parent)
        vad = Vad(VadSettings(max_utterance=self.voice.max_utterance))
        live = self.source.live
        self.input_state = "listening"
        async with contextlib.aclosing(self.source.chunks()) as chunks:
            async for chunk in chunks:
                if self.input_error is not None:
                    log.info("voice input is working again: %s", self.source.describe())
                    self.input_error = None
                if not chunk:
                    done = vad.flush()
                elif live and (self._speaking or time.monotonic() < self._muted_until):
                    vad.flush()  # our own voice: not an utterance
                    continue
                else:
                    done = vad.feed(chunk)
                self._in_speech = vad.in_speech
                for utterance in done:
                    await self._enqueue(_Item(utterance, time.monotonic(), live))

    async def _enqueue(self, item: _Item) -> None:
        self.counts["utterances"] += 1
        if item.live:
            while self._queue.qsize() >= LIVE_QUEUE:
                self._queue.get_nowait()
                self.counts["dropped"] += 1
                log.warning("voice: falling behind; an utterance was dropped")
            self._queue.put_nowait(item)
            return
        while self._queue.qsize() >= REPLAY_QUEUE:  # replays wait for room: nothing is lost
            self._room.clear()
            await self._room.wait()
        self._queue.put_nowait(item)

    # -- working -----------------------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            item = await self._queue.get()
            self._room.set()
            if item.live and time.monotonic() - item.emitted > STALE_AFTER:
                self.counts["dropped"] += 1
                self._remember(item, None, "dropped (too late to act on)", False)
                continue
            armed = [a for a in self._armed if a.since <= item.emitted and not a.result.done()]
            after, until = self._follow
            follow_up = after < item.emitted and time.monotonic() <= until
            for a in armed:
                a.claimed = True
            await self._tool_ready()
            self.activity = "transcribing"
            ctx = RequestContext.make(
                "voice", self.voice.role, timeout=ASK_TIMEOUT,
                peer=f"voice (push-to-talk: {armed[0].origin})" if armed else "voice")
            try:
                outcome = await answer_recording(
                    self.engine, self.transcriber, ctx, item.utterance.pcm,
                    wake_phrase=self.voice.wake_phrase,
                    require_wake=not (armed or follow_up), too_long=item.utterance.too_long)
            finally:
                self.activity = "idle"
            self._remember(item, outcome, outcome.kind, bool(armed or follow_up))
            for a in armed:
                if not a.result.done():
                    a.result.set_result(outcome)
            if outcome.kind == "wake_only":
                self._follow = (item.emitted, time.monotonic() + FOLLOW_UP)
                await self._say(WAKE_REPLY[outcome.heard is not None
                                            and outcome.heard.language == "zh"])
            elif outcome.answer is not None and (outcome.kind != "failed" or armed or follow_up):
                if follow_up:
                    self._follow = (0.0, 0.0)
                await self._say(outcome.answer.reply)

    async def _tool_ready(self) -> None:
        """Wait (bounded) for the whisper tool's first start or its restart after a crash."""
        await self.supervisor.started()
        tool = self.supervisor.tools.get(TOOL)
        if tool is not None and tool.state != "running":
            self.activity = "waiting for whisper"
            try:
                await tool.wait_ready(TOOL_WAIT)  # if it is not back by then, the call says why
            finally:
                self.activity = "idle"

    def _on_alarm(self, event: AlarmEvent) -> None:
        """Say an alarm raised or cleared, in the spoken language."""
        if event.what == "acknowledged":
            return
        zh = self.voice.language.startswith("zh")
        text = event.message_zh if zh and event.message_zh else event.occurrence.message
        if zh:
            said = f"报警：{text}" if event.what == "raised" else f"报警解除：{text}"
        else:
            said = f"Alarm: {text}" if event.what == "raised" else f"Alarm cleared: {text}"
        self.announce(said)

    def announce(self, text: str) -> None:
        """Say something nobody asked (an alarm), when answers are spoken; in the background,
        after what is being said now."""
        if self.speaker is None or not text:
            return
        task = asyncio.get_running_loop().create_task(self._say(text), name="voice-say")
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _say(self, text: str) -> None:
        async with self._saying:  # one thing said at a time: answers and alarms
            await self._say_now(text)

    async def _say_now(self, text: str) -> None:
        if self.speaker is None or not text:
            return
        self.activity = "speaking"
        self._speaking = True
        try:
            await self.speaker.say(text)
            self.counts["spoken"] += 1
        except SpeakError as exc:
            self.counts["speak_errors"] += 1
            log.warning("could not say the answer: %s", exc)
        finally:
            self._speaking = False
            self._muted_until = time.monotonic() + MUTE_TAIL
            self.activity = "idle"

    def _remember(self, item: _Item, outcome: Outcome | None, kind: str, ptt: bool) -> None:
        self.counts[kind.split(" ", maxsplit=1)[0]] += 1
        u = item.utterance
        now = time.time()
        entry: dict[str, Any] = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z",
            "outcome": kind,
            "stream_s": [round(u.start_s, 2), round(u.end_s, 2)],
            "audio_s": round(u.duration, 2), "without_wake_phrase": ptt}
        if outcome is not None:
            if outcome.heard is not None:
                entry.update(transcript=outcome.heard.text, language=outcome.heard.language,
                             transcription=outcome.heard.summary())
            if outcome.answer is not None:
                a = outcome.answer
                entry.update(status=a.status, route=a.route,
                             action=a.action.to_dict() if a.action else None, reply=a.reply,
                             error=a.error, trace_id=a.trace_id,
                             timings_ms={k: round(v, 1) for k, v in a.timings_ms.items()})
            level = logging.DEBUG if kind == "ignored" else logging.INFO
            if kind == "failed":
                level = logging.WARNING
            log.log(level, "voice: %s: %r%s", kind,
                    outcome.heard.text if outcome.heard else "",
                    f" -> {outcome.answer.status}: {outcome.answer.reply}"
                    if outcome.answer else "")
        self.recent.append(entry)
