"""Configs the checker used to accept, each a class: generated, and each refused with its path.

Two writable Modbus points on one register range, a state or runtime dir that is a system
directory, `access.users` keys that are neither a user name nor a uid, a default role that may
write, durations past any sense, a step of 0 (whose message read "out of range 1e-09..None").
`hermesd --check-config` must refuse each with `config error: <dotted.path>: <what>`, exit 78.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermesd.config.drivers.modbus import TYPE_WORDS
from hermesd.config.loader import MAX_UID, SHARED_DIRS, SYSTEM_TREES, validate
from hermesd.config.reader import MAX_DURATION
from hermesd.core.errors import ConfigError

SOURCE = Path("/etc/hermesd/hermesd.yaml")  # only its directory matters, for relative paths


def _problems(data: dict[str, Any]) -> list[str]:
    try:
        validate({"node": {"id": "n"}, **data}, SOURCE)
    except ConfigError as exc:
        return exc.lines()
    return []


# -- writable Modbus points that overlap ---------------------------------------------------------

@st.composite
def modbus_points(draw: st.DrawFn) -> dict[str, dict[str, Any]]:
    points: dict[str, dict[str, Any]] = {}
    for n in range(draw(st.integers(1, 8))):
        table = draw(st.sampled_from(["holding", "coil", "input"]))
        point: dict[str, Any] = {"table": table, "address": draw(st.integers(0, 12))}
        if table == "coil":
            point["type"] = "bool"
        else:
            rtype = draw(st.sampled_from([*TYPE_WORDS, "string", "bool"]))
            point["type"] = rtype
            if rtype == "string":
                point["length"] = draw(st.integers(1, 3))
            if rtype == "bool":
                point["bit"] = draw(st.integers(0, 3))
            if rtype in ("int8", "uint8"):
                point["byte"] = draw(st.sampled_from(["high", "low"]))
            if rtype == "uint16" and draw(st.booleans()):
                low = draw(st.integers(0, 12))
                point["mask"] = ((1 << draw(st.integers(1, 4))) - 1) << low  # a field
        if table != "input" and draw(st.booleans()):
            point["writable"] = True
            if point["type"] not in ("bool", "string"):
                point.update(min=0, max=1)
        points[f"p{n}"] = point
    return points


def _cells(point: dict[str, Any]) -> set[tuple[str, int, int]]:
    """What a point writes: (table, register, the bits of it) — a bool's bit, a byte's half,
    a field's mask, else all 16."""
    words = TYPE_WORDS.get(point["type"]) or point.get("length", 1)
    if point["table"] == "coil":
        words = 1
    bits = 0xFFFF
    if "bit" in point:
        bits = 1 << point["bit"]
    elif "byte" in point:
        bits = 0xFF00 if point["byte"] == "high" else 0x00FF
    elif "mask" in point:
        bits = point["mask"]
    return {(point["table"], point["address"] + i, bits) for i in range(words)}


def _clash(a: dict[str, Any], b: dict[str, Any]) -> bool:
    for table, register, bits in _cells(a):
        for table2, register2, bits2 in _cells(b):
            if (table, register) == (table2, register2) and bits & bits2:
                return True
    return False


@settings(deadline=None)
@given(points=modbus_points())
def test_writable_modbus_points_may_not_share_a_register(points: dict[str, dict[str, Any]]
                                                         ) -> None:
    """Reads may overlap; writes that overlap would change each other behind their backs (two
    bools on different bits of one register do not, nor the two bytes, nor fields whose masks
    do not meet)."""
    lines = _problems({"devices": {"plc1": {"driver": "modbus", "host": "127.0.0.1",
                                            "points": points}}})
    writable = [p for p, v in points.items() if v.get("writable")]
    clashing = {p for p in writable for q in writable
                if p != q and _clash(points[p], points[q])}
    overlap = [line for line in lines if "overlaps writable point" in line]
    assert bool(overlap) == bool(clashing), (lines, clashing)
    for line in overlap:
        assert line.startswith("config error: devices.plc1.points.p")
        assert line.split(".")[3] in clashing
    assert len(overlap) == len(lines)  # nothing else was wrong with these points


