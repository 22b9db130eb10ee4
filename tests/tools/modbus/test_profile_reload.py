"""A reload reads the profiles anew: a user profile that gained a point, a profile directory
added to `paths.profiles`; state_dir and runtime_dir still cannot move while running."""

from __future__ import annotations

import signal
from typing import Any

import yaml

from tests.support.daemon import DaemonRunner, base_config

PUMP: dict[str, Any] = {"profile": {"name": "Feed pump", "source": "FP-2 manual rev C, table 7"},
        "points": {"flow": {"table": "input", "address": 3, "type": "uint16", "unit": "m3/h"}}}


def _reload(d: Any) -> str:
    d.notify.messages.clear()
    d.proc.send_signal(signal.SIGHUP)
    return str(d.notify.wait_for(lambda m: "READY=1" in m))


def test_a_reload_reads_profiles_anew(daemon_runner: DaemonRunner) -> None:
    mine = daemon_runner.tmp / "my-profiles"
    mine.mkdir()
    (mine / "feed_pump.yaml").write_text(yaml.safe_dump(PUMP))
    paths = {"state_dir": str(daemon_runner.tmp / "state"),
             "runtime_dir": str(daemon_runner.runtime / "run")}
    device = {"driver": "modbus", "transport": "rtu_over_tcp", "host": "127.0.0.1",
              "port": 1, "unit": 5, "profile": "feed_pump", "poll_interval": "1s"}
    config = base_config({"pump_1": device}, paths={**paths, "profiles": ["my-profiles"]})
    d = daemon_runner.start(config)
    ids = {p["id"] for p in d.request({"op": "points"})["result"]["points"]}
    assert ids == {"pump_1_flow"}
    (mine / "feed_pump.yaml").write_text(yaml.safe_dump(
        {**PUMP, "points": {**PUMP["points"], "pressure": {"table": "input", "address": 4,
                                                           "scale": 0.01, "unit": "bar"}}}))
    assert "reloaded" in _reload(d)
    ids = {p["id"] for p in d.request({"op": "points"})["result"]["points"]}
    assert ids == {"pump_1_flow", "pump_1_pressure"}
    # a profile directory may be added or dropped by a reload, unlike state_dir
    other = daemon_runner.tmp / "more-profiles"
    other.mkdir()
    daemon_runner.write_config(base_config(
        {"pump_1": device}, paths={**paths, "profiles": ["more-profiles", "my-profiles"]}))
    assert "reloaded" in _reload(d)
    (mine / "feed_pump.yaml").write_text("profile: {name: broken\n")
    assert "reload refused (1 problem)" in _reload(d)
    assert "devices.pump_1.profile:" in d.log and "YAML syntax error" in d.log
    assert d.status()["reloads"]["refused"] == 1
    assert d.terminate() == 0
