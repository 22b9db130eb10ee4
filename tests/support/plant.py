"""The shared dev plant (shared/data/plant-dev.yaml) for tests, with paths and ports adjusted.

`dev_plant()` is the file as it is, pointed at a test's state dir and broker. `faked_plant()`
keeps every point (ids, names, units, ranges, writability) but serves the Modbus and serial
devices with the fake tool (`tests/support/fake_tool.py`), since those drivers need hardware
simulators that are not part of this suite; the MQTT device stays as it is.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import yaml

from tests.support.daemon import FAKE_TOOL

PLANT = Path("/work/shared/data/plant-dev.yaml")
_COMMON = ("name", "aliases", "unit", "max_age", "writable", "min", "max")
_FAKE_VALUES = {"bool": False, "int": 0, "float": 0.0}


def dev_plant(state_dir: Path, runtime_dir: Path, broker_port: int) -> dict[str, Any]:
    config: dict[str, Any] = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    config["paths"] = {"state_dir": str(state_dir), "runtime_dir": str(runtime_dir)}
    config["mqtt"]["port"] = broker_port
    config["llm"]["enabled"] = False
    return config


def _kind(point: dict[str, Any]) -> str:
    rtype = point.get("type", "float")
    if rtype == "bool":
        return "bool"
    if rtype in ("float32", "float64", "float"):
        return "float"
    scale = point.get("scale", 1)
    return "float" if scale != int(scale) else "int"


def faked_plant(state_dir: Path, runtime_dir: Path, broker_port: int,
                values: dict[str, Any] | None = None) -> dict[str, Any]:
    config = dev_plant(state_dir, runtime_dir, broker_port)
    for dev_id in ("plc1", "scale1"):
        dev = config["devices"][dev_id]
        points = {}
        for pid, raw in dev["points"].items():
            point = {k: copy.deepcopy(v) for k, v in raw.items() if k in _COMMON}
            point["type"] = _kind(raw)
            start = (values or {}).get(pid, _FAKE_VALUES[point["type"]])
            point["params"] = {"value": start}
            if "scale" in raw:
                point["params"]["scale"] = raw["scale"]
            points[pid] = point
        faked = {"driver": "exec", "command": [sys.executable, str(FAKE_TOOL)], "points": points}
        for key in ("poll_interval", "timeout"):
            if key in dev:
                faked[key] = dev[key]
        faked.setdefault("poll_interval", "2s")  # the fake pushes values like a poll would
        config["devices"][dev_id] = faked
    return config
