"""The listening loop on real audio: what must not trigger, what must be refused, what must recover.

Inputs are WAV files and FIFOs replayed by the daemon, or a stand-in `arecord` (the only mock:
a physical microphone); the speech is espeak-ng's, the model the real tiny.en.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner
from tests.voice.plant import plant_config
from tests.voice.speech import Speech
from tests.voice.support import (
    feed_fifo,
    voice_audit,
    voice_status,
    wait_outcomes,
    wait_state,
)

FAKE_ARECORD = Path(__file__).with_name("fake_arecord.py")


def _voice(**extra: object) -> dict[str, object]:
    return {"enabled": True, "role": "operator", **extra}


@pytest.mark.timeout(120)
def test_silence_and_noise_trigger_nothing_but_speech_in_noise_does(
        daemon_runner: DaemonRunner, speech: Speech, whisper_model: Path, tmp_path: Path) -> None:
    quiet = speech.silence(1.0)
    noisy = speech.join([speech.silence(3.0), quiet, speech.noise("whitenoise", 3.0), quiet,
                         speech.noise("pinknoise", 3.0), quiet, speech.noise("brownnoise", 3.0),
                         quiet, speech.noise("hum", 3.0), quiet], "noise.wav")
    command = speech.join([quiet, speech.say("Hermes, what is the feed water tank level."),
                           quiet], "command.wav")
    in_noise = speech.mix(command, speech.noise("pinknoise", 4.0, volume=0.03), "in-noise.wav")
    recording = speech.join([noisy, in_noise, quiet], "noise-then-command.wav")
    spoken = tmp_path / "spoken"
    d = daemon_runner.start(plant_config(_voice(input=str(recording), speak=True,
                                                output=f"{spoken}/")))

    v = wait_state(d, "input ended", timeout=90)
    heard = v["recent"]
    # 15 s of silence, hiss, pink and brown noise and mains hum: not one utterance
    assert v["counts"]["utterances"] == 1, heard
    assert [h["outcome"] for h in heard] == ["answered"]
    assert heard[0]["stream_s"][0] > 20.0  # the command, not the noise before it
    assert heard[0]["action"] == {"name": "read", "args": {"point": "tank_level"}}
    assert len(list(spoken.glob("*.wav"))) == 1
    assert len(voice_audit(d)) == 1


@pytest.mark.timeout(120)
def test_speech_without_the_wake_phrase_does_nothing(daemon_runner: DaemonRunner,
                                                     speech: Speech, whisper_model: Path,
                                                     tmp_path: Path) -> None:
    gap = speech.silence(1.2)
    recording = speech.join([gap, speech.say("Open steam valve 2."), gap,
                             speech.say("Set feed pump 1 to 1000 rpm."), gap,
                             speech.say("I told the others the boiler is fine."), gap],
                            "no-wake.wav")
    spoken = tmp_path / "spoken"
    d = daemon_runner.start(plant_config(_voice(input=str(recording), speak=True,
                                                output=f"{spoken}/")))
    v = wait_state(d, "input ended", timeout=90)
    heard = v["recent"]
    assert [h["outcome"] for h in heard] == ["ignored"] * 3, heard
    assert "valve" in heard[0]["transcript"].lower()  # it was heard, and left alone
    assert all("action" not in h for h in heard)
    assert d.ctl_json("read", "valve2_open")[1]["result"]["value"] is False
    assert d.ctl_json("read", "pump1_speed")[1]["result"]["value"] == 1200
    assert voice_audit(d) == []
    assert not spoken.exists() or not list(spoken.iterdir())


@pytest.mark.timeout(150)
def test_a_sixty_second_ramble_is_cut_and_refused_politely(daemon_runner: DaemonRunner,
                                                           speech: Speech, whisper_model: Path,
                                                           tmp_path: Path) -> None:
    words = ("let me tell you all about the old boiler house and the feed pumps and the long "
             "conveyor on line A and the yard with its warning beacon and the weather ")
    ramble = speech.say("Hermes, " + words * 6)
    assert 50 < _seconds(ramble) < 80
    gap = speech.silence(1.5)
    recording = speech.join([gap, ramble, gap, speech.say("Hermes, open steam valve 2."), gap],
                            "ramble.wav")
    spoken = tmp_path / "spoken"
    d = daemon_runner.start(plant_config(_voice(input=str(recording), speak=True,
                                                output=f"{spoken}/")))
    v = wait_state(d, "input ended", timeout=120)
    heard = v["recent"]
    assert [h["outcome"] for h in heard] == ["too_long", "answered"], heard
    refusal = heard[0]
    assert refusal["audio_s"] == pytest.approx(15.0, abs=0.1)  # cut at voice.max_utterance
    assert refusal["status"] == "rejected"
    assert refusal["action"] == {"name": "respond", "args": {"reason": "not_understood", "too_long": True}}
    assert refusal["reply"].startswith("Sorry, that was too long for me.")
    assert refusal["transcript"].lower().startswith("hermes")
    # the rest of the ramble was skipped, and the next command was heard as usual
    assert heard[1]["action"] == {"name": "write", "args": {"point": "valve2_open", "value": True}}
    assert len(list(spoken.glob("*.wav"))) == 2
    assert [r["status"] for r in voice_audit(d) if r["phase"] == "done"] == ["rejected", "ok"]


@pytest.mark.timeout(150)
def test_whisper_killed_mid_transcription_is_restarted_and_the_utterance_reported_failed(
        daemon_runner: DaemonRunner, speech: Speech, whisper_model: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "mic.fifo"
    os.mkfifo(fifo)
    d = daemon_runner.start(plant_config(_voice(input=str(fifo), max_utterance="30s")))
    gap = speech.silence(1.0)
    long_command = speech.join([gap, speech.say(
        "Hermes, please tell me, if you would be so kind, after thinking about it for a while, "
        "what the temperature of boiler 3 is right now, and do not hurry"), gap], "long.wav")
    first_pid = d.running_tool_pid("whisper")
    feed_fifo(fifo, long_command)
    wait_state(d, "transcribing")
    os.kill(first_pid, signal.SIGKILL)

    heard = wait_outcomes(d, 1)
    assert heard[0]["outcome"] == "failed"
    assert heard[0]["error"]["code"] == "TOOL_UNAVAILABLE"
    assert "killed by SIGKILL" in heard[0]["error"]["message"] or \
        "closed" in heard[0]["error"]["message"]
    assert "action" in heard[0] and heard[0]["action"] is None  # nothing was done
    second_pid = d.running_tool_pid("whisper", not_pid=first_pid)
    assert second_pid != first_pid
    assert d.status()["tools"]["whisper"]["restarts"] >= 1

    feed_fifo(fifo, speech.join([gap, speech.say("Hermes, what is the boiler 3 pressure."), gap],
                                "after.wav"))
    heard = wait_outcomes(d, 2)
    assert heard[1]["outcome"] == "answered"
    assert heard[1]["action"] == {"name": "read", "args": {"point": "boiler3_pressure"}}


@pytest.mark.timeout(120)
def test_push_to_talk_over_hermesctl_skips_the_wake_phrase(daemon_runner: DaemonRunner,
                                                           speech: Speech, whisper_model: Path,
                                                           tmp_path: Path) -> None:
    fifo = tmp_path / "mic.fifo"
    os.mkfifo(fifo)
    d = daemon_runner.start(plant_config(_voice(input=str(fifo))))
    d.running_tool_pid("whisper")
    gap = speech.silence(1.0)
    listen = subprocess.Popen(
        [sys.executable, "-m", "hermesd.ctl", "--socket", str(d.socket), "--json", "listen",
         "--window", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        d.wait_until(lambda: voice_status(d)["push_to_talk_armed"] == 1, what="armed")
        feed_fifo(fifo, speech.join([gap, speech.say("What is the feed water tank level."), gap],
                                    "ptt.wav"))
        out, err = listen.communicate(timeout=60)
    finally:
        if listen.poll() is None:
            listen.kill()
            listen.wait()
    assert listen.returncode == 0, err
    answer = json.loads(out)
    assert answer["status"] == "ok"
    assert answer["action"] == {"name": "read", "args": {"point": "tank_level"}}
    assert "tank" in answer["transcript"].lower()
    assert answer["reply"] == "Feed water tank level is 71.3 %."
    assert answer["timings_ms"]["transcribe"] > 0
    assert voice_audit(d)[-1]["who"].startswith("voice (push-to-talk: uid")

    # nobody speaks: listen says so, and exits non-zero
    code, quiet = d.ctl_json("listen", "--window", "1")
    assert code == 1
    assert quiet["error"]["code"] == "TIMEOUT"
    assert "nothing was heard within 1 s" in quiet["reply"]


@pytest.mark.timeout(120)
def test_the_wake_phrase_alone_opens_a_window_for_the_command(daemon_runner: DaemonRunner,
                                                             speech: Speech, whisper_model: Path,
                                                             tmp_path: Path) -> None:
    gap = speech.silence(1.2)
    recording = speech.join([gap, speech.say("Hermes."), gap,
                             speech.say("What is the outdoor temperature."), gap], "wake.wav")
    spoken = tmp_path / "spoken"
    d = daemon_runner.start(plant_config(_voice(input=str(recording), speak=True,
                                                output=f"{spoken}/")))
    v = wait_state(d, "input ended", timeout=90)
    heard = v["recent"]
    assert [h["outcome"] for h in heard] == ["wake_only", "answered"], heard
    assert heard[1]["without_wake_phrase"] is True
    assert heard[1]["action"] == {"name": "read", "args": {"point": "outdoor_temp"}}
    assert len(list(spoken.glob("*.wav"))) == 2  # "Yes?", then the answer


@pytest.mark.timeout(120)
def test_microphone_through_arecord_is_supervised_and_restarted(daemon_runner: DaemonRunner,
                                                                speech: Speech,
                                                                whisper_model: Path,
                                                                tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    arecord = bin_dir / "arecord"
    arecord.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE_ARECORD} \"$@\"\n")
    arecord.chmod(arecord.stat().st_mode | stat.S_IEXEC)
    gap = speech.silence(1.2)
    first = speech.join([gap, speech.say("Hermes, what is the boiler 3 temperature."), gap],
                        "mic1.wav")
    second = speech.join([gap, speech.say("Hermes, is the boiler house alarm on."), gap],
                         "mic2.wav")
    log = tmp_path / "arecord.log"
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_MIC_DEVICE": "plughw:CARD=Usb,DEV=0",
           "FAKE_MIC_LOG": str(log), "FAKE_MIC_PLAN": json.dumps(
               [{"wav": str(first), "then": "exit"}, {"wav": str(second), "then": "wait"}])}
    d = daemon_runner.start(plant_config(_voice(input="plughw:CARD=Usb,DEV=0")), env=env)

    heard = wait_outcomes(d, 2)
    assert [h["action"]["args"]["point"] for h in heard] == ["boiler3_temp", "alarm_active"]
    starts = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(starts) == 2  # unplugged once, started again
    assert starts[0]["argv"] == ["-D", "plughw:CARD=Usb,DEV=0", "-f", "S16_LE", "-r", "16000",
                                 "-c", "1", "-t", "raw", "-q"]
    v = voice_status(d)
    assert v["counts"]["input_errors"] == 1
    assert v["input_error"] is None and v["state"] == "listening"
    assert "arecord -D plughw:CARD=Usb,DEV=0 stopped (exit code 1): arecord: pcm_read:2221: " \
           "read error: No such device" in d.log
    assert d.terminate() == 0
    for start in starts:  # no recorder outlives the daemon
        assert not Path(f"/proc/{start['pid']}").exists()


@pytest.mark.timeout(60)
def test_a_bad_input_is_reported_in_status_and_the_daemon_keeps_working(
        daemon_runner: DaemonRunner, speech: Speech, whisper_model: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "mic.fifo"
    os.mkfifo(fifo)
    d = daemon_runner.start(plant_config(_voice(input=str(fifo))))
    feed_fifo(fifo, speech.espeak_raw("Hermes, open steam valve 2."), refused=True)  # 22050 Hz
    v = d.wait_until(lambda: (s := voice_status(d))["input_error"] and s, what="input error")
    assert "its sample rate is 22050 Hz, not 16000 Hz" in v["input_error"]
    assert d.ctl_json("read", "tank_level")[0] == 0  # the rest of the daemon is unaffected
    # a good stream afterwards is heard
    feed_fifo(fifo, speech.join([speech.silence(1.0), speech.say("Hermes, open steam valve 2."),
                                 speech.silence(1.0)], "good.wav"))
    heard = wait_outcomes(d, 1)
    assert heard[0]["action"] == {"name": "write", "args": {"point": "valve2_open", "value": True}}
    assert voice_status(d)["input_error"] is None


def _seconds(path: Path) -> float:
    done = subprocess.run(["soxi", "-D", str(path)], capture_output=True, text=True, check=True,
                          timeout=10)
    return float(done.stdout)
