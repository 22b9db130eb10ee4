"""A write whose tool is held up past the write's deadline (stopped here; in the field a
starved or swapping gateway): hermesd, its Modbus tool and `hermes-sim`, all real processes.

The answer must be true: the requester hears that the write may or may not have taken effect,
and the tool, once it runs again, drops the call undone rather than write the device after the
TIMEOUT answer. The audit trail's `done` record names the value as its intent record does."""

from __future__ import annotations

import os
import signal
from typing import Any

from tests.support.daemon import DaemonRunner, base_config
from tests.support.ports import free_port
from tests.support.sim import SimRunner
from tests.tools.modbus.plant import VALUES, tcp_device


def _plant_with_a_fresh_speed(daemon_runner: DaemonRunner, sim_runner: SimRunner
                              ) -> tuple[Any, Any]:
    """hermesd and hermes-sim on one PLC, once the speed has been read fresh."""
    path = daemon_runner.write_config(base_config({"plc": tcp_device(free_port())}))
    values = path.with_name("values.yaml")
    values.write_text(f"speed: {VALUES['speed']}\n")
    sim = sim_runner.start(path, "--values", str(values))
    d = daemon_runner.start(path)
    d.wait_until(lambda: d.ctl_json("read", "speed")[1]["status"] == "ok", what="a fresh speed")
    return d, sim


def test_a_write_its_tool_reads_after_the_deadline_is_not_done_and_not_denied(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    d, sim = _plant_with_a_fresh_speed(daemon_runner, sim_runner)
    writes = sim.requests("plc")
    pid = d.running_tool_pid("modbus")
    os.kill(pid, signal.SIGSTOP)
    try:
        code, answer = d.ctl_json("--role", "operator", "--timeout", "1.5", "write", "speed",
                                  "444")
    finally:
        os.kill(pid, signal.SIGCONT)
    assert code != 0
    assert answer["status"] == "error" and answer["error"]["code"] == "TIMEOUT", answer
    assert answer["error"]["message"].startswith("tool modbus did not answer within")
    assert answer["error"]["message"].endswith("the write may or may not have taken effect")
    assert answer["reply"].startswith("Not sure whether speed was set to 444 rpm: ")
    assert "Could not do that" not in answer["reply"]
    assert answer["action"] == {"name": "write", "args": {"point": "speed", "value": 444}}

    # the tool takes its frames in order: once a read sent after the write is answered from
    # the device, the write's frame was handled (dropped, or done before the read)
    def read_back() -> Any:
        got = d.ctl_json("read", "speed")[1]
        return got if got["status"] == "ok" and d.tool_pid("modbus") == pid else None

    after = d.wait_until(read_back, what="a read after the tool runs again")
    assert after["result"]["value"] == VALUES["speed"]
    assert sim.ctl("get", point="speed")["value"] == VALUES["speed"]
    assert sim.requests("plc") == writes  # no write reached the device, late or otherwise

    records = [r for r in d.audit_records() if r.get("trace_id") == answer["trace_id"]]
    assert [r["phase"] for r in records] == ["intent", "done"]
    intent, done = records
    assert intent["action"]["args"]["value"] == done["action"]["args"]["value"] == 444
    assert type(done["action"]["args"]["value"]) is int
    assert (done["status"], done["error"]) == ("error", "TIMEOUT")


def test_a_write_the_plc_answers_late_is_said_unsure_not_failed(
        daemon_runner: DaemonRunner, sim_runner: SimRunner) -> None:
    """The PLC took the write and answered after the device's timeout: the answer had been
    "Could not do that", DEVICE_OFFLINE, with 555 in the PLC (review atk20s, #10). It is
    NOT_CONFIRMED, and says the write may have been done."""
    d, sim = _plant_with_a_fresh_speed(daemon_runner, sim_runner)
    sim.ctl("slow", device="plc", seconds=0.6)  # each answer 0.3 s after the device's timeout
    code, answer = d.ctl_json("--role", "operator", "write", "speed", "555")
    assert code != 0
    assert answer["status"] == "error" and answer["error"]["code"] == "NOT_CONFIRMED", answer
    assert "did not answer the write to" in answer["error"]["message"]
    assert answer["reply"].startswith("Not sure whether speed was set to 555 rpm: ")
    assert "Could not do that" not in answer["reply"]
    d.wait_until(lambda: sim.ctl("get", point="speed")["value"] == 555, what="the PLC took it")
