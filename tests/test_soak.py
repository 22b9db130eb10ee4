"""The short soak (`scripts/soak --short`) as a test: the whole dev plant under load while every
fault is injected once, run as a user runs it, judged on its JSON report and on /proc.

As root the state disk faults run too (a tmpfs the soak mounts); otherwise the report must say
they were skipped and why. The soak's other verdicts (RSS growth, the audit log's integrity) are
in its report and its exit code; this test holds it to what must never happen.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOAK = ROOT / "scripts" / "soak"
DISK_FAULTS = {"disk_full", "read_only"}


@pytest.fixture
def workdir() -> Iterator[Path]:
    # short: the tools' sockets live in it (AF_UNIX paths are limited to 107 bytes)
    path = Path(tempfile.mkdtemp(prefix="soak", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _started_from(workdir: Path) -> list[str]:
    """Live processes whose arguments name the work directory (the soak itself has exited)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            line = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(workdir) in line and state != "Z":
            found.append(f"{entry}: {line[:160]}")
    return found


def _mounts_under(workdir: Path) -> list[str]:
    points = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    return [p for p in points if p == str(workdir) or p.startswith(f"{workdir}/")]


@pytest.mark.timeout(300)
def test_short_soak_loses_nothing_and_recovers_from_every_fault(workdir: Path) -> None:
    report_path = workdir / "report.json"
    done = subprocess.run([str(SOAK), "--short", "--workdir", str(workdir / "w"),
                           "--report", str(report_path)],
                          capture_output=True, text=True, timeout=280, check=False)
    shown = f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-4000:]}"
    assert report_path.exists(), shown
    report: dict[str, Any] = json.loads(report_path.read_text())
    assert report["error"] is None and not report["interrupted"], shown

    # nothing lost: every request answered, each answer in the documented shape
    req = report["requests"]
    assert req["sent"] >= 500, shown
    assert req["lost"] == 0 and req["answered"] == req["sent"], req["lost_examples"]
    assert req["breaches"] == 0, req["breach_examples"]
    assert {"read", "write", "ask", "mqtt", "hermesctl"} <= set(req["by_kind"]), req["by_kind"]
    assert report["honesty"]["dishonest"] == 0, report["honesty"]

    # every fault injected once and recovered; every tool killed and stopped
    faults = report["faults"]
    tools = set(report["hermesd_status"]["tools"])
    assert {"modbus", "serial", "mqtt", "leaky"} <= tools
    assert sorted(f["target"] for f in faults if f["kind"] == "kill9") == sorted(tools)
    assert sorted(f["target"] for f in faults if f["kind"] == "sigstop") == sorted(tools)
    assert {"dropout", "broker", "leak"} | DISK_FAULTS <= {f["kind"] for f in faults}
    for fault in faults:
        if fault.get("skipped"):
            assert os.geteuid() != 0 and fault["kind"] in DISK_FAULTS, fault
            assert "root" in fault["skipped"]
            continue
        assert fault["recovered"], fault
        assert fault["recovery_s"] is not None and fault["judged_by"], fault
    leak = next(f for f in faults if f["kind"] == "leak")
    assert leak["observed"]["watchdog"], leak  # the memory watchdog did it, not something else

    # systemd would have been content: pings in time, a clean stop
    assert report["targets"]["watchdog_in_time"]["met"], report["watchdog"]
    assert report["targets"]["clean_stop"]["met"], report["stop"]

    # nothing left behind: by the soak's own account, and by ours
    assert report["cleanup"] == {"processes": [], "mounts": [], "notes": []}, report["cleanup"]
    assert _started_from(workdir) == []
    assert _mounts_under(workdir) == []
