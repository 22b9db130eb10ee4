"""Which driver modules read the keys of which `driver:` value.

Apart from the drivers' shared types (hermesd/config/drivers/__init__.py), so that the package
does not import its own modules while they import it.
"""

from __future__ import annotations

from hermesd.config.drivers import DriverKeys, exec_tool, modbus, mqtt, serial


def drivers() -> dict[str, DriverKeys]:
    return {
        "modbus": DriverKeys(modbus.read_device, modbus.read_point, modbus.check_devices,
                             modbus.check_points),
        "serial": DriverKeys(serial.read_device, serial.read_point),
        "mqtt": DriverKeys(mqtt.read_device, mqtt.read_point),
        "exec": DriverKeys(exec_tool.read_device, exec_tool.read_point),
    }
