"""The memory watchdog: RSS of the daemon and of every child against budgets, and what to do.

Every `memory.interval` it reads the resident size of itself and each tool process from /proc
(and the unit's cgroup usage, when there is one). A tool over its soft budget is restarted (at
most once per cool-down); over its hard budget it is restarted at once. When the unit as a whole
nears its cgroup limit the LLM worker — by far the largest — is unloaded until memory recovers.
The daemon over its soft budget collects garbage; over its hard budget it exits non-zero so
systemd restarts it cleanly. Each action is logged once, counted, and shown in `status`.
It never kills anything that is not its own child.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermesd.config.operations import MIB, Budget, Memory
from hermesd.core import heap
from hermesd.metrics import Metrics
from hermesd.supervisor import Supervisor

if TYPE_CHECKING:
    from hermesd.config.model import Config

log = logging.getLogger(__name__)

PAGE = os.sysconf("SC_PAGE_SIZE")
SOFT_COOLDOWN = 300.0  # seconds between soft-limit restarts of the same tool
PRESSURE_HIGH = 0.90  # of the cgroup limit: unload the LLM worker
PRESSURE_LOW = 0.75  # of the cgroup limit: bring it back
LLM_TOOL = "llm"
WHISPER_TOOL = "whisper"
EXIT_MEMORY = 70  # EX_SOFTWARE: the daemon itself outgrew its budget


def rss_bytes(pid: int) -> int | None:
    """Resident set size of a process, from /proc/<pid>/statm (None if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return None
    return int(fields[1]) * PAGE


def cgroup_memory() -> tuple[int | None, int | None]:
    """(current, max) bytes of this process's cgroup v2, or None where unknown or unlimited."""
    try:
        line = Path("/proc/self/cgroup").read_text().strip().splitlines()[0]
        path = Path("/sys/fs/cgroup") / line.split("::", 1)[1].lstrip("/")
        current = int((path / "memory.current").read_text())
        raw = (path / "memory.max").read_text().strip()
    except (OSError, IndexError, ValueError):
        return None, None
    return current, None if raw == "max" else int(raw)


@dataclass
class Sample:
    name: str
    pid: int
    rss: int
    budget: Budget


class MemoryWatch:
    name = "memory"

    def __init__(self, settings: Memory, supervisor: Supervisor, metrics: Metrics,
                 on_daemon_hard: Callable[[str], None],
                 llm_model_bytes: Callable[[], int | None] = lambda: None) -> None:
        self.settings = settings
        self.supervisor = supervisor
        self.metrics = metrics
        self._on_daemon_hard = on_daemon_hard
        self._llm_model_bytes = llm_model_bytes
        self._last_soft: dict[str, float] = {}
        self.samples: dict[str, Sample] = {}
        self.events: deque[dict[str, Any]] = deque(maxlen=20)
        self.llm_unloaded = False
        self.cgroup: tuple[int | None, int | None] = (None, None)
        self.read_cgroup: Callable[[], tuple[int | None, int | None]] = cgroup_memory

    async def reconfigure(self, config: Config) -> None:
        self.settings = config.memory

    def budget_of(self, tool: str) -> Budget:
        s = self.settings
        if tool == LLM_TOOL:
            size = self._llm_model_bytes()
            soft = s.llm.soft or (int(size * 1.5) + 200 * MIB if size else 1024 * MIB)
            hard = s.llm.hard or (int(size * 2.0) + 400 * MIB if size else 1536 * MIB)
            return Budget(soft, hard)
        if tool == WHISPER_TOOL:
            return s.whisper
        return s.tools

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.interval)
            self.check()

    def check(self) -> None:
        """One round: sample, compare, act."""
        samples: dict[str, Sample] = {}
        own = rss_bytes(os.getpid())
        if own is not None:
            samples["hermesd"] = Sample("hermesd", os.getpid(), own, self.settings.daemon)
        for name, tool in self.supervisor.tools.items():
            proc = tool.proc
            if proc is None or proc.returncode is not None:
                continue
            rss = rss_bytes(proc.pid)
            if rss is not None:
                samples[name] = Sample(name, proc.pid, rss, self.budget_of(name))
        self.samples = samples
        self.cgroup = self.read_cgroup()
        for sample in samples.values():
            self._judge(sample)
        self._pressure()

    def _event(self, kind: str, process: str, text: str, level: int = logging.WARNING) -> None:
        log.log(level, "memory: %s", text)
        self.metrics.count(f"memory_{kind}")
        self.events.append({"ts": time.time(), "kind": kind, "process": process, "text": text})

    def _judge(self, s: Sample) -> None:
        soft, hard = s.budget.soft, s.budget.hard
        mib = s.rss / MIB
        if s.name == "hermesd":
            if hard is not None and s.rss > hard:
                self._event("daemon_hard", s.name, f"hermesd uses {mib:.0f} MiB, over its hard "
                            f"limit of {hard / MIB:.0f} MiB; exiting so systemd restarts it",
                            logging.CRITICAL)
                self._on_daemon_hard(f"RSS {mib:.0f} MiB over {hard / MIB:.0f} MiB")
            elif soft is not None and s.rss > soft:
                if not heap.settle():  # settled: start-up's frozen objects are collected too
                    gc.collect()
                if self._cooled(s.name):
                    self._event("daemon_soft", s.name, f"hermesd uses {mib:.0f} MiB, over its "
                                f"soft limit of {soft / MIB:.0f} MiB; caches dropped")
            return
        tool = self.supervisor.tools.get(s.name)
        if tool is None:
            return
        if hard is not None and s.rss > hard:
            self._event("hard_restart", s.name, f"tool {s.name} (pid {s.pid}) uses {mib:.0f} MiB, "
                        f"over its hard limit of {hard / MIB:.0f} MiB; restarting it")
            tool.restart(f"memory {mib:.0f} MiB over the hard limit")
        elif soft is not None and s.rss > soft and self._cooled(s.name):
            self._event("soft_restart", s.name, f"tool {s.name} (pid {s.pid}) uses {mib:.0f} MiB, "
                        f"over its soft limit of {soft / MIB:.0f} MiB; restarting it")
            tool.restart(f"memory {mib:.0f} MiB over the soft limit")

    def _cooled(self, name: str) -> bool:
        now = time.monotonic()
        if now - self._last_soft.get(name, -SOFT_COOLDOWN) < SOFT_COOLDOWN:
            return False
        self._last_soft[name] = now
        return True

    def _pressure(self) -> None:
        """Near the unit's limit: unload the LLM worker until memory recovers."""
        current, limit = self.cgroup
        llm = self.supervisor.tools.get(LLM_TOOL)
        if current is None or limit is None or llm is None:
            return
        share = current / limit
        if not self.llm_unloaded and share > PRESSURE_HIGH:
            self.llm_unloaded = True
            self._event("llm_unloaded", LLM_TOOL, f"unit uses {share:.0%} of its memory limit; "
                        "unloading the LLM worker (rules only) until memory recovers")
            llm.hold("memory pressure")
        elif self.llm_unloaded and share < PRESSURE_LOW:
            self.llm_unloaded = False
            self._event("llm_reloaded", LLM_TOOL, f"memory recovered ({share:.0%} of the limit); "
                        "loading the LLM worker again", logging.INFO)
            llm.release()

    def status(self) -> dict[str, Any]:
        current, limit = self.cgroup
        return {
            "processes": {s.name: {"pid": s.pid, "rss_mib": round(s.rss / MIB, 1),
                                   "soft_mib": _mib(s.budget.soft), "hard_mib": _mib(s.budget.hard)}
                          for s in self.samples.values()},
            "cgroup": {"current_mib": _mib(current), "max_mib": _mib(limit)},
            "llm_unloaded": self.llm_unloaded,
            "events": list(self.events),
        }


def _mib(value: int | None) -> float | None:
    return None if value is None else round(value / MIB, 1)
