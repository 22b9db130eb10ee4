"""The model tests use the prepared model (scripts/models) and synthesised speech."""

from tests.voice.conftest import speech, whisper_model

__all__ = ["speech", "whisper_model"]