def test_the_review_overlap() -> None:
    lines = _problems({"devices": {"plc1": {"driver": "modbus", "host": "127.0.0.1", "points": {
        "a": {"table": "holding", "address": 10, "type": "int32", "writable": True, "min": 0,
              "max": 100},
        "b": {"table": "holding", "address": 11, "writable": True, "min": 0, "max": 100},
        "c": {"table": "holding", "address": 11}}}}})
    assert lines == ["config error: devices.plc1.points.b.address: holding 11 overlaps writable "
                     "point a (holding 10..11): a write to one would change the other; make one "
                     "read-only or move it"]


# -- state and runtime dirs --------------------------------------------------------------------

SYSTEM = st.one_of(
    st.just("/"),
    st.from_regex(r"/[a-z][a-z0-9._-]{0,12}", fullmatch=True),  # any top-level directory
    st.tuples(st.sampled_from(SYSTEM_TREES), st.lists(st.from_regex(r"[a-z0-9_]{1,8}",
                                                                    fullmatch=True),
                                                      max_size=3))
    .map(lambda t: "/".join([t[0], *t[1]])),
    st.sampled_from(SHARED_DIRS), st.just("/var/lib/"), st.just("//run/./"))


@settings(deadline=None)
@given(path=SYSTEM, key=st.sampled_from(["state_dir", "runtime_dir"]))
def test_a_system_directory_is_no_dir_of_hermesd(path: str, key: str) -> None:
    lines = _problems({"paths": {key: path}})
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"config error: paths.{key}: ")
    assert "give hermesd a directory of its own" in lines[0]


@pytest.mark.parametrize("path", ["/var/lib/hermesd", "/run/hermesd", "/srv/hermesd/state",
                                  "/home/ops/hermesd", "/tmp/x/run", "/opt/hermesd/s",
                                  "/var/lib/hermesd/plant-2", "/mnt/data/hermesd"])
def test_a_directory_of_its_own_is_fine(path: str) -> None:
    assert _problems({"paths": {"state_dir": path, "runtime_dir": "/run/hermesd"}}) == []


def test_a_link_to_the_root_is_the_root(tmp_path: Path) -> None:
    link = tmp_path / "state"
    link.symlink_to("/")
    lines = _problems({"paths": {"state_dir": str(link)}})
    assert lines == ["config error: paths.state_dir: / is the root directory: give hermesd a "
                     "directory of its own, e.g. /var/lib/hermesd"]


# -- access.users and the default role ---------------------------------------------------------

def _user_ok(key: str) -> bool:
    """The rule, said once more: a uid written plainly, or a unix user name."""
    if key.isascii() and key.isdigit():
        return key == str(int(key)) and int(key) <= MAX_UID
    return bool(key) and key.isascii() and (key[0].isalpha() or key[0] == "_") and \
        len(key.rstrip("$")) <= 32 and \
        all(c.isalnum() or c in "_.-" for c in key.rstrip("$")) and key.count("$") <= 1 and \
        "$" not in key[:-1]


@settings(deadline=None)
@given(key=st.text(max_size=40) | st.sampled_from(["-1", "01000", "1000", "root", "alice",
                                                   "4294967294", "4294967295", "ops-1",
                                                   "a$", "$a", "1abc", "", " ", "a b"]))
def test_a_users_key_is_a_user_name_or_a_uid(key: str) -> None:
    lines = _problems({"access": {"users": {key: "viewer"}}})
    if _user_ok(key):
        assert lines == [], lines
    else:
        assert len(lines) == 1 and lines[0].startswith("config error: access.users"), lines


@settings(deadline=None)
@given(uid=st.integers(-(2**40), 2**40))
def test_a_uid_written_as_a_number(uid: int) -> None:
    lines = _problems({"access": {"users": {uid: "viewer"}}})
    assert (lines == []) == (0 <= uid <= MAX_UID), lines


@settings(deadline=None)
@given(write=st.booleans() | st.just([]) | st.just(["v"]), raw_write=st.booleans(),
       raw_read=st.booleans())
