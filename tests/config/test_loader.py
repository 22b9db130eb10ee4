"""Config validation: the dev plant is accepted; each kind of mistake gets its own clear line."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import load_config
from hermesd.core.errors import ConfigError

DEV_PLANT = Path(__file__).parents[2].parent / "shared" / "data" / "plant-dev.yaml"
if not DEV_PLANT.exists():  # a clone outside the workplace: the copy in configs/
    DEV_PLANT = Path(__file__).parents[2] / "configs" / "plant-dev.yaml"


def dev() -> dict[str, Any]:
    return dict(yaml.safe_load(DEV_PLANT.read_text(encoding="utf-8")))


def problems(tmp_path: Path, data: dict[str, Any] | str) -> list[str]:
    path = tmp_path / "c.yaml"
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, allow_unicode=True),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return info.value.lines()


def test_dev_plant_is_accepted() -> None:
    config = load_config(DEV_PLANT)
    assert config.node.id == "boiler-house-1"
    assert len(config.points) == 15
    assert config.points["conveyor_speed"].kind == "float"  # int16 x 0.1
    assert config.points["pump1_speed"].kind == "int"
    assert config.points["valve2_open"].writable
    assert config.access.roles["operator"].may_write("pump1_speed")
    assert not config.access.roles["operator"].may_write("boiler3_setpoint")
    assert config.devices["plc1"].poll_interval == 2.0
    assert config.points["outdoor_temp"].max_age == 900.0
    assert config.paths.state_dir == DEV_PLANT.parent / "state"  # relative to the file


def test_empty_devices_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("node: {id: n1}\ndevices: {}\n", encoding="utf-8")
    config = load_config(path)
    assert config.devices == {}
    assert config.access.default_role == "viewer"


def test_point_text_description_and_localized_names(tmp_path: Path) -> None:
    data = _set(dev(), f"{P}.boiler1_temp.description", "Water temperature at the boiler 1 outlet")
    data = _set(data, f"{P}.boiler1_temp.names", {"zh": "1号锅炉温度", "pt-BR": "Temperatura"})
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    point = load_config(path).points["boiler1_temp"]
    assert point.description == "Water temperature at the boiler 1 outlet"
    assert dict(point.names) == {"zh": "1号锅炉温度", "pt-BR": "Temperatura"}
    assert point.label("zh") == "1号锅炉温度"
    assert point.label() == point.label("de") == "Boiler 1 temperature"  # never a guess
    plain = load_config(DEV_PLANT).points["boiler2_temp"]
    assert plain.description is None and dict(plain.names) == {}
    assert plain.label("zh") == "Boiler 2 temperature"


def test_config_is_frozen() -> None:
    config = load_config(DEV_PLANT)
    with pytest.raises(AttributeError):
        config.node.id = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.points["x"] = config.points["tank_level"]  # type: ignore[index]


def _set(data: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    *parents, last = dotted.split(".")
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    return data


def _del(data: dict[str, Any], dotted: str) -> dict[str, Any]:
    data = copy.deepcopy(data)
    *parents, last = dotted.split(".")
    node = data
    for key in parents:
        node = node[key]
    del node[last]
    return data


P = "devices.plc1.points"

CASES: list[tuple[str, Any, str]] = [
    # (what, how to break the dev plant, the line we expect)
    ("unknown top-level key", lambda d: {**d, "devcies": {}},
     "config error: devcies: unknown key (did you mean 'devices'?)"),
    ("unknown point key", lambda d: _set(d, f"{P}.tank_level.adress", 7),
     f"config error: {P}.tank_level.adress: unknown key (did you mean 'address'?)"),
    ("wrong type", lambda d: _set(d, f"{P}.tank_level.address", "seven"),
     f"config error: {P}.tank_level.address: expected a whole number, got the text 'seven'"),
    ("out of range", lambda d: _set(d, f"{P}.tank_level.address", 70000),
     f"config error: {P}.tank_level.address: 70000 is out of range 0..65535"),
    ("port out of range", lambda d: _set(d, "devices.plc1.port", 0),
     "config error: devices.plc1.port: 0 is out of range 1..65535"),
    ("duration without unit", lambda d: _set(d, "devices.plc1.timeout", 1),
     "config error: devices.plc1.timeout: expected a duration with its unit"),
    ("bad duration text", lambda d: _set(d, "devices.plc1.poll_interval", "2 sec"),
     "config error: devices.plc1.poll_interval: '2 sec' is not a duration like 500ms, 2s, 15m, 1h"),
    ("unknown enum", lambda d: _set(d, f"{P}.tank_level.table", "holdings"),
     f"config error: {P}.tank_level.table: the text 'holdings' is not one of "
     "holding|input|coil|discrete (did you mean 'holding'?)"),
    ("unknown driver", lambda d: _set(d, "devices.plc1.driver", "modbuss"),
     "config error: devices.plc1.driver: the text 'modbuss' is not one of"),
    ("missing driver", lambda d: _del(d, "devices.scale1.driver"),
     "config error: devices.scale1.driver: is required"),
    ("missing required key", lambda d: _del(d, f"{P}.tank_level.address"),
     f"config error: {P}.tank_level.address: is required"),
    ("duplicate point id across devices",
     lambda d: _set(d, "devices.scale1.points.tank_level", d["devices"]["scale1"]["points"]
                    ["scale1_weight"]),
     "config error: devices.scale1.points.tank_level: point id 'tank_level' is already used by "
     "device plc1; point ids must be unique"),
    ("unknown point in a role's write list",
     lambda d: _set(d, "access.roles.operator.write", ["pump1_speed", "pump9_speed"]),
     "config error: access.roles.operator.write[1]: unknown point id 'pump9_speed'"),
    ("read-only point in a role's write list",
     lambda d: _set(d, "access.roles.operator.write", ["tank_level"]),
     "config error: access.roles.operator.write[0]: point 'tank_level' is not writable"),
    ("unknown default role", lambda d: _set(d, "access.default_role", "guest"),
     "config error: access.default_role: role 'guest' is not defined in access.roles"),
    ("unknown mqtt command role", lambda d: _set(d, "mqtt.command_role", "admin"),
     "config error: mqtt.command_role: role 'admin' is not defined in access.roles"),
    ("unknown voice role", lambda d: _set(d, "voice.role", "admin"),
     "config error: voice.role: role 'admin' is not defined"),
    ("writable number without a range", lambda d: _del(d, f"{P}.pump1_speed.max"),
     f"config error: {P}.pump1_speed.max: a writable number needs both min and max"),
    ("min above max", lambda d: _set(d, f"{P}.pump1_speed.min", 2000),
     f"config error: {P}.pump1_speed.min: min 2000 is greater than max 1500"),
    ("range beyond the register type", lambda d: _set(d, f"{P}.pump1_speed.max", 70000),
     f"config error: {P}.pump1_speed.max: 70000 cannot be held by this point's type "
     "(range 0..65535)"),
    ("writable input register", lambda d: _set(d, f"{P}.tank_level.writable", True),
     f"config error: {P}.tank_level.writable: input registers are read-only in Modbus"),
    ("coil with a register type", lambda d: _set(d, f"{P}.valve2_open.type", "float32"),
     f"config error: {P}.valve2_open.type: coil points are single bits: type must be bool"),
    ("regex without a value group",
     lambda d: _set(d, "devices.scale1.points.scale1_weight.pattern", r"(\d+) kg"),
     "config error: devices.scale1.points.scale1_weight.pattern: needs a named group"),
    ("invalid regex", lambda d: _set(d, "devices.scale1.points.scale1_weight.pattern", "(?P<value>"),
     "config error: devices.scale1.points.scale1_weight.pattern: is not a valid regular expression"),
    ("mqtt points without a broker", lambda d: _del(d, "mqtt"),
     "config error: devices.yard.driver: driver mqtt needs the top-level `mqtt` section"),
    ("ambiguous alias",
     lambda d: _set(d, f"{P}.boiler2_temp.aliases", ["boiler three temp"]),
     f"config error: {P}.boiler3_temp: name or alias 'boiler three temp' also names point "
     "boiler2_temp"),
    ("a Chinese name that names another point",
     lambda d: _set(_set(d, f"{P}.boiler1_temp.names", {"zh": "锅炉温度"}),
                    f"{P}.boiler2_temp.names", {"zh": "锅炉温度"}),
     f"config error: {P}.boiler2_temp: name or alias '锅炉温度' also names point boiler1_temp"),
    ("names that are no mapping", lambda d: _set(d, f"{P}.boiler1_temp.names", "锅炉温度"),
     f"config error: {P}.boiler1_temp.names: expected a mapping"),
    ("a name under no language code",
     lambda d: _set(d, f"{P}.boiler1_temp.names", {"chinese": "1号锅炉温度"}),
     f"config error: {P}.boiler1_temp.names.chinese: is not a language code such as zh"),
    ("an empty localized name", lambda d: _set(d, f"{P}.boiler1_temp.names", {"zh": " "}),
     f"config error: {P}.boiler1_temp.names.zh: expected the point's name in that language, "
     "got the text ' '"),
    ("a description that is no text", lambda d: _set(d, f"{P}.boiler1_temp.description", 7),
     f"config error: {P}.boiler1_temp.description: expected non-empty text, got the number 7"),
    ("a description of a page", lambda d: _set(d, f"{P}.boiler1_temp.description", "x" * 301),
     f"config error: {P}.boiler1_temp.description: is 301 characters; at most 300"),
    ("a misspelt description key", lambda d: _set(d, f"{P}.boiler1_temp.descripton", "hot"),
     f"config error: {P}.boiler1_temp.descripton: unknown key (did you mean 'description'?)"),
    ("bad llm threads", lambda d: _set(d, "llm.threads", "many"),
     "config error: llm.threads: expected `auto` or a number of threads 1..256"),
    ("bad node id", lambda d: _set(d, "node.id", "boiler house/1"),
     "config error: node.id: 'boiler house/1' is not an id of letters, digits, _ and -"),
    ("boolean where a number belongs", lambda d: _set(d, f"{P}.pump1_speed.max", True),
     f"config error: {P}.pump1_speed.max: expected a number, got the boolean true"),
    ("mapping expected", lambda d: _set(d, "devices.plc1.points", ["boiler1_temp"]),
     "config error: devices.plc1.points: expected a mapping"),
]


@pytest.mark.parametrize(("what", "breaking", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_mistake_is_named(tmp_path: Path, what: str, breaking: Any, expected: str) -> None:
    lines = problems(tmp_path, breaking(dev()))
    assert any(line.startswith(expected) for line in lines), f"{what}: got {lines}"


def test_all_problems_at_once(tmp_path: Path) -> None:
    data = _set(dev(), f"{P}.tank_level.address", -1)
    data = _set(data, "devices.plc1.timeout", "fast")
    data = _set(data, "access.default_role", "nobody")
    lines = problems(tmp_path, data)
    assert len(lines) == 3, lines


def test_duplicate_yaml_keys_are_errors(tmp_path: Path) -> None:
    text = "node: {id: a}\ndevices:\n  d1: {driver: exec, command: [x]}\n  d1: {driver: exec, command: [y]}\n"
    (line,) = problems(tmp_path, text)
    assert line.startswith("config error: (file): YAML syntax error at line 4")
    assert "duplicate key 'd1' (first on line 3)" in line


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    (line,) = problems(tmp_path, "node:\n  id: [unclosed\n")
    assert line.startswith("config error: (file): YAML syntax error at line 3")


def test_a_config_that_is_no_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    """A FIFO where the config was held hermesd in open() until someone wrote to it; a device
    (/dev/zero) would be read until memory ran out (review atk7, F9)."""
    fifo = tmp_path / "hermesd.yaml"
    os.mkfifo(fifo)  # nobody writes to it: a blocking open would never return
    with pytest.raises(ConfigError) as info:
        load_config(fifo)
    assert info.value.lines() == [f"config error: (file): {fifo} is not a regular file (it is "
                                  "a FIFO)"]
    with pytest.raises(ConfigError, match="character device"):
        load_config("/dev/zero")


def test_a_config_over_a_mebibyte_is_refused(tmp_path: Path) -> None:
    """Parsing costs about 100 bytes of memory per byte of YAML, on the daemon's loop at a
    reload: a 1.5 MB file held the watchdog 21 s and outgrew the memory budget (atk8, G1)."""
    path = tmp_path / "hermesd.yaml"
    path.write_text("# " + "x" * (1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.lines() == [f"config error: (file): {path} is larger than 1048576 bytes"]


_LAUGHS = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, 9))


@pytest.mark.parametrize(("where", "bomb", "expected"), [
    ("an exec point's params", "devices: {d: {driver: exec, command: [x], points: {p: "
     "{type: int, params: {v: *l8}}}}}\n", "aliases (*name) expand this file to"),
    ("a write intent's value", "devices: {d: {driver: exec, command: [x], points: {p: "
     "{type: int, writable: true}}}}\nintents: {boost: {phrases: [boost now], action: write, "
     "point: p, value: *l8}}\n", "aliases (*name) expand this file to"),
    ("a block inside itself", "devices: &d {d: {driver: exec, command: [x], points: {p: "
     "{type: int, params: {v: *d}}}}}\n", "an alias refers to a block that contains it"),
])
def test_aliases_that_multiply_or_contain_themselves_are_refused_at_once(
        tmp_path: Path, where: str, bomb: str, expected: str) -> None:
    """Aliases of aliases stand for 10^9 values in 1 KB: building them held the loop and grew
    memory by GBs at a reload, at `--check-config` and at the first ask of an intent (review
    atk9, H6/H7); an alias inside its own block never ends. Refused before any is built."""
    text = "node: {id: a}\nl0: &l0 x\n" + _LAUGHS + bomb
    text = text.replace("l0: &l0 x", "x-l0: &l0 x").replace("l1: &l1", "x-l1: &l1")
    for i in range(2, 9):
        text = text.replace(f"\nl{i}: &l{i}", f"\nx-l{i}: &l{i}")
    if "*d" in bomb:
        text = "node: {id: a}\n" + bomb
    started = time.monotonic()
    (line,) = problems(tmp_path, text)
    assert line.startswith("config error: (file): YAML syntax error at line"), (where, line)
    assert expected in line, (where, line)
    assert time.monotonic() - started < 5, where


def test_a_block_reused_by_alias_is_read_as_written(tmp_path: Path) -> None:
    """A shared block (one set of settings for many points) stays usable."""
    points = ", ".join(f"p{i}: *shared" for i in range(1, 300))
    path = tmp_path / "c.yaml"
    path.write_text("node: {id: a}\ndevices: {d: {driver: exec, command: [x], points: {p0: "
                    f"&shared {{type: int, unit: A, params: {{value: 3}}}}, {points}}}}}}}\n",
                    encoding="utf-8")
    config = load_config(path)
    assert len(config.points) == 300 and {p.unit for p in config.points.values()} == {"A"}


def test_blocks_nested_too_deeply_are_refused_by_name(tmp_path: Path) -> None:
    (line,) = problems(tmp_path, "node: {id: a}\nx: " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested too deeply" in line


@pytest.mark.parametrize(("where", "number"), [
    ("a Modbus address", "1" * 5000),
    ("a port", "9" * 4400),
    ("a range in hex", "0x" + "f" * 4000),
    ("a range in base 60", "1" + ":00" * 3000),
])
def test_a_whole_number_too_long_to_read_is_refused_by_name(
        tmp_path: Path, where: str, number: str) -> None:
    """Review atk11: an integer over 4,300 digits escaped as a Python ValueError (or an
    OverflowError when turned into a float) and crashed `--check-config` and start-up with a
    traceback, not a config error."""
    key = {"a Modbus address": "address", "a port": "port"}.get(where, "max")
    point = {"table": "holding", "address": 0, "type": "int16", "writable": True, "min": 0}
    point[key] = number
    device = {"driver": "modbus", "host": "127.0.0.1", "port": 5020}
    if key == "port":
        device["port"] = number
    fields = ", ".join(f"{k}: {v}" for k, v in point.items())
    text = ("node: {id: a}\ndevices: {d: {" + ", ".join(f"{k}: {v}" for k, v in device.items())
            + ", points: {p: {" + fields + "}}}}\n")
    (line,) = problems(tmp_path, text)
    assert "a whole number written in" in line and "longer than 40" in line, (where, line)


def test_a_write_intent_writes_one_value(tmp_path: Path) -> None:
    text = ("node: {id: a}\ndevices: {d: {driver: exec, command: [x], points: {p: {type: int, "
            "writable: true, min: 0, max: 9}}}}\nintents: {boost: {phrases: [boost now], "
            "action: write, point: p, value: [1, 2]}}\n")
    assert problems(tmp_path, text) == [
        "config error: intents.boost.value: is a list: a write intent writes one value (a "
        "number, on/off, or a choice's name)"]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "nope.yaml")
    assert info.value.lines()[0].startswith("config error: (file): cannot read")


def test_check_config_command(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, "-m", "hermesd.main", "--check-config", str(DEV_PLANT)],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert "valid" in ok.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(_set(_set(dev(), "devices.plc1.port", "x"), "llm.context", 1)),
                   encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "hermesd.main", "--check-config", str(bad)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 78
    assert done.stderr.splitlines() == [
        "config error: devices.plc1.port: expected a whole number, got the text 'x'",
        "config error: llm.context: 1 is out of range 256..131072",
    ]
    assert done.stdout == ""


@pytest.mark.parametrize("escaped", ["\\ud800", "\\udfff", "\\ud83d\\ude00"])
@pytest.mark.parametrize("where", ["value", "key"])
def test_a_surrogate_escape_is_refused_where_it_is_written(tmp_path: Path, escaped: str,
                                                           where: str) -> None:
    # half a character: no UTF-8 carries it, so the tool it is sent to could never start
    point = f'"x{escaped}": {{state_topic: s}}' if where == "key" else \
        f'p: {{state_topic: s, value_key: "t{escaped}"}}'
    text = ("node: {id: a}\nmqtt: {host: 127.0.0.1}\ndevices:\n  d:\n    driver: mqtt\n"
            f"    points:\n      {point}\n")
    (line,) = problems(tmp_path, text)
    assert line.startswith("config error: (file): YAML syntax error at line 7"), line
    assert "half of a character" in line


@pytest.mark.parametrize("escaped", ["\\0", "\\x00", "\\u0000"])
@pytest.mark.parametrize("where", ["paths: {{state_dir: \"/srv/h/s{e}\"}}\n",
                                   "devices:\n  d1: {{driver: exec, command: [x], points: "
                                   "\"p{e}\"}}\n",
                                   "devices:\n  \"d{e}1\": {{driver: exec, command: [x]}}\n"])
def test_a_nul_escape_is_refused_where_it_is_written(tmp_path: Path, escaped: str,
                                                    where: str) -> None:
    # no path, topic or argument can hold a NUL: it once escaped as a ValueError traceback
    text = "node: {id: a}\n" + where.format(e=escaped)
    (line,) = problems(tmp_path, text)
    assert line.startswith("config error: (file): YAML syntax error at line "), line
    assert "NUL character" in line


def test_characters_beyond_the_first_plane_are_text(tmp_path: Path) -> None:
    text = ('node: {id: a, name: "Kiln \\U0001F525 \U0001F525"}\n'
            "devices:\n  d1: {driver: exec, command: [x]}\n")
    source = tmp_path / "c.yaml"
    source.write_text(text, encoding="utf-8")
    assert load_config(source).node.name == "Kiln \U0001F525 \U0001F525"


@pytest.mark.parametrize(("value", "expected"), [
    (99999, "intents.boost.value: 99999 is outside the allowed range of p (0..9)"),
    ("lots", "intents.boost.value: p takes a number, not 'lots'"),
])
def test_a_write_intent_writes_a_value_its_point_takes(tmp_path: Path, value: Any,
                                                       expected: str) -> None:
    """An intent whose value its point refuses was taken, and refused every time its phrase
    was said (atk20s #21)."""
    text = ("node: {id: a}\ndevices: {d: {driver: exec, command: [x], points: {p: {type: int, "
            "writable: true, min: 0, max: 9}}}}\nintents: {boost: {phrases: [boost now], "
            f"action: write, point: p, value: {json.dumps(value)}}}}}\n")
    (line,) = problems(tmp_path, text)
    assert line.startswith("config error: " + expected), line


def test_a_write_intent_needs_a_writable_point(tmp_path: Path) -> None:
    text = ("node: {id: a}\ndevices: {d: {driver: exec, command: [x], points: {p: {type: int}}}}"
            "\nintents: {boost: {phrases: [boost now], action: write, point: p, value: 1}}\n")
    assert problems(tmp_path, text) == [
        "config error: intents.boost.point: p is not writable: a write intent needs a writable "
        "point"]


@pytest.mark.parametrize(("key", "written", "char"), [
    ("name", '"Pump\\e[2J"', "U+001B"),
    ("unit", '"rpm\\n"', "U+000A"),
    ("description", '"the feed pump\\u202e"', "U+202E"),
    ("aliases", '["feed pump", "fp\\t1"]', "U+0009"),
    ("names", '{zh: "给水泵\\u200b"}', "U+200B"),
])
def test_a_points_words_hold_no_control_character(tmp_path: Path, key: str, written: str,
                                                  char: str) -> None:
    """A point's words reach replies, Home Assistant's names, log lines and the model's prompt:
    ESC or a newline in them acted on the terminal that showed them (atk20s #21)."""
    text = ("node: {id: a}\ndevices: {d: {driver: exec, command: [x], points: {p: {type: int, "
            f"{key}: {written}}}}}}}}}\n")
    (line,) = problems(tmp_path, text)
    at = {"aliases": "aliases[1]", "names": "names.zh"}.get(key, key)
    assert line == (f"config error: devices.d.points.p.{at}: holds {char}, a control, format or "
                    "line-breaking character: words people read are shown as written"), line


@pytest.mark.parametrize(("key", "written", "at"), [
    ("map", '{0: "off", 1: "au\\u202eto"}', "map.1.name"),
    ("map", '{0: "off", 1: {name: auto, names: {zh: "自\\u200b动"}}}', "map.1.names.zh"),
    ("choices", '["fast", "sl\\eow"]', "choices[1]"),
])
def test_a_points_choices_hold_no_control_character(tmp_path: Path, key: str, written: str,
                                                    at: str) -> None:
    """Choices are read and answered as the names are (atk25s)."""
    kind = "string, writable: true" if key == "choices" else "int"
    text = ("node: {id: a}\ndevices: {d: {driver: exec, command: [x], points: {p: {type: "
            f"{kind}, {key}: {written}}}}}}}}}\n")
    lines = problems(tmp_path, text)
    assert any(line.startswith(f"config error: devices.d.points.p.{at}: holds U+") for line in
               lines), lines


def test_node_device_and_intent_words_hold_no_control_character(tmp_path: Path) -> None:
    text = ('node: {id: a, name: "Gate\\e]0;owned\\a"}\n'
            'devices: {d: {driver: exec, command: [x], name: "PLC\\r1", points: {p: {type: int}}}}'
            '\nintents: {hi: {phrases: ["hi\\x1b"], action: respond, reply: "ok\\u2028"}}\n')
    lines = problems(tmp_path, text)
    for at in ("node.name", "devices.d.name", "intents.hi.phrases[0]", "intents.hi.reply"):
        assert any(line.startswith(f"config error: {at}: holds U+") for line in lines), \
            (at, lines)


@pytest.mark.parametrize("name", [
    "Pump\u00a01",  # a spreadsheet's no-break space
    "Pompe\u202f1",  # French narrow no-break space
    "1号\u3000给水泵",  # the Chinese full-width space
    "\u067e\u0645\u067e\u200c\u0647\u0627",  # Persian, with its zero-width non-joiner
    "\u0915\u094d\u200d\u0937",  # Devanagari with a zero-width joiner
    "Pump \U0001f468\u200d\U0001f527",  # an emoji sequence
])
def test_the_spaces_and_joiners_writing_needs_are_words(tmp_path: Path, name: str) -> None:
    """(atk25s: all of these had been refused.)"""
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({"node": {"id": "a"}, "devices": {"d": {
        "driver": "exec", "command": ["x"], "points": {"p": {"type": "int", "name": name}}}}},
        allow_unicode=True), encoding="utf-8")
    assert load_config(path).points["p"].name == name
