"""The faults a soak injects, and how each one's recovery is judged.

Each fault records when it was injected, when hermesd showed it noticed (`detected_at`), when
its cause was taken away (a restore, the broker back, the disk freed), when the plant had
recovered and how that was judged — always by what a user would check: the tool running again
with a new pid and a read of one of its points answering `ok`; the broker back and an MQTT
command answered; a dropped device online again and a read answering `ok` with a value taken
after the restore; the audit log writable again and a write answering `ok`. Recovery time is
counted from the cause's removal where the soak removes it, else from the injection.
A fault never signals a pid that hermesd's status did not name as one of its tools.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support.soak.disk import StateDisk
from tests.support.soak.load import ControlClient, Load, Lost, MqttRequester, Planned
from tests.support.soak.plant import LEAKY, LEAKY_POINT, Broker, Simulator
from tests.support.until import until

log = logging.getLogger("soak")

RECOVERY_LIMIT = 90.0  # seconds a fault may take to recover before it counts as not recovered
PROBE_EVERY = 0.5
GROW_MIB = 96  # what the leaky tool is told to hold on to, per step
GROW_STEPS = 7  # 672 MiB: past the default hard budget (320 MiB) with room to spare

#: the point whose read shows a tool works (the llm tool is probed with an ask instead)
TOOL_PROBES = {"modbus": "boiler3_temp", "serial": "scale1_weight", "mqtt": "outdoor_temp",
               LEAKY: LEAKY_POINT}
DEVICE_PROBES = {"plc1": "boiler3_temp", "scale1": "scale1_weight"}


@dataclass
class FaultRecord:
    name: str
    kind: str
    target: str
    injected_at: float | None = None  # monotonic
    injected_wall: float | None = None
    detected_at: float | None = None
    cause_removed_at: float | None = None
    cause_removed_wall: float | None = None
    recovered_at: float | None = None
    recovered: bool = False
    judged_by: str = ""
    observed: dict[str, Any] = field(default_factory=dict)
    skipped: str | None = None
    error: str | None = None

    def inject(self) -> None:
        self.injected_at, self.injected_wall = time.monotonic(), time.time()

    def cause_removed(self) -> None:
        self.cause_removed_at, self.cause_removed_wall = time.monotonic(), time.time()

    @property
    def recovery_s(self) -> float | None:
        start = self.cause_removed_at or self.injected_at
        if not self.recovered or self.recovered_at is None or start is None:
            return None
        return self.recovered_at - start


@dataclass
class Rig:
    """What faults act on and look at."""

    control: ControlClient
    mqtt: MqttRequester
    load: Load
    sims: Simulator
    broker: Broker
    disk: StateDisk
    stopped_pids: set[int] = field(default_factory=set)  # SIGSTOPped: SIGCONT at the end
    llm_state: str | None = None  # the worker's state in status before the faults

    async def status(self) -> dict[str, Any]:
        answer = await self.control.request({"op": "status"}, 15.0)
        return dict(answer.get("result") or {})

    async def poll(self, check: Callable[[dict[str, Any]], Any], timeout: float,
                   every: float = 0.25) -> Any:
        """Poll status until `check(status)` is truthy; returns it, or None at the deadline."""
        async def look() -> Any:
            try:
                return check(await self.status())
            except Lost:
                return None
        try:
            return await until(look, timeout, "hermesd's status", every=every)
        except TimeoutError:
            return None

    async def running_tool(self, tool: str, not_pid: int | None = None,
                           timeout: float = RECOVERY_LIMIT) -> dict[str, Any] | None:
        def check(status: dict[str, Any]) -> dict[str, Any] | None:
            t = status.get("tools", {}).get(tool)
            if t and t["state"] == "running" and t["pid"] and t["pid"] != not_pid:
                return dict(t)
            return None
        found: dict[str, Any] | None = await self.poll(check, timeout)
        return found

    async def until_ok(self, send: Callable[[], Awaitable[Any]], ok: Callable[[Any], bool],
                       timeout: float) -> tuple[Any, int]:
        """Repeat a probe until it answers as wanted; (last answer, attempts)."""
        deadline = time.monotonic() + timeout
        attempts = 0
        last: Any = None
        while True:
            attempts += 1
            last = await send()
            if ok(last) or time.monotonic() > deadline:
                return last, attempts
            await asyncio.sleep(PROBE_EVERY)

    async def read_ok(self, point: str, after_wall: float | None = None,
                      timeout: float = RECOVERY_LIMIT) -> tuple[bool, str]:
        """A read of `point` answers ok (with a value taken after `after_wall`, if given)."""
        def ok(rec: Any) -> bool:
            fresh = after_wall is None or (rec.result_ts or 0) >= after_wall - 0.5
            return bool(rec.status == "ok" and fresh)
        rec, attempts = await self.until_ok(
            lambda: self.load.send(Planned("probe", point, {"op": "read", "point": point,
                                                            "timeout": 5.0})), ok, timeout)
        return ok(rec), f"read {point} -> {rec.status or rec.lost} after {attempts} tries"

    async def mqtt_ok(self, timeout: float = RECOVERY_LIMIT) -> tuple[bool, str]:
        def ok(rec: Any) -> bool:
            return bool(rec.status == "ok")
        rec, attempts = await self.until_ok(
            lambda: self.load.send(Planned("probe", "what is the temperature of boiler 3")),
            ok, timeout)
        return ok(rec), f"MQTT command -> {rec.status or rec.lost} after {attempts} tries"

    async def llm_ok(self, timeout: float = RECOVERY_LIMIT) -> tuple[bool, str]:
        """An ask the model answers (one the rules leave to it); else the worker's own state."""
        if not self.load.mix.llm_asks:
            state = await self.poll(lambda s: s.get("llm", {}).get("state") == self.llm_state,
                                    timeout)
            return bool(state), f"llm state {self.llm_state!r} again (the model is not exercised)"

        def ok(rec: Any) -> bool:
            return bool(rec.route == "llm" and rec.status in ("ok", "stale"))
        text = self.load.mix.llm_asks[0]
        rec, attempts = await self.until_ok(
            lambda: self.load.send(Planned("probe", text, {"op": "ask", "text": text,
                                                           "role": "operator"})), ok, timeout)
        return ok(rec), f"ask (llm route) -> {rec.route}/{rec.status or rec.lost} after " \
                        f"{attempts} tries"

    async def tool_works(self, tool: str) -> tuple[bool, str]:
        if tool == "llm":
            return await self.llm_ok()
        point = TOOL_PROBES.get(tool)
        if point is None:
            return True, "(no probe for this tool: running again is the judgement)"
        ok, how = await self.read_ok(point)
        if ok and tool == "mqtt":
            ok2, how2 = await self.mqtt_ok()
            return ok2, f"{how}; {how2}"
        return ok, how


