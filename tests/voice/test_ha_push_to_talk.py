"""The Home Assistant push-to-talk button, end to end: a press over a real broker, then speech
without the wake phrase becomes a command; a press from elsewhere than the mqtt tool does not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner
from tests.support.mosquitto import Mosquitto, MqttClient
from tests.voice.plant import plant_config
from tests.voice.speech import Speech
from tests.voice.support import feed_fifo, voice_audit, voice_status


@pytest.mark.timeout(150)
def test_a_button_press_skips_the_wake_phrase(daemon_runner: DaemonRunner, speech: Speech,
                                              whisper_model: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "mic.fifo"
    os.mkfifo(fifo)
    with Mosquitto(tmp_path / "broker") as broker:
        config = plant_config({"enabled": True, "role": "viewer", "input": str(fifo)})
        config["mqtt"] = {"host": "127.0.0.1", "port": broker.port, "base_topic": "hermesd",
                          "command_role": "viewer"}
        node = config["node"]["id"]
        d = daemon_runner.start(config)
        d.running_tool_pid("whisper")
        d.running_tool_pid("mqtt")
        with MqttClient(broker.port, client_id="ha", subscribe=("homeassistant/#",)) as ha:
            button = ha.wait_for(lambda ms: [m for m in ms if m.topic.endswith("/hermesd_talk/config")],
                                 what="the push-to-talk button's discovery config")[0]
            talk_topic = json.loads(button.payload)["command_topic"]
            assert talk_topic == f"hermesd/{node}/talk"
            ha.publish(talk_topic, "PRESS")
        d.wait_until(lambda: voice_status(d)["push_to_talk_armed"] == 1, what="armed by HA")
        gap = speech.silence(1.0)
        feed_fifo(fifo, speech.join([gap, speech.say("What is the feed water tank level."), gap],
                                    "ha-ptt.wav"))
        d.wait_until(lambda: voice_status(d)["counts"].get("commands", 0) >= 1 or
                     any(r["phase"] == "done" for r in voice_audit(d)),
                     timeout=90, what="the command to run")
        done = [r for r in voice_audit(d) if r["phase"] == "done"]
        assert done[-1]["action"] == {"name": "read", "args": {"point": "tank_level"}}
        assert done[-1]["who"].startswith("voice (push-to-talk: mqtt")
        assert done[-1]["role"] == "viewer"
        assert d.terminate() == 0


@pytest.mark.timeout(90)
def test_a_press_from_another_tool_is_refused(daemon_runner: DaemonRunner,
                                              whisper_model: Path) -> None:
    d = daemon_runner.start(plant_config({"enabled": True, "role": "viewer", "input": "none"}))
    d.running_tool_pid("whisper")
    code, answer = d.ctl_json("--role", "engineer", "call", "plc1.emit",
                              '{"kind": "talk", "data": {"ts": 1}}')
    assert answer["status"] == "ok"
    d.wait_until(lambda: d.status()["metrics"]["events"].get("bad_tool_events") == 1,
                 what="the event refused")
    assert voice_status(d)["push_to_talk_armed"] == 0
    assert "talk events come from the mqtt tool, not from plc1" in d.log
    assert d.terminate() == 0
