"""The MQTT topics of one hermesd node, named in one place.

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
"""

from __future__ import annotations

from dataclasses import dataclass

from hermesd.config.model import Config


@dataclass(frozen=True, slots=True)
class Topics:
    base: str  # "B/N"
    prefix: str  # the Home Assistant discovery prefix
    node: str  # N

    @classmethod
    def of(cls, config: Config) -> Topics:
        assert config.mqtt is not None
        return cls(base=f"{config.mqtt.base_topic}/{config.node.id}",
                   prefix=config.mqtt.discovery_prefix, node=config.node.id)

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
