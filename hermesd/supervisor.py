"""Supervision of the tool processes: start, handshake, ping, restart with backoff, stop.

Each `ToolProcess` runs one loop: remove the socket file, start the program, wait for it to say
it listens (a `READY` line on its stdout), connect, check that the socket is served by that very
process (SO_PEERCRED), take its hello, send its config, then ping it until it exits, hangs or
misbehaves. It is then stopped (terminate, bounded wait, kill) and restarted after a jittered
exponential backoff. Each transition is logged once and shown in `status`. Socket files are
removed at start and at stop.

Whatever a tool does — close its socket at any step, send garbage or a hello that does not hold
up, exit, hang — ends that one run with a reason; it never escapes this loop, so it never takes
down the daemon or another tool.

A tool that fails to start `GIVE_UP_AFTER` times in a row (it ends before it has started:
configured, or for a tool that `confirms_start`, until it says so) is failing repeatedly; that is
logged once. A tool whose spec has `give_up_after` (the LLM worker: nothing outside it changes
between tries, and each try loads a model) is then marked `failed` with the reason and left
stopped until a reload gives it another chance. Device tools keep retrying at the capped backoff:
what they need (a port, a broker, a device) often comes back on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermesd.audit_records import printable
from hermesd.children import stop_child
from hermesd.core import peercred
from hermesd.core.errors import HermesError, ProtocolError, ToolUnavailable
from hermesd.core.protocol import Event
from hermesd.tool_link import ToolLink

log = logging.getLogger(__name__)

START_TIMEOUT = 15.0  # seconds from exec to hello (imports of a big library on a Pi are slow)
CONFIGURE_TIMEOUT = 10.0
PING_INTERVAL = 2.0
PING_TIMEOUT = 3.0  # a tool that does not answer a ping in this time is hung
STOP_GRACE = 1.5  # seconds between SIGTERM and SIGKILL
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
STABLE_AFTER = 60.0  # a tool up this long starts its backoff afresh
#: failed starts in a row that make a pattern: one can be a fluke (an OOM kill, a device busy at
#: open), two a restart at a bad moment; a third identical end is a fault that will repeat
#: (a CPU-incompatible build, a corrupt model, a broken install) — and each try of the LLM
#: worker costs a model load
GIVE_UP_AFTER = 3
#: lines of a tool's stdout after READY that are logged (the rest is read and dropped), and
#: the characters of each
STDOUT_LINES_LOGGED = 20
STDOUT_LINE_CHARS = 200
#: the rest is read a chunk at a time with a pause between: at most ~6 MB/s
STDOUT_CHUNK = 65536
STDOUT_CHUNK_PAUSE = 0.01


@dataclass(frozen=True)
class ToolSpec:
    """How to run one tool and what to tell it."""

    name: str
    argv: tuple[str, ...]  # the program; `--socket PATH` is appended
    config: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    start_timeout: float = START_TIMEOUT
    #: failed starts in a row after which the tool is `failed` and not restarted until a reload;
    #: None: it keeps restarting at the capped backoff
    give_up_after: int | None = None
    #: the tool has started only once `ToolProcess.confirm_started` is called (the LLM worker:
    #: when its model is loaded and warmed up), not as soon as it has taken its config
    confirms_start: bool = False


class ToolProcess:
    def __init__(self, spec: ToolSpec, runtime_dir: Path,
                 on_event: Callable[[str, Event], None],
                 on_state: Callable[[str, str], None] | None = None) -> None:
        self.spec = spec
        self.name = spec.name
        self.socket_path = runtime_dir / f"{spec.name}.sock"
        self._on_event = on_event
        self._on_state = on_state
        self.state = "stopped"  # starting | running | restarting | held | failed | stopped
        self.link: ToolLink | None = None
        self.proc: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self.last_error = ""
        self.start_failures = 0  # runs in a row that ended before the tool had started
        self._failure = ""  # why the last of them ended
        self._failures_alike = True  # they all ended for the same reason
        self._started = False  # this run has started (see ToolSpec.confirms_start)
        self._kicked = False  # this run was ended on purpose (restart, hold), not by the tool
        self.started_at: float | None = None
        self._ready = asyncio.Event()
        self._restart_now = asyncio.Event()
        self._kick_reason = ""
        self._kill_now = False  # the next stop is SIGKILL at once (kill)
        self._released = asyncio.Event()  # cleared while the tool is held stopped
        self._released.set()
        self.held_reason: str | None = None

    # -- what others see ---------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "pid": self.proc.pid if self.proc and self.proc.returncode is None else None,
            "restarts": self.restarts,
            "last_error": self.last_error or None,
            "uptime_s": round(time.monotonic() - self.started_at, 1)
            if self.started_at and self.state == "running" else None,
            "held": self.held_reason,
            "start_failures": self.start_failures,
            "actions": sorted(self.link.actions) if self.link else [],
        }

    async def wait_ready(self, timeout: float) -> bool:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._ready.wait()
        return self._ready.is_set()

    def connected(self) -> ToolLink:
        link = self.link
        if link is None or self.state != "running" or link.shut:
            raise ToolUnavailable(self.name, self.last_error or self.state)
        return link

    def restart(self, reason: str) -> None:
        """Ask for a restart (e.g. the memory watchdog); the loop stops and starts the tool.

        A `failed` tool is started again: this is its other chance (a reload)."""
        self._kick_reason = reason
        self._restart_now.set()

    def kill(self, reason: str) -> None:
        """End this run with SIGKILL at once, not SIGTERM and a grace (a runaway the tool cannot
        be asked to stop: an LLM generation past its deadline); restarted as after `restart`."""
        self._kill_now = True
        self.restart(reason)

    def confirm_started(self, pid: int) -> None:
        """The tool process `pid` says it has finished starting (ToolSpec.confirms_start)."""
        proc = self.proc
        if self.state == "running" and proc is not None and proc.pid == pid and not self._started:
            self._mark_started()

    def _mark_started(self) -> None:
        self._started = True
        if self.start_failures:
            log.info("tool %s started after %d failed start%s", self.name, self.start_failures,
                     "s" if self.start_failures > 1 else "")
        self.start_failures = 0

    def hold(self, reason: str) -> None:
        """Stop the tool and keep it stopped until `release` (e.g. memory pressure)."""
        self.held_reason = reason
        self._released.clear()
        self.restart(f"held: {reason}")

    def release(self) -> None:
        self.held_reason = None
        self._released.set()

    async def reconfigure(self, spec: ToolSpec) -> None:
        """Send a new config to the running tool; a tool that refuses it is restarted."""
        self.spec = spec
        link = self.link
        if link is None or self.state != "running":
            return  # the next start sends the new config
        try:
            await link.configure(spec.config, CONFIGURE_TIMEOUT)
        except HermesError as exc:
            self.restart(f"reconfigure failed: {exc.message}")

    # -- the loop ----------------------------------------------------------------------------

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            if self._on_state is not None:
                self._on_state(self.name, state)

    async def run(self) -> None:
        attempt = 0
        try:
            while True:
                if not self._released.is_set():
                    self._set_state("held")
                    await self._released.wait()
                    self._restart_now.clear()
                began = time.monotonic()
                reason = await self._run_contained()
                self._ready.clear()
                if not self._released.is_set():
                    log.warning("tool %s stopped and held: %s", self.name, self.held_reason)
                    continue
                self.last_error = reason
                if time.monotonic() - began > STABLE_AFTER:
                    attempt = 0
                news = True
                if not self._started and not self._kicked:
                    news = self._note_start_failure(reason)
                limit = self.spec.give_up_after
                if limit is not None and self.start_failures >= limit:
                    await self._fail()
                    attempt = 0
                    continue
                delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt) * random.uniform(0.8, 1.2)  # noqa: S311
                attempt += 1
                self.restarts += 1
                self._set_state("restarting")
                self._log_restart(reason, delay, news)
                if self._kicked:  # that restart is this one; one asked for since still counts
                    self._restart_now.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._restart_now.wait()  # a deliberate restart skips the wait
        finally:
            await self._stop_process()
            self._set_state("stopped")

    def _note_start_failure(self, reason: str) -> bool:
        """Count a run that ended before the tool had started; whether its reason is new."""
        news = self.start_failures == 0 or reason != self._failure
        self._failures_alike = self.start_failures == 0 or (self._failures_alike and not news)
        self.start_failures += 1
        self._failure = reason
        return news

    def _log_restart(self, reason: str, delay: float, news: bool) -> None:
        """Each restart at warning until the failed starts make a pattern; that is said once,
        at error, and the same failure again only at debug (a new reason is news again)."""
        level = logging.WARNING
        if self.start_failures >= GIVE_UP_AFTER:
            if self.start_failures == GIVE_UP_AFTER or news:
                log.error("tool %s %s; still restarting it, at most every %g s", self.name,
                          self._in_a_row(), BACKOFF_MAX)
            level = logging.DEBUG
        log.log(level, "tool %s %s; restarting in %.1f s (restart %d)",
                self.name, reason, delay, self.restarts)

    def _in_a_row(self) -> str:
        """The failed starts so far, in words: 'was killed by SIGSEGV 3 times in a row ...'."""
        n = self.start_failures
        if self._failures_alike:
            return f"{self._failure} {n} times in a row while starting"
        return f"failed {n} times in a row while starting (last: {self._failure})"

    async def _fail(self) -> None:
        """Leave the tool stopped and `failed` until `restart` (a reload) gives it another try."""
        self.last_error = self._in_a_row()
        self._set_state("failed")
        log.error("tool %s %s; not restarting it until the config is reloaded", self.name,
                  self.last_error)
        await self._restart_now.wait()  # a reload during that last start counts too
        log.info("tool %s: trying again after it failed (%s)", self.name,
                 self._kick_reason or "asked to")
        self.start_failures = 0

    async def _run_contained(self) -> str:
        """One run; an error of ours it meets is logged and ends only this run, as a tool's
        misbehaviour does: no tool can take the daemon down through the supervisor."""
        self._started = self._kicked = False
        # a restart asked for while the tool was down (during the backoff, or while failed)
        # has happened by now; one asked for from here on ends this run
        self._restart_now.clear()
        self._kill_now = False
        try:
            return await self._run_once()
        except Exception as exc:
            log.exception("supervising tool %s failed", self.name)
            with contextlib.suppress(Exception):
                await self._stop_process()
            return f"supervision failed: {type(exc).__name__}: {exc}"

    async def _run_once(self) -> str:
        """Start the tool and watch it; returns why it ended."""
        self._set_state("starting")
        try:
            try:
                link = await self._start()
            except (HermesError, OSError, ProtocolError) as exc:
                return f"failed to start: {getattr(exc, 'message', None) or exc}"
            try:
                return await self._watch(link)
            finally:
                await link.close()
        finally:
            await self._stop_process()

    async def _start(self) -> ToolLink:
        """Start the process, wait for READY, connect, and take its hello."""
        self._remove_socket()
        self.socket_path.parent.mkdir(parents=True, exist_ok=True)
        argv = [*self.spec.argv, "--socket", str(self.socket_path)]
        env = {**os.environ, **self.spec.env}
        self.proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            env=env, start_new_session=True)
        assert self.proc.stdout is not None
        try:
            async with asyncio.timeout(self.spec.start_timeout):
                line = await self.proc.stdout.readline()
        except TimeoutError:
            raise ToolUnavailable(self.name, f"did not start listening within "
                                             f"{self.spec.start_timeout:g} s") from None
        except ValueError:  # a "line" longer than the pipe reader's limit
            raise ToolUnavailable(self.name, "wrote a long line without a newline instead of "
                                             "READY") from None
        if line.strip() != b"READY":
            code = await self._exit_code(1.0)
            raise ToolUnavailable(self.name, f"exited with code {code} before listening"
                                  if code is not None else f"said {line[:80]!r} instead of READY")
        reader, writer = await asyncio.open_unix_connection(str(self.socket_path),
                                                            limit=2 * 1024 * 1024)
        link = ToolLink(self.name, reader, writer, self._on_event)
        try:
            self._check_peer(writer)
            hello = await link.handshake(self.spec.start_timeout)
            if hello.pid != self.proc.pid:
                raise ProtocolError(f"hello says pid {hello.pid}, but the tool is pid "
                                    f"{self.proc.pid}")
        except BaseException:
            await link.close()
            raise
        return link

    async def _drain(self, proc: asyncio.subprocess.Process) -> None:
        """Read the tool's stdout after READY until it ends, logging its first lines."""
        stdout = proc.stdout
        if stdout is None:
            return
        logged, pending = 0, b""
        while chunk := await stdout.read(STDOUT_CHUNK):
            if logged >= STDOUT_LINES_LOGGED:
                # a tool printing without pause is read at a bounded pace: its flood costs
                # hermesd little of a core, and the tool waits on its own pipe (atk24s, #8)
                await asyncio.sleep(STDOUT_CHUNK_PAUSE)
                continue
            *lines, pending = (pending + chunk).split(b"\n")
            if len(pending) >= STDOUT_LINE_CHARS:  # a line with no end: logged as far as it goes
                lines.append(pending)
                pending = b""
            for line in lines:
                if logged < STDOUT_LINES_LOGGED:
                    logged += 1
                    # escaped: a tool's ESC, CR or NUL must not forge or hide hermesd's lines
                    text = printable(line[:STDOUT_LINE_CHARS].decode("utf-8", "replace"),
                                     STDOUT_LINE_CHARS)[0]
                    log.info("tool %s printed: %s%s", self.name, text,
                             "" if logged < STDOUT_LINES_LOGGED else
                             " (more of its output is read and not logged)")

    def _check_peer(self, writer: asyncio.StreamWriter) -> None:
        """Trust the socket only if the process we started serves it (not a squatter that
        bound the path first, nor a grandchild of a wrapper script)."""
        proc = self.proc
        peer = peercred.of_stream(writer)
        if proc is None or proc.returncode is not None:
            raise ToolUnavailable(self.name, "exited before its hello")
        if peer is None:
            raise ToolUnavailable(self.name, f"cannot tell who serves {self.socket_path}")
        if peer.pid != proc.pid:
            raise ToolUnavailable(self.name, f"{self.socket_path} is served by pid {peer.pid}, "
                                             f"not by the tool's process (pid {proc.pid})")

    async def _watch(self, link: ToolLink) -> str:
        """Serve the link, configure the tool, then wait for the first sign of trouble."""
        assert self.proc is not None
        proc = self.proc
        async with asyncio.TaskGroup() as tg:
            tasks: dict[asyncio.Task[Any], str] = {
                tg.create_task(link.serve(), name=f"{self.name}-link"): "link",
                tg.create_task(proc.wait(), name=f"{self.name}-wait"): "exit"}
            configured = tg.create_task(self._configure(link))
            # what it prints after READY is read and dropped (a few lines logged): a full pipe
            # would hang it mid-print, and a ping later kill it (review atk20s, #12)
            drain = tg.create_task(self._drain(proc), name=f"{self.name}-stdout")
            done, _ = await asyncio.wait([configured, *tasks], return_when=asyncio.FIRST_COMPLETED)
            if configured in done and configured.result() is None:
                self.link = link
                self.started_at = time.monotonic()
                self._set_state("running")
                self._ready.set()
                if not self.spec.confirms_start:
                    self._mark_started()
                again = "running again" if self.restarts else "running"
                log.info("tool %s is %s (pid %s)", self.name, again, proc.pid)
                tasks[tg.create_task(self._pings(link), name=f"{self.name}-ping")] = "ping"
                tasks[tg.create_task(self._restart_now.wait(), name=f"{self.name}-kick")] = "kick"
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            else:
                configured.cancel()
            for task in [*tasks, configured, drain]:
                task.cancel()
        if configured.done() and not configured.cancelled() and configured.result() is not None:
            return f"failed to configure: {configured.result()}"
        first = next(iter(done))
        kind = tasks.get(first, "link")
        if kind == "link" and proc.returncode is None:
            await self._exit_code(0.5)  # a dying tool closes its socket just before it exits
        if kind == "exit" or proc.returncode is not None:
            code = proc.returncode
            if code is not None and code < 0:
                return f"was killed by {signal.Signals(-code).name}"
            return f"exited with code {code}"
        if kind == "ping":
            return str(first.result())
        if kind == "kick":
            self._kicked = True
            return f"was restarted: {self._kick_reason}"
        return f"closed its connection ({link.close_reason})"

    async def _configure(self, link: ToolLink) -> str | None:
        """Send the tool its config; returns why that failed, or None."""
        try:
            await link.configure(self.spec.config, CONFIGURE_TIMEOUT)
        except HermesError as exc:
            return exc.message
        return None

    async def _pings(self, link: ToolLink) -> str:
        while True:
            await asyncio.sleep(PING_INTERVAL)
            try:
                await link.ping(PING_TIMEOUT)
            except HermesError as exc:
                return f"did not answer a ping ({exc.message}): hung"

    async def _exit_code(self, wait: float) -> int | None:
        if self.proc is None:
            return None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                return await self.proc.wait()
        return None

    async def _stop_process(self) -> None:
        """terminate -> bounded wait -> kill; always reaps, always removes the socket."""
        proc, self.proc = self.proc, None
        self.link = None
        grace, self._kill_now = (0.0 if self._kill_now else STOP_GRACE), False
        if proc is not None:
            await stop_child(proc, grace)
        self._remove_socket()

    def _remove_socket(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()


class Supervisor:
    """All tool processes of the current config, in one task group."""

    def __init__(self, runtime_dir: Path, on_event: Callable[[str, Event], None],
                 on_state: Callable[[str, str], None] | None = None) -> None:
        self.runtime_dir = runtime_dir
        self._on_event = on_event
        self._on_state = on_state
        self.tools: dict[str, ToolProcess] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._group: asyncio.TaskGroup | None = None
        self._started = asyncio.Event()

    def get(self, name: str) -> ToolProcess:
        tool = self.tools.get(name)
        if tool is None:
            raise ToolUnavailable(name, "no such tool is configured")
        return tool

    def status(self) -> dict[str, dict[str, Any]]:
        return {name: tool.status() for name, tool in sorted(self.tools.items())}

    async def run(self, specs: dict[str, ToolSpec]) -> None:
        """Run the tools until cancelled; `apply` changes the set while it runs."""
        try:
            async with asyncio.TaskGroup() as tg:
                self._group = tg
                for spec in specs.values():
                    self._add(spec)
                self._started.set()
                await asyncio.Event().wait()
        finally:
            self._group = None
            self._tasks.clear()

    async def started(self) -> None:
        await self._started.wait()

    def _add(self, spec: ToolSpec) -> None:
        assert self._group is not None
        tool = ToolProcess(spec, self.runtime_dir, self._on_event, self._on_state)
        self.tools[spec.name] = tool
        self._tasks[spec.name] = self._group.create_task(tool.run(), name=f"tool-{spec.name}")

    async def apply(self, specs: dict[str, ToolSpec]) -> None:
        """Adopt a new set of tools: start new ones, stop removed ones, reconfigure the rest."""
        for name in [n for n in self.tools if n not in specs]:
            task = self._tasks.pop(name)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            del self.tools[name]
            log.info("tool %s stopped: no longer configured", name)
        for name, spec in specs.items():
            tool = self.tools.get(name)
            if tool is None:
                self._add(spec)
            elif tool.state == "failed":  # a reload is a failed tool's other chance
                tool.spec = spec
                tool.restart("the config was reloaded")
            elif tool.spec.argv != spec.argv or tool.spec.env != spec.env:
                tool.spec = spec
                tool.restart("its command changed")
            elif tool.spec.config != spec.config:
                await tool.reconfigure(spec)

    async def wait_ready(self, timeout: float) -> list[str]:
        """Wait for every tool's first start; returns the names that are not ready in time."""
        deadline = time.monotonic() + timeout
        late = []
        for name, tool in self.tools.items():
            if not await tool.wait_ready(max(0.0, deadline - time.monotonic())):
                late.append(name)
        return late
