"""Voice: the microphone -> whisper -> command -> spoken answer loop of the daemon.

`loop.VoiceLoop` is the daemon component (`voice.enabled`); `vad` cuts utterances out of the
audio, `wake` checks the wake phrase on a transcript, `transcribe` asks the whisper tool,
`speaker` says answers with espeak-ng, `sources` reads ALSA (arecord), WAV files and FIFOs,
and `wav` parses and writes WAV. Importing this package is cheap: numpy is loaded only by the
modules that need it.
"""
