"""A point catalogue that does not fit `llm.context` is listed shorter, not given up: a plant of
forty points named by codes and long descriptions had left the model stage failed at start (its
prefix 2098 tokens, the context 2048; blind batch 40). The worker prepares the first shorter
catalogue that fits, says what it leaves out in its log and status, and the model answers on it.
Where not even the tersest fits, the worker fails with an error that says so."""

from __future__ import annotations

from typing import Any

import pytest

from hermesd.config.loader import validate
from hermesd.router.prompt import build, shorter
from tests.router.conftest import THREADS, ask, require_model, wait_llm_ready
from tests.support.daemon import DaemonRunner
from tests.support.plants import cold_store

_LONG = ("measured by a transmitter on the process line, scaled in the PLC, alarmed high and "
         "low, trended on the SCADA and reported in the shift log every hour")


def _described(**llm: Any) -> dict[str, Any]:
    """The cold store, every point described at length (as a DCS export describes them)."""
    config = cold_store(threads=THREADS, **llm)
    for device in config["devices"].values():
        for pid, point in device["points"].items():
            point["description"] = f"{point['name']} of the plant ({pid}), {_LONG}"
    return config


def test_each_shorter_catalogue_is_shorter_and_names_what_it_leaves_out(tmp_path: Any) -> None:
    config = validate(_described(), tmp_path / "hermesd.yaml")
    full = build(config.points.values())
    options = shorter(config.points.values())
    assert len(options) >= 4
    sizes = [len("".join(p["text"] for p in full.prefix))]
    for leaves_out, prompt in options:
        assert leaves_out
        sizes.append(len("".join(p["text"] for p in prompt.prefix)))
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    # the tersest still lists each point it lists by its id and name
    tersest = "".join(p["text"] for p in options[-1][1].prefix)
    assert "freezer1_air: Freezer 1 air temperature" in tersest and _LONG not in tersest


@pytest.mark.timeout(240)  # a model load and a few preparations of the prefix, on a busy machine
def test_a_catalogue_too_long_for_the_context_is_listed_shorter(
        daemon_runner: DaemonRunner) -> None:
    require_model()
    d = daemon_runner.start(_described(context=768))
    llm = wait_llm_ready(d, timeout=180)
    assert llm["prefix_shortened"], llm
    assert llm["prefix_tokens"] < 768 - 64
    assert "listed shorter to fit" in d.log and llm["prefix_shortened"] in d.log
    # the model answers on the shorter catalogue
    code, answer = ask(d, "what's the weather like in Paris tomorrow")
    assert code == 0 and answer["route"] == "llm" and answer["status"] == "ok", answer
    assert answer["action"]["name"] == "respond"
    assert d.terminate() == 0


@pytest.mark.timeout(240)
def test_a_catalogue_that_fits_is_not_shortened(daemon_runner: DaemonRunner) -> None:
    require_model()
    d = daemon_runner.start(cold_store(threads=THREADS))
    llm = wait_llm_ready(d, timeout=180)
    assert llm["prefix_shortened"] is None
    assert d.terminate() == 0


@pytest.mark.timeout(240)
def test_a_context_no_catalogue_fits_fails_and_says_so(daemon_runner: DaemonRunner) -> None:
    require_model()
    d = daemon_runner.start(_described(context=256))

    def failed() -> dict[str, Any] | None:
        llm = dict(d.status()["llm"])
        return llm if llm["state"] == "failed" else None

    llm = d.wait_until(failed, timeout=180, what="the LLM worker to fail")
    assert "no shorter catalogue fits" in llm["error"], llm
    # the rules still answer
    code, answer = ask(d, "freezer 1 air temperature", dry_run=False)
    assert code == 0 and answer["action"] == {"name": "read", "args": {"point": "freezer1_air"}}
    assert d.terminate() == 0


def test_a_shortened_catalogue_lists_a_coded_point_by_what_it_is(tmp_path: Any) -> None:
    # "10HTC20CT001" tells the model nothing its id does not; its description says what it is
    config = cold_store()
    config["devices"]["coldstore"]["points"]["freezer1_air"].update(
        name="10HTC20CT001", description="Absorber 2 lean amine inlet temperature")
    points = validate(config, tmp_path / "hermesd.yaml").points.values()
    full = "".join(p["text"] for p in build(points).prefix)
    assert "freezer1_air: 10HTC20CT001" in full
    for _, prompt in shorter(points):
        text = "".join(p["text"] for p in prompt.prefix)
        assert "10HTC20CT001" not in text
        assert "freezer1_air: Absorber 2 lean amine inlet temperature" in text or \
            "freezer1_air" not in text
