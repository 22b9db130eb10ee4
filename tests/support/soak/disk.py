"""The state directory on a small tmpfs of its own, so the soak can fill it and make it read-only.

Needs root (`mount -t tmpfs`); without it `mount()` says why and the disk faults are skipped.
Full: a filler file takes every free page (`fill`), then goes (`unfill`). Read-only: `mount -o
remount,ro` — which the kernel refuses while any file on it is open for writing, and hermesd
keeps its audit log open for appending, as it must. Then a read-only bind mount of the state
dir over itself is the fallback: every new open, create and rename there fails with EROFS (the
value cache's snapshots, audit rotation), while the already-open audit log keeps its writable
descriptor. `read_only()` says which one it got. Mounts are undone in reverse order, lazily
(`umount -l`) only when a plain unmount is refused; it never touches a mount it did not make.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from pathlib import Path

FILLER = ".soak-filler"
CHUNK = 1024 * 1024


def _mount(*args: str) -> tuple[bool, str]:
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    said = (done.stderr or done.stdout).strip().splitlines()
    return done.returncode == 0, said[0] if said else f"exit {done.returncode}"


class StateDisk:
    def __init__(self, path: Path, size_mib: int) -> None:
        self.path = path
        self.size_mib = size_mib
        self.mounted: list[str] = []  # what we mounted here, in order: "tmpfs", "bind"
        self.read_only_by: str | None = None

    def mount(self) -> str | None:
        """Mount the tmpfs; None when done, else why it cannot be (the disk faults are skipped)."""
        self.path.mkdir(parents=True, exist_ok=True)
        if os.geteuid() != 0:
            return "not root: cannot mount a tmpfs for the state dir (run the soak as root)"
        ok, message = _mount("-t", "tmpfs", "-o", f"size={self.size_mib}m,mode=0750", "tmpfs",
                             str(self.path))
        if not ok:
            return f"mount -t tmpfs failed: {message}"
        self.mounted.append("tmpfs")
        return None

    @property
    def available(self) -> bool:
        return bool(self.mounted)

    def free_bytes(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize

    # -- full ----------------------------------------------------------------------------------

    def fill(self) -> int:
        """Take every free byte with a filler file; returns how many bytes it holds."""
        written = 0
        fd = os.open(self.path / FILLER, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            for size in (CHUNK, 4096, 512):  # big chunks first, then the last partial pages
                block = b"\0" * size
                while True:
                    try:
                        written += os.write(fd, block)
                    except OSError as exc:
                        if exc.errno != errno.ENOSPC:
                            raise
                        break
        finally:
            os.close(fd)
        return written

    def unfill(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.path / FILLER).unlink()

    # -- read-only -----------------------------------------------------------------------------

    def read_only(self) -> str:
        """Make the state dir read-only; returns how (see the module docstring)."""
        ok, message = _mount("-o", "remount,ro", str(self.path))
        if ok:
            self.read_only_by = "remount"
            return "mount -o remount,ro of the tmpfs"
        refused = message
        ok, message = _mount("--bind", str(self.path), str(self.path))
        if not ok:
            raise OSError(f"cannot make {self.path} read-only: remount,ro: {refused}; "
                          f"bind: {message}")
        self.mounted.append("bind")
        ok, message = _mount("-o", "remount,bind,ro", str(self.path))
        if not ok:
            self._umount()
            raise OSError(f"cannot make {self.path} read-only: remount,ro: {refused}; "
                          f"remount,bind,ro: {message}")
        self.read_only_by = "bind"
        return (f"a read-only bind mount over the state dir (remount,ro of the tmpfs was "
                f"refused: {refused.split(': ')[-1]} — hermesd holds its audit log open for "
                "writing; that open descriptor stays writable)")

    def writable(self) -> None:
        if self.read_only_by == "remount":
            ok, message = _mount("-o", "remount,rw", str(self.path))
            if not ok:
                raise OSError(f"remount,rw of {self.path} failed: {message}")
        elif self.read_only_by == "bind":
            self._umount()
        self.read_only_by = None

    # -- the end -------------------------------------------------------------------------------

    def _umount(self) -> str | None:
        """Undo the innermost mount we made; returns a note when it had to be lazy."""
        kind = self.mounted.pop()
        done = subprocess.run(["umount", str(self.path)], capture_output=True, text=True,
                              check=False)
        if done.returncode == 0:
            return None
        lazy = subprocess.run(["umount", "-l", str(self.path)], capture_output=True, text=True,
                              check=False)
        if lazy.returncode != 0:
            self.mounted.append(kind)
            raise OSError(f"umount {self.path} ({kind}) failed: {done.stderr.strip()}; "
                          f"lazily too: {lazy.stderr.strip()}")
        return f"{kind} unmounted lazily: {done.stderr.strip()}"

    def unmount(self) -> list[str]:
        """Undo every mount we made here (innermost first); notes of anything unusual."""
        notes = []
        self.unfill_quietly()
        while self.mounted:
            note = self._umount()
            if note:
                notes.append(note)
        self.read_only_by = None
        return notes

    def unfill_quietly(self) -> None:
        with contextlib.suppress(OSError):
            self.unfill()
