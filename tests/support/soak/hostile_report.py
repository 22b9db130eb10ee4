"""The hostile mix's figures: what was sent, what was answered and how, root's probes during the
floods, tool restarts the faults do not explain, and the lines of the summary that show them.

A fault window is from a fault's injection to its recovery (or the recovery limit), widened by
`MARGIN` on both sides: an MQTT request sent then may be lost with the broker or the mqtt tool,
and a tool restarted then was restarted by the fault. Outside every window, every MQTT request
is answered and no tool restarts. Figures only: the targets are in report.py.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.support.soak.hostile import HostileMix, Probe
from tests.support.soak.hostile_rig import HostileSent
from tests.support.soak.report import pct

MARGIN = 10.0  # seconds around a fault window
CONTROL_KINDS = ("frames", "frames_dry_run", "oversize", "reads", "words")
MQTT_KINDS = ("mqtt", "retained")


def _inside(t: float, windows: list[tuple[float, float]]) -> bool:
    return any(a - MARGIN <= t <= b + MARGIN for a, b in windows)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def restarts_section(events: list[tuple[float, float, str, int, str | None]],
                     windows: list[tuple[float, float]]) -> dict[str, Any]:
    """Tool restarts seen in status, and those no injected fault explains."""
    unexplained = [e for e in events if not (_inside(e[0], windows) or _inside(e[1], windows))]
    by_tool: Counter[str] = Counter()
    for _, _, tool, n, _ in events:
        by_tool[tool] += n
    return {"seen": sum(e[3] for e in events), "by_tool": dict(by_tool),
            "outside_fault_windows": sum(e[3] for e in unexplained),
            "unexplained": [{"tool": tool, "restarts": n, "last_error": (err or "")[:200]}
                            for _, _, tool, n, err in unexplained[:10]]}


def _probes(probes: list[Probe]) -> dict[str, Any]:
    ok = [p.latency for p in probes if p.latency is not None]
    failed = [p for p in probes if p.latency is None]
    return {"n": len(probes), "failed": len(failed), "p50_ms": _ms(pct(ok, 0.5)),
            "p99_ms": _ms(pct(ok, 0.99)), "max_ms": _ms(max(ok, default=None)),
            "met_a_full_backlog": sum(p.backlog_full for p in probes),
            "failures": sorted({str(p.error)[:120] for p in failed})[:5]}


def _unanswered(rec: HostileSent, windows: list[tuple[float, float]]) -> int:
    """Requests of this input that should have had an answer and did not."""
    if rec.kind in MQTT_KINDS:
        return int(rec.expects_answer and not rec.answered and not _inside(rec.sent, windows))
    return rec.unanswered


def hostile_section(mix: HostileMix | None, windows: list[tuple[float, float]],
                    rate: float) -> dict[str, Any]:
    if mix is None:
        return {"enabled": False}
    recs = mix.records
    by_kind: dict[str, Any] = {}
    for kind in sorted({r.kind for r in recs}):
        mine = [r for r in recs if r.kind == kind]
        entry: dict[str, Any] = {
            "inputs": len(mine), "requests": sum(r.requests for r in mine),
            "answered": sum(r.answered for r in mine),
            "closed_after_a_bad_frame": sum(r.closed for r in mine),
            "unanswered": sum(_unanswered(r, windows) for r in mine),
            "breaches": sum(len(r.breaches) for r in mine)}
        if kind in MQTT_KINDS:
            due = [r for r in mine if r.expects_answer]
            entry["answer_due"] = len(due)
            entry["unanswered_in_fault_windows"] = sum(
                1 for r in due if not r.answered and _inside(r.sent, windows))
        if kind == "retained":
            entry["ran_live"] = sum(1 for r in mine if r.live_trace)
            entry["ran_again"] = sum(r.replays for r in mine)
        if kind in ("stranger", "words") or kind in MQTT_KINDS:
            entry["outcomes"] = dict(Counter(str(r.outcome) for r in mine).most_common(12))
        if kind == "words":
            entry["forms"] = dict(Counter(str(r.detail.get("form")) for r in mine))
            entry["asked_back_naming_the_problem"] = dict(Counter(
                str(r.detail.get("value_problem")) for r in mine
                if r.detail.get("value_problem")))
        by_kind[kind] = entry
    floods = [r for r in recs if r.kind == "flood"]
    during = [p for p in mix.probes if any(f.sent <= p.t <= (f.answered_at or f.sent)
                                           for f in floods)]
    breaches = [r for r in recs if r.breaches]
    started = mix.started or 0.0
    stopped = mix.stopped or started
    return {
        "enabled": True, "rate": rate, "skipped": dict(mix.skipped),
        "soak_errors": mix.errors[:10],
        "seconds": round(stopped - started, 1),
        "inputs": len(recs), "requests": sum(r.requests for r in recs),
        "answered": sum(r.answered for r in recs),
        "closed_after_a_bad_frame": sum(r.closed for r in recs),
        "unanswered": sum(_unanswered(r, windows) for r in recs),
        "breaches": sum(len(r.breaches) for r in recs),
        "retained_ran_again": sum(r.replays for r in recs),
        "mqtt_client_connects": mix.attacker.client.connects if mix.attacker else None,
        "by_kind": by_kind,
        "root_probe": {**_probes(mix.probes), "during_floods": _probes(during)},
        "floods": [{"t_s": round(f.sent - started, 1), **{k: v for k, v in f.detail.items()
                                                             if k != "other"}}
                   for f in floods],
        "breach_examples": [{"kind": r.kind, "who": r.who, "input": r.summary,
                             "breach": r.breaches[0][:300]} for r in breaches[:10]],
    }


def summary_lines(report: dict[str, Any]) -> list[str]:
    """The hostile mix, the writes and the daemon, as a person reads them."""
    lines: list[str] = []
    h, w, d = report.get("hostile", {}), report.get("writes", {}), report.get("daemon", {})
    if h.get("enabled"):
        lines.append(f"  hostile mix at {h['rate']:g}/s: {h['inputs']} inputs, {h['requests']} "
                     f"requests, {h['answered']} answered, {h['closed_after_a_bad_frame']} "
                     f"closed after a bad frame, {h['unanswered']} unanswered, "
                     f"{h['breaches']} breaches")
        for kind, k in h["by_kind"].items():
            lines.append(f"    {kind:15} {k['requests']:>7} requests, {k['answered']:>7} "
                         f"answered, {k['unanswered']} unanswered, {k['breaches']} breaches")
        probe = h["root_probe"]
        lines.append(f"    root's status probe: {probe['n']} ({probe['failed']} failed), p50/p99/"
                     f"max {probe['p50_ms']}/{probe['p99_ms']}/{probe['max_ms']} ms; during "
                     f"floods {probe['during_floods']['n']} ({probe['during_floods']['failed']} "
                     f"failed), {probe['during_floods']['p50_ms']}/"
                     f"{probe['during_floods']['p99_ms']}/{probe['during_floods']['max_ms']} ms")
        for name, why in h["skipped"].items():
            lines.append(f"    skipped {name}: {why}")
    if w:
        lines.append(f"  writes: {w['intents']} intents in the trail ({w['by_origin']}); outside "
                     f"policy {w['outside_policy']}, outside words {w['outside_words']}, device "
                     f"values not asked for {w['device_values_not_asked_for']}; normal writes "
                     f"missing from the trail {w['load_writes']['missing']}, hostile "
                     f"{(w.get('hostile_writes') or {}).get('missing', 0)}")
    if d:
        lines.append(f"  hermesd: pid {d['pid']}, crashes {d['crashes']}; tool restarts outside "
                     f"fault windows: {report['tool_restarts']['outside_fault_windows']}")
    return lines