Fault = Callable[[Rig, FaultRecord], Awaitable[None]]


# -- tools ---------------------------------------------------------------------------------------

def signal_tool(sig: signal.Signals) -> Fault:
    async def fault(rig: Rig, rec: FaultRecord) -> None:
        tool = rec.target
        before = await rig.running_tool(tool)
        if before is None:
            rec.error = f"tool {tool} was not running before the fault"
            return
        old = int(before["pid"])
        os.kill(old, sig)
        rec.inject()
        if sig == signal.SIGSTOP:
            rig.stopped_pids.add(old)
        after = await rig.running_tool(tool, not_pid=old)
        if after is None:
            rec.error = f"tool {tool} was not running again within {RECOVERY_LIMIT:g} s"
            return
        assert rec.injected_at is not None
        running_again = round(time.monotonic() - rec.injected_at, 2)
        ok, how = await rig.tool_works(tool)
        rec.observed.update(old_pid=old, new_pid=after["pid"], hermesd_said=after["last_error"],
                            restarts=after["restarts"] - before["restarts"],
                            running_again_after_s=running_again, probe=how)
        if ok:
            rec.recovered, rec.recovered_at = True, time.monotonic()
        rec.judged_by = (f"tool {tool} running with a new pid ({old} -> {after['pid']}) and "
                         f"{how}")
    return fault


# -- the broker ----------------------------------------------------------------------------------

