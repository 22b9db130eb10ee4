"""What Home Assistant must be told about the dev plant, written out by hand, field by field.

These are the discovery configs a reviewer can check against HA's MQTT docs without reading the
code that makes them: topic, component, unit, device and state class, expire_after, ranges.
"""

from __future__ import annotations

from typing import Any

from hermesd import __version__

NODE = "boiler-house-1"
B = f"hermesd/{NODE}"
ORIGIN = {"name": "hermesd", "sw_version": __version__}
NODE_DEVICE = {"identifiers": [f"hermesd_{NODE}"], "name": "Boiler house gateway",
               "manufacturer": "hermesd", "model": "hermesd", "sw_version": __version__}

# point -> (device, component, name, fields beyond the common ones)
POINTS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "boiler1_temp": ("plc1", "sensor", "Boiler 1 temperature", {
        "unit_of_measurement": "°C", "device_class": "temperature", "state_class": "measurement",
        "expire_after": 600}),
    "boiler2_temp": ("plc1", "sensor", "Boiler 2 temperature", {
        "unit_of_measurement": "°C", "device_class": "temperature", "state_class": "measurement",
        "expire_after": 600}),
    "boiler3_temp": ("plc1", "sensor", "Boiler 3 temperature", {
        "unit_of_measurement": "°C", "device_class": "temperature", "state_class": "measurement",
        "expire_after": 600}),
    # polled: twice mqtt.republish (5 min), whatever the max_age (the device's availability
    # shows a dead device within seconds; this is the backstop for one point)
    "boiler3_pressure": ("plc1", "sensor", "Boiler 3 pressure", {
        "unit_of_measurement": "bar", "device_class": "pressure", "state_class": "measurement",
        "expire_after": 600}),
    # `%` takes no device class here (HA allows it only for battery, humidity, ...)
    "tank_level": ("plc1", "sensor", "Feed water tank level", {
        "unit_of_measurement": "%", "state_class": "measurement", "expire_after": 600}),
    "line_a_count": ("plc1", "sensor", "Line A bottle count", {
        "unit_of_measurement": "bottles", "state_class": "measurement", "expire_after": 600}),
    # rpm has no device class in HA
    "pump1_speed": ("plc1", "number", "Feed pump 1 speed", {
        "command_topic": f"{B}/pump1_speed/set", "retain": False, "min": 0, "max": 1500,
        "step": 1, "mode": "box", "unit_of_measurement": "rpm"}),
    # m/min is a speed unit only from HA 2025.10: sent without a class
    "conveyor_speed": ("plc1", "number", "Line A conveyor speed", {
        "command_topic": f"{B}/conveyor_speed/set", "retain": False, "min": 0, "max": 60,
        "step": 0.1, "mode": "box", "unit_of_measurement": "m/min"}),
    "boiler3_setpoint": ("plc1", "number", "Boiler 3 temperature setpoint", {
        "command_topic": f"{B}/boiler3_setpoint/set", "retain": False, "min": 20, "max": 560,
        "step": 0.1, "mode": "box", "unit_of_measurement": "°C", "device_class": "temperature"}),
    "pump1_running": ("plc1", "binary_sensor", "Feed pump 1 running", {
        "payload_on": "ON", "payload_off": "OFF", "expire_after": 600}),
    "valve2_open": ("plc1", "switch", "Steam valve 2", {
        "command_topic": f"{B}/valve2_open/set", "retain": False, "payload_on": "ON",
        "payload_off": "OFF"}),
    "alarm_active": ("plc1", "binary_sensor", "Boiler house alarm", {
        "payload_on": "ON", "payload_off": "OFF", "expire_after": 600}),
    "scale1_weight": ("scale1", "sensor", "Packing scale weight", {
        "unit_of_measurement": "kg", "device_class": "weight", "state_class": "measurement",
        "expire_after": 600}),
    "warning_beacon": ("yard", "switch", "Yard warning beacon", {
        "command_topic": f"{B}/warning_beacon/set", "retain": False, "payload_on": "ON",
        "payload_off": "OFF"}),
    "outdoor_temp": ("yard", "sensor", "Outdoor temperature", {
        "unit_of_measurement": "°C", "device_class": "temperature", "state_class": "measurement",
        "expire_after": 900}),
}


