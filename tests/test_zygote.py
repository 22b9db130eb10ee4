"""The zygote: built-in tools forked from a preloaded process behave as tools started as programs.

Real processes throughout: hermesd, its zygote, its Modbus tool and `hermes-sim`; and, for the
zygote the supervisor starts as a program, a Supervisor in this process.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from hermesd.core.protocol import Event
from hermesd.supervisor import Supervisor, ToolSpec
from tests.support import procfs
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.ports import free_port
from tests.support.sim import SimRunner, sim_runner
from tests.support.until import until, until_sync
from tests.tools.modbus.plant import VALUES, tcp_device

__all__ = ["sim_runner"]

ZYGOTE = "-m hermesd.core.zygote"


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _session(pid: int) -> int:
    return os.getsid(pid)


def _start(daemon_runner: DaemonRunner, sim_runner: SimRunner,
           env: dict[str, str] | None = None) -> RunningDaemon:
    device = tcp_device(free_port())
    path = daemon_runner.write_config(base_config({"plc": device}))
    values = path.with_name("values.yaml")
    values.write_text(yaml.safe_dump(dict(VALUES)))
    sim_runner.start(path, "--values", str(values))
    return daemon_runner.start(path, env=env)


def _fresh(d: RunningDaemon, point: str) -> dict[str, Any] | None:
    answer = d.ctl_json("read", point)[1]
    return answer if answer["status"] == "ok" else None


def _zygote_of(d: RunningDaemon, tool_pid: int) -> int:
    zygote = _parent(tool_pid)
    assert ZYGOTE in procfs.cmdline(zygote)
    assert _parent(zygote) == d.proc.pid
    return zygote


def test_a_forked_tool_answers_as_one_started_as_a_program(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    answers = {}
    for env in ({}, {"HERMESD_ZYGOTE": "0"}):
        d = _start(daemon_runner, sim_runner, env)
        pid = d.running_tool_pid("modbus")
        if env:  # started as a program, by the daemon itself
            assert _parent(pid) == d.proc.pid
        else:  # forked by the zygote, which the daemon forked
            _zygote_of(d, pid)
        # either way: its own session, shown as the command it runs, serving the daemon
        assert _session(pid) == pid
        assert procfs.cmdline(pid).split()[1:3] == ["-m", "hermes_tools.modbus"]
        temp = d.wait_until(partial(_fresh, d, "speed"), what="a fresh speed")
        status = d.status()["tools"]["modbus"]
        call = d.ctl_json("--role", "engineer", "call", "modbus.read_registers",
                          '{"device": "plc", "table": "input", "address": 2, "count": 1}')[1]
        raw = {k: v for k, v in call["result"]["value"].items() if k != "ts"}
        answers[bool(env)] = (temp["result"]["value"], status["actions"], call["status"], raw)
        assert d.terminate() == 0
        assert not procfs.alive(pid)
        sim_runner.cleanup()
    assert answers[False] == answers[True]
    assert answers[False][0] == VALUES["speed"]
    assert answers[False][2] == "ok"


def test_tools_and_the_zygote_die_with_a_killed_daemon(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d = _start(daemon_runner, sim_runner)
    tool = d.running_tool_pid("modbus")
    zygote = _zygote_of(d, tool)
    d.kill()  # SIGKILL: the daemon cannot stop anything itself
    until_sync(lambda: not procfs.alive(tool) and not procfs.alive(zygote), 10,
               "the tool and the zygote to die with the daemon")


def test_a_crashed_forked_tool_is_forked_again(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d = _start(daemon_runner, sim_runner)
    pid = d.running_tool_pid("modbus")
    zygote = _zygote_of(d, pid)
    os.kill(pid, signal.SIGKILL)
    new = d.running_tool_pid("modbus", not_pid=pid)
    assert _parent(new) == zygote
    tool = d.status()["tools"]["modbus"]
    assert (tool["restarts"], tool["last_error"]) == (1, "was killed by SIGKILL")
    assert procfs.state(pid) is None  # reaped by the zygote, not left a zombie
    assert d.wait_until(lambda: _fresh(d, "temp"), what="a fresh temp")
    assert d.terminate() == 0


def test_tools_come_back_when_the_zygote_dies(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d = _start(daemon_runner, sim_runner)
    pid = d.running_tool_pid("modbus")
    zygote = _zygote_of(d, pid)
    os.kill(zygote, signal.SIGKILL)
    new = d.running_tool_pid("modbus", not_pid=pid)
    assert not procfs.alive(pid)
    assert d.status()["tools"]["modbus"]["last_error"] == "ended with the zygote that started it"
    # started again: as a program, or by a new zygote started as a program
    parent = _parent(new)
    assert parent == d.proc.pid or (ZYGOTE in procfs.cmdline(parent)
                                    and _parent(parent) == d.proc.pid and parent != zygote)
    d.wait_until(lambda: procfs.state(zygote) is None, what="the dead zygote to be reaped")
    assert d.wait_until(lambda: _fresh(d, "temp"), what="a fresh temp")
    assert "zygote (pid" in d.log and "lost" in d.log
    assert d.terminate() == 0


async def test_a_supervisor_without_a_forked_zygote_starts_one_as_a_program(
        tmp_path: Path) -> None:
    """In a process with threads (this one), the zygote is started as a program the first time a
    built-in tool starts, forks it, and is reaped when the supervisor stops."""
    runtime = Path(os.environ.get("TMPDIR", "/tmp")) / f"hz{os.getpid()}"
    events: list[Event] = []
    sup = Supervisor(runtime, lambda tool, event: events.append(event))
    spec = ToolSpec("modbus", (sys.executable, "-m", "hermes_tools.modbus"),
                    config={"devices": {}}, fork="hermes_tools.modbus")
    task = asyncio.create_task(sup.run({"modbus": spec}))
    try:
        await sup.started()
        assert await sup.get("modbus").wait_ready(20)
        pid = sup.get("modbus").status()["pid"]
        zygote = _parent(pid)
        assert ZYGOTE in procfs.cmdline(zygote)
        assert _parent(zygote) == os.getpid()
        assert sup.get("modbus").connected().hello is not None
        assert sup.get("modbus").connected().hello.pid == pid  # type: ignore[union-attr]
        os.kill(pid, signal.SIGTERM)
        await until(lambda: sup.get("modbus").status()["pid"] not in (None, pid)
                    and sup.get("modbus").state == "running", 20, "the tool forked again")
        assert sup.get("modbus").last_error == "exited with code 0"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert not procfs.alive(zygote)
