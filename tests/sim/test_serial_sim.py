"""The serial instruments in `hermes-sim`: the shared simulator interface, point values, faults,
and links that never take a /dev/ path."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import tty
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import serial
import yaml
from hermes_tools.sim import SIMULATORS, build, simulator_class
from hermes_tools.sim.serial import SerialSimulator

from hermesd.config import load_config
from tests.support.sim import SimRunner

SCALE_PATTERN = r"(?P<value>[-+]?\d+(?:\.\d+)?)\s*kg"


def _config(tmp: Path, devices: dict[str, Any]) -> Path:
    path = tmp / "plant.yaml"
    path.write_text(yaml.safe_dump({
        "node": {"id": "n"}, "llm": {"enabled": False},
        "paths": {"state_dir": str(tmp / "state"), "runtime_dir": str(tmp / "run")},
        "devices": devices}, allow_unicode=True), encoding="utf-8")
    return path


def _scale(port: str | Path, point: str = "scale1_weight") -> dict[str, Any]:
    return {"driver": "serial", "port": str(port), "baudrate": 9600, "points": {
        point: {"name": point.replace("_", " "), "query": "W\r\n",
                          "pattern": SCALE_PATTERN, "type": "float", "unit": "kg"}}}


def _controller(port: str | Path) -> dict[str, Any]:
    return {"driver": "serial", "port": str(port), "points": {
        "oven_pv": {"query": "PV?\r\n", "pattern": r"PV=(?P<value>[-+0-9.]+)"},
        "oven_sp": {"query": "SP?\r\n", "pattern": r"SP=(?P<value>[-+0-9.]+)",
                    "command": "SP={value}\r\n", "writable": True, "min": 0, "max": 200}}}


class Line:
    """The other end of a simulated instrument's pty, opened as hermesd's tool opens it."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)

    async def ask(self, request: bytes, timeout: float = 5.0) -> bytes:
        os.write(self.fd, request)
        return await self.line(timeout)

    async def line(self, timeout: float = 5.0) -> bytes:
        loop = asyncio.get_running_loop()
        data = b""
        async with asyncio.timeout(timeout):
            while not data.endswith(b"\r\n"):
                readable: asyncio.Future[None] = loop.create_future()
                loop.add_reader(self.fd, lambda f=readable: f.done() or f.set_result(None))  # type: ignore[misc]
                try:
                    await readable
                finally:
                    loop.remove_reader(self.fd)
                data += os.read(self.fd, 1024)
        return data

    def close(self) -> None:
        os.close(self.fd)


async def _running(sim: SerialSimulator) -> asyncio.Task[None]:
    task = asyncio.create_task(sim.run(), name="serial-sim")
    async with asyncio.timeout(5):
        await sim.ready.wait()
    return task


@pytest.fixture
async def scale_sim(tmp_path: Path) -> AsyncIterator[tuple[SerialSimulator, Path]]:
    link = tmp_path / "dev" / "scale1"
    config = load_config(_config(tmp_path, {"scale1": _scale(link)}))
    sim = SerialSimulator(config, list(config.devices.values()), {"scale1_weight": 8.5},
                          line_time=False)
    task = await _running(sim)
    try:
        yield sim, link
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert not link.exists() and not link.is_symlink()  # unplugged on the way out


def test_serial_is_registered_with_hermes_sim() -> None:
    assert SIMULATORS["serial"] == "hermes_tools.sim.serial:SerialSimulator"
    assert simulator_class("serial") is SerialSimulator


