"""Home Assistant's `online`, from anyone, cannot flood the broker or the log.

The pacing alone, over generated timelines of births and the bridge's one-second ticks: the
first birth after a quiet spell is announced at once, announcements are at least an interval
apart, every birth is covered by an announcement within an interval (and a tick), and each
burst is summed up once. Then a real hermesd under 300 births on a real broker: a few
announcements and a few log lines, not 300 of each; a lone birth later is answered at once.
"""

from __future__ import annotations

import itertools
import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from hermesd.mqtt.births import Births, BurstOver
from tests.mqtt.expected_plant import B
from tests.support.daemon import DaemonRunner
from tests.support.mosquitto import Mosquitto, MqttClient
from tests.support.plant import faked_plant

INTERVAL, TICK = 10.0, 1.0

#: births as gaps between them: bursts (milliseconds apart), HA restarts (minutes), in between
GAPS = st.lists(st.one_of(st.floats(0, 0.05), st.floats(0, 30), st.floats(60, 600)),
                min_size=1, max_size=200)


def _run(gaps: list[float], start_tick: float
         ) -> tuple[list[float], list[float], list[BurstOver]]:
    """Births at the given gaps and ticks every TICK: (births, announcements, summaries)."""
    births = Births(INTERVAL)
    times = []
    t = 100.0
    for gap in gaps:
        t += gap
        times.append(t)
    ticks = [start_tick + 100.0 + n * TICK for n in range(int((t - 100.0 + 3 * INTERVAL)
                                                            / TICK) + 2)]
    events = sorted([(bt, "birth") for bt in times] + [(tt, "tick") for tt in ticks])
    announced: list[float] = []
    summaries: list[BurstOver] = []
    for now, kind in events:
        if kind == "birth":
            if births.birth(now):
                announced.append(now)
        else:
            if births.due(now):
                announced.append(now)
            over = births.over(now)
            if over is not None:
                summaries.append(over)
    return times, announced, summaries


@settings(max_examples=300, deadline=None, database=None)
@given(gaps=GAPS, start_tick=st.floats(0, TICK, exclude_max=True))
def test_births_are_paced(gaps: list[float], start_tick: float) -> None:
    times, announced, summaries = _run(gaps, start_tick)
    assert all(b - a >= INTERVAL for a, b in itertools.pairwise(announced))
    for t in times:  # every birth is covered, within an interval and a tick
        assert any(t <= a <= t + INTERVAL + TICK for a in announced), (t, announced)
        quiet = not any(t - INTERVAL < a <= t for a in announced if a != t)
        if quiet:  # nothing announced lately: this one at once
            assert t in announced
    # each burst (births that had to wait) is summed up once; lone births need no summary
    waited = len(times) - sum(1 for t in times if t in announced)
    assert sum(s.births - 1 for s in summaries) >= waited
    assert sum(s.births for s in summaries) <= len(times)
    assert len(summaries) <= len(announced)


def test_a_burst_is_one_prompt_announcement_then_one_per_interval() -> None:
    births = Births(INTERVAL)
    assert births.birth(0.0)  # HA's own birth: at once
    assert not any(births.birth(0.001 * n) for n in range(1, 300))
    assert births.bursting and births.due(5.0) == 0 and births.over(5.0) is None
    assert births.due(10.0) == 299  # one announcement for all of them
    assert births.over(15.0) is None
    summary = births.over(20.0)
    assert summary is not None and (summary.births, summary.announcements) == (300, 2)
    assert births.over(21.0) is None and not births.bursting
    assert births.birth(21.0)  # a new quiet spell: at once again


def test_three_hundred_births_cost_a_few_announcements_and_log_lines(
        daemon_runner: DaemonRunner, broker: Mosquitto) -> None:
    config = faked_plant(daemon_runner.tmp / "state", daemon_runner.runtime / "run", broker.port)
    config_topic = "homeassistant/sensor/boiler-house-1/outdoor_temp/config"
    with MqttClient(broker.port, client_id="ha", subscribe=(config_topic, f"{B}/availability"),
                    no_delay=True) as ha:
        d = daemon_runner.start(config)
        ha.wait_topic(f"{B}/availability", lambda m: m.payload == b"online")
        ha.wait_topic(config_topic)
        before = d.status()["mqtt"]["announcements"]

        mark = time.monotonic()
        ha.publish("homeassistant/status", "online")
        ha.wait_topic(config_topic, after=mark, timeout=INTERVAL / 2)  # at once, not later
        for _ in range(299):
            ha.publish("homeassistant/status", "online", wait=False)
        mark = time.monotonic()
        ha.wait_topic(config_topic, after=mark, timeout=INTERVAL + 5)  # the burst's one more
        d.wait_until(lambda: d.status()["mqtt"]["announcements"] >= before + 2)
    assert d.status()["mqtt"]["announcements"] == before + 2  # not 300
    info = re.findall(r" INFO hermesd\.mqtt\.bridge: .*(?:announc|Home Assistant).*", d.log)
    assert len(info) <= 4, info  # connect, the birth, the burst's start (its end comes later)
