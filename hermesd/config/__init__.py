"""The config file: loaded once, validated completely, frozen into typed objects."""

from hermesd.config.loader import load_config
from hermesd.config.model import Access, Config, Device, Llm, Mqtt, Node, Paths, Point, Role, Voice

__all__ = ["Access", "Config", "Device", "Llm", "Mqtt", "Node", "Paths", "Point", "Role", "Voice",
           "load_config"]
