"""The point registry's fingerprint of a point's definition: what a kept value means."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any

import pytest

from hermesd.config.model import Point
from hermesd.registry import fingerprint

PARAMS = {"table": "input", "address": 1, "type": "int16", "scale": 0.1, "offset": 0.0,
          "word_order": "big"}
WATER = Point(id="water_temp", device="plc7", driver="modbus", name="Raw water temperature",
              unit="°C", max_age=10.0, params=MappingProxyType(PARAMS))


def _with(**changes: Any) -> Point:
    return dataclasses.replace(WATER, **changes)


def _params(**changes: Any) -> MappingProxyType[str, Any]:
    return MappingProxyType({**PARAMS, **changes})


@pytest.mark.parametrize("redefined", [
    _with(unit="°F"),
    _with(device="plc8"),
    _with(params=_params(address=5)),
    _with(params=_params(scale=1.0)),
    _with(params=_params(type="uint16")),
    _with(params=_params(table="holding")),
    _with(params=_params(word_order="little")),
], ids=["unit", "device", "address", "scale", "type", "table", "word_order"])
def test_what_a_value_means_changes_the_fingerprint(redefined: Point) -> None:
    assert fingerprint(redefined) != fingerprint(WATER)


@pytest.mark.parametrize("same", [
    _with(name="Water in"), _with(aliases=("raw water",)), _with(max_age=60.0),
    _with(description="From the river"), _with(writable=True, min=0.0, max=50.0),
    _with(params=MappingProxyType(dict(reversed(PARAMS.items())))),
    _with(params=_params(poll_interval=5.0)),
], ids=["name", "aliases", "max_age", "description", "limits", "key_order", "poll_interval"])
def test_what_does_not_change_a_value_keeps_the_fingerprint(same: Point) -> None:
    assert fingerprint(same) == fingerprint(WATER)
