"""Home Assistant MQTT discovery configs for every point of a config, built as plain data.

One retained config per point under `<prefix>/<component>/<node>/<point>/config`: a `sensor` or
`binary_sensor` for what is only read, a `number` (min/max/step) for a writable number, a
`switch` for a writable on/off point, a `select`/`text` for writable text. "Writable" is what
`mqtt.command_role` may write, since every write from Home Assistant is made in that role: a
point the role may not write is announced read-only, without a command topic, so HA never shows
a control that could only ever answer FORBIDDEN. Each point belongs to
an HA device for its configured device, reached `via_device` the hermesd node's own device, which
carries the node entities: connectivity, the command `text`, the last reply, and (with voice) a
push-to-talk `button`. Units and classes are only sent where HA accepts exactly that pair: HA
rejects the whole entity for a unit its device class does not allow, so an unknown unit is sent
without a class. Nothing here publishes; `bridge` does.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from typing import Any

from hermesd import __version__
from hermesd.config.model import Config, Device, Point
from hermesd.mqtt.ha_support import DEFAULT_CLASS_OF_UNIT, DEVICE_CLASS_STATE_CLASSES
from hermesd.mqtt.topics import Topics, topics_of
from hermesd.registry import effective_max_age

ORIGIN = {"name": "hermesd", "sw_version": __version__}

#: units HA 2024.1 accepts with a device class, character for character: a unit implies its
#: class only where that pair is valid on the oldest HA supported (see ha_support)
DEVICE_CLASS_OF_UNIT = DEFAULT_CLASS_OF_UNIT
#: the node's own entities, by component; a point of the same component and id takes precedence
NODE_OBJECTS = {"binary_sensor": "hermesd_agent", "text": "hermesd_command",
                "sensor": "hermesd_reply", "button": "hermesd_talk"}
ON, OFF = "ON", "OFF"
TEXT_MAX = 255  # the longest state or text HA takes


@dataclass(frozen=True, slots=True)
class Entity:
    """One Home Assistant entity: where its config goes and what it says."""

    component: str
    object_id: str
    config: dict[str, Any]
    point: str | None = None  # the point it shows, None for the node's own entities

    def topic(self, topics: Topics) -> str:
        return topics.discovery(self.component, self.object_id)

    def payload(self) -> str:
        return json.dumps(self.config, ensure_ascii=False, separators=(",", ":"))


def slug(text: str) -> str:
    """An entity id part: lower case letters, digits and single underscores."""
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9_]", "_", text.lower())).strip("_") or "x"


def node_identifier(config: Config) -> str:
    return f"hermesd_{config.node.id}"


def device_identifier(config: Config, device: str) -> str:
    return f"hermesd_{config.node.id}_{device}"


def point_unique_id(config: Config, point: str) -> str:
    return f"hermesd_{config.node.id}_{point}"


def writable_over_mqtt(config: Config, point: Point) -> bool:
    """Whether a write of this point from MQTT could pass policy: the point is writable and
    `mqtt.command_role` may write it (an unknown role may write nothing)."""
    if not point.writable or config.mqtt is None:
        return False
    role = config.access.roles.get(config.mqtt.command_role)
    return role is not None and role.may_write(point.id)


def component_of(point: Point, writable: bool) -> str:
    """The HA component of a point; `writable`: whether HA may write it (`writable_over_mqtt`)."""
    if point.kind == "bool":
        return "switch" if writable else "binary_sensor"
    if point.kind in ("int", "float"):
        return "number" if writable else "sensor"
    if writable:
        return "select" if point.choices else "text"
    return "sensor"


def classes_of(point: Point) -> dict[str, Any]:
    """unit_of_measurement and device_class of a numeric point: the class its `ha:` names (the
    config checked it takes this unit), else the one its unit implies, else none."""
    out: dict[str, Any] = {}
    if point.unit:
        out["unit_of_measurement"] = point.unit
    device_class = point.ha.device_class or DEVICE_CLASS_OF_UNIT.get(point.unit or "")
    if device_class is not None:
        out["device_class"] = device_class
    return out


def state_class_of(point: Point, device_class: str | None) -> str:
    """A sensor's state class: its `ha:` one, else a total for classes that are totals
    (energy: a meter's counter is `total_increasing`), else a measurement."""
    if point.ha.state_class is not None:
        return point.ha.state_class
    fits = DEVICE_CLASS_STATE_CLASSES.get(device_class or "", ("measurement",))
    if "measurement" in fits or not fits:
        return "measurement"
    return "total_increasing" if "total_increasing" in fits else fits[0]


def step_of(point: Point) -> float:
    """The step of a number entity: 1 for whole numbers, the scale (or 0.1) for the rest."""
    if point.step is not None:
        return point.step
    if point.kind == "int":
        return 1
    scale = point.params.get("scale")
    if isinstance(scale, int | float) and 0.001 <= abs(scale) < 1:
        return float(abs(scale))
    return 0.1


def expire_after(point: Point, device: Device, republish: float) -> int | None:
    """Seconds without a state after which HA shows the entity unavailable.

    An event-fed point has only this to show that its value aged: its `max_age`. A polled point
    also has its device's availability, which goes `offline` within seconds when the device
    stops answering or all its values go stale; its expiry is only the backstop for a value
    that alone stops coming, so it may be long: twice `mqtt.republish` (at least its
    `max_age`), and an unchanged value is sent again only every `republish`, not every poll.
    """
    max_age = effective_max_age(point, device)
    if max_age is None:
        return None
    if device.poll_interval is not None:
        max_age = max(max_age, 2 * republish)
    return max(1, math.ceil(max_age))


def republish_after(point: Point, device: Device, republish: float) -> float | None:
    """Seconds after which an unchanged, fresh value is sent again (None: never needed)."""
    expiry = expire_after(point, device, republish)
    return None if expiry is None else min(republish, expiry / 2)


def attributes_payload(quality: str, age: float | None, timestamp: float | None,
                       reason: str | None) -> str:
    """A point's `json_attributes_topic` payload: the quality of its value, how old it was when
    sent, when it was read, and why it is stale (null when it is not)."""
    stamp = None
    if timestamp is not None:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(timestamp)) + \
            f".{int(timestamp % 1 * 1000):03d}Z"
    return json.dumps({"quality": quality, "age_s": None if age is None else round(age, 1),
                       "timestamp": stamp, "stale_reason": reason},
                      ensure_ascii=False, separators=(",", ":"))


