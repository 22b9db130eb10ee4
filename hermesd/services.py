"""What a daemon component may use: the few services the daemon owns, and nothing else.

A component (the MQTT bridge, the LLM link, voice, ...) is built from `Services`, never from the
daemon itself, so it cannot reach into the daemon's lifecycle and the import graph stays a tree
(tests/test_imports.py checks it). `config` is the config the component was built with; a reload
hands each component the new one through its `reconfigure`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hermesd.alarm_feed import AlarmFeed
from hermesd.cache import ValueCache
from hermesd.config.model import Config
from hermesd.engine import Engine
from hermesd.events import EventTable
from hermesd.metrics import Metrics
from hermesd.supervisor import Supervisor


@dataclass(frozen=True, slots=True)
class Services:
    config: Config
    engine: Engine  # the request path: read, write, ask, call
    cache: ValueCache  # last known values and device states
    supervisor: Supervisor  # the tool processes
    metrics: Metrics
    events: EventTable  # where a component registers the tool events it takes
    #: alarm changes from the history component to MQTT and voice (empty with history off)
    alarms: AlarmFeed = field(default_factory=AlarmFeed)
