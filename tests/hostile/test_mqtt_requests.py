"""Who an MQTT request is, which requests are the same, and where answers may go — generated.

- One audit peer: a flood of sets on random `B/N/<anything>/set` topics (the sender picks the
  topic) is budgeted as one peer, `mqtt`: at most the budget of records one by one, the rest
  counted into aggregate records, every refusal written or counted.
- Same id, other content, is another request: for any sequence of requests drawn from a few
  ids and contents, an answer marked `duplicate` is exactly the first answer to the same id
  *and* content, and every other answer is the request's own (its point, its value).
- Answers go only where they may: never into any hermesd node's namespace (`B/#`), the
  discovery prefix or a configured device's topics, and with `mqtt.response_topics` set only
  to topics it lists. Judged by rules written here from the config, not by the tool's code,
  then end to end on a real broker where a watcher sees every topic.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hermes_tools.mqtt.connection  # noqa: F401  (its U+FEFF-tolerant reader: our clients too)
import pytest
from hermes_tools.mqtt.inbound import Refused, ReplyRules, check_reply_topic
from hypothesis import given
from hypothesis import strategies as st

from hermesd.audit_records import Budgets
from hermesd.config.loader import validate
from hermesd.core.topics import ToolTopics
from hermesd.mqtt.requests import MqttRequest
from hermesd.toolspecs import mqtt_slice
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.mosquitto import Mosquitto, MqttClient, Received

NODE = "test-node"
B = f"hermesd/{NODE}"
COMMAND, RESPONSE = f"{B}/command", f"{B}/response"
DEVICE_TOPICS = ("plant/yard/beacon/state", "plant/yard/beacon/set", "plant/yard/status")
ALLOWED = "replies"  # mqtt.response_topics: [replies/#] in the allow-list tests
FLOOD = 400


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


def _audit(d: RunningDaemon, pattern: str = "audit.jsonl*") -> list[dict[str, Any]]:
    """The records on disk (after the daemon stopped): every action (`audit.jsonl*`), or the
    trail kept by time (`audit-trail-*.jsonl`: writes, and anything else that may touch a
    device, refused ones among them)."""
    paths = sorted(d.state_dir.glob(pattern), reverse=True)
    return [json.loads(line) for p in paths for line in p.read_text().splitlines() if line]


# -- one audit peer ------------------------------------------------------------------------------

ODD_LEVELS = ["", "a.b", "über", "x" * 201, "-lead", "sp ace"]  # refused by the tool: no point


def _random_level(rng: random.Random, n: int) -> str:
    if rng.random() < 0.1:
        return rng.choice(ODD_LEVELS)
    length = rng.randint(1, 24)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(length)) \
        + str(n)


def test_a_flood_on_random_topics_is_one_audit_peer(daemon_runner: DaemonRunner,
                                                    broker: Mosquitto) -> None:
    """Each set names a point nobody configured, on a topic of its own: before, each topic was
    a peer with a budget of its own, and the flood wrote a record per message. (One flood per
    test, so not a hypothesis example: the budget's window is a minute long.)"""
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    d = _start(daemon_runner, broker)
    with MqttClient(broker.port, client_id="flooder", subscribe=(RESPONSE,)) as flooder:
        for n in range(FLOOD):
            flooder.publish(f"{B}/{_random_level(rng, n)}/set", "1",
                            correlation=f"f{n}".encode(), wait=False)
        got = flooder.wait_for(lambda ms: ms if len({m.correlation for m in ms}) >= FLOOD
                               else None, timeout=40, what="an answer to each set")
    codes = [(json.loads(m.payload)["error"] or {}).get("code") for m in got]
    reached = codes.count("UNKNOWN_POINT")  # reached the engine: audited or counted
    assert reached + codes.count("BUSY") + codes.count("BAD_REQUEST") == FLOOD, set(codes)
    assert d.terminate() == 0  # pending aggregates are written at the stop
    for pattern in ("audit.jsonl*", "audit-trail-*.jsonl"):
        records = [r for r in _audit(d, pattern) if r.get("source") == "mqtt"]
        one_by_one = [r for r in records if r["phase"] != "aggregate"]
        aggregates = [r for r in records if r["phase"] == "aggregate"]
        assert len(one_by_one) <= Budgets().attempt, ("a topic made a peer", pattern, seed)
        assert {r["who"] for r in records} == {"mqtt"}, seed
        assert len(aggregates) <= 1, seed  # one per kind, peer and window
        assert len(one_by_one) + sum(r["count"] for r in aggregates) == reached, seed


def test_the_topic_of_an_mqtt_request_stays_in_its_audit_record(
        daemon_runner: DaemonRunner, broker: Mosquitto) -> None:
    d = _start(daemon_runner, broker)
    with MqttClient(broker.port, client_id="panel", subscribe=(RESPONSE,)) as panel:
        panel.publish(f"{B}/nosuch/set", "1", correlation=b"t1")
        panel.wait_topic(RESPONSE, lambda m: m.correlation == b"t1")
    [record] = [r for r in d.audit_records()
                if r.get("source") == "mqtt" and r["phase"] == "done"]
    assert record["who"] == "mqtt"
    assert record.get("origin") == f"{B}/nosuch/set"


# -- same id, other content ----------------------------------------------------------------------

#: (topic, payload without id) a requester may send; ids come from a small pool so they repeat
CONTENTS = [
    (COMMAND, {"text": "read speed"}), (COMMAND, {"text": "read flow"}),
    (COMMAND, {"text": "read speed", "dry_run": True}),
    (COMMAND, {"text": "set speed to 1500"}), (COMMAND, {"text": "set speed to 1500",
                                                         "dry_run": True}),
    (f"{B}/speed/set", {"value": 1000}), (f"{B}/speed/set", {"value": 1100}),
    (f"{B}/speed/set", {"value": "1100"}), (f"{B}/speed/set", {"value": 1100, "dry_run": True}),
]


@dataclass
class Requester:
    d: RunningDaemon
    client: MqttClient
    #: (topic, id, payload) -> the first answer, over the whole test (hermesd remembers them)
    first: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)


