"""The soak's plant: its config, and the processes that serve it — broker, simulators, hermesd.

The config is configs/demo.yaml (the dev plant) pointed at the soak's work directory, a free PLC
port, a pty for the scale and the soak's own broker, plus a leaky `exec` device (the test suite's
fake tool, whose `grow` action holds memory on purpose). `hermes-sim` serves the PLC, the scale
and the yard's MQTT devices, and takes the device faults on its control socket.

hermesd runs as systemd would run it: the unit file's `Environment=`, a real NOTIFY_SOCKET with
WATCHDOG_USEC from its `WatchdogSec=`, and its READY, STATUS and WATCHDOG messages recorded.
Every process is started in its own session, so a Ctrl-C reaches only the soak, which then stops
them in order. Nothing here may touch a real device or a path outside the work directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hermes_tools.sim.control import request as sim_request

from tests.support.mosquitto import Mosquitto
from tests.support.ports import free_port
from tests.support.until import until

log = logging.getLogger("soak")

ROOT = Path(__file__).resolve().parents[3]  # tests/support/soak/plant.py: the repository
DEMO_CONFIG = ROOT / "configs" / "demo.yaml"
DEMO_VALUES = ROOT / "configs" / "demo-values.yaml"
FAKE_TOOL = ROOT / "tests" / "support" / "fake_tool.py"
UNIT_FILE = ROOT / "systemd" / "hermesd.service"
PYTHON = sys.executable

LEAKY = "leaky"  # the exec device, and so the tool, that leaks memory when asked
LEAKY_POINT = "leaky_count"
MEMORY_INTERVAL = "2s"  # the watchdog samples RSS this often (default 5 s): quicker verdicts


def watchdog_seconds() -> float:
    """`WatchdogSec=` of the shipped unit: the soak holds hermesd to what systemd would."""
    match = re.search(r"^WatchdogSec=(\d+)s?\s*$", UNIT_FILE.read_text(), re.MULTILINE)
    return float(match.group(1)) if match else 30.0


def unit_environment() -> dict[str, str]:
    """`Environment=` of the shipped unit (e.g. MALLOC_ARENA_MAX): hermesd runs with it here too."""
    env = {}
    for line in UNIT_FILE.read_text().splitlines():
        if line.startswith("Environment="):
            for item in line.removeprefix("Environment=").split():
                key, sep, value = item.partition("=")
                if sep:
                    env[key] = value.strip('"')
    return env


def soak_config(workdir: Path, *, plc_port: int, broker_port: int, llm: bool | None,
                users: dict[str, str] | None = None) -> dict[str, Any]:
    """The dev plant for the soak (see the module docstring); `llm=None` keeps the demo's;
    `users`: `access.users` (the hostile mix's operator)."""
    config: dict[str, Any] = yaml.safe_load(DEMO_CONFIG.read_text(encoding="utf-8"))
    config["paths"] = {"state_dir": str(workdir / "state"), "runtime_dir": str(workdir / "run")}
    devices = config["devices"]
    devices["plc1"]["port"] = plc_port
    devices["scale1"]["port"] = str(workdir / "dev" / "scale1")
    devices[LEAKY] = {
        "driver": "exec", "command": [PYTHON, str(FAKE_TOOL)], "poll_interval": "2s",
        "points": {LEAKY_POINT: {"name": "Leaky tool counter", "type": "int",
                                 "params": {"value": 7}}},
    }
    config["mqtt"]["port"] = broker_port
    config["mqtt"]["command_role"] = "operator"  # MQTT commands write too
    roles = config["access"]["roles"]
    # the mix writes a few times a second: a rate limit would turn most writes into refusals
    roles["operator"]["writes_per_minute"] = 6000
    roles["engineer"]["writes_per_minute"] = 6000
    if users:
        config["access"]["users"] = dict(users)
    config["memory"] = {"interval": MEMORY_INTERVAL}
    config["metrics"] = {"socket": "metrics.sock"}
    if llm is not None:
        config.setdefault("llm", {})["enabled"] = llm
    return config


# -- child processes ---------------------------------------------------------------------------

@dataclass
class Child:
    name: str
    proc: asyncio.subprocess.Process
    log_path: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    async def stop(self, grace: float = 10.0) -> tuple[int | None, float]:
        """SIGTERM, a bounded wait, then SIGKILL; returns (exit code, seconds it took)."""
        started = time.monotonic()
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(grace):
                    await self.proc.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        return self.proc.returncode, time.monotonic() - started


def _tail(path: Path, chars: int = 2000) -> str:
    return path.read_text(errors="replace")[-chars:] if path.exists() else ""


def _sink(path: Path) -> Any:
    return open(path, "ab")


async def spawn(name: str, argv: list[str], log_path: Path, *, env: dict[str, str] | None = None,
                stdin: int | None = asyncio.subprocess.DEVNULL,
                stdout_pipe: bool = False, line_limit: int = 1 << 16) -> Child:
    with _sink(log_path) as sink:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=stdin,
            stdout=asyncio.subprocess.PIPE if stdout_pipe else sink,
            stderr=sink, env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            start_new_session=True, limit=line_limit)
    return Child(name, proc, log_path)


