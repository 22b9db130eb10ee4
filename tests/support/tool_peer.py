"""A stranger at a tool's socket: connects as often as it can and tries to drive the tool.

`python tool_peer.py SOCKET FRAMES_FILE REPORT_FILE STOP_FILE`: until STOP_FILE exists, it
connects to SOCKET, sends the frames of FRAMES_FILE (a configure and a write, as the daemon would
send them), and reads what comes back. When stopped it writes REPORT_FILE (JSON): how many times
it tried, connected, and was answered at all, and the first bytes it ever got. Only the standard
library: it stands for any local program of the same user, not for hermesd.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path


def main() -> None:
    path, frames_file, report_file, stop_file = sys.argv[1:5]
    frames = Path(frames_file).read_bytes()
    attempts = connected = answered = 0
    first_answer = ""
    while not Path(stop_file).exists():
        attempts += 1
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            try:
                sock.connect(path)
            except OSError:  # not there (a restart), or refused
                time.sleep(0.001)
                continue
            connected += 1
            try:
                sock.sendall(frames)
                data = sock.recv(65536)
            except OSError:
                data = b""
            if data:
                answered += 1
                first_answer = first_answer or data[:200].decode("utf-8", "replace")
    Path(report_file).write_text(json.dumps({"attempts": attempts, "connected": connected,
                                             "answered": answered,
                                             "first_answer": first_answer}))


if __name__ == "__main__":
    main()
