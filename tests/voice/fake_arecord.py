"""A stand-in microphone for tests: called as `arecord`, it checks its arguments like the real one
and streams prepared speech as raw 16 kHz mono PCM to stdout.

The environment says what to do: FAKE_MIC_DEVICE is the only device that exists (others fail
as arecord does); FAKE_MIC_PLAN is a JSON list, one entry per start, of {"wav": path, "then":
"exit" | "wait"} (exit: the device was unplugged after that speech; wait: keep recording silence
until stopped); FAKE_MIC_LOG gets one JSON line per start with the pid and arguments.
"""

from __future__ import annotations

import json
import os
import sys
import time
import wave


def main() -> int:
    args = sys.argv[1:]
    log = os.environ["FAKE_MIC_LOG"]
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps({"pid": os.getpid(), "argv": args}) + "\n")
    with open(log, encoding="utf-8") as f:
        starts = sum(1 for _ in f)
    want = ["-D", os.environ["FAKE_MIC_DEVICE"], "-f", "S16_LE", "-r", "16000", "-c", "1",
            "-t", "raw", "-q"]
    if len(args) >= 2 and args[0] == "-D" and args[1] != want[1]:
        print("arecord: main:831: audio open error: No such file or directory", file=sys.stderr)
        return 1
    if args != want:
        print(f"arecord: unexpected arguments {args}", file=sys.stderr)
        return 64
    plan = json.loads(os.environ["FAKE_MIC_PLAN"])
    step = plan[min(starts, len(plan)) - 1]
    out = sys.stdout.buffer
    with wave.open(step["wav"], "rb") as w:
        pcm = w.readframes(w.getnframes())
    for i in range(0, len(pcm), 3200):
        out.write(pcm[i:i + 3200])
        out.flush()
    if step["then"] == "exit":
        print("arecord: pcm_read:2221: read error: No such device", file=sys.stderr)
        return 1
    silence = bytes(3200)
    while True:  # a quiet room, in real time, until arecord is stopped
        out.write(silence)
        out.flush()
        time.sleep(0.1)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(0)
