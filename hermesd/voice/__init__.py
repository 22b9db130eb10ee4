"""Voice: the microphone -> whisper -> command -> spoken answer loop of the daemon.

`loop.VoiceLoop` is the daemon component (`voice.enabled`); `sources` reads ALSA (arecord),
FIFOs and WAV files; `vad` cuts utterances out of the audio; `transcribe` asks the whisper
tool; `wake` checks the wake phrase on a transcript; `ask` takes one recording through the
request path; `speaker` says answers with espeak-ng; `prompt` makes the decoding prompt from
the plant's names; `control` serves `ask --audio` and `listen` on the control socket; `wav`
parses and writes WAV. Importing this package is cheap: numpy is loaded only by the modules
that need it.
"""
