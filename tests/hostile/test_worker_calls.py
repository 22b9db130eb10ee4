"""Direct tool calls: nobody drives hermesd's own workers, and `call` is an engineer's tool.

A viewer once kept the LLM worker busy for minutes with three `call llm.complete` requests
(its own markup parts, a 500-digit grammar, a 10-minute `deadline_ms`): root's asks got BUSY,
then TIMEOUT, and the worker was killed. Here a real hermesd with the real LLM worker and the
real whisper tool takes generated calls to every action those workers offer, from another user
and from root in every role, with generated arguments (the hostile one among them): each is
refused FORBIDDEN before any worker sees it, and afterwards the model still answers an ask at
once. Every action a device tool offers, whatever effect it declares, needs `raw_read`
(`raw_write` for a device effect), and no call's arguments may ask for more time than its
request has.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermesd.control.client import request_once
from tests.hostile.strategies import strict_values
from tests.router.conftest import require_model, wait_llm_ready
from tests.support.daemon import DaemonRunner, RunningDaemon, base_config, fake_device
from tests.support.peers import NOBODY, as_user, open_to_everyone

pytestmark = pytest.mark.timeout(180)

HOSTILE = {"suffix": [{"text": "x", "markup": True}], "max_tokens": 512,
           "grammar": "root ::= [0-9 ]{500}", "deadline_ms": 600000}
WORKERS = ("llm", "whisper")


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningDaemon]:
    require_model()
    runner = DaemonRunner(tmp_path_factory.mktemp("workers"))
    config = base_config({"dev": fake_device({
        "level": {"name": "Tank level", "type": "float", "unit": "%", "params": {"value": 73.4}},
        "speed": {"name": "Pump speed", "type": "int", "writable": True, "min": 0,
                  "max": 1500, "params": {"value": 0}}})},
        llm={"enabled": True, "threads": 1, "timeout": "20s"},
        voice={"enabled": True, "input": "none", "role": "viewer"})
    try:
        d = runner.start(config)
        wait_llm_ready(d)
        d.running_tool_pid("whisper")
        open_to_everyone(d.socket)
        yield d
    finally:
        runner.cleanup()


def _worker_actions(d: RunningDaemon) -> list[tuple[str, str]]:
    tools = d.request({"op": "tools"})["result"]["tools"]
    actions = [(t, a) for t in WORKERS for a in tools[t]["actions"]]
    assert {"llm", "whisper"} == {t for t, _ in actions}  # both workers run and say hello
    return actions


def test_the_hostile_call_of_the_review_is_refused_to_everyone(daemon: RunningDaemon) -> None:
    request = {"op": "call", "tool": "llm", "action": "complete", "args": HOSTILE}
    answers = [as_user(NOBODY, request_once, str(daemon.socket), request)]
    answers += [daemon.request({**request, "role": role})
                for role in ("viewer", "operator", "engineer")]
    for answer in answers:
        assert (answer["status"], answer["error"]["code"]) == ("forbidden", "FORBIDDEN"), answer
        assert "belongs to hermesd's own LLM worker" in answer["error"]["message"]
    llm = daemon.status()["llm"]
    assert (llm["state"], llm["inflight"], llm["kills"]) == ("ready", 0, 0)


@given(data=st.data())
def test_no_call_reaches_a_worker_whoever_asks(daemon: RunningDaemon, data: st.DataObject
                                               ) -> None:
    tool, action = data.draw(st.sampled_from(_worker_actions(daemon)))
    args = data.draw(st.just(HOSTILE) | st.dictionaries(st.text(max_size=12), strict_values,
                                                        max_size=4))
    who = data.draw(st.sampled_from(["other user", "viewer", "operator", "engineer"]))
    request: dict[str, Any] = {"op": "call", "tool": tool, "action": action, "args": args,
                               "dry_run": data.draw(st.booleans())}
    if who == "other user":
        answer = as_user(NOBODY, request_once, str(daemon.socket), request)
    else:
        answer = daemon.request({**request, "role": who})
    assert answer["status"] == "forbidden", answer
    assert answer["error"]["code"] == "FORBIDDEN"


def test_the_model_is_free_for_the_daemon_after_all_that(daemon: RunningDaemon) -> None:
    before = daemon.status()["llm"]
    answer = daemon.request({"op": "ask", "text": "what is the capital of France",
                             "role": "engineer"})
    assert answer["route"] == "llm" and answer["status"] == "ok", answer
    after = daemon.status()["llm"]
    assert (after["kills"], after["timeouts"], after["busy"]) == \
        (before["kills"], before["timeouts"], before["busy"])
    refused = [r for r in daemon.audit_records()
               if (r.get("action") or {}).get("name", "").startswith(("llm.", "whisper."))]
    assert refused and {r["status"] for r in refused} == {"forbidden"}


# -- device tools: raw rights, and the request's own deadline ---------------------------------

@given(action=st.sampled_from(["echo", "sleep", "crash", "grow", "set_offline", "emit",
                               "raw_poke"]),
       args=st.dictionaries(st.text(max_size=8), strict_values, max_size=3),
       role=st.sampled_from(["viewer", "operator"]), other_user=st.booleans())
def test_a_direct_tool_call_without_raw_rights_is_refused(
        daemon: RunningDaemon, action: str, args: dict[str, Any], role: str,
        other_user: bool) -> None:
    """Whatever effect the action declares ("none" too: `crash` and `grow` say none)."""
    pid = daemon.tool_pid("dev")
    request = {"op": "call", "tool": "dev", "action": action, "args": args}
    answer = as_user(NOBODY, request_once, str(daemon.socket), request) if other_user else \
        daemon.request({**request, "role": role})
    assert (answer["status"], answer["error"]["code"]) == ("forbidden", "FORBIDDEN"), answer
    assert "needs raw_" in answer["error"]["message"]
    assert daemon.tool_pid("dev") == pid  # nothing reached the tool


@given(extra_ms=st.integers(1, 10**9), timeout=st.sampled_from([0.5, 2.0, 30.0]))
def test_a_call_may_not_ask_for_more_time_than_its_request_has(
        daemon: RunningDaemon, extra_ms: int, timeout: float) -> None:
    answer = daemon.request({"op": "call", "tool": "dev", "action": "echo", "role": "engineer",
                             "timeout": timeout,
                             "args": {"deadline_ms": int(timeout * 1000) + extra_ms}})
    assert (answer["status"], answer["error"]["code"]) == ("rejected", "BAD_REQUEST"), answer
    assert "more time than this request has" in answer["error"]["message"]


def test_a_call_within_its_requests_time_is_made(daemon: RunningDaemon) -> None:
    answer = daemon.request({"op": "call", "tool": "dev", "action": "echo", "role": "engineer",
                             "timeout": 5, "args": {"deadline_ms": 1000}})
    assert answer["status"] == "ok", answer
    assert answer["result"]["value"]["args"] == {"deadline_ms": 1000}


def test_the_words_of_a_model_routed_write_are_on_the_record(daemon: RunningDaemon) -> None:
    """The intent and the outcome of a write the model placed say what was asked and which
    points the router weighed (or why it placed none)."""
    text = "I want the pump running at 700"
    answer = daemon.request({"op": "ask", "text": text, "role": "operator"})
    records = [r for r in daemon.audit_records() if r.get("trace_id") == answer["trace_id"]]
    phases = [r["phase"] for r in records]
    if answer["action"]["name"] == "write":  # the model may also ask back: both are records
        assert phases == ["intent", "done"], records
    for record in records:
        assert record["text"] == text and record["route"] == answer["route"]
        assert record.get("candidates") or record.get("why"), record
    trail = "".join(p.read_text() for p in daemon.state_dir.glob("audit-trail-*.jsonl"))
    for line in trail.splitlines():
        record = json.loads(line)
        if record.get("trace_id") == answer["trace_id"]:
            assert record["text"] == text