def test_the_default_role_is_read_only(write: Any, raw_write: bool, raw_read: bool) -> None:
    """DESIGN: default roles are read-only; a default that writes gives every unnamed local
    user (and every peer with no entry) the right to write."""
    lines = _problems({
        "access": {"default_role": "d", "roles": {"d": {"read": True, "write": write,
                                                         "raw_read": raw_read,
                                                         "raw_write": raw_write}}},
        "devices": {"dev": {"driver": "exec", "command": ["/bin/true"],
                            "points": {"v": {"writable": True, "type": "bool"}}}}})
    writes = bool(write) or raw_write
    assert bool(lines) == writes, lines
    if writes:
        assert lines[0].startswith("config error: access.default_role: role 'd' has ")
        assert "must be read-only" in lines[0]


# -- durations and steps ---------------------------------------------------------------------

@settings(deadline=None)
@given(digits=st.from_regex(r"[1-9][0-9]{0,40}(\.[0-9]{1,3})?", fullmatch=True),
       unit=st.sampled_from(["ms", "s", "m", "h", "d"]),
       key=st.sampled_from(["max_age", "poll_interval", "timeout", "retention"]))
def test_every_duration_is_bounded(digits: str, unit: str, key: str) -> None:
    scale = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
    seconds = float(digits) * scale
    value = f"{digits}{unit}"
    point: dict[str, Any] = {"name": "x"}
    data: dict[str, Any] = {"devices": {"dev": {"driver": "exec", "command": ["/bin/true"],
                                                "points": {"p": point}}}}
    if key == "max_age":
        point["max_age"] = value
        where, low = "devices.dev.points.p.max_age", 0.05
    elif key == "retention":
        data["audit"] = {"retention": value}
        where, low = "audit.retention", 86400.0
    else:
        data["devices"]["dev"][key] = value
        where, low = f"devices.dev.{key}", 0.05 if key == "poll_interval" else 0.01
    hi = 60.0 if key == "timeout" else MAX_DURATION
    lines = _problems(data)
    if low <= seconds <= hi:
        assert lines == [], lines
    else:
        [line] = lines
        assert line.startswith(f"config error: {where}: ")
        assert "out of range" in line and "None" not in line and "inf" not in line
        if seconds > MAX_DURATION and key != "timeout":  # a device timeout is 60 s at most
            assert line.endswith("..10 years (no duration may be longer)")


@settings(deadline=None)
@given(step=st.floats(max_value=0.0, allow_nan=False, allow_infinity=False) | st.integers(
    max_value=0))
def test_a_step_must_be_above_zero_and_says_so(step: float) -> None:
    lines = _problems({"devices": {"dev": {"driver": "exec", "command": ["/bin/true"],
                                           "points": {"p": {"type": "float", "writable": True,
                                                            "min": 0, "max": 9,
                                                            "step": step}}}}})
    assert lines == [f"config error: devices.dev.points.p.step: must be greater than 0, got "
                     f"{step:g}"]


# -- the command line, once for all of them ------------------------------------------------------

def test_check_config_refuses_each_of_the_review(tmp_path: Path) -> None:
    config = tmp_path / "hermesd.yaml"
    config.write_text("""
node: {id: n1}
paths: {state_dir: /, runtime_dir: /run}
access:
  default_role: operator
  roles:
    operator: {read: true, write: true}
  users: {'-1': operator}
devices:
  plc1:
    driver: modbus
    host: 127.0.0.1
    points:
      a: {table: holding, address: 10, type: int32, writable: true, min: 0, max: 100}
      b: {table: holding, address: 11, type: uint16, writable: true, min: 0, max: 100}
      d: {table: holding, address: 20, max_age: 99999999999999999999h}
      e: {table: holding, address: 21, writable: true, min: 0, max: 9, step: 0}
""", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "hermesd.main", "--check-config", str(config)],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ})
    assert done.returncode == 78, done.stderr
    paths = sorted(line.split(": ")[1] for line in done.stderr.splitlines())
    assert paths == ["access.default_role", "access.users.-1", "devices.plc1.points.b.address",
                     "devices.plc1.points.d.max_age", "devices.plc1.points.e.step",
                     "paths.runtime_dir", "paths.state_dir"], done.stderr
    assert "None" not in done.stderr
