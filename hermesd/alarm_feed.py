"""Alarm changes, from the history component (which watches alarms) to the parts of the daemon
that tell people: the MQTT bridge (topics, Home Assistant) and the voice loop.

One feed per daemon, in its `Services`. Nothing is kept here but the listeners and where the
current states come from: with history off, nobody publishes and every state list is empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hermesd.history.alarms import AlarmEvent

AlarmListener = Callable[["AlarmEvent"], None]


class AlarmFeed:
    def __init__(self) -> None:
        self._listeners: list[AlarmListener] = []
        self._states: Callable[[], dict[str, str]] = dict

    def subscribe(self, listener: AlarmListener) -> None:
        self._listeners.append(listener)

    def publish(self, event: AlarmEvent) -> None:
        for listener in self._listeners:
            listener(event)

    def provide_states(self, states: Callable[[], dict[str, str]]) -> None:
        """Where every alarm's current state comes from (the history component)."""
        self._states = states

    def states(self) -> dict[str, str]:
        """Alarm id -> active | acknowledged | cleared, for every watched alarm."""
        return self._states()
