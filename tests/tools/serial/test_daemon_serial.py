"""The serial tool under a real hermesd: read, write and stale, as a person sees them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.daemon import DaemonRunner, RunningDaemon
from tests.tools.serial.conftest import StartSim
from tests.tools.serial.harness import plant, scale


def _read(d: RunningDaemon, point: str) -> tuple[int, dict[str, Any]]:
    return d.ctl_json("read", point)


def test_read_write_and_stale_through_the_daemon(start_sim: StartSim, by_id: Path,
                                                 daemon_runner: DaemonRunner) -> None:
    config = plant({
        "scale1": scale(by_id / "usb-Acme_Scale-if00", poll_interval="300ms"),
        "ctl1": {"driver": "serial", "port": str(by_id / "usb-ctl1"), "baudrate": 115200,
                 "timeout": "500ms", "poll_interval": "1s",
                 "points": {"oven_setpoint": {
                     "name": "Oven setpoint", "query": "SP?\r\n",
                     "pattern": r"^SP=(?P<value>[-+]?[\d.]+)$", "unit": "°C",
                     "command": "SP={value:.1f}\r\n", "ack": "^OK$",
                     "writable": True, "min": 0, "max": 250}}},
    })
    sim, _ = start_sim(config)
    d = daemon_runner.start(config)

    answer = d.wait_until(lambda: (a := _read(d, "scale1_weight")[1])["status"] == "ok" and a,
                          what="a good scale reading")
    assert answer["result"]["value"] == 12.34 and answer["result"]["unit"] == "kg"
    assert answer["reply"] == "Packing scale weight is 12.34 kg."

    code, answer = d.ctl_json("--role", "operator", "write", "oven_setpoint", "80")
    assert code == 0 and answer["status"] == "ok", answer
    assert answer["result"]["value"] == 80.0 and answer["result"]["confirmed"] is True
    assert sim.received("ctl1")[-2:] == ["SP=80.0", "SP?"]

    asked = sim.received("ctl1")
    code, answer = d.ctl_json("--role", "operator", "write", "oven_setpoint", "300")
    assert code != 0 and answer["error"]["code"] == "OUT_OF_RANGE"
    assert sim.received("ctl1")[len(asked):] in ([], ["SP?"])  # at most a poll, never SP=300

    sim.slow("scale1", "never")  # plugged in, but silent
    code, answer = _read(d, "scale1_weight")
    assert code == 0 and answer["status"] == "stale", answer
    assert answer["error"]["code"] == "TIMEOUT" and answer["result"]["value"] == 12.34
    assert "scale1" in answer["result"]["stale_reason"], answer
    sim.slow("scale1", 0)
    d.wait_until(lambda: _read(d, "scale1_weight")[1]["status"] == "ok", what="answering again")

    sim.drop("scale1")
    code, answer = d.wait_until(
        lambda: (r := _read(d, "scale1_weight"))[1]["status"] == "stale" and r,
        what="the scale's value to go stale")
    assert code == 0  # a stale answer is still an answer
    assert answer["result"]["quality"] == "stale" and answer["result"]["value"] == 12.34
    assert "scale1" in answer["result"]["stale_reason"]
    assert "offline" in answer["result"]["stale_reason"]

    sim.restore("scale1")
    d.wait_until(lambda: _read(d, "scale1_weight")[1]["status"] == "ok",
                 what="the scale back after replugging")
    assert d.terminate() == 0
    log = d.log
    assert "scale1: reconnected on" in log and log.count("scale1: reconnected on") == 1