async def wait_for_line(path: Path, text: str, child: Child, timeout: float) -> None:
    def gone() -> str | None:
        code = child.proc.returncode
        return None if code is None else f"{child.name} exited with {code}:\n{_tail(path)}"
    try:
        await until(lambda: text in _tail(path, 1 << 20), timeout, f"{child.name} to say {text!r}",
                    every=0.05, gone=gone)
    except TimeoutError:
        raise RuntimeError(f"{child.name} did not say {text!r} within {timeout:g} s:\n"
                           f"{_tail(path)}") from None


# -- the simulator ---------------------------------------------------------------------------------

class Simulator:
    """hermes-sim serving every device of the plant; faults through its control socket."""

    def __init__(self, workdir: Path, config_path: Path, config: dict[str, Any], seed: int) -> None:
        self.workdir = workdir
        self.config_path = config_path
        self.config = config
        self.seed = seed
        self.control = workdir / "sim.sock"
        self.child: Child | None = None
        self.served: dict[str, str] = {}  # device -> where hermes-sim serves it

    async def start(self) -> None:
        (self.workdir / "dev").mkdir(exist_ok=True)
        log_path = self.workdir / "hermes-sim.log"
        self.child = await spawn("hermes-sim", [
            PYTHON, "-m", "hermes_tools.sim", "--config", str(self.config_path),
            "--values", str(DEMO_VALUES), "--control", str(self.control),
            "--seed", str(self.seed)], log_path)
        await wait_for_line(log_path, "ready; control socket", self.child, 30.0)
        status = await self.request({"op": "status"})
        self.served = {d: str(info.get("endpoint", "?"))
                       for d, info in status.get("devices", {}).items()}
        wanted = {d for d, dev in self.config["devices"].items() if dev["driver"] != "exec"}
        missing = sorted(wanted - set(self.served))
        if missing:
            raise RuntimeError(f"hermes-sim does not simulate {', '.join(missing)}:\n"
                               f"{_tail(log_path)}")

    async def request(self, req: dict[str, Any]) -> dict[str, Any]:
        answer = await asyncio.to_thread(sim_request, self.control, req)
        if not answer.get("ok"):
            raise RuntimeError(f"hermes-sim ctl {req}: {answer.get('error')}")
        return answer

    async def fault(self, op: str, device: str, mode: str | None = None) -> str:
        """`drop` (silent, refuse, unplug) or `restore` a device; returns the command."""
        req = {"op": op, "device": device, **({"mode": mode} if mode else {})}
        await self.request(req)
        return f"hermes-sim ctl {op} {device}" + (f" --{mode}" if mode and mode != "silent" else "")

    @property
    def pid(self) -> int | None:
        if self.child is None or self.child.proc.returncode is not None:
            return None
        return self.child.pid

    async def stop(self) -> None:
        if self.child is not None:
            await self.child.stop()


# -- hermesd -----------------------------------------------------------------------------------

@dataclass
class Notifications:
    """What hermesd told its (pretend) systemd, with monotonic times."""

    ready_at: float | None = None
    watchdogs: list[float] = field(default_factory=list)
    statuses: list[tuple[float, str]] = field(default_factory=list)
    stopping_at: float | None = None

    def longest_watchdog_gap(self, until: float) -> float | None:
        if self.ready_at is None:
            return None
        marks = [self.ready_at, *self.watchdogs, until]
        return max(b - a for a, b in itertools.pairwise(marks))


