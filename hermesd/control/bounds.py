"""The numbers both ends of the control socket keep: frame sizes, timeouts, listen windows.

hermesd (control/requests.py, control/server.py) and hermesctl (ctl.py) read them from here, so
a client never refuses an answer the daemon may send, nor offers a request it would refuse.
Imports nothing: hermesctl starts fast.
"""

from __future__ import annotations

MAX_REQUEST = 64 * 1024  # bytes of one request frame
#: an `ask` that carries a recording (base64 WAV; 120 s of 16 kHz mono is 5.1 MB) may be this
#: large, and only when its frame begins `{"op": "ask", "audio_wav": "` (spaces optional;
#: hermesctl writes it so)
MAX_AUDIO_REQUEST = 8 * 1024 * 1024
#: bytes of a WAV file hermesctl sends in an `ask`: its base64 (4 characters for every 3 bytes)
#: and the rest of the frame fit MAX_AUDIO_REQUEST (6 MiB exactly did not: its base64 alone is
#: 8 MiB, and the daemon refused the frame instead of hermesctl saying the file is too large)
MAX_RECORDING = (MAX_AUDIO_REQUEST - 4096) // 4 * 3
MAX_ANSWER = 4 * 1024 * 1024  # bytes of one answer frame, its newline not counted
#: characters of a request's `id` (a string; an integer is any JSON integer): the answer echoes
#: it, and an id of megabytes in an 8 MiB audio frame made an answer too large to send
MAX_ID = 256
MAX_TIMEOUT = 120.0  # seconds a request may ask for (`timeout`)
MAX_LISTEN_WINDOW = 60.0  # seconds of `listen --window`
