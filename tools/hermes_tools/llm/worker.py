"""The LLM worker tool: loads the model in the background and serves completions one at a time.

It says hello at once (the daemon is READY long before the model is), then loads the model,
evaluates the prompt prefix and warms up (one real decode of a command of realistic length, so a
build that cannot run on this CPU dies now, while starting, not on a person's request) on its
engine thread, reporting each state (`loading`, `preparing`, `ready`, `failed`) as an `llm`
event and in its `status` action. The daemon counts the worker as started only once it is
`ready`. All model work runs on that
one thread, in order; requests beyond the bounded queue answer BUSY at once, and a request whose
deadline passes while it waits is answered TIMEOUT without running. A generation is stopped
between tokens at its deadline; the daemon also kills the whole process when one overruns, which
is the cancellation that always works. It never decides what a completion means.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hermes_tools.llm import cpu_backend
from hermes_tools.llm.cores import auto_threads
from hermes_tools.llm.engine import Engine, GrammarError, Part, PrefixTooLong
from hermes_tools.runtime import Tool
from hermesd.core.errors import BadRequest, Busy, ErrorCode, HermesError, Timeout, ToolError
from hermesd.core.protocol import ActionSpec

log = logging.getLogger(__name__)

HEARTBEAT = 5.0  # seconds between status events while connected
MAX_TEXT = 8000  # characters of one prompt part
MAX_GRAMMAR = 256 * 1024

_PARTS = {"type": "array", "maxItems": 64, "items": {
    "type": "object", "required": ["text"], "additionalProperties": False,
    "properties": {"text": {"type": "string", "maxLength": MAX_TEXT},
                   "markup": {"type": "boolean"}}}}
_TIMING = {"type": "object", "required": ["prompt_tokens", "evaluated_tokens", "eval_ms",
                                          "generate_ms"]}
COMPLETE_SPEC = ActionSpec(
    name="complete",
    description="Complete the prepared prompt prefix + `suffix` greedily, constrained by the "
                "GBNF `grammar` when one is given; at most `max_tokens` tokens. `choices`: the "
                "lines the grammar admits, the likeliest first: generation stops once one is "
                "decided, and the first is guessed (decoded with the suffix, then checked). "
                "`reuse_suffix`: the same suffix as the last completion's, asked again (with "
                "another grammar): what that one decoded of it is reused (of another suffix, "
                "the tokens it shares with that one, from the start).",
    input_schema={"type": "object", "required": ["suffix", "max_tokens"],
                  "additionalProperties": False,
                  "properties": {"suffix": _PARTS,
                                 "grammar": {"type": ["string", "null"],
                                             "maxLength": MAX_GRAMMAR},
                                 "max_tokens": {"type": "integer", "minimum": 1,
                                                "maximum": 512},
                                 "reuse_prefix": {"type": "boolean"},
                                 "reuse_suffix": {"type": "boolean"},
                                 "choices": {"type": "array", "maxItems": 512,
                                             "items": {"type": "string", "maxLength": 200}},
                                 "deadline_ms": {"type": "integer", "minimum": 1}}},
    output_schema={**_TIMING, "required": ["text", "finish_reason", *_TIMING["required"]],
                   "properties": {"text": {"type": "string"},
                                  "finish_reason": {"enum": ["stop", "length", "deadline"]}}},
    effect="none")
SCORE_SPEC = ActionSpec(
    name="score",
    description="Log-likelihood of each of `options` as the answer to prefix + `suffix`.",
    input_schema={"type": "object", "required": ["suffix", "options"],
                  "additionalProperties": False,
                  "properties": {"suffix": _PARTS,
                                 "options": {"type": "array", "minItems": 1, "maxItems": 64,
                                             "items": {"type": "string", "maxLength": 200}},
                                 "reuse_prefix": {"type": "boolean"},
                                 "deadline_ms": {"type": "integer", "minimum": 1}}},
    output_schema={**_TIMING, "required": ["scores", *_TIMING["required"]],
                   "properties": {"scores": {"type": "array",
                                             "items": {"type": ["number", "null"]}}}},
    effect="none")
STATUS_SPEC = ActionSpec(
    name="status", description="The worker's state: loading, preparing, ready or failed.",
    input_schema={"type": "object", "additionalProperties": False},
    output_schema={"type": "object", "required": ["state"]}, effect="none")


class LlmWorker(Tool):
    name = "llm"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.action(COMPLETE_SPEC, self.complete)
        self.action(SCORE_SPEC, self.score)
        self.action(STATUS_SPEC, self.status)
        self.state = "starting"
        self.error: str | None = None
        self.config: dict[str, Any] = {}
        self.engine: Engine | None = None
        self.cpu: cpu_backend.Choice | None = None  # chosen once per process
        self.load_s: float | None = None
        self.prefix_tokens = 0
        self.prefix_key: str | None = None
        self.prefix_s: float | None = None
        self.prefix_shortened: str | None = None  # what the catalogue leaves out to fit
        self.generations = 0
        self.queue_limit = 2
        self.waiting = 0  # requests queued or running on the engine thread
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._engine_loop, name="llm-engine",
                                        daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- configuration -----------------------------------------------------------------------

    async def configure(self, config: dict[str, Any]) -> dict[str, Any]:
        self._loop = asyncio.get_running_loop()
        if not self._thread.is_alive():
            self._thread.start()
        old = self.config
        self.config = dict(config)
        self.queue_limit = int(config.get("queue", 2))
        model_keys = ("model", "model_error", "verify", "threads", "context")
        if any(old.get(k) != config.get(k) for k in model_keys) or self.engine is None:
            self._jobs.put(self._load)
        elif old.get("prefix") != config.get("prefix") or \
                old.get("shorter") != config.get("shorter"):
            self._jobs.put(self._prepare)
        return {"state": self.state, "model": config.get("model")}

    def _set_state(self, state: str, error: str | None = None) -> None:
        self.state = state
        self.error = error
        if error:
            log.error("llm %s: %s", state, error)
        else:
            log.info("llm %s", state)
        self._emit_status()

    def _emit_status(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            snapshot = self.snapshot()
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.emit, "llm", snapshot)

    def snapshot(self) -> dict[str, Any]:
        cfg = self.config
        return {"state": self.state, "error": self.error, "model": cfg.get("model"),
                "model_name": self.engine.name if self.engine else None,
                "load_s": self.load_s, "threads": self._threads(), "context": cfg.get("context"),
                "prefix_tokens": self.prefix_tokens, "prefix_key": self.prefix_key,
                "prefix_s": self.prefix_s, "prefix_shortened": self.prefix_shortened,
                "generations": self.generations,
                "build": self.cpu.build if self.cpu else None,
                "cpu_backend": self.cpu.backend if self.cpu else None,
                "cpu_backend_refused": dict(self.cpu.refused) if self.cpu else {},
                "waiting": self.waiting, "rss_mb": _rss_mb(), "pid": os.getpid()}

    def _threads(self) -> int:
        threads = int(self.config.get("threads") or 0)
        return threads if threads > 0 else auto_threads()

    # -- the engine thread -------------------------------------------------------------------

    def _engine_loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                job()
            except Exception:
                log.exception("llm engine job failed")

    def _load(self) -> None:
        cfg = self.config
        if self.engine is not None:
            self.engine.close()
            self.engine = None
        path = cfg.get("model")
        if not path:
            self._set_state("failed", str(cfg.get("model_error") or "no model configured"))
            return
        self._set_state("loading")
        started = time.monotonic()
        try:
            problem = _check_model(Path(path), verify=bool(cfg.get("verify")))
            if problem:
                self._set_state("failed", problem)
                return
            if self.cpu is None:
                state_dir = cfg.get("state_dir")
                self.cpu = cpu_backend.select(Path(path), Path(state_dir) if state_dir else None,
                                              threads=self._threads())
                log.info("llm: llama.cpp %s", self.cpu.describe())
            self.engine = Engine(Path(path), threads=self._threads(),
                                 context=int(cfg.get("context") or 2048))
        except Exception as exc:
            self._set_state("failed", f"cannot load {path}: {exc}")
            return
        self.load_s = round(time.monotonic() - started, 2)
        log.info("llm model %s loaded in %.1f s", path, self.load_s)
        self._prepare()

    def _prepare(self) -> None:
        """Evaluate the prompt prefix; a fresh engine also warms up before it says `ready`."""
        if self.engine is None:
            return
        parts = [Part.from_dict(p) for p in self.config.get("prefix") or []]
        self._set_state("preparing")
        started = time.monotonic()
        self.prefix_shortened = None
        try:
            self.prefix_tokens = self.engine.prepare(parts)
        except PrefixTooLong as exc:
            found = self._shorter(str(exc))
            if found is None:
                self._set_state("failed", f"cannot prepare the prompt prefix: {exc}, and no "
                                "shorter catalogue fits")
                return
            parts, self.prefix_tokens = found
        except Exception as exc:
            self._set_state("failed", f"cannot prepare the prompt prefix: {exc}")
            return
        self.prefix_s = round(time.monotonic() - started, 2)
        if not self.engine.warmed:
            # the last line in the log when a build that cannot run here kills the worker
            log.info("llm warming up: one decode of a prompt of realistic length")
            try:
                warmed = self.engine.warm_up()
            except Exception as exc:
                self._set_state("failed", f"the warm-up decode failed: {exc}")
                return
            log.info("llm warmed up: %d tokens decoded", warmed)
        self.prefix_key = hashlib.sha256(
            repr([(p.text, p.markup) for p in parts]).encode()).hexdigest()[:16]
        self._set_state("ready")

    def _shorter(self, why: str) -> tuple[list[Part], int] | None:
        """The first of the shorter prefixes the config slice offers that fits the context,
        prepared, and its token count; None if none does. Says what it leaves out."""
        assert self.engine is not None
        for option in self.config.get("shorter") or []:
            parts = [Part.from_dict(p) for p in option.get("prefix") or []]
            try:
                used = self.engine.prepare(parts)
            except PrefixTooLong:
                continue
            self.prefix_shortened = str(option.get("leaves_out"))
            log.warning("llm: %s; the point catalogue is listed shorter to fit: %s (raise "
                        "llm.context to list it in full)", why, self.prefix_shortened)
            return parts, used
        return None

    # -- actions ------------------------------------------------------------------------------

    async def status(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        return self.snapshot()

    async def complete(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        suffix = [Part.from_dict(p) for p in args["suffix"]]
        deadline = time.monotonic() + int(args.get("deadline_ms", 30000)) / 1000

        def work(engine: Engine) -> Any:
            return engine.complete(suffix, grammar=args.get("grammar"),
                                   max_tokens=int(args["max_tokens"]), deadline=deadline,
                                   reuse=bool(args.get("reuse_prefix", True)),
                                   reuse_tail=bool(args.get("reuse_suffix", False)),
                                   choices=list(args.get("choices") or ())).to_dict()

        return await self._run(work, deadline)

    async def score(self, args: dict[str, Any], ctx: dict[str, Any]) -> Any:
        suffix = [Part.from_dict(p) for p in args["suffix"]]
        deadline = time.monotonic() + int(args.get("deadline_ms", 30000)) / 1000

        def work(engine: Engine) -> Any:
            scores, timing = engine.score(suffix, list(args["options"]),
                                          reuse=bool(args.get("reuse_prefix", True)))
            return {**timing.to_dict(), "scores": scores}

        return await self._run(work, deadline)

    async def _run(self, work: Callable[[Engine], Any], deadline: float) -> Any:
        if self.state != "ready":
            raise ToolError(ErrorCode.NOT_READY, f"the language model is {self.state}"
                            + (f": {self.error}" if self.error else ""))
        if self.waiting > self.queue_limit:
            raise Busy(f"the language model has {self.waiting} requests in hand")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()

        def job() -> None:
            if time.monotonic() > deadline:
                outcome: tuple[bool, Any] = (False, Timeout("the request waited past its "
                                                            "deadline"))
            elif self.engine is None:
                outcome = (False, ToolError(ErrorCode.NOT_READY, "no model is loaded"))
            else:
                try:
                    outcome = (True, work(self.engine))
                    self.generations += 1
                except (GrammarError, ValueError) as exc:
                    outcome = (False, BadRequest(str(exc)))
                except Exception as exc:
                    log.exception("llm generation failed")
                    outcome = (False, HermesError(f"generation failed: {exc}"))
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, outcome)

        self.waiting += 1
        try:
            self._jobs.put(job)
            return await done
        finally:
            self.waiting -= 1

    # -- background --------------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            self._emit_status()
            await asyncio.sleep(HEARTBEAT)

    async def close(self) -> None:
        # A generation cannot be interrupted inside llama.cpp, and freeing a model takes time:
        # the socket is already gone, so leave at once rather than wait for either.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _settle(fut: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if fut.done():
        return
    ok, value = outcome
    if ok:
        fut.set_result(value)
    else:
        fut.set_exception(value)


def _check_model(path: Path, *, verify: bool) -> str | None:
    """Why `path` cannot be loaded, or None. The default model is also checked by sha256."""
    from hermesd.core.gguf_header import GgufError, read_header
    from hermesd.core.model_files import verify as verify_pinned

    if not path.is_file():
        return f"model file {path} does not exist"
    try:
        read_header(path, tensors=False)
    except GgufError as exc:
        return f"{path} is not a usable GGUF file: {exc}"
    if verify and not verify_pinned(path):
        return (f"{path} does not match the pinned sha256 of the default model; "
                "run scripts/models again")
    return None


def _rss_mb() -> float | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None
