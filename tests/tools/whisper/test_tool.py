"""The whisper tool process, driven by the daemon's own supervisor code over its real socket."""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.errors import BadRequest, ErrorCode, Timeout, ToolError, ToolUnavailable
from hermesd.core.protocol import Event
from hermesd.core.wav import read_wav
from hermesd.models.whisper import VARIANTS
from hermesd.supervisor import ToolProcess, ToolSpec
from tests.support import procfs
from tests.support.until import until
from tests.voice.speech import Speech

PROMPT = ("Boiler 3 temperature, Steam valve 2, Feed water tank level. Hermes, read the "
          "Boiler 3 temperature.")  # as hermesd.voice.prompt makes it from a config
CTX: dict[str, Any] = {"trace_id": "t", "source": "internal", "role": "engineer",
                       "dry_run": False}


def _spec(model: Path | None, spool: Path, **extra: Any) -> ToolSpec:
    config = {"model": str(model) if model else None, "sha256": None, "threads": 2,
              "language": "auto", "prompt": PROMPT, "spool": str(spool), **extra}
    return ToolSpec("whisper", (sys.executable, "-m", "hermes_tools.whisper"), config)


class Running:
    def __init__(self, tool: ToolProcess, task: asyncio.Task[None], spool: Path) -> None:
        self.tool, self.task, self.spool = tool, task, spool

    async def call(self, action: str, args: dict[str, Any], timeout: float = 60.0) -> Any:
        return await self.tool.connected().call(action, args, CTX, timeout)

    def put(self, wav: Path) -> str:
        target = self.spool / wav.name
        shutil.copyfile(wav, target)
        return str(target)


async def _start(spec: ToolSpec, runtime: Path) -> tuple[ToolProcess, asyncio.Task[None]]:
    def on_event(tool: str, event: Event) -> None:
        raise AssertionError(f"unexpected event {event}")
    tool = ToolProcess(spec, runtime, on_event)
    return tool, asyncio.create_task(tool.run(), name="whisper-under-test")


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


@pytest.fixture
async def whisper(whisper_model: Path, tmp_path: Path) -> AsyncIterator[Running]:
    spool = tmp_path / "spool"
    spool.mkdir()
    runtime = Path(f"/tmp/hw{os.getpid()}-{time.monotonic_ns()}")
    tool, task = await _start(_spec(whisper_model, spool), runtime)
    try:
        assert await tool.wait_ready(30), tool.last_error
        yield Running(tool, task, spool)
    finally:
        await _stop(task)
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.mark.timeout(60)
async def test_transcribes_a_wav_in_the_spool_and_raw_pcm(whisper: Running,
                                                          speech: Speech) -> None:
    wav = speech.say("Hermes, what is the temperature of boiler 3.")
    result = await whisper.call("transcribe", {"path": whisper.put(wav)})
    assert result["text"].lower().startswith("hermes, what is the temperature")
    assert result["language"] == "en"
    assert result["segments"] and result["segments"][0]["text"]
    t = result["timings"]
    pcm = read_wav(wav.read_bytes())
    assert t["audio_ms"] == pytest.approx(len(pcm) / 32, abs=1)
    assert t["decode_ms"] > 0 and t["rtf"] == pytest.approx(t["decode_ms"] / t["audio_ms"],
                                                            abs=0.01)
    raw = await whisper.call("transcribe", {"pcm": base64.b64encode(pcm).decode(),
                                            "sample_rate": 16000, "channels": 1})
    assert raw["text"] == result["text"]  # same samples, same words
    info = await whisper.call("model", {})
    assert info["sha256"] == VARIANTS["tiny.en"].sha256
    assert info["type"] == "tiny" and info["multilingual"] is False
    assert info["transcriptions"] == 2


@pytest.mark.timeout(60)
async def test_silence_and_noise_give_no_words(whisper: Running, speech: Speech) -> None:
    # whisper itself writes "Thank you for watching." for these; they are never decoded
    for clip in (speech.silence(3.0), speech.noise("whitenoise", 3.0),
                 speech.noise("pinknoise", 3.0)):
        result = await whisper.call("transcribe", {"path": whisper.put(clip)})
        assert result["text"] == "" and result["no_voice"] is True, result
    info = await whisper.call("model", {})
    assert info["no_voice"] == 3 and info["transcriptions"] == 0


@pytest.mark.timeout(60)
async def test_bad_audio_is_refused_naming_what_is_wrong(whisper: Running, speech: Speech,
                                                         tmp_path: Path) -> None:
    good = speech.say("Open steam valve 2.")
    truncated = whisper.spool / "truncated.wav"
    truncated.write_bytes(good.read_bytes()[:-777])
    text = whisper.spool / "notes.wav"
    text.write_text("these are not samples\n")
    outside = tmp_path / "outside.wav"
    shutil.copyfile(good, outside)
    pcm = read_wav(good.read_bytes())
    cases: list[tuple[dict[str, Any], str]] = [
        ({"path": whisper.put(speech.espeak_raw("Open steam valve 2."))},
         "its sample rate is 22050 Hz, not 16000 Hz"),
        ({"path": whisper.put(speech.say("Open steam valve 2.", channels=2))},
         "it has 2 channels, not 1 (mono)"),
        ({"path": str(truncated)}, "truncated WAV: its data chunk claims"),
        ({"path": str(text)}, "not a WAV file"),
        ({"path": str(whisper.spool / "missing.wav")}, "no file"),
        ({"path": str(outside)}, "is outside the spool directory"),
        ({"path": str(whisper.spool / ".." / "outside.wav")}, "is outside the spool directory"),
        ({"pcm": "not base64!"}, "pcm is not valid base64"),
        ({"pcm": base64.b64encode(pcm[:-1]).decode()}, "cut inside a 16-bit sample"),
        ({"pcm": base64.b64encode(pcm).decode(), "sample_rate": 8000},
         "got 8000 Hz, 1 channel(s)"),
        ({"pcm": base64.b64encode(pcm).decode(), "channels": 2}, "got 16000 Hz, 2 channel(s)"),
        ({"pcm": ""}, "holds no samples"),
        ({}, "give exactly one of path or pcm"),
        ({"path": str(truncated), "pcm": "AAAA"}, "give exactly one of path or pcm"),
        ({"pcm": base64.b64encode(pcm).decode(), "language": "zh"}, "English-only"),
    ]
    for args, message in cases:
        with pytest.raises(ToolError) as caught:
            await whisper.call("transcribe", args)
        assert caught.value.code == ErrorCode.BAD_REQUEST, (args, caught.value)
        assert message in caught.value.message, (message, caught.value.message)
    with pytest.raises(BadRequest, match=r"must not contain \{'file'\}"):
        await whisper.call("transcribe", {"file": "x.wav"})  # the schema, checked by the daemon
    assert (await whisper.call("model", {}))["transcriptions"] == 0


