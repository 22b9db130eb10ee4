"""Alarms over MQTT and in Home Assistant.

    B/N/alarms/<alarm id>/state   active | acknowledged | cleared, retained
    B/N/alarm                     one JSON event per raising, clearing or acknowledgement:
                                  {"event_type": "raised", "alarm": id, "state", "message",
                                   "value", "raised", "cleared", "acked", "acked_by", "point"}

Home Assistant sees a `binary_sensor` (device class `problem`) per configured alarm, on while
the alarm is active or acknowledged, and one `event` entity "Alarms" on the node's device
whose event types are raised / cleared / acknowledged. Alarm topics have three levels below
`B/N` and the event topic one, so no point, device or node topic can collide with them. Plain
data only: the MQTT bridge publishes.
"""

from __future__ import annotations

import json
from typing import Any

from hermesd import __version__
from hermesd.config.model import Config
from hermesd.history.alarms import AlarmDef, AlarmEvent, definitions
from hermesd.history.periods import iso
from hermesd.mqtt.discovery import (
    ORIGIN,
    component_of,
    device_identifier,
    node_identifier,
    slug,
    writable_over_mqtt,
)
from hermesd.mqtt.outgoing import Outgoing
from hermesd.mqtt.topics import Topics

EVENT_TYPES = ["raised", "cleared", "acknowledged"]


def state_topic(topics: Topics, alarm_id: str) -> str:
    return f"{topics.base}/alarms/{alarm_id}/state"


def event_topic(topics: Topics) -> str:
    return f"{topics.base}/alarm"


def alarm_announcements(config: Config) -> dict[str, str]:
    """Discovery topic -> config, for the alarms of this config (none when history is off:
    alarms live in the history store)."""
    if config.mqtt is None or not config.mqtt.discovery or not config.history.enabled:
        return {}
    topics = Topics.of(config)
    taken = {(component_of(p, writable_over_mqtt(config, p)), p.id)
             for p in config.points.values()}
    out: dict[str, str] = {}
    availability = [{"topic": topics.availability}]
    for d in definitions(config):
        object_id = f"alarm_{d.id}"
        if ("binary_sensor", object_id) in taken:
            continue  # a point of that id came first; its entity stays
        cfg = {
            "name": _name(config, d), "unique_id": f"hermesd_{config.node.id}_alarm_{d.id}",
            "default_entity_id": f"binary_sensor.{slug(config.node.id)}_{slug(object_id)}",
            "state_topic": state_topic(topics, d.id),
            "value_template": "{{ 'ON' if value in ('active', 'acknowledged') else 'OFF' }}",
            "payload_on": "ON", "payload_off": "OFF", "device_class": "problem",
            "availability": availability, "qos": 1,
            "device": {"identifiers": [device_identifier(config, d.device)], "name": d.device,
                       "manufacturer": "hermesd", "via_device": node_identifier(config)},
            "origin": ORIGIN,
        }
        out[topics.discovery("binary_sensor", object_id)] = _json(cfg)
    if ("event", "hermesd_alarms") not in taken:
        cfg = {
            "name": "Alarms", "unique_id": f"hermesd_{config.node.id}.alarms",
            "default_entity_id": f"event.{slug(config.node.id)}_hermesd_alarms",
            "state_topic": event_topic(topics), "event_types": EVENT_TYPES,
            "availability": availability, "qos": 1,
            "device": {"identifiers": [node_identifier(config)], "name": config.node.name,
                       "manufacturer": "hermesd", "model": "hermesd",
                       "sw_version": __version__},
            "origin": ORIGIN,
        }
        out[topics.discovery("event", "hermesd_alarms")] = _json(cfg)
    return out


def alarm_state_topics(config: Config, topics: Topics) -> set[str]:
    if not config.history.enabled:
        return set()
    return {state_topic(topics, d.id) for d in definitions(config)}


def event_messages(topics: Topics, event: AlarmEvent) -> list[Outgoing]:
    """The retained state and the event of one alarm change."""
    occ = event.occurrence
    payload = {"event_type": event.what, **occ.to_dict(iso)}
    payload["alarm"] = payload.pop("id")
    return [Outgoing(state_topic(topics, occ.alarm), occ.state, retain=True),
            Outgoing(event_topic(topics), _json(payload), durable=True)]


def state_messages(topics: Topics, states: dict[str, str]) -> list[Outgoing]:
    """Every alarm's state, retained (sent at each announcement)."""
    return [Outgoing(state_topic(topics, alarm_id), state, retain=True)
            for alarm_id, state in sorted(states.items())]


def _name(config: Config, d: AlarmDef) -> str:
    if d.point is None:
        return f"{d.device} offline"
    point = config.points.get(d.point)
    label = point.name if point is not None else d.point
    return {"high": f"{label} high", "low": f"{label} low"}.get(d.kind, f"{label} alarm")


def _json(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
