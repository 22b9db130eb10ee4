"""Home Assistant's births (`<prefix>/status` = `online`), paced into announcements.

HA says `online` once when it starts, and expects discovery and states again at once. But
anyone who may publish to the broker can say it too, hundreds of times a second, and each full
announcement is a message per entity. So the first birth after a quiet spell is announced at
once, and the births that follow within `interval` are coalesced into one more announcement at
its end: at most one full announcement per interval, and none is lost (a second HA that starts
during a burst still gets everything, a few seconds later; what it needs first, the retained
discovery configs and states, it has from the broker anyway). A burst is logged once when it
starts and once when it ends, not once per birth. Pure bookkeeping: the caller passes the
time (`time.monotonic()`), announces, and logs.
"""

from __future__ import annotations

from dataclasses import dataclass

INTERVAL = 10.0  # seconds: at most one announcement for births per interval


@dataclass(frozen=True, slots=True)
class BurstOver:
    """What a burst of births came to, for its one closing log line."""

    births: int
    announcements: int
    seconds: float


@dataclass(slots=True)
class _Burst:
    start: float
    births: int
    announcements: int


class Births:
    """When to announce for Home Assistant's births; see the module's docstring.

    A burst begins with the first birth that has to wait, and ends once a whole interval has
    passed since the last announcement with no birth waiting."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self._last: float | None = None  # when births were last announced
        self._waiting = 0  # births since then, to be announced at the end of the interval
        self._burst: _Burst | None = None
        self._ended: BurstOver | None = None  # a burst found over by `birth`, for `over`

    def _quiet(self, now: float) -> bool:
        return self._last is None or now - self._last >= self.interval

    @property
    def bursting(self) -> bool:
        """Whether births are being coalesced (a burst has begun and not yet ended)."""
        return self._burst is not None

    def birth(self, now: float) -> bool:
        """A birth came: True to announce now; False when it waits for the interval's end."""
        if self._quiet(now):
            if self._burst is not None:
                if self._waiting:  # due already: this announcement covers them too
                    self._burst.births += 1
                    self._burst.announcements += 1
                else:
                    self._ended = self._close()
            self._waiting = 0
            self._last = now
            return True
        if self._burst is None:
            assert self._last is not None
            self._burst = _Burst(self._last, births=1, announcements=1)  # the prompt one
        self._burst.births += 1
        self._waiting += 1
        return False

    def due(self, now: float) -> int:
        """The births waiting whose announcement is due now (0: none); they are then taken."""
        if not self._waiting or not self._quiet(now):
            return 0
        waiting, self._waiting = self._waiting, 0
        self._last = now
        if self._burst is not None:
            self._burst.announcements += 1
        return waiting

    def over(self, now: float) -> BurstOver | None:
        """The summary of a burst that has ended, once."""
        if self._ended is not None:
            ended, self._ended = self._ended, None
            return ended
        if self._burst is not None and not self._waiting and self._quiet(now):
            return self._close()
        return None

    def _close(self) -> BurstOver:
        burst, self._burst = self._burst, None
        assert burst is not None and self._last is not None
        return BurstOver(burst.births, burst.announcements, self._last - burst.start)
