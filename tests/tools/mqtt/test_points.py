"""MQTT point payloads: decoded strictly for the point's type, encoded as the device expects."""

from __future__ import annotations

import pytest
from hermes_tools.mqtt.points import MAX_STATE_BYTES, MqttPoint, decode, encode, same


def _point(kind: str, **kw: object) -> MqttPoint:
    return MqttPoint(id="p", device="d", kind=kind, state_topic="s", command_topic="c",
                     **kw)  # type: ignore[arg-type]


def test_bools_take_their_payloads_and_the_usual_words() -> None:
    beacon = _point("bool", payload_on="BLINK", payload_off="DARK")
    assert decode(beacon, b"BLINK") is True
    assert decode(beacon, b"DARK") is False
    assert decode(beacon, b"on") is True
    assert decode(beacon, b" false ") is False
    assert encode(beacon, True) == "BLINK"
    assert encode(beacon, False) == "DARK"


def test_numbers() -> None:
    assert decode(_point("float"), b"21.5") == 21.5
    assert decode(_point("int"), b"1200") == 1200
    assert decode(_point("int"), b"1200.0") == 1200
    assert encode(_point("int"), 1500) == "1500"
    assert encode(_point("float"), 12.5) == "12.5"
    assert same(_point("float"), 12.5, 12.5000000001)
    assert not same(_point("float"), 12.5, 12.6)


@pytest.mark.parametrize(("kind", "payload", "reason"), [
    ("float", b"warm", "not a number"),
    ("float", b"nan", "not a finite number"),
    ("float", b"inf", "not a finite number"),
    ("int", b"12.5", "not a whole number"),
    ("bool", b"maybe", "neither"),
    ("float", b"", "empty"),
    ("float", b"\xff", "UTF-8"),
    ("float", b"1" * (MAX_STATE_BYTES + 1), "longer than"),
    ("string", b"a\x00b", "control characters"),
])
def test_unusable_states_raise_value_error(kind: str, payload: bytes, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        decode(_point(kind), payload)
