"""Alarms on a simulated signal: hysteresis, delay, bool states, a device offline."""

from __future__ import annotations

import math
from pathlib import Path

import yaml

from hermesd.config.loader import validate
from hermesd.config.model import Config
from hermesd.history.alarms import AlarmBook, AlarmEvent

PLANT = """
node: {id: n1, name: Test}
access: {default_role: viewer, roles: {viewer: {read: true, write: false}}}
llm: {enabled: false}
history: {}
devices:
  plc:
    driver: exec
    command: [/bin/true]
    points:
      temp:
        name: Boiler 3 temperature
        names: {zh: 3号锅炉温度}
        unit: "°C"
        max_age: 10s
        alarms: {high: 540, low: 100, hysteresis: 5, delay: 30s}
      run:
        type: bool
        alarms: {state: false, delay: 10s}
"""


def _config() -> Config:
    return validate(yaml.safe_load(PLANT), Path("/tmp/plant.yaml"))


def _book() -> tuple[AlarmBook, list[AlarmEvent]]:
    book = AlarmBook(_config())
    events: list[AlarmEvent] = []
    book.listeners.append(events.append)
    return book, events


def test_a_high_limit_with_delay_and_hysteresis_on_a_simulated_signal() -> None:
    book, events = _book()
    # a sine around 530 with amplitude 15, period 600 s, sampled every second, for 30 minutes
    for s in range(1800):
        value = 530 + 15 * math.sin(2 * math.pi * s / 600)
        book.on_value("temp", round(value, 2), float(s))
    raised = [e.occurrence.raised for e in events if e.what == "raised"]
    cleared = [e.occurrence.cleared for e in events if e.what == "cleared"]
    # above 540 from s = 69.6 to 230.4 in each period: raised 30 s after it went above
    assert raised == [100.0, 700.0, 1300.0]
    # cleared once below 535 (hysteresis 5), not below 540 (s = 230.4): at s = 267.5
    assert cleared == [268.0, 868.0, 1468.0]
    # with the value it had when raised (the last one seen, at 99 s)
    assert events[0].occurrence.message == "Boiler 3 temperature high, 542.91 °C"


def test_a_short_excursion_does_not_raise_and_chatter_does_not_clear() -> None:
    book, events = _book()
    for t, v in [(0, 530), (5, 545), (20, 530), (40, 545), (69, 546), (71, 538), (75, 536),
                 (80, 541), (100, 534), (120, 534)]:
        book.on_value("temp", float(v), float(t))
    book.tick(130.0)
    whats = [(e.what, e.occurrence.raised, e.occurrence.cleared) for e in events]
    # 545 at 5 s lasted 15 s (< 30 s): nothing; 545 from 40 s: raised at 70 s; 538 and 536 are
    # within the hysteresis band: still active; 534 at 100 s clears it
    assert whats == [("raised", 70.0, None), ("cleared", 70.0, 100.0)]


def test_a_low_limit_a_bool_state_and_acknowledgement() -> None:
    book, events = _book()
    book.on_value("temp", 90.0, 0.0)
    book.on_value("run", True, 0.0)
    book.on_value("run", False, 5.0)
    book.tick(14.0)
    assert [e.occurrence.alarm for e in events] == []
    book.tick(15.0)
    assert [e.occurrence.alarm for e in events] == ["run_state"]
    book.tick(30.0)
    assert [e.occurrence.alarm for e in events] == ["run_state", "temp_low"]
    assert sorted(o.alarm for o in book.active()) == ["run_state", "temp_low"]
    acked = book.ack("temp_low", "uid 1000 (ana)", 40.0)
    assert acked.state == "acknowledged" and acked.acked_by == "uid 1000 (ana)"
    book.on_value("temp", 104.0, 50.0)  # within low + hysteresis: still active
    assert {o.alarm for o in book.active()} == {"run_state", "temp_low"}
    book.on_value("temp", 106.0, 60.0)
    assert {o.alarm for o in book.active()} == {"run_state"}
    assert [e.what for e in events][-2:] == ["acknowledged", "cleared"]
    # cleared and acknowledged: done with; cleared but not acknowledged stays listed
    assert "temp_low" not in {o.alarm for o in book.current()}
    book.on_value("run", True, 70.0)
    assert [(o.alarm, o.state) for o in book.current()] == [("run_state", "cleared")]


def test_a_device_offline_raises_its_own_alarm_after_its_max_age() -> None:
    book, events = _book()
    book.on_device("plc", False, 100.0, 100.0)
    book.tick(109.0)
    assert events == []
    book.tick(110.0)
    assert [(e.what, e.occurrence.alarm, e.occurrence.raised) for e in events] == \
        [("raised", "plc_offline", 110.0)]
    assert events[0].occurrence.message == "device plc offline"
    book.on_device("plc", True, 150.0, 150.0)
    assert events[-1].what == "cleared" and events[-1].occurrence.cleared == 150.0
    # back before its max age: no alarm
    book.on_device("plc", False, 200.0, 200.0)
    book.on_device("plc", True, 205.0, 205.0)
    book.tick(300.0)
    assert len(events) == 2
