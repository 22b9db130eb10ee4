"""Hostile MQTT clients against a real broker, the real mqtt tool and a real hermesd.

Generated messages (any bytes, any topic level, big payloads, JSON that is not strict, odd
response topics, correlation data and user properties) go to the command and set topics. After
each batch: hermesd and its mqtt tool still run (same pids, no restart), `status` answers,
every request that can be matched to its answer (by its correlation data) got exactly one,
in strict JSON with a documented status and code, and nothing was written that the command
role, the point's range or the words of the request did not allow (answers, the audit log and
the devices' values agree).

Retained requests: stored before hermesd subscribed, and published live with the retain flag,
then the mqtt tool killed and the broker restarted, on MQTT 5 and 3.1.1: the stored ones never
run, the live one runs once, and a later write by an operator is never undone.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hermes_tools.mqtt.connection  # noqa: F401  (its U+FEFF-tolerant reader: our clients too)
import paho.mqtt.client as paho
import pytest
from hermes_tools.mqtt.inbound import Refused, ReplyRules, check_reply_topic, point_of_set_topic
from hypothesis import given
from hypothesis import strategies as st
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from hermesd.core import strict_json
from hermesd.core.errors import ErrorCode
from tests.hostile.mqtt_messages import Message, messages, stated_value
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient, Received

B = "hermesd/test-node"
COMMAND, RESPONSE, SET_FILTER = f"{B}/command", f"{B}/response", f"{B}/+/set"
REPLIES = "replies"  # where a requester may have its answers sent (MQTT 5 response topic)
RULES = ReplyRules(default=RESPONSE, protected=("hermesd/#", "homeassistant/#"))
STATUSES = {"ok", "stale", "error", "forbidden", "rejected", "dry_run", "busy"}
CODES = set(ErrorCode.__members__)
INITIAL = {"speed": 1200, "setpoint": 50.0, "valve": False, "lamp": False, "flow": 3.5}
MAY_WRITE = {"speed", "valve"}  # what the command role may write
RANGES = {"speed": (0, 3000)}


def _config(port: int, protocol: str = "5") -> dict[str, Any]:
    config = base_config({"rig": fake_device({
        "speed": {"name": "Speed", "type": "int", "writable": True, "min": 0, "max": 3000,
                  "params": {"value": INITIAL["speed"]}},
        "setpoint": {"name": "Setpoint", "type": "float", "writable": True, "min": 20,
                     "max": 90, "params": {"value": INITIAL["setpoint"]}},
        "valve": {"name": "Valve", "type": "bool", "writable": True,
                  "params": {"value": INITIAL["valve"]}},
        "lamp": {"name": "Lamp", "type": "bool", "writable": True,
                 "params": {"value": INITIAL["lamp"]}},
        "flow": {"name": "Flow", "type": "float", "params": {"value": INITIAL["flow"]}},
    })}, mqtt={"host": "127.0.0.1", "port": port, "protocol": protocol,
               "command_role": "panel"})
    config["access"]["roles"]["panel"] = {"read": True, "write": sorted(MAY_WRITE),
                                          "writes_per_minute": 100000}
    return config


def _value(d: RunningDaemon, point: str) -> Any:
    return d.request({"op": "read", "point": point})["result"]["value"]


def _mqtt_write_intents(d: RunningDaemon) -> list[dict[str, Any]]:
    return [r for r in d.audit_records() if r["phase"] == "intent" and r["source"] == "mqtt"
            and (r["action"] or {}).get("name") == "write"]


# -- generated messages (tests/hostile/mqtt_messages.py; the soak's hostile mix draws them too) ---

#: point -> is a switch; speed first, so its state and set topics are offered as odd answer places
SWITCHES = {p: isinstance(v, bool) for p, v in INITIAL.items()}
MESSAGES = messages(B, SWITCHES, REPLIES)


def _is_request(topic: str) -> bool:
    return topic == COMMAND or point_of_set_topic(topic, SET_FILTER) is not None


def _answer_topic(msg: Message) -> str:
    if msg.response_topic is None:
        return RESPONSE
    try:
        check_reply_topic(msg.response_topic, RULES)
    except Refused:
        return RESPONSE  # refused, and the refusal goes to the default topic
    return msg.response_topic


# -- the rig: one daemon for all examples of a test ---------------------------------------------


@dataclass
class Rig:
    d: RunningDaemon
    watcher: MqttClient
    attacker: paho.Client
    tool_pid: int
    serial: Iterator[int]
    written: dict[str, list[Any]]  # point -> values answered as written over MQTT


@pytest.fixture
def rig(daemon_runner: DaemonRunner, broker: Mosquitto) -> Iterator[Rig]:
    d = daemon_runner.start(_config(broker.port))
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    with MqttClient(broker.port, client_id="watcher",
                    subscribe=(RESPONSE, f"{REPLIES}/#", f"{B}/speed/set")) as watcher, \
            MqttClient(broker.port, client_id="attacker", subscribe=()) as attacker:
        yield Rig(d, watcher, attacker.client, d.running_tool_pid("mqtt"), itertools.count(),
                  {p: [] for p in INITIAL})


def _publish(client: paho.Client, msg: Message, correlation: bytes) -> None:
    props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
    props.CorrelationData = correlation
    if msg.response_topic is not None:
        props.ResponseTopic = msg.response_topic
    if msg.user_properties:
        props.UserProperty = msg.user_properties
    info = client.publish(msg.topic, msg.payload, qos=msg.qos, properties=props)
    assert info.rc == paho.MQTT_ERR_SUCCESS, paho.error_string(info.rc)
    if msg.qos:
        info.wait_for_publish(10)


@given(batch=st.lists(MESSAGES, min_size=1, max_size=6))
def test_generated_requests_are_answered_once_and_write_only_what_is_allowed(
        rig: Rig, batch: list[Message]) -> None:
    d = rig.d
    sent: dict[bytes, tuple[Message, str]] = {}
    for msg in batch:
        correlation = f"h{next(rig.serial)}".encode()
        _publish(rig.attacker, msg, correlation)
        if _is_request(msg.topic):  # matched by correlation data: each must get one answer
            sent[correlation] = (msg, _answer_topic(msg))

    def answers(messages: list[Received]) -> dict[bytes, list[Received]] | None:
        got: dict[bytes, list[Received]] = {c: [] for c in sent}
        for m in messages:  # not the request itself, seen by the watcher on a set topic
            if m.correlation in got and m.topic != sent[m.correlation][0].topic:
                got[m.correlation].append(m)
        return got if all(got.values()) else None

    got: dict[bytes, list[Received]] = \
        rig.watcher.wait_for(answers, what="an answer to each") if sent else {}
    for correlation, (msg, topic) in sent.items():
        [answer] = got[correlation]  # exactly one
        assert answer.topic == topic, (msg, answer.topic)
        body = strict_json.loads(answer.payload)  # strict JSON, nothing non-standard echoed
        assert body["status"] in STATUSES, body
        assert body["error"] is None or body["error"]["code"] in CODES, body
        assert "id" in body
        if body["status"] == "ok" and (body["action"] or {}).get("name") == "write":
            _check_write(rig, msg, body["action"]["args"])
    assert not [m for m in rig.watcher.on(f"{B}/speed/set") if b'"trace_id"' in m.payload], \
        "an answer went to a point's set topic"

    assert d.proc.poll() is None
    status = d.status()
    assert status["tools"]["mqtt"]["pid"] == rig.tool_pid
    assert status["tools"]["mqtt"]["restarts"] == 0
    for point in ("setpoint", "lamp", "flow"):  # the role may not write them
        assert _value(d, point) == INITIAL[point]
    for point in MAY_WRITE:
        assert _value(d, point) in [INITIAL[point], *rig.written[point]]


def _check_write(rig: Rig, msg: Message, args: dict[str, Any]) -> None:
    point, value = args["point"], args["value"]
    assert point in MAY_WRITE, (msg, args)
    lo, hi = RANGES.get(point, (None, None))
    assert lo is None or lo <= value <= hi, (msg, args)
    set_point = point_of_set_topic(msg.topic, SET_FILTER)
    if set_point is not None:  # a set: the value its payload states, exactly
        assert set_point == point
        assert value == stated_value(SWITCHES[point], msg.payload), (msg, args)
    elif point == "speed":  # a command: a number its words state
        text = msg.payload.decode()
        assert value in {int(n) for n in re.findall(r"(?<![\d.])-?\d+(?![\d.])", text)}, \
            (msg, args)
    rig.written[point].append(value)


def test_the_audit_log_holds_only_allowed_writes(rig: Rig) -> None:
    """After a burst of every kind of set, the audit log's MQTT write intents are all allowed
    and each matches an answer that said it was written (or tried to be)."""
    for n, payload in enumerate((b"1100", b'{"value": 2000, "id": "x"}', b"1_000", b"99999",
                                 b'{"value": 1e400}', b"ON", b"\xed\xb3\xbf")):
        for point in INITIAL:
            _publish(rig.attacker, Message(f"{B}/{point}/set", payload, 1, None, []),
                     f"a{n}-{point}".encode())
    total = 7 * len(INITIAL)
    rig.watcher.wait_for(lambda ms: len({m.correlation for m in ms if m.topic == RESPONSE})
                         >= total, what="every answer")
    intents = _mqtt_write_intents(rig.d)
    assert {(r["action"]["args"]["point"], r["action"]["args"]["value"]) for r in intents} == \
        {("speed", 1100), ("speed", 2000), ("valve", True)}
    assert all(r["role"] == "panel" for r in intents)


def test_string_properties_with_u_feff_do_not_cost_the_connection(rig: Rig) -> None:
    """MQTT allows U+FEFF in a string; paho would take it as a malformed packet and drop the
    tool's connection (losing what was in flight), one published message at a time."""
    for n in range(3):
        _publish(rig.attacker, Message(COMMAND, b"read flow", 1, f"{REPLIES}/a\ufeffb",
                                       [("\ufeffkey", "value\ufeff")]), f"f{n}".encode())
    rig.watcher.wait_for(lambda ms: {m.correlation for m in ms if m.topic == f"{REPLIES}/a\ufeffb"}
                         >= {b"f0", b"f1", b"f2"}, what="the three answers")
    assert "connection lost" not in rig.d.log
    assert rig.d.status()["tools"]["mqtt"]["pid"] == rig.tool_pid


