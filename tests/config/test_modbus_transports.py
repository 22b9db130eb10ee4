"""The transport keys of `driver: modbus` devices: RTU or MBAP over TCP and UDP, ASCII on a
serial port; today's configs keep working; a wrong key or a mixed link is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.core.errors import ConfigError

POINTS = {"p": {"table": "holding", "address": 0}}


def _devices(devices: dict[str, Any], tmp: Path) -> dict[str, Any]:
    config = validate({"node": {"id": "n"}, "devices": devices}, tmp / "c.yaml")
    return {d: dict(dev.params) for d, dev in config.devices.items()}


def _problems(devices: dict[str, Any], tmp: Path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        validate({"node": {"id": "n"}, "devices": devices}, tmp / "c.yaml")
    return caught.value.lines()


def _pts(i: int) -> dict[str, Any]:
    return {f"p{i}": {"table": "holding", "address": 0}}


@pytest.mark.parametrize("transport", ["rtu_over_tcp", "udp", "rtu_over_udp"])
def test_network_transports_take_host_and_port(tmp_path: Path, transport: str) -> None:
    params = _devices({"m": {"driver": "modbus", "transport": transport, "host": "10.0.0.9",
                             "port": 4001, "unit": 3, "points": _pts(1)}}, tmp_path)["m"]
    assert (params["transport"], params["host"], params["port"], params["unit"]) == \
        (transport, "10.0.0.9", 4001, 3)
    assert "baudrate" not in params  # the gateway's serial side is the gateway's business


def test_a_config_without_transport_is_tcp_as_before(tmp_path: Path) -> None:
    params = _devices({"m": {"driver": "modbus", "host": "10.0.0.9", "points": _pts(1)}},
                      tmp_path)["m"]
    assert (params["transport"], params["port"], params["unit"]) == ("tcp", 502, 1)


def test_ascii_defaults_to_seven_data_bits_even_parity(tmp_path: Path) -> None:
    params = _devices({"m": {"driver": "modbus", "transport": "ascii", "port": "/dev/ttyS1",
                             "points": _pts(1)}}, tmp_path)["m"]
    assert (params["bytesize"], params["parity"], params["stopbits"]) == (7, "E", 1)


def test_rtu_framed_transports_have_no_unit_zero(tmp_path: Path) -> None:
    lines = _problems({"m": {"driver": "modbus", "transport": "rtu_over_tcp", "host": "h",
                             "unit": 0, "points": _pts(1)}}, tmp_path)
    assert lines == ["config error: devices.m.unit: 0 is out of range 1..247"]
    # MBAP over UDP, like TCP, passes 0 and 255 to the device behind it
    assert _devices({"m": {"driver": "modbus", "transport": "udp", "host": "h", "unit": 255,
                           "points": _pts(1)}}, tmp_path)["m"]["unit"] == 255


def test_wrong_keys_for_the_transport_are_named(tmp_path: Path) -> None:
    lines = _problems({
        "a": {"driver": "modbus", "transport": "rtu_over_tcp", "host": "h", "baudrate": 9600,
              "points": _pts(1)},
        "b": {"driver": "modbus", "transport": "ascii", "port": "/dev/ttyS1", "host": "h",
              "frame_gap": "5ms", "points": _pts(2)},
        "c": {"driver": "modbus", "transport": "rtu_over_tcpip", "host": "h", "points": _pts(3)},
    }, tmp_path)
    assert lines[0] == ("config error: devices.a.baudrate: is for a serial port (rtu, ascii); a "
                        "rtu_over_tcp device reaches its line through a gateway, where the "
                        "line's settings are made")
    assert lines[1] == ("config error: devices.b.frame_gap: ASCII frames end with CR LF, not "
                        "with silence: only rtu takes frame_gap")
    assert lines[2].startswith("config error: devices.b.host: a ascii device is on a serial "
                               "`port`")
    assert lines[3].startswith("config error: devices.c.transport: the text 'rtu_over_tcpip' "
                               "is not one of tcp|udp|rtu_over_tcp|rtu_over_udp|rtu|ascii "
                               "(did you mean 'rtu_over_tcp'?)")


def test_one_link_carries_one_kind_of_frame(tmp_path: Path) -> None:
    gw = {"driver": "modbus", "host": "10.0.0.5", "port": 502}
    lines = _problems({"a": {**gw, "unit": 1, "points": _pts(1)},
                       "b": {**gw, "transport": "rtu_over_tcp", "unit": 2, "points": _pts(2)},
                       "c": {"driver": "modbus", "transport": "rtu", "port": "/dev/ttyS1",
                             "points": _pts(3)},
                       "d": {"driver": "modbus", "transport": "ascii", "port": "/dev/ttyS1",
                             "unit": 2, "bytesize": 8, "parity": "N", "points": _pts(4)}},
                      tmp_path)
    assert lines == [
        "config error: devices.b.transport: rtu_over_tcp differs from tcp of a on the same link "
        "(10.0.0.5:502): one link carries one kind of frame",
        "config error: devices.d.transport: ascii differs from rtu of c on the same link "
        "(serial port /dev/ttyS1): one link carries one kind of frame"]
    # TCP and UDP on the same host and port are two links, each of its own frames; but one
    # unit under both is one device (a PLC serves both on one port: review atk24s)
    _devices({"a": {**gw, "unit": 1, "points": _pts(1)},
              "b": {**gw, "transport": "udp", "unit": 2, "points": _pts(2)}}, tmp_path)
