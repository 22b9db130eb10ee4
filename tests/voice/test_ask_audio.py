"""`hermesctl ask --audio FILE.wav`: one recording through the same path as typed text."""

from __future__ import annotations

import asyncio
import base64
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermesd.config import load_config
from hermesd.context import RequestContext
from hermesd.voice.control import ask_audio
from tests.support.daemon import DaemonRunner, RunningDaemon
from tests.voice.plant import plant_config
from tests.voice.speech import Speech


def _daemon(runner: DaemonRunner, **voice: object) -> RunningDaemon:
    d = runner.start(plant_config({"enabled": True, "input": "none", **voice}))
    d.running_tool_pid("whisper")
    return d


@pytest.mark.timeout(90)
def test_ask_audio_answers_with_the_transcript_and_its_timings(daemon_runner: DaemonRunner,
                                                               speech: Speech,
                                                               whisper_model: Path) -> None:
    d = _daemon(daemon_runner)
    wav = speech.say("Hermes, what is the temperature of boiler 3.")
    assert wav.stat().st_size > 64 * 1024  # more than an ordinary request may be
    code, answer = d.ctl_json("ask", "--audio", str(wav))
    assert code == 0, answer
    assert answer["status"] == "ok" and answer["route"] == "rule"
    assert answer["action"] == {"name": "read", "args": {"point": "boiler3_temp"}}
    assert answer["reply"] == "Boiler 3 temperature is 523.4 °C."
    assert answer["transcript"].lower().startswith("hermes, what is the temperature")
    assert answer["transcription"]["language"] == "en"
    assert answer["transcription"]["decode_ms"] > 0
    assert answer["audio_s"] == pytest.approx(2.9, abs=0.6)
    timings = answer["timings_ms"]
    assert timings["transcribe"] > 0 and timings["total"] >= timings["transcribe"]

    # without --json: the reply on stdout, what was heard on stderr
    done = d.ctl("ask", "--audio", str(wav))
    assert done.returncode == 0
    assert done.stdout.strip() == "Boiler 3 temperature is 523.4 °C."
    assert done.stderr.lower().startswith("heard: 'hermes, what is the temperature")


@pytest.mark.timeout(90)
def test_the_callers_role_and_dry_run_apply_to_spoken_commands(daemon_runner: DaemonRunner,
                                                               speech: Speech,
                                                               whisper_model: Path) -> None:
    d = _daemon(daemon_runner)
    wav = speech.say("Set feed pump 1 to 1000 rpm.")
    code, answer = d.ctl_json("ask", "--audio", str(wav))  # the default role: viewer
    assert code == 77 and answer["status"] == "forbidden"
    assert answer["action"]["args"]["refused"]["args"] == {"point": "pump1_speed", "value": 1000}
    code, answer = d.ctl_json("--role", "operator", "--dry-run", "ask", "--audio", str(wav))
    assert code == 10 and answer["status"] == "dry_run"
    assert answer["action"] == {"name": "write", "args": {"point": "pump1_speed", "value": 1000}}
    assert d.ctl_json("read", "pump1_speed")[1]["result"]["value"] == 1200
    code, answer = d.ctl_json("--role", "operator", "ask", "--audio", str(wav))
    assert code == 0 and answer["result"]["value"] == 1000
    # the intent and the outcome say what was heard and what was asked (without the wake
    # phrase), so afterwards anyone can tell what words moved the pump
    records = [r for r in d.audit_records() if r["trace_id"] == answer["trace_id"]]
    assert [r["phase"] for r in records] == ["intent", "done"]
    for record in records:
        assert record["transcript"] == answer["transcript"]
        assert record["text"].lower().startswith("set feed pump 1 to 1000")


@pytest.mark.timeout(90)
def test_unusable_recordings_get_clear_errors_and_change_nothing(daemon_runner: DaemonRunner,
                                                                 speech: Speech,
                                                                 whisper_model: Path,
                                                                 tmp_path: Path) -> None:
    d = _daemon(daemon_runner)
    good = speech.say("Open steam valve 2.")
    stereo = speech.say("Open steam valve 2.", channels=2)
    eight_bit = speech.say("Open steam valve 2.", bits=8)
    as_float = tmp_path / "float.wav"
    subprocess.run(["sox", "-R", str(good), "-e", "floating-point", "-b", "32", str(as_float)],
                   check=True, timeout=30)
    truncated = tmp_path / "truncated.wav"
    truncated.write_bytes(good.read_bytes()[:-5001])
    header_only = tmp_path / "header.wav"
    header_only.write_bytes(good.read_bytes()[:30])
    garbage = tmp_path / "garbage.wav"
    garbage.write_bytes(os.urandom(4000))
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    cases = {
        speech.espeak_raw("Open steam valve 2."): "its sample rate is 22050 Hz, not 16000 Hz",
        stereo: "it has 2 channels, not 1 (mono)",
        eight_bit: "it has 8-bit samples, not 16-bit",
        as_float: "it is float audio, not integer PCM",
        truncated: "truncated WAV: its data chunk claims",
        header_only: "truncated WAV: the file ends inside its header",
        garbage: "not a WAV file",
        empty: "the WAV file is empty",
    }
    for path, message in cases.items():
        code, answer = d.ctl_json("--role", "operator", "ask", "--audio", str(path))
        assert code == 65, (path, answer)
        assert answer["status"] == "rejected" and answer["error"]["code"] == "BAD_REQUEST"
        assert message in answer["error"]["message"], (message, answer)
        assert "transcript" not in answer
    done = d.ctl("ask", "--audio", str(tmp_path / "missing.wav"))
    assert done.returncode == 64 and "cannot read" in done.stderr
    assert d.ctl_json("read", "valve2_open")[1]["result"]["value"] is False
    assert [r for r in d.audit_records()
            if (r["action"] or {}).get("name") == "write"
            or ((r["action"] or {}).get("args") or {}).get("refused")] == []


