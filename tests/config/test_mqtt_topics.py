"""MQTT topics that would let hermesd's own namespaces and a device's meet are config errors.

A device topic (state, command, availability) inside `B/...` (any hermesd node's) or inside the
discovery prefix (HA's configs and status) could turn a device write into a command hermesd
runs as `mqtt.command_role` (MQTT 3.1.1 has no No-Local: hermesd hears its own publish), or
an answer into a device command. Generated topics inside and outside those namespaces, at every
key that names one: inside is refused with its dotted path, outside is accepted. So are the
namespaces inside each other, and `mqtt.response_topics` that is not a list of topic filters.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermesd.config.loader import validate
from hermesd.config.reader import blank
from hermesd.core.errors import ConfigError

BASE, PREFIX = "hermesd", "homeassistant"
SETTINGS = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _config(mqtt: dict[str, Any] | None = None, /, **topics: str) -> dict[str, Any]:
    """A config with one MQTT device whose topics are `topics` (keys as in the config)."""
    point: dict[str, Any] = {"name": "Lamp", "type": "bool", "writable": True,
                             "state_topic": topics.get("state_topic", "plant/lamp/state"),
                             "command_topic": topics.get("command_topic", "plant/lamp/set")}
    device: dict[str, Any] = {"driver": "mqtt", "points": {"lamp": point}}
    if "availability_topic" in topics:
        device["availability_topic"] = topics["availability_topic"]
    return {"node": {"id": "n1"}, "devices": {"yard": device},
            "access": {"roles": {"viewer": {"read": True, "write": False}}},
            "mqtt": {"host": "127.0.0.1", **(mqtt or {})}}


def _problems(data: dict[str, Any], tmp_path: Path) -> list[tuple[str, str]]:
    try:
        validate(data, tmp_path / "hermesd.yaml")
    except ConfigError as exc:
        return list(exc.problems)
    return []


PATHS = {"state_topic": "devices.yard.points.lamp.state_topic",
         "command_topic": "devices.yard.points.lamp.command_topic",
         "availability_topic": "devices.yard.availability_topic"}
LEVEL = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="/#+\x00"),
                min_size=1, max_size=10)
TAIL = st.lists(LEVEL | st.just(""), max_size=3).map(lambda ls: "".join("/" + lv for lv in ls))
#: topics inside hermesd's namespaces: any node's commands, sets, states, answers; HA's status
INSIDE = st.one_of(
    st.sampled_from([BASE, PREFIX, f"{BASE}/n1/command", f"{BASE}/n1/lamp/set",
                     f"{BASE}/n1/lamp/state", f"{BASE}/other-node/command", f"{PREFIX}/status",
                     f"{BASE}/n1/response", f"{BASE}/", f"{PREFIX}/switch/n1/lamp/config"]),
    st.builds(lambda ns, tail: ns + tail, st.sampled_from([BASE, PREFIX]), TAIL))
#: topics outside them, some deceptively close
OUTSIDE = st.one_of(
    st.sampled_from(["hermesdx/n1/command", "Hermesd/n1/command", "/hermesd/n1/command",
                     "homeassistant2/status", "home/assistant/status", "plant/hermesd/n1",
                     "zigbee2mqtt/lamp/set", "x"]),
    st.builds(lambda head, tail: head + tail,
              LEVEL.filter(lambda lv: not blank(lv) and lv not in (BASE, PREFIX)
                           and not lv.startswith("$")), TAIL))  # ($: the broker's, below;
    # a level only invisible characters draw, "\xad", is blank text, refused as such)


@SETTINGS
@given(key=st.sampled_from(list(PATHS)), topic=INSIDE)
def test_a_device_topic_inside_hermesds_namespaces_is_refused(tmp_path: Path, key: str,
                                                              topic: str) -> None:
    found = _problems(_config(**{key: topic}), tmp_path)
    assert [path for path, _ in found] == [PATHS[key]], (topic, found)
    [(_, message)] = found
    assert repr(topic) in message and "a device topic may not be there" in message


@SETTINGS
@given(key=st.sampled_from(list(PATHS)), topic=OUTSIDE)
def test_a_device_topic_outside_them_is_accepted(tmp_path: Path, key: str, topic: str) -> None:
    assert _problems(_config(**{key: topic}), tmp_path) == []


@SETTINGS
@given(base=st.sampled_from(["hermesd", "plant/hermesd", "site1"]), topic=TAIL)
def test_the_namespaces_follow_the_configured_base_topic(tmp_path: Path, base: str,
                                                         topic: str) -> None:
    data = _config({"base_topic": base}, command_topic=base + topic)
    assert [p for p, _ in _problems(data, tmp_path)] == [PATHS["command_topic"]]


@pytest.mark.parametrize(("base", "prefix"), [
    ("homeassistant", "homeassistant"), ("homeassistant/hermesd", "homeassistant"),
    ("site", "site/ha"), ("a/b", "a/b")])
def test_base_topic_and_discovery_prefix_may_not_nest(tmp_path: Path, base: str,
                                                      prefix: str) -> None:
    data = _config({"base_topic": base, "discovery_prefix": prefix})
    found = _problems(data, tmp_path)
    assert [p for p, _ in found] == ["mqtt.base_topic"], found
    assert "one lies inside the other" in found[0][1]


def test_base_topic_and_discovery_prefix_side_by_side_are_fine(tmp_path: Path) -> None:
    data = _config({"base_topic": "plant/hermesd", "discovery_prefix": "plant/ha"})
    assert _problems(data, tmp_path) == []


@pytest.mark.parametrize(("topics", "path", "what"), [
    (["replies/#", "a/+/b", "#", "+"], None, None),
    (["replies/#/x"], "mqtt.response_topics[0]", "not an MQTT topic filter"),
    (["ok/#", "a+/b"], "mqtt.response_topics[1]", "not an MQTT topic filter"),
    (["$SYS/#"], "mqtt.response_topics[0]", "broker topic"),
    (["hermesd/other/#"], "mqtt.response_topics[0]", "where answers never go"),
    (["homeassistant/#"], "mqtt.response_topics[0]", "where answers never go"),
    ([""], "mqtt.response_topics[0]", "non-empty text"),
    ("replies/#", "mqtt.response_topics", "a list of texts"),
])
def test_response_topics(tmp_path: Path, topics: Any, path: str | None,
                         what: str | None) -> None:
    found = _problems(_config({"response_topics": topics}), tmp_path)
    if path is None or what is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0][0] == path and what in found[0][1], found


def test_check_config_names_every_clash_and_exits_78(tmp_path: Path) -> None:
    """The review's case: a point's command topic is hermesd's own command topic."""
    data = _config({"response_topics": ["hermesd/#"]}, command_topic="hermesd/n1/command",
                   state_topic="homeassistant/status", availability_topic="hermesd/n2/x")
    path = tmp_path / "hermesd.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "hermesd.main", "--check-config", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 78, done.stderr
    lines = done.stderr.splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "devices.yard.availability_topic", "devices.yard.points.lamp.state_topic",
        "devices.yard.points.lamp.command_topic", "mqtt.response_topics[0]"], lines
    assert all(line.startswith("config error: ") for line in lines)
    assert "'hermesd/n1/command' is inside hermesd's own MQTT topics" in lines[2]


