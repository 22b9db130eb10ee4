"""Policy decides before any device is touched: writability, role, kind, range, step, rate."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hermesd.config import load_config
from hermesd.config.drivers.modbus import span
from hermesd.config.model import Access, Config, Point, Role
from hermesd.context import RequestContext
from hermesd.core.errors import ErrorCode, Forbidden, Rejected
from hermesd.core.protocol import ActionSpec
from hermesd.engine import reserved_topics
from hermesd.policy import INTERNAL_TOOLS, Policy, whole_steps
from hermesd.registry import Registry
from tests.support.daemon import base_config, fake_device
from tests.support.plants import config_of, exec_plant

PLANT = Path(__file__).parents[1] / "configs" / "plant-dev.yaml"


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    data = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    data["access"]["roles"]["operator"]["writes_per_minute"] = 3
    path = tmp_path_factory.mktemp("policy") / "c.yaml"
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


def test_each_mqtt_topic_spends_its_own_writes(config: Config) -> None:
    """Three writes on one point's set topic, by any broker client, had used up the writes of
    Home Assistant's other set topics and the command topic (review atk20s, #14)."""
    policy = _policy(config)
    point = config.points["pump1_speed"]

    def on(topic: str) -> RequestContext:
        return RequestContext.make("mqtt", "operator", peer="mqtt", origin=topic)

    for _ in range(3):
        policy.check_write(on("hermesd/n/pump1_speed/set"), point, 10)
    with pytest.raises(Rejected) as info:
        policy.check_write(on("hermesd/n/pump1_speed/set"), point, 10)
    assert info.value.code == ErrorCode.RATE_LIMITED
    assert "for mqtt hermesd/n/pump1_speed/set has used its 3 writes" in info.value.message
    policy.check_write(on("hermesd/n/conveyor_speed/set"), point, 10)
    policy.check_write(on("hermesd/n/command"), point, 10)


def test_reads_need_a_role_that_reads(config: Config, tmp_path: Path) -> None:
    data = yaml.safe_load(PLANT.read_text(encoding="utf-8"))
    data["access"]["roles"]["blind"] = {"read": False, "write": False}
    path = tmp_path / "blind.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    blind = load_config(path)
    with pytest.raises(Forbidden, match="role blind may not read points"):
        _policy(blind).check_read(_ctx("blind"), blind.points["tank_level"])


# -- direct tool calls: who may call what -------------------------------------------------------

def _worker_actions() -> list[tuple[str, ActionSpec]]:
    """Every action hermesd's own workers offer, as their processes declare them."""
    from hermes_tools.llm.worker import LlmWorker
    from hermes_tools.whisper.tool import WhisperTool

    return [(tool.name, d.spec) for tool in (LlmWorker(), WhisperTool())
            for d in tool.actions().values()]


WORKER_ACTIONS = _worker_actions()
ROLE_FLAGS = st.fixed_dictionaries({
    "read": st.booleans(), "write": st.booleans(), "raw_read": st.booleans(),
    "raw_write": st.booleans(), "writes_per_minute": st.integers(1, 100000)})


def _access(**flags: object) -> Access:
    role = Role(name="r", **flags)  # type: ignore[arg-type]
    return Access(default_role="r", roles=MappingProxyType({"r": role}))


@settings(max_examples=200)
@given(flags=ROLE_FLAGS, worker=st.sampled_from(WORKER_ACTIONS),
       source=st.sampled_from(["control", "mqtt", "voice"]), dry_run=st.booleans(),
       uid=st.none() | st.integers(0, 2**32 - 2))
def test_no_role_may_call_hermesds_own_workers(config: Config, flags: dict[str, object],
                                               worker: tuple[str, ActionSpec], source: str,
                                               dry_run: bool, uid: int | None) -> None:
    """The LLM worker and whisper take prompt markup, grammars and deadlines from hermesd
    alone, and one caller could hold them for everyone: whatever the role (an engineer with
    every raw right included), the source and the effect the action declares, `call` refuses."""
    tool, spec = worker
    policy = Policy(_access(**flags), Registry.build(config))
    ctx = RequestContext.make(source, "r", dry_run=dry_run, peer_uid=uid)  # type: ignore[arg-type]
    with pytest.raises(Forbidden, match=f"{tool}.{spec.name} belongs to hermesd's own"):
        policy.check_call(ctx, tool, spec)


