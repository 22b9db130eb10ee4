"""The keys of `driver: serial` devices: what is accepted and what is refused, with its path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.core.errors import ConfigError


def _config(device: dict[str, Any]) -> dict[str, Any]:
    return {"node": {"id": "t"}, "llm": {"enabled": False}, "devices": {"scale1": device}}


def _scale(**point: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"query": "W\r\n", "pattern": r"(?P<value>[\d.]+) kg"}
    base.update(point)
    return {"driver": "serial", "port": "/dev/serial/by-id/usb-scale", "points": {"w": base}}


def _problems(device: dict[str, Any]) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        validate(_config(device), Path("/etc/hermesd/hermesd.yaml"))
    return caught.value.lines()


def test_the_dev_plant_scale_and_a_writable_point_are_accepted() -> None:
    device = _scale(command="SP={value:.1f}\r\n", ack="^OK$", writable=True, min=0, max=250)
    device.update(encoding="latin-1", terminator="\r", max_line=80, poll_interval="1s")
    config = validate(_config(device), Path("/etc/hermesd/hermesd.yaml"))
    params = config.points["w"].params
    assert params["command"] == "SP={value:.1f}\r\n" and params["ack"] == "^OK$"
    assert config.devices["scale1"].params["terminator"] == "\r"


@pytest.mark.parametrize(("point", "says"), [
    ({"query": "W\\r\\n"}, "devices.scale1.points.w.query: 'W\\\\r\\\\n' holds a literal "
                           "backslash escape; write it in double quotes"),
    ({"command": "SET {val}\r\n", "writable": True, "min": 0, "max": 1},
     "points.w.command: a command template must contain {value}"),
    ({"command": "SET {value} {other}\r\n"}, "may only use {value}, not {other}"),
    ({"command": "SET {value:.1f\r\n"}, "is not a valid template"),
    ({"command": "SET {value:d}\r\n"}, "the format of {value} does not suit a float value"),
    # (a width of 900,000,000 made the check build 900 MB, and each write: review atk20s, #17)
    ({"command": "SET {value:>900000000}\r\n"}, "a width or precision of 900000000 in the "
                                                 "format of {value} is more than a device line "
                                                 "takes (at most 64)"),
    ({"command": "SET {value:.99f}\r\n"}, "a width or precision of 99"),
    # (a width the value gives: a write of 200000000 built a 200 MB line, review atk24s, #6)
    ({"command": "SET {value:>{value}}\r\n"}, "the format of {value} may not hold another "
                                               "field"),
    ({"ack": "^OK$"}, "points.w.ack: only a point with a `command` waits for an acknowledgement"),
    ({"ack": "(", "command": "S{value}\r\n"}, "points.w.ack: is not a valid regular expression"),
    ({"pattern": r"\d+ kg"}, "needs a named group `(?P<value>...)`"),
    ({"query": "W°\r\n"}, "'W°\\r\\n' cannot be sent in the device's encoding ascii"),
    ({"type": "bool", "true_text": "X", "false_text": "X"}, "true_text and false_text must differ"),
    ({"writable": True}, "a writable serial point needs a `command` template"),
    ({"query": None}, "points.w.query: expected non-empty text, got nothing"),
])
def test_bad_point_keys_are_named(point: dict[str, Any], says: str) -> None:
    problems = _problems(_scale(**point))
    assert any(says in line for line in problems), problems


def test_bad_device_keys_are_named() -> None:
    device = _scale()
    device.update(port="tcp://10.0.0.5:4001", encoding="klingon", parity="X", baudrate=0,
                  terminator="")
    problems = "\n".join(_problems(device))
    assert "devices.scale1.port: 'tcp://10.0.0.5:4001': a URL port is socket://" in problems
    assert "devices.scale1.encoding: 'klingon' is not a known text encoding" in problems
    assert "devices.scale1.parity:" in problems and "devices.scale1.baudrate:" in problems
    assert "devices.scale1.terminator: expected non-empty text, got the text ''" in problems
