"""The LLM worker process on its own, under the daemon's real supervisor, with the real model.

It says hello before the model loads, completes only under the grammar it is given, reuses the
prepared prefix, treats command text as text (never chat markup), refuses a bad grammar without
dying, reports a cut-off generation as such, bounds its queue, and fails clearly without a model.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from hermesd.context import RequestContext
from hermesd.core.errors import Busy, ErrorCode, ToolError
from hermesd.core.model_files import find_model
from hermesd.core.protocol import Event
from hermesd.models.gguf import MODEL_FILE
from hermesd.router.llm import TOOL, SupervisedWorker
from hermesd.router.model_stage import ModelStage, Options
from hermesd.supervisor import Supervisor, ToolSpec
from tests.support.plants import config_of, dev_plant
from tests.support.until import until

PREFIX = [{"text": "<|im_start|>system\n", "markup": True},
          {"text": "Answer with one of the allowed lines."},
          {"text": "<|im_end|>\n<|im_start|>user\n", "markup": True}]
TAIL = {"text": "<|im_end|>\n<|im_start|>assistant\n", "markup": True}
GRAMMAR = 'root ::= "read " ("boiler3_temp" | "tank_level") | "respond out_of_scope"\n'


def model_path() -> str:
    path = find_model(MODEL_FILE)
    if path is None:
        pytest.fail("the embedded model is not prepared: run scripts/setup --all")
    return str(path)


def spec(**config: Any) -> ToolSpec:
    base = {"model": model_path(), "model_error": None, "verify": True, "threads": 1,
            "context": 512, "queue": 2, "prefix": PREFIX}
    return ToolSpec(name=TOOL, argv=(sys.executable, "-m", "hermes_tools.llm"),
                    config={**base, **config})


@asynccontextmanager
async def worker_process(tool: ToolSpec) -> AsyncIterator[tuple[Supervisor, SupervisedWorker]]:
    runtime = Path(tempfile.mkdtemp(prefix="hd", dir="/tmp"))
    worker: SupervisedWorker | None = None

    def on_event(name: str, event: Event) -> None:
        if event.kind == "llm" and worker is not None:
            worker.on_event(name, event.data)

    sup = Supervisor(runtime, on_event)
    worker = SupervisedWorker(sup)
    task = asyncio.create_task(sup.run({TOOL: tool}), name="supervisor")
    try:
        await sup.started()
        yield sup, worker
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        shutil.rmtree(runtime, ignore_errors=True)


async def wait_state(worker: SupervisedWorker, *states: str, timeout: float = 45.0) -> str:
    """Poll the worker's state (it changes from events, which set no asyncio.Event here)."""
    await until(lambda: worker.state in states, timeout, f"the worker to be {' or '.join(states)}")
    return worker.state


async def complete(worker: SupervisedWorker, text: str | list[dict[str, Any]], **args: Any
                   ) -> dict[str, Any]:
    suffix = text if isinstance(text, list) else [{"text": text}, TAIL]
    result: dict[str, Any] = await worker.call(
        "complete", {"suffix": suffix, "grammar": GRAMMAR, "max_tokens": 16, **args}, 30)
    return result


async def test_worker_serves_completions_under_a_grammar() -> None:
    async with worker_process(spec()) as (sup, worker):
        await sup.tools[TOOL].wait_ready(20)
        # the tool is up (hello, configured) while the model is still loading
        assert worker.state in ("starting", "loading", "preparing")
        assert await wait_state(worker, "ready") == "ready"

        first = await complete(worker, "how full is the tank")
        assert first["finish_reason"] == "stop"
        assert first["text"] in ("read boiler3_temp", "read tank_level", "respond out_of_scope")
        again = await complete(worker, "what is the boiler 3 temperature")
        assert 0 < again["evaluated_tokens"] < again["prompt_tokens"]  # the prefix is reused
        cold = await complete(worker, "what is the boiler 3 temperature", reuse_prefix=False)
        assert cold["evaluated_tokens"] == cold["prompt_tokens"]
        assert cold["text"] == again["text"]

        # a command's chat markup is text: many tokens, not the one special token
        plain = await complete(worker, [{"text": "<|im_end|>"}, TAIL])
        special = await complete(worker, [{"text": "<|im_end|>", "markup": True}, TAIL])
        assert plain["evaluated_tokens"] > special["evaluated_tokens"] + 2

        cut = await complete(worker, "boiler 3 temperature", max_tokens=1)
        assert cut["finish_reason"] == "length"

        with pytest.raises(ToolError, match="grammar") as refused:
            await complete(worker, "hello", grammar="root ::= (")
        assert refused.value.code == ErrorCode.BAD_REQUEST
        assert (await complete(worker, "tank level"))["finish_reason"] == "stop"  # still alive

        status = await worker.call("status", {}, 5)
        assert status["state"] == "ready" and status["rss_mb"] > 100
        assert status["generations"] >= 6 and status["threads"] == 1


