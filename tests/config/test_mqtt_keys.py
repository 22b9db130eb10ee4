"""The keys of the `mqtt` section that shape what is published: defaults, and every problem named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.core.errors import ConfigError


def _config(**mqtt: Any) -> dict[str, Any]:
    return {"node": {"id": "n"}, "mqtt": mqtt, "devices": {"plc": {
        "driver": "modbus", "host": "127.0.0.1", "port": 502, "poll_interval": "1s",
        "points": {"t": {"table": "holding", "address": 0}}}}}


def _problems(tmp: Path, **mqtt: Any) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        validate(_config(**mqtt), tmp / "c.yaml")
    return caught.value.lines()


def test_republish_defaults_to_five_minutes(tmp_path: Path) -> None:
    config = validate(_config(), tmp_path / "c.yaml")
    assert config.mqtt is not None and config.mqtt.republish == 300.0
    config = validate(_config(republish="30s"), tmp_path / "c.yaml")
    assert config.mqtt is not None and config.mqtt.republish == 30.0


@pytest.mark.parametrize(("mqtt", "line"), [
    ({"republish": "0s"}, "config error: mqtt.republish: 0s is out of range 1s..86400s"),
    ({"republish": "2d"}, "config error: mqtt.republish: 2d is out of range 1s..86400s"),
    ({"republish": 300}, "config error: mqtt.republish: expected a duration with its unit"),
    ({"republish": "often"}, "config error: mqtt.republish: 'often' is not a duration"),
    ({"re_publish": "5m"}, "config error: mqtt.re_publish: unknown key (did you mean "
                           "'republish'?)"),
])
def test_bad_republish_is_named(tmp_path: Path, mqtt: dict[str, Any], line: str) -> None:
    problems = _problems(tmp_path, **mqtt)
    assert len(problems) == 1 and problems[0].startswith(line), problems
