"""hermesctl when its answer cannot be written: one clear line on stderr and exit 74, never a
traceback (`hermesctl read X > /dev/full` ended in OSError), and never a silent success (a
closed stdout dropped the answer and exited 0). A reader that leaves early (`| head`) is no
failure: that is in test_ctl.py."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("ctl-out"))
    config = base_config({"dev": fake_device({
        "tank_level": {"name": "Feed water tank level", "type": "float", "unit": "%",
                       "params": {"value": 73.4}},
        "pump_speed": {"name": "Feed pump speed", "type": "int", "unit": "rpm", "writable": True,
                       "min": 0, "max": 1500, "params": {"value": 1200}},
    })})
    try:
        yield runner.start(config)
    finally:
        runner.cleanup()


#: every command whose answer goes to stdout (a refusal without --json goes to stderr)
COMMANDS = [["read", "tank_level"], ["--json", "read", "tank_level"],
            ["--json", "read", "no_such_point"], ["status"], ["--json", "status"], ["points"],
            ["tools"], ["ask", "what is the tank level"], ["--role", "operator", "--dry-run",
                                                           "write", "pump_speed", "900"],
            ["--role", "engineer", "call", "dev.echo", "{}"]]


def _ctl_with(daemon: RunningDaemon | None, args: list[str], *, stdout: Any,
              stderr: Any = subprocess.PIPE, stdin: bytes | None = None,
              socket_path: str | None = None) -> subprocess.CompletedProcess[bytes]:
    where = socket_path or str(daemon.socket)  # type: ignore[union-attr]
    return subprocess.run([sys.executable, "-m", "hermesd.ctl", "--socket", where, *args],
                          stdout=stdout, stderr=stderr, input=stdin, timeout=30, check=False)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_an_answer_stdout_cannot_take_is_a_message_and_exit_74(daemon: RunningDaemon,
                                                               args: list[str]) -> None:
    """`hermesctl read X > /dev/full` ended in OSError: now one line on stderr, exit 74."""
    with open("/dev/full", "wb") as full:
        done = _ctl_with(daemon, args, stdout=full)
    assert done.returncode == 74, done.stderr
    [line] = done.stderr.decode().splitlines()
    assert line.startswith("hermesctl: cannot write the answer (status ")
    assert line.endswith("to stdout: No space left on device")


def _close_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("args", COMMANDS[:4], ids=" ".join)
def test_a_closed_stdout_is_not_a_silent_success(daemon: RunningDaemon, args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "hermesd.ctl", "--socket",
                           str(daemon.socket), *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=30, check=False,
                          preexec_fn=_close_stdout)
    assert done.returncode == 74
    assert done.stderr.decode().strip().endswith("to stdout: stdout is closed")


@pytest.mark.parametrize("args", COMMANDS[:3], ids=" ".join)
def test_with_stderr_gone_too_it_still_ends_quietly(daemon: RunningDaemon, args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = _ctl_with(daemon, args, stdout=full, stderr=full)
    assert done.returncode == 74


def test_unreachable_with_json_into_a_full_stdout(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = _ctl_with(None, ["--json", "status"], stdout=full,
                         socket_path=str(tmp_path / "nothing.sock"))
    assert done.returncode == 74 and b"Traceback" not in done.stderr


def test_the_prompt_stops_when_stdout_cannot_take_an_answer(daemon: RunningDaemon) -> None:
    with open("/dev/full", "wb") as full:
        done = _ctl_with(daemon, ["ask"], stdout=full,
                         stdin=b"what is the tank level\nhello\n" * 200)
    assert done.returncode == 74
    assert done.stderr.decode().count("cannot write the answer") == 1