async def test_the_guessed_line_never_changes_the_answer() -> None:
    """The first of `choices` is decoded with the command as a guess and checked token by
    token: whichever line comes first, and with no choices at all (no guess, no early stop),
    the model answers the same; a context left with a wrong guess in it misleads no later
    command."""
    lines = ["read boiler3_temp", "read tank_level", "respond out_of_scope"]
    answers = set()
    plain_of: dict[str, str] = {}
    async with worker_process(spec()) as (_, worker):
        await wait_state(worker, "ready")
        for text in ("what is the boiler 3 temperature", "how full is the tank",
                     "what is the capital of France"):
            plain = await complete(worker, text)
            answers.add(plain["text"])
            plain_of[text] = plain["text"]
            for order in (lines, lines[::-1], lines[1:] + lines[:1]):
                guessed = await complete(worker, text, choices=order)
                assert guessed["finish_reason"] == "stop"
                assert guessed["text"] == plain["text"], (text, order)
                assert guessed["generated_tokens"] <= plain["generated_tokens"]
        # a guess keeps a row of logits per token: two long lines that share a long start
        # (and a generous max_tokens) once made 530 rows, 300 MB the worker kept
        before = (await worker.call("status", {}, 5))["rss_mb"]
        long_lines = ["read " + "\uA66E" * 190 + end for end in ("a", "b")]
        long = await complete(worker, "what is the boiler 3 temperature", choices=long_lines,
                              max_tokens=512)
        assert long["text"] == plain_of["what is the boiler 3 temperature"]
        after = (await worker.call("status", {}, 5))["rss_mb"]
        assert after - before < 60, (before, after)
    assert len(answers) >= 2, answers  # the commands are told apart


async def test_the_same_command_asked_again_reuses_its_tokens() -> None:
    """A command asked again under another grammar (the router's second choice) reuses what
    the first completion decoded of it, and answers as a fresh completion of it would; a
    different command asked with `reuse_suffix` reuses no more than the tokens it shares with
    the last one (none here past the prefix) and answers as it would alone."""
    text = "what is the boiler 3 temperature right now please"
    narrower = 'root ::= "read tank_level" | "respond out_of_scope"\n'
    async with worker_process(spec()) as (_, worker):
        await wait_state(worker, "ready")
        first = await complete(worker, text)
        again = await complete(worker, text, grammar=narrower, reuse_suffix=True)
        assert again["evaluated_tokens"] == 1 < first["evaluated_tokens"]
        fresh = await complete(worker, text, grammar=narrower)
        assert fresh["evaluated_tokens"] == first["evaluated_tokens"]
        assert again["text"] == fresh["text"]
        other = await complete(worker, "how full is the tank", reuse_suffix=True)
        plain = await complete(worker, "how full is the tank")
        assert other["text"] == plain["text"]
        assert other["evaluated_tokens"] == plain["evaluated_tokens"] > 1


async def test_requests_beyond_the_queue_are_busy() -> None:
    async with worker_process(spec(queue=0)) as (_, worker):
        await wait_state(worker, "ready")
        long = "tell me about the boiler and the tank and the pump and the valve " * 6
        results = await asyncio.gather(*(complete(worker, long) for _ in range(4)),
                                       return_exceptions=True)
        busy = [r for r in results if isinstance(r, ToolError) and r.code == ErrorCode.BUSY]
        done = [r for r in results if isinstance(r, dict)]
        assert busy and done and len(busy) + len(done) == 4, results


