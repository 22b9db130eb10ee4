"""Spoken answers: espeak-ng for real, the voice following the language of the reply."""

from __future__ import annotations

import asyncio
import wave
from pathlib import Path

import pytest

from hermesd.voice.speaker import Speaker, SpeakError, speakable


def test_units_are_read_as_words_and_chinese_gets_a_mandarin_voice() -> None:
    assert speakable("Boiler 3 temperature is 523.4 °C.") == \
        ("en-us", "Boiler 3 temperature is 523.4 degrees Celsius.")
    assert speakable("Line A conveyor speed is 24 m/min.")[1] == \
        "Line A conveyor speed is 24 metres per minute."
    assert speakable("Feed water tank level is 71.3 %.")[1] == \
        "Feed water tank level is 71.3 percent."
    voice, words = speakable("3号锅炉温度：523.4 °C。")
    assert voice == "cmn" and words == "3号锅炉温度：523.4 摄氏度。"
    assert speakable("Steam valve 2 is on.")[1] == "Steam valve 2 is on."  # no unit: unchanged


@pytest.mark.timeout(30)
def test_answers_are_rendered_to_files_in_english_and_chinese(tmp_path: Path) -> None:
    speaker = Speaker(f"{tmp_path}/answers/", tmp_path)
    english = asyncio.run(speaker.say("Boiler 3 temperature is 523.4 °C."))
    chinese = asyncio.run(speaker.say("3号锅炉温度：523.4 °C。"))
    assert english == tmp_path / "answers" / "answer-0001.wav"
    assert chinese == tmp_path / "answers" / "answer-0002.wav"
    for path in (english, chinese):
        assert path is not None
        with wave.open(str(path)) as w:
            assert w.getframerate() == 22050 and w.getnchannels() == 1
            assert w.getnframes() / 22050 > 1.0
    assert speaker.spoken == 2
    # a reply that starts like an option is text, not an option: it goes in on stdin
    assert asyncio.run(speaker.say("--version")) is not None


@pytest.mark.timeout(30)
def test_alsa_output_is_played_with_aplay_and_errors_are_reported(tmp_path: Path) -> None:
    asyncio.run(Speaker("null", tmp_path).say("Tank level is 71 percent."))  # ALSA's null sink
    with pytest.raises(SpeakError, match="aplay failed with code 1"):
        asyncio.run(Speaker("no_such_device_here", tmp_path).say("Hello."))


async def test_an_answer_file_replaced_by_a_link_is_not_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    out = tmp_path / "answer.wav"
    out.symlink_to(victim)
    speaker = Speaker(str(out), tmp_path)
    with pytest.raises(SpeakError, match="symbolic link"):
        await speaker.say("Boiler 3 temperature is 523 degrees.")
    assert victim.read_text() == "keep me" and out.is_symlink()
