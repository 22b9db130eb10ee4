"""The keys of `driver: modbus` devices: RTU settings, shared links, every problem named."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path
from typing import Any

import pytest

from hermesd.config import load_config
from hermesd.config.drivers import modbus as modbus_keys
from hermesd.config.loader import validate
from hermesd.core.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def _problems(devices: dict[str, Any], tmp: Path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        validate({"node": {"id": "n"}, "devices": devices}, tmp / "c.yaml")
    return caught.value.lines()


def _rtu(unit: int, name: str = "p", **extra: Any) -> dict[str, Any]:
    return {"driver": "modbus", "transport": "rtu", "port": "/dev/ttyUSB0", "unit": unit,
            "points": {f"{name}{unit}": {"table": "holding", "address": 0}}, **extra}


def test_example_configs_are_valid() -> None:
    demo = load_config(REPO / "configs" / "demo.yaml")
    assert demo.access.roles["engineer"].raw_read and demo.access.roles["engineer"].raw_write
    rtu = load_config(REPO / "configs" / "modbus-rtu.yaml")
    assert {d.params["unit"] for d in rtu.devices.values()} == {1, 7}
    assert dict(rtu.devices["flow_meter"].points["flow"].params)["word_order"] == "little"


def test_rtu_defaults(tmp_path: Path) -> None:
    config = validate({"node": {"id": "n"}, "devices": {"a": _rtu(1)}}, tmp_path / "c.yaml")
    params = dict(config.devices["a"].params)
    # no frame_gap: 3.5 characters at the baud rate (a key left unset is not sent)
    assert params == {"transport": "rtu", "port": "/dev/ttyUSB0", "unit": 1, "baudrate": 9600,
                      "parity": "N", "stopbits": 1, "bytesize": 8,
                      "word_order": "big", "byte_order": "big", "max_block": 125,
                      "max_gap": 8, "retries": 1, "single_write": True, "backoff_max": 30.0}


def test_units_on_one_port_must_agree_and_differ(tmp_path: Path) -> None:
    lines = _problems({"a": _rtu(1), "b": _rtu(1, "q", baudrate=19200, parity="E")},
                      tmp_path)
    assert lines == [
        "config error: devices.b.unit: unit 1 on the same link is already a",
        "config error: devices.b.baudrate: 19200 differs from 9600 of a on the same serial "
        "port /dev/ttyUSB0",
        "config error: devices.b.parity: E differs from N of a on the same serial port "
        "/dev/ttyUSB0"]


def test_tcp_units_behind_one_gateway(tmp_path: Path) -> None:
    tcp = {"driver": "modbus", "host": "10.0.0.5", "points": {}}
    validate({"node": {"id": "n"}, "devices": {"a": {**tcp, "unit": 1}, "b": {**tcp, "unit": 2},
                                                "c": {**tcp, "unit": 1, "port": 5020}}},
             tmp_path / "c.yaml")
    lines = _problems({"a": {**tcp, "unit": 255}, "b": {**tcp, "unit": 255}}, tmp_path)
    assert lines == ["config error: devices.b.unit: unit 255 on the same link is already a"]


def test_one_unit_under_two_spellings_of_its_link_is_refused(tmp_path: Path) -> None:
    """`localhost` and `127.0.0.1` (any loopback address), or a by-id link and the serial
    device it names, are one link: a second entry for the same unit there would let a raw write
    reach a configured point's registers past its range (review atk20s, #6)."""
    tcp = {"driver": "modbus", "port": 5020, "points": {}}
    lines = _problems({"a": {**tcp, "host": "127.0.0.1"}, "b": {**tcp, "host": "localhost"},
                       "c": {**tcp, "host": "127.0.0.2"}}, tmp_path)
    assert lines == [
        "config error: devices.b.unit: unit 1 on the same link is already a (127.0.0.1:5020 is "
        "the same place as localhost:5020)",
        "config error: devices.c.unit: unit 1 on the same link is already a (127.0.0.1:5020 is "
        "the same place as 127.0.0.2:5020)"]
    by_id = tmp_path / "usb-FTDI_FT232R-if00-port0"
    by_id.symlink_to("/dev/ttyUSB0")
    lines = _problems({"a": _rtu(3), "b": {**_rtu(3, "q"), "port": str(by_id)}}, tmp_path)
    assert lines == [f"config error: devices.b.unit: unit 3 on the same link is already a "
                     f"(/dev/ttyUSB0 is the same place as {by_id})"]
    # another port, another address, another unit: other places
    validate({"node": {"id": "n"}, "devices": {
        "a": {**tcp, "host": "127.0.0.1"}, "b": {**tcp, "host": "localhost", "port": 5021},
        "c": {**tcp, "host": "10.0.0.9"}, "d": {**tcp, "host": "localhost", "unit": 2}}},
        tmp_path / "c.yaml")


