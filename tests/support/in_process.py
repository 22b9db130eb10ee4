"""hermesd's request path in the test's own event loop: a real supervisor running the fake tool
(a real child process over its Unix socket), the value cache, the audit log and the engine,
wired as the daemon wires them, without the control socket or systemd in front.

`engine_with_fake_tool(tmp_path, points)` yields a `Rig` once the tool is ready; leaving it
cancels and awaits every task and stops the tool. For what only the whole daemon shows (the
control socket, signals, reloads) tests/support/daemon.py runs it as a process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermesd.audit import AuditLog
from hermesd.cache import ValueCache
from hermesd.config.model import Config
from hermesd.context import RequestContext
from hermesd.engine import Engine
from hermesd.events import EventTable
from hermesd.metrics import Metrics
from hermesd.registry import Registry
from hermesd.supervisor import Supervisor, ToolProcess
from hermesd.toolspecs import tool_specs
from tests.support.daemon import base_config, fake_device
from tests.support.plants import config_of
from tests.support.until import until

DEVICE = "dev"  # the fake tool's device; an exec device's tool has its name


@dataclass
class Rig:
    config: Config
    engine: Engine
    supervisor: Supervisor
    cache: ValueCache
    audit: AuditLog
    audit_path: Path

    @property
    def tool(self) -> ToolProcess:
        return self.supervisor.get(DEVICE)

    def ctx(self, role: str = "viewer", *, timeout: float = 10.0, dry_run: bool = False
            ) -> RequestContext:
        return RequestContext.make("control", role, timeout=timeout, dry_run=dry_run,
                                   peer_uid=os.getuid(), peer="the test")

    async def call(self, action: str, args: dict[str, Any], timeout: float = 10.0) -> Any:
        """An action of the fake tool, straight over its link (to drive it: offline, crash)."""
        return await self.tool.connected().call(action, args, self.ctx().for_tool(), timeout)

    async def audit_records(self, trace_id: str, count: int = 1) -> list[dict[str, Any]]:
        """The first `count` records of one request, once they are on disk (records are
        group-committed: one may land a moment after its answer)."""
        def written() -> list[dict[str, Any]] | None:
            if not self.audit_path.exists():
                return None
            lines = self.audit_path.read_text(encoding="utf-8").splitlines()
            records = [r for r in map(json.loads, lines) if r.get("trace_id") == trace_id]
            return records if len(records) >= count else None
        return list(await until(written, what=f"{count} audit records of {trace_id}"))


@contextlib.asynccontextmanager
async def engine_with_fake_tool(tmp_path: Path, points: dict[str, Any],
                                more: dict[str, dict[str, Any]] | None = None, *,
                                loose: bool = False) -> AsyncIterator[Rig]:
    """`more`: further fake-tool devices (device id -> its points), each its own tool.
    `loose`: the fake tool declares its read and write answers as any JSON."""
    runtime = Path(tempfile.mkdtemp(prefix="hi", dir="/tmp"))  # short: AF_UNIX paths
    state = tmp_path / "state"
    state.mkdir()
    devices = {DEVICE: fake_device(points)}
    if loose:
        devices[DEVICE]["command"].append("--loose")
    devices.update((dev, fake_device(pts)) for dev, pts in (more or {}).items())
    config = config_of({**base_config(devices),
                        "paths": {"state_dir": str(state), "runtime_dir": str(runtime / "run")}})
    registry = Registry.build(config)
    cache = ValueCache(state / "lkv.json", registry.max_ages, registry.device_of())
    audit = AuditLog(state / "audit.jsonl")
    metrics = Metrics()
    events = EventTable(metrics)  # as the daemon hands events on
    supervisor = Supervisor(config.paths.runtime_dir, events.dispatch)
    engine = Engine(config, supervisor, cache, audit, metrics, registry)
    events.register("values", engine.on_values)
    events.register("device", engine.on_device)
    tasks = [asyncio.create_task(supervisor.run(tool_specs(config)), name="supervisor"),
             asyncio.create_task(audit.run(), name="audit"),
             asyncio.create_task(cache.run(), name="cache")]
    try:
        await supervisor.started()
        assert await supervisor.wait_ready(30) == [], supervisor.status()
        yield Rig(config, engine, supervisor, cache, audit, state / "audit.jsonl")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        audit.close()
        shutil.rmtree(runtime, ignore_errors=True)
