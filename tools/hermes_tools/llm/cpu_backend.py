"""Which of llama.cpp's CPU backends this machine runs: chosen by trying them, not by trusting cpuid.

`scripts/build-llama` makes, on x86_64, a "cpu-dispatch" build: ggml's CPU backend once per
instruction-set level (`libggml-cpu-x64.so`, `-sse42`, `-haswell`, `-skylakex`, ...,
`-sapphirerapids`) beside libllama, and none linked in. ggml would load the level the CPU
*claims* in cpuid, but a CPU or hypervisor can claim what it cannot run: on one gateway that
lists AMX, the sapphirerapids backend died with SIGILL on its first prompt. So before the model
is loaded, `select` tries the levels from the best ggml would pick downwards, each in a child
process that loads it, evaluates a batch of tokens through the real model and generates one
(the two code paths of every command); the first that survives is loaded here. The choice is
remembered in the state dir, keyed by the CPU and the build, so a restart does not try again.

A portable build (no variants beside libllama) has its CPU backend linked in: nothing to choose.
This module never falls back to a level that was not tried.

The record is a state file like any other (hermesd.core.statefiles: never read or written through a
link, a regular file only), and what it names is only a level: it is taken only if it is one of
the backend libraries actually beside libllama, and that library is loaded by the path found
there, never by a path made from the record's text (a `../` in it must load nothing).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermesd.core.statefiles import read_state, write_atomic

log = logging.getLogger(__name__)

PREFIX = "libggml-cpu-"
PROBE_TIMEOUT = 120.0  # seconds one try may take (model load + one batch on a slow Pi)
PROBE_TEXT = "Feed pump 1 speed is 1500 rpm and boiler 3 temperature is 523.4 °C. " * 8
RECORD = "llm-cpu-backend.json"
FORMAT_VERSION = 1
MAX_RECORD = 64 * 1024  # bytes: a record is a few hundred; a larger file is not one of ours


@dataclass
class Choice:
    """What was chosen, and why the better levels were passed over."""

    build: str  # "cpu-dispatch" | "portable"
    backend: str | None  # the level loaded ("skylakex"); None for a portable build
    refused: dict[str, str] = field(default_factory=dict)  # level -> how it failed
    from_record: bool = False

    def describe(self) -> str:
        if self.backend is None:
            return "portable build (the CPU backend is linked in)"
        text = f"cpu-dispatch build, {self.backend} backend"
        if self.refused:
            text += " (" + "; ".join(f"{k}: {v}" for k, v in self.refused.items()) + ")"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"build": self.build, "backend": self.backend, "refused": dict(self.refused)}


class NoBackend(RuntimeError):
    """No CPU backend of the build runs on this machine."""


def lib_dir() -> Path:
    import llama_cpp

    return Path(llama_cpp.__file__).parent / "lib"


def variants(directory: Path) -> list[Path]:
    """The CPU backend libraries beside libllama (empty for a portable build)."""
    return sorted(p for p in directory.glob(f"{PREFIX}*.so") if p.is_file())


def level(path: Path) -> str:
    return path.name[len(PREFIX):-len(".so")]


def ranked(libs: list[Path]) -> list[Path]:
    """Best first, by ggml's own score of each level on this CPU; levels it lacks (score 0)
    are left out. Scored in a child process: loading a library of a level the CPU lacks must
    not be able to take the worker down."""
    cmd = [sys.executable, "-m", "hermes_tools.llm.cpu_backend", "score", *map(str, libs)]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=PROBE_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
        scores = {name: int(score) for name, score in
                  (line.split() for line in proc.stdout.decode().splitlines() if line.strip())}
    except (subprocess.TimeoutExpired, ValueError) as exc:
        log.warning("llm: cannot score the CPU backends (%s); trying each", exc)
        scores = {}
    if not scores:  # try them all, the widest (largest) first
        return sorted(libs, key=lambda p: -p.stat().st_size)
    return [lib for lib in sorted(libs, key=lambda p: -scores.get(p.name, 0))
            if scores.get(lib.name, 0) > 0]


def signature(libs: list[Path]) -> str:
    """The CPU and the build: a recorded choice holds only while both are the same."""
    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "flags", "Features", "CPU part")):
                cpu += line + "\n"
                if line.startswith(("flags", "Features")):
                    break
    build = [(p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in libs]
    return hashlib.sha256(repr((cpu, build)).encode()).hexdigest()[:24]


def select(model: Path, state_dir: Path | None, *, threads: int = 1,
           directory: Path | None = None) -> Choice:
    """Load the best CPU backend that works here; NoBackend if none does.

    `directory` holds the backends (default: beside libllama).
    """
    directory = directory or lib_dir()
    libs = variants(directory)
    if not libs:
        return Choice("portable", None)
    sig = signature(libs)
    record = state_dir / RECORD if state_dir is not None else None
    present = {level(lib): lib for lib in libs}
    remembered = _remembered(record, sig, present)
    if remembered is not None and remembered.backend is not None:
        _load(present[remembered.backend])  # the library found here, not a path from the file
        remembered.from_record = True
        return remembered
    refused: dict[str, str] = {}
    for lib in ranked(libs):
        problem = probe(lib, model, threads)
        if problem is None:
            _load(lib)
            choice = Choice("cpu-dispatch", level(lib), refused)
            _remember(record, sig, choice)
            if refused:
                log.warning("llm: CPU backend %s chosen; passed over: %s", level(lib),
                            "; ".join(f"{k} ({v})" for k, v in refused.items()))
            return choice
        refused[level(lib)] = problem
        log.warning("llm: CPU backend %s does not run here: %s", level(lib), problem)
    raise NoBackend("no CPU backend of this llama.cpp build runs on this machine: " +
                    "; ".join(f"{k}: {v}" for k, v in refused.items()))


def probe(lib: Path, model: Path, threads: int) -> str | None:
    """Try one backend in a child process; None if it ran, else how it failed."""
    cmd = [sys.executable, "-m", "hermes_tools.llm.cpu_backend", str(lib), str(model),
           str(threads)]  # the worker's own interpreter and package
    started = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=PROBE_TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"no answer within {PROBE_TIMEOUT:g} s"
    if proc.returncode == 0 and proc.stdout.strip() == b"ok":
        log.info("llm: CPU backend %s runs here (tried in %.1f s)", level(lib),
                 time.monotonic() - started)
        return None
    if proc.returncode < 0:
        return f"killed by {signal.Signals(-proc.returncode).name}"
    tail = proc.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
    return f"exited with code {proc.returncode}: {tail[0][:160]}"


def _load(lib: Path) -> None:
    """Register `lib` as llama.cpp's CPU backend in this process."""
    import llama_cpp  # noqa: F401  (loads libllama and the libggml it links)

    # the very libggml libllama linked (by soname), not a second copy with its own registry
    ggml = ctypes.CDLL(str(lib_dir() / "libggml.so.0"))
    ggml.ggml_backend_load.restype = ctypes.c_void_p
    ggml.ggml_backend_load.argtypes = [ctypes.c_char_p]
    if not ggml.ggml_backend_load(str(lib).encode()):
        raise NoBackend(f"llama.cpp could not load {lib}")


