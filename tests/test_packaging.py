"""Every package of the source tree is in pyproject's package list: a subpackage left out
installs without its modules and fails only on a user's machine (`No module named ...`)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_directory_is_installed() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = set()
    for name, where in setuptools["package-dir"].items():
        base = ROOT / where
        for init in base.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            rel = init.parent.relative_to(base).parts
            found.add(".".join((name, *rel)))
    assert found - listed == set(), f"packages not in pyproject's list: {sorted(found - listed)}"
    assert listed - found == set(), f"listed packages that do not exist: {sorted(listed - found)}"
