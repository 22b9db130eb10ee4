"""State files: never written through a link, temp files exclusive, dirs ours and not loose."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermesd.core.errors import ConfigError
from hermesd.core.statefiles import (
    UnsafeStateFile,
    open_state,
    prepare_dir,
    read_state,
    remove_stale_temps,
    write_atomic,
)


def test_write_atomic_replaces_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert os.listdir(tmp_path) == ["f.json"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.parametrize("kind", ["file", "dangling", "dir"])
def test_a_link_in_place_of_a_state_file_is_refused_not_followed(tmp_path: Path,
                                                                   kind: str) -> None:
    victim = tmp_path / "victim"
    if kind == "file":
        victim.write_bytes(b"precious")
    elif kind == "dir":
        victim.mkdir()
    target = tmp_path / "state.json"
    target.symlink_to(victim)
    with pytest.raises(UnsafeStateFile, match="symbolic link"):
        write_atomic(target, b"evil")
    with pytest.raises(UnsafeStateFile, match="symbolic link"):
        read_state(target)
    with pytest.raises(UnsafeStateFile, match="symbolic link"):
        open_state(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    assert target.is_symlink()
    if kind == "file":
        assert victim.read_bytes() == b"precious"
    else:
        assert not victim.is_file()
    assert sorted(os.listdir(tmp_path)) == sorted(["state.json"] + (["victim"] if kind != "dangling"
                                                                    else []))


def test_a_fifo_or_a_dir_in_place_of_a_state_file_is_refused_without_hanging(
        tmp_path: Path) -> None:
    fifo = tmp_path / "audit.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeStateFile):
        open_state(fifo, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    with pytest.raises(UnsafeStateFile, match="not a regular file"):
        read_state(fifo)
    with pytest.raises(UnsafeStateFile, match="not a regular file"):
        write_atomic(fifo, b"x")
    with pytest.raises(IsADirectoryError):
        open_state(tmp_path, os.O_WRONLY)


def test_the_old_fixed_temp_name_cannot_redirect_a_snapshot(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / ".lkv.json.tmp").symlink_to(victim)  # where the temp file used to be
    write_atomic(tmp_path / "lkv.json", b"{}")
    assert victim.read_bytes() == b"precious"
    assert remove_stale_temps(tmp_path / "lkv.json") == [".lkv.json.tmp"]
    assert victim.read_bytes() == b"precious"  # the link itself went, not what it named


def test_stale_temps_of_gone_processes_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    target = tmp_path / "lkv.json"
    gone = tmp_path / ".lkv.json.999999999.abcd1234.tmp"  # beyond pid_max: no such process
    mine = tmp_path / f".lkv.json.{os.getpid()}.abcd1234.tmp"
    other = tmp_path / ".outbox.json.999999999.abcd1234.tmp"
    for p in (gone, mine, other):
        p.write_bytes(b"partial")
    assert remove_stale_temps(target) == [gone.name]
    assert mine.exists() and other.exists()


def test_prepare_dir_creates_a_private_dir(tmp_path: Path) -> None:
    path = tmp_path / "a" / "state"
    old = os.umask(0)
    try:
        prepare_dir(path, "paths.state_dir")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o750


@pytest.mark.parametrize(("mode", "loose"), [(0o770, "group"), (0o757, "others"),
                                             (0o1777, "group and others")])
def test_prepare_dir_refuses_a_dir_others_can_write(tmp_path: Path, mode: int, loose: str) -> None:
    path = tmp_path / "state"
    path.mkdir()
    path.chmod(mode)
    with pytest.raises(ConfigError) as info:
        prepare_dir(path, "paths.state_dir")
    [(key, message)] = info.value.problems
    assert key == "paths.state_dir"
    assert f"writable by {loose}" in message and "chmod go-w" in message
    assert stat.S_IMODE(path.stat().st_mode) == mode  # refused, not "fixed"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mode=st.integers(0o500, 0o777).map(lambda m: m & ~0o022 | 0o700))
def test_prepare_dir_never_changes_the_mode_of_a_dir_it_did_not_create(tmp_path: Path,
                                                                       mode: int) -> None:
    """Any existing dir nobody else can write into is taken as it is: a `runtime_dir: /run`
    or a shared 0755 data dir by mistake must not lock everyone else out of it."""
    path = tmp_path / f"dir-{mode:o}"
    path.mkdir(exist_ok=True)
    path.chmod(mode)
    prepare_dir(path, "paths.runtime_dir")
    assert stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a dir to another user needs root")
def test_prepare_dir_refuses_a_dir_of_another_user(tmp_path: Path) -> None:
    path = tmp_path / "state"
    path.mkdir(mode=0o750)
    os.chown(path, 65534, 65534)
    with pytest.raises(ConfigError) as info:
        prepare_dir(path, "paths.state_dir")
    [(key, message)] = info.value.problems
    assert key == "paths.state_dir" and "belongs to uid 65534" in message


def test_prepare_dir_refuses_a_file(tmp_path: Path) -> None:
    path = tmp_path / "state"
    path.write_text("")
    with pytest.raises(ConfigError, match="not a directory"):
        prepare_dir(path, "paths.state_dir")