async def test_values_get_and_set_speak_in_the_points_values(
        scale_sim: tuple[SerialSimulator, Path]) -> None:
    sim, link = scale_sim
    line = Line(link)
    try:
        assert await line.ask(b"W\r\n") == b"ST,GS,+008.50 kg\r\n"  # the values file's 8.5 kg
        assert await sim.get("scale1_weight") == {"point": "scale1_weight", "value": 8.5}
        assert await sim.set("scale1_weight", 20) == {"point": "scale1_weight", "value": 20.0}
        assert await line.ask(b"W\r\n") == b"ST,GS,+020.00 kg\r\n"
        assert await line.ask(b"T\r\n") == b"OK\r\n"  # a tare is a write
        assert sim.status()["scale1"]["requests"] == {"read": 2, "write": 1}
    finally:
        line.close()
    with pytest.raises(KeyError, match="no simulated serial point 'nope'"):
        await sim.get("nope")
    with pytest.raises(ValueError, match="could not convert"):
        await sim.set("scale1_weight", "heavy")


async def test_drop_silent_unplug_and_restore(scale_sim: tuple[SerialSimulator, Path]) -> None:
    sim, link = scale_sim
    line = Line(link)
    try:
        assert await sim.drop("scale1") == {"device": "scale1", "dropped": "silent"}
        assert link.is_symlink()  # still plugged in, saying nothing
        with pytest.raises(TimeoutError):
            await line.ask(b"W\r\n", timeout=0.5)
        assert sim.status()["scale1"]["dropped"] == "silent"
        assert sim.status()["scale1"]["requests"]["read"] == 1  # heard, not answered
        await sim.restore("scale1")
        assert await line.ask(b"W\r\n") == b"ST,GS,+008.50 kg\r\n"
    finally:
        line.close()
    assert await sim.drop("scale1", "unplug") == {"device": "scale1", "dropped": "unplug"}
    assert not link.exists() and sim.status()["scale1"]["endpoint"].endswith("(unplugged)")
    with pytest.raises(ValueError, match=r"drop mode 'sideways' is not silent\|unplug"):
        await sim.drop("scale1", "sideways")
    await sim.restore("scale1")  # a new pty behind the same link, as udev does
    line = Line(link)
    try:
        assert await line.ask(b"W\r\n") == b"ST,GS,+008.50 kg\r\n"
    finally:
        line.close()
    assert sim.status()["scale1"]["dropped"] is False


async def test_fail_and_slow(scale_sim: tuple[SerialSimulator, Path]) -> None:
    sim, link = scale_sim
    line = Line(link)
    try:
        assert await sim.fail("scale1", 7) == {"device": "scale1", "fail": "7"}
        assert await line.ask(b"W\r\n") == b"ERR 7\r\n"
        assert await sim.fail("scale1", 0) == {"device": "scale1", "fail": None}
        await sim.slow("scale1", 0.3)
        started = time.monotonic()
        assert await line.ask(b"W\r\n") == b"ST,GS,+008.50 kg\r\n"
        assert time.monotonic() - started >= 0.3
        await sim.restore("scale1")
        assert sim.status()["scale1"]["delay_s"] == 0
    finally:
        line.close()
    with pytest.raises(ValueError, match=r"seconds must be 0\.\.600"):
        await sim.slow("scale1", -1)
    with pytest.raises(ValueError, match="no register tables"):
        await sim.fail("scale1", 2, table="holding")
    with pytest.raises(KeyError, match="no serial device 'scale9'"):
        await sim.drop("scale9")


async def test_a_point_the_instrument_does_not_measure_is_not_set(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, {"oven": _controller(tmp_path / "oven")}))
    sim = SerialSimulator(config, list(config.devices.values()), line_time=False)
    assert await sim.get("oven_sp") == {"point": "oven_sp", "value": 50.0}
    assert await sim.set("oven_pv", 120.5) == {"point": "oven_pv", "value": 120.5}
    with pytest.raises(ValueError, match="oven_sp is not what the simulated controller measures"):
        await sim.set("oven_sp", 80)
    assert await sim.get("oven_pv") == {"point": "oven_pv", "value": 120.5}  # left as it was