def test_a_packet_larger_than_the_tool_takes_never_reaches_it(rig: Rig) -> None:
    """MQTT 5 maximum packet size: the broker drops it; the tool and hermesd go on."""
    _publish(rig.attacker, Message(COMMAND, b"x" * (2 << 20), 1, None, []), b"huge")
    _publish(rig.attacker, Message(COMMAND, b"read flow", 1, None, []), b"after")
    answer = rig.watcher.wait_topic(RESPONSE, lambda m: m.correlation == b"after")
    assert json.loads(answer.payload)["result"]["value"] == INITIAL["flow"]
    assert not [m for m in rig.watcher.messages if m.correlation == b"huge"]
    assert rig.d.status()["tools"]["mqtt"]["restarts"] == 0


# -- retained requests ---------------------------------------------------------------------------


def _ask(d: RunningDaemon, client: MqttClient, text: str, rid: str,
         timeout: float = 20.0) -> dict[str, Any]:
    """Send a live command until it is answered (the tool may be reconnecting); its answer."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if not client.connected.wait(max(0.0, deadline - time.monotonic())):
                raise TimeoutError("the test's own client did not reconnect")
            client.publish(COMMAND, json.dumps({"text": text, "id": rid}))
            got = client.wait_topic(RESPONSE, lambda m: json.loads(m.payload).get("id") == rid,
                                    timeout=1.0)
        except (TimeoutError, RuntimeError):  # no answer yet, or our client lost the broker
            if time.monotonic() > deadline or d.proc.poll() is not None:
                raise
            continue  # the same id again: hermesd runs it at most once
        return dict(json.loads(got.payload))


@pytest.mark.parametrize("protocol", ["5", "3.1.1"])
def test_retained_requests_are_never_replayed(daemon_runner: DaemonRunner, tmp_path: Path,
                                              protocol: str) -> None:
    v5 = protocol == "5"
    broker = Mosquitto(tmp_path / "broker", persistence=True).start()  # keeps retained ones
    try:
        with MqttClient(broker.port, client_id="panel", subscribe=(RESPONSE,), v5=v5) as panel:
            # stored before hermesd ever subscribed: none of these may ever run
            panel.publish(COMMAND, json.dumps({"text": "set speed to 1000", "id": "old"}),
                          retain=True)
            panel.publish(f"{B}/valve/set", "ON", retain=True)
            d = daemon_runner.start(_config(broker.port, protocol))
            first = _ask(d, panel, "read speed", "m0")
            assert first["result"]["value"] == INITIAL["speed"]

            # a live request that its sender also asked the broker to keep: runs once, now
            panel.publish(f"{B}/speed/set", json.dumps({"value": 1400, "id": "live"}),
                          retain=True)
            live = panel.wait_topic(RESPONSE, lambda m: json.loads(m.payload).get("id") == "live")
            assert json.loads(live.payload)["status"] == "ok"
            assert _value(d, "speed") == 1400
            code, later = d.ctl_json("--role", "operator", "write", "speed", "1450")
            assert code == 0 and later["status"] == "ok"

            tools = [d.running_tool_pid("mqtt")]
            for n in range(1, 5):  # reconnects of both kinds, twice each
                if n % 2:
                    os.kill(tools[-1], signal.SIGKILL)
                    tools.append(d.running_tool_pid("mqtt", not_pid=tools[-1]))
                else:
                    broker.restart()
                answer = _ask(d, panel, "read speed", f"after-{n}")
                assert answer["result"]["value"] == 1450, "a later write was undone"
            assert _value(d, "valve") is False

            writes = _mqtt_write_intents(d)
            assert [r["action"]["args"] for r in writes] == [{"point": "speed", "value": 1400}]
            retained = d.status()["mqtt"]["requests"]["retained"]
            stored = (COMMAND, f"{B}/valve/set", f"{B}/speed/set")
            if v5:  # retain handling 2: the broker never even sent them
                assert retained == 0
            else:  # sent at every subscribe, each time ignored; logged once per tool process
                assert retained == 2 + 3 * 4  # speed/set is stored from the second connect
                for topic in stored:
                    lines = [line for line in d.log.splitlines()
                             if "ignored a retained" in line and repr(topic) in line]
                    # speed/set was stored after the first tool process had subscribed
                    processes = len(tools) - (topic == f"{B}/speed/set")
                    assert len(lines) == processes, (topic, lines)
    finally:
        broker.stop()
