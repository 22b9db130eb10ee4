"""Which CPU backend of the llama.cpp build the worker loads: the best one that really runs here.

Real build, real model, real child processes. A backend that claims to be the best for this CPU
and then dies on its first prompt (as AMX did on a machine whose cpuid lists it) is passed over,
with the signal that killed it; the next is tried; the choice is remembered and reused.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hermes_tools.llm import cpu_backend

from hermesd.models import find_model
from hermesd.models.gguf import MODEL_FILE

#: a "backend" that scores above every real one and dies like an unsupported instruction would
TRAP_SOURCE = textwrap.dedent("""
    int ggml_backend_score(void) { return 1 << 30; }
    void *ggml_backend_init(void) { __builtin_trap(); return 0; }
""")


def _model() -> Path:
    path = find_model(MODEL_FILE)
    if path is None:
        pytest.fail("the embedded model is not prepared: run scripts/setup --all")
    return path


def _real_variants() -> list[Path]:
    libs = cpu_backend.variants(cpu_backend.lib_dir())
    if not libs:
        pytest.fail("llama-cpp-python is not the cpu-dispatch build of scripts/build-llama")
    return libs


def _select_in_child(directory: Path, state: Path) -> dict[str, object]:
    """Run `select` in a fresh interpreter (a backend, once loaded, stays for the process)."""
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        from hermes_tools.llm import cpu_backend
        c = cpu_backend.select(Path({str(_model())!r}), Path({str(state)!r}), threads=1,
                               directory=Path({str(directory)!r}))
        print(json.dumps({{**c.to_dict(), "from_record": c.from_record}}))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_the_build_ships_a_backend_for_every_level_and_one_runs_here(tmp_path: Path) -> None:
    libs = _real_variants()
    levels = {cpu_backend.level(p) for p in libs}
    assert {"x64", "sse42", "haswell", "skylakex"} <= levels  # old CPUs to new ones
    ranked = cpu_backend.ranked(libs)
    assert ranked and cpu_backend.level(ranked[-1]) in ("x64", "sse42")  # every CPU runs these
    choice = _select_in_child(cpu_backend.lib_dir(), tmp_path)
    chosen = str(choice["backend"])
    order = [cpu_backend.level(p) for p in ranked]
    # the best level that runs: every better one was tried and refused, with how it failed
    refused = choice["refused"]
    assert isinstance(refused, dict)
    assert set(refused) == set(order[:order.index(chosen)])
    assert all(why for why in refused.values())


def test_a_backend_that_dies_on_its_first_prompt_is_passed_over(tmp_path: Path) -> None:
    libs = _real_variants()
    trap_c = tmp_path / "trap.c"
    trap_c.write_text(TRAP_SOURCE)
    backends = tmp_path / "backends"
    backends.mkdir()
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(backends / "libggml-cpu-trap.so"),
                    str(trap_c)], check=True, timeout=60)
    for lib in libs:
        (backends / lib.name).symlink_to(lib)
    state = tmp_path / "state"
    state.mkdir()
    first = _select_in_child(backends, state)
    refused = first["refused"]
    assert isinstance(refused, dict) and refused["trap"] == "killed by SIGILL"
    assert first["backend"] != "trap" and first["from_record"] is False
    # remembered: a restart loads the same backend without trying again
    record = json.loads((state / cpu_backend.RECORD).read_text())
    assert record["backend"] == first["backend"]
    again = _select_in_child(backends, state)
    assert again["backend"] == first["backend"] and again["from_record"] is True
    # a changed build (another library) is tried afresh
    (backends / "libggml-cpu-trap.so").unlink()
    afresh = _select_in_child(backends, state)
    assert afresh["from_record"] is False and "trap" not in afresh["refused"]  # type: ignore[operator]


def test_no_backend_that_runs_is_a_clear_failure(tmp_path: Path) -> None:
    trap_c = tmp_path / "trap.c"
    trap_c.write_text(TRAP_SOURCE)
    backends = tmp_path / "backends"
    backends.mkdir()
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(backends / "libggml-cpu-trap.so"),
                    str(trap_c)], check=True, timeout=60)
    with pytest.raises(cpu_backend.NoBackend, match=r"trap: killed by SIGILL"):
        cpu_backend.select(_model(), tmp_path, directory=backends)
