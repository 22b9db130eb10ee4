"""Which tool processes a config needs, how to start each, and the config slice each is sent.

Built-in drivers run as `python -m hermes_tools.<driver>` with the daemon's own interpreter, so
a venv install needs nothing on PATH; an `exec` device runs its own command. A tool only ever
sees the slice of the config it serves.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from hermesd.config.model import Config, Device, Point
from hermesd.registry import effective_max_age, tool_of
from hermesd.supervisor import ToolSpec

BUILTIN = ("modbus", "serial", "mqtt")


def point_slice(point: Point, device: Device) -> dict[str, Any]:
    return {"id": point.id, "name": point.name, "kind": point.kind, "unit": point.unit,
            "writable": point.writable, "min": point.min, "max": point.max,
            "choices": list(point.choices), "max_age": effective_max_age(point, device),
            **dict(point.params)}


def device_slice(device: Device) -> dict[str, Any]:
    return {"id": device.id, "driver": device.driver, "poll_interval": device.poll_interval,
            "timeout": device.timeout, **dict(device.params),
            "points": {pid: point_slice(p, device) for pid, p in device.points.items()}}


def tool_specs(config: Config) -> dict[str, ToolSpec]:
    specs: dict[str, ToolSpec] = {}
    common = {"node": {"id": config.node.id, "name": config.node.name},
              "state_dir": str(config.paths.state_dir)}
    by_tool: dict[str, list[Device]] = {}
    for device in config.devices.values():
        by_tool.setdefault(tool_of(device), []).append(device)
    for tool, devices in sorted(by_tool.items()):
        cfg = {**common, "devices": {d.id: device_slice(d) for d in devices}}
        if devices[0].driver == "exec":
            argv = tuple(devices[0].params["command"])
        else:
            argv = (sys.executable, "-m", f"hermes_tools.{tool}")
        specs[tool] = ToolSpec(name=tool, argv=argv, config=cfg)
    if config.voice.enabled:
        specs["whisper"] = whisper_spec(config, common)
    return specs


def whisper_spec(config: Config, common: dict[str, Any]) -> ToolSpec:
    """The speech-to-text tool of `voice` (and `ask --audio`): model file, pin, spool dir."""
    from hermesd.models.whisper import DEFAULT_FILENAME, default_model, expected_sha256
    from hermesd.voice.prompt import vocabulary_prompt

    voice = config.voice
    cfg: dict[str, Any] = {**common, "threads": min(4, os.cpu_count() or 1),
                           "language": voice.language, "prompt": vocabulary_prompt(config),
                           "spool": str(config.paths.runtime_dir / "voice")}
    if voice.model == "default":
        found = default_model(config.paths.state_dir)
        cfg["model"] = str(found) if found else None
        cfg["sha256"] = expected_sha256(found) if found else None
        cfg["missing"] = None if found else (
            f"the default whisper model {DEFAULT_FILENAME} is not prepared; run scripts/models "
            "(or python -m hermesd.models whisper)")
    else:
        cfg["model"] = str(config.source.parent / voice.model)
        cfg["sha256"] = voice.model_sha256
    return ToolSpec(name="whisper", argv=(sys.executable, "-m", "hermes_tools.whisper"),
                    config=cfg)
