"""Raw register commands as PLC people say them: Modicon numbers and 0-based addresses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.router import Router
from hermesd.router.raw_registers import RawRegisterRule, modicon, resolve

DEV_COMMANDS = Path("/work/shared/data/commands-dev.jsonl")


def _place(text: str, devices: tuple[str, ...] = ("plc1",)) -> dict[str, Any] | None:
    placed = RawRegisterRule(list(devices))(text)
    return placed.action.to_dict() if placed else None


def _read(table: str, address: int, device: str = "plc1", **extra: Any) -> dict[str, Any]:
    return {"name": "modbus.read_registers",
            "args": {"device": device, "table": table, "address": address, **extra}}


def _write(table: str, address: int, **extra: Any) -> dict[str, Any]:
    return {"name": "modbus.write_registers",
            "args": {"device": "plc1", "table": table, "address": address, **extra}}


@pytest.mark.parametrize(("digits", "expected"), [
    ("40001", ("holding", 0)), ("40011", ("holding", 10)), ("49999", ("holding", 9998)),
    ("410000", ("holding", 9999)), ("465536", ("holding", 65535)), ("30005", ("input", 4)),
    ("10002", ("discrete", 1)), ("00002", ("coil", 1)), ("40000", None), ("465537", None),
    ("400001", None), ("20001", None), ("4001", None), ("10", None)])
def test_modicon_numbers(digits: str, expected: tuple[str, int] | None) -> None:
    assert modicon(digits) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("read holding register 40011 on plc1", _read("holding", 10)),
    ("read holding register 10", _read("holding", 10)),
    ("read holding register address 40011", _read("holding", 40011)),
    ("what is holding register 40011 set to", _read("holding", 10)),
    ("read register 40011", _read("holding", 10)),
    ("read hr 40001", _read("holding", 0)),
    ("read input register 30005 as float32", _read("input", 4, type="float32")),
    ("read holding register 40013 as a real", _read("holding", 12, type="float32")),
    ("read 2 holding registers from 40011 on plc1", _read("holding", 10, count=2)),
    ("read holding registers 40011-40014", _read("holding", 10, count=4)),
    ("read holding registers 10..13", _read("holding", 10, count=4)),
    ("read coil 00002", _read("coil", 1)),
    ("read coil 2", _read("coil", 2)),
    ("read discrete input 10002", _read("discrete", 1)),
    ("Read Holding Register 40,011 on PLC1", _read("holding", 10)),
    ("write 1200 to holding register 40011 on plc1", _write("holding", 10, values=[1200])),
    ("set holding register 40011 on plc1 to 1200", _write("holding", 10, values=[1200])),
    ("please set holding register 40011 to 7", _write("holding", 10, values=[7])),
    ("set holding register 40013 to 520.5 as float32",
     _write("holding", 12, value=520.5, type="float32")),
    ("set holding register 40011 to -5 as int16", _write("holding", 10, value=-5,
                                                         type="int16")),
    ("turn coil 00002 on plc1 on", _write("coil", 1, values=[True])),
    ("set coil 2 off", _write("coil", 2, values=[False])),
])
def test_placements(text: str, expected: dict[str, Any] | None) -> None:
    assert _place(text) == expected


@pytest.mark.parametrize(("text", "says"), [
    ("read register 10", "Which table is register 10 in?"),
    ("read registers 40001-30001", "40001 and 30001 are in different tables"),
    ("read holding registers 40014-40011", "runs backwards"),
    ("set input register 30001 to 5", "Input registers are read-only"),
    ("set discrete input 10001 to 1", "Discrete inputs are read-only"),
    ("set holding register 40011 to -5", "Say how to store -5"),
    ("set holding register 40011 on plc1", "What value?"),
    ("set coil 2 to 7", "A coil is on or off, not 7"),
    ("read holding register address 70000", "beyond 65535"),
])
def test_questions_back_instead_of_guesses(text: str, says: str) -> None:
    placed = _place(text)
    assert placed is not None and placed["name"] == "respond"
    assert says in placed["args"]["text"]


def test_several_plcs_need_a_name() -> None:
    assert _place("read holding register 40011 on plc2", ("plc1", "plc2")) == \
        _read("holding", 10, device="plc2")
    placed = _place("read holding register 40011", ("plc1", "plc2"))
    assert placed is not None and "Which device?" in placed["args"]["text"]


@pytest.mark.parametrize(("text", "device"), [
    ("set holding register 40011 on plc9 to 99", "plc9"),  # the issue's: it went to plc1
    ("read holding register 40011 on plc9", "plc9"),
    ("read plc9 holding register 40011", "plc9"),
    ("read holding register 40011 from the boiler_plc", "boiler_plc"),
    ("set holding register 40011 on scale1 to 5", "scale1"),  # a serial device has no registers
])
def test_a_device_that_is_not_ours_as_modbus_is_refused_by_name(text: str, device: str) -> None:
    placed = RawRegisterRule(["plc1"], {"scale1": "serial"})(text)
    assert placed is not None
    action = placed.action.to_dict()
    assert action["name"] == "respond" and action["args"]["device"] == device, action
    assert device in action["args"]["text"] and "plc1" in action["args"]["text"]


def test_a_device_not_ours_is_refused_even_among_several() -> None:
    placed = _place("set holding register 40011 on plc3 to 5", ("plc1", "plc2"))
    assert placed is not None and placed["name"] == "respond"
    assert placed["args"]["device"] == "plc3"


@pytest.mark.parametrize(("text", "words"), [
    ("read holding register 0x10", ["0x10"]),
    ("set holding register 40011 to 1e4", ["1e4"]),
    ("set holding register 40011 to 1_000", ["1_000"]),
    ("set holding register 40011 to -0 as int16", ["-0"]),
    ("set holding register ٤٠٠١١ to 5", ["٤٠٠١١"]),
    ("set holding register 40011 to 1,5", ["1,5"]),
    ("set holding register 40011.5 to 99", ["40011.5"]),
    ("read holding register 4001\u200b1", ["4001\\u200b1"]),  # an invisible character, shown
    ("set holding register 40011 to 1 000", ["1", "000"]),  # two numbers where one is wanted
    ("set holding register 40011 to 99, no wait, 100", ["no wait"]),
    ("don't set holding register 40011 to 5", ["don't"]),
])
def test_register_numbers_are_read_as_strictly_as_values(text: str, words: list[str]) -> None:
    placed = _place(text)
    assert placed is not None and placed["name"] == "respond", placed
    assert placed["args"]["unreadable"] == words
    assert all(f"“{w}”" in placed["args"]["text"] or w in placed["args"]["text"] for w in words)


def test_a_lone_surrogate_is_never_echoed() -> None:
    placed = _place("read holding register 4001\udcff1")
    assert placed is not None and placed["args"]["unreadable"] == ["4001\\udcff1"]
    placed["args"]["text"].encode("utf-8")


def test_full_width_digits_are_digits_in_registers_too() -> None:
    assert _place("set holding register ４００１１ to １２") == _write("holding", 10, values=[12])


def test_everyday_commands_are_left_to_the_point_rules() -> None:
    rule = RawRegisterRule(["plc1"])
    for line in DEV_COMMANDS.read_text(encoding="utf-8").splitlines():
        text = json.loads(line)["text"]
        assert rule(text) is None, text


def test_resolve_is_pure() -> None:
    assert resolve("holding register", "40011", None, False).address == 10  # type: ignore[union-attr]
    assert resolve("holding register", "30005", None, False).address == 30005  # type: ignore[union-attr]


def _config(devices: dict[str, Any], tmp: Path) -> Any:
    return validate({"node": {"id": "n"}, "devices": devices}, tmp / "c.yaml")


def test_registered_only_with_modbus_devices_and_on_reload(tmp_path: Path) -> None:
    exec_only = {"oven": {"driver": "exec", "command": ["x"], "points": {"t": {}}}}
    modbus = {"plc1": {"driver": "modbus", "host": "h", "points": {"s": {"table": "holding",
                                                                         "address": 0}}}}
    router = Router(_config(exec_only, tmp_path))
    assert router.rules  # (the stages of a config are built at their first use)
    assert not any(isinstance(r, RawRegisterRule) for r in router.pre_rules)
    router.reconfigure(_config({**exec_only, **modbus}, tmp_path))
    assert router.rules
    assert [type(r) for r in router.pre_rules] == [RawRegisterRule]
    router.reconfigure(_config({**exec_only, **modbus}, tmp_path))
    assert router.rules
    assert len(router.pre_rules) == 1
    router.reconfigure(_config(exec_only, tmp_path))
    assert router.rules
    assert router.pre_rules == []


def test_the_rule_knows_the_other_devices_of_the_config(tmp_path: Path) -> None:
    devices = {"oven": {"driver": "exec", "command": ["x"], "points": {"t": {}}},
               "plc1": {"driver": "modbus", "host": "h",
                        "points": {"s": {"table": "holding", "address": 0}}}}
    rule = RawRegisterRule.of(_config(devices, tmp_path))
    assert rule is not None and rule.devices == ["plc1"] and rule.others == {"oven": "exec"}
    placed = rule("read holding register 40011 on oven")
    assert placed is not None and placed.action.args["device"] == "oven"
