"""Run inside the Home Assistant 2024.1 side venv (scripts/ha-venv), not in hermesd's own.

Reads `[{"topic", "component", "config", "states": [...]}]` as JSON on stdin and prints a JSON
list of what HA 2024.1 would do with each: `rejected` (its MQTT DISCOVERY_SCHEMA refuses the
config: HA drops the entity), `dropped` (keys the schema silently removes), and `warnings`
(what HA logs when the entity is set up or a state arrives: a unit its device class does not
take, a state class impossible for its device class, a `config` category on a sensor, a select
state that is none of its options, a numeric sensor state that is no number).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import homeassistant.helpers.entity_platform  # noqa: F401  (imports HA's components in order)
import voluptuous as vol
from homeassistant.components.mqtt import (
    binary_sensor,
    button,
    number,
    select,
    sensor,
    switch,
    text,
)
from homeassistant.components.number.const import DEVICE_CLASS_UNITS as NUMBER_UNITS
from homeassistant.components.sensor.const import (
    DEVICE_CLASS_STATE_CLASSES,
    DEVICE_CLASS_UNITS,
)
from homeassistant.const import __version__

SCHEMAS = {"sensor": sensor.DISCOVERY_SCHEMA, "binary_sensor": binary_sensor.DISCOVERY_SCHEMA,
           "number": number.DISCOVERY_SCHEMA, "switch": switch.DISCOVERY_SCHEMA,
           "select": select.DISCOVERY_SCHEMA, "text": text.DISCOVERY_SCHEMA,
           "button": button.DISCOVERY_SCHEMA}
#: keys HA does not keep as such but uses (expanded or consumed before the schema)
CONSUMED = {"platform"}


def judge(item: dict[str, Any]) -> dict[str, Any]:
    component, config = item["component"], item["config"]
    out: dict[str, Any] = {"topic": item["topic"], "rejected": None, "dropped": [],
                           "warnings": []}
    schema = SCHEMAS.get(component)
    if schema is None:
        out["rejected"] = f"no MQTT component {component}"
        return out
    try:
        valid = schema(dict(config))
    except vol.Invalid as exc:
        out["rejected"] = str(exc)
        return out
    out["dropped"] = sorted(k for k in config if k not in valid and k not in CONSUMED)
    device_class, unit = valid.get("device_class"), valid.get("unit_of_measurement")
    warnings = out["warnings"]
    if component in ("sensor", "number") and device_class is not None:
        table = DEVICE_CLASS_UNITS if component == "sensor" else NUMBER_UNITS
        allowed = table.get(device_class)
        if allowed is not None and unit not in allowed:
            warnings.append(f"unit {unit!r} is not valid for device class {device_class}")
    if component == "sensor":
        state_class = valid.get("state_class")
        possible = DEVICE_CLASS_STATE_CLASSES.get(device_class) if device_class else None
        if state_class is not None and possible is not None and state_class not in possible:
            warnings.append(f"state class {state_class} is impossible for {device_class}")
        if config.get("entity_category") == "config":
            warnings.append("entity category config is invalid for sensors")
        for state in item.get("states", []):
            if (state_class is not None or unit is not None) and not _number(state):
                warnings.append(f"state {state!r} is no number for a numeric sensor")
    if component == "select":
        for state in item.get("states", []):
            if state not in valid["options"]:
                warnings.append(f"state {state!r} is none of the options {valid['options']}")
    return out


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def main() -> None:
    items = json.load(sys.stdin)
    json.dump({"version": __version__, "results": [judge(i) for i in items]}, sys.stdout)


if __name__ == "__main__":
    main()
