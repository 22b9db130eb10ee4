"""One soak run: bring the plant up, warm up under load, inject the faults on schedule, measure,
and take everything down again — in `finally`, so also after an error or a Ctrl-C.

The schedule is a list of waves (a wave's faults run together, on different parts of the plant).
`--short` runs each wave once, back to back, with short holds (about a minute and a half in all);
a timed run repeats the waves in cycles spread evenly over the duration, with longer holds, and
leaves a quiet tail at the end so the final RSS sample is taken in steady state. With the
hostile mix (the default; hostile.py) its inputs run alongside the load from start to end, and
at the end every write intent in the audit trail is judged (writes.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import shutil
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.support import procfs
from tests.support.ports import free_port
from tests.support.soak import faults as F
from tests.support.soak import hostile_report as HR
from tests.support.soak import procs
from tests.support.soak import report as R
from tests.support.soak import writes as W
from tests.support.soak.disk import StateDisk
from tests.support.soak.hostile import FLOODER_UID, NOBODY, OPERATOR_UID, USERS, HostileMix
from tests.support.soak.load import LLM_ASKS, ControlClient, Load, Lost, Mix, MqttRequester, Planned
from tests.support.soak.plant import (
    DEMO_VALUES,
    LEAKY,
    Broker,
    Hermesd,
    Simulator,
    describe_config,
    dump,
    soak_config,
    watchdog_seconds,
)

log = logging.getLogger("soak")

STATE_TMPFS_MIB = 96  # room for the audit log's rotations (5 x 10 MiB) and the rest


@dataclass(frozen=True)
class Options:
    duration: float  # seconds of load after warm-up (ignored with short)
    rate: float
    short: bool
    workdir: Path
    seed: int
    llm: bool | None
    hostile: bool = True  # the hostile mix alongside the load (--mix)
    hostile_rate: float = 3.0  # hostile inputs per second

    @property
    def warmup(self) -> float:
        return 10.0 if self.short else 60.0

    @property
    def sample_every(self) -> float:
        return 2.0 if self.short else 10.0


@dataclass(frozen=True)
class Step:
    name: str
    kind: str
    target: str
    fault: F.Fault


def waves(opts: Options, tools: list[str], disk_reason: str | None) -> list[list[Step]]:
    """Every fault once, grouped in waves; holds by mode."""
    s = opts.short
    out: list[list[Step]] = []
    out.extend([Step(f"kill -9 {t}", "kill9", t, F.signal_tool(signal.SIGKILL))] for t in tools)
    out.append([Step(f"SIGSTOP {t}", "sigstop", t, F.signal_tool(signal.SIGSTOP))
                for t in tools])
    hold = 4.0 if s else 20.0
    out.append([Step("PLC dropout", "dropout", "plc1", F.device_dropout(hold, "silent")),
                Step("serial unplug", "dropout", "scale1", F.device_dropout(hold, "unplug"))])
    out.append([Step("broker restart", "broker", "mosquitto", F.broker_restart(2.0 if s else 10.0))])
    out.append([Step("memory leak", "leak", LEAKY, F.leak)])
    if disk_reason is None:
        out.append([Step("state disk full", "disk_full", "state_dir",
                         F.disk_full(4.0 if s else 20.0))])
        out.append([Step("state disk read-only", "read_only", "state_dir",
                         F.read_only(12.0 if s else 30.0))])
    return out


class Soak:
    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.workdir = opts.workdir
        self.rng = random.Random(opts.seed)
        self.disk = StateDisk(self.workdir / "state", STATE_TMPFS_MIB)
        self.disk_reason: str | None = None
        self.broker: Broker | None = None
        self.sims: Simulator | None = None
        self.hermesd: Hermesd | None = None
        self.control: ControlClient | None = None
        self.mqtt: MqttRequester | None = None
        self.load: Load | None = None
        self.hostile: HostileMix | None = None
        self.rig: F.Rig | None = None
        self.config: dict[str, Any] = {}
        self.records: list[F.FaultRecord] = []
        self.samples: dict[str, list[R.Sample]] = {}
        self.seen_pids: set[int] = set()
        self.restarts: dict[str, int] = {}
        #: (after, before, tool, restarts, last error): a tool's restart count went up between
        #: two looks at status (monotonic times)
        self.restart_events: list[tuple[float, float, str, int, str | None]] = []
        self.daemon_exit: tuple[float, int] | None = None  # hermesd exited before the stop
        self.writes: dict[str, Any] = {}
        self.llm: dict[str, Any] = {"exercised": False, "reason": "the run did not get that far"}
        self.t0 = time.monotonic()  # the load's start, once it starts
        self.warm_t = 0.0
        self.end_t: float | None = None
        self.final_status: dict[str, Any] = {}
        self.metrics_scrapes = {"ok": 0, "failed": 0}
        self.stop_result: dict[str, Any] = {}
        self.cleanup_result: dict[str, Any] = {"processes": [], "mounts": [], "notes": []}
        self.audit: dict[str, Any] = {}
        self.interrupted = False
        self.error: str | None = None
        self.wall_offset = time.time() - time.monotonic()
        self._tasks: list[asyncio.Task[Any]] = []

    # -- bringing it up ----------------------------------------------------------------------

    async def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        (self.workdir / "run").mkdir(exist_ok=True)
        self.disk_reason = await asyncio.to_thread(self.disk.mount)
        if self.disk_reason:
            log.warning("soak: disk faults skipped: %s", self.disk_reason)
        self.broker = Broker(self.workdir)
        await self.broker.start()
        self.config = soak_config(self.workdir, plc_port=free_port(),
                                  broker_port=self.broker.port, llm=self.opts.llm,
                                  users=USERS if self.opts.hostile else None)
        config_path = self.workdir / "hermesd.yaml"
        dump(self.config, config_path)
        self.sims = Simulator(self.workdir, config_path, self.config, self.opts.seed)
        await self.sims.start()
        for device, where in sorted(self.sims.served.items()):
            log.info("soak: hermes-sim serves %s at %s", device, where)
        self.hermesd = Hermesd(self.workdir, config_path, watchdog_seconds())
        await self.hermesd.start()
        self.control = ControlClient(self.hermesd.socket_path)
        node = self.config["node"]["id"]
        self.mqtt = MqttRequester(self.broker.port,
                                  f"{self.config['mqtt']['base_topic']}/{node}/command")
        await self.mqtt.start()
        if self.opts.hostile:
            self.hostile = HostileMix(
                workdir=self.workdir, config=self.config, config_path=config_path,
                control=self.hermesd.socket_path, rate=self.opts.hostile_rate,
                seed=self.opts.seed, short=self.opts.short, broker_port=self.broker.port,
                sims=self.sims)
            self.hostile.tool_faulted = self._tool_faulted

    def _tool_faulted(self, tool: str, since: float, until: float) -> bool:
        """A fault acted on this tool between `since` and `until` (monotonic): injected before
        `until` and not recovered before `since`."""
        return any(f.target == tool and f.injected_at is not None and f.injected_at <= until
                   and (f.recovered_at is None or f.recovered_at >= since)
                   for f in self.records)

    async def ready(self) -> list[str]:
        """Wait for every tool to run and serve its probe point; the tools to fault."""
        assert self.rig is not None
        status = await self.rig.status()
        tools = sorted(status.get("tools", {}))
        for tool in tools:
            if await self.rig.running_tool(tool, timeout=60) is None:
                raise RuntimeError(f"tool {tool} did not start: {status['tools'][tool]}")
            ok, how = await self.rig.tool_works(tool) if tool != "llm" else (True, "")
            if not ok:
                raise RuntimeError(f"tool {tool} runs but does not answer: {how}")
        return tools

    async def _llm_check(self) -> None:
        """Exercise the model when it runs: keep the asks it (not the rules) answers."""
        assert self.rig is not None and self.load is not None
        status = await self.rig.status()
        llm = status.get("llm", {})
        self.rig.llm_state = llm.get("state")
        if not self.config.get("llm", {}).get("enabled", True):
            self.llm = {"exercised": False, "reason": "llm.enabled is false in the config"}
            return
        if "llm" not in status.get("tools", {}):
            self.llm = {"exercised": False, "reason": "hermesd runs no llm tool"}
            return
        ready = await self.rig.poll(lambda s: s.get("llm", {}).get("state") == "ready", 60.0)
        if not ready:
            state = (await self.rig.status()).get("llm", {})
            self.rig.llm_state = state.get("state")
            self.llm = {"exercised": False, "reason": f"the LLM worker is not ready: {state}"}
            return
        self.rig.llm_state = "ready"
        for text in LLM_ASKS:
            rec = await self.load.send(Planned("probe", text, {"op": "ask", "text": text,
                                                               "role": "operator"}))
            if rec.route == "llm":
                self.load.mix.llm_asks.append(text)
        if self.load.mix.llm_asks:
            self.llm = {"exercised": True, "reason": None,
                        "asks": list(self.load.mix.llm_asks),
                        "every_s": self.load.LLM_EVERY}
        else:
            self.llm = {"exercised": False,
                        "reason": "the rules placed every candidate ask; none reached the model"}

    # -- watching --------------------------------------------------------------------------------

    async def _monitor(self) -> None:
        """Track pids (for the leftover check) and sample RSS, and scrape the metrics endpoint."""
        assert self.rig is not None and self.hermesd is not None
        next_sample = 0.0
        next_scrape = time.monotonic() + 15
        last_look = time.monotonic()
        while True:
            tools: dict[str, Any] = {}
            with contextlib.suppress(Lost):
                tools = (await self.rig.status()).get("tools", {})
            now = time.monotonic()
            pids = self._pids(tools)
            self.seen_pids.update(pids.values())
            for name, t in tools.items():
                count = int(t.get("restarts", 0))
                if count > self.restarts.get(name, count):
                    self.restart_events.append((last_look, now, name,
                                                count - self.restarts[name], t.get("last_error")))
                self.restarts[name] = count
            last_look = now
            code = self.hermesd.child.proc.returncode if self.hermesd.child else None
            if code is not None and self.daemon_exit is None:
                self.daemon_exit = (now, code)
                log.error("soak: hermesd exited with %s during the run:\n%s", code,
                          self.hermesd.log_tail())
            if time.monotonic() >= next_sample:
                next_sample = time.monotonic() + self.opts.sample_every
                self._sample(pids)
            if time.monotonic() >= next_scrape:
                next_scrape = time.monotonic() + 15
                await self._scrape()
            await asyncio.sleep(1.0)

    def _pids(self, tools: dict[str, Any]) -> dict[str, int]:
        pids: dict[str, int] = {}
        if self.hermesd is not None and self.hermesd.pid:
            pids["hermesd"] = self.hermesd.pid
        for name, t in tools.items():
            if t.get("pid"):
                pids[name] = int(t["pid"])
        if self.sims is not None and self.sims.pid:
            pids["hermes-sim"] = self.sims.pid
        if self.broker is not None and self.broker.pid:
            pids["mosquitto"] = self.broker.pid
        if self.hostile is not None:
            pids.update(self.hostile.pids())
        return pids

    def _sample(self, pids: dict[str, int]) -> None:
        t = time.monotonic() - self.t0
        for name, pid in pids.items():
            rss = procfs.rss_bytes(pid)
            if rss is not None:
                self.samples.setdefault(name, []).append(
                    R.Sample(t, pid, rss, procfs.open_fds(pid)))

    async def _scrape(self) -> None:
        path = self.workdir / "run" / "metrics.sock"
        try:
            async with asyncio.timeout(5):
                reader, writer = await asyncio.open_unix_connection(str(path))
                writer.write(b"GET /metrics HTTP/1.0\r\n\r\n")
                body = await reader.read()
                writer.close()
            ok = body.startswith(b"HTTP/1.0 200") and b"hermesd_up 1" in body
        except (OSError, TimeoutError):
            ok = False
        self.metrics_scrapes["ok" if ok else "failed"] += 1

    # -- the run ---------------------------------------------------------------------------------

    async def run(self) -> None:
        await self.start()
        assert self.control and self.mqtt and self.sims and self.broker and self.hermesd
        self.load = Load(self.control, self.mqtt, Mix(self.config, self.rng), self.opts.rate,
                         self.hermesd.socket_path)
        self.rig = F.Rig(self.control, self.mqtt, self.load, self.sims, self.broker, self.disk)
        tools = await self.ready()
        await self._llm_check()
        if self.hostile is not None:
            await self.hostile.start()
        log.info("soak: plant up (tools: %s); load %g requests/s%s", ", ".join(tools),
                 self.opts.rate, f", hostile inputs {self.opts.hostile_rate:g}/s"
                 if self.hostile else "")
        self.t0 = time.monotonic()
        self._tasks.append(asyncio.create_task(self._monitor(), name="soak-monitor"))
        load_task = asyncio.create_task(self.load.run(), name="soak-load")
        self._tasks.append(load_task)
        hostile_task = None
        if self.hostile is not None:
            hostile_task = asyncio.create_task(self.hostile.run(), name="soak-hostile")
            self._tasks.append(hostile_task)
        await asyncio.sleep(self.opts.warmup)
        self.warm_t = time.monotonic() - self.t0
        self._sample(self._pids((await self.rig.status()).get("tools", {})))
        await self._faults(tools)
        self.end_t = time.monotonic() - self.t0
        self._sample(self._pids((await self.rig.status()).get("tools", {})))
        for task in (load_task, hostile_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        log.info("soak: load stopped; waiting for %d answers in flight", self.load.outstanding
                 + (self.hostile.outstanding if self.hostile else 0))
        await asyncio.gather(self.load.drain(F.RECOVERY_LIMIT),
                             *([self.hostile.drain(F.RECOVERY_LIMIT)] if self.hostile else []))
        with contextlib.suppress(Lost):
            self.final_status = await self.rig.status()

    async def _faults(self, tools: list[str]) -> None:
        assert self.rig is not None
        plan = waves(self.opts, tools, self.disk_reason)
        if self.disk_reason:
            for name, kind in (("state disk full", "disk_full"),
                               ("state disk read-only", "read_only")):
                self.records.append(F.FaultRecord(name, kind, "state_dir",
                                                  skipped=self.disk_reason))
        if self.opts.short:
            for wave in plan:
                await self._wave(wave)
            await asyncio.sleep(5.0)  # a quiet tail
            return
        tail = max(120.0, 0.15 * self.opts.duration)  # a quiet end: tools restarted by the
        # last faults live long enough (RSS_MIN_LIFE) for their growth to be judged
        room = max(0.0, self.opts.duration - self.opts.warmup - tail)
        cycles = max(1, int(room // (len(plan) * 40.0)))
        schedule = plan * cycles
        spacing = room / len(schedule)
        start = time.monotonic()
        log.info("soak: %d fault cycles, a wave every %.0f s", cycles, spacing)
        for i, wave in enumerate(schedule):
            await asyncio.sleep(max(0.0, start + i * spacing - time.monotonic()))
            await self._wave(wave)
        end = self.t0 + self.opts.duration
        await asyncio.sleep(max(10.0, end - time.monotonic()))

    async def _wave(self, wave: list[Step]) -> None:
        assert self.rig is not None
        recs = [F.FaultRecord(s.name, s.kind, s.target) for s in wave]
        self.records.extend(recs)
        await asyncio.gather(*(F.run_fault(self.rig, rec, step.fault)
                               for rec, step in zip(recs, wave, strict=True)))
        await asyncio.sleep(1.0 if self.opts.short else 5.0)  # let the plant settle

    # -- taking it down --------------------------------------------------------------------------

    async def cleanup(self) -> None:
        """Stop everything we started, in order; then make sure nothing is left."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.load is not None:
            await self.load.drain(1.0)
        if self.hostile is not None:
            await self.hostile.drain(1.0)
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("hostile mix", lambda: self.hostile.stop() if self.hostile else None),
            ("MQTT requester", lambda: self.mqtt.stop() if self.mqtt else None),
            ("control client", lambda: self.control.close() if self.control else None),
            ("hermesd", self._stop_hermesd),
            ("stopped tools", self._resume_stopped),
            ("simulators", lambda: self.sims.stop() if self.sims else None),
            ("broker", lambda: self.broker.stop() if self.broker else None),
            ("audit check", self._check_audit),
            ("state disk", self._unmount),
        ]
        for what, step in steps:
            try:
                result = step()
                if asyncio.iscoroutine(result):
                    await result
            except Exception as exc:  # cleanup goes on whatever one step did
                self.cleanup_result["notes"].append(f"{what}: {type(exc).__name__}: {exc}")
        left = procs.kill_leftovers(self.workdir, self.seen_pids)
        self.cleanup_result["processes"] = [f"{p.pid}: {p.cmdline}" for p in left]
        self.cleanup_result["mounts"] = procfs.mounts_under(self.workdir)

    async def _stop_hermesd(self) -> None:
        if self.hermesd is None:
            return
        result = await self.hermesd.stop()
        if result is not None:
            code, seconds = result
            self.stop_result = {"exit_code": code, "seconds": round(seconds, 2)}

    async def _resume_stopped(self) -> None:
        marker = str(self.workdir)
        await F.resume_stopped(self.rig.stopped_pids if self.rig else set(),
                               lambda pid: procfs.alive(pid) and marker in procfs.cmdline(pid))

    def _check_audit(self) -> None:
        state = self.workdir / "state"
        self.audit = R.audit_check(state)
        initial = yaml.safe_load(DEMO_VALUES.read_text(encoding="utf-8"))
        hostile_uids = {NOBODY: "frames", OPERATOR_UID: "words", FLOODER_UID: "flood"}
        self.writes = W.judge(state, self.load.records if self.load else [],
                              self.hostile.records if self.hostile else [], self.config,
                              self.hostile.device_samples if self.hostile else [], initial,
                              hostile_uids)
        if self.disk.available:  # the tmpfs goes at unmount: keep its files for a post-mortem
            shutil.copytree(state, self.workdir / "state.saved", dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns(".soak-filler"))

    def _unmount(self) -> None:
        self.cleanup_result["notes"].extend(self.disk.unmount())

    # -- the report ------------------------------------------------------------------------------

    def report(self) -> dict[str, Any]:
        records = self.load.records if self.load else []
        started = self.load.started if self.load and self.load.started else self.t0
        stopped = self.load.stopped if self.load and self.load.stopped else time.monotonic()
        windows = [(f.injected_at, (f.recovered_at or f.injected_at + F.RECOVERY_LIMIT))
                   for f in self.records if f.injected_at is not None]
        points_of = {d: set(dev.get("points", {}))
                     for d, dev in self.config.get("devices", {}).items()}
        until = (self.hermesd.notes.stopping_at if self.hermesd and self.hermesd.notes.stopping_at
                 else time.monotonic())
        gap = self.hermesd.notes.longest_watchdog_gap(until) if self.hermesd else None
        llm_answers = sum(1 for r in records if r.route == "llm")
        out: dict[str, Any] = {
            "version": 1,
            "mode": "short" if self.opts.short else "timed",
            "mix": "hostile" if self.opts.hostile else "normal",
            "interrupted": self.interrupted,
            "error": self.error,
            "duration_s": round((self.end_t or (time.monotonic() - self.t0)), 1),
            "warmup_s": round(self.warm_t, 1),
            "workdir": str(self.workdir),
            "plant": {**(describe_config(self.config) if self.config else {}),
                      "served_by_hermes_sim": self.sims.served if self.sims else {}},
            "requests": R.requests_section(records, self.interrupted),
            "throughput": R.throughput_section(records, started, stopped, self.opts.rate),
            "latency": R.latency_section(records, windows),
            "honesty": R.honesty_section(records, self.records, points_of, self.wall_offset),
            "processes": R.process_section(self.samples, self.warm_t, self.opts.short,
                                           self.restarts),
            "faults": [R.fault_entry(f, self.t0, self.wall_offset, self.interrupted)
                       for f in self.records],
            "llm": {**self.llm, "answers_by_llm_route": llm_answers},
            "watchdog": {"limit_s": watchdog_seconds(),
                         "pings": len(self.hermesd.notes.watchdogs) if self.hermesd else 0,
                         "longest_gap_s": None if gap is None else round(gap, 2)},
            "metrics_endpoint": self.metrics_scrapes,
            "stop": self.stop_result,
            "audit": self.audit,
            "writes": self.writes,
            "daemon": self._daemon_section(),
            "tool_restarts": HR.restarts_section(self.restart_events, windows),
            "hostile": HR.hostile_section(self.hostile, windows, self.opts.hostile_rate),
            "cleanup": self.cleanup_result,
            "hermesd_status": {k: self.final_status.get(k) for k in
                               ("tools", "metrics", "memory", "audit", "cache", "mqtt")}
            if self.final_status else {},
            "hermesd_log": _log_counts(self.workdir / "hermesd.log"),
        }
        out["targets"] = R.targets(out)
        out["passed"] = (not self.interrupted and self.error is None
                         and all(t["met"] is not False for t in out["targets"].values()))
        return out


    def _daemon_section(self) -> dict[str, Any]:
        """hermesd ran as one process from READY to the stop, or when it did not."""
        died = None if self.daemon_exit is None else {
            "t_s": round(self.daemon_exit[0] - self.t0, 1), "exit_code": self.daemon_exit[1]}
        return {"pid": self.hermesd.child.pid if self.hermesd and self.hermesd.child else None,
                "exited_during_run": died, "crashes": 0 if died is None else 1}


def _log_counts(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    text = path.read_text(errors="replace")
    lines = text.splitlines()
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    errors = [line for line in lines if " ERROR " in line or " CRITICAL " in line]
    return {"lines": len(lines),
            "warnings": sum(" WARNING " in line for line in lines),
            "errors": len(errors),
            "error_examples": [line[:300] for line in errors[:10]],
            "tracebacks": len(tracebacks),
            "first_traceback": "\n".join(lines[max(0, tracebacks[0] - 1):tracebacks[0] + 25])
            if tracebacks else None}


def default_workdir() -> Path:
    import tempfile
    return Path(tempfile.mkdtemp(prefix="hermes-soak-", dir="/tmp"))
