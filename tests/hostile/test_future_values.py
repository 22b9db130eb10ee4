"""Values stamped in the future, through a real hermesd: never fresh, and replaced by the next.

A clock stepped back (or a device with its own clock ahead) left a value stamped an hour ahead
"good, age 0" for that hour, and every reading after it was refused as older. Here a tool sends
generated readings stamped ahead of the daemon's clock; `points` and `status` must call them
stale in words, and the next reading from the device must replace them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    runner = DaemonRunner(tmp_path_factory.mktemp("future"))
    try:
        yield runner.start(base_config({"dev": fake_device({
            "temp": {"name": "Temperature", "type": "float", "max_age": "30s",
                     "params": {"value": 20.5}}})}))
    finally:
        runner.cleanup()


def _point(d: RunningDaemon) -> dict[str, Any]:
    [point] = d.request({"op": "points"})["result"]["points"]
    return dict(point)


@given(ahead=st.floats(60.0, 10 * 365 * 86400.0),
       value=st.floats(-1e6, 1e6).filter(lambda v: v != 20.5))
def test_a_value_from_the_future_is_stale_and_the_next_reading_replaces_it(
        daemon: RunningDaemon, ahead: float, value: float) -> None:
    event = {"kind": "values", "data": {"values": [
        {"point": "temp", "value": value, "ts": time.time() + ahead}]}}
    answer = daemon.request({"op": "call", "tool": "dev", "action": "emit", "role": "engineer",
                             "args": event})
    assert answer["status"] == "ok", answer  # the event came before this answer, on one stream
    seen = _point(daemon)
    assert (seen["value"], seen["quality"]) == (value, "stale"), seen
    assert seen["stale_reason"].startswith("timestamped in the future ("), seen
    # the device's next reading (stamped now, hours "older") takes its place
    read = daemon.request({"op": "read", "point": "temp"})
    assert (read["status"], read["result"]["value"]) == ("ok", 20.5), read
    seen = _point(daemon)
    assert (seen["value"], seen["quality"]) == (20.5, "good"), seen