def _remembered(record: Path | None, sig: str, present: dict[str, Path]) -> Choice | None:
    """The choice recorded for this CPU and build, if the record is a plain file of ours whose
    backend is one of the levels `present` here; None otherwise (then the levels are tried)."""
    if record is None:
        return None
    try:
        raw = read_state(record)  # no link, no FIFO: a regular file only
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("llm: ignoring the CPU backend record %s: %s", record, exc)
        return None
    try:
        if len(raw) > MAX_RECORD:
            raise ValueError(f"{len(raw)} bytes")
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION \
                or data.get("signature") != sig:
            return None  # another CPU, another build, or an older format: try again
        backend = data.get("backend")
        if not isinstance(backend, str) or backend not in present:
            raise ValueError(f"backend {str(backend)[:40]!r} is none of the levels here "
                             f"({', '.join(sorted(present))})")
        refused = data.get("refused") or {}
        if not isinstance(refused, dict):
            raise ValueError("refused is not an object")
        passed = {k[:40]: v[:200] for k, v in list(refused.items())[:len(present)]
                  if isinstance(k, str) and isinstance(v, str)}
        return Choice("cpu-dispatch", backend, passed)
    except (ValueError, TypeError, RecursionError) as exc:
        log.warning("llm: ignoring the CPU backend record %s: %s; trying the levels again",
                    record, exc)
        return None


def _remember(record: Path | None, sig: str, choice: Choice) -> None:
    if record is None:
        return
    data = json.dumps({"version": FORMAT_VERSION, "signature": sig, **choice.to_dict()})
    try:
        write_atomic(record, data.encode())  # temp file, fsync, rename; never through a link
    except OSError as exc:
        log.warning("llm: cannot remember the CPU backend in %s: %s", record, exc)


def _score_main(paths: list[str]) -> int:
    """The child that scores: one line `<file name> <score>` per library."""
    import llama_cpp  # noqa: F401  (loads libggml-base, which every backend links by soname)

    for path in paths:
        try:
            score = int(ctypes.CDLL(path, mode=os.RTLD_LOCAL).ggml_backend_score())
        except (OSError, AttributeError) as exc:
            print(f"cannot score {path}: {exc}", file=sys.stderr, flush=True)
            score = 0
        print(Path(path).name, score, flush=True)
    return 0


def _probe_main(argv: list[str]) -> int:
    """The child that tries: load one backend, evaluate a batch through the model, generate
    one token."""
    lib, model, threads = Path(argv[0]), Path(argv[1]), int(argv[2])
    _load(lib)
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(model), n_ctx=512, n_batch=512, n_threads=threads,
                          n_threads_batch=threads, use_mmap=False, verbose=False)
    tokens = llm.tokenize(PROBE_TEXT.encode(), add_bos=False)
    llm.eval(tokens)  # the batched path (a prompt)
    token = llm.sample(temp=0.0)
    llm.eval([token])  # the one-token path (generation)
    llm.close()
    print("ok", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["score"]:
        sys.exit(_score_main(sys.argv[2:]))
    sys.exit(_probe_main(sys.argv[1:]))
