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


@given(ts=st.floats(2.6e11, 1.7e308) | st.floats(-1.7e308, -6.3e10),
       device_ts=st.floats(2.6e11, 1.7e308) | st.floats(time.time() + 60, 2.6e11))
def test_a_stamp_that_is_no_time_breaks_no_answer(daemon: RunningDaemon, ts: float,
                                                  device_ts: float) -> None:
    """A value stamped 1e17 (after year 9999), or a device gone offline 'since' 1e308, made
    every read of its points INTERNAL (OverflowError formatting the time) while the device
    was offline."""
    def emit(kind: str, data: dict[str, Any]) -> None:
        answer = daemon.request({"op": "call", "tool": "dev", "action": "emit",
                                 "role": "engineer", "args": {"kind": kind, "data": data}})
        assert answer["status"] == "ok", answer

    emit("device", {"device": "dev", "online": False, "reason": "test", "ts": device_ts})
    try:
        emit("values", {"values": [{"point": "temp", "value": 99.5, "ts": ts}]})
        for request in ({"op": "read", "point": "temp"}, {"op": "points"},
                        {"op": "ask", "text": "what is the temperature"}):
            answer = daemon.request(request)
            assert answer["status"] in ("ok", "stale", "error"), answer
            assert (answer.get("error") or {}).get("code") != "INTERNAL", answer
        assert _point(daemon)["value"] != 99.5  # no time, no reading
        assert "offline since" in _point(daemon)["stale_reason"]
    finally:
        emit("device", {"device": "dev", "online": True})
