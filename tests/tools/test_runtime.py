"""The tool runtime's shutdown: a task that swallows its cancel does not keep a tool alive."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

STUBBORN = '''
import asyncio
from hermes_tools.runtime import Tool, main

class Stubborn(Tool):
    name = "stubborn"

    async def run(self) -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            pass  # swallowed, as asyncio.wait_for (3.11) does when a reply meets the cancel
        await asyncio.Event().wait()

main(Stubborn())
'''


def test_a_tool_whose_task_swallows_a_cancel_still_exits(tmp_path: Path) -> None:
    script = tmp_path / "stubborn.py"
    script.write_text(STUBBORN)
    sock_path = tmp_path / "s.sock"
    proc = subprocess.Popen([sys.executable, str(script), "--socket", str(sock_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)
            conn.connect(str(sock_path))
            lines = conn.makefile()
            assert json.loads(lines.readline())["type"] == "hello"
            conn.sendall(b'{"type": "configure", "id": 1, "config": {}}\n')
            assert json.loads(lines.readline())["type"] == "result"  # run() has started
            lines.close()
        # the daemon is gone: the tool must end, not wait for its stubborn task forever
        assert proc.wait(timeout=20) == 0
        assert "ignored a cancel at shutdown; cancelling again" in (proc.stderr.read()
                                                                      if proc.stderr else "")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


ODD_ANSWERS = '''
from hermes_tools.runtime import Tool, main
from hermesd.core.errors import ErrorCode, ToolError
from hermesd.core.protocol import ActionSpec

ANY = {"type": "object"}


class Odd(Tool):
    name = "odd"

    def __init__(self) -> None:
        super().__init__()
        self.action(ActionSpec("value", "a value JSON cannot carry", ANY, {}, "none"), self.value)
        self.action(ActionSpec("fail", "a refusal JSON cannot carry", ANY, {}, "none"), self.fail)

    async def value(self, args, ctx):
        return {"text": "\\udcff", "number": float("nan")}

    async def fail(self, args, ctx):
        raise ToolError(ErrorCode.DEVICE_ERROR, "the device said \\udcff")

main(Odd())
'''


def test_an_answer_json_cannot_carry_is_an_internal_error_at_once(tmp_path: Path) -> None:
    script = tmp_path / "odd.py"
    script.write_text(ODD_ANSWERS)
    sock_path = tmp_path / "s.sock"
    proc = subprocess.Popen([sys.executable, str(script), "--socket", str(sock_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)  # an answer that never comes fails here, not at a deadline
            conn.connect(str(sock_path))
            lines = conn.makefile()
            assert json.loads(lines.readline())["type"] == "hello"
            for n, action in enumerate(("value", "fail"), start=1):
                conn.sendall(json.dumps({"type": "call", "id": n, "action": action, "args": {},
                                         "context": {}, "deadline_ms": 60000}).encode() + b"\n")
                answer = json.loads(lines.readline())
                assert (answer["type"], answer["id"], answer["code"]) == ("error", n, "INTERNAL")
                assert "could not be sent" in answer["message"]
            lines.close()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


FAKE_TOOL = Path(__file__).resolve().parents[1] / "support" / "fake_tool.py"


def test_each_call_ends_at_its_own_deadline_and_the_others_are_answered(tmp_path: Path
                                                                        ) -> None:
    """The tool's one deadline timer: calls sent together, each with its own deadline, are
    each answered TIMEOUT at theirs (in their order), a call that ends in time is answered
    with its result, and a call after them all is held to its deadline too."""
    sock_path = tmp_path / "s.sock"
    proc = subprocess.Popen([sys.executable, str(FAKE_TOOL), "--socket", str(sock_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)  # an answer that never comes fails here, not at a deadline
            conn.connect(str(sock_path))
            lines = conn.makefile()
            assert json.loads(lines.readline())["type"] == "hello"

            def call(n: int, seconds: float, deadline_ms: int) -> bytes:
                return json.dumps({"type": "call", "id": n, "action": "sleep",
                                   "args": {"seconds": seconds}, "context": {},
                                   "deadline_ms": deadline_ms}).encode() + b"\n"

            conn.sendall(call(1, 30, 900) + call(2, 30, 300) + call(3, 0.05, 5000) +
                         call(4, 30, 600))
            answers = [json.loads(lines.readline()) for _ in range(4)]
            conn.sendall(call(5, 30, 200))
            answers.append(json.loads(lines.readline()))
            lines.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert [a["id"] for a in answers] == [3, 2, 4, 1, 5]
    assert answers[0] == {"type": "result", "id": 3, "value": {"slept": 0.05}}
    for answer, ms in zip(answers[1:], (300, 600, 900, 200), strict=True):
        assert answer["type"] == "error" and answer["code"] == "TIMEOUT"
        assert answer["message"] == f"sleep took longer than {ms} ms"
