"""The settings of a `driver: mqtt` device (points on other clients' topics) and of its points,
as the config checked them (hermesd/config/drivers/mqtt.py builds them) and as the mqtt tool
and the plant simulator read them back. The defaults here are the config's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermesd.core.settings import settings_dict, settings_of


@dataclass(frozen=True)
class MqttDeviceSettings:
    availability_topic: str | None = None  # where the device says online/offline
    payload_available: str = "online"
    payload_not_available: str = "offline"

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "device") -> MqttDeviceSettings:
        return settings_of(cls, obj, where)


@dataclass(frozen=True)
class MqttPointSettings:
    state_topic: str | None = None  # where the value is read (None: a write-only point)
    command_topic: str | None = None  # where a write is published (None: read-only)
    type: str = "float"  # float | int | string | bool
    payload_on: str = "ON"  # a bool's payloads
    payload_off: str = "OFF"
    qos: int = 1
    retain: bool = False
    confirm: bool = True  # a write waits for the state topic to show the value (with one)

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "point") -> MqttPointSettings:
        return settings_of(cls, obj, where)
