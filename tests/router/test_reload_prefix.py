"""READY comes before the model; a config reload re-prepares the prompt prefix (no reload)."""

from __future__ import annotations

import signal

import pytest
import yaml

from tests.router.conftest import THREADS, ask, require_model, wait_llm_ready
from tests.support.daemon import DaemonRunner
from tests.support.plants import cold_store


@pytest.mark.timeout(240)  # two preparations of the prefix by the real model, on a busy machine
def test_reload_reprepares_the_prefix(daemon_runner: DaemonRunner) -> None:
    require_model()
    config = cold_store(threads=THREADS)
    d = daemon_runner.start(config)
    # READY=1 came before the model: until it is ready, the rules answer alone and say so
    llm = d.status()["llm"]
    assert llm["state"] in ("starting", "loading", "preparing") and llm["route"] == "rules"
    code, answer = ask(d, "what's the weather like tomorrow")
    assert code == 0 and answer["route"] == "rule"
    assert answer["action"]["args"]["reason"] == "not_understood"
    assert answer["action"]["args"]["llm"] in ("starting", "loading", "preparing")
    _, answer = ask(d, "oven temperature")
    assert answer["action"] == {"name": "read", "args": {"point": "oven_temp"}}
    before = wait_llm_ready(d)
    _, answer = ask(d, "brine temperature")
    assert answer["action"]["name"] == "respond"  # no such point yet

    points = config["devices"]["coldstore"]["points"]
    points["glycol_out"] = {"name": "Glycol outlet temperature", "type": "float", "unit": "°C",
                            "aliases": ["brine temperature"], "params": {"value": -8.5}}
    del config["devices"]["bakery"]["points"]["power_draw"]
    daemon_runner.write_config(config)
    d.proc.send_signal(signal.SIGHUP)

    def reprepared() -> bool:
        llm = d.status()["llm"]
        return bool(llm["state"] == "ready" and llm["prefix_key"] != before["prefix_key"])

    d.wait_until(reprepared, timeout=180, what="the prefix to be prepared again")  # a busy machine
    after = d.status()["llm"]
    assert after["pid"] == before["pid"] and after["load_s"] == before["load_s"]  # not reloaded
    assert after["prefix_tokens"] != before["prefix_tokens"]
    assert d.status()["reloads"]["ok"] == 1

    _, answer = ask(d, "brine temperature")
    assert answer["action"] == {"name": "read", "args": {"point": "glycol_out"}}
    _, answer = ask(d, "how much power are we drawing")
    assert answer["action"]["name"] == "respond"  # the removed point is gone from both stages
    _, answer = ask(d, "what's the weather like tomorrow")  # the model, on the new prefix
    assert answer["route"] == "llm" and answer["status"] == "ok"
    assert answer["action"]["name"] == "respond"
    assert yaml.safe_load(d.config_path.read_text())["devices"]["coldstore"]["points"]["glycol_out"]
    assert d.terminate() == 0
