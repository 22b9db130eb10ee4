"""The LLM worker's start, with a llama.cpp build that cannot run on this CPU.

Issue 12: a build for another CPU loaded the model, then died (SIGSEGV in llama_decode) on any
prompt longer than a few tokens, and the worker was restarted for ever. The worker now decodes a
realistic prompt before it says `ready` (its warm-up), so it dies while starting; three deaths in
a row while starting and it is `failed`, with the reason, until a reload. Everything here is real
but the native library (tests/support/broken_llama): that cannot be broken on purpose.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hermesd.core.protocol import Event
from hermesd.router.llm import TOOL, SupervisedWorker, llm_spec
from hermesd.supervisor import GIVE_UP_AFTER, Supervisor, ToolProcess, ToolSpec
from tests.support.llm_builds import broken_llama_env, tiny_model
from tests.support.plants import config_of, dev_plant
from tests.support.until import until


@asynccontextmanager
async def worker(spec: ToolSpec) -> AsyncIterator[tuple[ToolProcess, SupervisedWorker,
                                                        list[dict[str, Any]]]]:
    runtime = Path(tempfile.mkdtemp(prefix="hd", dir="/tmp"))
    reports: list[dict[str, Any]] = []
    llm: SupervisedWorker | None = None

    def on_event(name: str, event: Event) -> None:
        if event.kind == "llm" and llm is not None:
            reports.append(dict(event.data))
            llm.on_event(name, event.data)

    sup = Supervisor(runtime, on_event)
    llm = SupervisedWorker(sup)
    task = asyncio.create_task(sup.run({TOOL: spec}), name="supervisor")
    try:
        await sup.started()
        yield sup.tools[TOOL], llm, reports
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        shutil.rmtree(runtime, ignore_errors=True)


async def test_a_build_that_dies_on_a_real_decode_fails_at_start_not_on_a_request(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # the daemon's own spec for the worker, with an empty prompt prefix: the prefix alone
    # (nothing to decode) would pass, so only the warm-up can find the broken build
    spec = llm_spec(config_of(dev_plant(model=str(tiny_model(tmp_path)), threads=1,
                                        context=512)))
    spec = replace(spec, config={**spec.config, "prefix": []}, env=broken_llama_env())
    assert spec.give_up_after == GIVE_UP_AFTER == 3 and spec.confirms_start
    async with worker(spec) as (tool, llm, reports):
        await until(lambda: tool.state == "failed", 30, "the worker to be marked failed")
        reason = "was killed by SIGSEGV 3 times in a row while starting"
        assert tool.last_error == reason and tool.restarts == 2 and tool.proc is None
        assert (llm.state, llm.error) == ("failed", reason)
        assert "ready" not in [r["state"] for r in reports]
        assert len({r["pid"] for r in reports}) == 3  # three processes, three deaths
        said = capfd.readouterr().err  # the workers' own log (their stderr is ours)
        assert said.count("llm warming up") == 3 and "warmed up" not in said  # died there

        tool.restart("the config was reloaded")  # a reload: another chance, three more tries
        await until(lambda: tool.state != "failed", 10, "the retry to begin")
        await until(lambda: tool.state == "failed", 30, "the worker to fail again")
        assert tool.last_error == reason and tool.restarts == 4
        assert len({r["pid"] for r in reports}) == 6
