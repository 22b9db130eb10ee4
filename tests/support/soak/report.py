"""The soak's figures and verdicts: the JSON report, its targets, and a summary to read.

Figures come from the soak's own records (every request with its answer or loss, every fault,
RSS samples read from /proc), not from hermesd's opinion of itself; hermesd's own status is
kept beside them. Targets: nothing lost; every answer in the documented shape; every injected
fault recovered; no fresh-looking value from a device that is down; RSS growth under 5 % after
warm-up (judged only on runs long enough to tell growth from warm-up); watchdog pings never late
enough for systemd to act; a clean stop; the audit log intact; nothing left behind; hermesd
never died; no tool restarted outside a fault's window; no write outside policy or words (and
every write of the load still in the trail: writes.py); with the hostile mix (hostile.py), every
hostile request answered in the documented way, no retained request run again, and root
answered by the control socket all along, floods included.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.soak.faults import FaultRecord
from tests.support.soak.load import Sent

LOAD_KINDS = ("read", "write", "ask", "mqtt", "fresh", "llm", "hermesctl")
RSS_LIMIT_PCT = 5.0
RSS_MIN_LIFE = 300.0  # seconds after warm-up a process must live for its growth to be judged
EXEMPT = {"leaky": "leaks on purpose (the memory watchdog's fault)"}


@dataclass(frozen=True)
class Sample:
    t: float  # seconds since the load started
    pid: int
    rss: int
    fds: int | None


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _latency(recs: Iterable[Sent], windows: list[tuple[float, float]]) -> dict[str, Any]:
    recs = list(recs)
    all_l = [r.latency for r in recs if r.latency is not None]
    calm = [r.latency for r in recs if r.latency is not None
            and not any(a <= r.sent <= b for a, b in windows)]
    return {"n": len(all_l), "p50_ms": _ms(pct(all_l, 0.5)), "p99_ms": _ms(pct(all_l, 0.99)),
            "max_ms": _ms(max(all_l, default=None)),
            "outside_faults": {"n": len(calm), "p50_ms": _ms(pct(calm, 0.5)),
                               "p99_ms": _ms(pct(calm, 0.99))}}


def requests_section(records: list[Sent], interrupted: bool = False) -> dict[str, Any]:
    # a request still waiting when an interrupt stopped the run was cut short, not lost
    cut = [r for r in records if interrupted and r.answered is None and r.lost is None]
    lost = [r for r in records if r.answered is None and not (interrupted and r.lost is None)]
    lost_ids = {id(r) for r in lost}
    breaches = [r for r in records if r.breach]
    by_kind: dict[str, Any] = {}
    for kind in sorted({r.kind for r in records}):
        mine = [r for r in records if r.kind == kind]
        by_kind[kind] = {"sent": len(mine), "answered": sum(r.answered is not None for r in mine),
                         "lost": sum(id(r) in lost_ids for r in mine)}
        if kind in ("mqtt", "probe"):
            by_kind[kind]["resent"] = sum(r.retries for r in mine)
    answered = [r for r in records if r.answered is not None]
    return {
        "sent": len(records), "answered": len(answered), "lost": len(lost),
        "cut_short": len(cut), "breaches": len(breaches),
        "by_kind": by_kind,
        "by_status": dict(Counter(str(r.status) for r in answered).most_common()),
        "by_code": dict(Counter(r.code for r in answered if r.code).most_common()),
        "by_route": dict(Counter(str(r.route) for r in answered).most_common()),
        "lost_examples": [{"kind": r.kind, "target": r.target, "why": r.lost or
                           "no answer by the end of the run"} for r in lost[:10]],
        "breach_examples": [{"kind": r.kind, "target": r.target, "breach": r.breach}
                            for r in breaches[:10]],
    }


def throughput_section(records: list[Sent], started: float, stopped: float,
                       rate: float) -> dict[str, Any]:
    load = [r for r in records if r.kind in LOAD_KINDS and started <= r.sent <= stopped]
    seconds = max(stopped - started, 1e-9)
    answered_at = sorted(r.answered for r in load if r.answered is not None)
    worst = None
    if seconds >= 30:  # windows of 10 s, leaving out the first and last (ramp and drain)
        edges = [started + 10 + 10 * i for i in range(int((seconds - 20) // 10))]
        counts = [sum(1 for t in answered_at if a <= t < a + 10) for a in edges]
        worst = round(min(counts) / 10, 2) if counts else None
    return {"seconds": round(seconds, 1), "target_rps": rate,
            "sent_rps": round(len(load) / seconds, 2),
            "answered_rps": round(len(answered_at) / seconds, 2),
            "worst_10s_answered_rps": worst}


def latency_section(records: list[Sent], windows: list[tuple[float, float]]) -> dict[str, Any]:
    answered = [r for r in records if r.latency is not None]
    return {
        "by_route": {route: _latency((r for r in answered if r.route == route), windows)
                     for route in sorted({str(r.route) for r in answered})},
        "by_kind": {kind: _latency((r for r in answered if r.kind == kind), windows)
                    for kind in sorted({r.kind for r in answered})},
    }


def honesty_section(records: list[Sent], faults: list[FaultRecord],
                    points_of: dict[str, set[str]], wall_offset: float) -> dict[str, Any]:
    """Answers about a device while it was down: stale or refused is honest; a fresh `ok` is not."""
    out: dict[str, Any] = {"dishonest": 0, "outages": []}
    for f in faults:
        if f.kind != "dropout" or f.injected_at is None or f.cause_removed_at is None:
            continue
        points = points_of.get(f.target, set())
        start, end = f.injected_at + 1.0, f.cause_removed_at  # in-flight reads may finish first
        mine = [r for r in records if r.point in points and r.answered is not None
                and start <= r.sent and r.answered <= end]
        fresh = [r for r in mine if r.status == "ok" and r.action == "read"
                 and (r.result_ts or 0) > f.injected_at + wall_offset + 0.5]
        shown = f.detected_at
        after_shown = [r for r in mine if shown is not None and r.sent >= shown
                       and r.status == "ok" and r.action in ("read", "write")]
        bad = {id(r) for r in fresh} | {id(r) for r in after_shown}
        out["dishonest"] += len(bad)
        out["outages"].append({
            "fault": f.name, "answers": dict(Counter(str(r.status) for r in mine)),
            "stale": sum(r.status == "stale" for r in mine),
            "fresh_values_from_a_dead_device": len(fresh),
            "ok_after_hermesd_showed_it_offline": len(after_shown),
        })
    return out


def process_section(samples: dict[str, list[Sample]], warm_t: float, short: bool,
                    restarts: dict[str, int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, series in sorted(samples.items()):
        if not series:
            continue
        start = next((s for s in series if s.t >= warm_t), series[-1])
        end = series[-1]
        first, peak = series[0], max(series, key=lambda s: s.rss)
        entry: dict[str, Any] = {
            "first": {"t_s": round(first.t, 1), "pid": first.pid,
                      "rss_mib": round(first.rss / 2**20, 1)},
            "max": {"t_s": round(peak.t, 1), "pid": peak.pid, "rss_mib": round(peak.rss / 2**20, 1)},
            "start": {"t_s": round(start.t, 1), "pid": start.pid,
                      "rss_mib": round(start.rss / 2**20, 1), "fds": start.fds},
            "end": {"t_s": round(end.t, 1), "pid": end.pid, "rss_mib": round(end.rss / 2**20, 1),
                    "fds": end.fds},
            "growth_pct": round((end.rss - start.rss) / start.rss * 100, 2),
            "same_process": start.pid == end.pid,
            "restarts": restarts.get(name, 0),
            "timeline_mib": _timeline(series),
        }
        lived = _longest_life(series, warm_t)
        if lived is not None:
            entry["longest_lived"] = lived
        entry["judged"], entry["met"], entry["why"] = _rss_verdict(name, entry, short)
        out[name] = entry
    return out


def _timeline(series: list[Sample], points: int = 12) -> list[list[float]]:
    if len(series) <= points:
        chosen = series
    else:
        step = (len(series) - 1) / (points - 1)
        chosen = [series[round(i * step)] for i in range(points)]
    return [[round(s.t), round(s.rss / 2**20, 1)] for s in chosen]


def _longest_life(series: list[Sample], warm_t: float) -> dict[str, Any] | None:
    """The process (pid) of this name that ran longest after its own warm-up, and its growth."""
    by_pid: dict[int, list[Sample]] = {}
    for s in series:
        by_pid.setdefault(s.pid, []).append(s)
    best = None
    for pid, mine in by_pid.items():
        first = mine[0].t + (0.0 if mine[0].t >= warm_t else warm_t - mine[0].t)
        warm = next((s for s in mine if s.t >= first + min(60.0, warm_t)), None)
        if warm is None or warm is mine[-1]:
            continue
        span = mine[-1].t - warm.t
        if best is None or span > best["span_s"]:
            best = {"pid": pid, "span_s": round(span, 1), "from_mib": round(warm.rss / 2**20, 1),
                    "to_mib": round(mine[-1].rss / 2**20, 1),
                    "growth_pct": round((mine[-1].rss - warm.rss) / warm.rss * 100, 2)}
    return best


def _rss_verdict(name: str, entry: dict[str, Any], short: bool) -> tuple[bool, bool | None, str]:
    if short:
        return False, None, "not judged in --short: a minute cannot tell growth from warm-up"
    if name in EXEMPT:
        return False, None, EXEMPT[name]
    if name in ("hermes-sim", "mosquitto", "hostile-inputs") or name.startswith("peer-"):
        return False, None, "part of the test rig, not of hermesd"
    if entry["same_process"]:
        met = entry["growth_pct"] < RSS_LIMIT_PCT
        return True, met, f"{entry['growth_pct']:+.1f} % from warm-up to the end"
    lived = entry.get("longest_lived")
    if lived is None or lived["span_s"] < RSS_MIN_LIFE:
        return False, None, "restarted by the faults; no process lived long enough to judge"
    met = lived["growth_pct"] < RSS_LIMIT_PCT
    return True, met, (f"restarted by the faults; its longest-lived process (pid {lived['pid']}, "
                       f"{lived['span_s'] / 60:.0f} min) grew {lived['growth_pct']:+.1f} %")


def fault_entry(f: FaultRecord, t0: float, wall_offset: float,
                interrupted: bool = False) -> dict[str, Any]:
    def rel(t: float | None) -> float | None:
        return None if t is None else round(t - t0, 2)

    def iso(t: float | None) -> str | None:
        if t is None:
            return None
        from datetime import UTC, datetime
        return datetime.fromtimestamp(t + wall_offset, UTC).isoformat(timespec="milliseconds")
    entry: dict[str, Any] = {
        "name": f.name, "kind": f.kind, "target": f.target,
        "injected_at": iso(f.injected_at), "injected_t_s": rel(f.injected_at),
        "detected_after_s": None if f.detected_at is None or f.injected_at is None
        else round(f.detected_at - f.injected_at, 2),
        "cause_removed_t_s": rel(f.cause_removed_at),
        "recovered_at": iso(f.recovered_at), "recovered_t_s": rel(f.recovered_at),
        "recovered": f.recovered,
        "recovery_s": None if f.recovery_s is None else round(f.recovery_s, 2),
        "recovery_from": "cause removed" if f.cause_removed_at is not None else "injection",
        "judged_by": f.judged_by or ("the run was interrupted before it recovered"
                                     if interrupted else "no verdict"),
        "observed": f.observed,
    }
    if f.skipped:
        entry["skipped"] = f.skipped
    if f.error:
        entry["error"] = f.error
    return entry


def audit_check(state_dir: Path) -> dict[str, Any]:
    """Every line of the audit log (its rotations, and the trail) must be one JSON record."""
    files = sorted(state_dir.glob("audit.jsonl*")) + sorted(state_dir.glob("audit-trail-*.jsonl"))
    lines = bad = 0
    examples: list[str] = []
    for path in files:
        for raw in path.read_bytes().splitlines():
            if not raw.strip():
                continue
            lines += 1
            try:
                json.loads(raw)
            except ValueError:
                bad += 1
                if len(examples) < 3:
                    examples.append(f"{path.name}: {raw[:160]!r}")
    return {"files": [p.name for p in files], "lines": lines, "unparsable": bad,
            "examples": examples}


def targets(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    req = report["requests"]
    faults = [f for f in report["faults"] if not f.get("skipped")]
    unrecovered = [f["name"] for f in faults if not f["recovered"]]
    rss = {n: p for n, p in report["processes"].items() if p["judged"]}
    over = [f"{n} {p['why']}" for n, p in rss.items() if p["met"] is False]
    wd = report["watchdog"]
    stop = report["stop"]
    left = report["cleanup"]
    audit = report["audit"]
    honesty = report["honesty"]
    out = {
        "none_lost": (req["lost"] == 0, f"{req['lost']} of {req['sent']} requests got no answer"),
        "answers_documented": (req["breaches"] == 0,
                               f"{req['breaches']} answers outside the documented shape"),
        "faults_recovered": (not unrecovered and bool(faults),
                             f"{len(faults) - len(unrecovered)} of {len(faults)} injected faults "
                             "recovered" + (f"; not: {', '.join(unrecovered)}" if unrecovered
                                            else "")),
        "honest_during_outages": (honesty["dishonest"] == 0,
                                  f"{honesty['dishonest']} fresh-looking answers from a device "
                                  "that was down"),
        "rss_growth_under_5pct": (None if not rss else not over,
                                  "; ".join(over) if over else
                                  (f"{len(rss)} processes judged" if rss else
                                   "not judged (see processes)")),
        "watchdog_in_time": (wd["longest_gap_s"] is not None
                             and wd["longest_gap_s"] < wd["limit_s"],
                             f"longest gap between WATCHDOG=1 {wd['longest_gap_s']} s "
                             f"(systemd acts at {wd['limit_s']} s)"),
        "clean_stop": (stop.get("exit_code") == 0 and (stop.get("seconds") or 99) <= 5.0,
                       f"exit {stop.get('exit_code')} {stop.get('seconds')} s after SIGTERM"),
        "audit_intact": (audit.get("unparsable", 0) == 0,
                         f"{audit.get('unparsable')} unparsable of {audit.get('lines')} lines"),
        "nothing_left_behind": (not left["processes"] and not left["mounts"],
                                f"{len(left['processes'])} processes, {len(left['mounts'])} "
                                "mounts left"),
    }
    out.update(_trust_targets(report))
    return {name: {"met": met, "detail": detail} for name, (met, detail) in out.items()}


def _trust_targets(report: dict[str, Any]) -> dict[str, tuple[bool | None, str]]:
    """Issue 12's: no crash, no write outside policy or words, and the hostile mix's."""
    out: dict[str, tuple[bool | None, str]] = {}
    daemon, restarts, writes = report["daemon"], report["tool_restarts"], report["writes"]
    died = daemon.get("exited_during_run")
    out["hermesd_never_died"] = (daemon.get("pid") is not None and died is None,
                                 f"pid {daemon.get('pid')} ran from READY to the stop" if not died
                                 else f"hermesd exited {died['exit_code']} at {died['t_s']} s")
    out["no_tool_restart_outside_faults"] = (
        restarts["outside_fault_windows"] == 0,
        f"{restarts['outside_fault_windows']} of {restarts['seen']} tool restarts outside every "
        "fault's window" + (f": {restarts['unexplained'][:2]}" if restarts["unexplained"] else ""))
    if writes:
        out["no_write_outside_policy_or_words"] = (
            writes["outside"] == 0,
            f"{writes['outside_policy']} outside policy, {writes['outside_words']} outside words, "
            f"{writes['device_values_not_asked_for']} device values not asked for, of "
            f"{writes['intents']} write intents")
        load = writes["load_writes"]
        out["load_writes_in_trail"] = (load["missing"] == 0,
                                       f"{load['in_trail']} of {load['answered_ok']} writes "
                                       "answered ok have their intent in the trail")
        mine = writes.get("hostile_writes") or {"answered_ok": 0, "in_trail": 0, "missing": 0}
        out["hostile_writes_in_trail"] = (mine["missing"] == 0,
                                          f"{mine['in_trail']} of {mine['answered_ok']} hostile "
                                          "requests answered `ok write` have their intent in "
                                          "the trail")
    hostile = report["hostile"]
    if hostile.get("enabled"):
        out["hostile_answered_as_documented"] = (
            hostile["breaches"] == 0 and hostile["unanswered"] == 0 and not hostile["soak_errors"],
            f"{hostile['breaches']} breaches, {hostile['unanswered']} unanswered of "
            f"{hostile['requests']} hostile requests" + (
                f"; the soak failed to send {len(hostile['soak_errors'])}"
                if hostile["soak_errors"] else ""))
        out["retained_never_run_again"] = (hostile["retained_ran_again"] == 0,
                                           f"{hostile['retained_ran_again']} runs of retained "
                                           "requests after their live one")
        probe = hostile["root_probe"]
        out["root_always_answered"] = (probe["n"] > 0 and probe["failed"] == 0,
                                       f"{probe['failed']} of {probe['n']} status probes by root "
                                       f"failed ({probe['during_floods']['n']} during floods)")
    return out


def summary(report: dict[str, Any], extra: list[str] | None = None) -> str:
    """The report as a person reads it at the end of a run."""
    req, thr = report["requests"], report["throughput"]
    lines = [f"soak: {report['mode']} run of {report['duration_s']:.0f} s at {thr['target_rps']} "
             f"requests/s{' (interrupted)' if report['interrupted'] else ''}",
             f"  requests: {req['sent']} sent, {req['answered']} answered, {req['lost']} lost, "
             + (f"{req['cut_short']} cut short by the interrupt, " if req["cut_short"] else "")
             + f"{req['breaches']} outside the contract; resent over MQTT: "
             f"{req['by_kind'].get('mqtt', {}).get('resent', 0)}",
             f"  held: {thr['answered_rps']} answered/s (sent {thr['sent_rps']}/s; worst 10 s: "
             f"{thr['worst_10s_answered_rps']}/s)",
             "  answers: " + ", ".join(f"{k} {v}" for k, v in req["by_status"].items()),
             "  codes: " + (", ".join(f"{k} {v}" for k, v in req["by_code"].items()) or "none")]
    lines.append("  latency by route (p50 / p99 / p99 outside fault windows, ms):")
    for route, lat in report["latency"]["by_route"].items():
        lines.append(f"    {route:7} n={lat['n']:<6} {lat['p50_ms']} / {lat['p99_ms']} / "
                     f"{lat['outside_faults']['p99_ms']}")
    lines.append("  RSS (MiB) at warm-up -> end (first sample, max):")
    for name, p in report["processes"].items():
        verdict = {True: "ok", False: "OVER", None: "-"}[p["met"]]
        lines.append(f"    {name:17} {p['start']['rss_mib']:>7} -> {p['end']['rss_mib']:>7} "
                     f"({p['growth_pct']:+.1f} %; first {p['first']['rss_mib']}, max "
                     f"{p['max']['rss_mib']}) {verdict}: {p['why']}")
    lines.append("  faults:")
    for f in report["faults"]:
        if f.get("skipped"):
            lines.append(f"    {f['name']:26} skipped: {f['skipped']}")
            continue
        took = f"{f['recovery_s']:.1f} s" if f["recovery_s"] is not None else "-"
        lines.append(f"    {f['name']:26} {'recovered' if f['recovered'] else 'NOT RECOVERED':13}"
                     f" {took:>7}  {f['judged_by'][:150]}")
    llm = report["llm"]
    lines.append(f"  llm: {'exercised' if llm['exercised'] else 'not exercised'}"
                 f"{': ' + llm['reason'] if llm.get('reason') else ''}")
    lines.extend(extra or [])
    lines.append("  targets:")
    for name, t in report["targets"].items():
        mark = {True: "met", False: "MISSED", None: "not judged"}[t["met"]]
        lines.append(f"    {name:24} {mark:10} {t['detail']}")
    lines.append(f"soak: {'PASSED' if report['passed'] else 'FAILED'}")
    return "\n".join(lines)
