"""The voice section of the config: new keys validated like every other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config import load_config
from hermesd.core.errors import ConfigError
from tests.support.daemon import DaemonRunner, base_config, fake_device


def _problems(tmp_path: Path, voice: dict[str, object],
              devices: dict[str, Any] | None = None) -> list[str]:
    config = base_config(devices, voice=voice)
    with pytest.raises(ConfigError) as caught:
        load_config(DaemonRunner(tmp_path).write_config(config))
    return caught.value.lines()


def test_valid_voice_settings(tmp_path: Path) -> None:
    model = tmp_path / "models" / "ggml-base.bin"
    model.parent.mkdir()
    model.write_bytes(b"x")
    config = load_config(DaemonRunner(tmp_path).write_config(base_config(voice={
        "enabled": True, "input": "./mic.fifo", "model": "models/ggml-base.bin",
        "model_sha256": "AB" * 32, "language": "zh", "max_utterance": "20s", "speak": True,
        "output": "plughw:1,0"})))
    v = config.voice
    assert (v.language, v.model_sha256, v.max_utterance) == ("zh", "AB" * 32, 20.0)


def test_invalid_voice_settings_are_all_reported(tmp_path: Path) -> None:
    lines = _problems(tmp_path, {"enabled": True, "model": "missing/ggml-x.bin",
                                 "model_sha256": "abc", "language": "english",
                                 "max_utterance": "5m", "wake_phrse": "hermes"})
    text = "\n".join(lines)
    assert "config error: voice.model: no model file" in text
    assert "config error: voice.model_sha256: 'abc' is not a sha256 (64 hex digits)" in text
    assert "config error: voice.language: 'english' is not `auto` or a language code" in text
    assert "config error: voice.max_utterance:" in text
    assert "config error: voice.wake_phrse: unknown key (did you mean 'wake_phrase'?)" in text


def test_a_pin_needs_a_model_of_your_own_and_the_tool_name_is_taken(tmp_path: Path) -> None:
    lines = _problems(tmp_path, {"enabled": True, "model_sha256": "0" * 64},
                      devices={"whisper": fake_device({"x": {"name": "X"}})})
    assert any("voice.model_sha256: the default model is pinned already" in line for line in lines)
    assert any("devices.whisper: the name whisper is taken by the voice tool" in line
               for line in lines)