@settings(max_examples=200)
@given(flags=ROLE_FLAGS, effect=st.sampled_from(["none", "read", "write"]),
       tool=st.text("abcdefghijklmnopqrstuvwxyz_-0123456789", min_size=1, max_size=12))
def test_a_direct_tool_call_needs_raw_rights_whatever_its_effect(
        config: Config, flags: dict[str, object], effect: str, tool: str) -> None:
    """`call` is direct access to a tool: `raw_read` for any action (an action that says it has
    no effect included: what it costs is the tool's to say, not ours to trust), `raw_write`
    for one with a device effect."""
    assume(tool not in INTERNAL_TOOLS)
    policy = Policy(_access(**flags), Registry.build(config))
    spec = ActionSpec("act", "", {"type": "object"}, {"type": "object"}, effect)
    allowed = flags["raw_write"] if effect == "write" else flags["raw_read"]
    ctx = RequestContext.make("control", "r", dry_run=True)
    if allowed:
        assert policy.check_call(ctx, tool, spec)
    else:
        with pytest.raises(Forbidden, match="needs raw_"):
            policy.check_call(ctx, tool, spec)


# -- the write rate is each requester's own ------------------------------------------------------

REQUESTERS = st.sampled_from([
    ("control", 0, "uid 0 (root) pid 1"), ("control", 0, "uid 0 (root) pid 2"),
    ("control", 1000, "uid 1000 (alice) pid 7"), ("control", 1001, "uid 1001 (bob) pid 9"),
    ("mqtt", None, "mqtt hermesd/n/command"), ("mqtt", None, "mqtt hermesd/n/pump1_speed/set"),
    ("voice", None, "voice")])


@settings(max_examples=100)
@given(writes=st.lists(st.tuples(REQUESTERS, st.sampled_from(["operator", "engineer"])),
                       max_size=60))
