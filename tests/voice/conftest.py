"""Fixtures of the voice tests: synthesised speech (once per session) and the prepared model."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermesd.core.model_files import default_whisper
from tests.voice.speech import Speech


@pytest.fixture(scope="session")
def speech(tmp_path_factory: pytest.TempPathFactory) -> Speech:
    return Speech(tmp_path_factory.mktemp("speech"))


@pytest.fixture(scope="session")
def whisper_model() -> Path:
    """The default model, prepared by scripts/models (scripts/test runs it)."""
    model = default_whisper()
    assert model is not None, "the whisper model is not prepared: run scripts/models"
    return model
