"""sha256 of files, read in blocks: model pins, wheel pins, file stamps."""

from __future__ import annotations

import hashlib
from pathlib import Path

BLOCK = 8 * 1024 * 1024


def sha256_file(path: Path) -> str:
    """The hex sha256 of the file at `path` (OSError when it cannot be read)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as f:
        while block := f.read(BLOCK):
            digest.update(block)
    return digest.hexdigest()
