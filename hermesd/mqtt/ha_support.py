"""What the oldest Home Assistant hermesd supports (2024.1) accepts in MQTT discovery.

hermesd's discovery must stay valid for Home Assistant 2024.1 and every release since. HA drops
the whole entity when a device class is unknown to it (2024.1 has no `volume_flow_rate`), and
logs a warning when a sensor's unit is not one its device class allows (`mm/s` is no `speed`
there). These tables are HA 2024.1.6's own (`sensor/const.py` and `number/const.py`:
DEVICE_CLASS_UNITS, DEVICE_CLASS_STATE_CLASSES; `binary_sensor`'s device classes), taken from
that release for the classes that both a sensor and a number have, a unit kept only where both
take it (a point is a number or a sensor by who may write it). `tests/mqtt/test_ha_schemas.py`
checks every announcement against that release's own voluptuous schemas.
"""

from __future__ import annotations

#: the oldest Home Assistant release whose MQTT discovery hermesd's announcements are valid for
OLDEST_HA = "2024.1"
STATE_CLASSES = ("measurement", "total", "total_increasing")
#: numeric device class -> the units HA 2024.1 takes with it (None: no unit)
DEVICE_CLASS_UNITS: dict[str, tuple[str | None, ...]] = {'apparent_power': ('VA',),
 'aqi': (None,),
 'atmospheric_pressure': ('Pa', 'bar', 'cbar', 'hPa', 'inHg', 'kPa', 'mbar', 'mmHg', 'psi'),
 'battery': ('%',),
 'carbon_dioxide': ('ppm',),
 'carbon_monoxide': ('ppm',),
 'current': ('A', 'mA'),
 'data_rate': ('B/s',
               'GB/s',
               'Gbit/s',
               'GiB/s',
               'KiB/s',
               'MB/s',
               'Mbit/s',
               'MiB/s',
               'bit/s',
               'kB/s',
               'kbit/s'),
 'data_size': ('B',
               'EB',
               'EiB',
               'GB',
               'Gbit',
               'GiB',
               'KiB',
               'MB',
               'Mbit',
               'MiB',
               'PB',
               'PiB',
               'TB',
               'TiB',
               'YB',
               'YiB',
               'ZB',
               'ZiB',
               'bit',
               'kB',
               'kbit'),
 'distance': ('cm', 'ft', 'in', 'km', 'm', 'mi', 'mm', 'yd'),
 'duration': ('d', 'h', 'min', 'ms', 's'),
 'energy': ('GJ', 'MJ', 'MWh', 'Wh', 'kWh'),
 'energy_storage': ('GJ', 'MJ', 'MWh', 'Wh', 'kWh'),
 'frequency': ('GHz', 'Hz', 'MHz', 'kHz'),
 'gas': ('CCF', 'ft³', 'm³'),
 'humidity': ('%',),
 'illuminance': ('lx',),
 'irradiance': ('BTU/(h⋅ft²)', 'W/m²'),
 'moisture': ('%',),
 'nitrogen_dioxide': ('µg/m³',),
 'nitrogen_monoxide': ('µg/m³',),
 'nitrous_oxide': ('µg/m³',),
 'ozone': ('µg/m³',),
 'ph': (None,),
 'pm1': ('µg/m³',),
 'pm10': ('µg/m³',),
 'pm25': ('µg/m³',),
 'power': ('W', 'kW'),
 'power_factor': ('%', None),
 'precipitation': ('cm', 'in', 'mm'),
 'precipitation_intensity': ('in/d', 'in/h', 'mm/d', 'mm/h'),
 'pressure': ('Pa', 'bar', 'cbar', 'hPa', 'inHg', 'kPa', 'mbar', 'mmHg', 'psi'),
 'reactive_power': ('var',),
 'signal_strength': ('dB', 'dBm'),
 'sound_pressure': ('dB', 'dBA'),
 'speed': ('ft/s', 'in/d', 'in/h', 'km/h', 'kn', 'm/s', 'mm/d', 'mm/h', 'mph'),
 'sulphur_dioxide': ('µg/m³',),
 'temperature': ('K', '°C', '°F'),
 'volatile_organic_compounds': ('µg/m³',),
 'volatile_organic_compounds_parts': ('ppb', 'ppm'),
 'voltage': ('V', 'mV'),
 'volume': ('CCF', 'L', 'fl. oz.', 'ft³', 'gal', 'mL', 'm³'),
 'volume_storage': ('CCF', 'L', 'fl. oz.', 'ft³', 'gal', 'mL', 'm³'),
 'water': ('CCF', 'L', 'ft³', 'gal', 'm³'),
 'weight': ('g', 'kg', 'lb', 'mg', 'oz', 'st', 'µg'),
 'wind_speed': ('ft/s', 'km/h', 'kn', 'm/s', 'mph')}
