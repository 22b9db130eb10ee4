"""A dozen spoken commands of the dev plant, heard through the listening loop: words -> action -> answer.

The microphone is a WAV file replayed by the daemon (the one thing we stand in for); the
speech is real (espeak-ng, resampled by sox), the model is the real tiny.en, the devices are
real tool processes serving the dev plant's points.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner
from tests.voice.plant import plant_config
from tests.voice.speech import COMMANDS, Speech
from tests.voice.support import wait_outcomes


@pytest.mark.timeout(200)
def test_a_dozen_spoken_commands_reach_the_right_points(daemon_runner: DaemonRunner,
                                                         speech: Speech, whisper_model: Path,
                                                         tmp_path: Path) -> None:
    parts = [speech.silence(1.0)]
    for text, *_ in COMMANDS:
        parts += [speech.say(f"Hermes, {text}."), speech.silence(1.2)]
    recording = speech.join(parts, "commands.wav")
    d = daemon_runner.start(plant_config({
        "enabled": True, "input": str(recording), "role": "operator",
        "speak": True, "output": str(tmp_path / "spoken") + "/"}))

    # 13 utterances of whisper on 2 busy cores: 5-13 s each when other work shares them
    heard = wait_outcomes(d, len(COMMANDS), timeout=150)
    assert [h["outcome"] for h in heard] == ["answered"] * len(COMMANDS), heard
    for (text, action, point, value), h in zip(COMMANDS, heard, strict=True):
        assert "hermes" in h["transcript"].lower(), h
        if point == "boiler3_setpoint":  # the operator role may not write it: refused, no effect
            assert h["status"] == "forbidden", h
            assert h["action"]["name"] == "respond"
            assert h["action"]["args"]["refused"]["args"]["point"] == point
            continue
        heard_as = (text, h.get("transcript"), h.get("action"))  # what whisper heard, shown
        assert h["status"] == "ok", heard_as
        assert h["action"]["name"] == action, heard_as
        assert h["action"]["args"]["point"] == point, heard_as
        if value is not None:
            assert h["action"]["args"]["value"] == value, (text, h)
        assert h["reply"], h

    replies = {h["action"]["args"].get("point"): h["reply"] for h in heard}
    assert replies["boiler3_temp"] == "Boiler 3 temperature is 523.4 °C."
    assert replies["tank_level"] == "Feed water tank level is 71.3 %."

    # the writes happened on the devices, and only those
    for point, value in (("pump1_speed", 1000), ("valve2_open", True),
                         ("warning_beacon", False), ("boiler3_setpoint", 520.0)):
        code, answer = d.ctl_json("read", point)
        assert code == 0 and answer["result"]["value"] == value, (point, answer)

    # every command is in the audit log with source voice and the voice role
    voiced = [r for r in d.audit_records() if r["source"] == "voice" and r["phase"] == "done"]
    assert len(voiced) == len(COMMANDS)
    assert {r["role"] for r in voiced} == {"operator"}

    # each answer was said out loud (written as a WAV file here)
    spoken = sorted((tmp_path / "spoken").glob("answer-*.wav"))
    assert len(spoken) == len(COMMANDS)
    assert all(p.read_bytes()[:4] == b"RIFF" and p.stat().st_size > 20000 for p in spoken)
    assert d.terminate() == 0


@pytest.mark.timeout(120)
def test_a_reload_changes_the_input_and_status_shows_what_was_heard(
        daemon_runner: DaemonRunner, speech: Speech, whisper_model: Path) -> None:
    config = plant_config({"enabled": True, "input": "none"})
    d = daemon_runner.start(config)
    assert d.status()["voice"]["state"] == "no input (ask --audio only)"
    gap = speech.silence(1.0)
    recording = speech.join([gap, speech.say("Hermes, what is the boiler 3 pressure."), gap],
                            "reload.wav")
    config["voice"] = {"enabled": True, "input": str(recording)}
    daemon_runner.write_config(config)
    d.proc.send_signal(signal.SIGHUP)
    heard = wait_outcomes(d, 1)
    assert heard[0]["action"] == {"name": "read", "args": {"point": "boiler3_pressure"}}
    shown = d.ctl("status")
    assert shown.returncode == 0
    assert f"voice: input ended, WAV file {recording}, wake phrase 'hermes', role viewer" \
        in shown.stdout
    assert "answered  'hermes, what is the boiler 3 pressure" in shown.stdout.lower()
    assert "-> Boiler 3 pressure is 12.5 bar." in shown.stdout
