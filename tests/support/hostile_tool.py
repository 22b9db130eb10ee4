"""A tool process that misbehaves on purpose, at one step of its start, as its plan says.

`python hostile_tool.py PLAN --socket PATH`: PLAN is a JSON file. Each start of the program takes
the next entry of `plan["starts"]` (a counter file beside the plan remembers how many starts there
were); once they are used up it becomes the well-behaved fake tool (`fake_tool.py`, by exec: same
pid). An entry is a list of steps, done in order:

  ["stdout", HEX]        write these bytes to stdout (where hermesd waits for READY)
  ["ready"]              listen on the socket (mode 0600) and say READY
  ["ready_in_child"]     a child of ours listens and says hello in our name; we say READY
  ["accept"]             take the daemon's connection
  ["send", HEX]          send these bytes on the connection
  ["hello", ACTIONS, PID_DELTA, EXTRA]
                         send a hello with our pid + PID_DELTA, these actions and extra fields
  ["hello_ok"]           send a valid hello
  ["read_line"]          wait for one line from the daemon (its configure)
  ["close"] | ["reset"]  close the connection (reset: with RST, SO_LINGER 0)
  ["exit", CODE] | ["kill", SIGNAL] | ["hang"]

After the last step it waits to be stopped, as a tool that has lost its way would.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
import time
from pathlib import Path
from typing import Any

FAKE_TOOL = Path(__file__).with_name("fake_tool.py")
GOOD_ACTION = {"name": "echo", "description": "Answer with the arguments.",
               "input_schema": {"type": "object"}, "output_schema": {"type": "object"},
               "effect": "none"}


def _next_start(plan_path: Path) -> list[Any] | None:
    plan = json.loads(plan_path.read_text())
    counter = plan_path.with_suffix(".starts")
    done = int(counter.read_text()) if counter.exists() else 0
    fresh = counter.with_suffix(".new")
    fresh.write_text(str(done + 1))
    fresh.replace(counter)  # at once: the test reads it while we run
    starts = plan["starts"]
    return list(starts[done]) if done < len(starts) else None


def _frame(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def _hello(actions: list[Any], pid_delta: int = 0, extra: dict[str, Any] | None = None) -> bytes:
    return _frame({"type": "hello", "tool": "hostile", "version": "1",
                   "pid": os.getpid() + pid_delta, "actions": actions, **(extra or {})})


def _squatter(socket_path: str) -> None:
    """In a forked child: serve the socket with a hello that names our parent, the tool."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(socket_path)
        listener.listen(1)
        listener.settimeout(20)
        os.write(1, b"READY\n")
        try:
            conn, _ = listener.accept()
            conn.sendall(_hello([GOOD_ACTION], os.getppid() - os.getpid()))
            conn.settimeout(20)
            while conn.recv(65536):
                pass
        except OSError:
            pass
    os._exit(0)


def main() -> None:
    plan_path, socket_path = Path(sys.argv[1]), sys.argv[sys.argv.index("--socket") + 1]
    steps = _next_start(plan_path)
    if steps is None:  # behave: become the fake tool, in this very process
        os.execv(sys.executable, [sys.executable, str(FAKE_TOOL), "--socket", socket_path])
    listener: socket.socket | None = None
    conn: socket.socket | None = None
    for step in steps:
        kind = step[0]
        if kind == "stdout":
            os.write(1, bytes.fromhex(step[1]))
        elif kind == "ready":
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            old = os.umask(0o177)
            listener.bind(socket_path)
            os.umask(old)
            listener.listen(8)
            os.write(1, b"READY\n")
        elif kind == "ready_in_child":
            if os.fork() == 0:
                _squatter(socket_path)
            os.close(1)
        elif kind == "accept":
            assert listener is not None
            conn, _ = listener.accept()
        elif kind == "send":
            assert conn is not None
            try:
                conn.sendall(bytes.fromhex(step[1]))
            except OSError:
                pass  # the daemon closed on us, as it should on a bad frame
        elif kind == "hello":
            assert conn is not None
            conn.sendall(_hello(step[1], step[2], step[3]))
        elif kind == "hello_ok":
            assert conn is not None
            conn.sendall(_hello([GOOD_ACTION]))
        elif kind == "read_line":
            assert conn is not None
            conn.makefile("rb").readline()
        elif kind == "close":
            assert conn is not None
            conn.close()
        elif kind == "reset":
            assert conn is not None
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()
        elif kind == "exit":
            os._exit(int(step[1]))
        elif kind == "kill":
            os.kill(os.getpid(), int(step[1]))
        elif kind == "hang":
            break
        else:
            raise SystemExit(f"unknown step {kind!r}")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
