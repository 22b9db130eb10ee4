"""The daemon: one asyncio process whose components run in one task group.

Start: directories, the value cache and audit log from the state dir, the tool processes, then
the control socket, then READY=1. SIGHUP reloads the config (a bad one is refused and the running
one stays); SIGTERM says STOPPING=1, stops accepting requests, stops the tools, flushes the
audit log and the cache, and returns — within 5 s. The watchdog ping is sent from the event loop
itself, so a blocked loop stops it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hermesd import __version__
from hermesd.alarm_feed import AlarmFeed
from hermesd.answer import Action, Answer, refusal
from hermesd.audit import AuditLog
from hermesd.bus_diagnostics import BusDiagnostics
from hermesd.cache import ValueCache
from hermesd.components import Component, build_components
from hermesd.config import Config, load_config
from hermesd.context import RequestContext
from hermesd.control.requests import Peer, Request, parse, role_for
from hermesd.control.server import ControlServer
from hermesd.core import heap
from hermesd.core.errors import BadRequest, ConfigError, HermesError
from hermesd.core.statefiles import prepare_dir
from hermesd.engine import Engine
from hermesd.events import EventTable
from hermesd.memwatch import EXIT_MEMORY, MemoryWatch
from hermesd.metrics import Metrics
from hermesd.prometheus import MetricsServer, place_of
from hermesd.registry import Registry
from hermesd.sdnotify import Notifier
from hermesd.services import Services
from hermesd.supervisor import Supervisor
from hermesd.toolspecs import checked_tool_specs, tool_specs

log = logging.getLogger(__name__)

TOOLS_READY_TIMEOUT = 10.0  # READY waits this long for tools; a late tool is shown degraded
DEFAULT_TIMEOUT = {"read": 5.0, "write": 5.0, "call": 10.0, "ask": 30.0, "listen": 90.0,
                   "history": 10.0, "alarms": 5.0, "ack": 5.0}
LOOP_LAG_LIMIT = 5.0  # seconds the loop may lag before the watchdog ping is withheld


class Daemon:
    def __init__(self, config: Config, notifier: Notifier | None = None) -> None:
        self.config = config
        self.notifier = notifier or Notifier()
        self.metrics = Metrics()
        paths = config.paths
        registry = Registry.build(config)
        # one thread for every blocking disk write (audit fsyncs, cache snapshots): a bounded
        # pool, so a slow or full disk cannot grow threads (and their malloc arenas) under load
        self.disk = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hermesd-disk")
        self.cache = ValueCache(paths.state_dir / "lkv.json", registry.max_ages,
                                registry.device_of(), executor=self.disk,
                                fingerprints=registry.fingerprints())
        audit = config.audit
        self.audit = AuditLog(paths.state_dir / "audit.jsonl", max_bytes=audit.log_size,
                              keep=audit.log_files, retention=audit.retention,
                              executor=self.disk)
        self.events = EventTable(self.metrics)
        self.supervisor = Supervisor(paths.runtime_dir, self.events.dispatch,
                                     self._on_tool_state)
        self.engine = Engine(config, self.supervisor, self.cache, self.audit, self.metrics,
                             registry)
        self.events.register("values", self.engine.on_values)
        self.events.register("device", self.engine.on_device)
        self.bus = BusDiagnostics(config)  # what tools report of each device's link
        self.events.register("diagnostics", self.bus.on_event)
        self.control = ControlServer(paths.runtime_dir / "control.sock", self.handle)
        self.started = time.monotonic()
        self.state = "starting"
        self.reloads: dict[str, Any] = {"ok": 0, "refused": 0, "last_error": None}
        self._stop = asyncio.Event()
        self._reload_task: asyncio.Task[bool] | None = None
        self._reload_again = False  # a SIGHUP came while a reload ran
        self._tasks: asyncio.TaskGroup | None = None
        self.loop_lag = 0.0
        self.memory = MemoryWatch(config.memory, self.supervisor, self.metrics, self.fail,
                                  llm_model_bytes=self._llm_model_bytes)
        listen, socket_path = place_of(config)  # (off: it serves nothing until a reload
        # turns it on)
        self.prometheus = MetricsServer(self.metrics_snapshot, listen=listen,
                                        socket_path=socket_path)
        #: what runs beside the request path, each a task of the one group; the control
        #: server is started last, once the tools are
        self.alarms = AlarmFeed()  # one for every component, whenever it is built
        self.components: list[Component] = [self.memory]
        self.components.append(self.prometheus)
        self.components += build_components(self._services())
        self.components.append(self.control)
        self.exit_code = 0

    def _services(self) -> Services:
        return Services(self.config, self.engine, self.cache, self.supervisor, self.metrics,
                        self.events, self.alarms)

    # -- lifecycle ---------------------------------------------------------------------------

    def _prepare_dirs(self) -> None:
        """Create the state and runtime dirs, or refuse ones that are not safely ours (exit 78):
        a dir another user can write into could hold a link planted to redirect our writes."""
        prepare_dir(self.config.paths.state_dir, "paths.state_dir")
        prepare_dir(self.config.paths.runtime_dir, "paths.runtime_dir")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        self._prepare_dirs()
        self.cache.load()
        self.engine.restate_values()  # values kept from before a point had its value map
        self.audit.open()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stop)
        loop.add_signal_handler(signal.SIGHUP, self.request_reload)
        self.notifier.status("starting tools")
        try:
            async with asyncio.TaskGroup() as tg:
                tg.create_task(self.cache.run(), name="cache-persist")
                tg.create_task(self.audit.run(), name="audit-writer")
                tg.create_task(self.supervisor.run(tool_specs(self.config)), name="supervisor")
                tg.create_task(self._watchdog(), name="watchdog")
                self._tasks = tg
                self._start_components([c for c in self.components if c is not self.control])
                await self.supervisor.started()
                late = await self.supervisor.wait_ready(TOOLS_READY_TIMEOUT)
                self._start_components([self.control])
                await self.control.listening.wait()
                self.state = "running"
                summary = self._summary(late)
                log.info("hermesd %s ready: %s", __version__, summary)
                self.notifier.ready(summary)
                heap.settle()  # start-up is over: later collections skip what it left
                await self._stop.wait()
                self.state = "stopping"
                self.notifier.stopping()
                log.info("stopping")
                await self.control.stop()
                await self.prometheus.stop()
                raise _Stop
        except* _Stop:
            pass
        finally:
            with contextlib.suppress(Exception):
                await self.control.stop()
            if self._reload_task is not None:
                self._reload_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._reload_task
            self.audit.close()
            self.disk.shutdown(wait=True)
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                loop.remove_signal_handler(sig)
            self.notifier.close()
            self.state = "stopped"

    def stop(self) -> None:
        self._stop.set()

    def _start_components(self, components: list[Component]) -> None:
        for component in components:
            if component not in self.components:
                self.components.append(component)
                log.info("%s started (the reloaded config asks for it)", component.name)
            assert self._tasks is not None
            self._tasks.create_task(component.run(), name=component.name)

    def _llm_model_bytes(self) -> int | None:
        """The size of the configured GGUF: the LLM worker's memory budget grows with it."""
        from hermesd.router.llm import resolve_model

        path = resolve_model(self.config)[0]
        try:
            return path.stat().st_size if path is not None else None
        except OSError:
            return None

    def fail(self, reason: str) -> None:
        """Stop cleanly but exit non-zero, so systemd restarts a fresh daemon."""
        log.critical("stopping to be restarted: %s", reason)
        self.exit_code = EXIT_MEMORY
        self._stop.set()

    def _summary(self, late: list[str]) -> str:
        tools = len(self.supervisor.tools)
        text = f"{len(self.config.points)} points, {tools} tools"
        if late:
            text += f"; not running yet: {', '.join(late)}"
        return text

    async def _watchdog(self) -> None:
        """WATCHDOG=1 at half of WATCHDOG_USEC, from this loop, only while the loop keeps time."""
        interval = self.notifier.watchdog_interval()
        tick = min(interval, 1.0) if interval else 1.0
        last_ping = 0.0
        while True:
            before = time.monotonic()
            await asyncio.sleep(tick)
            self.loop_lag = max(0.0, time.monotonic() - before - tick)
            if self.loop_lag > LOOP_LAG_LIMIT:
                self.metrics.count("loop_stalls")
                log.warning("event loop was blocked for %.1f s", self.loop_lag)
                continue
            if interval and time.monotonic() - last_ping >= interval * 0.95:
                self.notifier.watchdog()
                last_ping = time.monotonic()

    # -- reload ------------------------------------------------------------------------------

    def request_reload(self) -> None:
        if self._reload_task is None or self._reload_task.done():
            self._reload_task = asyncio.get_running_loop().create_task(self._reload_all(),
                                                                       name="reload")
        elif not self._reload_again:
            # the running reload read the file before this SIGHUP: one more follows it (any
            # number of SIGHUPs meanwhile make one), so the newest file is the one applied
            self._reload_again = True
            log.info("reload asked for while one runs; another follows it")

    async def _reload_all(self) -> bool:
        ok = await self.reload()
        while self._reload_again:
            self._reload_again = False
            ok = await self.reload()
        return ok

    async def reload(self) -> bool:
        self.notifier.reloading()
        try:
            new = load_config(self.config.source)
            old = self.config.paths  # paths.profiles is read anew with every load: it may change
            if (new.paths.state_dir, new.paths.runtime_dir) != (old.state_dir, old.runtime_dir):
                raise ConfigError([("paths", "state_dir and runtime_dir cannot change while "
                                             "running; restart hermesd to move them")])
            specs = checked_tool_specs(new)  # (before anything is applied)
        except ConfigError as exc:
            for line in exc.lines():
                log.error("reload refused: %s", line)
            self.reloads["refused"] += 1
            self.reloads["last_error"] = "; ".join(exc.lines())
            count = len(exc.problems)
            self.notifier.ready(f"reload refused ({count} problem{'s' if count > 1 else ''}); "
                                "running with the previous config")
            return False
        self.config = new
        self.engine.reconfigure(new)
        self.bus.reconfigure(new)
        self.audit.reconfigure(max_bytes=new.audit.log_size, keep=new.audit.log_files,
                               retention=new.audit.retention)
        await self.supervisor.apply(specs)
        for component in self.components:
            await component.reconfigure(new)
        if self.state in ("starting", "running"):
            self._start_components(build_components(self._services(),
                                                    [c.name for c in self.components]))
        self.reloads["ok"] += 1
        self.reloads["last_error"] = None
        log.info("config reloaded from %s", new.source)
        self.notifier.ready(f"reloaded: {self._summary([])}")
        heap.settle()  # the previous config's objects are collected, the new one frozen
        return True

    # -- tool callbacks ----------------------------------------------------------------------

    def _on_tool_state(self, tool: str, state: str) -> None:
        if state == "restarting":
            self.metrics.count("tool_restarts")
        if self.state == "running":
            self.notifier.status(f"tool {tool} {state}")

    # -- control requests ----------------------------------------------------------------------

    async def handle(self, obj: dict[str, Any], peer: Peer) -> dict[str, Any]:
        """The answer to one control request. A documented failure is answered with its status
        (status_of, as the engine does); anything else propagates to the control server, which
        answers INTERNAL and logs it."""
        try:
            req = parse(obj)
            role = role_for(peer, req.role, self.config.access)
            if req.op == "points":
                # every point's value: for a role that may read them (review atk20s, #15)
                self.engine.policy.may_read(RequestContext.make("control", role))
            if req.op in ("status", "tools", "points"):
                return self._info(req)
            ctx = RequestContext.make("control", role,
                                      timeout=req.timeout or DEFAULT_TIMEOUT[req.op],
                                      dry_run=req.dry_run, peer_uid=peer.uid,
                                      peer=peer.describe())
            answer = await self._request(ctx, req)
        except HermesError as exc:
            return refusal(exc).to_dict()
        return answer.to_dict()

    def _request(self, ctx: RequestContext, req: Request) -> Awaitable[Answer]:
        """What answers the request, to be awaited (no coroutine of its own: one frame less on
        every request)."""
        f = req.fields
        if req.op == "read":
            if "points" in f:
                return self.engine.read_many(ctx, f["points"])
            return self.engine.read(ctx, f["point"])
        if req.op == "write":
            return self.engine.write(ctx, f["point"], f["value"])
        if req.op == "call":
            return self.engine.call(ctx, f["tool"], f["action"], f.get("args") or {})
        if req.op in ("history", "alarms", "ack"):  # answered by the history component
            if req.op not in self.engine.actions:
                raise BadRequest(f"{req.op}: history is off (add a history: section to the "
                                 "config)")
            return self.engine.act(ctx, Action(req.op, dict(f)))
        if req.op == "listen":
            from hermesd.voice.control import listen

            return listen(self.components, ctx, float(f.get("window", 10.0)))
        if "audio_wav" in f:
            return self.ask_audio(ctx, f["audio_wav"], encoded=True)
        if "audio" in f:
            return self.ask_audio(ctx, f["audio"])
        return self.engine.ask(ctx, f["text"])

    async def ask_audio(self, ctx: RequestContext, audio: str, *, encoded: bool = False) -> Answer:
        """`ask --audio`: a recording (base64 WAV, or a path for trusted peers) transcribed by
        the whisper tool, then asked like typed text; see hermesd/voice/control.py."""
        from hermesd.voice.control import ask_audio

        return await ask_audio(self.engine, self.config, ctx, audio, encoded=encoded)

    def status(self) -> dict[str, Any]:
        devices: dict[str, dict[str, Any]] = {}
        for dev_id, dev in self.config.devices.items():
            state = self.cache.device(dev_id)
            devices[dev_id] = {
                "driver": dev.driver, "points": len(dev.points),
                "online": None if state is None else state.online,
                "since": None if state is None else state.since,
                "reason": None if state is None or state.online else state.reason,
            }
            bus = self.bus.status(dev_id)
            if bus is not None:
                devices[dev_id]["bus"] = bus
        return {
            "node": {"id": self.config.node.id, "name": self.config.node.name},
            "version": __version__, "state": self.state, "pid": os.getpid(),
            "uptime_s": round(time.monotonic() - self.started, 1),
            "config": str(self.config.source), "reloads": dict(self.reloads),
            "tools": self.supervisor.status(), "devices": devices,
            "points": len(self.config.points),
            "llm": {"state": "not configured" if not self.config.llm.enabled else "rules only",
                    "route": "rules"},
            "audit": self.audit.status(),
            # writes_per_minute is per requester: who is refused RATE_LIMITED now, and since when
            "write_rate": self.engine.policy.status(),
            "cache": {"values": sum(1 for _ in self.cache.readings()),
                      "persist_failures": self.cache.persist_failures},
            "loop_lag_s": round(self.loop_lag, 4),
            "metrics": self.metrics.summary(),
            **{c.name: c.status() for c in self.components},
        }

    def metrics_snapshot(self) -> dict[str, Any]:
        snapshot = self.status()
        now = time.time()
        snapshot["point_ages"] = {r.point: round(now - r.ts, 3) for r in self.cache.readings()}
        return snapshot

    def _info(self, req: Request) -> dict[str, Any]:
        if req.op == "status":
            result: Any = self.status()
            tools = result["tools"]
            down = [n for n, t in tools.items() if t["state"] != "running"]
            reply = f"hermesd {self.state}, {len(tools)} tools" + \
                (f" ({', '.join(down)} not running)" if down else "")
        elif req.op == "tools":
            result = {"tools": self.supervisor.status()}
            reply = ", ".join(f"{n}: {t['state']}" for n, t in result["tools"].items()) \
                or "no tools"
        else:
            result = {"points": self.engine.points_status()}
            reply = f"{len(result['points'])} points"
        return Answer("ok", "direct", None, result=result, reply=reply).to_dict()


class _Stop(Exception):
    """Raised inside the task group to cancel every component on shutdown."""


async def run_daemon(config_path: Path) -> int:
    config = load_config(config_path)
    checked_tool_specs(config)  # every tool's settings fit in a frame, or a config error
    daemon = Daemon(config)
    await daemon.run()
    return daemon.exit_code