@pytest.mark.parametrize("problem", ["missing", "not_gguf"])
async def test_without_a_usable_model_it_fails_clearly(problem: str, tmp_path: Path) -> None:
    if problem == "missing":
        tool = spec(model=None, model_error="the default model is not prepared: run "
                                            "scripts/models", verify=False)
        expected = "not prepared"
    else:
        junk = tmp_path / "junk.gguf"
        junk.write_bytes(b"this is not a model" * 100)
        tool = spec(model=str(junk), verify=False)
        expected = "not a usable GGUF file"
    async with worker_process(tool) as (_, worker):
        assert await wait_state(worker, "failed", timeout=20) == "failed"
        assert expected in worker.reported["error"]
        with pytest.raises(ToolError) as raised:
            await complete(worker, "tank level")
        assert raised.value.code == ErrorCode.NOT_READY


async def test_a_cut_off_generation_is_a_failure_not_an_action() -> None:
    config = config_of(dev_plant())
    async with worker_process(spec(prefix=[])) as (_, worker):
        await wait_state(worker, "ready")
        stage = ModelStage(config, worker, Options(max_tokens=1))
        ctx = RequestContext.make("internal", "engineer", timeout=30)
        routed = await stage(ctx, "how full is the feed water tank, roughly",
                             stage.rules.analyse("how full is the feed water tank, roughly"))
        assert routed is not None and routed.route == "llm"
        assert routed.action.name == "respond"
        assert routed.action.args["reason"] == "not_understood"
        assert stage.counters.failures == 1


async def test_the_stage_refuses_more_than_its_queue() -> None:
    config = config_of(dev_plant(queue=0))
    async with worker_process(spec(prefix=[])) as (_, worker):
        await wait_state(worker, "ready")
        stage = ModelStage(config, worker)
        text = "what is the weather in Paris and in Rome and in Berlin and in Madrid today"
        ctx = RequestContext.make("internal", "viewer", timeout=30)
        results = await asyncio.gather(*(stage(ctx, text, stage.rules.analyse(text))
                                         for _ in range(3)), return_exceptions=True)
        assert sum(isinstance(r, Busy) for r in results) == 2, results
        assert stage.counters.busy == 2 and stage.inflight == 0


async def test_scores_tell_the_lines_apart_and_leave_the_context_clean() -> None:
    """`score` (the bench's scoring variant) gives each option the log-likelihood the model
    assigns it as the whole answer: a log-probability (<= 0) for each line, null for an option
    it cannot score (JSON has no -inf); the right point outscores the other for a command that
    names it, and the general-knowledge question scores the refusal above a read of the named
    point; scoring again, with or without the reused prefix, gives the same figures, and the
    next completion is what it was."""
    lines = ["read boiler3_temp", "read tank_level", "respond out_of_scope"]
    async with worker_process(spec()) as (_, worker):
        await wait_state(worker, "ready")

        async def score(text: str, reuse: bool = True) -> list[float | None]:
            result = await worker.call("score", {"suffix": [{"text": text}, TAIL],
                                                 "options": [*lines, ""],
                                                 "reuse_prefix": reuse}, 30)
            scores: list[float | None] = result["scores"]
            return scores

        before = await complete(worker, "how full is the tank")
        boiler = await score("what is the boiler 3 temperature")
        assert len(boiler) == len(lines) + 1
        assert boiler[-1] is None  # the empty option has no tokens to score
        first, second, refusal = (s for s in boiler[:-1] if s is not None)
        assert max(first, second, refusal) <= 0
        assert first > second, boiler
        france = await score("what is the capital of France")
        assert france[2] is not None and france[0] is not None and france[2] > france[0], france
        again = await score("what is the boiler 3 temperature", reuse=False)
        assert again[:-1] == pytest.approx(boiler[:-1], abs=1e-3)
        after = await complete(worker, "how full is the tank", reuse_prefix=False)
        assert after["text"] == before["text"]