class Hermesd:
    def __init__(self, workdir: Path, config_path: Path, watchdog_s: float) -> None:
        self.workdir = workdir
        self.config_path = config_path
        self.watchdog_s = watchdog_s
        self.notify_path = workdir / "notify.sock"
        self.notes = Notifications()
        self.child: Child | None = None
        self.socket_path = workdir / "run" / "control.sock"
        self._sock: socket.socket | None = None

    async def start(self, timeout: float = 60.0) -> None:
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.bind(str(self.notify_path))
        self._sock.setblocking(False)
        asyncio.get_running_loop().add_reader(self._sock.fileno(), self._on_notify)
        self.child = await spawn("hermesd", [
            PYTHON, "-m", "hermesd.main", "--config", str(self.config_path)],
            self.workdir / "hermesd.log",
            env={**unit_environment(), "NOTIFY_SOCKET": str(self.notify_path),
                 "WATCHDOG_USEC": str(int(self.watchdog_s * 1e6))})
        child = self.child

        def gone() -> str | None:
            code = child.proc.returncode
            return None if code is None else f"hermesd exited with {code}:\n{self.log_tail()}"
        try:
            await until(lambda: self.notes.ready_at is not None, timeout, "READY=1",
                        every=0.05, gone=gone)
        except TimeoutError:
            raise RuntimeError(f"hermesd did not send READY=1 within {timeout:g} s:\n"
                               + self.log_tail()) from None

    def _on_notify(self) -> None:
        assert self._sock is not None
        while True:
            try:
                data = self._sock.recv(4096)
            except BlockingIOError:
                return
            now = time.monotonic()
            for line in data.decode(errors="replace").splitlines():
                if line == "READY=1" and self.notes.ready_at is None:
                    self.notes.ready_at = now
                elif line == "WATCHDOG=1":
                    self.notes.watchdogs.append(now)
                elif line == "STOPPING=1":
                    self.notes.stopping_at = now
                elif line.startswith("STATUS="):
                    self.notes.statuses.append((now, line[7:]))
                    del self.notes.statuses[:-200]

    def log_tail(self, chars: int = 3000) -> str:
        return _tail(self.workdir / "hermesd.log", chars)

    @property
    def pid(self) -> int | None:
        if self.child is None or self.child.proc.returncode is not None:
            return None
        return self.child.pid

    async def stop(self) -> tuple[int | None, float] | None:
        """SIGTERM and the time to a clean exit (the contract: exit 0 within 5 s)."""
        result = None
        if self.child is not None:
            result = await self.child.stop(grace=10.0)
        if self._sock is not None:
            asyncio.get_running_loop().remove_reader(self._sock.fileno())
            self._sock.close()
            self._sock = None
        return result


# -- the broker --------------------------------------------------------------------------------

class Broker:
    """The real Mosquitto of the test suite, restarted on the same port for the broker fault.

    `set_tcp_nodelay` as scripts/bench/mqtt.py runs it: without it Nagle's algorithm and delayed
    ACKs add ~40 ms to an MQTT round trip, which would hide hermesd's own latency.
    """

    def __init__(self, workdir: Path) -> None:
        self.mosquitto = Mosquitto(workdir / "broker", port=free_port(),
                                   extra="set_tcp_nodelay true\n")
        self.port = self.mosquitto.port

    @property
    def pid(self) -> int | None:
        proc = self.mosquitto.proc
        return proc.pid if proc is not None and proc.poll() is None else None

    async def start(self) -> None:
        await asyncio.to_thread(self.mosquitto.start)

    async def stop(self) -> None:
        await asyncio.to_thread(self.mosquitto.stop)


def dump(config: dict[str, Any], path: Path) -> None:
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


def describe_config(config: dict[str, Any]) -> dict[str, Any]:
    """What the report says about the plant it ran."""
    return {
        "devices": {d: {"driver": dev["driver"], "points": sorted(dev.get("points", {}))}
                    for d, dev in config["devices"].items()},
        "memory": config.get("memory"), "llm_enabled": config.get("llm", {}).get("enabled", True),
        "mqtt_command_role": config["mqtt"]["command_role"],
        "writes_per_minute": config["access"]["roles"]["operator"].get("writes_per_minute"),
    }