def test_dev_paths_and_unknown_instruments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "xdg"))
    odd = {"driver": "serial", "port": str(tmp_path / "odd"), "points": {
        "x": {"query": "READ\r\n", "pattern": "(?P<value>.*)"}}}
    regular = tmp_path / "ttyS9"
    regular.write_text("not a link")
    config = load_config(_config(tmp_path, {"scale1": _scale("/dev/ttyUSB0"), "odd": odd,
                                            "scale2": _scale(regular, "scale2_weight")}))
    sims, missing = build(config)
    assert missing == [] and [s.driver for s in sims] == ["serial"]
    sim = sims[0]
    assert isinstance(sim, SerialSimulator)
    spare = tmp_path / "xdg" / f"hermes-sim-{os.getuid()}-ports"
    status = sim.status()
    assert sorted(status) == ["scale1", "scale2"]
    assert status["scale1"]["linked"] == str(spare / "scale1")
    assert status["scale1"]["endpoint"].endswith(
        f"(configured /dev/ttyUSB0: point its port at {spare / 'scale1'})")
    assert status["scale2"]["linked"] == str(spare / "scale2")  # never over a real file
    assert "its points do not say which instrument it is" in sim.not_simulated["odd"]
    assert regular.read_text() == "not a link"


def _ctl(control: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hermes_tools.sim", "ctl", "--control",
                           str(control), *args], capture_output=True, text=True, timeout=20,
                          check=False)


def _ask(path: Path, request: bytes) -> bytes:
    with serial.Serial(str(path), 9600, timeout=2) as port:
        port.write(request)
        return bytes(port.read_until(b"\r\n"))


def test_hermes_sim_serves_the_scale_and_ctl_drops_it(sim_runner: SimRunner,
                                                      tmp_path: Path) -> None:
    link = tmp_path / "dev" / "scale1"
    sim = sim_runner.start(_config(tmp_path, {"scale1": _scale(link)}), "--values",
                           str(_values(tmp_path, {"scale1_weight": 3.25})))
    tty_path = os.readlink(link)
    assert f"scale1 (serial) pty {link} -> {tty_path}\n" in sim.output
    assert _ask(link, b"W\r\n") == b"ST,GS,+003.25 kg\r\n"
    done = _ctl(sim.control, "drop", "scale1")
    assert done.returncode == 0 and done.stdout.strip() == 'device="scale1" dropped="silent"'
    assert "faults: dropped" in _ctl(sim.control, "status").stdout
    assert _ask(link, b"W\r\n") == b""  # silence: the read times out
    assert _ctl(sim.control, "drop", "scale1", "--unplug").returncode == 0
    assert not link.exists()
    assert _ctl(sim.control, "restore", "scale1").returncode == 0
    assert _ctl(sim.control, "set", "scale1_weight", "4.5").stdout.strip() == \
        'point="scale1_weight" value=4.5'
    assert _ask(link, b"W\r\n") == b"ST,GS,+004.50 kg\r\n"
    assert _ctl(sim.control, "fail", "scale1", "E42").returncode == 0
    assert _ask(link, b"W\r\n") == b"ERR E42\r\n"
    done = _ctl(sim.control, "set", "scale1_weight", '"heavy"')
    assert done.returncode == 1 and "could not convert" in done.stderr
    assert sim.terminate() == 0
    assert not link.exists() and not link.is_symlink()


def test_a_value_no_point_can_show_is_a_clear_error(tmp_path: Path) -> None:
    config = _config(tmp_path, {"scale1": _scale(tmp_path / "scale1")})
    done = subprocess.run([sys.executable, "-m", "hermes_tools.sim", "--config", str(config),
                           "--control", str(tmp_path / "s.sock"), "--values",
                           str(_values(tmp_path, {"scale1_weight": "heavy"}))],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 78
    assert "hermes-sim: scale1_weight: could not convert string to float: 'heavy'" in done.stderr
    assert "Traceback" not in done.stderr


def _values(tmp: Path, values: dict[str, Any]) -> Path:
    path = tmp / "values.yaml"
    path.write_text(yaml.safe_dump(values), encoding="utf-8")
    return path