def test_each_requester_has_its_roles_writes_whatever_the_others_do(
        config: Config, writes: list[tuple[tuple[str, int | None, str], str]]) -> None:
    """However the writes of requesters in one role interleave, each requester (role, source,
    uid or MQTT topic or voice) gets exactly its role's writes_per_minute: none can spend
    another's (root as operator was RATE_LIMITED 1,343 times by others' load; an MQTT client
    could use up every person's operator writes)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("hermesd.policy.time.monotonic", lambda: 1000.0)  # no refill meanwhile
        policy = _policy(config)
        point = config.points["pump1_speed"]
        rates = {r: config.access.roles[r].writes_per_minute for r in ("operator", "engineer")}
        spent: Counter[tuple[str, str, str]] = Counter()
        refused: set[tuple[str, str, str]] = set()
        for (source, uid, peer), role in writes:
            ctx = RequestContext.make(source, role, peer_uid=uid,  # type: ignore[arg-type]
                                      peer=peer)
            key = (role, source, peer.split(" pid ")[0])  # one user is one requester
            if spent[key] < rates[role]:
                _value, checks = policy.check_write(ctx, point, 10)
                spent[key] += 1
                assert checks[-1].endswith(f"has {rates[role] - spent[key]} of {rates[role]} "
                                           "writes left this minute")
            else:
                with pytest.raises(Rejected) as info:
                    policy.check_write(ctx, point, 10)
                assert info.value.code == ErrorCode.RATE_LIMITED
                refused.add(key)
        status = policy.status()
    assert {(x["role"], x["source"], x["who"]) for x in status["limited"]} == refused


def test_status_says_who_is_limited(config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """`hermesctl status` names the requesters refused RATE_LIMITED now, and when they may
    write again."""
    monkeypatch.setattr("hermesd.policy.time.monotonic", lambda: 1000.0)
    policy = _policy(config)
    point = config.points["pump1_speed"]
    root = RequestContext.make("control", "operator", peer_uid=0, peer="uid 0 (root) pid 4")
    mqtt = RequestContext.make("mqtt", "operator", peer="mqtt hermesd/n/command")
    for _ in range(3):
        policy.check_write(root, point, 10)
    for _ in range(2):
        with pytest.raises(Rejected, match="role operator for uid 0 \\(root\\) has used its 3"):
            policy.check_write(root, point, 10)
    assert policy.check_write(mqtt, point, 10)[0] == 10  # the others' writes are their own
    [row] = policy.status()["limited"]
    assert (row["role"], row["source"], row["who"], row["refused"]) == \
        ("operator", "control", "uid 0 (root)", 2)
    assert row["next_write_in_s"] == 20.0  # 3 a minute: one every 20 s


_PRINTABLE = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Zl", "Zp", "Cs")),
                     max_size=20)
_HIDDEN = st.sampled_from(["\r", "\n", "\x1b", "\x00", "\x7f", "\x85", "\u200b", "\u202e",
                           "\ufeff", "\u2028", "\u2029"])


@settings(max_examples=200, deadline=None)
@given(before=_PRINTABLE, hidden=_HIDDEN, after=_PRINTABLE)
def test_text_written_to_a_device_holds_no_control_or_format_character(
        before: str, hidden: str, after: str) -> None:
    """'a\\r\\nFAKE' or an ESC sequence written to a text point reached the device: what a
    display or a log on the other side makes of them is nobody's intent."""
    config = config_of(base_config({"panel": fake_device({"message": {
        "name": "Panel message", "type": "string", "writable": True}})}))
    policy = _policy(config)
    point = config.points["message"]
    with pytest.raises(Rejected) as info:
        policy.check_write(_ctx("operator", dry_run=True), point, before + hidden + after)
    assert info.value.code == ErrorCode.OUT_OF_RANGE
    assert f"U+{ord(hidden):04X}" in info.value.message
    if before + after:
        value, _ = policy.check_write(_ctx("operator", dry_run=True), point, before + after)
        assert value == before + after  # printable text of any script still goes


# -- a raw write never reaches a configured point ----------------------------------------------

RAW_WRITE = ActionSpec("write_registers", "", {"type": "object"}, {"type": "object"}, "write")


def _raw_policy(config: Config) -> Policy:
    return Policy(_access(read=True, write=True, raw_read=True, raw_write=True),
                  Registry.build(config))


def _modbus_points(config: Config) -> list[Point]:
    return [p for p in config.points.values() if p.driver == "modbus"
            and isinstance(p.params.get("address"), int)]


def test_a_raw_write_to_any_register_of_a_configured_point_is_refused(config: Config) -> None:
    """A raw write (by words or `call`) to a register of a configured point would get round
    the point's writability and range: "set holding register 40001 on plc7 to 9999" wrote 9999
    into a speed of range 0..1500 (review atk7, F11). It is refused, naming the point, whichever
    of its registers the write begins at or spans."""
    policy = _raw_policy(config)
    ctx = RequestContext.make("control", "r", dry_run=True)
    points = _modbus_points(config)
    assert points
    for point in points:
        first, last, _ = span(point.params) or (0, 0, None)
        table = point.params["table"]
        for address in {first, last, max(0, first - 1)}:
            values: list[Any] = [True] * (first - address + 1) if table == "coil" else \
                [0] * (first - address + 1)
            args = {"device": point.device, "table": table, "address": address,
                    "values": values}
            # (from the register before, it may name the point there first)
            with pytest.raises(Forbidden, match=r"holds the configured point .*; write it by "
                                                r"name"):
                policy.check_call(ctx, "modbus", RAW_WRITE, args)