def state_payload(point: Point, value: Any) -> str:
    """A value as HA's entity of this point reads it from its state topic."""
    if point.kind == "bool":
        return ON if value else OFF
    if isinstance(value, bool):  # a bool value on a numeric point: say it as a number
        return str(int(value))
    # what json.dumps says of a plain int or a finite float, without the encoder it makes
    # for every call (every state sent)
    if value.__class__ is int:
        return int.__repr__(value)
    if value.__class__ is float and math.isfinite(value):
        return float.__repr__(value)
    if isinstance(value, int | float):
        return json.dumps(value)
    return str(value)[:TEXT_MAX]


def entities(config: Config) -> list[Entity]:
    """Every entity of this config: the node's own, then one per point, in config order."""
    assert config.mqtt is not None
    topics = topics_of(config)
    taken = {(component_of(p, writable_over_mqtt(config, p)), p.id)
             for p in config.points.values()}
    node_device = {"identifiers": [node_identifier(config)], "name": config.node.name,
                   "manufacturer": "hermesd", "model": "hermesd", "sw_version": __version__}
    node_availability = [{"topic": topics.availability}]
    node_ids = f"hermesd_{config.node.id}"
    out: list[Entity] = []

    def node_entity(component: str, name: str, extra: dict[str, Any]) -> None:
        object_id = NODE_OBJECTS[component]
        if (component, object_id) in taken:
            return  # a point by this id came first; its entity stays
        what = object_id.removeprefix("hermesd_")
        cfg: dict[str, Any] = {
            "name": name, "unique_id": f"{node_ids}.{what}",
            "default_entity_id": f"{component}.{slug(config.node.id)}_hermesd_{what}",
            **extra, "device": node_device, "origin": ORIGIN}
        out.append(Entity(component, object_id, cfg))

    node_entity("binary_sensor", "Connected", {
        "state_topic": topics.availability, "payload_on": "online", "payload_off": "offline",
        "device_class": "connectivity", "entity_category": "diagnostic", "qos": 1})
    node_entity("text", "Command", {
        "command_topic": topics.command, "min": 0, "max": TEXT_MAX, "mode": "text",
        "availability": node_availability, "qos": 1, "retain": False})
    node_entity("sensor", "Last reply", {
        "state_topic": topics.response,
        "value_template": "{{ value_json.reply[:255] }}",
        "availability": node_availability, "qos": 1})
    if config.voice.enabled:
        node_entity("button", "Push to talk", {
            "command_topic": topics.talk, "payload_press": "PRESS",
            "availability": node_availability, "qos": 1, "retain": False})

    for point in config.points.values():
        device = config.devices[point.device]
        out.append(point_entity(config, topics, point, device))
    return out