#: numeric device classes that take any unit
ANY_UNIT_CLASSES = frozenset(('monetary',))
#: numeric device class -> the state classes HA 2024.1 accepts without a warning
DEVICE_CLASS_STATE_CLASSES: dict[str, tuple[str, ...]] = {'apparent_power': ('measurement',),
 'aqi': ('measurement',),
 'atmospheric_pressure': ('measurement',),
 'battery': ('measurement',),
 'carbon_dioxide': ('measurement',),
 'carbon_monoxide': ('measurement',),
 'current': ('measurement',),
 'data_rate': ('measurement',),
 'data_size': ('measurement', 'total', 'total_increasing'),
 'distance': ('measurement', 'total', 'total_increasing'),
 'duration': ('measurement', 'total', 'total_increasing'),
 'energy': ('total', 'total_increasing'),
 'energy_storage': ('measurement',),
 'frequency': ('measurement',),
 'gas': ('total', 'total_increasing'),
 'humidity': ('measurement',),
 'illuminance': ('measurement',),
 'irradiance': ('measurement',),
 'moisture': ('measurement',),
 'monetary': ('total',),
 'nitrogen_dioxide': ('measurement',),
 'nitrogen_monoxide': ('measurement',),
 'nitrous_oxide': ('measurement',),
 'ozone': ('measurement',),
 'ph': ('measurement',),
 'pm1': ('measurement',),
 'pm10': ('measurement',),
 'pm25': ('measurement',),
 'power': ('measurement',),
 'power_factor': ('measurement',),
 'precipitation': ('measurement', 'total', 'total_increasing'),
 'precipitation_intensity': ('measurement',),
 'pressure': ('measurement',),
 'reactive_power': ('measurement',),
 'signal_strength': ('measurement',),
 'sound_pressure': ('measurement',),
 'speed': ('measurement',),
 'sulphur_dioxide': ('measurement',),
 'temperature': ('measurement',),
 'volatile_organic_compounds': ('measurement',),
 'volatile_organic_compounds_parts': ('measurement',),
 'voltage': ('measurement',),
 'volume': ('total', 'total_increasing'),
 'volume_storage': ('measurement',),
 'water': ('total', 'total_increasing'),
 'weight': ('measurement',),
 'wind_speed': ('measurement',)}
BINARY_SENSOR_CLASSES = tuple("""
    battery battery_charging carbon_monoxide cold connectivity door garage_door gas heat
    light lock moisture motion moving occupancy opening plug power presence problem running
    safety smoke sound tamper update vibration window
""".split())


def units_allowed(device_class: str) -> tuple[str | None, ...] | None:
    """The units a numeric point of `device_class` may have on HA 2024.1; None: no such
    class; an empty tuple: any unit (`monetary`)."""
    if device_class in ANY_UNIT_CLASSES:
        return ()
    return DEVICE_CLASS_UNITS.get(device_class)


def device_class_of_unit(unit: str | None) -> str | None:
    """The device class hermesd gives a numeric point of this unit when its config names none:
    the one class HA 2024.1 takes with exactly this unit, else none (an unknown pair would
    drop the entity, a wrong one would mislead)."""
    if not unit:
        return None
    return DEFAULT_CLASS_OF_UNIT.get(unit)



#: the class a unit implies when a point names none: one class per unit, and only pairs HA
#: 2024.1 takes (`m³/h`, `L/min` have no class there: it has no `volume_flow_rate`; `mm/s`
#: and `m/min` are no speed there; `%` belongs to several classes, so to none by itself)
DEFAULT_CLASS_OF_UNIT: dict[str, str] = {
    **dict.fromkeys(("°C", "°F", "K"), "temperature"),
    **dict.fromkeys(("Pa", "hPa", "kPa", "bar", "cbar", "mbar", "mmHg", "inHg", "psi"), "pressure"),
    **dict.fromkeys(("g", "kg", "mg", "µg", "oz", "lb", "st"), "weight"),
    **dict.fromkeys(("m/s", "km/h", "mph", "kn", "ft/s"), "speed"),
    **dict.fromkeys(("A", "mA"), "current"),
    **dict.fromkeys(("V", "mV"), "voltage"),
    **dict.fromkeys(("W", "kW"), "power"),
    **dict.fromkeys(("Wh", "kWh", "MWh"), "energy"),
    **dict.fromkeys(("Hz", "kHz", "MHz"), "frequency"),
}
