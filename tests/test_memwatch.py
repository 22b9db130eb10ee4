"""The memory watchdog against real processes that really grow."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from hermesd.config.operations import MIB, Budget, Memory
from hermesd.memwatch import MemoryWatch, rss_bytes
from hermesd.metrics import Metrics
from hermesd.supervisor import Supervisor, ToolSpec
from tests.support.daemon import FAKE_TOOL, DaemonRunner, base_config, fake_device


def _leaky(memory: dict[str, Any]) -> dict[str, Any]:
    return base_config({"dev": fake_device({"x": {"type": "float"}})}, memory=memory)


def test_tool_over_its_hard_limit_is_restarted(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_leaky({"interval": "500ms", "tools": {"soft": "150M",
                                                                    "hard": "150M"}}))
    pid = d.running_tool_pid("dev")
    code, answer = d.ctl_json("--role", "engineer", "call", "dev.grow", '{"mib": 200}')
    # the watchdog may strike between the allocation and the answer: either is honest
    assert (answer["status"] == "ok" and answer["result"]["value"] == {"held_mib": 200}) or \
        answer["error"]["code"] == "TOOL_UNAVAILABLE"
    new_pid = d.running_tool_pid("dev", not_pid=pid)
    assert new_pid != pid
    events = d.status()["memory"]["events"]
    assert events[0]["kind"] == "hard_restart"
    assert events[0]["process"] == "dev"
    assert "over its hard limit of 150 MiB" in events[0]["text"]
    assert d.status()["metrics"]["events"]["memory_hard_restart"] == 1
    assert d.log.count("over its hard limit") == 1
    assert d.terminate() == 0


def test_daemon_over_its_hard_limit_exits_for_a_clean_restart(
        daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_leaky({"interval": "500ms", "daemon": {"soft": "16M",
                                                                     "hard": "16M"}}))
    assert d.proc.wait(timeout=15) == 70
    assert "over its hard limit of 16 MiB; exiting so systemd restarts it" in d.log
    d.notify.wait_for(lambda m: "STOPPING=1" in m, timeout=1)
    assert not d.socket.exists()


def test_status_shows_memory_by_process(daemon_runner: DaemonRunner) -> None:
    d = daemon_runner.start(_leaky({"interval": "500ms"}))
    procs = d.wait_until(lambda: d.status()["memory"]["processes"].get("dev") and
                         d.status()["memory"]["processes"], what="memory samples")
    assert set(procs) == {"hermesd", "dev"}
    assert 5 < procs["hermesd"]["rss_mib"] < 96
    assert procs["dev"]["hard_mib"] == 320.0
    assert d.terminate() == 0


async def test_llm_worker_unloaded_under_pressure_until_memory_recovers(tmp_path: Path) -> None:
    """A worker named llm is held stopped while the unit is near its cgroup limit."""
    held = asyncio.Event()
    supervisor = Supervisor(tmp_path / "run", lambda tool, event: None,
                            lambda tool, state: held.set() if state == "held" else None)
    spec = ToolSpec("llm", (sys.executable, str(FAKE_TOOL)), config={"devices": {}})
    # the test process itself stands in for the daemon: its own size is not under test here
    watch = MemoryWatch(Memory(interval=60, daemon=Budget(None, None), llm=Budget(None, None)),
                        supervisor, Metrics(),
                        on_daemon_hard=lambda reason: None)
    runner = asyncio.create_task(supervisor.run({"llm": spec}))
    try:
        await supervisor.started()
        tool = supervisor.get("llm")
        assert await tool.wait_ready(40)
        first_pid = tool.proc.pid if tool.proc else None
        watch.read_cgroup = lambda: (95 * MIB, 100 * MIB)
        watch.check()
        assert watch.llm_unloaded
        async with asyncio.timeout(30):
            await held.wait()
        assert first_pid is not None and rss_bytes(first_pid) is None  # really stopped
        watch.check()  # still under pressure: stays held, no flapping
        assert tool.state == "held"
        watch.read_cgroup = lambda: (50 * MIB, 100 * MIB)
        watch.check()
        assert await tool.wait_ready(40)
        assert tool.state == "running"
        kinds = [e["kind"] for e in watch.status()["events"]]
        assert kinds == ["llm_unloaded", "llm_reloaded"]
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