def broker_restart(down: float) -> Fault:
    async def fault(rig: Rig, rec: FaultRecord) -> None:
        before = await rig.running_tool("mqtt")
        await rig.broker.stop()
        rec.inject()
        if await rig.poll(lambda s: s.get("mqtt", {}).get("connected") is False, down + 10):
            rec.detected_at = time.monotonic()
        await asyncio.sleep(max(0.0, rec.injected_at + down - time.monotonic()))  # type: ignore[operator]
        await rig.broker.start()
        rec.cause_removed()
        connected = await rig.poll(lambda s: s.get("mqtt", {}).get("connected") is True,
                                   RECOVERY_LIMIT)
        ok, how = await rig.mqtt_ok() if connected else (False, "bridge never reconnected")
        after = await rig.running_tool("mqtt", timeout=5)
        rec.observed.update(down_s=round(down, 1), probe=how, mqtt_tool_restarted=bool(
            before and after and before["pid"] != after["pid"]))
        if ok:
            rec.recovered, rec.recovered_at = True, time.monotonic()
        rec.judged_by = f"broker back on its port, hermesd's MQTT bridge connected again, {how}"
    return fault


# -- devices -------------------------------------------------------------------------------------

def device_dropout(hold: float, mode: str) -> Fault:
    """`silent`: the PLC's cable is pulled (no answers); `unplug`: the scale's USB plug is."""
    async def fault(rig: Rig, rec: FaultRecord) -> None:
        device = rec.target
        rec.observed["how"] = await rig.sims.fault("drop", device, mode)
        rec.inject()
        assert rec.injected_at is not None

        def offline(s: dict[str, Any]) -> Any:
            d = s.get("devices", {}).get(device, {})
            if d.get("online") is False:
                return d.get("reason") or "offline"
            return None
        reason = await rig.poll(offline, max(hold, 30.0))
        if reason:
            rec.detected_at = time.monotonic()
            rec.observed["hermesd_said"] = reason
        await asyncio.sleep(max(0.0, rec.injected_at + hold - time.monotonic()))
        await rig.sims.fault("restore", device)
        rec.cause_removed()
        assert rec.cause_removed_wall is not None
        online = await rig.poll(lambda s: s.get("devices", {}).get(device, {}).get("online"),
                                RECOVERY_LIMIT)
        ok, how = await rig.read_ok(DEVICE_PROBES[device], after_wall=rec.cause_removed_wall) \
            if online else (False, f"{device} never online again")
        rec.observed["probe"] = how
        if ok:
            rec.recovered, rec.recovered_at = True, time.monotonic()
        rec.judged_by = (f"{device} online again in status and {how} (a value taken after the "
                         f"restore); answers during the outage judged in `honesty`")
    return fault


# -- memory --------------------------------------------------------------------------------------

async def leak(rig: Rig, rec: FaultRecord) -> None:
    before = await rig.running_tool(LEAKY)
    if before is None:
        rec.error = f"tool {LEAKY} was not running before the fault"
        return
    old = int(before["pid"])
    held = 0
    after = None
    for step in range(GROW_STEPS):
        answer = await rig.load.send(Planned("fault", "grow", {
            "op": "call", "tool": LEAKY, "action": "grow", "args": {"mib": GROW_MIB},
            "role": "engineer", "timeout": 10.0}, intends=(f"{LEAKY}.grow", None)))
        if step == 0:
            rec.inject()
        if answer.status == "ok":
            held = max(held, (step + 1) * GROW_MIB)
        after = await rig.running_tool(LEAKY, not_pid=old, timeout=5.0)
        if after is not None:
            break
    if after is None:
        after = await rig.running_tool(LEAKY, not_pid=old)
    if after is None:
        rec.error = f"{LEAKY} still runs as pid {old} after holding {held} MiB: no restart"
        return
    rec.detected_at = time.monotonic()
    status = await rig.status()
    events = [e for e in status.get("memory", {}).get("events", [])
              if e.get("process") == LEAKY and e.get("ts", 0) >= (rec.injected_wall or 0) - 1]
    ok, how = await rig.read_ok(LEAKY_POINT)
    rec.observed.update(old_pid=old, new_pid=after["pid"], held_mib=held,
                        watchdog=[e.get("text") for e in events], probe=how)
    if ok and events:
        rec.recovered, rec.recovered_at = True, time.monotonic()
    kinds = "; ".join(str(e.get("kind")) for e in events) or "no watchdog event: restarted " \
        "for another reason"
    rec.judged_by = f"the memory watchdog restarted {LEAKY} ({kinds}), new pid {after['pid']}, {how}"


