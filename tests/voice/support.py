"""Helpers of the voice tests: the voice part of `status`, waiting for outcomes, feeding a FIFO."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any

from tests.support.daemon import RunningDaemon


def voice_status(d: RunningDaemon) -> dict[str, Any]:
    return dict(d.status()["voice"])


def wait_outcomes(d: RunningDaemon, count: int, timeout: float = 90.0) -> list[dict[str, Any]]:
    """The first `count` utterances the loop handled (waits for them)."""
    def done() -> list[dict[str, Any]] | None:
        v = voice_status(d)
        return v["recent"] if len(v["recent"]) >= count and v["state"] != "transcribing" \
            else None
    return list(d.wait_until(done, timeout=timeout, what=f"{count} utterances handled"))


def wait_state(d: RunningDaemon, state: str, timeout: float = 60.0) -> dict[str, Any]:
    return dict(d.wait_until(lambda: (v := voice_status(d))["state"] == state and v,
                             timeout=timeout, what=f"voice state {state}"))


def feed_fifo(fifo: Path, wav: Path, timeout: float = 60.0, *, refused: bool = False) -> None:
    """Write one WAV stream into the daemon's input FIFO (returns when it has been read).

    With `refused`, the daemon is expected to close the FIFO on the bad stream, which the
    writer sees as a broken pipe.
    """
    done = subprocess.run(["dd", f"if={wav}", f"of={fifo}", "bs=64k", "status=none"],
                          timeout=timeout, check=False)
    assert done.returncode == 0 or (refused and done.returncode == -signal.SIGPIPE), done


def voice_audit(d: RunningDaemon) -> list[dict[str, Any]]:
    """The voice records of the audit log, once everything done so far has reached it."""
    return [r for r in d.audit_records() if r.get("source") == "voice"]
