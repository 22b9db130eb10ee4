"""The systemd unit: verified by systemd itself, hardened to an exposure of 2.0 or less."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

UNIT = Path(__file__).parents[2] / "systemd" / "hermesd.service"


def _analyze(*args: str) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("systemd-analyze")
    assert tool is not None, "systemd-analyze is needed (Debian package systemd)"
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=60, check=False)


def test_security_exposure_is_at_most_two(tmp_path: Path) -> None:
    done = _analyze("security", "--offline=true", "--no-pager", str(UNIT))
    match = re.search(r"Overall exposure level for hermesd\.service: (\d+\.\d+)", done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) <= 2.0


def test_unit_verifies(tmp_path: Path) -> None:
    # the unit as installed, with ExecStart pointing at this checkout's hermesd
    hermesd = Path(sys.executable).with_name("hermesd")
    text = UNIT.read_text().replace("/opt/hermesd/venv/bin/hermesd", str(hermesd))
    unit = tmp_path / "hermesd.service"
    unit.write_text(text)
    done = _analyze("verify", str(unit))
    problems = [line for line in (done.stdout + done.stderr).splitlines()
                if "hermesd.service" in line]
    assert done.returncode == 0, problems
    assert problems == []


def test_unit_keeps_the_contract() -> None:
    text = UNIT.read_text()
    for line in ("Type=notify", "NotifyAccess=main", "Restart=on-failure", "OOMPolicy=continue",
                 "SupplementaryGroups=dialout audio", "StateDirectory=hermesd",
                 "RuntimeDirectory=hermesd", "ConfigurationDirectory=hermesd",
                 "ExecReload=/bin/kill -HUP $MAINPID", "RestartPreventExitStatus=78"):
        assert line in text.splitlines(), line
    assert re.search(r"^WatchdogSec=\d+s$", text, re.M)
    assert re.search(r"^MemoryMax=\d+M$", text, re.M)
