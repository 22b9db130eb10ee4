"""A config is read into routing rules once: the model stage routes with the rules of the
engine's router, before and after a reload, and the daemon's registry is the engine's. Without
the LLM the rules are built at the first command, not at start or at a reload."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermesd.audit import AuditLog
from hermesd.cache import ValueCache
from hermesd.context import RequestContext
from hermesd.daemon import Daemon
from hermesd.engine import Engine
from hermesd.events import EventTable
from hermesd.metrics import Metrics
from hermesd.registry import Registry
from hermesd.router.llm import LlmComponent
from hermesd.services import Services
from hermesd.supervisor import Supervisor
from tests.support.plants import cold_store, config_of


async def test_the_model_stage_routes_with_the_routers_rules(tmp_path: Path) -> None:
    config = config_of(cold_store())
    metrics = Metrics()
    events = EventTable(metrics)
    supervisor = Supervisor(tmp_path / "run", events.dispatch)
    cache = ValueCache(tmp_path / "lkv.json", {}, {})
    engine = Engine(config, supervisor, cache, AuditLog(tmp_path / "audit.jsonl"), metrics)
    llm = LlmComponent(Services(config, engine, cache, supervisor, metrics, events))
    assert llm.stage.rules is engine.router.rules

    data = cold_store()
    data["devices"]["coldstore"]["points"]["glycol_out"] = {
        "name": "Glycol outlet temperature", "type": "float", "unit": "°C",
        "params": {"value": -8.5}}
    new = config_of(data)
    before = engine.router.rules
    engine.reconfigure(new)  # as a reload does: the engine first, then each component
    await llm.reconfigure(new)
    assert engine.router.rules is not before
    assert llm.stage.rules is engine.router.rules
    assert "glycol_out" in llm.stage.rules.profiles.by_id


async def test_without_the_llm_the_rules_are_built_at_the_first_command(tmp_path: Path) -> None:
    config = config_of(cold_store(enabled=False))
    metrics = Metrics()
    events = EventTable(metrics)
    supervisor = Supervisor(tmp_path / "run", events.dispatch)
    cache = ValueCache(tmp_path / "lkv.json", {}, {})
    engine = Engine(config, supervisor, cache, AuditLog(tmp_path / "audit.jsonl"), metrics)
    LlmComponent(Services(config, engine, cache, supervisor, metrics, events))
    router = engine.router
    assert router._rules is None  # a daemon that is never asked never builds them
    ctx = RequestContext.make("control", "viewer")
    routed = await router.route(ctx, "what is the deck oven temperature")
    assert (routed.action.name, routed.action.point) == ("read", "oven_temp")
    built = router.rules

    data = cold_store(enabled=False)
    data["devices"]["bakery"]["points"]["glycol_out"] = {
        "name": "Glycol outlet temperature", "type": "float", "unit": "°C",
        "params": {"value": -8.5}}
    engine.reconfigure(config_of(data))
    assert router._rules is None  # a reload drops them: built again from the new config
    routed = await router.route(ctx, "glycol outlet temperature?")
    assert (routed.action.name, routed.action.point) == ("read", "glycol_out")
    assert router.rules is not built


def test_the_daemon_builds_one_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Registry] = []
    real = Registry.build

    def build(config: object) -> Registry:
        built.append(real(config))  # type: ignore[arg-type]
        return built[-1]

    monkeypatch.setattr(Registry, "build", build)
    data = cold_store()
    data["paths"] = {"state_dir": str(tmp_path / "state"), "runtime_dir": str(tmp_path / "run")}
    daemon = Daemon(config_of(data))
    try:
        assert built == [daemon.engine.registry]
    finally:
        daemon.disk.shutdown()
