"""The wake phrase on transcripts as a small model writes them."""

from __future__ import annotations

import pytest

from hermesd.voice.wake import match_wake


@pytest.mark.parametrize(("text", "command"), [
    ("Hermes, what is the temperature on boiler 3?", "what is the temperature on boiler 3"),
    ("Hermes. Open steam valve 2.", "Open steam valve 2"),
    ("hey Hermes what is the tank level", "what is the tank level"),
    ("OK so, Hermès: open valve 2!", "open valve 2"),
    ("Hermies, set pump 1 to 1000 rpm", "set pump 1 to 1000 rpm"),
    ("What is the tank level, Hermes?", "What is the tank level"),
    ("Hermes.", ""),
    ("Hermes", ""),
])
def test_addressed(text: str, command: str) -> None:
    woke = match_wake(text, "hermes")
    assert woke is not None and woke.command == command


@pytest.mark.parametrize("text", [
    "What is the tank level?", "Thank you.", "", "The hermetic seal is fine.",
    "I told Hermes that the boiler is hot today", "Open steam valve 2.",
])
def test_not_addressed(text: str) -> None:
    assert match_wake(text, "hermes") is None


def test_phrases_of_several_words_and_in_chinese() -> None:
    woke = match_wake("Hey computer, open the valve", "hey computer")
    assert woke is not None and woke.command == "open the valve"
    assert match_wake("computer open the valve", "hey computer") is None
    woke = match_wake("赫尔墨斯，3号锅炉的温度是多少？", "赫尔墨斯")
    assert woke is not None and woke.command == "3号锅炉的温度是多少"
    assert match_wake("3号锅炉的温度是多少", "赫尔墨斯") is None