@pytest.mark.parametrize("spelling", ["127.1", "2130706433", "0x7f000001", "0177.0.0.1",
                                      "127.0.1", "0", "0.0.0.0", "[::ffff:127.0.0.1]",
                                      "localhost4", "ip6-loopback", "localhost.",
                                      # under .localhost (RFC 6761; systemd resolves them)
                                      "plc.localhost", "PLC.LocalHost.", "a.b.localhost",
                                      # as the socket library spells them (IDNA): atk25s
                                      "ｌｏｃａｌｈｏｓｔ", "127。0。0。1", "local\u00adhost"])
def test_every_spelling_the_resolver_takes_for_this_machine_is_one_link(
        tmp_path: Path, spelling: str) -> None:
    """The C library connects 127.1, 2130706433 and 0x7f000001 to 127.0.0.1: a second entry
    so spelled let a raw write reach pump1_speed at 9999, past its max (review atk24s, #1)."""
    tcp = {"driver": "modbus", "port": 5020, "points": {}}
    lines = _problems({"a": {**tcp, "host": "127.0.0.1"}, "b": {**tcp, "host": spelling}},
                      tmp_path)
    assert lines == [f"config error: devices.b.unit: unit 1 on the same link is already a "
                     f"(127.0.0.1:5020 is the same place as {spelling}:5020)"], lines


def test_an_address_of_this_machines_own_interfaces_is_this_machine(tmp_path: Path) -> None:
    """A PLC simulator or a gateway service on this machine answers on every address of it,
    not only on loopback (atk25s)."""
    tcp = {"driver": "modbus", "port": 5020, "points": {}}
    own = sorted(a for a in modbus_keys._own_addresses() if not a.startswith(("127.", "::1")))
    # (an IPv6 address with its zone, as a link-local one is written: fe80::1%eth0 (atk27))
    hosts = [f"[{a}]" if ":" in a else a for a in own] + \
        [f"[{a}%{name}]" for a in own if a.startswith("fe80:")
         for _, name in socket.if_nameindex()[:2]]
    for host in hosts:
        lines = _problems({"a": {**tcp, "host": "127.0.0.1"}, "b": {**tcp, "host": host}},
                          tmp_path)
        assert len(lines) == 1 and "unit 1 on the same link is already a" in lines[0], \
            (host, lines)
    assert "127.0.0.1" in modbus_keys._own_addresses()


def test_one_serial_line_under_two_device_nodes_is_one_link(tmp_path: Path) -> None:
    """A hard link of /dev/ttyUSB0, or a node made with its numbers, names the same line
    (atk25s)."""
    # a second node of /dev/null's line numbers stands in for a second node of a tty's
    null = tmp_path / "null-again"
    os.mknod(null, 0o600 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)
    lines = _problems({"a": {**_rtu(3), "port": "/dev/null"},
                       "b": {**_rtu(3, "q"), "port": str(null)}}, tmp_path)
    assert lines and lines[0].startswith("config error: devices.b.unit: unit 3 on the same "
                                         "link is already a"), lines


