"""The systemd notifier in process: the watchdog interval it derives, and sends that never block."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from hermesd.sdnotify import Notifier


def test_the_watchdog_is_pinged_at_half_the_interval_systemd_asks_for() -> None:
    assert Notifier({"WATCHDOG_USEC": "1000000"}).watchdog_interval() == 0.5
    assert Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid())}
                    ).watchdog_interval() == 0.5
    # asked of another process (a parent that exec'd us), or not at all, or nonsense: no pings
    assert Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}).watchdog_interval() is None
    assert Notifier({}).watchdog_interval() is None
    assert Notifier({"WATCHDOG_USEC": "soon"}).watchdog_interval() is None


def test_a_full_notify_queue_fails_the_send_instead_of_blocking(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:  # bound, never read
        listener.bind(str(path))
        notifier = Notifier({"NOTIFY_SOCKET": str(path)})
        sent = 0
        while notifier.send("WATCHDOG=1"):  # a blocking send would hang here (test timeout)
            sent += 1
        assert sent > 0  # the queue took some, then was full
        assert not notifier.send("WATCHDOG=1")
        notifier.close()
    warned = [r.getMessage() for r in caplog.records if "cannot notify systemd" in r.getMessage()]
    assert len(warned) == 1 and warned[0].startswith(f"cannot notify systemd at {path}: "), warned
