"""The real LLM worker process for the routing benchmark, under the daemon's own supervisor.

Also the model's same-run baseline: one fixed-length completion (a fixed command after the
plant's prompt prefix, its answer — a short line like the ones the model stage offers — forced
token by token by a one-line grammar, with no early stop), so LLM-routed latency can be quoted as
a ratio that holds on a noisy machine.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from hermesd.config.model import Config
from hermesd.core.protocol import Event
from hermesd.router.llm import TOOL, SupervisedWorker, llm_spec
from hermesd.supervisor import Supervisor

READY_WITHIN = 300.0  # seconds: the 1.5B prepares a long prefix slowly on a busy machine
# ChatML, as both Qwen models speak it: a fixed command, then the assistant's turn
BASELINE_SUFFIX = ({"text": "what is the reading of the first point on this plant"},
                   {"text": "<|im_end|>\n<|im_start|>assistant\n", "markup": True})
BASELINE_LINE = "respond out_of_scope"
BASELINE_GRAMMAR = f'root ::= "{BASELINE_LINE}"'


class Worker:
    """The LLM worker for one plant's config: start, status, baseline, stop."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.runtime = Path(tempfile.mkdtemp(prefix="hdb", dir="/tmp"))
        self.supervisor = Supervisor(self.runtime, self._event)
        self.port = SupervisedWorker(self.supervisor)
        self.task: asyncio.Task[None] | None = None

    def _event(self, tool: str, event: Event) -> None:
        if event.kind == "llm":
            self.port.on_event(tool, event.data)

    async def start(self) -> dict[str, Any]:
        self.task = asyncio.create_task(self.supervisor.run({TOOL: llm_spec(self.config)}))
        await self.supervisor.started()
        return await self.ready()

    async def ready(self) -> dict[str, Any]:
        """Wait until the worker is ready (again: a killed one restarts); its status."""
        deadline = time.monotonic() + READY_WITHIN
        while self.port.state != "ready":
            if self.port.state == "failed" or time.monotonic() > deadline:
                raise SystemExit(f"the LLM worker did not get ready: {self.port.reported}")
            await asyncio.sleep(0.1)
        return await self.status()

    async def status(self) -> dict[str, Any]:
        return dict(await self.port.call("status", {}, 10))

    async def baseline(self) -> float:
        """Milliseconds of one fixed-length completion after the plant's prefix."""
        started = time.perf_counter()
        result = await self.port.call("complete", {
            "suffix": [dict(p) for p in BASELINE_SUFFIX], "grammar": BASELINE_GRAMMAR,
            "max_tokens": 32, "reuse_prefix": True, "deadline_ms": 60_000}, 61)
        ms = (time.perf_counter() - started) * 1000
        if result.get("text", "").strip() != BASELINE_LINE:
            raise SystemExit(f"the baseline completion was not the fixed line: {result!r}")
        return ms

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        shutil.rmtree(self.runtime, ignore_errors=True)
