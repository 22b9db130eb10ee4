"""Run hermesd as a real process for a test: config in a temp dir, a real NOTIFY_SOCKET.

`DaemonRunner.start()` returns a `RunningDaemon` once READY=1 arrives on the notify socket (a
condition, not a sleep). Tests talk to it with `ctl(...)` (the real hermesctl) or `request(...)`
(the control socket directly), and stop it with `terminate()` (SIGTERM, checked exit 0).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from hermesd.control.client import request_once
from tests.support.until import until_sync

FAKE_TOOL = Path(__file__).with_name("fake_tool.py")


def fake_device(points: dict[str, Any], *, poll_interval: str | None = None,
                timeout: str | None = None) -> dict[str, Any]:
    dev: dict[str, Any] = {"driver": "exec", "command": [sys.executable, str(FAKE_TOOL)],
                           "points": points}
    if poll_interval:
        dev["poll_interval"] = poll_interval
    if timeout:
        dev["timeout"] = timeout
    return dev


def base_config(devices: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "node": {"id": "test-node", "name": "Test gateway"},
        "access": {"default_role": "viewer", "roles": {
            "viewer": {"read": True, "write": False},
            "operator": {"read": True, "write": True},
            "engineer": {"read": True, "write": True, "raw_read": True, "raw_write": True},
        }},
        "llm": {"enabled": False},
        "devices": devices if devices is not None else {},
    }
    config.update(extra)
    return config


class NotifyListener:
    """A real sd_notify datagram socket, as systemd would offer it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.messages: list[str] = []

    def wait_for(self, predicate: Callable[[str], bool], timeout: float = 20.0) -> str:
        for msg in self.messages:
            if predicate(msg):
                return msg
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching notify message; got {self.messages}")
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            msg = data.decode()
            self.messages.append(msg)
            if predicate(msg):
                return msg

    def drain(self) -> list[str]:
        self.sock.settimeout(0)
        try:
            while True:
                self.messages.append(self.sock.recv(4096).decode())
        except (BlockingIOError, TimeoutError):
            pass
        return self.messages

    def close(self) -> None:
        self.sock.close()


class RunningDaemon:
    def __init__(self, proc: subprocess.Popen[bytes], notify: NotifyListener, socket_path: Path,
                 config_path: Path, log_path: Path, state_dir: Path) -> None:
        self.proc = proc
        self.notify = notify
        self.socket = socket_path
        self.config_path = config_path
        self.log_path = log_path
        self.state_dir = state_dir

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def ctl(self, *args: str, timeout: float = 30.0, input: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hermesd.ctl", "--socket", str(self.socket), *args],
            capture_output=True, text=True, timeout=timeout, input=input,
            env={**os.environ, **(env or {})}, check=False)

    def ctl_json(self, *args: str, **kw: Any) -> tuple[int, dict[str, Any]]:
        done = self.ctl("--json", *args, **kw)
        lines = done.stdout.strip().splitlines()
        assert len(lines) == 1, f"expected one JSON line, got {done.stdout!r} / {done.stderr!r}"
        return done.returncode, json.loads(lines[0])

    def request(self, obj: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """One request on a connection of its own (the package's client), its checked answer."""
        return request_once(self.socket, obj, timeout)

    def wait_until(self, condition: Callable[[], Any], timeout: float = 15.0,
                   what: str = "condition") -> Any:
        """`until_sync`, given up at once if hermesd exits meanwhile."""
        def gone() -> str | None:
            if self.proc.poll() is None:
                return None
            return f"hermesd exited with {self.proc.returncode}:\n{self.log}"
        return until_sync(condition, timeout, what, every=0.05, gone=gone)

    def audit_records(self) -> list[dict[str, Any]]:
        """Every audit record of what was done so far, once it has reached the disk.

        Reads are group-committed, so a record may land a moment after its answer; records are
        written in order, so once a marker request made now is on disk, so is all before it.
        """
        path = self.state_dir / "audit.jsonl"
        marker = self.request({"op": "ask", "text": "hello"})["trace_id"]

        def written() -> str:
            """The whole lines on disk: a line being appended as we read is not one yet."""
            text = path.read_text() if path.exists() else ""
            return text[:text.rfind("\n") + 1]

        self.wait_until(lambda: marker in written(), what="the audit log to catch up")
        return [json.loads(line) for line in written().splitlines() if line.strip()]

    def status(self) -> dict[str, Any]:
        return dict(self.request({"op": "status"})["result"])

    def tool_pid(self, tool: str) -> int | None:
        pid = self.status()["tools"][tool]["pid"]
        return int(pid) if pid else None

    def running_tool_pid(self, tool: str, not_pid: int | None = None) -> int:
        def check() -> int | None:
            t = self.status()["tools"][tool]
            if t["state"] == "running" and t["pid"] and t["pid"] != not_pid:
                return int(t["pid"])
            return None
        return int(self.wait_until(check, what=f"tool {tool} running"))

    def terminate(self, timeout: float = 5.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)


class DaemonRunner:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.runtime = Path(tempfile.mkdtemp(prefix="hd", dir="/tmp"))  # short: AF_UNIX limit
        self.daemons: list[RunningDaemon] = []

    def write_config(self, config: dict[str, Any] | str, name: str = "hermesd.yaml") -> Path:
        path = self.tmp / name
        if isinstance(config, dict):
            config = dict(config)
            config.setdefault("paths", {"state_dir": str(self.tmp / "state"),
                                        "runtime_dir": str(self.runtime / "run")})
            text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True)
        else:
            text = config
        path.write_text(text, encoding="utf-8")
        return path

    def start(self, config: dict[str, Any] | Path, *, env: dict[str, str] | None = None,
              wait_ready: bool = True, ready_timeout: float = 30.0) -> RunningDaemon:
        config_path = config if isinstance(config, Path) else self.write_config(config)
        notify_path = self.runtime / f"notify{len(self.daemons)}"
        notify = NotifyListener(notify_path)
        log_path = self.tmp / f"hermesd{len(self.daemons)}.log"
        full_env = {**os.environ, "NOTIFY_SOCKET": str(notify_path), **(env or {})}
        full_env.pop("HERMESD_SOCKET", None)
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "hermesd.main", "--config", str(config_path),
                 "--log-level", "debug"],
                stdout=log, stderr=subprocess.STDOUT, env=full_env)
        from hermesd.config import load_config
        try:
            loaded = load_config(config_path)
        except BaseException:  # a config the test made wrong: nothing of this start is left
            # behind (a daemon never waited for had outlived its test, and failed a later one)
            proc.kill()
            proc.wait(timeout=10)
            notify.close()
            raise
        daemon = RunningDaemon(proc, notify, loaded.paths.runtime_dir / "control.sock",
                               config_path, log_path, loaded.paths.state_dir)
        self.daemons.append(daemon)
        if wait_ready:
            try:
                notify.wait_for(lambda m: "READY=1" in m.split("\n"), timeout=ready_timeout)
            except TimeoutError:
                raise RuntimeError(f"hermesd did not become ready:\n{daemon.log}") from None
        return daemon

    def cleanup(self) -> None:
        for daemon in self.daemons:
            daemon.kill()
            daemon.notify.close()
        shutil.rmtree(self.runtime, ignore_errors=True)
