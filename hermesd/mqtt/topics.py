"""The MQTT topics of this node's config (the names themselves: hermesd.core.topics, shared
with the mqtt tool)."""

from __future__ import annotations

from hermesd.config.model import Config
from hermesd.core.topics import Topics

__all__ = ["Topics", "topics_of"]


def topics_of(config: Config) -> Topics:
    assert config.mqtt is not None
    return Topics.named(config.mqtt.base_topic, config.node.id, config.mqtt.discovery_prefix)
