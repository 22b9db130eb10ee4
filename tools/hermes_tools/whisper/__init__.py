"""The whisper tool process: speech to text with whisper.cpp (see `tool.WhisperTool`)."""
