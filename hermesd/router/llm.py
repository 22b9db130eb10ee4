"""The daemon's LLM component: the link to the worker process, the model stage, `status`.

The worker is one of the supervised tools (`llm_spec` says how to run it and sends it the model
path and the prompt prefix in its config slice, so every start and every reload re-prepares the
prefix). This component plugs the model stage into the router, follows the worker's state from
its `llm` events (a state from a process that has since died is never believed), kills the
worker when a generation overruns, and shows all of it under `llm` in `hermesctl status`.

The worker has started only when it says `ready` (its model loaded and warmed up by a real
decode); a worker that dies before that `GIVE_UP_AFTER` times in a row (a build that crashes on
this CPU, a model that kills it) is `failed` with the reason, and `ask` answers by rules alone
until a reload gives it another chance.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermesd.config.model import Config
from hermesd.core.errors import ToolUnavailable
from hermesd.core.model_files import DEFAULT_LLM, find_model
from hermesd.supervisor import GIVE_UP_AFTER, Supervisor, ToolSpec

if TYPE_CHECKING:  # the model stage and its prompt are imported only when the LLM is on
    from hermesd.router.model_stage import ModelStage, Options
    from hermesd.services import Services

log = logging.getLogger(__name__)

TOOL = "llm"


def resolve_model(config: Config) -> tuple[Path | None, str | None, bool]:
    """(path, why there is none, whether it must match the pinned default's sha256)."""
    model = config.llm.model
    if model == "default":
        path = find_model(DEFAULT_LLM.file, config.paths.state_dir)
        if path is None:
            return None, ("the default model is not prepared: run scripts/models (or "
                          "scripts/setup --all)"), True
        return path, None, True
    path = Path(model)
    if not path.is_absolute():
        path = config.source.parent / path
    if not path.is_file():
        return None, f"llm.model {path} does not exist", False
    return path, None, False


def llm_spec(config: Config) -> ToolSpec:
    """How to run the worker, and its config slice: model, threads, context, prompt prefix."""
    from hermesd.router.prompt import build, shorter

    path, error, verify = resolve_model(config)
    prompt = build(config.points.values())
    return ToolSpec(name=TOOL, argv=(sys.executable, "-m", "hermes_tools.llm"), config={
        "model": str(path) if path else None, "model_error": error, "verify": verify,
        "threads": config.llm.threads, "context": config.llm.context,
        "queue": config.llm.queue, "prefix": list(prompt.prefix),
        # ...and shorter ones, tersest last, for a context the full one does not fit
        "shorter": [{"leaves_out": what, "prefix": list(p.prefix)}
                    for what, p in shorter(config.points.values())],
        # where the worker remembers which CPU backend of the llama.cpp build runs here
        "state_dir": str(config.paths.state_dir)},
        give_up_after=GIVE_UP_AFTER, confirms_start=True)


class SupervisedWorker:
    """The worker process as the model stage sees it, through the daemon's supervisor."""

    def __init__(self, supervisor: Supervisor) -> None:
        self.supervisor = supervisor
        self.reported: dict[str, Any] = {}  # the worker's last `llm` event

    def _process(self) -> Any:
        return self.supervisor.tools.get(TOOL)

    @property
    def state(self) -> str:
        tool = self._process()
        if tool is None:
            return "down"
        if tool.state == "failed":
            return "failed"  # it kept dying while starting; the supervisor says why
        if tool.state != "running" or tool.proc is None:
            return "restarting" if tool.state in ("restarting", "starting") else "down"
        if self.reported.get("pid") != tool.proc.pid:
            return "starting"  # what we heard came from a process that is gone
        return str(self.reported.get("state", "starting"))

    async def call(self, action: str, args: dict[str, Any], timeout: float) -> Any:
        tool = self._process()
        if tool is None:
            raise ToolUnavailable(TOOL, "the language model is not configured")
        return await tool.connected().call(action, args, {"source": "router"}, timeout)

    def kill(self, reason: str) -> None:
        tool = self._process()
        proc = tool.proc if tool is not None else None
        if tool is None or proc is None or proc.returncode is not None:
            return
        log.warning("killing the LLM worker (pid %s): %s", proc.pid, reason)
        tool.kill(reason)  # the supervisor's own stop, at once, and its restart

    @property
    def error(self) -> str | None:
        """Why the worker is not ready, when it is `failed`."""
        tool = self._process()
        if tool is not None and tool.state == "failed":
            return tool.last_error or None
        if self.state == "failed":
            return self.reported.get("error") or None
        return None

    def on_event(self, tool: str, data: dict[str, Any]) -> None:
        if tool != TOOL:
            raise ValueError(f"llm event from tool {tool}")
        if self.reported.get("state") != data.get("state"):
            log.info("llm worker is %s%s", data.get("state"),
                     f": {data['error']}" if data.get("error") else "")
        self.reported = dict(data)
        process = self._process()
        if data.get("state") == "ready" and process is not None \
                and isinstance(data.get("pid"), int):
            process.confirm_started(data["pid"])  # loaded and warmed up: it has started


class LlmComponent:
    """The model stage of routing, wired into the daemon (one line in build_components)."""

    name = "llm"

    def __init__(self, services: Services, options: Options | None = None) -> None:
        self.router = services.engine.router
        self.config = services.config
        self.worker = SupervisedWorker(services.supervisor)
        self._options = options
        self._stage: ModelStage | None = None
        services.events.register("llm", self.worker.on_event)
        self._attach()

    @property
    def stage(self) -> ModelStage:
        """The model stage, over the router's rules: built when the LLM is on (or when first
        asked for), so a daemon without it builds neither the stage nor the rules at start."""
        if self._stage is None:
            from hermesd.router.model_stage import ModelStage

            self._stage = ModelStage(self.config, self.worker, self._options, self.router.rules)
        return self._stage

    def _attach(self) -> None:
        self.router.attach_model(self.stage if self.config.llm.enabled else None)

    async def run(self) -> None:
        await asyncio.Event().wait()

    async def reconfigure(self, config: Config) -> None:
        # the worker re-prepares its prefix from the config slice the supervisor sends it;
        # the stage rebuilds its candidates, grammar and examples from the new registry
        self.config = config
        if self._stage is not None:  # (else it is built from this config when needed)
            self._stage.reconfigure(config, self.router.rules)  # the engine's router took it first
        self._attach()

    def status(self) -> dict[str, Any]:
        if not self.config.llm.enabled:
            return {"state": "disabled", "route": "rules"}
        state = self.worker.state
        tool = self.worker._process()
        gave_up = tool is not None and tool.state == "failed"  # what it reported died with it
        r = self.worker.reported if state not in ("down", "restarting", "starting") \
            and not gave_up else {}
        c = self.stage.counters
        return {
            "state": state, "route": "rules+llm" if state == "ready" else "rules",
            "model": r.get("model") or self.config.llm.model, "model_name": r.get("model_name"),
            "error": self.worker.error, "load_s": r.get("load_s"), "rss_mb": r.get("rss_mb"),
            "threads": r.get("threads"), "context": self.config.llm.context,
            "prefix_tokens": r.get("prefix_tokens"), "prefix_key": r.get("prefix_key"),
            "prefix_s": r.get("prefix_s"), "pid": r.get("pid"),
            # what the catalogue leaves out to fit the context (None: nothing)
            "prefix_shortened": r.get("prefix_shortened"),
            # which llama.cpp build, and which of its CPU backends runs on this machine
            "build": r.get("build"), "cpu_backend": r.get("cpu_backend"),
            "cpu_backend_refused": r.get("cpu_backend_refused") or {},
            "queue": self.config.llm.queue, "inflight": self.stage.inflight,
            "timeout_s": self.config.llm.timeout,
            "restarts": tool.restarts if tool is not None else 0,
            "calls": c.calls, "busy": c.busy, "timeouts": c.timeouts, "kills": c.kills,
            "failures": c.failures, "last_ms": c.last_ms,
        }
