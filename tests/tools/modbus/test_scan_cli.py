"""`hermesctl scan` against a real hermesd, its Modbus tool and `hermes-sim` serving devices of
the shipped profiles behind one RTU-over-TCP gateway: engineers only, read-only, audited."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.daemon import DaemonRunner, base_config
from tests.support.ports import free_port
from tests.support.sim import SimRunner
from tests.tools.modbus.test_profiles import _plant


def test_hermesctl_scan_finds_units_and_is_for_engineers_only(daemon_runner: DaemonRunner,
                                                              sim_runner: SimRunner) -> None:
    path = daemon_runner.write_config(base_config(_plant(free_port())))
    sim = sim_runner.start(path)
    d = daemon_runner.start(path)
    d.wait_until(lambda: d.status()["devices"].get("oven", {}).get("online"),
                 what="the oven polled")
    code, answer = d.ctl_json("--role", "engineer", "scan", "meter_1", "--units", "1-6",
                              "--registers", "input:0+4", "--probe-timeout", "0.2")
    assert code == 0 and answer["status"] == "ok"
    assert answer["action"]["name"] == "modbus.scan"
    value = answer["result"]["value"]
    assert [(f["unit"], f.get("device")) for f in value["found"]] == \
        [(1, "meter_1"), (2, "meter_2"), (3, "drive"), (4, "oven")]
    assert value["silent"] == [5, 6] and value["complete"] is True
    assert value["found"][0]["ranges"][0]["count"] == 4
    # in words
    done = d.ctl("--role", "engineer", "scan", "oven", "--units", "3-5,9")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"link 127.0.0.1:{_port(path)} (rtu_over_tcp): 2 of 4 unit ids "
                               "answered (4 requests")
    assert lines[1].startswith("unit 3  drive: ok, holding 0 = ")
    assert lines[2].startswith("unit 4  oven: ok, holding 0 = ")
    done = d.ctl("--role", "engineer", "scan", "oven", "--units", "4", "--registers",
                 "holding:1-5", "--registers", "coil:0+3")
    ranges = done.stdout.splitlines()[2:]
    assert re.fullmatch(r"    holding 1\.\.5: \d+ \d+ \d+ \d+ \d+", ranges[0]), ranges
    assert ranges[1] == "    coil 0..2: off off off"
    assert lines[3] == "silent: 5,9"
    # cut short, it says where to go on from
    done = d.ctl("--role", "engineer", "scan", "oven", "--units", "1-10", "--max-requests", "3")
    assert done.stdout.splitlines()[-1] == \
        "stopped: request limit of 3 reached; go on with --units 4-10"
    # a viewer may not scan; a bad argument is a usage error, sent nowhere
    code, answer = d.ctl_json("scan", "meter_1", "--units", "1-3")
    assert code == 77 and answer["status"] == "forbidden"
    assert "raw_read" in answer["error"]["message"]
    bad = d.ctl("--role", "engineer", "scan", "meter_1", "--registers", "holdng:0-9")
    assert bad.returncode == 64 and "--registers: 'holdng:0-9' is not TABLE:" in bad.stderr
    bad = d.ctl("--role", "engineer", "scan", "meter_1", "--units", "1-300")
    assert bad.returncode == 64 and "within 0..255" in bad.stderr
    code, answer = d.ctl_json("--role", "engineer", "scan", "nosuch")
    assert code != 0 and "no modbus device named 'nosuch'" in answer["error"]["message"]
    # audited like every call: who, what, and what it found
    records = [r for r in d.audit_records()
               if (r.get("action") or {}).get("name") == "modbus.scan"]
    assert len(records) >= 4
    assert {r["role"] for r in records} == {"engineer", "viewer"}
    assert any(r.get("status") == "forbidden" for r in records)
    devices = sim.ctl("status")["devices"]
    assert not any(devices[d]["requests"].get("write") for d in devices)  # read-only


def _port(path: Path) -> int:
    import yaml

    return int(yaml.safe_load(path.read_text())["devices"]["meter_1"]["port"])
