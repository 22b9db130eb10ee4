"""A real hermesd whose LLM worker dies each time it starts (a llama.cpp build for another CPU).

After three deaths in a row while starting the worker is `failed`: `status` (the llm section and
the tool's entry) and the log say why, once; `ask` goes on by rules alone and says why the model
did not help; and nothing restarts it until a reload gives it another chance. Needs no model.
"""

from __future__ import annotations

import signal
from pathlib import Path

from tests.support.daemon import DaemonRunner, base_config, fake_device
from tests.support.llm_builds import broken_llama_env, tiny_model

REASON = "was killed by SIGSEGV 3 times in a row while starting"
GAVE_UP = f"tool llm {REASON}; not restarting it until the config is reloaded"


def test_a_worker_that_dies_while_starting_is_failed_and_ask_goes_on_by_rules(
        daemon_runner: DaemonRunner, tmp_path: Path) -> None:
    config = base_config({"tank": fake_device({"level": {
        "name": "Tank level", "type": "float", "unit": "%", "params": {"value": 73.4}}})},
        llm={"enabled": True, "model": str(tiny_model(tmp_path)), "threads": 1,
             "context": 4096})
    d = daemon_runner.start(config, env=broken_llama_env())
    d.wait_until(lambda: d.status()["llm"]["state"] == "failed", timeout=40,
                 what="the worker to be marked failed")
    status = d.status()
    assert (status["llm"]["error"], status["llm"]["route"]) == (REASON, "rules")
    tool = status["tools"]["llm"]
    assert (tool["state"], tool["last_error"], tool["pid"], tool["restarts"]) == (
        "failed", REASON, None, 2)
    assert f"last: {REASON}" in d.ctl("status").stdout  # and in words

    code, answer = d.ctl_json("ask", "tell me a joke")
    assert (code, answer["route"]) == (0, "rule")
    assert answer["action"] == {"name": "respond", "args": {
        "reason": "not_understood", "llm": "failed", "llm_error": REASON}}
    code, answer = d.ctl_json("ask", "what is the tank level")
    assert (code, answer["status"], answer["route"]) == (0, "ok", "rule")
    assert answer["result"]["value"] == 73.4

    # left alone: had it been restarted, the next try would come within the backoff (~2 s)
    since = d.status()["uptime_s"]
    d.wait_until(lambda: d.status()["uptime_s"] > since + 3, what="three seconds of uptime")
    assert d.status()["tools"]["llm"]["restarts"] == 2
    assert d.log.count(GAVE_UP) == 1  # logged once

    d.proc.send_signal(signal.SIGHUP)  # a reload is its other chance: three more tries
    d.wait_until(lambda: "tool llm: trying again after it failed (the config was reloaded)"
                 in d.log, what="the retry")
    d.wait_until(lambda: d.log.count(GAVE_UP) == 2, timeout=40, what="the second failure")
    assert d.status()["tools"]["llm"]["restarts"] == 4
    assert d.status()["llm"]["state"] == "failed"
    assert d.terminate() == 0
