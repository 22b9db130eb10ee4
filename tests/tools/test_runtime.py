"""The tool runtime: its shutdown (a task that swallows its cancel does not keep a tool
alive), answers JSON cannot carry, and each call's deadline."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hermes_tools.runtime import READ_SPEC, WRITE_SPEC, Tool, _Session

from hermesd.core.eventloop import loop_factory
from hermesd.core.protocol import Call
from tests.support.until import until

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


LOOPS = {"asyncio": None, **({"uvloop": loop_factory()} if loop_factory() else {})}


def _hold_up_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # what a blocking action or a busy machine does to every call


class _Transport:
    """The daemon's end of a session's connection, as the session uses it: what it is sent."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_call_whose_deadline_passes_before_it_starts_is_answered(loop: str) -> None:
    """A loop held up for longer than a call's deadline between the call's frame and its
    first step: every call is answered and nothing is left behind. Under either loop (uvloop
    runs the timer first, asyncio the call's first step) the late call's action never runs:
    it is answered TIMEOUT, "not started", and nothing was done."""
    ran: list[str] = []

    class Reader(Tool):
        name = "reader"

        def __init__(self) -> None:
            super().__init__()
            self.action(READ_SPEC, self.read)

        async def read(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
            ran.append(args["point"])
            return {"point": args["point"], "value": 1, "ts": 0.0}

    async def main() -> tuple[list[bytes], int, int]:
        session = _Session(Reader(), os.getpid())
        transport = _Transport()
        session._transport = transport  # type: ignore[assignment]
        session._start_call(Call(1, "read", {"point": "late"}, {}, 1))
        session._start_call(Call(2, "read", {"point": "on_time"}, {}, 60000))
        _hold_up_the_loop(0.05)  # call 1's deadline passes before it starts
        await until(lambda: len(transport.sent) == 2, what="two answers")
        return transport.sent, len(session._calls), len(session._due)

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        sent, calls, due = runner.run(main())
    answers = sorted((json.loads(frame) for frame in sent), key=lambda a: a["id"])
    assert (answers[0]["type"], answers[0]["id"], answers[0]["code"]) == ("error", 1, "TIMEOUT")
    assert answers[0]["message"].startswith("read was not started: its deadline had passed")
    assert answers[0]["message"].endswith("(nothing was done)")
    assert ran == ["on_time"]
    assert answers[1] == {"type": "result", "id": 2,
                          "value": {"point": "on_time", "value": 1, "ts": 0.0}}
    assert calls == 0 and due == 0


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_deadline_the_timer_reaches_early_is_not_a_spin(loop: str) -> None:
    """uvloop rounds a timer to whole milliseconds: the session's timer may fire a fraction
    of a millisecond before a call's deadline. The call is answered TIMEOUT all the same, and
    the timer is armed again a bounded number of times (not on every turn of the loop until
    the clock gets there)."""
    class Hung(Tool):
        name = "hung"

        def __init__(self) -> None:
            super().__init__()
            self.action(READ_SPEC, self.read)

        async def read(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
            await asyncio.sleep(60)

    def _sent(sent: list[bytes], count: int) -> bool:
        return len(sent) == count

    async def main() -> tuple[list[bytes], list[int]]:
        session = _Session(Hung(), os.getpid())
        transport = _Transport()
        session._transport = transport  # type: ignore[assignment]
        watch = session._watch
        armed: list[float] = []

        def counted(loop: asyncio.AbstractEventLoop, due: float) -> None:
            armed.append(due)
            watch(loop, due)

        session._watch = counted  # type: ignore[method-assign]
        arms = []
        for n, ms in enumerate(range(7, 40, 3)):
            for k in range(3):  # from different points within a millisecond
                await asyncio.sleep(0.0003 * (k + 1))
                armed.clear()
                session._start_call(Call(n * 3 + k, "read", {"point": "p"}, {}, ms))
                answers = n * 3 + k + 1
                await until(functools.partial(_sent, transport.sent, answers), what="its answer")
                arms.append(len(armed))
        await session.shutdown()
        return transport.sent, arms

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        sent, arms = runner.run(main())
    assert all(json.loads(frame)["code"] == "TIMEOUT" for frame in sent)
    assert max(arms) <= 3, arms


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_a_call_read_after_its_absolute_deadline_is_dropped_undone(loop: str) -> None:
    """The deadline is the daemon's (`expires_at`, on the host's monotonic clock), not counted
    from when the tool reads the frame: a tool held up until after it (stopped, swapping) does
    not do the call, late, after its caller was answered TIMEOUT. A call still in time is held
    to that same absolute deadline, however long `deadline_ms` says."""
    done: list[str] = []

    class Writer(Tool):
        name = "writer"

        def __init__(self) -> None:
            super().__init__()
            self.action(WRITE_SPEC, self.write)

        async def write(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
            if args["point"] == "slow":
                await asyncio.sleep(60)
            done.append(args["point"])
            return {"point": args["point"], "value": args["value"], "ts": 0.0}

    async def main() -> tuple[list[dict[str, Any]], float, int, int]:
        session = _Session(Writer(), os.getpid())
        transport = _Transport()
        session._transport = transport  # type: ignore[assignment]
        now = time.monotonic()
        # sent with 3 s to go, read 4 s later: 1 s too late, though 3000 ms from now is ahead
        session._start_call(Call(1, "write", {"point": "late", "value": 444}, {}, 3000,
                                 now - 1.0))
        session._start_call(Call(2, "write", {"point": "slow", "value": 1}, {}, 60000,
                                 now + 0.2))
        session._start_call(Call(3, "write", {"point": "on_time", "value": 2}, {}, 60000,
                                 now + 30.0))
        await until(lambda: len(transport.sent) == 3, what="three answers")
        took = time.monotonic() - now
        return [json.loads(f) for f in transport.sent], took, len(session._calls), \
            len(session._due)

    with asyncio.Runner(loop_factory=LOOPS[loop]) as runner:
        answers, took, calls, due = runner.run(main())
    by_id = {a["id"]: a for a in answers}
    assert done == ["on_time"]
    assert (by_id[1]["type"], by_id[1]["code"]) == ("error", "TIMEOUT")
    assert by_id[1]["message"].startswith("write was not started: its deadline had passed 1")
    assert by_id[1]["message"].endswith("(nothing was done)")
    # begun, and cut at its deadline: it may have been done, never "could not do that"
    assert (by_id[2]["type"], by_id[2]["code"]) == ("error", "NOT_CONFIRMED")
    assert by_id[2]["message"].startswith("write took longer than ")
    assert by_id[2]["message"].endswith("; it may or may not have taken effect")
    assert by_id[3] == {"type": "result", "id": 3,
                        "value": {"point": "on_time", "value": 2, "ts": 0.0}}
    assert took < 30  # the slow call ended at its absolute deadline, not 60 s after its read
    assert calls == 0 and due == 0
