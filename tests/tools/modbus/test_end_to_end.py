"""hermesd, its Modbus tool and `hermes-sim`, all real processes: what a user sees when PLCs
answer, refuse, vanish, answer late or wrongly, and when hermesd itself restarts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.ports import free_port
from tests.support.sim import RunningSim, SimRunner
from tests.tools.modbus.plant import POINTS, VALUES

FAST = {"poll_interval": "300ms", "timeout": "400ms", "backoff_max": "1s"}


def _points(prefix: str = "") -> dict[str, Any]:
    return {f"{prefix}{k}": {**v, "max_age": "20s"} for k, v in POINTS.items()}


def _tcp(port: int) -> dict[str, Any]:
    return {"driver": "modbus", "host": "127.0.0.1", "port": port, **FAST, "points": _points()}


def _start(daemon_runner: DaemonRunner, sim_runner: SimRunner, devices: dict[str, Any], *,
           simulate: bool = True) -> tuple[RunningDaemon, RunningSim | None, Path]:
    path = daemon_runner.write_config(base_config(devices))
    values = {pid: value for dev in devices.values() for pid in dev["points"]
              for key, value in VALUES.items() if pid.endswith(key)}
    values_file = path.with_name("values.yaml")
    values_file.write_text(yaml.safe_dump(values, allow_unicode=True))
    sim = sim_runner.start(path, "--values", str(values_file)) if simulate else None
    return daemon_runner.start(path), sim, path


def _read(d: RunningDaemon, point: str, *args: str) -> dict[str, Any]:
    return d.ctl_json(*args, "read", point)[1]


def _call(d: RunningDaemon, action: str, args: dict[str, Any], *flags: str) -> dict[str, Any]:
    return d.ctl_json("--role", "engineer", *flags, "call", f"modbus.{action}",
                      json.dumps(args))[1]


def _fresh(d: RunningDaemon, point: str) -> dict[str, Any] | None:
    answer = _read(d, point)
    return answer if answer["status"] == "ok" else None


def _stale(d: RunningDaemon, point: str) -> dict[str, Any] | None:
    answer = _read(d, point)
    return answer if answer["status"] == "stale" else None


def test_reads_writes_and_values_kept_fresh(daemon_runner: DaemonRunner,
                                            sim_runner: SimRunner) -> None:
    d, sim, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    answer = d.wait_until(lambda: _fresh(d, "temp"), what="a value")
    value = answer["result"]["value"]
    assert value == pytest.approx(523.4, abs=10)  # it wanders, slowly
    assert answer["result"]["unit"] == "°C" and answer["result"]["quality"] == "good"
    assert answer["reply"] == f"temp is {value:.2f}".rstrip("0").rstrip(".") + " °C."
    code, answer = d.ctl_json("--role", "operator", "write", "speed", "900")
    assert code == 0 and answer["result"]["confirmed"] is True
    assert sim.ctl("get", point="speed")["value"] == 900
    # every point reaches the cache through the tool's polls, and stays young
    points = d.wait_until(lambda: (p := d.request({"op": "points"})["result"]["points"])
                          and all(x["quality"] == "good" for x in p) and p, what="all good")
    assert all(x["age_s"] < 5 for x in points)
    assert d.status()["devices"]["plc"]["online"] is True


def test_connection_refused_gives_an_error_never_a_zero(daemon_runner: DaemonRunner,
                                                        sim_runner: SimRunner) -> None:
    d, _, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())}, simulate=False)
    device = d.wait_until(lambda: (s := d.status()["devices"]["plc"])["online"] is False and s,
                          what="plc offline")
    assert "connection refused" in device["reason"]
    code, answer = d.ctl_json("read", "speed")
    assert code != 0 and answer["status"] == "error" and answer["result"] is None
    assert answer["error"]["code"] == "DEVICE_OFFLINE"
    assert "connection refused" in answer["error"]["message"]
    assert d.log.count("device plc is offline") == 1  # logged once


def test_simulator_killed_mid_poll_then_back(daemon_runner: DaemonRunner,
                                             sim_runner: SimRunner) -> None:
    d, sim, path = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    before = d.wait_until(lambda: _fresh(d, "pressure"), what="a value")
    sim.kill()
    answer = d.wait_until(lambda: _stale(d, "pressure"), what="stale")
    result = answer["result"]
    assert result["quality"] == "stale" and result["value"] != 0
    assert result["value"] == pytest.approx(before["result"]["value"], abs=0.5)
    assert result["age_s"] > 0 and result["timestamp"].endswith("Z")
    assert re.fullmatch(r"plc offline since \d\d:\d\d:\d\d \(.+\)", result["stale_reason"])
    assert re.fullmatch(r"pressure: PLC plc offline since \d\d:\d\d:\d\d \(.+\); last value "
                        r"[\d.]+ bar, \d+ s old\.", answer["reply"])
    sim_runner.start(path, "--values", str(path.with_name("values.yaml")))
    d.wait_until(lambda: _fresh(d, "pressure"), what="fresh again")
    assert d.log.count("device plc is offline") == 1
    assert d.log.count("WARNING") == 1  # the outage is one line in the log


def test_blackhole_and_late_replies(daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d, sim, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    d.wait_until(lambda: _fresh(d, "speed"), what="a value")
    sim.ctl("drop", device="plc")
    answer = d.wait_until(lambda: _stale(d, "speed"), what="stale when silent")
    assert "no answer within 0.4 s" in answer["result"]["stale_reason"]
    sim.ctl("restore", device="plc")
    d.wait_until(lambda: _fresh(d, "speed"), what="fresh again")
    sim.ctl("slow", device="plc", seconds=0.6)  # each answer comes 0.2 s after the timeout
    d.wait_until(lambda: _stale(d, "speed"), what="stale when late")
    sim.ctl("restore", device="plc")
    d.wait_until(lambda: _fresh(d, "speed"), what="fresh again")
    # no answer was taken for another request: every value is the right register's
    for pid in ("speed", "conveyor", "label", "running", "valve"):  # (those that hold still)
        assert _read(d, pid)["result"]["value"] == sim.ctl("get", point=pid)["value"], pid
    counted = _read(d, "count")["result"]["value"]  # a counter: a little ahead, never another's
    assert 0 <= sim.ctl("get", point="count")["value"] - counted <= 5


def test_exception_codes(daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d, sim, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    raw = {"device": "plc", "table": "holding", "address": 10}
    expected = {1: ("error", "DEVICE_ERROR"), 2: ("rejected", "UNKNOWN_POINT"),
                3: ("error", "DEVICE_ERROR"), 4: ("error", "DEVICE_OFFLINE"),
                6: ("busy", "BUSY")}
    for code, (status, error) in expected.items():
        sim.ctl("fail", device="plc", code=code, table="holding", address=10, count=1)
        answer = _call(d, "read_registers", raw, "--timeout", "1")
        assert (answer["status"], answer["error"]["code"]) == (status, error), code
        assert f"exception {code}" in answer["error"]["message"]
        if code != 4:  # (4 may reach the poller first: then the device is simply offline)
            assert "holding register 40011 (address 10)" in answer["error"]["message"]
        sim.ctl("restore", device="plc")
        d.wait_until(lambda: _call(d, "read_registers", raw)["status"] == "ok",
                     what="plc answers again")
    assert _call(d, "read_registers", raw)["result"]["value"]["registers"] == [1200]


def test_rtu_bus_over_a_pty(daemon_runner: DaemonRunner, sim_runner: SimRunner,
                            tmp_path: Path) -> None:
    port = str(tmp_path / "rs485")
    rtu = {"driver": "modbus", "transport": "rtu", "port": port, "baudrate": 19200, **FAST}
    d, sim, _ = _start(daemon_runner, sim_runner, {
        "a": {**rtu, "unit": 1, "points": _points("a_")},
        "b": {**rtu, "unit": 2, "points": _points("b_")}})
    assert sim is not None
    assert sim.status()["a"]["linked"] == port
    d.wait_until(lambda: _fresh(d, "a_temp") and _fresh(d, "b_temp"), what="both fresh")
    sim.ctl("drop", device="b")
    d.wait_until(lambda: _stale(d, "b_temp"), what="b stale")
    polls = sim.requests("a", "read")
    d.wait_until(lambda: sim.requests("a", "read") >= polls + 10, what="a polled on")
    a = _read(d, "a_temp")
    assert a["status"] == "ok" and a["result"]["age_s"] < 5
    for kind in ("crc", "truncate"):
        sim.ctl("corrupt", device="a", kind=kind)
        answer = d.wait_until(lambda: _stale(d, "a_speed"), what=f"a stale ({kind})")
        assert answer["result"]["value"] == 1200
        sim.ctl("restore", device="a")
        d.wait_until(lambda: _fresh(d, "a_speed"), what="a fresh again")
    sim.ctl("restore", device="b")
    d.wait_until(lambda: _fresh(d, "b_temp"), what="b fresh again")


def test_bad_writes_send_nothing(daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d, sim, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    d.wait_until(lambda: _fresh(d, "speed"), what="a value")
    refused = [
        (("--role", "operator", "write", "speed", "1501"), "rejected", "OUT_OF_RANGE"),
        (("--role", "operator", "write", "temp", "20"), "rejected", "NOT_WRITABLE"),
        (("--role", "operator", "write", "conveyor", "24.55"), "rejected", "OUT_OF_RANGE"),
        (("--role", "viewer", "write", "speed", "100"), "forbidden", "FORBIDDEN"),
        (("--role", "operator", "call", "modbus.write_registers",
          '{"device": "plc", "table": "holding", "address": 10, "values": [5]}'),
         "forbidden", "FORBIDDEN"),
        (("--role", "viewer", "call", "modbus.read_registers",
          '{"device": "plc", "table": "holding", "address": 10}'), "forbidden", "FORBIDDEN"),
        (("--role", "operator", "ask", "set holding register 40011 on plc to 5"),
         "forbidden", "FORBIDDEN"),
        (("--role", "engineer", "call", "modbus.write_registers",
          '{"device": "plc", "table": "holding", "address": 15, "values": [70000]}'),
         "rejected", "BAD_REQUEST"),
        # raw access is for the registers the config does not name: the speed's own range and
        # writability are checked only when it is written by name
        (("--role", "engineer", "call", "modbus.write_registers",
          '{"device": "plc", "table": "holding", "address": 10, "values": [9999]}'),
         "forbidden", "FORBIDDEN"),
        (("--role", "engineer", "ask", "set holding register 40011 on plc to 9999"),
         "forbidden", "FORBIDDEN"),
    ]
    for args, status, code in refused:
        answer = d.ctl_json(*args)[1]
        assert (answer["status"], answer["error"]["code"]) == (status, code), args
    assert sim.requests("plc", "write") == 0
    assert sim.ctl("get", point="speed")["value"] == 1200


def test_raw_registers_by_asking(daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d, sim, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    d.wait_until(lambda: _fresh(d, "speed"), what="a value")
    code, answer = d.ctl_json("--role", "engineer", "ask", "read holding register 40011 on plc")
    assert code == 0 and answer["route"] == "rule"
    assert answer["action"] == {"name": "modbus.read_registers",
                                "args": {"device": "plc", "table": "holding", "address": 10}}
    assert answer["reply"] == "plc holding register 40011 (address 10) = 1200."
    answer = d.ctl_json("--role", "engineer", "ask", "read holding register 10")[1]
    assert answer["result"]["value"]["registers"] == [1200]
    answer = d.ctl_json("--role", "engineer", "ask", "read input register 30001 as float32")[1]
    shown = re.search(r"\(([\d.]+) as float32\)\.$", answer["reply"])
    assert shown is not None and float(shown[1]) == pytest.approx(523.4, abs=10)
    answer = d.ctl_json("ask", "read holding register 40011 on plc")[1]
    assert answer["status"] == "forbidden" and answer["action"]["name"] == "respond"
    assert "raw_read" in answer["error"]["message"]
    answer = d.ctl_json("--role", "engineer", "ask",
                        "set holding register 40011 on plc to 1000")[1]
    assert answer["status"] == "forbidden", answer  # the speed's register: write it by name
    assert "(speed); write it by name" in answer["error"]["message"]
    assert sim.ctl("get", point="speed")["value"] == 1200
    answer = d.ctl_json("--role", "engineer", "ask",
                        "set holding register 40016 on plc to 1000")[1]
    assert answer["status"] == "ok" and answer["reply"].endswith("confirmed.")
    answer = d.ctl_json("--role", "engineer", "ask", "read holding register 40016 on plc")[1]
    assert answer["result"]["value"]["registers"] == [1000]
    answer = d.ctl_json("--role", "engineer", "--dry-run", "ask",
                        "set holding register 40016 on plc to 7")[1]
    assert answer["status"] == "dry_run"
    answer = d.ctl_json("--role", "engineer", "ask", "read holding register 40016 on plc")[1]
    assert answer["result"]["value"]["registers"] == [1000]
    audit = (d.state_dir / "audit.jsonl").read_text()
    assert '"name":"modbus.write_registers"' in audit.replace(" ", "")


def test_cache_survives_a_restart_marked_by_age(daemon_runner: DaemonRunner,
                                                sim_runner: SimRunner) -> None:
    d, sim, path = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    sim.ctl("set", point="speed", value=1234)  # a setpoint: it holds still, unlike a counter
    d.wait_until(lambda: _read(d, "speed")["result"]["value"] == 1234, what="1234")
    assert d.terminate() == 0
    sim.kill()
    d2 = daemon_runner.start(path)
    answer = _read(d2, "speed")
    assert answer["status"] == "stale" and answer["result"]["value"] == 1234
    assert answer["result"]["age_s"] > 0
    # before the tool's first try it is the restart; after it, the refused connection
    assert re.fullmatch(r"from before the restart, not confirmed since|plc offline since "
                        r"\d\d:\d\d:\d\d \(.*connection refused\)",
                        answer["result"]["stale_reason"])
    assert "1234" in answer["reply"] and " old" in answer["reply"]
    points = {p["id"]: p for p in d2.request({"op": "points"})["result"]["points"]}
    assert points["speed"]["value"] == 1234 and points["speed"]["quality"] == "stale"


def test_a_write_the_plc_does_not_keep_is_an_error_that_shows_what_it_holds(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d, sim, _ = _start(daemon_runner, sim_runner, {"plc": _tcp(free_port())})
    assert sim is not None
    d.wait_until(lambda: _fresh(d, "speed"), what="a value")
    sim.ctl("stick", device="plc")  # its program overrides what we write
    code, answer = d.ctl_json("--role", "operator", "write", "speed", "900")
    assert code == 1 and answer["status"] == "error", answer
    assert answer["error"]["code"] == "NOT_CONFIRMED"
    result = answer["result"]
    assert result["quality"] == "unconfirmed" and result["confirmed"] is False
    assert (result["requested"], result["value"]) == (900, 1200)
    assert "reads back 1200 rpm" in answer["reply"]
    # the cache keeps what the PLC holds, not the wish
    assert _read(d, "speed")["result"]["value"] == 1200
