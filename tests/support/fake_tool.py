"""A small real tool process for tests: it speaks hermesd's protocol and serves `exec` points.

Each point's `params` shape its behaviour: `value` (initial), `delay` (seconds a read or write
takes), `error` (a documented code every read answers), `busy_times` (reads that answer BUSY
first), `answers_as` (another point: a read answers with that one's reading), `answer` (what
a read answers, whatever its shape), `write_answer` (the same of a write, which still takes its
value), `write_fails` ({"code", "retryable"}: a write taken, then answered with that error),
`write_exits` (a write taken, then the tool exits unanswering). With `--loose` the tool
declares its read and write answers as any JSON at all. The device's `poll_interval` makes it
push `values` events. Extra actions let tests drive it: `echo`, `sleep`, `crash`,
`bad_result`, `set_offline`, `print` (lines on its stdout pipe), `attempts` (the writes that
reached it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Any

from hermes_tools.runtime import READ_SPEC, WRITE_SPEC, Tool, main

from hermesd.core.errors import ErrorCode, ToolError, UnknownPoint
from hermesd.core.protocol import ActionSpec

OBJ = {"type": "object"}
LOOSE = "--loose" in sys.argv  # (taken out of the arguments the runtime reads)
if LOOSE:
    sys.argv.remove("--loose")


class FakeTool(Tool):
    name = "fake"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.points: dict[str, dict[str, Any]] = {}
        self.store: dict[str, Any] = {}
        self.busy_left: dict[str, int] = {}
        self.poll: dict[str, float] = {}
        self.offline: set[str] = set()
        if LOOSE:  # a tool that declares its read and write answers as any
            # object, so that only hermesd's own READ and WRITE schemas stand in their way
            self.action(dataclasses.replace(READ_SPEC, output_schema={}), self.read)
            self.action(dataclasses.replace(WRITE_SPEC, output_schema={}), self.write)
        else:
            self.action(READ_SPEC, self.read)
            self.action(WRITE_SPEC, self.write)
        self.action(ActionSpec("echo", "Answer with the arguments.", OBJ, OBJ, "none"),
                    self.echo)
        self.action(ActionSpec("sleep", "Sleep, then answer.",
                               {"type": "object", "properties": {"seconds": {"type": "number"},
                                                                 "marker": {"type": "string"}},
                                "required": ["seconds"]}, OBJ, "none"), self.sleep)
        self.action(ActionSpec("crash", "Exit at once with code 3.", OBJ, OBJ, "none"),
                    self.crash)
        self.action(ActionSpec("bad_result", "Answer outside the output schema.", OBJ,
                               {"type": "object", "required": ["ok"]}, "none"), self.bad_result)
        self.action(ActionSpec("set_offline", "Report a device offline or online.",
                               {"type": "object", "required": ["device", "online"]}, OBJ,
                               "none"), self.set_offline)
        self.action(ActionSpec("raw_poke", "A raw write for policy tests.", OBJ, OBJ, "write"),
                    self.echo)
        self.action(ActionSpec("grow", "Hold on to this many MiB more (a leak).",
                               {"type": "object", "required": ["mib"]}, OBJ, "none"), self.grow)
        self.hoard: list[bytearray] = []
        self.write_attempts: dict[str, int] = {}  # writes that reached us, by point
        self.action(ActionSpec("attempts", "The writes that reached the tool, by point.", OBJ,
                               OBJ, "none"), self.attempts)
        self.action(ActionSpec("emit", "Send an event of any kind (for hostile-tool tests).",
                               {"type": "object", "required": ["kind", "data"]}, OBJ, "none"),
                    self.emit_event)
        # the pipe hermesd read READY from, kept past the runtime's redirect of stdout: an exec
        # tool not written on the runtime may go on printing there
        self.stdout = os.dup(1)
        self.action(ActionSpec("print", "Print this many bytes of lines on the stdout pipe.",
                               {"type": "object", "required": ["bytes"]}, OBJ, "none"),
                    self.print_lines)

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        self.points.clear()
        self.poll.clear()
        for dev_id, dev in config["devices"].items():
            if dev.get("poll_interval"):
                self.poll[dev_id] = dev["poll_interval"]
            for pid, point in dev["points"].items():
                if point.get("hold_configure"):
                    # a tool slow to take its settings, answering pings meanwhile: done when
                    # the test creates this file (in another process: no event to await)
                    while not os.path.exists(point["hold_configure"]):  # noqa: ASYNC110
                        await asyncio.sleep(0.02)
                self.points[pid] = {**point, "device": dev_id}
                self.store.setdefault(pid, point.get("value", 0))
                self.busy_left.setdefault(pid, int(point.get("busy_times", 0)))
        return {"points": len(self.points), "pid": os.getpid()}

    async def run(self) -> None:
        if not self.poll:
            await asyncio.Event().wait()
        interval = min(self.poll.values())
        while True:
            now = time.time()
            self.values([{"point": pid, "value": self.store[pid], "ts": now}
                               for pid, p in self.points.items()
                               if p["device"] in self.poll and p["device"] not in self.offline])
            await asyncio.sleep(interval)

    def _point(self, pid: str) -> dict[str, Any]:
        point = self.points.get(pid)
        if point is None:
            raise UnknownPoint(pid, f"fake tool has no point {pid!r}")
        return point

    async def read(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        point = self._point(args["point"])
        if point.get("delay"):  # no yield to the loop when there is nothing to wait for
            await asyncio.sleep(float(point["delay"]))
        if point["device"] in self.offline:
            raise ToolError(ErrorCode.DEVICE_OFFLINE, f"{point['device']} is offline")
        if point.get("error"):
            raise ToolError(ErrorCode(point["error"]), f"configured to fail: {point['error']}")
        if self.busy_left.get(args["point"], 0) > 0:
            self.busy_left[args["point"]] -= 1
            raise ToolError(ErrorCode.BUSY, "device busy", retryable=True)
        if "answer" in point:  # exactly this answer, whatever its shape (a tool's bug)
            return point["answer"]
        answered = point.get("answers_as", args["point"])  # a tool that mixes up its answers
        return {"point": answered, "value": self.store[answered], "ts": time.time()}

    async def write(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        point = self._point(args["point"])
        self.write_attempts[args["point"]] = self.write_attempts.get(args["point"], 0) + 1
        await asyncio.sleep(float(point.get("delay", 0)))
        if point.get("write_exits"):  # taken, then gone before answering (a crash)
            self.store[args["point"]] = args["value"]
            sys.stderr.flush()
            os._exit(3)
        if "write_fails" in point:  # {"code": ..., "retryable": ...}: after taking it
            self.store[args["point"]] = args["value"]
            fails = point["write_fails"]
            raise ToolError(ErrorCode(fails["code"]), "configured to fail the write",
                            retryable=bool(fails.get("retryable")))
        if point["device"] in self.offline:
            raise ToolError(ErrorCode.DEVICE_OFFLINE, f"{point['device']} is offline")
        self.store[args["point"]] = args["value"]
        if "write_answer" in point:  # taken, and answered with exactly this (a tool's bug)
            return point["write_answer"]
        return {"point": args["point"], "value": args["value"], "ts": time.time(),
                "confirmed": True}

    async def attempts(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        return dict(self.write_attempts)

    async def echo(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        if "fail" in args:  # answered with this error code, after the call arrived
            raise ToolError(ErrorCode(args["fail"]), "configured to fail; it may or may not "
                                                     "have taken effect")
        return {"args": args, "context": ctx}

    async def sleep(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        if "marker" in args:  # tells the test the call has arrived
            Path(args["marker"]).write_text(str(os.getpid()))
        await asyncio.sleep(float(args["seconds"]))
        return {"slept": args["seconds"]}

    async def crash(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        sys.stderr.flush()
        os._exit(3)

    async def bad_result(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        return {"not_ok": True}

    async def grow(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        self.hoard.append(bytearray(os.urandom(1024)) * (1024 * int(args["mib"])))
        return {"held_mib": sum(len(b) for b in self.hoard) // (1024 * 1024)}

    async def emit_event(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        self.emit(str(args["kind"]), dict(args["data"]))
        return {}

    async def print_lines(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        # 100 bytes a line, or the test's own (no newline added: a tool may print none)
        line = args["line"].encode() if "line" in args else b"chatter " + b"x" * 91 + b"\n"
        data = line * (int(args["bytes"]) // len(line))
        view = memoryview(data)
        while view:  # blocking writes, as a tool's print is: a full pipe stops it here
            view = view[os.write(self.stdout, view):]
        return {"printed": len(data)}

    async def set_offline(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        device, online = args["device"], bool(args["online"])
        if online:
            self.offline.discard(device)
        else:
            self.offline.add(device)
        self.device_state(device, online, "" if online else "unplugged by the test")
        return {}


if __name__ == "__main__":
    main(FakeTool())
