"""The whisper tool tests share the voice tests' speech and model fixtures."""

from tests.voice.conftest import speech, whisper_model

__all__ = ["speech", "whisper_model"]
