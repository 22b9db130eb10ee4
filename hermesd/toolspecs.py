"""Which tool processes a config needs, how to start each, and the config slice each is sent.

Built-in drivers run as `python -m hermes_tools.<driver>` with the daemon's own interpreter, so
a venv install needs nothing on PATH; an `exec` device runs its own command. A tool only ever
sees the slice of the config it serves. The mqtt tool runs whenever the config has an `mqtt`
section, with or without `driver: mqtt` devices: it is also the daemon's link to the broker.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from hermesd.config.model import Config, Device, Point
from hermesd.core.errors import ConfigError, ProtocolError
from hermesd.core.protocol import MAX_FRAME, Configure, encode
from hermesd.core.settings.mqtt import (
    BrokerSettings,
    BrokerTls,
    MqttDeviceSettings,
    MqttPointSettings,
)
from hermesd.core.topics import ToolTopics
from hermesd.mqtt.topics import topics_of
from hermesd.registry import effective_max_age, tool_of
from hermesd.supervisor import ToolSpec
from hermesd.value_maps import raw_kind

BUILTIN = ("modbus", "serial", "mqtt")


def point_slice(point: Point, device: Device) -> dict[str, Any]:
    """What a tool knows of a point. A mapped point's tool sees only raw values: its raw kind,
    and the raw values as its range (names are hermesd's, see `value_maps`)."""
    lo, hi, choices = point.min, point.max, list(point.choices)
    if point.value_map:
        raws = [int(e.raw) for e in point.value_map]
        lo, hi, choices = (None, None, []) if raw_kind(point) == "bool" else \
            (min(raws), max(raws), [])
    return {"id": point.id, "name": point.name, "kind": raw_kind(point), "unit": point.unit,
            "writable": point.writable, "min": lo, "max": hi,
            "choices": choices, "max_age": effective_max_age(point, device),
            **({"poll_interval": point.poll_interval} if point.poll_interval else {}),
            **dict(point.params)}


def device_slice(device: Device) -> dict[str, Any]:
    return {"id": device.id, "driver": device.driver, "poll_interval": device.poll_interval,
            "timeout": device.timeout, **dict(device.params),
            "points": {pid: point_slice(p, device) for pid, p in device.points.items()}}


def checked_tool_specs(config: Config) -> dict[str, ToolSpec]:
    """`tool_specs`, or ConfigError when a tool's settings would not fit in one frame: a
    reload to such a config would be half applied (hermesd's own points changed, the tool's
    not), and a start would fail at the tool."""
    specs = tool_specs(config)
    problems = []
    for name, spec in specs.items():
        try:
            encode(Configure(0, spec.config))
        except ProtocolError as exc:
            problems.append(("devices", f"the {name} tool's settings ({exc}) do not fit in one "
                                        f"frame of {MAX_FRAME} bytes: split its points over "
                                        "fewer or smaller devices, or several nodes"))
    if problems:
        raise ConfigError(problems)
    return specs


def tool_specs(config: Config) -> dict[str, ToolSpec]:
    specs: dict[str, ToolSpec] = {}
    common = {"node": {"id": config.node.id, "name": config.node.name},
              "state_dir": str(config.paths.state_dir)}
    by_tool: dict[str, list[Device]] = {}
    for device in config.devices.values():
        by_tool.setdefault(tool_of(device), []).append(device)
    if config.mqtt is not None:
        by_tool.setdefault("mqtt", [])
    for tool, devices in sorted(by_tool.items()):
        cfg = {**common, "devices": {d.id: device_slice(d) for d in devices}}
        if tool == "mqtt" and config.mqtt is not None:
            cfg["mqtt"] = mqtt_slice(config)
        if devices and devices[0].driver == "exec":
            argv = tuple(devices[0].params["command"])
        else:
            argv = (sys.executable, "-m", f"hermes_tools.{tool}")
        specs[tool] = ToolSpec(name=tool, argv=argv, config=cfg)
    if config.llm.enabled:
        from hermesd.router.llm import TOOL, llm_spec

        specs[TOOL] = llm_spec(config)  # the LLM worker: supervised like every tool
    if config.voice.enabled:
        specs["whisper"] = whisper_spec(config, common)
    return specs


def mqtt_slice(config: Config) -> dict[str, Any]:
    """The broker settings and the daemon's topics, for the mqtt tool (no secrets: paths only)."""
    mqtt = config.mqtt
    assert mqtt is not None
    topics = topics_of(config)
    # an answer may go to a requester's own topic, never to any hermesd node's (B/#: not only
    # this one's), Home Assistant's or a device's; and only to mqtt.response_topics when listed
    protected = [f"{mqtt.base_topic}/#", f"{topics.prefix}/#"]
    for device in config.devices.values():
        if device.driver != "mqtt":
            continue
        availability = MqttDeviceSettings.from_dict(device.params).availability_topic
        if availability:
            protected.append(availability)
        for point in device.points.values():
            settings = MqttPointSettings.from_dict(point.params)
            protected += [t for t in (settings.state_topic, settings.command_topic) if t]
    tls = mqtt.tls
    return BrokerSettings(
        host=mqtt.host, port=mqtt.port, protocol=mqtt.protocol,
        client_id=mqtt.client_id or f"hermesd-{config.node.id}", keepalive=mqtt.keepalive,
        username=mqtt.username,
        password_file=str(mqtt.password_file) if mqtt.password_file else None,
        tls=None if tls is None else BrokerTls(
            ca=str(tls.ca) if tls.ca else None, cert=str(tls.cert) if tls.cert else None,
            key=str(tls.key) if tls.key else None, insecure=tls.insecure),
        outbox_limit=mqtt.outbox_limit,
        topics=ToolTopics(
            names=topics, listen_talk=config.voice.enabled, protected=tuple(sorted(set(protected))),
            allowed=None if mqtt.response_topics is None else tuple(mqtt.response_topics),
            devices=tuple(topics.device_availability(d) for d in config.devices)),
    ).to_dict()


def whisper_spec(config: Config, common: dict[str, Any]) -> ToolSpec:
    """The speech-to-text tool of `voice` (and `ask --audio`): model file, pin, spool dir."""
    from hermesd.core.model_files import DEFAULT_WHISPER, WHISPER, default_whisper, whisper_sha256
    from hermesd.voice.prompt import vocabulary_prompt

    voice = config.voice
    cfg: dict[str, Any] = {**common, "threads": min(4, os.cpu_count() or 1),
                           "language": voice.language, "prompt": vocabulary_prompt(config),
                           "spool": str(config.paths.runtime_dir / "voice")}
    if voice.model == "default":
        found = default_whisper(config.paths.state_dir)
        cfg["model"] = str(found) if found else None
        cfg["sha256"] = whisper_sha256(found) if found else None
        cfg["missing"] = None if found else (
            f"the default whisper model {WHISPER[DEFAULT_WHISPER].file} is not prepared; run scripts/models "
            "(or python -m hermesd.models whisper)")
    else:
        cfg["model"] = str(config.source.parent / voice.model)
        cfg["sha256"] = voice.model_sha256
    return ToolSpec(name="whisper", argv=(sys.executable, "-m", "hermes_tools.whisper"),
                    config=cfg)