def point_entity(config: Config, topics: Topics, point: Point, device: Device) -> Entity:
    writable = writable_over_mqtt(config, point)
    component = component_of(point, writable)
    cfg: dict[str, Any] = {
        "name": point.name, "unique_id": point_unique_id(config, point.id),
        "default_entity_id": f"{component}.{slug(config.node.id)}_{slug(point.id)}",
        "state_topic": topics.state(point.id),
        "json_attributes_topic": topics.attributes(point.id),
        "availability": [{"topic": topics.availability},
                         {"topic": topics.device_availability(device.id)}],
        "availability_mode": "all", "qos": 1,
    }
    if writable:
        cfg["command_topic"] = topics.set(point.id)
        cfg["retain"] = False
    if component in ("sensor", "binary_sensor") and config.mqtt is not None:
        expiry = expire_after(point, device, config.mqtt.republish)
        if expiry is not None:
            cfg["expire_after"] = expiry
    if component in ("switch", "binary_sensor"):
        cfg["payload_on"], cfg["payload_off"] = ON, OFF
    elif component == "number":
        cfg.update(min=point.min, max=point.max, step=step_of(point), mode="box",
                   **classes_of(point))
    elif component == "sensor" and point.kind in ("int", "float"):
        classes = classes_of(point)
        classes["state_class"] = state_class_of(point, classes.get("device_class"))
        cfg.update(classes)
        if point.ha.suggested_display_precision is not None:
            cfg["suggested_display_precision"] = point.ha.suggested_display_precision
    elif component == "select":
        cfg["options"] = list(point.choices)
    elif component == "text":
        cfg.update(min=0, max=TEXT_MAX, mode="text")
    if point.kind == "bool" and point.ha.device_class is not None and component == \
            "binary_sensor":
        cfg["device_class"] = point.ha.device_class
    if point.ha.icon is not None:
        cfg["icon"] = point.ha.icon
    category = point.ha.entity_category
    if category == "diagnostic" or (category == "config" and component not in READ_ONLY):
        # HA takes `config` only for controls: a point HA may not write is a sensor, and its
        # config category is left out (2024.1 drops it with a warning, later releases refuse)
        cfg["entity_category"] = category
    if not point.ha.enabled_by_default:
        cfg["enabled_by_default"] = False
    cfg["device"] = device_of(config, device)
    cfg["origin"] = ORIGIN
    return Entity(component, point.id, cfg, point.id)


READ_ONLY = frozenset({"sensor", "binary_sensor"})


def device_of(config: Config, device: Device) -> dict[str, Any]:
    """The HA device of a configured device: its display name, maker and model when the
    config says them (else its id and driver), and its own web page."""
    info = device.info
    out: dict[str, Any] = {
        "identifiers": [device_identifier(config, device.id)], "name": info.name or device.id,
        "model": info.model or f"{device.driver} device",
        "manufacturer": info.manufacturer or "hermesd", "via_device": node_identifier(config)}
    if info.configuration_url is not None:
        out["configuration_url"] = info.configuration_url
    return out


def announcements(config: Config) -> dict[str, str]:
    """Discovery topic -> config payload, for everything this config should show in HA."""
    assert config.mqtt is not None
    if not config.mqtt.discovery:
        return {}
    topics = topics_of(config)
    return {e.topic(topics): e.payload() for e in entities(config)}
