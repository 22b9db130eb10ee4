"""The serial simulator: the dev plant's scale as its register sheet says, faults on demand."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest
import serial
from hermes_tools.sim.serial import SerialSim

from hermesd.config import load_config
from tests.tools.serial.harness import SimProcess, plant, scale, write_config

#: the scale of the shared dev plant (shared/data/plant-dev.yaml), exactly as written there
PLANT_DEV_SCALE = """\
node:
  id: boiler-house-1
devices:
  scale1:
    driver: serial
    port: /dev/ttyUSB0
    baudrate: 9600
    timeout: 1s
    points:
      scale1_weight:
        name: Packing scale weight
        query: "W\\r\\n"
        pattern: '(?P<value>[-+]?\\d+(?:\\.\\d+)?)\\s*kg'
        type: float
        unit: kg
        max_age: 10s
"""


def _ask(port: str, request: bytes, baudrate: int = 9600) -> tuple[bytes, float]:
    with serial.Serial(port, baudrate, timeout=2) as s:
        started = time.perf_counter()
        s.write(request)
        line = s.read_until(b"\r\n")
        return line, time.perf_counter() - started


def test_the_dev_plant_scale_answers_as_its_sheet_says(tmp_path: Path) -> None:
    config = tmp_path / "plant-dev.yaml"
    config.write_text(PLANT_DEV_SCALE)
    sim = SimProcess(config, "--link-dir", str(tmp_path / "by-id")).start()
    try:
        assert sim.where["scale1"].startswith(f"scale {tmp_path / 'by-id' / 'scale1'} -> ")
        answer, took = _ask(str(tmp_path / "by-id" / "scale1"), b"W\r\n")
        assert answer == b"ST,GS,+012.34 kg\r\n"
        assert took >= (3 + 18) * 10 / 9600  # the bytes' time on a 9600 baud line, at least
        sim.fail("scale1", "E42")
        assert _ask(str(tmp_path / "by-id" / "scale1"), b"W\r\n")[0] == b"ERR E42\r\n"
        sim.fail("scale1", "off")
        assert _ask(str(tmp_path / "by-id" / "scale1"), b"X\r\n")[0] == b"ES\r\n"
        sim.drop("scale1")
        assert not (tmp_path / "by-id" / "scale1").exists()
        sim.restore("scale1")
        assert _ask(str(tmp_path / "by-id" / "scale1"), b"W\r\n")[0] == b"ST,GS,+012.34 kg\r\n"
    finally:
        sim.stop()
    assert not (tmp_path / "by-id" / "scale1").exists()  # it cleans up after itself


def test_it_never_replaces_a_file_that_is_not_its_link(tmp_path: Path) -> None:
    real = tmp_path / "ttyUSB0"
    real.write_text("not a link")
    config = write_config(tmp_path / "plant.yaml", plant({"scale1": scale(real)}))
    done = subprocess.run([sys.executable, "-m", "hermes_tools.sim.serial", "--config",
                           str(config)], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 1
    assert f"{real} exists and is not a symlink" in done.stderr
    assert real.read_text() == "not a link"


def test_a_device_it_cannot_place_is_named(tmp_path: Path) -> None:
    config = write_config(tmp_path / "plant.yaml", plant({"odd": scale(
        tmp_path / "odd", points={"x": {"query": "READ\r\n", "pattern": "(?P<value>.*)"}})}))
    done = subprocess.run([sys.executable, "-m", "hermes_tools.sim.serial", "--config",
                           str(config)], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert "cannot tell which instrument odd is" in done.stderr and "--kind odd=" in done.stderr


async def _line(fd: int) -> bytes:
    loop = asyncio.get_running_loop()
    data = b""
    while not data.endswith(b"\r\n"):
        ready: asyncio.Future[None] = loop.create_future()
        loop.add_reader(fd, lambda f=ready: f.done() or f.set_result(None))  # type: ignore[misc]
        try:
            async with asyncio.timeout(5):
                await ready
        finally:
            loop.remove_reader(fd)
        data += os.read(fd, 1024)
    return data


async def test_the_shared_simulator_interface(tmp_path: Path) -> None:
    link = tmp_path / "by-id" / "usb-scale1"
    config = write_config(tmp_path / "plant.yaml", plant({"scale1": scale(link)}))
    sim = SerialSim(load_config(config), line_time=False)
    runner = asyncio.create_task(sim.run())
    await asyncio.wait_for(sim.ready.wait(), 5)
    fd = os.open(link, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        tty.setraw(fd)
        os.write(fd, b"W\r\n")
        assert await _line(fd) == b"ST,GS,+012.34 kg\r\n"
        sim.fail("scale1", 7)
        os.write(fd, b"W\r\n")
        assert await _line(fd) == b"ERR 7\r\n"
        sim.fail("scale1", None)
        sim.slow("scale1", 0.2)
        started = time.monotonic()
        os.write(fd, b"W\r\n")
        assert await _line(fd) == b"ST,GS,+012.34 kg\r\n"
        assert time.monotonic() - started >= 0.2
        with pytest.raises(ValueError, match="0 or more"):
            sim.slow("scale1", -1)
        sim.drop("scale1")
        assert not link.exists()
        sim.restore("scale1")
        assert link.is_symlink() and sim.received("scale1") == ["W", "W", "W"]
    finally:
        os.close(fd)
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    assert not link.exists()
