"""The repository's top level is fixed (DESIGN.md): the product's directories and files, and
nothing a session leaves behind. A scratch script committed beside them ships in every clone."""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = {"pyproject.toml", "hermesd", "tools", "systemd", "configs", "scripts", "tests",
          "README.md", ".ci", ".gitignore"}


def _top_level() -> set[str]:
    """What git tracks at the top; in a copy without git, what is there and not ignored."""
    if (ROOT / ".git").exists() and shutil.which("git"):
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                             check=True, timeout=30).stdout.decode()
        return {path.split("/", 1)[0] for path in out.split("\0") if path}
    ignored = [line.strip().strip("/") for line in (ROOT / ".gitignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    return {entry.name for entry in ROOT.iterdir()
            if not any(fnmatch.fnmatch(entry.name, pattern) for pattern in ignored)}


def test_only_the_fixed_layout_is_at_the_top_level() -> None:
    found = _top_level()
    assert not found - LAYOUT, f"at the top level beside the fixed layout: {sorted(found - LAYOUT)}"
    assert {"pyproject.toml", "hermesd", "tools", "scripts", "tests", "README.md", ".ci"} <= found
