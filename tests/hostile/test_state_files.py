"""File-system traps in the state dir: hermesd never writes through them, says so, and serves.

Generated traps (a link to a precious file, a dangling link, a link to a directory, a FIFO) in
place of the audit log, the month's audit trail, the value cache and its old fixed temp name:
a real hermesd starts, answers reads, refuses writes only when an audit file is the trapped one
(with a reason that says so), logs a clear line for each trap, and leaves every link's target as
it was. The MQTT retained-topic record and the MQTT tool's outbox are trapped with a real broker.
A state or runtime dir that another user owns, or that group or others can write, stops hermesd
at start with exit 78 and a `config error:` line that says what to do.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.mqtt.expected_plant import B
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient
from tests.support.plant import faked_plant

DAEMON_EXAMPLES = int(os.environ.get("HERMESD_HOSTILE_DAEMON_EXAMPLES", "6"))
TRAIL = "audit-trail-" + time.strftime("%Y-%m", time.gmtime()) + ".jsonl"
TRAPPABLE = ("audit.jsonl", TRAIL, "lkv.json", ".lkv.json.tmp")
TRAPS = ("link to a file", "dangling link", "link to a dir", "fifo")


@pytest.fixture
def watcher(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="watcher", subscribe=("hermesd/#",)) as client:
        yield client


def _plant() -> dict[str, Any]:
    return base_config({"oven": fake_device({
        "oven_temp": {"name": "Oven temperature", "type": "float", "unit": "°C",
                      "params": {"value": 180.5}},
        "fan_speed": {"name": "Fan speed", "type": "int", "unit": "rpm", "writable": True,
                      "min": 0, "max": 3000, "params": {"value": 1200}},
    })})


class Traps:
    """Traps planted in a state dir, and the things they point at (outside it)."""

    def __init__(self, state: Path, victims: Path) -> None:
        self.state = state
        self.victims = victims
        self.planted: dict[str, str] = {}

    def plant(self, name: str, trap: str) -> None:
        place = self.state / name
        victim = self.victims / name.lstrip(".")
        if trap == "link to a file":
            victim.write_bytes(b"precious\n")
            place.symlink_to(victim)
        elif trap == "dangling link":
            place.symlink_to(victim)
        elif trap == "link to a dir":
            victim.mkdir()
            place.symlink_to(victim)
        else:
            os.mkfifo(place)
        self.planted[name] = trap

    def assert_untouched(self) -> None:
        for name, trap in self.planted.items():
            victim = self.victims / name.lstrip(".")
            if trap == "link to a file":
                assert victim.read_bytes() == b"precious\n", name
            elif trap == "dangling link":
                assert not os.path.lexists(victim), name
            elif trap == "link to a dir":
                assert os.listdir(victim) == [], name


def _cleared_in(d: RunningDaemon, name: str) -> bool:
    return _cleared(d.log, name)


def _cleared(log: str, name: str) -> bool:
    """A line of the log names the trapped file and why it was refused."""
    return any(name in line and ("symbolic link" in line or "not a regular file" in line
                                 or "FIFO" in line) for line in log.splitlines())


@settings(max_examples=DAEMON_EXAMPLES)
@given(traps=st.dictionaries(st.sampled_from(TRAPPABLE), st.sampled_from(TRAPS), min_size=1))
def test_traps_in_the_state_dir_are_never_written_through(
        tmp_path_factory: pytest.TempPathFactory, traps: dict[str, str]) -> None:
    if ".lkv.json.tmp" in traps and traps[".lkv.json.tmp"] == "fifo":
        traps[".lkv.json.tmp"] = "link to a file"  # a stale temp name: any kind is removed
    runner = DaemonRunner(tmp_path_factory.mktemp("traps"))
    try:
        _check_traps(runner, traps)
    finally:
        runner.cleanup()


def _check_traps(runner: DaemonRunner, traps: dict[str, str]) -> None:
    state = runner.tmp / "state"
    state.mkdir(mode=0o750)
    victims = runner.tmp / "victims"
    victims.mkdir()
    planted = Traps(state, victims)
    for name, trap in traps.items():
        planted.plant(name, trap)
    d = runner.start(_plant())

    code, answer = d.ctl_json("read", "oven_temp")
    assert (code, answer["status"]) == (0, "ok")  # reads keep working whatever is trapped
    code, answer = d.ctl_json("--role", "operator", "write", "fan_speed", "1500")
    audit_trapped = [n for n in ("audit.jsonl", TRAIL) if n in traps]
    if audit_trapped:
        assert answer["status"] == "error" and answer["error"]["code"] == "INTERNAL"
        assert "writes are refused" in answer["error"]["message"]
        assert any(n in answer["error"]["message"] for n in audit_trapped)
        assert d.status()["audit"]["failing"]
    else:
        assert (code, answer["status"]) == (0, "ok"), answer
    if "lkv.json" in traps:  # the read and the write changed values: a snapshot was tried
        d.wait_until(lambda: d.status()["cache"]["persist_failures"] > 0,
                     what="the refused cache snapshot")
    for name in traps:
        if name != ".lkv.json.tmp":
            d.wait_until(partial(_cleared_in, d, name), what=f"a log line for {name}")
    if ".lkv.json.tmp" in traps:
        assert not os.path.lexists(state / ".lkv.json.tmp")  # a stale temp: removed at start
    planted.assert_untouched()
    assert d.status()["state"] == "running"
    assert d.terminate() == 0  # the last snapshot and audit flush at stop are refused too
    planted.assert_untouched()


@pytest.mark.parametrize("name", ["mqtt-retained.json", "mqtt-outbox.json"])
def test_mqtt_state_files_are_never_written_through(daemon_runner: DaemonRunner,
                                                    broker: Mosquitto, watcher: MqttClient,
                                                    name: str) -> None:
    state = daemon_runner.tmp / "state"
    state.mkdir(mode=0o750)
    victims = daemon_runner.tmp / "victims"
    victims.mkdir()
    planted = Traps(state, victims)
    planted.plant(name, "link to a file")
    config = faked_plant(state, daemon_runner.runtime / "run", broker.port,
                         {"boiler3_temp": 523.4})
    d = daemon_runner.start(config)
    watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"online")
    watcher.publish(f"{B}/command", json.dumps({"text": "read boiler 3 temperature",
                                                "id": "q1"}))  # its answer is durable
    got = watcher.wait_topic(f"{B}/response", lambda m: json.loads(m.payload).get("id") == "q1")
    assert json.loads(got.payload)["status"] == "ok"
    d.wait_until(partial(_cleared_in, d, name), what=f"a log line for {name}")
    planted.assert_untouched()
    assert d.terminate() == 0
    planted.assert_untouched()


def _start_refused(runner: DaemonRunner) -> subprocess.CompletedProcess[str]:
    path = runner.write_config(_plant())
    return subprocess.run([sys.executable, "-m", "hermesd.main", "--config", str(path)],
                          capture_output=True, text=True, timeout=30, check=False)


@pytest.mark.parametrize(("which", "mode"), [("state", 0o770), ("state", 0o707),
                                             ("runtime", 0o775), ("state", 0o1777)])
def test_a_dir_others_can_write_stops_hermesd_with_exit_78(daemon_runner: DaemonRunner,
                                                           which: str, mode: int) -> None:
    path = daemon_runner.tmp / "state" if which == "state" else daemon_runner.runtime / "run"
    path.mkdir()
    path.chmod(mode)
    done = _start_refused(daemon_runner)
    assert done.returncode == 78, done.stderr
    key = "paths.state_dir" if which == "state" else "paths.runtime_dir"
    assert f"config error: {key}: {path} is writable by" in done.stderr
    assert "chmod go-w" in done.stderr
    assert not (path / "audit.jsonl").exists() and not (path / "control.sock").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a dir to another user needs root")
def test_a_state_dir_of_another_user_stops_hermesd_with_exit_78(
        daemon_runner: DaemonRunner) -> None:
    path = daemon_runner.tmp / "state"
    path.mkdir(mode=0o750)
    os.chown(path, 65534, 65534)
    done = _start_refused(daemon_runner)
    assert done.returncode == 78, done.stderr
    assert f"config error: paths.state_dir: {path} belongs to uid 65534" in done.stderr
    assert os.listdir(path) == []
