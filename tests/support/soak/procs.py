"""What /proc says about the processes of a soak: memory, open files, and who is still alive.

Everything here reads /proc; `kill_leftovers` is the only thing that signals, and only processes
the soak started or saw hermesd start: hermesd's tools (`--socket <workdir>/run/...`), hermesd and
the simulators (`--config <workdir>/...`), the broker (`-c <workdir>/broker/...`). Never the soak's
own ancestors (a `timeout` or a test that runs it), nor anything that merely mentions the work
directory (someone's `tail -f` of a log there).
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes(pid: int) -> int | None:
    """Resident set size of a live process (None if it is gone or a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return None
    rss = int(fields[1]) * PAGE
    return rss or None  # a zombie has no pages


def open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def state(pid: int) -> str | None:
    """The one-letter state of /proc/<pid>/stat (R, S, T, Z, ...), or None if gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    return state(pid) not in (None, "Z", "X")


@dataclass(frozen=True)
class Leftover:
    pid: int
    cmdline: str


def ancestors() -> set[int]:
    """This process and every process above it."""
    out = set()
    pid = os.getpid()
    while pid > 1 and pid not in out:
        out.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return out


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


def mounts_under(path: Path) -> list[str]:
    """Mount points at or below `path` (from /proc/self/mountinfo), innermost last."""
    prefix = str(path)
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].replace("\\040", " ")
        if point == prefix or point.startswith(prefix + "/"):
            points.append(point)
    return points