def test_a_raw_write_beside_every_configured_point_is_allowed(config: Config) -> None:
    """Raw access stays what it is for: the registers the config does not name."""
    policy = _raw_policy(config)
    ctx = RequestContext.make("control", "r", dry_run=True)
    taken = {(p.device, p.params["table"], a) for p in _modbus_points(config)
             for a in range((span(p.params) or (0, -1, None))[0],
                            (span(p.params) or (0, -1, None))[1] + 1)}
    device = next(iter({p.device for p in _modbus_points(config)}))
    free = next(a for a in range(1000, 60000) if (device, "holding", a) not in taken
                and (device, "holding", a + 1) not in taken)
    checks = policy.check_call(ctx, "modbus", RAW_WRITE, {
        "device": device, "table": "holding", "address": free, "value": 7.5,
        "type": "float32"})
    assert "no configured point is on the registers or topics written" in checks


def test_a_raw_write_through_another_entry_for_the_same_plc_is_refused(
        tmp_path: Path) -> None:
    """A second device entry can reach the same registers: a TCP PLC that ignores the unit id
    answers unit 255 as it answers unit 1. A raw write to plc1's configured speed register
    through `plc1_any` had put 9999 into a point of range 0..1500 (review atk20s, #6). Unit 2
    behind the same gateway is another device, and stays free."""
    point = {"table": "holding", "address": 10, "type": "uint16", "writable": True,
             "min": 0, "max": 1500}
    tcp = {"driver": "modbus", "host": "127.0.0.1", "port": 5020}
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({"node": {"id": "n"}, "devices": {
        "plc1": {**tcp, "points": {"pump1_speed": point}},
        "plc1_any": {**tcp, "host": "localhost", "unit": 255, "points": {}},
        "meter2": {**tcp, "unit": 2, "points": {}}}}))
    config = load_config(path)
    policy = _raw_policy(config)
    ctx = RequestContext.make("control", "r", dry_run=True)
    for device in ("plc1", "plc1_any"):
        with pytest.raises(Forbidden, match=r"holding register 10 on .* holds the configured "
                                            r"point .*\(pump1_speed\)"):
            policy.check_call(ctx, "modbus", RAW_WRITE, {
                "device": device, "table": "holding", "address": 10, "values": [9999]})
    checks = policy.check_call(ctx, "modbus", RAW_WRITE, {
        "device": "meter2", "table": "holding", "address": 10, "values": [9999]})
    assert "no configured point is on the registers or topics written" in checks


def test_a_raw_write_s_address_is_a_whole_number_or_refused(config: Config) -> None:
    """ "address": 0.0 passed the check above as no register at all (the schema lets an
    integral float be an integer), and a dry run said every check passed (review atk8, G6)."""
    policy = _raw_policy(config)
    ctx = RequestContext.make("control", "r", dry_run=True)
    point = _modbus_points(config)[0]
    first = (span(point.params) or (0, 0, None))[0]
    with pytest.raises(Forbidden, match=f"\\({point.id}\\); write it by name"):
        policy.check_call(ctx, "modbus", RAW_WRITE, {
            "device": point.device, "table": point.params["table"], "address": float(first),
            "values": [1]})
    with pytest.raises(Rejected, match="whole-number address"):
        policy.check_call(ctx, "modbus", RAW_WRITE, {
            "device": point.device, "table": point.params["table"], "address": "0",
            "values": [1]})


def test_a_raw_publish_on_a_configured_point_s_topic_is_refused() -> None:
    """A publish on an MQTT point's command topic got round its range (100 to a point of
    0..60 %), and one on its state topic would fake its reading (review atk8, G5)."""
    config = config_of({"node": {"id": "yard"}, "mqtt": {"host": "127.0.0.1", "port": 1883},
                        "devices": {"yard": {"driver": "mqtt", "points": {
                            "heater": {"name": "Heater output", "state_topic": "site/heater/state",
                                       "command_topic": "site/heater/set", "unit": "%",
                                       "writable": True, "min": 0, "max": 60}}}}})
    policy = _raw_policy(config)
    ctx = RequestContext.make("control", "r", dry_run=True)
    publish = ActionSpec("publish", "", {"type": "object"}, {"type": "object"}, "write")
    for topic in ("site/heater/set", "site/heater/state"):
        with pytest.raises(Forbidden, match=r"topic of the configured point .*\(heater\)"):
            policy.check_call(ctx, "mqtt", publish,
                              {"messages": [{"topic": "other/x", "payload": "1"},
                                            {"topic": topic, "payload": "100"}]})
    assert policy.check_call(ctx, "mqtt", publish,
                             {"messages": [{"topic": "site/other", "payload": "100"}]})


