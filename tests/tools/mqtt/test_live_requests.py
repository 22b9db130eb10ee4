"""Requests act only on live messages: the retain flag is checked on every request topic, and
MQTT 5 subscriptions ask the broker not to send retained requests at all.

The broker tests (tests/hostile/test_mqtt_payloads.py) show it end to end on both protocol
versions; these pin the two mechanisms one by one, without a broker.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hermes_tools.mqtt.connection import Connection, Settings, Subscription
from hermes_tools.mqtt.inbound import Incoming, ReplyRules
from hermes_tools.mqtt.points import MqttPoint
from hermes_tools.mqtt.tool import MqttTool
from paho.mqtt.subscribeoptions import SubscribeOptions

from hermesd.core.protocol import Event
from hermesd.core.topics import ToolTopics, Topics

B = "hermesd/n1"
TOPICS = ToolTopics(names=Topics(base=B, prefix="homeassistant", node="n1"), listen_talk=True,
                    protected=(f"{B}/#", "homeassistant/#"))


def _tool() -> tuple[MqttTool, list[Event]]:
    tool = MqttTool()
    tool.topics = TOPICS
    tool.rules = ReplyRules(default=TOPICS.names.response, protected=TOPICS.protected)
    sent: list[Event] = []
    tool._send = sent.append  # type: ignore[assignment]  # what would go to the daemon
    return tool, sent


def _kinds(sent: list[Event]) -> list[str]:
    return [e.kind for e in sent]


@pytest.mark.parametrize(("kind", "topic", "payload"), [
    ("command", f"{B}/command", b"set feed pump 1 to 1000 rpm"),
    ("command", f"{B}/command", b'{"text": "set feed pump 1 to 1000 rpm", "id": "old"}'),
    ("set", f"{B}/pump1_speed/set", b"1000"),
    ("talk", f"{B}/talk", b"PRESS"),
])
def test_a_retained_request_is_never_passed_on(kind: str, topic: str, payload: bytes,
                                               caplog: pytest.LogCaptureFixture) -> None:
    tool, sent = _tool()
    caplog.set_level(logging.INFO, logger="hermes_tools.mqtt.tool")
    for _ in range(5):  # e.g. five reconnects, each bringing the stored copy again
        tool._on_message(Incoming(topic, payload, qos=1, retain=True,
                                  response_topic="clients/a", correlation=b"c"))
    assert _kinds(sent) == ["retained"] * 5
    assert sent[0].data == {"kind": kind, "topic": topic}
    assert tool.counters["retained"] == 5
    logged = [r for r in caplog.records if "ignored a retained" in r.getMessage()]
    assert len(logged) == 1 and logged[0].levelno == logging.WARNING  # once per topic
    assert "mosquitto_pub -r -n" in logged[0].getMessage()

    tool._on_message(Incoming(topic, payload, qos=1))  # the same message, live: taken
    assert _kinds(sent)[-1] == kind


def test_retained_copies_are_logged_once_per_topic_until_cleared(
        caplog: pytest.LogCaptureFixture) -> None:
    tool, sent = _tool()
    caplog.set_level(logging.INFO, logger="hermes_tools.mqtt.tool")
    for point in ("a", "b", "a", "b"):
        tool._on_message(Incoming(f"{B}/{point}/set", b"1", retain=True))
    assert sum("ignored a retained" in r.getMessage() for r in caplog.records) == 2

    tool._on_message(Incoming(f"{B}/a/set", b""))  # its owner clears it: not a request
    assert _kinds(sent) == ["retained"] * 4 and tool.counters["cleared"] == 1
    assert any("was cleared" in r.getMessage() for r in caplog.records)
    tool._on_message(Incoming(f"{B}/a/set", b"1", retain=True))  # retained again: said again
    assert sum("ignored a retained" in r.getMessage() for r in caplog.records) == 3


def test_an_empty_message_with_request_properties_is_answered() -> None:
    tool, sent = _tool()
    tool._on_message(Incoming(f"{B}/command", b"", correlation=b"c1"))
    assert _kinds(sent) == ["command"]
    assert sent[0].data["error"]["code"] == "BAD_REQUEST"


def test_the_log_once_memory_is_bounded(caplog: pytest.LogCaptureFixture) -> None:
    tool, sent = _tool()
    tool.retained_seen.limit = 10
    caplog.set_level(logging.INFO, logger="hermes_tools.mqtt.tool")
    for n in range(50):
        tool._on_message(Incoming(f"{B}/p{n}/set", b"1", retain=True))
    lines = [r.getMessage() for r in caplog.records]
    assert sum("ignored a retained" in line for line in lines) == 10
    assert sum("not logged one by one" in line for line in lines) == 1
    assert tool.counters["retained"] == 50 and _kinds(sent) == ["retained"] * 50


def test_a_retained_device_state_is_still_taken() -> None:
    tool, sent = _tool()
    point = MqttPoint.from_slice("yard", {"id": "outdoor_temp", "kind": "float",
                                          "state_topic": "plant/yard/t"})
    tool.points = {point.id: point}
    tool.by_state = {"plant/yard/t": [point.id]}
    tool._on_message(Incoming("plant/yard/t", b"12.5", retain=True))
    assert _kinds(sent) == ["values"]


def test_request_topics_are_subscribed_live_only() -> None:
    tool, _ = _tool()
    point = MqttPoint.from_slice("yard", {"id": "odd", "kind": "float",
                                          "state_topic": f"{B}/command"})
    tool.points = {point.id: point}  # a device state on a request topic keeps its copy
    subs = tool._subscriptions()
    assert subs[f"{B}/+/set"] == Subscription(1, live_only=True)
    assert subs[f"{B}/talk"] == Subscription(1, live_only=True)
    assert subs["homeassistant/status"].live_only is False
    assert subs[f"{B}/command"].live_only is False


def _settings(protocol: str) -> Settings:
    return Settings(host="127.0.0.1", port=1883, protocol=protocol, client_id="t", keepalive=30,
                    will_topic=f"{B}/availability")


async def test_mqtt5_asks_the_broker_for_no_retained_requests() -> None:
    conn = Connection(_settings("5"), on_message=lambda m: None,
                      on_state=lambda r, s: None, on_published=lambda m: None)
    subs = (("cmd", Subscription(1, live_only=True)), ("state", Subscription(0)))
    options: dict[str, Any] = dict(conn._sub_list(subs))
    assert options["cmd"].retainHandling == SubscribeOptions.RETAIN_DO_NOT_SEND
    assert options["state"].retainHandling == SubscribeOptions.RETAIN_SEND_ON_SUBSCRIBE
    for opt in options.values():  # a live message never arrives flagged retained
        assert opt.retainAsPublished is False and opt.noLocal is True
    assert (options["cmd"].QoS, options["state"].QoS) == (1, 0)


async def test_mqtt311_subscribes_by_qos_alone() -> None:
    conn = Connection(_settings("3.1.1"), on_message=lambda m: None,
                      on_state=lambda r, s: None, on_published=lambda m: None)
    subs = (("cmd", Subscription(1, live_only=True)), ("state", Subscription(0)))
    assert conn._sub_list(subs) == [("cmd", 1), ("state", 0)]


def test_refusals_are_logged_once_per_topic_until_a_request_is_taken(
        caplog: pytest.LogCaptureFixture) -> None:
    tool, sent = _tool()
    caplog.set_level(logging.INFO, logger="hermes_tools.mqtt.tool")

    def refusals_logged() -> int:
        return sum("refused a command" in r.getMessage() for r in caplog.records
                   if r.levelno >= logging.INFO)

    for _ in range(20):  # a flood of bad requests: each answered, one log line
        tool._on_message(Incoming(f"{B}/command", b"\xff"))
    assert refusals_logged() == 1 and tool.counters["refused"] == 20
    assert _kinds(sent) == ["command"] * 20
    tool._on_message(Incoming(f"{B}/command", b"read speed"))
    tool._on_message(Incoming(f"{B}/command", b"\xff"))
    assert refusals_logged() == 2
