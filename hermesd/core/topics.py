"""The MQTT topics of one hermesd node, named in one place for the daemon and its mqtt tool.

With `B` = `mqtt.base_topic` and `N` = `node.id` (DESIGN, "MQTT topics"):
  B/N/availability          online/offline, retained; offline is the last will
  B/N/<point>/state         the point's value, retained
  B/N/<point>/set           a write request for a writable point
  B/N/command               a request as `ask` takes it; answers go to B/N/response
  B/N/<device>/availability online/offline of one configured device, retained (added here)
  B/N/talk                  push-to-talk presses for the voice loop (added here)
  <prefix>/<component>/N/<object>/config   Home Assistant discovery, retained
  <prefix>/status           Home Assistant's own birth and will
Point topics have two levels below `B/N`, device topics two with a different leaf, node topics
one, so no point or device id can make two of them collide. Nothing here accepts a topic from
outside: names are built only from validated config ids.

`ToolTopics` is what the daemon tells its mqtt tool (the `topics` of its config slice): the
node's `Topics` and the rules for answers; the tool reads it back with the same class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hermesd.core.errors import BadRequest


@dataclass(frozen=True, slots=True)
class Topics:
    base: str  # "B/N"
    prefix: str  # the Home Assistant discovery prefix
    node: str  # N

    @classmethod
    def named(cls, base_topic: str, node: str, prefix: str) -> Topics:
        return cls(base=f"{base_topic}/{node}", prefix=prefix, node=node)

    @property
    def availability(self) -> str:
        return f"{self.base}/availability"

    @property
    def command(self) -> str:
        return f"{self.base}/command"

    @property
    def response(self) -> str:
        return f"{self.base}/response"

    @property
    def set_filter(self) -> str:
        """The subscription that takes every point's write requests."""
        return f"{self.base}/+/set"

    @property
    def talk(self) -> str:
        return f"{self.base}/talk"

    @property
    def ha_status(self) -> str:
        return f"{self.prefix}/status"

    def state(self, point: str) -> str:
        return f"{self.base}/{point}/state"

    def set(self, point: str) -> str:
        return f"{self.base}/{point}/set"

    def attributes(self, point: str) -> str:
        """Home Assistant's `json_attributes_topic` of a point: quality, age, stale reason."""
        return f"{self.base}/{point}/attributes"

    def device_availability(self, device: str) -> str:
        return f"{self.base}/{device}/availability"

    def discovery(self, component: str, object_id: str) -> str:
        return f"{self.prefix}/{component}/{self.node}/{object_id}/config"


def _strings(obj: dict[str, Any], key: str) -> tuple[str, ...]:
    value = obj.get(key, [])
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise BadRequest(f"topics.{key}: expected a list of topics, got {value!r}")
    return tuple(value)


@dataclass(frozen=True, slots=True)
class ToolTopics:
    """The topics the mqtt tool serves for the daemon, and where answers may go."""

    names: Topics
    listen_talk: bool  # the voice loop is on: push-to-talk presses are taken
    #: topic filters an answer may never go to: every hermesd node's namespace (`B/#`),
    #: Home Assistant's, each device's own topics
    protected: tuple[str, ...]
    allowed: tuple[str, ...] | None = None  # mqtt.response_topics; None: any not protected
    #: the devices' availability topics: `offline` with the node's at a clean stop
    devices: tuple[str, ...] = ()

    @property
    def talk(self) -> str | None:
        return self.names.talk if self.listen_talk else None

    def to_dict(self) -> dict[str, Any]:
        return {"base": self.names.base, "prefix": self.names.prefix, "node": self.names.node,
                "talk": self.listen_talk, "protected": list(self.protected),
                "allowed": None if self.allowed is None else list(self.allowed),
                "devices": list(self.devices)}

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> ToolTopics:
        names = {key: obj.get(key) for key in ("base", "prefix", "node")}
        for key, value in names.items():
            if not isinstance(value, str) or not value:
                raise BadRequest(f"topics.{key}: expected a topic, got {value!r}")
        if not isinstance(obj.get("talk", False), bool):
            raise BadRequest(f"topics.talk: expected true or false, got {obj.get('talk')!r}")
        return cls(names=Topics(**names),  # type: ignore[arg-type]  # checked: all str
                   listen_talk=obj.get("talk", False), protected=_strings(obj, "protected"),
                   allowed=None if obj.get("allowed") is None else _strings(obj, "allowed"),
                   devices=_strings(obj, "devices"))
