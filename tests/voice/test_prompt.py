"""The decoding prompt made from a config: the plant's names, then example commands."""

from __future__ import annotations

from pathlib import Path

from hermesd.config import load_config
from hermesd.voice.prompt import MAX_CHARS, vocabulary_prompt
from tests.support.daemon import DaemonRunner, base_config, fake_device
from tests.voice.plant import plant_config


def _load(tmp_path: Path, config: dict[str, object]):  # type: ignore[no-untyped-def]
    return load_config(DaemonRunner(tmp_path).write_config(config))


def test_names_first_then_commands_with_the_wake_phrase(tmp_path: Path) -> None:
    config = _load(tmp_path, plant_config({"enabled": True, "wake_phrase": "hermes"}))
    prompt = vocabulary_prompt(config)
    assert prompt.startswith("Boiler 1 temperature, Boiler 2 temperature, Boiler 3 temperature, ")
    assert "Steam valve 2, valve 2, steam valve two" in prompt
    assert "#3 boiler temperature" not in prompt  # written forms, not spoken ones
    assert prompt.endswith(". Hermes, read the Boiler 1 temperature. Hermes, set Feed pump 1 "
                           "speed to 750.")


def test_a_big_plant_is_cut_to_what_whisper_keeps(tmp_path: Path) -> None:
    points = {f"p{i}": {"name": f"Measuring point number {i} of the north hall"}
              for i in range(100)}
    config = _load(tmp_path, base_config({"dev": fake_device(points)},
                                         voice={"enabled": True, "wake_phrase": "computer"}))
    prompt = vocabulary_prompt(config)
    assert len(prompt) <= MAX_CHARS
    assert prompt.endswith("Computer, read the Measuring point number 0 of the north hall.")
