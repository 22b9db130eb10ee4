"""A point redefined (its register, scale, unit) by a restart or a reload, while its PLC is
offline: hermesd, its Modbus tool and `hermes-sim`, all real processes. The value read under
the old definition is not the point's value any more: it is dropped, never answered in the new
unit. A point whose definition stayed keeps its last value (stale, as ever)."""

from __future__ import annotations

import copy
import signal
from typing import Any

import pytest

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config
from tests.support.ports import free_port
from tests.support.sim import SimRunner
from tests.tools.modbus.plant import tcp_device


def _read(d: RunningDaemon, point: str) -> dict[str, Any]:
    return d.ctl_json("read", point)[1]


def _reload(d: RunningDaemon) -> None:
    d.notify.messages.clear()
    d.proc.send_signal(signal.SIGHUP)
    assert "reloaded" in d.notify.wait_for(lambda m: "READY=1" in m)


def test_a_value_of_a_redefined_point_is_not_answered_in_its_new_unit(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    first = base_config({"plc": tcp_device(free_port())})
    path = daemon_runner.write_config(first)
    values = path.with_name("values.yaml")
    values.write_text("temp: 21.5\npressure: 12.5\nspeed: 1200\n")
    sim = sim_runner.start(path, "--values", str(values))
    d = daemon_runner.start(path)
    d.wait_until(lambda: _read(d, "temp")["status"] == "ok"
                 and _read(d, "pressure")["status"] == "ok", what="fresh values")
    assert d.terminate() == 0  # the snapshot keeps them, with their definitions
    sim.kill()  # the PLC goes offline

    # restart: temp is now another register, in °F; pressure is as it was
    second = copy.deepcopy(first)
    second["devices"]["plc"]["points"]["temp"].update(address=5, unit="°F")
    daemon_runner.write_config(second)
    d = daemon_runner.start(path)
    answer = _read(d, "temp")
    assert answer["status"] == "error" and answer["error"]["code"] == "DEVICE_OFFLINE", answer
    assert "value" not in (answer.get("result") or {})
    assert "21.5" not in answer["reply"]
    kept = _read(d, "pressure")
    assert kept["status"] == "stale" and kept["result"]["value"] == pytest.approx(12.5, abs=1), kept

    # reload: pressure's scale changes; its last value goes too
    third = copy.deepcopy(second)
    third["devices"]["plc"]["points"]["pressure"]["scale"] = 0.1
    daemon_runner.write_config(third)
    _reload(d)
    answer = _read(d, "pressure")
    assert answer["status"] == "error" and "value" not in (answer.get("result") or {}), answer
    assert "12.5" not in answer["reply"]
