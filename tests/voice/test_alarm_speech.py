"""Alarms said by the voice loop when it speaks: one answer file for the raising, one for the
clearing (espeak-ng for real), nothing for the acknowledgement."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.daemon import DaemonRunner, base_config, fake_device


@pytest.mark.timeout(120)
def test_an_alarm_raised_and_cleared_is_said(daemon_runner: DaemonRunner, whisper_model: Path,
                                             tmp_path: Path) -> None:
    spoken = tmp_path / "spoken"
    config = base_config({"boiler": fake_device({
        "temp": {"name": "Boiler 3 temperature", "type": "float", "writable": True, "min": 0,
                 "max": 1000, "unit": "°C", "params": {"value": 500.0},
                 "alarms": {"high": 540, "hysteresis": 5}},
    }, poll_interval="500ms")}, history={"flush": "1s"},
        voice={"enabled": True, "input": "none", "speak": True, "output": f"{spoken}/"})
    d = daemon_runner.start(config)
    assert d.ctl("--role", "operator", "write", "temp", "545").returncode == 0
    d.wait_until(lambda: len(list(spoken.glob("answer-*.wav"))) == 1, timeout=60,
                 what="the alarm said")
    assert d.ctl("--role", "operator", "ack", "temp_high").returncode == 0
    assert d.ctl("--role", "operator", "write", "temp", "520").returncode == 0
    d.wait_until(lambda: len(list(spoken.glob("answer-*.wav"))) == 2, timeout=60,
                 what="the clearing said")
    assert d.status()["voice"]["counts"].get("spoken") == 2
    files = sorted(spoken.glob("answer-*.wav"))
    assert all(p.read_bytes()[:4] == b"RIFF" and p.stat().st_size > 20000 for p in files)
    assert "alarm temp_high raised: Boiler 3 temperature high, 545 °C" in d.log