@pytest.mark.timeout(90)
async def test_a_call_out_of_time_aborts_whisper_and_the_next_one_works(whisper: Running,
                                                                        speech: Speech) -> None:
    long = speech.join([speech.say("Hermes, what is the temperature of boiler 3, and the "
                                   "pressure, and the tank level.")] * 6, "long.wav")
    with pytest.raises(Timeout):
        await whisper.call("transcribe", {"path": whisper.put(long)}, timeout=0.5)
    short = speech.say("Open steam valve 2.")
    result = await whisper.call("transcribe", {"path": whisper.put(short)})
    assert "valve" in result["text"].lower()
    info = await whisper.call("model", {})
    assert info["aborted"] == 1 and info["transcriptions"] == 1


@pytest.mark.timeout(90)
async def test_more_waiting_recordings_than_the_queue_holds_are_answered_busy(
        whisper: Running, speech: Speech) -> None:
    pcm = base64.b64encode(read_wav(speech.say("Tank level.").read_bytes())).decode()
    results = await asyncio.gather(*(whisper.call("transcribe", {"pcm": pcm})
                                     for _ in range(7)), return_exceptions=True)
    busy = [r for r in results if isinstance(r, ToolError) and r.code == ErrorCode.BUSY]
    done = [r for r in results if isinstance(r, dict)]
    assert len(busy) == 2 and len(done) == 5, results
    assert all(r.retryable for r in busy)


@pytest.mark.timeout(90)
async def test_killed_mid_transcription_fails_the_call_at_once_and_comes_back(
        whisper: Running, speech: Speech) -> None:
    long = speech.join([speech.say("Hermes, tell me everything about boiler 3.")] * 6,
                       "long2.wav")
    pid = whisper.tool.status()["pid"]
    idle_cpu = procfs.cpu_seconds(pid) or 0.0
    call = asyncio.create_task(whisper.call("transcribe", {"path": whisper.put(long)}))
    # decoding has begun when the tool burns CPU (a quarter second of it: more than a call's
    # bookkeeping); the kill mid-transcription is what is under test
    await until(lambda: (procfs.cpu_seconds(pid) or 0.0) > idle_cpu + 0.25, 30,
                "the tool to start decoding")
    assert not call.done()
    os.kill(pid, signal.SIGKILL)
    # at once: the call's 60 s deadline would have raised Timeout, not ToolUnavailable
    with pytest.raises(ToolUnavailable):
        await call
    await until(lambda: whisper.tool.state == "running"
                and whisper.tool.status()["pid"] not in (None, pid), 30, "the tool back")
    assert whisper.tool.restarts == 1
    # whichever the supervisor noticed first: the exit, or the socket closing with it
    assert "was killed by SIGKILL" in whisper.tool.last_error or \
        "closed its connection" in whisper.tool.last_error
    result = await whisper.call("transcribe", {"path": whisper.put(speech.say("Tank level."))})
    assert "tank" in result["text"].lower()


async def _refusal(spec: ToolSpec, tmp_path: Path) -> str:
    """Start a tool with `spec`; return why it refused its config."""
    runtime = Path(f"/tmp/hw{os.getpid()}-{time.monotonic_ns()}")
    tool, task = await _start(spec, runtime)
    try:
        await until(lambda: "failed to configure" in tool.last_error, 30,
                    "the tool to refuse its config")
        assert tool.state != "running"
        return tool.last_error
    finally:
        await _stop(task)
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.mark.timeout(90)
async def test_a_model_that_fails_its_checks_is_refused_with_the_reason(whisper_model: Path,
                                                                        tmp_path: Path) -> None:
    spool = tmp_path
    wrong_pin = _spec(whisper_model, spool, sha256="0" * 64)
    assert f"has sha256 {VARIANTS['tiny.en'].sha256}, expected {'0' * 64}" in \
        await _refusal(wrong_pin, tmp_path)
    cut = tmp_path / "cut.bin"
    with whisper_model.open("rb") as f:
        cut.write_bytes(f.read(10_000_000))
    assert "truncated inside the data of tensor" in await _refusal(_spec(cut, spool), tmp_path)
    gguf = tmp_path / "llm.bin"
    gguf.write_bytes(b"GGUF" + bytes(200))
    assert "llama.cpp's format, not whisper.cpp's" in await _refusal(_spec(gguf, spool),
                                                                     tmp_path)
    assert "does not exist" in await _refusal(_spec(tmp_path / "none.bin", spool), tmp_path)
    missing = _spec(None, spool, missing="the default whisper model ggml-tiny.en.bin is not "
                                         "prepared; run scripts/models")
    assert "run scripts/models" in await _refusal(missing, tmp_path)