def test_a_raw_publish_into_hermesds_own_topics_is_refused() -> None:
    """An engineer's raw publish of a retained 20.0 on hermesd's own state topic made Home
    Assistant show Boiler 3 at 20 °C; an empty retained discovery config deleted an entity; a
    device's availability could be faked (review atk20s, #11)."""
    config = config_of({"node": {"id": "yard"},
                        "mqtt": {"host": "127.0.0.1", "port": 1883, "base_topic": "plantd"},
                        "devices": {"yard": {"driver": "mqtt", "availability_topic": "site/yard/lwt",
                                             "points": {"heater": {
                                                 "name": "Heater output", "state_topic": "site/heater/state",
                                                 "unit": "%"}}}}})
    policy = Policy(_access(read=True, write=True, raw_read=True, raw_write=True),
                    Registry.build(config), reserved_topics(config))
    ctx = RequestContext.make("control", "r", dry_run=True)
    publish = ActionSpec("publish", "", {"type": "object"}, {"type": "object"}, "write")
    for topic in ("plantd/yard/heater/state", "plantd/other-node/command", "plantd",
                  "homeassistant/number/yard/heater/config", "site/yard/lwt"):
        with pytest.raises(Forbidden, match="a raw publish may not go there"):
            policy.check_call(ctx, "mqtt", publish, {"messages": [
                {"topic": "site/free", "payload": "1"}, {"topic": topic, "payload": "20.0"}]})
    assert policy.check_call(ctx, "mqtt", publish,
                             {"messages": [{"topic": "plantdx/free", "payload": "1"}]})


@pytest.mark.parametrize(("name", "word", "expected"), [
    ("Valve 8 close solenoid", "close", True),   # its own action: on
    ("Valve 8 close solenoid", "on", True),
    ("Valve 8 close solenoid", "open", None),    # on would close the valve: refused
    ("Burner inhibit", "enable", None),           # on would disable the burner: refused
    ("Burner inhibit", "off", False),
    ("Damper 2 open", "close", False),
    ("Valve 3 normally open", "open", None),     # its solenoid's on closes it
    ("Pump 1", "start", True),
    ("Pump 1", "stop", False),
    # named in Chinese by what it does: no English action word can be checked against it
    # (atk21: "open" closed valve 8, "start" stopped fan 2, "enable" inhibited ignition)
    ("8号阀关电磁阀", "open", None), ("5号断路器合闸", "open", None),
    ("2号风机停止", "start", None), ("1号炉禁止点火", "enable", None),
    ("2号风机停止", "on", True), ("1号泵", "start", True),
    # a thing whose name holds such a character is no action (atk22: 混合机, 制冷机组)
    ("2号混合机", "start", True), ("3号制冷机组", "stop", False), ("1号斗式提升机", "start", True),
])
def test_an_action_word_is_read_as_the_switch_does_it(config: Config, name: str, word: str,
                                                       expected: bool | None) -> None:
    plant = exec_plant("words", {"p": {"name": name, "type": "bool", "writable": True}})
    policy = Policy(config.access, Registry.build(plant))  # the dev plant's roles
    dry = _ctx("engineer", dry_run=True)
    if expected is None:
        with pytest.raises(Rejected) as info:
            policy.check_write(dry, plant.points["p"], word)
        assert info.value.code == ErrorCode.OUT_OF_RANGE
        assert repr(word) in info.value.message and "write on or off" in info.value.message
    else:
        assert policy.check_write(dry, plant.points["p"], word)[0] is expected
