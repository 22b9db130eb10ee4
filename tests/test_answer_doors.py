"""One answer builder: an error code gets the same status, and hermesctl the same exit code,
whichever door the request came in by (control socket, MQTT, Home Assistant, voice)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hermesd.answer import STATUS_EXIT, failure, status_of
from hermesd.context import RequestContext
from hermesd.control.server import _error
from hermesd.core.errors import ErrorCode
from hermesd.mqtt.requests import payload_refusal
from hermesd.voice.control import _refused
from tests.mqtt.expected_plant import B
from tests.support.daemon import DaemonRunner
from tests.support.mosquitto import Mosquitto, MqttClient, Received
from tests.support.plant import faked_plant

#: README, "Exit status": 65 rejected (out of range, not writable, unknown point, bad request,
#: and a write rate used up), 75 busy, 77 forbidden, 1 error for everything else
README_STATUS = {ErrorCode.BAD_REQUEST: "rejected", ErrorCode.UNKNOWN_POINT: "rejected",
                 ErrorCode.NOT_WRITABLE: "rejected", ErrorCode.OUT_OF_RANGE: "rejected",
                 ErrorCode.RATE_LIMITED: "rejected", ErrorCode.FORBIDDEN: "forbidden",
                 ErrorCode.BUSY: "busy"}
README_EXIT = {"rejected": 65, "forbidden": 77, "busy": 75, "error": 1}


def test_every_builder_gives_a_code_the_status_the_readme_documents() -> None:
    ctx = RequestContext.make("control", "viewer", timeout=1.0)
    for code in ErrorCode:
        expected = README_STATUS.get(code, "error")
        by_door = {
            "engine": status_of(code),
            "control socket": _error(code, "m")["status"],
            "mqtt payload": payload_refusal({"code": code.value, "message": "m"}).status,
            "voice recording": _refused(ctx, code.value, "m", time.perf_counter()).status,
            "hermesctl": failure(code, "m").to_dict()["status"],
        }
        assert set(by_door.values()) == {expected}, f"{code}: {by_door}"
        assert STATUS_EXIT[expected] == README_EXIT[expected]


@pytest.fixture
def watcher(broker: Mosquitto) -> Iterator[MqttClient]:
    with MqttClient(broker.port, client_id="watcher", subscribe=(f"{B}/#",)) as client:
        yield client


def _answer(watcher: MqttClient, request_id: str) -> dict[str, Any]:
    def mine(m: Received) -> bool:
        return bool(json.loads(m.payload).get("id") == request_id)
    return dict(json.loads(watcher.wait_topic(f"{B}/response", mine).payload))


def test_the_same_request_gets_the_same_answer_by_socket_and_by_mqtt(
        daemon_runner: DaemonRunner, broker: Mosquitto, watcher: MqttClient) -> None:
    config = faked_plant(daemon_runner.tmp / "state", daemon_runner.runtime / "run",
                         broker.port, {"pump1_speed": 1200})
    config["mqtt"]["command_role"] = "operator"
    d = daemon_runner.start(config)
    watcher.wait_topic(f"{B}/availability", lambda m: m.payload == b"online")
    writes = [("pump1_speed", 5000, "OUT_OF_RANGE"), ("boiler3_setpoint", 500, "FORBIDDEN"),
              ("boiler1_temp", 20, "NOT_WRITABLE"), ("no_such_point", 1, "UNKNOWN_POINT")]
    for n, (point, value, code) in enumerate(writes):
        watcher.publish(f"{B}/{point}/set", json.dumps({"value": value, "id": f"w{n}"}))
        by_mqtt = _answer(watcher, f"w{n}")
        exit_code, by_socket = d.ctl_json("write", point, str(value), "--role", "operator")
        assert by_mqtt["error"]["code"] == by_socket["error"]["code"] == code, \
            (by_mqtt, by_socket)
        assert by_mqtt["status"] == by_socket["status"] == README_STATUS[ErrorCode(code)]
        assert exit_code == README_EXIT[by_socket["status"]]
    # a request that is not one: an empty command
    watcher.publish(f"{B}/command", json.dumps({"text": " ", "id": "empty"}))
    by_mqtt = _answer(watcher, "empty")
    by_socket = d.request({"op": "ask", "text": " ", "role": "operator"})
    assert by_mqtt["error"]["code"] == by_socket["error"]["code"] == "BAD_REQUEST"
    assert by_mqtt["status"] == by_socket["status"] == "rejected"
