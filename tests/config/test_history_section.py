"""The history section and the per-point deadband and alarms, validated like the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import load_config
from hermesd.config.history import History, PointAlarms
from hermesd.config.model import Deadband
from hermesd.core.errors import ConfigError


def _load(tmp_path: Path, history: Any = None, **points: Any) -> Any:
    path = tmp_path / "c.yaml"
    data: dict[str, Any] = {"node": {"id": "n1"}, "devices": {"d1": {
        "driver": "exec", "command": ["/bin/true"], "points": {
            "temp": {"type": "float", **points.get("temp", {})},
            "run": {"type": "bool", **points.get("run", {})},
            "label": {"type": "string", **points.get("label", {})}}}}}
    if history is not None:
        data["history"] = history
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return load_config(path)


def test_history_is_off_without_its_section_and_on_with_it(tmp_path: Path) -> None:
    assert _load(tmp_path).history.enabled is False
    assert _load(tmp_path, {}).history == History(enabled=True)
    assert _load(tmp_path, {"enabled": False}).history.enabled is False
    h = _load(tmp_path, {"flush": "30s", "keep": "365d", "max_size": "1G"}).history
    assert h == History(True, 30.0, 365 * 86400.0, 1024**3)


def test_deadband_and_alarms(tmp_path: Path) -> None:
    config = _load(tmp_path, {},
                   temp={"deadband": 0.5, "alarms": {"high": 540, "low": 20, "hysteresis": 5,
                                                      "delay": "30s"}},
                   run={"alarms": {"state": False, "delay": "10s"}})
    temp, run = config.points["temp"], config.points["run"]
    assert temp.deadband == Deadband(0.5)
    assert temp.alarms == PointAlarms(high=540.0, low=20.0, hysteresis=5.0, delay=30.0)
    assert run.alarms == PointAlarms(state=False, delay=10.0)


def test_bad_history_and_alarm_keys_are_all_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {"flush": "0s", "max_size": "10K", "kep": "1d"},
              temp={"deadband": -1, "alarms": {"high": 10, "low": 20, "dealy": "1s"}},
              run={"deadband": 1, "alarms": {"high": 1}},
              label={"alarms": {"state": "x"}})
    lines = sorted(caught.value.lines())
    assert lines == sorted([
        "config error: history.flush: 0s is out of range 1s..3600s",
        "config error: history.max_size: 10K is too small for a store (at least 1M)",
        "config error: history.kep: unknown key (did you mean 'keep'?)",
        "config error: devices.d1.points.temp.deadband: -1 must be more than 0 (leave the key out "
            "to publish and keep every change)",
        "config error: devices.d1.points.temp.alarms.dealy: unknown key (did you mean "
        "'delay'?)",
        "config error: devices.d1.points.temp.alarms.low: low 20 must be below high 10",
        "config error: devices.d1.points.run.deadband: a bool point takes no deadband: every "
            "change of it is published and kept in history",
        "config error: devices.d1.points.run.alarms.high: a bool point alarms on a state "
        "(state: true or false), not on limits",
        "config error: devices.d1.points.run.alarms.state: a bool point alarms on a state: "
        "true or false, got nothing",
        "config error: devices.d1.points.label.alarms: a string point takes no alarms",
    ]), lines


@pytest.mark.parametrize(("deadband", "said"), [
    (float("inf"), "inf is not a finite number"),
    (float("nan"), "nan is not a finite number"),
    ("nan%", "expected a change in the point's unit"),
    ("infinity%", "expected a change in the point's unit"),
    ("1_0%", "expected a change in the point's unit"),
    ("\uff11%", "expected a change in the point's unit"),  # a fullwidth 1
    ("-1%", "-1% must be more than 0"),
])
def test_a_deadband_that_is_no_plain_positive_number_is_named(tmp_path: Path, deadband: Any,
                                                               said: str) -> None:
    # "inf must be more than 0" said nothing true; float() took "1_0" and "１" as numbers
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {}, temp={"deadband": deadband})
    [line] = caught.value.lines()
    assert line.startswith(f"config error: devices.d1.points.temp.deadband: {said}"), line


def test_a_hysteresis_as_wide_as_the_limits_is_refused(tmp_path: Path) -> None:
    """high 90, low 10, hysteresis 80: the high alarm would clear only below the low limit."""
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {}, temp={"alarms": {"high": 90, "low": 10, "hysteresis": 80}})
    assert caught.value.lines() == [
        "config error: devices.d1.points.temp.alarms.hysteresis: 80 must be less than high - "
        "low (80)"]
    assert _load(tmp_path, {}, temp={"alarms": {"high": 90, "low": 10, "hysteresis": 79.5}}
                 ).points["temp"].alarms.hysteresis == 79.5