# the writable points as they are announced when `mqtt.command_role` may not write them:
# read-only, no command topic, with what a sensor of their kind carries
READ_ONLY: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "pump1_speed": ("plc1", "sensor", "Feed pump 1 speed", {
        "unit_of_measurement": "rpm", "state_class": "measurement", "expire_after": 600}),
    "conveyor_speed": ("plc1", "sensor", "Line A conveyor speed", {
        "unit_of_measurement": "m/min", "state_class": "measurement", "expire_after": 600}),
    "boiler3_setpoint": ("plc1", "sensor", "Boiler 3 temperature setpoint", {
        "unit_of_measurement": "°C", "device_class": "temperature", "state_class": "measurement",
        "expire_after": 600}),
    "valve2_open": ("plc1", "binary_sensor", "Steam valve 2", {
        "payload_on": "ON", "payload_off": "OFF", "expire_after": 600}),
    # an event-fed point without max_age: nothing for expire_after
    "warning_beacon": ("yard", "binary_sensor", "Yard warning beacon", {
        "payload_on": "ON", "payload_off": "OFF"}),
}
#: what each role of the dev plant may write (as `mqtt.command_role`)
WRITES = {"viewer": frozenset[str](),
          "operator": frozenset({"pump1_speed", "conveyor_speed", "valve2_open",
                                 "warning_beacon"}),
          "engineer": frozenset(READ_ONLY)}


def point_config(point: str, drivers: dict[str, str],
                 writes: frozenset[str] = WRITES["engineer"]) -> tuple[str, dict[str, Any]]:
    """(topic, config) of one point; `drivers` maps device id -> driver name, `writes` the
    points the command role may write."""
    device, component, name, extra = \
        READ_ONLY[point] if point in READ_ONLY and point not in writes else POINTS[point]
    config = {
        "name": name, "unique_id": f"hermesd_{NODE}_{point}",
        "default_entity_id": f"{component}.boiler_house_1_{point}",
        "state_topic": f"{B}/{point}/state",
        "json_attributes_topic": f"{B}/{point}/attributes",
        "availability": [{"topic": f"{B}/availability"}, {"topic": f"{B}/{device}/availability"}],
        "availability_mode": "all", "qos": 1, **extra,
        "device": {"identifiers": [f"hermesd_{NODE}_{device}"], "name": device,
                   "model": f"{drivers[device]} device", "manufacturer": "hermesd",
                   "via_device": f"hermesd_{NODE}"},
        "origin": ORIGIN,
    }
    return f"homeassistant/{component}/{NODE}/{point}/config", config


def node_configs() -> dict[str, dict[str, Any]]:
    availability = [{"topic": f"{B}/availability"}]
    return {
        f"homeassistant/binary_sensor/{NODE}/hermesd_agent/config": {
            "name": "Connected", "unique_id": f"hermesd_{NODE}.agent",
            "default_entity_id": "binary_sensor.boiler_house_1_hermesd_agent",
            "state_topic": f"{B}/availability", "payload_on": "online", "payload_off": "offline",
            "device_class": "connectivity", "entity_category": "diagnostic", "qos": 1,
            "device": NODE_DEVICE, "origin": ORIGIN},
        f"homeassistant/text/{NODE}/hermesd_command/config": {
            "name": "Command", "unique_id": f"hermesd_{NODE}.command",
            "default_entity_id": "text.boiler_house_1_hermesd_command",
            "command_topic": f"{B}/command", "min": 0, "max": 255, "mode": "text",
            "availability": availability, "qos": 1, "retain": False,
            "device": NODE_DEVICE, "origin": ORIGIN},
        f"homeassistant/sensor/{NODE}/hermesd_reply/config": {
            "name": "Last reply", "unique_id": f"hermesd_{NODE}.reply",
            "default_entity_id": "sensor.boiler_house_1_hermesd_reply",
            "state_topic": f"{B}/response", "value_template": "{{ value_json.reply[:255] }}",
            "availability": availability, "qos": 1, "device": NODE_DEVICE, "origin": ORIGIN},
    }


def all_configs(drivers: dict[str, str], role: str = "viewer") -> dict[str, dict[str, Any]]:
    """Every config of the dev plant with `role` as `mqtt.command_role` (the plant's: viewer)."""
    out = node_configs()
    for point in POINTS:
        topic, config = point_config(point, drivers, WRITES[role])
        out[topic] = config
    return out


REAL_DRIVERS = {"plc1": "modbus", "scale1": "serial", "yard": "mqtt"}
FAKED_DRIVERS = {"plc1": "exec", "scale1": "exec", "yard": "mqtt"}
