"""The settings of a `driver: mqtt` device (points on other clients' topics) and of its points,
as the config checked them (hermesd/config/drivers/mqtt.py builds them) and as the mqtt tool
and the plant simulator read them back; and the broker the mqtt tool connects to for the
daemon (the `mqtt` section, hermesd.toolspecs.mqtt_slice). The defaults here are the config's
defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermesd.core.settings import settings_dict, settings_of
from hermesd.core.topics import ToolTopics


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
    #: the state is a JSON object and the value is at this dotted path in it
    #: ("temperature", "ENERGY.Power", "sensors.0.t"); None: the payload is the value
    value_key: str | None = None
    #: a write publishes the JSON object {command_key: value} instead of the bare value
    command_key: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "point") -> MqttPointSettings:
        return settings_of(cls, obj, where)


@dataclass(frozen=True)
class BrokerTls:
    ca: str | None = None  # CA bundle that signed the broker's certificate
    cert: str | None = None  # client certificate (mutual TLS)
    key: str | None = None  # client key
    insecure: bool = False  # skip host name checking (test brokers only)

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "mqtt.tls") -> BrokerTls:
        return settings_of(cls, obj, where)


@dataclass(frozen=True)
class BrokerSettings:
    """The broker and the daemon's topics on it. No secret travels: a password is a file.
    Every key is sent (the config's `mqtt` section has the defaults)."""

    host: str
    port: int
    client_id: str
    protocol: str  # "5" | "3.1.1"
    keepalive: float  # seconds
    outbox_limit: int  # messages kept (persisted) while the broker is away
    topics: ToolTopics
    username: str | None = None
    password_file: str | None = None  # read at connect time
    tls: BrokerTls | None = None

    def to_dict(self) -> dict[str, Any]:
        return settings_dict(self)

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], where: str = "mqtt") -> BrokerSettings:
        return settings_of(cls, obj, where)
