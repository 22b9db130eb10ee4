"""The table of tool events: which kinds a tool may send on its own, and who takes each.

The daemon owns one table; the engine registers `values` and `device`, each component the kinds
it serves (`llm`, `talk`, `connection`, ...). A kind is taken by one handler only. An event of a
kind nobody takes, or one its handler finds unusable, is counted and logged, never raised: a
tool that sends nothing but bad events must neither crash the daemon nor flood its log.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from hermesd.core.errors import ProtocolError
from hermesd.core.protocol import Event
from hermesd.metrics import Metrics

log = logging.getLogger(__name__)

#: a handler takes the name of the tool that sent the event and the event's data
EventHandler = Callable[[str, dict[str, Any]], None]


class EventTable:
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._handlers: dict[str, EventHandler] = {}
        self._bad_events_from: set[str] = set()  # tools whose unusable event was logged

    def register(self, kind: str, handler: EventHandler) -> None:
        """Route events of `kind` to `handler`; a kind already taken is a bug, said at once."""
        if kind in self._handlers:
            raise ValueError(f"tool events of kind {kind!r} already have a handler")
        self._handlers[kind] = handler

    def kinds(self) -> frozenset[str]:
        return frozenset(self._handlers)

    def dispatch(self, tool: str, event: Event) -> None:
        """Hand one event from `tool` to its handler (the supervisor's event callback)."""
        try:
            handler = self._handlers.get(event.kind)
            if handler is None:
                raise ProtocolError(f"no handler for event kind {event.kind!r}")
            handler(tool, event.data)
        except (ProtocolError, TypeError, ValueError, KeyError, AttributeError) as exc:
            # the first of a tool at warning, the rest counted (metrics) and at debug
            self.metrics.count("bad_tool_events")
            first = tool not in self._bad_events_from
            self._bad_events_from.add(tool)
            log.log(logging.WARNING if first else logging.DEBUG,
                    "tool %s sent an unusable %s event: %s%s", tool, event.kind[:40],
                    str(exc)[:200], "; more are counted in bad_tool_events, not logged"
                    if first else "")
