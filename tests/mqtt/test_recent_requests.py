"""The memory of recent MQTT requests: a repeat is recognised, and the memory stays bounded."""

from __future__ import annotations

from hermesd.mqtt.requests import PENDING, RecentRequests


def _key(n: int) -> tuple[str, str, None, bytes, str]:
    return ("command", "hermesd/node/command", None, f"corr-{n}".encode(), f"req-{n}")


def test_a_repeat_gets_the_first_answer_and_a_running_one_is_pending() -> None:
    recent = RecentRequests()
    recent.begin(_key(1))
    assert recent.get(_key(1)) == PENDING
    recent.finish(_key(1), {"status": "ok", "reply": "Oven temperature is 180.5 °C.", "id": "r"})
    assert recent.get(_key(1)) == {"status": "ok", "reply": "Oven temperature is 180.5 °C.",
                                   "id": "r"}
    assert recent.get(_key(2)) is None
    # the same id on another topic or with other correlation data is another request
    assert recent.get(("command", "other/topic", None, b"corr-1", "req-1")) is None


def test_the_memory_keeps_the_newest_up_to_its_limit() -> None:
    recent = RecentRequests(limit=50)
    for n in range(120):
        recent.begin(_key(n))
        recent.finish(_key(n), {"status": "ok", "n": n})
    assert len(recent) == 50
    assert recent.get(_key(69)) is None
    assert recent.get(_key(70)) == {"status": "ok", "n": 70}
    assert recent.get(_key(119)) == {"status": "ok", "n": 119}


def test_old_requests_are_forgotten_after_the_ttl() -> None:
    recent = RecentRequests(ttl=0.0)
    recent.begin(_key(1))
    recent.finish(_key(1), {"status": "ok"})
    assert recent.get(_key(1)) is None and len(recent) == 0
