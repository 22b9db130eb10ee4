"""What /proc says about a process: memory, CPU, open files, children, state, command line.

The one reader of these for the tests, the soak and the benchmarks. Everything here only reads;
a process that is gone reads as None (or nothing), never as an error: the processes looked at
are other programs that may end at any moment.
"""

from __future__ import annotations

import os
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int | None:
    """Resident set size of a live process (None if it is gone or a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return None
    rss = int(fields[1]) * PAGE
    return rss or None  # a zombie has no pages


def peak_rss_bytes(pid: int) -> int | None:
    """The most it was ever resident (VmHWM), or None if it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return None


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) it has used so far, its ended threads included."""
    fields = _stat(pid)
    return None if fields is None else (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def thread_cpu_seconds(*pids: int) -> float:
    """CPU time of these processes' running threads, to the nanosecond (/proc/PID/task/TID/
    schedstat: user + system time comes in 10 ms ticks, too coarse for a benchmark's window);
    a thread or process that just ended counts nothing."""
    total = 0
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except FileNotFoundError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="ascii") as f:
                    total += int(f.read().split()[0])
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9


def children(pid: int) -> set[int]:
    """Its child processes (of every thread)."""
    out: set[int] = set()
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            out.update(int(p) for p in (task / "children").read_text().split())
        except OSError:
            continue  # a thread that just ended
    return out


def open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def _stat(pid: int) -> list[str] | None:
    """/proc/<pid>/stat after the command name (which may hold spaces and parentheses)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def state(pid: int) -> str | None:
    """The one-letter state of /proc/<pid>/stat (R, S, T, Z, ...), or None if gone."""
    fields = _stat(pid)
    return None if fields is None else fields[0]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace").strip()
    except OSError:
        return ""


def alive(pid: int) -> bool:
    return state(pid) not in (None, "Z", "X")


def ancestors() -> set[int]:
    """This process and every process above it."""
    out = set()
    pid = os.getpid()
    while pid > 1 and pid not in out:
        out.add(pid)
        fields = _stat(pid)
        if fields is None:
            break
        pid = int(fields[1])
    return out


def mounts_under(path: Path) -> list[str]:
    """Mount points at or below `path` (from /proc/self/mountinfo), innermost last."""
    prefix = str(path)
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].replace("\\040", " ")
        if point == prefix or point.startswith(prefix + "/"):
            points.append(point)
    return points
