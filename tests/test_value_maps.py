"""Value maps at the tool edge: names inside hermesd, raw values at the tools, never a guess."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest

from hermesd.cache import ValueCache
from hermesd.config.model import MapEntry, Point
from hermesd.core.errors import ErrorCode, Rejected
from hermesd.registry import coerce_value
from hermesd.value_maps import canonical, from_device, raw_kind, shown, to_device

MODE = Point(id="mode", device="d", driver="modbus", name="Mode", kind="string", writable=True,
             choices=("off", "auto", "manual"),
             value_map=(MapEntry(0, "off"), MapEntry(1, "auto", MappingProxyType({"zh": "自动"})),
                        MapEntry(2, "manual")))
VALVE = Point(id="valve", device="d", driver="modbus", name="Valve", kind="string",
              writable=True, choices=("closed", "open"),
              value_map=(MapEntry(False, "closed"), MapEntry(True, "open")))
PLAIN = Point(id="speed", device="d", driver="modbus", name="Speed", kind="int")


def test_raw_values_become_names_and_back() -> None:
    assert [from_device(MODE, raw) for raw in (0, 1, 2)] == ["off", "auto", "manual"]
    assert [to_device(MODE, name) for name in ("off", "auto", "manual")] == [0, 1, 2]
    assert (from_device(VALVE, True), from_device(VALVE, False)) == ("open", "closed")
    assert to_device(VALVE, "open") is True
    assert (raw_kind(MODE), raw_kind(VALVE), raw_kind(PLAIN)) == ("int", "bool", "int")
    assert from_device(PLAIN, 7) == 7 and to_device(PLAIN, 7) == 7  # no map: untouched


def test_a_raw_value_the_map_does_not_name_stays_its_number() -> None:
    assert from_device(MODE, 5) == "5"
    assert from_device(MODE, 1.0) == "auto"  # a whole float from JSON is the same raw value
    assert from_device(MODE, 1.5) == "1.5"
    assert from_device(MODE, True) == "1"  # a bool is no raw value of a register map
    with pytest.raises(ValueError, match="off, auto, manual"):
        to_device(MODE, "turbo")


def test_a_name_in_any_case_or_language_is_the_name() -> None:
    assert canonical(MODE, "AUTO") == "auto" and canonical(MODE, " Auto ") == "auto"
    assert canonical(MODE, "自动") == "auto"
    assert canonical(MODE, "turbo") == "turbo"  # for policy to refuse
    assert coerce_value(MODE, "自动") == "auto"
    assert shown(MODE, "auto", "zh") == "自动" and shown(MODE, "manual", "zh") == "manual"


@pytest.mark.parametrize("value", [1, 1.0, True, None])
def test_a_number_for_a_mapped_point_is_refused_naming_its_names(value: object) -> None:
    with pytest.raises(Rejected) as caught:
        coerce_value(MODE, value)
    assert caught.value.code == ErrorCode.OUT_OF_RANGE
    assert "mode takes one of off, auto, manual" in caught.value.message


def test_values_kept_from_before_a_point_had_its_map_are_said_as_names(tmp_path: Path) -> None:
    cache = ValueCache(tmp_path / "lkv.json", {"mode": None, "speed": None},
                       {"mode": "d", "speed": "d"})
    cache.update("mode", 2, ts=1000.0)
    cache.update("speed", 900, ts=1000.0)
    points = {"mode": MODE, "speed": PLAIN}
    assert cache.restate(lambda r: from_device(points[r.point], r.value)) == 1
    mode, speed = cache.get("mode"), cache.get("speed")
    assert mode is not None and (mode.value, mode.ts) == ("manual", 1000.0)
    assert speed is not None and speed.value == 900
    assert cache.restate(lambda r: from_device(points[r.point], r.value)) == 0  # said once
