"""The soak's processes that outlive it: found by their command lines, and killed.

(What /proc says about a process is `tests.support.procfs`'s.) `kill_leftovers` is the only
thing that signals, and only processes the soak started or saw hermesd start: hermesd's tools
(`--socket <workdir>/run/...`), hermesd and the simulators (`--config <workdir>/...`), the
broker (`-c <workdir>/broker/...`). Never the soak's own ancestors (a `timeout` or a test that
runs it), nor anything that merely mentions the work directory (someone's `tail -f` of a log
there)."""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

from tests.support.procfs import alive, ancestors, cmdline


@dataclass(frozen=True)
class Leftover:
    pid: int
    cmdline: str


def started_for(workdir: Path) -> list[Leftover]:
    """Live processes whose arguments show the soak (or its hermesd) started them."""
    marks = (f"--socket {workdir}/run/", f"--config {workdir}/", f"-c {workdir}/broker/")
    skip = ancestors()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in skip:
            continue
        pid = int(entry)
        line = cmdline(pid)
        if any(m in line for m in marks) and alive(pid):
            found.append(Leftover(pid, line[:200]))
    return found


def kill_leftovers(workdir: Path, seen: set[int]) -> list[Leftover]:
    """SIGKILL what is still alive of the soak's processes; returns what was found alive.

    A pid from `seen` counts only while its command line still names the work directory: a pid
    the kernel has since given to another program is not ours to signal.
    """
    marker = str(workdir)
    found = {p.pid: p for p in started_for(workdir)}
    skip = ancestors()
    for pid in seen - skip:
        if pid not in found and alive(pid) and marker in cmdline(pid):
            found[pid] = Leftover(pid, cmdline(pid)[:200])
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return sorted(found.values(), key=lambda p: p.pid)
