"""The dev plant (shared/data/plant-dev.yaml) as fake `exec` devices, for voice tests.

The device tools of the real plant (modbus, serial, mqtt) are built elsewhere; here every point
keeps its id, name, aliases, kind, unit and range, and is served by tests/support/fake_tool.py,
so what the voice path decides can be checked on real tool processes.
"""

from __future__ import annotations

from typing import Any

from tests.support.daemon import base_config, fake_device

PLC1: dict[str, dict[str, Any]] = {
    "boiler1_temp": {"name": "Boiler 1 temperature", "unit": "°C", "params": {"value": 498.2}},
    "boiler2_temp": {"name": "Boiler 2 temperature", "unit": "°C", "params": {"value": 505.0}},
    "boiler3_temp": {"name": "Boiler 3 temperature", "unit": "°C",
                     "aliases": ["#3 boiler temperature", "boiler three temp"],
                     "params": {"value": 523.4}},
    "boiler3_pressure": {"name": "Boiler 3 pressure", "unit": "bar", "params": {"value": 12.5}},
    "tank_level": {"name": "Feed water tank level", "unit": "%", "params": {"value": 71.3}},
    "line_a_count": {"name": "Line A bottle count", "type": "int", "unit": "bottles",
                     "aliases": ["packaging counter", "line A output"],
                     "params": {"value": 15230}},
    "pump1_speed": {"name": "Feed pump 1 speed", "type": "int", "unit": "rpm",
                    "writable": True, "min": 0, "max": 1500, "params": {"value": 1200}},
    "conveyor_speed": {"name": "Line A conveyor speed", "unit": "m/min", "writable": True,
                       "min": 0, "max": 60, "params": {"value": 24.0}},
    "boiler3_setpoint": {"name": "Boiler 3 temperature setpoint", "unit": "°C",
                         "writable": True, "min": 20, "max": 560, "params": {"value": 520.0}},
    "pump1_running": {"name": "Feed pump 1 running", "type": "bool", "params": {"value": True}},
    "valve2_open": {"name": "Steam valve 2", "type": "bool", "writable": True,
                    "aliases": ["valve 2", "steam valve two"], "params": {"value": False}},
    "alarm_active": {"name": "Boiler house alarm", "type": "bool", "params": {"value": False}},
}
SCALE1 = {"scale1_weight": {"name": "Packing scale weight", "unit": "kg",
                            "params": {"value": 12.48}}}
YARD = {
    "warning_beacon": {"name": "Yard warning beacon", "type": "bool", "writable": True,
                       "params": {"value": True}},
    "outdoor_temp": {"name": "Outdoor temperature", "unit": "°C", "params": {"value": 6.5}},
}
ROLES = {
    "viewer": {"read": True, "write": False},
    "operator": {"read": True,
                 "write": ["pump1_speed", "conveyor_speed", "valve2_open", "warning_beacon"]},
    "engineer": {"read": True, "write": True, "raw_read": True, "raw_write": True},
}


def plant_config(voice: dict[str, Any] | None = None) -> dict[str, Any]:
    config = base_config({"plc1": fake_device(PLC1), "scale1": fake_device(SCALE1),
                          "yard": fake_device(YARD)})
    config["access"]["roles"] = ROLES
    if voice is not None:
        config["voice"] = voice
    return config
