"""Policy decides before any device is touched: writability, role, kind, range, step, rate."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermesd.config import load_config
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.errors import ErrorCode, Forbidden, Rejected
from hermesd.policy import Policy, whole_steps
from hermesd.registry import Registry

PLANT = Path(__file__).parents[1] / "configs" / "plant-dev.yaml"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    data = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    data["access"]["roles"]["operator"]["writes_per_minute"] = 3
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_config(path)


def _policy(config: Config) -> Policy:
    return Policy(config.access, Registry.build(config))


def _ctx(role: str, dry_run: bool = False) -> RequestContext:
    return RequestContext.make("control", role, dry_run=dry_run)


def test_allowed_write_lists_its_checks(config: Config) -> None:
    value, checks = _policy(config).check_write(_ctx("operator"), config.points["pump1_speed"],
                                                "1000")
    assert value == 1000 and isinstance(value, int)
    assert checks[:4] == ["pump1_speed is writable", "role operator may write pump1_speed",
                          "1000 is a valid int", "1000 rpm is within 0..1500 rpm"]


@pytest.mark.parametrize(("role", "point", "value", "error", "code", "message"), [
    ("operator", "tank_level", 5, Rejected, ErrorCode.NOT_WRITABLE, "is read-only"),
    ("viewer", "pump1_speed", 5, Forbidden, ErrorCode.FORBIDDEN,
     "role viewer may not write pump1_speed"),
    ("operator", "boiler3_setpoint", 500, Forbidden, ErrorCode.FORBIDDEN,
     "role operator may not write boiler3_setpoint"),
    ("operator", "pump1_speed", 99999, Rejected, ErrorCode.OUT_OF_RANGE,
     "99999 rpm is outside the allowed range of Feed pump 1 speed (0..1500 rpm)"),
    ("operator", "pump1_speed", -1, Rejected, ErrorCode.OUT_OF_RANGE, "outside the allowed"),
    ("operator", "pump1_speed", "fast", Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", 900.5, Rejected, ErrorCode.OUT_OF_RANGE, "whole numbers"),
    ("operator", "pump1_speed", float("nan"), Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", True, Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "conveyor_speed", 24.55, Rejected, ErrorCode.OUT_OF_RANGE,
     "Line A conveyor speed takes steps of 0.1 m/min: 24.55 is between two"),
    ("operator", "valve2_open", "maybe", Rejected, ErrorCode.OUT_OF_RANGE, "is on/off"),
    ("operator", "conveyor_speed", 30.00000000001, Rejected, ErrorCode.OUT_OF_RANGE,
     "30.00000000001 is between two"),  # no tolerance hides it
    ("operator", "pump1_speed", "1_000", Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", "١٠٠٠", Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", "1e3", Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", "nan", Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", "-0", Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "conveyor_speed", -0.0, Rejected, ErrorCode.OUT_OF_RANGE, "takes a number"),
    ("operator", "pump1_speed", int("9" * 400), Rejected, ErrorCode.OUT_OF_RANGE,
     "a 400-digit number is outside the allowed range of Feed pump 1 speed"),
    ("operator", "pump1_speed", "9" * 400, Rejected, ErrorCode.OUT_OF_RANGE,
     "a 400-digit number is outside the allowed range"),
    ("operator", "conveyor_speed", 10**400, Rejected, ErrorCode.OUT_OF_RANGE,
     "outside the allowed range"),
    ("engineer", "boiler3_setpoint", 560.0001, Rejected, ErrorCode.OUT_OF_RANGE,
     "560.0001 °C is outside"),  # shown with every digit, not rounded into the range
    ("nobody", "valve2_open", True, Forbidden, ErrorCode.FORBIDDEN, "role 'nobody' is not defined"),
])
def test_refusals_name_what_is_wrong(config: Config, role: str, point: str, value: object,
                                     error: type[Exception], code: ErrorCode, message: str) -> None:
    with pytest.raises(error) as info:
        _policy(config).check_write(_ctx(role), config.points[point], value)
    assert info.value.code == code  # type: ignore[attr-defined]
    assert message in info.value.message  # type: ignore[attr-defined]


def test_steps_and_booleans_that_are_fine(config: Config) -> None:
    policy = _policy(config)
    dry = _ctx("operator", dry_run=True)
    assert policy.check_write(dry, config.points["conveyor_speed"], 24.5)[0] == 24.5
    for text, expected in (("on", True), ("OPEN", True), ("off", False), ("close", False),
                           ("1", True), (0, False)):
        assert policy.check_write(dry, config.points["valve2_open"], text)[0] is expected


def test_a_number_with_more_digits_than_int_writes_out_is_out_of_range(config: Config) -> None:
    with pytest.raises(Rejected) as info:
        _policy(config).check_write(_ctx("operator"), config.points["pump1_speed"], 10**5000)
    assert info.value.code == ErrorCode.OUT_OF_RANGE
    assert info.value.message == ("a number of over 4000 digits is outside the allowed range of "
                                  "Feed pump 1 speed")


@pytest.mark.parametrize(("value", "step", "origin", "whole"), [
    (24.5, 0.1, 0.0, True), (0.3, 0.1, 0.0, True), (30.00000000001, 0.1, 0.0, False),
    (24.55, 0.1, 0.0, False), (1e-05, 1e-05, 0.0, True), (7.25, 0.5, 0.25, True),
    (7.5, 0.5, 0.25, False), (-3.3, 0.1, 0.0, True), (3, 0.5, 0.0, True),
])
def test_whole_steps_is_exact_decimal_arithmetic(value: float, step: float, origin: float,
                                                 whole: bool) -> None:
    assert whole_steps(value, step, origin) is whole


def test_write_rate_per_role(config: Config) -> None:
    policy = _policy(config)
    point = config.points["pump1_speed"]
    for _ in range(5):  # dry runs do not spend the budget
        policy.check_write(_ctx("operator", dry_run=True), point, 10)
    for _ in range(3):
        policy.check_write(_ctx("operator"), point, 10)
    with pytest.raises(Rejected) as info:
        policy.check_write(_ctx("operator"), point, 10)
    assert info.value.code == ErrorCode.RATE_LIMITED
    assert "has used its 3 writes per minute" in info.value.message


def test_reads_need_a_role_that_reads(config: Config, tmp_path: Path) -> None:
    data = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    data["access"]["roles"]["blind"] = {"read": False, "write": False}
    path = tmp_path / "blind.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    blind = load_config(path)
    with pytest.raises(Forbidden, match="role blind may not read points"):
        _policy(blind).check_read(_ctx("blind"), blind.points["tank_level"])
