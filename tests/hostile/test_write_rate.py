"""The write rate is each requester's own: nobody's load spends anybody else's writes.

Under load, root acting as operator was refused RATE_LIMITED 1,343 times because the bucket was
the role's, shared by everyone in it; an anonymous MQTT client with `command_role: operator`
could use up the operator writes of every person and Home Assistant entity. Here a real hermesd
takes generated interleavings of writes from root and another user, both operators: each gets
exactly its own writes_per_minute, and `status` names who is limited.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.peers import NOBODY, as_user, open_to_everyone, send_as

RATE = 3  # writes per minute: nothing refills while an example runs (one every 20 s)


def _plant() -> dict[str, Any]:
    config = base_config({"dev": fake_device({
        f"speed{i}": {"name": f"Pump {i} speed", "type": "int", "writable": True, "min": 0,
                      "max": 1500, "params": {"value": 0}} for i in range(2)})})
    config["access"]["roles"]["operator"]["writes_per_minute"] = RATE
    config["access"]["users"] = {str(NOBODY): "operator"}
    return config


@pytest.fixture
def daemon(daemon_runner: DaemonRunner) -> RunningDaemon:
    d = daemon_runner.start(_plant())
    open_to_everyone(d.socket)
    return d


def _write(d: RunningDaemon, who: str, value: int) -> dict[str, Any]:
    request = {"op": "write", "point": f"speed{value % 2}", "value": value}
    if who == "root":
        return d.request({**request, "role": "operator"})
    frame = json.dumps(request).encode() + b"\n"
    summary = send_as(NOBODY, d.socket, [frame])
    [(kind, count)] = summary["kinds"].items()
    status, code = kind.split()
    return {"status": status, "error": None if code == "None" else {"code": code}}


@settings(max_examples=6)
@given(order=st.lists(st.sampled_from(["root", "other"]), min_size=RATE * 2, max_size=12))
def test_root_and_another_operator_each_have_their_own_writes(
        daemon_runner: DaemonRunner, order: list[str]) -> None:
    d = daemon_runner.start(_plant())
    open_to_everyone(d.socket)
    done = {"root": 0, "other": 0}
    for i, who in enumerate(order):
        answer = _write(d, who, 100 + i)
        if done[who] < RATE:
            assert answer["status"] == "ok", (who, answer)
            done[who] += 1
        else:
            assert (answer["status"], answer["error"]["code"]) == ("rejected", "RATE_LIMITED")
    limited = d.status()["write_rate"]["limited"]
    expected = {w for w in ("root", "other") if order.count(w) > RATE}
    assert {("root" if x["who"].startswith("uid 0 ") else "other") for x in limited} == expected
    for row in limited:
        assert row["role"] == "operator" and row["source"] == "control"
    d.terminate()


def test_a_flood_from_one_user_leaves_roots_writes_alone(daemon: RunningDaemon) -> None:
    frames = [json.dumps({"op": "write", "point": "speed0", "value": v}).encode() + b"\n"
              for v in range(200)]
    summary = as_user(NOBODY, send_as, None, daemon.socket, frames)
    assert summary["kinds"] == {"ok None": RATE, "rejected RATE_LIMITED": 200 - RATE}
    for value in range(RATE):  # root, in the same role, still has every one of its writes
        answer = daemon.request({"op": "write", "point": "speed1", "value": value,
                                 "role": "operator"})
        assert answer["status"] == "ok", answer
    [row] = daemon.status()["write_rate"]["limited"]
    assert row["who"] == f"uid {NOBODY} (nobody)" and row["refused"] == 200 - RATE
    assert f"write rate: role operator for uid {NOBODY} (nobody) (control) limited since " in \
        daemon.ctl("status").stdout
    records = [r for r in daemon.audit_records() if r.get("phase") == "intent"]
    assert len(records) == 2 * RATE  # every allowed write, and only those, was about to happen
