"""Simulated values: plausible, inside their range, wandering slowly; counters count."""

from __future__ import annotations

import itertools
import random

from hermes_tools.sim.values import Wander, guess, wander_for


def test_guesses_by_unit_name_and_range() -> None:
    assert guess({"kind": "float", "unit": "°C"}) == 180.0
    assert guess({"kind": "float", "unit": "°C", "id": "outdoor_temp"}) == 18.0  # air, not a boiler
    assert guess({"kind": "float", "unit": "bar"}) == 12.5
    assert guess({"kind": "int", "unit": "rpm", "min": 0, "max": 1500, "writable": True}) == 1125
    assert guess({"kind": "int", "id": "line_a_count", "unit": "bottles"}) == 1000
    assert guess({"kind": "bool", "id": "pump1_running"}) is True
    assert guess({"kind": "bool", "id": "alarm_active"}) is False
    assert guess({"kind": "bool", "id": "valve2_open", "writable": True}) is False
    assert guess({"kind": "string"}) == "OK"
    assert guess({"kind": "float", "unit": "furlongs"}) == 100.0


def test_wandering_stays_near_its_base_and_inside_its_range() -> None:
    rng = random.Random(1)
    wander = wander_for({"kind": "float", "unit": "°C", "min": 0, "max": 200}, 180.0)
    seen = [wander.step(rng, 0.5) for _ in range(5000)]
    assert all(0 <= v <= 200 for v in seen)
    assert 170 < sum(seen) / len(seen) < 190
    assert max(abs(a - b) for a, b in itertools.pairwise(seen)) < 5  # slowly
    assert len(set(seen)) > 100  # and it does move


def test_type_range_bounds_a_point_without_min_max() -> None:
    rng = random.Random(2)
    wander = wander_for({"kind": "float", "unit": "%"}, 655.0, type_range=(0.0, 655.35))
    assert all(0 <= wander.step(rng, 1.0) <= 655.35 for _ in range(2000))


def test_counters_count_and_setpoints_hold() -> None:
    rng = random.Random(3)
    counter = wander_for({"kind": "int", "id": "line_a_count"}, 1048577)
    values = [counter.step(rng, 1.0) for _ in range(10)]
    assert values == sorted(values) and values[0] > 1048577
    setpoint = wander_for({"kind": "float", "writable": True, "min": 20, "max": 560}, 520.0)
    assert {setpoint.step(rng, 1.0) for _ in range(10)} == {520.0}
    flag = Wander(base=True, kind="bool")
    assert flag.step(rng, 1.0) is True


def test_given_values_are_clamped_into_range() -> None:
    assert wander_for({"kind": "int", "min": 0, "max": 10}, 50).value == 10
