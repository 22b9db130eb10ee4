"""Which CPU backend of the llama.cpp build the worker loads: the best one that really runs here.

Real build, real model, real child processes. A backend that claims to be the best for this CPU
and then dies on its first prompt (as AMX did on a machine whose cpuid lists it) is passed over,
with the signal that killed it; the next is tried; the choice is remembered and reused.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hermes_tools.llm import cpu_backend
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermesd.core.model_files import find_model
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


# -- the record is a state file, and names only a level that is here ------------------------------

LEVELS = ("x64", "sse42", "haswell")
#: a library outside the build that says so when anything loads it
EVIL_SOURCE = textwrap.dedent("""
    #include <fcntl.h>
    #include <unistd.h>
    __attribute__((constructor)) static void loaded(void) {
        int fd = open(MARKER, O_WRONLY | O_CREAT, 0600);
        if (fd >= 0) close(fd);
    }
""")


def _stand_ins(tmp: Path) -> tuple[Path, dict[str, Path]]:
    """Files named as backend levels (read as names only: `_remembered` loads nothing)."""
    lib = tmp / "lib"
    lib.mkdir(exist_ok=True)
    (lib / "libggml-cpu-d").mkdir(exist_ok=True)  # a directory a traversal could start from
    (tmp / "libggml-cpu-evil.so").write_bytes(b"\x7fELF evil")
    for name in LEVELS:
        (lib / f"libggml-cpu-{name}.so").write_bytes(b"\x7fELF" + name.encode())
    return lib, {name: lib / f"libggml-cpu-{name}.so" for name in LEVELS}


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(backend=st.one_of(
    st.sampled_from(["d/../../libggml-cpu-evil", "../libggml-cpu-evil", "/tmp/x", "x64.so",
                     "haswell/../x64", "x64\x00", "", ".", "X64", " haswell", *LEVELS]),
    st.text(max_size=40), st.integers(), st.none(), st.lists(st.text(max_size=5))),
    refused=st.dictionaries(st.text(max_size=50), st.text(max_size=300) | st.integers(),
                            max_size=4))
def test_a_recorded_backend_is_taken_only_if_it_is_a_level_here(
        tmp_path: Path, backend: object, refused: dict[str, object]) -> None:
    """Whatever the record holds, what it yields is one of the levels found beside libllama
    (whose library `select` then loads by the path found there), or nothing."""
    lib, present = _stand_ins(tmp_path)
    sig = cpu_backend.signature(cpu_backend.variants(lib))
    record = tmp_path / cpu_backend.RECORD
    record.unlink(missing_ok=True)
    record.write_text(json.dumps({"version": 1, "signature": sig, "backend": backend,
                                  "refused": refused}))
    choice = cpu_backend._remembered(record, sig, present)
    if backend in LEVELS:
        assert choice is not None and choice.backend == backend  # a good record is taken
        assert all(isinstance(k, str) and isinstance(v, str) and len(k) <= 40
                   and len(v) <= 200 for k, v in choice.refused.items())
    else:
        assert choice is None


@pytest.mark.parametrize("plant", ["link", "fifo", "huge", "not json", "a list"])
def test_a_record_that_is_not_a_plain_file_of_ours_is_ignored(tmp_path: Path,
                                                                plant: str) -> None:
    lib, present = _stand_ins(tmp_path)
    sig = cpu_backend.signature(cpu_backend.variants(lib))
    good = json.dumps({"version": 1, "signature": sig, "backend": "x64", "refused": {}})
    record = tmp_path / cpu_backend.RECORD
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(good)
    if plant == "link":
        record.symlink_to(elsewhere)
    elif plant == "fifo":
        os.mkfifo(record)  # must not hang the worker
    elif plant == "huge":
        record.write_text(good + " " * (cpu_backend.MAX_RECORD + 1))
    elif plant == "a list":
        record.write_text(json.dumps([good]))
    else:
        record.write_text("{not json")
    assert cpu_backend._remembered(record, sig, present) is None  # tried afresh, not recalled
    cpu_backend._remember(record, sig, cpu_backend.Choice("cpu-dispatch", "sse42"))
    assert elsewhere.read_text() == good  # nothing written through a link
    # a link or a FIFO is left in place (someone planted it: not ours to remove); a bad file
    # of ours is replaced by a good one
    expected = None if plant in ("link", "fifo") else cpu_backend.Choice("cpu-dispatch", "sse42")
    assert cpu_backend._remembered(record, sig, present) == expected


@pytest.mark.timeout(600)
def test_a_record_pointing_outside_the_build_loads_nothing_from_there(tmp_path: Path) -> None:
    """A record naming `d/../../libggml-cpu-evil` made the worker load a library from outside
    the build (the path was made from the record's text). Real build, real model: the record
    is ignored, the levels are tried afresh, and the library outside is never loaded."""
    libs = _real_variants()
    backends = tmp_path / "backends"
    backends.mkdir()
    for lib in libs:
        (backends / lib.name).symlink_to(lib)
    (backends / "libggml-cpu-d").mkdir()
    marker = tmp_path / "evil-was-loaded"
    evil_c = tmp_path / "evil.c"
    evil_c.write_text(EVIL_SOURCE)
    subprocess.run(["gcc", "-shared", "-fPIC", f'-DMARKER="{marker}"', "-o",
                    str(tmp_path / "libggml-cpu-evil.so"), str(evil_c)], check=True,
                   timeout=60)
    state = tmp_path / "state"
    state.mkdir()
    sig = cpu_backend.signature(cpu_backend.variants(backends))
    (state / cpu_backend.RECORD).write_text(json.dumps({
        "version": 1, "signature": sig, "backend": "d/../../libggml-cpu-evil", "refused": {}}))
    choice = _select_in_child(backends, state)
    assert choice["from_record"] is False
    assert choice["backend"] in {cpu_backend.level(p) for p in libs}
    assert not marker.exists()