@pytest.fixture
def requester(daemon_runner: DaemonRunner, tmp_path: Path) -> Iterator[Requester]:
    """Requests one at a time, each answered before the next: a broker and client without
    Nagle's delay (as README advises), else each round trip waits ~40 ms for a delayed ACK."""
    with Mosquitto(tmp_path / "fast-broker", extra="set_tcp_nodelay true\n") as broker:
        d = _start(daemon_runner, broker)
        with MqttClient(broker.port, client_id="requester", subscribe=(RESPONSE,),
                        no_delay=True) as client:
            yield Requester(d, client)


def _own_answer(topic: str, content: dict[str, Any], answer: dict[str, Any]) -> None:
    """The answer is to this request: its point and value, its dry run."""
    action = answer["action"]
    if topic == COMMAND:
        words = content["text"].split()
        assert action["args"]["point"] == words[1], (content, answer)
        if words[0] == "set":
            assert action["args"]["value"] == int(words[-1]), (content, answer)
    else:  # a value in text is read as the number it states
        value = int(content["value"])
        assert action == {"name": "write", "args": {"point": "speed", "value": value}}, \
            (content, answer)
    if content.get("dry_run") and action["name"] == "write":
        assert answer["status"] == "dry_run", (content, answer)
    elif action["name"] == "write":
        assert answer["status"] == "ok", (content, answer)


def _with_id(rid: str) -> Callable[[Received], bool]:
    return lambda m: bool(json.loads(m.payload)["id"] == rid)


@given(sequence=st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(CONTENTS)),
                         min_size=1, max_size=8))
def test_an_id_reused_with_other_content_is_its_own_request(
        requester: Requester, sequence: list[tuple[str, tuple[str, dict[str, Any]]]]) -> None:
    client = requester.client
    for rid, (topic, content) in sequence:
        payload = json.dumps({**content, "id": rid}, sort_keys=True)
        mark = time.monotonic()
        client.publish(topic, payload)
        got = client.wait_topic(RESPONSE, _with_id(rid), after=mark)
        answer = json.loads(got.payload)
        first = requester.first.setdefault((topic, rid, payload), answer)
        if first is answer:  # new: run and answered on its own, never another's answer
            assert "duplicate" not in answer, (payload, answer)
            _own_answer(topic, content, answer)
        else:  # the very same request again: the same answer, said to be a repeat
            assert answer == {**first, "duplicate": True}, (payload, answer)


@given(a=st.sampled_from(CONTENTS), b=st.sampled_from(CONTENTS), rid=st.one_of(
    st.none(), st.integers(0, 5), st.sampled_from(["a", "b"])), correlation=st.sampled_from(
    [None, "00", "01"]))
def test_the_key_of_a_request_holds_its_content(
        a: tuple[str, dict[str, Any]], b: tuple[str, dict[str, Any]], rid: str | int | None,
        correlation: str | None) -> None:
    def request(case: tuple[str, dict[str, Any]]) -> MqttRequest:
        topic, content = case
        if topic == COMMAND:
            return MqttRequest("command", topic, text=content["text"], id=rid,
                               dry_run=bool(content.get("dry_run")), correlation=correlation)
        return MqttRequest("set", topic, point="speed", value=content["value"], id=rid,
                           dry_run=bool(content.get("dry_run")), correlation=correlation)

    ka, kb = request(a).key(), request(b).key()
    if rid is None and correlation is None:
        assert ka is None and kb is None  # nothing names it: never taken for a repeat
    else:
        assert (ka == kb) == (a == b), (a, b)


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
    t = ToolTopics.from_dict(mqtt_slice(config)["topics"])
    return ReplyRules(default=t.names.response, protected=t.protected, allowed=t.allowed)


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
