"""How points and devices look in Home Assistant: a point's `ha:` and a device's display keys.

```yaml
devices:
  plc1:
    name: Boiler house PLC            # HA's device page (and hermesd status) instead of "plc1"
    manufacturer: Siemens
    model: S7-1200
    configuration_url: http://10.0.0.5/
    points:
      energy_total:
        ha: {device_class: energy, state_class: total_increasing, icon: "mdi:flash",
             suggested_display_precision: 1, entity_category: diagnostic,
             enabled_by_default: false}
```

Everything is checked against what the oldest supported Home Assistant (2024.1, see
`mqtt/ha_support`) accepts, because HA drops the whole entity over one field it refuses: a
device class with a unit it does not allow for it, `config` as the category of a read-only
sensor. A check that fails is a config error, never a field quietly left out.
"""

from __future__ import annotations

import re

from hermesd.config.model import DeviceInfo, HaEntity, ValueKind
from hermesd.config.reader import Section, shown_as_written, unshown
from hermesd.mqtt.ha_support import (
    BINARY_SENSOR_CLASSES,
    DEVICE_CLASS_STATE_CLASSES,
    STATE_CLASSES,
    units_allowed,
)

#: HA's cv.icon wants `prefix:name`; the prefixes people use are mdi and hass
ICON = re.compile(r"[a-z][a-z0-9_-]*:[a-z0-9][a-z0-9_-]*")
URL = re.compile(r"https?://[^\s/$.?#][^\s]*", re.IGNORECASE)
MAX_TEXT = 100


def read_device_info(s: Section) -> DeviceInfo:
    """`name`, `manufacturer`, `model`, `configuration_url` of any device."""
    texts = {key: s.text(key, None) for key in ("name", "manufacturer", "model")}
    shown_as_written(s, **texts)
    for key, value in texts.items():
        if value is not None and len(value) > MAX_TEXT:
            s.problem(key, f"is {len(value)} characters; at most {MAX_TEXT}")
            texts[key] = None
    url = s.text("configuration_url", None, pattern=URL,
                 what="an http:// or https:// address of the device's own page")
    odd = None if url is None else unshown(url, one_word=True)
    if odd is not None:
        # HA shows it as a link: a control, format or space character in it would act on
        # what shows it, or send a click where the text does not say
        s.problem("configuration_url", f"holds U+{ord(odd):04X}: an address is one word, "
                                       "with no space, control or format character")
        url = None
    return DeviceInfo(name=texts["name"], manufacturer=texts["manufacturer"],
                      model=texts["model"], configuration_url=url)


def read_ha(point: Section, kind: ValueKind, unit: str | None, mapped: bool) -> HaEntity:
    """A point's `ha:` section, checked against its kind and unit."""
    if point.raw("ha", None) is None:
        return HaEntity()
    s = point.section("ha")
    numeric = kind in ("int", "float")
    device_class = s.text("device_class", None)
    if device_class is not None:
        if kind == "bool":
            if device_class not in BINARY_SENSOR_CLASSES:
                s.problem("device_class", f"{device_class!r} is no on/off device class of Home "
                                          f"Assistant 2024.1 ({', '.join(BINARY_SENSOR_CLASSES)})")
        elif not numeric:
            s.problem("device_class", "a point of "
                      f"{'names (a map)' if mapped else 'text'} takes no device class: it is "
                      f"{'an enum sensor or a select' if mapped else 'a text entity'} in HA")
        else:
            allowed = units_allowed(device_class)
            if allowed is None:
                s.problem("device_class", f"{device_class!r} is no numeric device class of Home "
                                          "Assistant 2024.1 (temperature, pressure, energy, ...)")
            elif allowed and (unit or None) not in allowed:
                shown = ", ".join(u if u is not None else "no unit" for u in allowed) \
                    if allowed else "none"
                s.problem("device_class", f"Home Assistant 2024.1 takes {device_class} only in "
                                          f"{shown}, not {unit or 'no unit'}: it would drop the "
                                          "entity")
    state_class = s.choice("state_class", STATE_CLASSES, None)
    if state_class is not None and not numeric:
        s.problem("state_class", "only numeric points have a state class")
    elif state_class is not None and device_class in DEVICE_CLASS_STATE_CLASSES \
            and state_class not in DEVICE_CLASS_STATE_CLASSES[device_class]:
        fits = " or ".join(DEVICE_CLASS_STATE_CLASSES[device_class]) or "no state class"
        s.problem("state_class", f"Home Assistant takes {device_class} only as {fits}, not "
                                 f"{state_class}")
    icon = s.text("icon", None, pattern=ICON, what="an icon like mdi:flash")
    precision = s.integer("suggested_display_precision", None, min=0, max=10)
    if precision is not None and not numeric:
        s.problem("suggested_display_precision", "only numeric points have decimals to show")
    category = s.choice("entity_category", ("config", "diagnostic"), None)
    enabled = s.flag("enabled_by_default", True)
    s.finish()
    return HaEntity(device_class=device_class, state_class=state_class, icon=icon,
                    suggested_display_precision=precision, entity_category=category,
                    enabled_by_default=enabled)