@pytest.mark.timeout(90)
def test_a_recording_longer_than_max_utterance_is_refused_politely(daemon_runner: DaemonRunner,
                                                                   speech: Speech,
                                                                   whisper_model: Path) -> None:
    d = _daemon(daemon_runner, max_utterance="4s")
    wav = speech.say("Hermes, open steam valve 2, and then tell me about the boiler house and "
                     "the feed pumps and the conveyor and the yard and the weather outside")
    code, answer = d.ctl_json("--role", "operator", "ask", "--audio", str(wav))
    assert code == 65
    assert answer["status"] == "rejected"
    assert answer["action"] == {"name": "respond", "args": {"reason": "not_understood", "too_long": True}}
    assert answer["reply"].startswith("Sorry, that was too long for me.")
    assert answer["audio_s"] > 4
    assert d.ctl_json("read", "valve2_open")[1]["result"]["value"] is False


@pytest.mark.timeout(60)
def test_without_voice_ask_audio_says_how_to_turn_it_on(daemon_runner: DaemonRunner,
                                                        speech: Speech) -> None:
    d = daemon_runner.start(plant_config())
    code, answer = d.ctl_json("ask", "--audio", str(speech.say("Open steam valve 2.")))
    assert code == 1
    assert answer["error"]["code"] == "TOOL_UNAVAILABLE"
    assert "set voice.enabled: true" in answer["error"]["message"]
    code, answer = d.ctl_json("listen", "--window", "1")
    assert code == 1 and "voice is not enabled" in answer["reply"]


@pytest.mark.timeout(60)
def test_only_audio_asks_may_exceed_the_request_size_limit(daemon_runner: DaemonRunner,
                                                           speech: Speech) -> None:
    d = daemon_runner.start(plant_config({"enabled": True, "input": "none"}))
    big = "x" * (70 * 1024)
    for request in ({"op": "ask", "text": big},
                    {"op": "ask", "role": "viewer", "audio_wav": big}):  # not the audio prefix
        answer = d.request(request)
        assert answer["error"]["code"] == "BAD_REQUEST"
        assert "exceeds 65536" in answer["error"]["message"]
    wav = base64.b64encode(speech.say("What is the tank level.").read_bytes()).decode()
    answer = d.request({"op": "ask", "audio_wav": wav + "!"}, timeout=60)  # big and admitted
    assert answer["status"] == "rejected" and "not valid base64" in answer["reply"]


@pytest.mark.timeout(60)
def test_paths_are_read_only_for_trusted_callers(tmp_path: Path, speech: Speech) -> None:
    config = load_config(DaemonRunner(tmp_path).write_config(plant_config()))
    stranger = RequestContext.make("control", "viewer", peer_uid=os.getuid() + 4242)
    answer = asyncio.run(ask_audio(None, config, stranger,  # type: ignore[arg-type]
                                   str(speech.say("Open steam valve 2.")), encoded=False))
    assert answer.status == "forbidden"
    assert "send the recording itself" in answer.reply
    fifo = tmp_path / "fifo.wav"
    os.mkfifo(fifo)
    me = RequestContext.make("control", "viewer", peer_uid=os.getuid())
    answer = asyncio.run(ask_audio(None, config, me, str(fifo), encoded=False))  # type: ignore[arg-type]
    assert answer.status == "rejected" and "not a regular file" in answer.reply


WAV_HEADER = b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00"
SECRET = b"root:$6$s3cr3t-hash:19000:0:99999:7:::"


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(
    st.binary(max_size=200).map(lambda b: SECRET + b),
    st.binary(max_size=200).map(lambda b: b + SECRET),
    st.binary(min_size=1, max_size=400).filter(lambda b: not b.startswith(b"RIFF")),
    st.binary(max_size=64).map(lambda b: WAV_HEADER + b + SECRET)))
def test_a_named_file_is_never_echoed(tmp_path: Path, content: bytes) -> None:
    """`{"op": "ask", "audio": "/etc/shadow"}` (root and the daemon's user only) answered with
    the file's first bytes: whatever a named file holds, the refusal is the same words."""
    config = load_config(DaemonRunner(tmp_path).write_config(plant_config()))
    me = RequestContext.make("control", "viewer", peer_uid=os.getuid())
    path = tmp_path / "file"
    path.write_bytes(content)
    answer = asyncio.run(ask_audio(None, config, me, str(path), encoded=False))  # type: ignore[arg-type]
    assert (answer.status, answer.error) == ("rejected", {
        "code": "BAD_REQUEST",
        "message": f"ask: {path} is not a usable recording (a 16 kHz mono 16-bit PCM WAV "
                   "file); its content is not shown: send it with `hermesctl ask --audio "
                   "FILE`, which says what is wrong"})
