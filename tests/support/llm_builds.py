"""LLM worker helpers for tests that need no real model: a tiny GGUF, a broken llama.cpp.

`tiny_model` writes a GGUF file with a valid, empty header (enough for the worker's checks);
`broken_llama_env` puts tests/support/broken_llama first on a worker's PYTHONPATH, so it imports
a llama.cpp that cannot run on this CPU (see that package).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

BROKEN_LLAMA = Path(__file__).with_name("broken_llama")


def tiny_model(where: Path) -> Path:
    path = where / "tiny.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 0))
    return path


def broken_llama_env() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": f"{BROKEN_LLAMA}{os.pathsep}{path}" if path else str(BROKEN_LLAMA)}