# -- the state disk ------------------------------------------------------------------------------

async def _write_probe(rig: Rig) -> Any:
    return await rig.load.send(Planned("probe", "pump1_speed", {
        "op": "write", "point": "pump1_speed", "value": 1100, "role": "operator",
        "timeout": 5.0}, intends=("pump1_speed", 1100)))


def _audit_failing(s: dict[str, Any]) -> Any:
    return s.get("audit", {}).get("failing")


def _persist_failing(s: dict[str, Any]) -> Any:
    return s.get("cache", {}).get("persist_failures")


async def _disk_recovered(rig: Rig, rec: FaultRecord) -> None:
    healthy = await rig.poll(lambda s: not _audit_failing(s) and not _persist_failing(s),
                             RECOVERY_LIMIT, every=0.5)
    if not healthy:
        status = await rig.status()
        rec.judged_by = (f"still failing: audit {_audit_failing(status)!r}, cache persist "
                         f"failures {_persist_failing(status)!r}")
        return
    probe, attempts = await rig.until_ok(lambda: _write_probe(rig), lambda r: r.status == "ok",
                                         RECOVERY_LIMIT)
    rec.observed["probe"] = f"write pump1_speed -> {probe.status or probe.lost} after {attempts} tries"
    if probe.status == "ok":
        rec.recovered, rec.recovered_at = True, time.monotonic()
    rec.judged_by = ("audit log writable again and the value cache persisted again (status), "
                     f"{rec.observed['probe']}")


def disk_full(hold: float) -> Fault:
    async def fill(rig: Rig, rec: FaultRecord) -> None:
        filled = await asyncio.to_thread(rig.disk.fill)
        rec.observed["filler_mib"] = round(filled / 2**20, 1)
    return _disk_fault(hold, fill, lambda rig: rig.disk.unfill(), "write_while_full",
                       detect_within=30.0, every=0.25)


def read_only(hold: float) -> Fault:
    async def remount(rig: Rig, rec: FaultRecord) -> None:
        rec.observed["method"] = await asyncio.to_thread(rig.disk.read_only)
    return _disk_fault(hold, remount, lambda rig: rig.disk.writable(), "write_while_read_only",
                       detect_within=max(hold, 30.0), every=0.5)


def _disk_fault(hold: float, inject: Callable[[Rig, FaultRecord], Awaitable[None]],
                remove: Callable[[Rig], object], probe_key: str, detect_within: float,
                every: float) -> Fault:
    """A state-disk fault: inject, see hermesd notice it, probe a write, hold, remove, recover."""
    async def fault(rig: Rig, rec: FaultRecord) -> None:
        await inject(rig, rec)
        rec.inject()
        assert rec.injected_at is not None
        failing = await rig.poll(lambda s: _audit_failing(s) or _persist_failing(s),
                                 detect_within, every=every)
        if failing:
            rec.detected_at = time.monotonic()
            rec.observed["hermesd_said"] = failing
        during = await _write_probe(rig)
        rec.observed[probe_key] = f"{during.status}/{during.code}"
        await asyncio.sleep(max(0.0, rec.injected_at + hold - time.monotonic()))
        await asyncio.to_thread(remove, rig)
        rec.cause_removed()
        await _disk_recovered(rig, rec)
    return fault


# -- running one -------------------------------------------------------------------------------

async def run_fault(rig: Rig, rec: FaultRecord, fault: Fault) -> FaultRecord:
    log.info("soak: %s ...", rec.name)
    try:
        await fault(rig, rec)
    except (OSError, RuntimeError, Lost) as exc:
        rec.error = f"{type(exc).__name__}: {exc}"
    if rec.error and not rec.judged_by:
        rec.judged_by = rec.error
    took = rec.recovery_s
    log.info("soak: %s: %s%s", rec.name, "recovered" if rec.recovered else "NOT RECOVERED",
             f" in {took:.1f} s" if took is not None else f" ({rec.error or rec.judged_by})")
    return rec


async def resume_stopped(pids: set[int], is_ours: Callable[[int], bool]) -> None:
    """SIGCONT whatever we stopped that is still there (hermesd normally killed it already)."""
    for pid in pids:
        if is_ours(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
