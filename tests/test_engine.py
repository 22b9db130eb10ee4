"""The engine in process, with a real supervisor and the fake tool as a child process: what a
request becomes — its answer, what reaches the device, what the audit log keeps — for reads,
writes, refusals, a device gone offline, and commands in words."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from hermesd.answer import respond
from hermesd.core.errors import ProtocolError
from hermesd.toolspecs import tool_specs
from tests.support.daemon import base_config, fake_device
from tests.support.in_process import DEVICE, Rig, engine_with_fake_tool
from tests.support.plants import config_of

POINTS: dict[str, Any] = {
    "level": {"name": "Tank level", "type": "float", "unit": "%", "params": {"value": 73.4}},
    "speed": {"name": "Feed pump speed", "type": "int", "unit": "rpm", "writable": True,
              "min": 0, "max": 1500, "params": {"value": 800}},
}


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with engine_with_fake_tool(tmp_path, POINTS) as rig:
        yield rig


async def _device_value(rig: Rig, point: str) -> Any:
    """What the device holds, asked of the tool itself (not through the engine or its cache)."""
    return (await rig.call("read", {"point": point}))["value"]


async def test_a_read_answers_the_devices_value_and_is_audited(rig: Rig) -> None:
    answer = await rig.engine.read(rig.ctx(), "level")
    assert (answer.status, answer.route, answer.error) == ("ok", "direct", None)
    assert answer.result is not None
    assert (answer.result["point"], answer.result["value"], answer.result["unit"]) == \
        ("level", 73.4, "%")
    assert answer.reply == "Tank level is 73.4 %."
    records = await rig.audit_records(answer.trace_id)
    assert [(r["action"]["name"], r["status"]) for r in records] == [("read", "ok")]


async def test_an_allowed_write_reaches_the_device_and_is_audited_intent_then_done(rig: Rig) -> None:
    answer = await rig.engine.write(rig.ctx("operator"), "speed", 1000)
    assert answer.status == "ok", answer
    assert await _device_value(rig, "speed") == 1000
    records = await rig.audit_records(answer.trace_id, count=2)
    assert [r["phase"] for r in records] == ["intent", "done"], records
    assert records[0]["action"] == {"name": "write", "args": {"point": "speed", "value": 1000}}


@pytest.mark.parametrize(("role", "value", "status", "code"), [
    ("viewer", 1000, "forbidden", "FORBIDDEN"),  # the role may not write
    ("operator", 1600, "rejected", "OUT_OF_RANGE"),  # above max
    ("operator", "fast", "rejected", "OUT_OF_RANGE"),  # not a number at all
])
async def test_a_refused_write_never_reaches_the_device(rig: Rig, role: str, value: Any,
                                                      status: str, code: str) -> None:
    answer = await rig.engine.write(rig.ctx(role), "speed", value)
    assert (answer.status, answer.error and answer.error["code"]) == (status, code), answer
    assert await _device_value(rig, "speed") == 800


async def test_a_dry_run_checks_everything_and_changes_nothing(rig: Rig) -> None:
    answer = await rig.engine.write(rig.ctx("operator", dry_run=True), "speed", 1000)
    assert answer.status == "dry_run" and answer.checks, answer
    assert await _device_value(rig, "speed") == 800


async def test_a_device_gone_offline_is_answered_stale_from_the_last_value(rig: Rig) -> None:
    assert (await rig.engine.read(rig.ctx(), "level")).status == "ok"
    await rig.call("set_offline", {"device": DEVICE, "online": False})
    answer = await rig.engine.read(rig.ctx(), "level")
    assert answer.status == "stale", answer
    assert answer.error is not None and answer.error["code"] == "DEVICE_OFFLINE"
    assert answer.result is not None
    assert (answer.result["value"], answer.result["quality"]) == (73.4, "stale")
    reason = answer.result["stale_reason"]
    assert reason.startswith(f"{DEVICE} offline since ") and "unplugged by the test" in reason


async def test_an_unknown_point_is_rejected_without_a_tool_call(rig: Rig) -> None:
    answer = await rig.engine.read(rig.ctx(), "flux_capacitor")
    assert (answer.status, answer.error and answer.error["code"]) == \
        ("rejected", "UNKNOWN_POINT"), answer


async def test_a_command_in_words_is_placed_by_the_rules_and_read(rig: Rig) -> None:
    answer = await rig.engine.ask(rig.ctx(), "what is the tank level")
    assert (answer.status, answer.route) == ("ok", "rule"), answer
    assert answer.action is not None and answer.action.to_dict() == \
        {"name": "read", "args": {"point": "level"}}
    assert answer.result is not None and answer.result["value"] == 73.4


@pytest.mark.parametrize("dry_run", [False, True])
async def test_a_command_to_write_a_read_only_point_is_refused_naming_it(rig: Rig,
                                                                        dry_run: bool) -> None:
    # the router knows no one may write the tank level, and says so; the answer is the one a
    # direct write of it gets, whoever asks, and nothing reaches the device
    answer = await rig.engine.ask(rig.ctx("engineer", dry_run=dry_run),
                                  "set the tank level to 50")
    assert (answer.status, answer.error and answer.error["code"]) == \
        ("rejected", "NOT_WRITABLE"), answer
    assert answer.action is not None and answer.action.to_dict() == {
        "name": "respond", "args": {"reason": "not_allowed", "refused": {
            "name": "write", "args": {"point": "level", "value": 50}}}}
    assert "Tank level (level) is read-only" in answer.reply
    direct = await rig.engine.write(rig.ctx("engineer"), "level", 50)
    assert direct.error == answer.error
    assert await _device_value(rig, "level") == 73.4


async def test_a_respond_never_carries_out_the_write_it_names(rig: Rig) -> None:
    # a refused write of a point that can be written (a point made writable by a reload
    # between routing and answering) is answered as a respond: nothing is written
    answer = await rig.engine.act(rig.ctx("engineer"), respond(
        "not_allowed", refused={"name": "write", "args": {"point": "speed", "value": 1000}}))
    assert (answer.status, answer.error) == ("ok", None), answer
    assert await _device_value(rig, "speed") == 800


@pytest.mark.parametrize(("text", "words"), [
    ("set the feed pump speed to 900 " + "please " * 75, 82),
    ("把进料泵速度设为900" + "并且马上" * 40, 85),  # two Chinese characters to a word
    # each sign is weighed as a word: "60" and 990 "%" held the routing stages 38 s
    ("set the feed pump speed to 900" + "%" * 900, 907),
    # counted as the router reads it, folded: one letter (U+FDFA) is several words then
    ("set the feed pump speed to 900 " + "\ufdfa" * 30, 98),
    # letters and digits apart, as the router splits them: "é1" is two words to it
    ("set the feed pump speed to 900 " + "é1" * 40, 87),
])
async def test_a_command_of_too_many_words_is_refused_before_routing(rig: Rig, text: str,
                                                                     words: int) -> None:
    # the routing stages weigh word against word on the daemon's loop: 1,000 Chinese
    # characters once held it for 15 s; past MAX_WORDS nothing is routed and nothing written
    answer = await rig.engine.ask(rig.ctx(), text)
    assert (answer.status, answer.error and answer.error["code"]) == \
        ("rejected", "BAD_REQUEST"), answer
    assert answer.error is not None and f"command is {words} words; at most 80" in \
        answer.error["message"]
    assert "too long" in answer.reply or "太长" in answer.reply
    assert await _device_value(rig, "speed") == 800


async def test_a_long_command_within_the_word_limit_is_still_routed(rig: Rig) -> None:
    answer = await rig.engine.ask(rig.ctx(), "could you please tell me, if it is not too much "
                                  "trouble, what the level of the tank is right now " * 3)
    assert answer.error is None or answer.error["code"] != "BAD_REQUEST", answer


async def test_a_point_moved_by_a_reload_under_a_write_is_read_from_its_new_device(
        tmp_path: Path) -> None:
    """A reload that moves a point to another device while a write to it waits for its audit
    intent: that write was planned with the old point, but every request after it goes to the
    point's new device (none is held to the old one's tool)."""
    old = {"speed": {**POINTS["speed"], "params": {"value": 800}}}
    new = {"speed": {**POINTS["speed"], "params": {"value": 1200}}}
    async with engine_with_fake_tool(tmp_path, old, more={"dev2": {"spare": POINTS["level"]}}
                                     ) as rig:
        paths = {"state_dir": str(rig.config.paths.state_dir),
                 "runtime_dir": str(rig.config.paths.runtime_dir)}
        moved = config_of({**base_config({DEVICE: fake_device({"spare": POINTS["level"]}),
                                          "dev2": fake_device(new)}), "paths": paths})
        write = asyncio.create_task(rig.engine.write(rig.ctx("operator"), "speed", 1000))
        await asyncio.sleep(0)  # the write runs up to its audit intent, and waits there
        assert not write.done()
        rig.engine.reconfigure(moved)  # as the daemon's reload: the engine, then the tools
        await write
        await rig.supervisor.apply(tool_specs(moved))
        answer = await rig.engine.read(rig.ctx(), "speed")
    assert (answer.status, answer.result and answer.result["value"]) == ("ok", 1200), answer


async def test_a_point_removed_by_a_reload_under_a_write_is_answered_unknown(
        tmp_path: Path) -> None:
    """A reload that removes a point and its device while a write to it waits for its audit
    intent: the write is answered UNKNOWN_POINT, saying why, and reaches no tool."""
    async with engine_with_fake_tool(tmp_path, {"level": POINTS["level"]},
                                     more={"dev2": {"speed": POINTS["speed"]}}) as rig:
        paths = {"state_dir": str(rig.config.paths.state_dir),
                 "runtime_dir": str(rig.config.paths.runtime_dir)}
        removed = config_of({**base_config({DEVICE: fake_device({"level": POINTS["level"]})}),
                             "paths": paths})
        write = asyncio.create_task(rig.engine.write(rig.ctx("operator"), "speed", 1000))
        await asyncio.sleep(0)  # the write runs up to its audit intent, and waits there
        assert not write.done()
        rig.engine.reconfigure(removed)
        answer = await write
        speed = await rig.supervisor.get("dev2").connected().call(
            "read", {"point": "speed"}, rig.ctx().for_tool(), 10)
    assert (answer.status, answer.error and answer.error["code"]) == \
        ("rejected", "UNKNOWN_POINT"), answer
    assert "no longer configured" in answer.reply
    assert speed["value"] == 800  # untouched


async def test_a_values_event_is_taken_only_for_the_sending_tools_own_points(rig: Rig) -> None:
    """A poll's `fresh` entry moves its points' timestamps; one that names a point the tool
    does not serve is refused whole: none of its points moves."""
    engine, cache = rig.engine, rig.cache
    engine.on_values(DEVICE, {"values": [{"point": "level", "value": 70.0, "ts": 1000.0},
                                         {"point": "speed", "value": 900, "ts": 1000.0}]})
    engine.on_values(DEVICE, {"values": [], "fresh": [{"ts": 1010.0, "points": "level speed"}]})
    assert [cache.get(p).ts for p in ("level", "speed")] == [1010.0, 1010.0]  # type: ignore[union-attr]
    for points in ("level nowhere", "level ", "speed level other"):
        with pytest.raises(ProtocolError, match="which tool dev does not serve"):
            engine.on_values(DEVICE, {"values": [], "fresh": [{"ts": 1020.0, "points": points}]})
    with pytest.raises(ProtocolError, match="which tool other does not serve"):
        engine.on_values("other", {"values": [], "fresh": [{"ts": 1020.0, "points": "level"}]})
    with pytest.raises(ProtocolError, match="which tool other does not serve"):
        engine.on_values("other", {"values": [{"point": "level", "value": 1.0, "ts": 1020.0}]})
    assert [cache.get(p).ts for p in ("level", "speed")] == [1010.0, 1010.0]  # type: ignore[union-attr]
    assert cache.get("level").value == 70.0  # type: ignore[union-attr]


@pytest.mark.parametrize(("action", "status", "code", "reply"), [
    # a raw write its tool calls unconfirmed may be done (atk25s: "Could not do that")
    ("raw_poke", "error", "NOT_CONFIRMED", "Not sure it was done: configured to fail; the "
                                           "write may or may not have taken effect."),
    # an action with no effect on a device failed, plainly
    ("echo", "error", "NOT_CONFIRMED", "Could not do that: configured to fail; it may or may "
                                       "not have taken effect"),
])
async def test_a_raw_write_its_tool_calls_unconfirmed_is_not_sure(
        rig: Rig, action: str, status: str, code: str, reply: str) -> None:
    answer = await rig.engine.call(rig.ctx("engineer"), DEVICE, action,
                                   {"fail": "NOT_CONFIRMED"})
    assert (answer.status, answer.error and answer.error["code"]) == (status, code), answer
    assert answer.reply == reply
