"""The frozen, typed config that the rest of hermesd reads. Built only by `config.loader`.

Every field is documented here, where it is declared. Durations are seconds (floats); paths are
absolute (relative ones in the file are taken relative to the config file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from hermesd.config.history import History, PointAlarms
from hermesd.config.operations import Audit, Memory, Metrics

ValueKind = Literal["bool", "int", "float", "string"]
Driver = Literal["modbus", "serial", "mqtt", "exec"]


@dataclass(frozen=True, slots=True)
class Node:
    id: str  # MQTT topics, HA unique ids, client ids: [A-Za-z0-9_-]
    name: str  # shown to people (HA device name, status)


@dataclass(frozen=True, slots=True)
class Paths:
    state_dir: Path  # LKV cache, audit log, prepared models: must survive restarts
    runtime_dir: Path  # control socket and tool sockets: recreated at start
    #: the user's directories of device profiles, searched before the shipped ones
    profiles: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class Role:
    name: str
    read: bool  # may read configured points
    write: bool | frozenset[str]  # may write: all writable points, none, or these point ids
    raw_read: bool = False  # may read device registers directly (Modbus raw access, tool calls)
    raw_write: bool = False  # may write device registers directly
    writes_per_minute: int = 60  # rate limit of writes for this role (all points together)

    def may_write(self, point: str) -> bool:
        if isinstance(self.write, bool):
            return self.write
        return point in self.write


@dataclass(frozen=True, slots=True)
class Access:
    default_role: str  # role of a request that names none (and of every unknown peer)
    roles: Mapping[str, Role]
    #: unix user name or uid -> the role it gets on the control socket
    users: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Llm:
    model: str  # "default" (the embedded model prepared by scripts/setup) or a .gguf path
    threads: int  # 0 means auto: physical cores minus one (llama.cpp threads spin-wait; see README)
    context: int  # context window in tokens
    enabled: bool = True  # false: rules only
    timeout: float = 10.0  # seconds a generation may take before the worker is killed
    queue: int = 2  # requests waiting for the model beyond the one running; more answer BUSY


@dataclass(frozen=True, slots=True)
class Deadband:
    """The least change of a numeric point that is published at once (MQTT): more than
    `amount` in the point's unit, or more than `amount` percent of the value last published.
    A smaller change waits for the next periodic re-publish (`mqtt.republish`)."""

    amount: float  # > 0; a percentage 0..100 when `percent`
    percent: bool = False

    def exceeded(self, last: float, value: float) -> bool:
        """Whether `value` is far enough from `last` (the value last published) to publish."""
        change = abs(value - last)
        if self.percent:
            return change > abs(last) * self.amount / 100 if last else change > 0
        return change > self.amount

    def describe(self) -> str:
        return f"{self.amount:g}%" if self.percent else f"{self.amount:g}"


@dataclass(frozen=True, slots=True)
class MapEntry:
    """One entry of a point's value map (`map: {0: off, 1: auto}`)."""

    raw: int | bool  # what the device holds (a bool for a coil or bit point)
    name: str  # what people read, write and are answered in
    #: its name in other languages ({"zh": "自动"}): understood in commands, used in replies
    names: Mapping[str, str] = field(default_factory=dict)

    def label(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.name


@dataclass(frozen=True, slots=True)
class HaEntity:
    """How a point looks in Home Assistant (`ha:` of a point); None: hermesd's choice."""

    device_class: str | None = None  # checked against the unit HA takes for it (see mqtt/ha_units)
    state_class: str | None = None  # measurement | total | total_increasing
    icon: str | None = None  # mdi:...
    suggested_display_precision: int | None = None  # decimals HA shows
    entity_category: str | None = None  # config | diagnostic
    enabled_by_default: bool = True


@dataclass(frozen=True, slots=True)
class Point:
    id: str
    device: str
    driver: Driver
    name: str  # what people call it; matched by the router
    aliases: tuple[str, ...] = ()  # more names people use
    #: what the point is, in a sentence (the router matches its words; the model sees it)
    description: str | None = None
    #: its name in other languages, by language code ({"zh": "1号窑干球温度"}): matched by the
    #: router, and used by replies in that language (never a guessed translation)
    names: Mapping[str, str] = field(default_factory=dict)
    unit: str | None = None
    max_age: float | None = None  # seconds after which a value is stale; None: only by offline
    #: seconds between polls of this point when it has its own (a Modbus point's `poll_interval`
    #: or its group's); None: its device's `poll_interval` (or not polled at all)
    poll_interval: float | None = None
    #: changes within it are not published at once (numeric points; None: every change is)
    deadband: Deadband | None = None
    kind: ValueKind = "float"  # the value type people and policy see
    writable: bool = False
    min: float | None = None  # writable numbers: the allowed range (engineering units)
    max: float | None = None
    choices: tuple[str, ...] = ()  # string points: the allowed values when written
    step: float | None = None  # numbers: a written value must be origin + a whole number of steps
    step_origin: float = 0.0
    #: driver keys (table, address, type, topic, query, ...)
    params: Mapping[str, Any] = field(default_factory=dict)
    #: a value map: the point reads, writes and answers in these names (its kind is then
    #: "string" and its choices are the names); the device sees the raw values
    value_map: tuple[MapEntry, ...] = ()
    ha: HaEntity = field(default_factory=HaEntity)  # Home Assistant tuning
    alarms: PointAlarms | None = None  # limits or a state that raise an alarm (history on)

    def label(self, lang: str = "en") -> str:
        """The point's name for a reply in `lang`: its own name there when the config gives
        one, else its (English) name."""
        return self.names.get(lang) or self.name or self.id


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """What people (and Home Assistant's device page) call a device; None: not said."""

    name: str | None = None  # "Boiler house PLC" (default: the device id)
    manufacturer: str | None = None
    model: str | None = None
    configuration_url: str | None = None  # http(s):// of its own web page


@dataclass(frozen=True, slots=True)
class Device:
    id: str
    driver: Driver
    points: Mapping[str, Point]
    #: driver keys: host, port, unit, baudrate, topics, ...
    params: Mapping[str, Any] = field(default_factory=dict)
    poll_interval: float | None = None  # seconds between polls, for drivers that poll
    timeout: float = 1.0  # seconds one request to the device may take
    info: DeviceInfo = field(default_factory=DeviceInfo)


@dataclass(frozen=True, slots=True)
class MqttTls:
    ca: Path | None = None  # CA bundle that signed the broker's certificate
    cert: Path | None = None  # client certificate (mutual TLS)
    key: Path | None = None  # client key
    insecure: bool = False  # skip host name checking (test brokers only)


@dataclass(frozen=True, slots=True)
class Mqtt:
    host: str
    port: int
    base_topic: str  # B in B/N/...
    discovery_prefix: str  # Home Assistant discovery prefix
    command_role: str  # role of requests that come over MQTT
    protocol: Literal["5", "3.1.1"] = "5"
    username: str | None = None
    password_file: Path | None = None  # first line is the password; never in the config itself
    tls: MqttTls | None = None
    keepalive: float = 30.0
    client_id: str | None = None  # default: hermesd-<node.id>
    discovery: bool = True  # publish Home Assistant discovery configs
    outbox_limit: int = 1000  # messages kept (persisted) while the broker is away
    #: topic filters an MQTT 5 response topic must match for an answer to go there (besides
    #: B/N/response); None: any topic outside hermesd's, Home Assistant's and devices' topics
    response_topics: tuple[str, ...] | None = None
    #: seconds after which an unchanged value is published again (values are published when
    #: they change); a polled point's HA `expire_after` is twice this (see mqtt/discovery.py)
    republish: float = 300.0


@dataclass(frozen=True, slots=True)
class Voice:
    enabled: bool = False
    #: an ALSA device name, or a .wav file / FIFO path; "none": no listening (ask --audio only)
    input: str = "default"
    model: str = "default"  # "default" (whisper tiny.en prepared by scripts) or a ggml .bin path
    wake_phrase: str = "hermes"
    role: str = "viewer"
    speak: bool = False  # say the answer with espeak-ng
    #: ALSA device for spoken answers (or a directory / .wav path: answers written as files)
    output: str = "default"
    max_utterance: float = 15.0  # seconds; longer speech is cut and refused politely
    language: str = "auto"  # spoken language: "auto" (detected by multilingual models) or "en"...
    model_sha256: str | None = None  # pin for a model file of your own, checked at every load


@dataclass(frozen=True, slots=True)
class Intent:
    name: str
    phrases: tuple[str, ...]  # exact phrases (after normalisation) that trigger it
    action: Literal["read", "write", "respond"]
    point: str | None = None
    value: Any = None
    reply: str | None = None  # for respond: the text answered


@dataclass(frozen=True, slots=True)
class Config:
    source: Path
    node: Node
    paths: Paths
    access: Access
    llm: Llm
    devices: Mapping[str, Device]
    mqtt: Mqtt | None
    voice: Voice
    intents: tuple[Intent, ...] = ()
    points: Mapping[str, Point] = field(default_factory=dict)  # every point of every device, by id
    memory: Memory = field(default_factory=Memory)  # the memory watchdog's budgets
    metrics: Metrics = field(default_factory=Metrics)  # the Prometheus endpoint (off by default)
    audit: Audit = field(default_factory=Audit)  # the audit trail's retention, audit.jsonl's size
    history: History = field(default_factory=History)  # the embedded history store and alarms

    def drivers(self) -> set[str]:
        return {d.driver for d in self.devices.values()}
