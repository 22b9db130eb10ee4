"""Where answers may go — generated.

Answers go only where they may: never into any hermesd node's namespace (`B/#`), the discovery
prefix or a configured device's topics, and with `mqtt.response_topics` set only to topics it
lists. Judged by rules written here from the config, not by the tool's code, then end to end on
a real broker where a watcher sees every topic.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hermes_tools.mqtt.connection  # noqa: F401  (its U+FEFF-tolerant reader: our clients too)
import pytest
from hermes_tools.mqtt.inbound import Refused, ReplyRules, check_reply_topic
from hypothesis import given
from hypothesis import strategies as st

from hermesd.config.loader import validate
from hermesd.toolspecs import mqtt_slice
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient

NODE = "test-node"
B = f"hermesd/{NODE}"
COMMAND, RESPONSE = f"{B}/command", f"{B}/response"
DEVICE_TOPICS = ("plant/yard/beacon/state", "plant/yard/beacon/set", "plant/yard/status")
ALLOWED = "replies"  # mqtt.response_topics: [replies/#] in the allow-list tests


def _config(port: int, response_topics: list[str] | None = None) -> dict[str, Any]:
    mqtt: dict[str, Any] = {"host": "127.0.0.1", "port": port, "command_role": "panel"}
    if response_topics is not None:
        mqtt["response_topics"] = response_topics
    config = base_config({
        "rig": fake_device({
            "speed": {"name": "Speed", "type": "int", "writable": True, "min": 0, "max": 3000,
                      "params": {"value": 1200}},
            "flow": {"name": "Flow", "type": "float", "params": {"value": 3.5}},
        }),
        "yard": {"driver": "mqtt", "availability_topic": "plant/yard/status", "points": {
            "beacon": {"name": "Beacon", "type": "bool", "writable": True,
                       "state_topic": "plant/yard/beacon/state",
                       "command_topic": "plant/yard/beacon/set"}}},
    }, mqtt=mqtt)
    config["access"]["roles"]["panel"] = {"read": True, "write": ["speed"],
                                          "writes_per_minute": 100000}
    return config


def _start(runner: DaemonRunner, broker: Mosquitto, **kw: Any) -> RunningDaemon:
    d = runner.start(_config(broker.port, **kw))
    d.wait_until(lambda: d.status()["mqtt"]["connected"], what="the broker connection")
    return d


# -- where answers may go ------------------------------------------------------------------------

# what a broker takes in a topic: no surrogates, controls or non-characters
LEVEL = st.text(st.characters(exclude_categories=("Cs", "Cc", "Cn"),
                              exclude_characters="/+#"), max_size=8)
REST = st.lists(LEVEL, max_size=3).map(lambda levels: "".join("/" + lv for lv in levels))
REPLY_TOPICS = st.one_of(
    st.just(RESPONSE),
    st.builds(lambda node, rest: f"hermesd/{node}{rest}", LEVEL, REST),  # any node, ours too
    st.sampled_from(["hermesd", "hermesd/other-node/command", f"{B}/speed/set",
                     f"{B}/response/x", "homeassistant/status", "homeassistant",
                     "zigbee2mqtt/lamp/set", "replies", "replies/panel", "hermesdx/a",
                     "Hermesd/other-node/command", "home/assistant", *DEVICE_TOPICS,
                     "plant/yard/beacon/set/x"]),
    st.builds(lambda rest: f"homeassistant{rest}", REST),
    st.builds(lambda rest: f"{ALLOWED}{rest}", REST),
    st.builds(lambda head, rest: f"{head}{rest}", LEVEL.filter(
        lambda lv: lv and not lv.startswith("$")), REST),
)


def _may_answer_on(topic: str, allow_list: bool) -> bool:
    """Where an answer may go, from the config as a person reads it."""
    if topic == RESPONSE:
        return True

    def inside(namespace: str) -> bool:
        return topic == namespace or topic.startswith(namespace + "/")

    if inside("hermesd") or inside("homeassistant") or topic in DEVICE_TOPICS:
        return False
    return inside(ALLOWED) if allow_list else True


def _rules(tmp_path: Path, allow_list: bool) -> ReplyRules:
    config = validate(_config(1883, [f"{ALLOWED}/#"] if allow_list else None),
                      tmp_path / "hermesd.yaml")
    t = mqtt_slice(config)["topics"]
    allowed = t["allowed"]
    return ReplyRules(default=t["response"], protected=tuple(t["protected"]),
                      allowed=None if allowed is None else tuple(allowed))


@given(topic=REPLY_TOPICS, allow_list=st.booleans())
def test_answers_go_only_where_they_may(tmp_path: Path, topic: str, allow_list: bool) -> None:
    if len(topic.encode()) > 256:
        return  # too long: refused for that alone
    try:
        check_reply_topic(topic, _rules(tmp_path, allow_list))
    except Refused:
        assert not _may_answer_on(topic, allow_list), topic
    else:
        assert _may_answer_on(topic, allow_list), topic


@pytest.fixture
def listed(daemon_runner: DaemonRunner, broker: Mosquitto) -> Iterator[tuple[RunningDaemon,
                                                                            MqttClient]]:
    d = _start(daemon_runner, broker, response_topics=[f"{ALLOWED}/#"])
    with MqttClient(broker.port, client_id="everything", subscribe=("#",)) as watcher:
        yield d, watcher


SERIAL = itertools.count()


@given(batch=st.lists(REPLY_TOPICS.filter(lambda t: len(t.encode()) <= 256), min_size=1,
                      max_size=5))
def test_end_to_end_answers_reach_only_allowed_topics(
        listed: tuple[RunningDaemon, MqttClient], batch: list[str]) -> None:
    d, watcher = listed
    sent = {}
    for topic in batch:
        correlation = f"r{next(SERIAL)}".encode()
        watcher.publish(COMMAND, "read flow", response_topic=topic, correlation=correlation)
        sent[correlation] = topic

    got = watcher.wait_for(lambda ms: _answers(ms, set(sent)), what="an answer to each")
    for correlation, topic in sent.items():
        [answer] = got[correlation]  # exactly one, and only there
        body = json.loads(answer.payload)
        if _may_answer_on(topic, allow_list=True):
            assert answer.topic == topic and body["result"]["value"] == 3.5, (topic, body)
        else:
            assert answer.topic == RESPONSE, (topic, answer.topic)
            assert body["error"]["code"] == "BAD_REQUEST" and body["action"] is None, body
    assert d.status()["tools"]["mqtt"]["restarts"] == 0


def test_by_default_any_topic_outside_the_protected_ones_takes_answers(
        daemon_runner: DaemonRunner, broker: Mosquitto) -> None:
    _start(daemon_runner, broker)
    topics = {b"d0": "hermesd/other-node/command", b"d1": "zigbee2mqtt/lamp/set",
              b"d2": "plant/yard/beacon/set", b"d3": "homeassistant/status"}
    with MqttClient(broker.port, client_id="everything", subscribe=("#",)) as watcher:
        for correlation, topic in topics.items():
            watcher.publish(COMMAND, "read flow", response_topic=topic, correlation=correlation)
        got = watcher.wait_for(lambda ms: _answers(ms, set(topics)), what="every answer")
    assert {c: [m.topic for m in ms] for c, ms in got.items()} == {
        b"d0": [RESPONSE], b"d1": ["zigbee2mqtt/lamp/set"], b"d2": [RESPONSE],
        b"d3": [RESPONSE]}


def _answers(messages: list[Any], wanted: set[bytes]) -> dict[bytes, list[Any]] | None:
    """Every message that answers one of `wanted` (by correlation data), on any topic; None
    until each has one. The request itself (plain words, seen by a watcher of #) is not."""
    got: dict[bytes, list[Any]] = {c: [] for c in wanted}
    for m in messages:
        if m.correlation in got and m.payload != b"read flow":
            got[m.correlation].append(m)
    return got if all(got.values()) else None