def test_a_name_the_hosts_file_gives_an_address_is_that_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/etc/hosts is read as the resolver reads it (no DNS is asked): `plc-a` listed there
    as 10.0.0.5 is 10.0.0.5; a name it does not list stays a place of its own."""
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n10.0.0.5 plc-a plc-a.plant # line 1\n"
                     "::1 ip6-gw\n")
    monkeypatch.setattr(modbus_keys, "HOSTS_FILE", str(hosts))
    tcp = {"driver": "modbus", "port": 502, "points": {}}
    lines = _problems({"a": {**tcp, "host": "10.0.0.5"}, "b": {**tcp, "host": "PLC-A"},
                       "c": {**tcp, "host": "ip6-gw"}, "d": {**tcp, "host": "127.0.0.1"}},
                      tmp_path)
    assert lines == [
        "config error: devices.b.unit: unit 1 on the same link is already a (10.0.0.5:502 is "
        "the same place as PLC-A:502)",
        "config error: devices.d.unit: unit 1 on the same link is already c (ip6-gw:502 is "
        "the same place as 127.0.0.1:502)"], lines
    validate({"node": {"id": "n"}, "devices": {"a": {**tcp, "host": "plc-b"},
                                                "b": {**tcp, "host": "10.0.0.5"}}},
             tmp_path / "c.yaml")


def test_a_name_under_localhost_the_hosts_file_gives_an_address_is_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolver reads /etc/hosts before the .localhost rule: `plc.localhost` listed there
    as 10.0.0.5 is 10.0.0.5, not this machine (atk28 L2)."""
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n10.0.0.5 plc.localhost\n")
    monkeypatch.setattr(modbus_keys, "HOSTS_FILE", str(hosts))
    tcp = {"driver": "modbus", "port": 502, "points": {}}
    lines = _problems({"a": {**tcp, "host": "10.0.0.5"}, "b": {**tcp, "host": "plc.localhost"}},
                      tmp_path)
    assert lines == [
        "config error: devices.b.unit: unit 1 on the same link is already a (10.0.0.5:502 is "
        "the same place as plc.localhost:502)"], lines
    validate({"node": {"id": "n"}, "devices": {"a": {**tcp, "host": "127.0.0.1"},
                                                "b": {**tcp, "host": "plc.localhost"}}},
             tmp_path / "c.yaml")
    # a name under .localhost the file does not list is still this machine
    lines = _problems({"a": {**tcp, "host": "127.0.0.1"}, "b": {**tcp, "host": "gw.localhost"}},
                      tmp_path)
    assert len(lines) == 1 and "already a (127.0.0.1:502" in lines[0], lines


def test_tcp_and_udp_to_one_port_are_one_link(tmp_path: Path) -> None:
    """A PLC may serve Modbus over TCP and UDP on one port: the same unit twice."""
    tcp = {"driver": "modbus", "host": "10.0.0.5", "port": 502, "points": {}}
    lines = _problems({"a": tcp, "b": {**tcp, "transport": "udp"}}, tmp_path)
    assert lines[-1].startswith("config error: devices.b.unit: unit 1 on the same link is "
                                "already a"), lines


@pytest.mark.parametrize("url", ["socket://127.0.0.1:4001", "rfc2217://gw:4001"])
def test_a_serial_port_is_a_device_path_not_a_url(tmp_path: Path, url: str) -> None:
    """The tool opens device files: a `socket://` port passed the check and never connected
    (review atk24s, #10). A serial line behind a TCP gateway is rtu_over_tcp."""
    lines = _problems({"a": {**_rtu(1), "port": url}}, tmp_path)
    assert lines == [f"config error: devices.a.port: {url!r} is a URL, not a serial device "
                     "path; for a serial line behind a TCP gateway use transport: rtu_over_tcp "
                     "with its host and port"], lines


def test_bad_values_are_named(tmp_path: Path) -> None:
    lines = _problems({"a": _rtu(0, stopbits=3, frame_gap="2s"),
                       "b": {**_rtu(2), "port": "/dev/ttyUSB1", "poll_interval": "10s",
                             "backoff_max": "5s"}}, tmp_path)
    assert "config error: devices.a.unit: 0 is out of range 1..247" in lines
    assert any(line.startswith("config error: devices.a.stopbits:") for line in lines)
    assert "config error: devices.a.frame_gap: 2s is out of range 0s..1s" in lines
    assert "config error: devices.b.backoff_max: must be at least the poll_interval (10 s)" \
        in lines
