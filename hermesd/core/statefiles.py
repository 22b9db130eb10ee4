"""Files hermesd keeps on its state disk, opened so that nobody can redirect a write of ours.

Every state file (the audit log and trail, the value cache, the MQTT retained-topic record and
outbox, model stamps) is opened with `O_NOFOLLOW` and must be a regular file: a symbolic link,
a FIFO or a device planted in its place is refused with `UnsafeStateFile` (an `OSError`, so the
callers' "cannot write" paths log it and go on). A snapshot is written to a temp file created
with `O_EXCL` under a name unique to this process and attempt, and replaces its file only when
that is a regular file too (a rename never follows a link, and a link is not silently replaced
either). Temp files left by a process that is gone are removed.

At start the state and runtime dirs must belong to hermesd's user and must not be writable by
group or others (`prepare_dir`): a dir someone else can write into is refused as a config error
(exit 78), never "fixed", because what was planted in it may already be there. The mode of a dir
hermesd did not create is never changed (a `runtime_dir: /run` by mistake must not lock
everyone else out of it). Nothing here ever follows a link to write.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pwd
import re
import secrets
import stat
from pathlib import Path

from hermesd.core.errors import ConfigError


class UnsafeStateFile(OSError):
    """A state file that is not a plain file (a symbolic link, a FIFO, a device): refused."""

    def __init__(self, path: Path | str, why: str) -> None:
        super().__init__(errno.ELOOP, f"refused: {why}, not a plain file of hermesd's", str(path))


def open_state(path: Path, flags: int, mode: int = 0o640) -> int:
    """`os.open` for a state file: never through a link, never anything but a regular file."""
    try:
        # O_NONBLOCK: a FIFO planted here must not hang the open; cleared once it is a file
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeStateFile(path, "it is a symbolic link") from None
        if exc.errno == errno.ENXIO:  # a FIFO without a reader, or a socket
            raise UnsafeStateFile(path, "it is a FIFO or a socket") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafeStateFile(path, "it is not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_state(path: Path) -> bytes:
    """The whole content of a state file; FileNotFoundError when there is none."""
    fd = open_state(path, os.O_RDONLY)
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def _temp_pattern(path: Path) -> re.Pattern[str]:
    return re.compile(rf"^\.{re.escape(path.name)}(?:\.(\d+)\.[0-9a-f]+)?\.tmp$")


def write_atomic(path: Path, data: bytes, mode: int = 0o640) -> None:
    """Replace `path` with `data` so that a crash leaves the old or the new file, whole."""
    tmp = _temp_name(path)
    fd = open_state(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        _check_replaceable(path)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def _check_replaceable(path: Path) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeStateFile(path, "it is a symbolic link")
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeStateFile(path, "it is not a regular file")


def fsync_dir(directory: Path) -> None:
    """Make a create, rename or unlink in `directory` durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_stale_temps(path: Path) -> list[str]:
    """Remove temp files of `path` left by processes that are gone; returns their names."""
    pattern = _temp_pattern(path)
    removed: list[str] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    for name in names:
        match = pattern.match(name)
        if match is None:
            continue
        pid = int(match.group(1)) if match.group(1) else None
        if pid is not None and _alive(pid):
            continue  # a snapshot being written right now
        with contextlib.suppress(OSError):
            os.unlink(path.parent / name)  # unlink removes a link itself, never its target
            removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def prepare_dir(path: Path, key: str, mode: int = 0o750) -> None:
    """Create `path` (mode `mode`) or check it: ours, and writable by nobody else.

    A dir hermesd creates gets `mode`. An existing dir must belong to hermesd's user and must not
    be group- or world-writable; else a `ConfigError` naming `key` (exit 78). An existing dir
    that passes is left as it is: its mode is its owner's choice (a 0755 dir others read from
    stays 0755), never changed by us.
    """
    created = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(path, mode)
        created = True
    except FileExistsError:
        pass
    except OSError as exc:
        raise ConfigError([(key, f"cannot create {path}: {exc.strerror or exc}")]) from None
    try:
        st = os.stat(path)  # follows: an administrator may link the dir to a data partition
    except OSError as exc:
        raise ConfigError([(key, f"cannot use {path}: {exc.strerror or exc}")]) from None
    if not stat.S_ISDIR(st.st_mode):
        raise ConfigError([(key, f"{path} is not a directory")])
    me = os.geteuid()
    if st.st_uid != me:
        raise ConfigError([(key, f"{path} belongs to {_user(st.st_uid)}, not to hermesd's user "
                                 f"{_user(me)}: chown it to that user, or choose another "
                                 "directory")])
    current = stat.S_IMODE(st.st_mode)
    if created:
        os.chmod(path, mode)  # the umask may have taken less away than we want
        return
    loose = current & 0o022
    if loose:
        who = " and ".join(w for w, bit in (("group", 0o020), ("others", 0o002)) if loose & bit)
        raise ConfigError([(key, f"{path} is writable by {who} (mode {current:04o}): anyone "
                                 "there could plant a link hermesd would write through; "
                                 f"chmod go-w it (hermesd wants {mode:04o})")])


def _user(uid: int) -> str:
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except KeyError:
        return f"uid {uid}"