def test_a_command_topic_heard_as_a_state_is_refused(tmp_path: Path) -> None:
    """A command topic that is another point's state topic made every write a reading of that
    point ("write yard_trim 33": the outdoor temperature 33 °C); its own state topic on MQTT
    3.1.1 made hermesd's own command the device's confirmation (review atk20s, #8)."""
    data = _config(state_topic="plant/lamp/state", command_topic="plant/lamp/set")
    yard = data["devices"]["yard"]
    yard["points"]["outdoor"] = {"name": "Outdoor temperature", "unit": "°C",
                                 "state_topic": "plant/weather/temperature"}
    yard["points"]["trim"] = {"name": "Yard trim", "writable": True, "min": 0, "max": 50,
                              "state_topic": "plant/trim/state",
                              "command_topic": "plant/weather/temperature"}
    assert _problems(data, tmp_path) == [(
        "devices.yard.points.trim.command_topic",
        "'plant/weather/temperature' is the state_topic of outdoor: each write would be a "
        "reading of it, for hermesd and every subscriber")]
    same = _config(state_topic="plant/lamp", command_topic="plant/lamp")
    assert _problems(same, tmp_path) == []  # MQTT 5: its own publish never comes back
    same["mqtt"]["protocol"] = "3.1.1"
    assert _problems(same, tmp_path) == [(
        "devices.yard.points.lamp.command_topic",
        "'plant/lamp' is the state_topic of lamp: on MQTT 3.1.1 hermesd hears its own "
        "publish, and would take its command for the device's confirmation")]


def test_the_brokers_own_topics_take_no_publish_of_ours(tmp_path: Path) -> None:
    """Topics beginning with $ ($SYS) are the broker's: it drops a client's publish there. A
    command topic, base topic or discovery prefix there is refused; a state topic there (the
    broker's uptime, its client count) is a reading like any other (atk20s #21)."""
    assert _problems(_config(command_topic="$SYS/lamp/set"), tmp_path) == [(
        PATHS["command_topic"], "'$SYS/lamp/set' begins with $: such topics are the broker's "
        "own ($SYS), and a write published there would be dropped")]
    assert _problems(_config(state_topic="$SYS/broker/uptime"), tmp_path) == []
    found = _problems(_config({"base_topic": "$SYS", "discovery_prefix": "$ha"}), tmp_path)
    assert [path for path, _ in found] == ["mqtt.base_topic", "mqtt.discovery_prefix"], found
    assert all("the broker's own" in message for _, message in found)
