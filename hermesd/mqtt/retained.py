"""The retained topics hermesd owns on the broker, remembered in the state dir.

Discovery configs, point states and device availabilities are retained, so they outlive the
points they describe. This remembers what was announced, so that what a new config no longer
has is cleared (an empty retained message) even when the config changed while hermesd was
stopped. A topic stays listed as `clearing` until its empty message is in the mqtt tool's
durable outbox; only then is it forgotten. The file is replaced atomically, and never through a
link planted in its place (hermesd/core/statefiles.py).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path

from hermesd.core.statefiles import read_state, remove_stale_temps, write_atomic

log = logging.getLogger(__name__)

FORMAT_VERSION = 1


class RetainedTopics:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.owned: set[str] = set()
        self.clearing: set[str] = set()
        self._written: bytes | None = None

    def load(self) -> None:
        remove_stale_temps(self.path)  # a snapshot a stopped process did not finish
        try:
            raw = read_state(self.path)
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("cannot read %s: %s; entities of removed points may stay in Home "
                      "Assistant", self.path, exc)
            return
        try:
            data = json.loads(raw)
            if data.get("version") != FORMAT_VERSION:
                raise ValueError("unknown version")
            self.owned = {t for t in data["owned"] if isinstance(t, str) and t}
            self.clearing = {t for t in data["clearing"] if isinstance(t, str) and t}
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            log.error("%s is unreadable (%s); starting afresh", self.path, exc)
            return
        self._written = raw

    def plan(self, owned: Iterable[str]) -> list[str]:
        """Adopt what is owned now; returns the topics to clear (all not owned any more)."""
        now = set(owned)
        self.clearing = (self.owned | self.clearing) - now
        self.owned = now
        self._save()
        return sorted(self.clearing)

    def cleared(self, topics: Iterable[str]) -> None:
        before = len(self.clearing)
        self.clearing.difference_update(topics)
        if len(self.clearing) != before:
            self._save()

    def _save(self) -> None:
        data = json.dumps({"version": FORMAT_VERSION, "owned": sorted(self.owned),
                           "clearing": sorted(self.clearing)}, ensure_ascii=False,
                          separators=(",", ":"), indent=None).encode()
        if data == self._written:
            return
        try:
            write_atomic(self.path, data)
        except OSError as exc:
            log.error("cannot save %s: %s", self.path, exc)
            return
        self._written = data
