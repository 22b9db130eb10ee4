"""Lines to values and values to command bytes, without a port."""

from __future__ import annotations

from typing import Any

import pytest
from hermes_tools.serial.points import BadAnswer, PointSpec

from hermesd.core.errors import ErrorCode, HermesError, Rejected


def point(**p: Any) -> PointSpec:
    base: dict[str, Any] = {"kind": "float", "type": "float", "pattern": r"V=(?P<value>\S+)"}
    base.update(p)
    return PointSpec.from_config("dev", "pt", base, "ascii")


def value(spec: PointSpec, line: str) -> Any:
    found = spec.match(line)
    assert found is not None
    return spec.value_of(found)


def test_values_are_typed_and_scaled() -> None:
    assert value(point(), "V=+012.34") == 12.34
    assert value(point(), "V=1.234E+03") == 1234.0 and value(point(), "V=-.5") == -0.5
    assert value(point(scale=0.1, offset=-40), "V=734") == pytest.approx(33.4)
    whole = value(point(kind="int", type="int", scale=2), "V=+21")
    assert whole == 42 and isinstance(whole, int)
    assert value(point(kind="string", type="string"), "V=ABC-1") == "ABC-1"
    on = point(kind="bool", type="bool", true_text="RUN", false_text="STOP")
    assert value(on, "V=run") is True and value(on, "V=STOP") is False


@pytest.mark.parametrize(("spec", "line", "says"), [
    (point(), "V=12,5", "'12,5'"),
    (point(), "V=nan", "not a measurement"),
    (point(), "V=-Infinity", "not a measurement"),
    (point(), "V=1e999", "out of range"),
    (point(), "V=1_000", "not a number"),  # Python reads these; an instrument does not send them
    (point(), "V=١٢", "not a number"),
    (point(), "V=0x1F", "not a number"),
    (point(), "V=+", "not a number"),
    (point(kind="int", type="int"), "V=1.5", "not a whole number"),
    (point(kind="int", type="int"), "V=1e3", "not a whole number"),
    (point(kind="int", type="int"), "V=" + "9" * 400, "out of range"),  # float() would overflow
    (point(kind="int", type="int"), "V=" + "9" * 5000, "out of range"),  # int() refuses it
    (point(kind="bool", type="bool"), "V=maybe", "neither '1' (on) nor '0' (off)"),
])
def test_unusable_values_say_why(spec: PointSpec, line: str, says: str) -> None:
    with pytest.raises(BadAnswer) as caught:
        value(spec, line)
    assert says in caught.value.message and caught.value.code == ErrorCode.DEVICE_ERROR


def test_commands_are_rendered_only_from_checked_values() -> None:
    sp = point(command="SP={value:.1f}\r\n", writable=True, min=0, max=250)
    assert sp.render(75.5) == b"SP=75.5\r\n"
    steps = point(kind="float", type="int", scale=0.1, command="S{value}\r\n", writable=True,
                  min=0, max=60)
    assert steps.render(24.5) == b"S245\r\n"
    with pytest.raises(Rejected, match=r"not a whole step of 0\.1"):
        steps.render(24.55)
    for bad in (251, -0.1, "5", True, float("inf"), None):
        with pytest.raises(Rejected):
            sp.render(bad)
    relay = point(kind="bool", type="bool", command="R{value}\r\n", writable=True,
                  true_text="ON", false_text="OFF")
    assert relay.render(True) == b"RON\r\n" and relay.render(False) == b"ROFF\r\n"
    with pytest.raises(Rejected):
        relay.render(1)


def test_text_values_cannot_smuggle_a_second_command() -> None:
    mode = point(kind="string", type="string", command="MODE {value}\r\n", writable=True,
                 choices=["AUTO", "MANUAL"])
    assert mode.render("AUTO") == b"MODE AUTO\r\n"
    with pytest.raises(Rejected, match="not one of AUTO, MANUAL"):
        mode.render("OFF")
    free = point(kind="string", type="string", command="LABEL {value}\r\n", writable=True)
    with pytest.raises(Rejected, match="control characters"):
        free.render("A\r\nSP=999")
    with pytest.raises(Rejected, match="cannot be sent"):
        free.render("Grüße")


def test_a_point_without_command_is_not_writable() -> None:
    with pytest.raises(HermesError) as caught:
        point().render(1.0)
    assert caught.value.code == ErrorCode.NOT_WRITABLE


def test_read_back_comparison() -> None:
    steps = point(kind="float", type="int", scale=0.5)
    assert steps.same(10.0, 10.2) and not steps.same(10.0, 10.3)
    assert point().same(75.5, 75.5) and not point().same(75.5, 75.6)
    assert point(kind="string", type="string").same("A", "A")


@pytest.mark.parametrize(("value", "sent"), [(0.3, b"SP 3.0\r\n"), (250.7, b"SP 2507.0\r\n"),
                                             (1e-07, b"SP 0.000001\r\n"),
                                             (12.34, b"SP 123.4\r\n")])
def test_a_scaled_value_is_sent_as_the_decimal_meant(value: float, sent: bytes) -> None:
    sp = point(kind="float", type="float", scale=0.1, command="SP {value}\r\n", writable=True,
               min=0, max=1000)
    assert sp.render(value) == sent
