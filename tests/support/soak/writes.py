"""Every write hermesd meant to make, traced to the request that asked for it, and judged.

The audit trail (`audit-trail-*.jsonl` in the state dir; README: Audit log) holds a write's
intent, fsynced before the device is touched, with the request's trace id, source, uid and role.
Every answer names its trace id too, so each intent is traced to one request of the soak: of the
normal load (with the one write it asked for), of the hostile mix (with the one write its words
or payload state, if any: `says`), or to none. An intent is *outside policy* when the role the
request should have had (from where it came: the peer's uid, `mqtt.command_role`) may not write
that point, the point is not writable, the value is out of range or of the wrong type, or it is
a dry run; *outside words* when it is not exactly the write its request asked for — a retained
MQTT request may write what it says once, live, and never again. An intent no request accounts
for is outside too, unless it is exactly what a normal request that got no answer asked for.

Then the devices: every value hermes-sim showed for a writable point, and for a sentinel that
no one may write, must be the one it started with or one that an intent within policy and words
wrote. And every write the normal load or the hostile mix was answered `ok` for must still
have its intent in the trail at the end. This module reads files and judges; it never touches the plant.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.soak.hostile_rig import HostileSent, action_of
from tests.support.soak.load import Sent

EXAMPLES = 10


@dataclass(frozen=True)
class Asker:
    """The request behind an intent: where from, with which role, asking for what."""

    origin: str  # load | hostile
    kind: str
    role: str
    says: tuple[str, Any] | None  # the one write it may make: (point, value) or ("tool.x", None)
    what: str


def trail(state_dir: Path) -> list[dict[str, Any]]:
    records = []
    for path in sorted(state_dir.glob("audit-trail-*.jsonl")):
        for line in path.read_bytes().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue  # audit_intact counts unreadable lines
            if isinstance(record, dict):
                records.append(record)
    return records


def same(a: Any, b: Any) -> bool:
    """The same value as people mean it: booleans only equal booleans, numbers to a hair."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
    return bool(a == b)


class Policy:
    """What a role may write, from the soak's config (the same rules as README: Roles)."""

    def __init__(self, config: dict[str, Any]) -> None:
        access = config["access"]
        self.roles: dict[str, dict[str, Any]] = access["roles"]
        self.default_role: str = access["default_role"]
        self.users: dict[str, str] = {str(k): v for k, v in (access.get("users") or {}).items()}
        self.command_role: str | None = (config.get("mqtt") or {}).get("command_role")
        self.points = {p: spec for dev in config["devices"].values()
                       for p, spec in dev.get("points", {}).items()}

    def role_of_uid(self, uid: int) -> str:
        return self.users.get(str(uid), self.default_role)

    def refuses(self, role: str, name: str, args: dict[str, Any]) -> str | None:
        """Why `role` may not make this write (None: it may)."""
        spec = self.roles.get(role)
        if spec is None:
            return f"role {role!r} does not exist"
        if "." in name:  # a tool call that writes
            return None if spec.get("raw_write") else f"role {role} may not call {name}"
        point, value = args.get("point"), args.get("value")
        point_spec = self.points.get(str(point))
        if point_spec is None or not point_spec.get("writable"):
            return f"{point!r} is not a writable point"
        may = spec.get("write", False)
        if may is not True and (may is False or point not in may):
            return f"role {role} may not write {point}"
        if point_spec.get("type") == "bool":
            return None if isinstance(value, bool) else f"{value!r} is not true/false"
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{value!r} is not a number"
        lo, hi = point_spec.get("min"), point_spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return f"{value!r} is outside {lo}..{hi}"
        return None


def askers(load: list[Sent], hostile: list[HostileSent], policy: Policy) -> dict[str, Asker]:
    """Trace id -> the request it belongs to."""
    out: dict[str, Asker] = {}
    for rec in load:
        if rec.trace_id is None:
            continue
        role = (policy.command_role or "?") if rec.kind == "mqtt" else \
            "engineer" if rec.kind == "fault" else "operator"
        out[rec.trace_id] = Asker("load", rec.kind, role, rec.intends, rec.target[:120])
    for h in hostile:
        if h.who == "mqtt":
            role = policy.command_role or "?"
        elif h.who.startswith("uid "):
            role = policy.role_of_uid(int(h.who.split()[1]))
        else:
            role = "?"
        for trace in h.traces:
            says = h.says
            if h.kind == "retained" and trace != h.live_trace:
                says = None  # run again: whatever it wrote, its words were not said again
            out[trace] = Asker("hostile", h.kind, role, says, h.summary)
    return out


def judge(state_dir: Path, load: list[Sent], hostile: list[HostileSent],
          config: dict[str, Any], samples: list[tuple[float, str, Any]],
          initial: dict[str, Any], hostile_uids: dict[int, str]) -> dict[str, Any]:
    policy = Policy(config)
    by_trace = askers(load, hostile, policy)
    records = trail(state_dir)
    intents = [r for r in records if r.get("phase") == "intent"]
    lost = [r.intends for r in load if r.trace_id is None and r.intends is not None]
    origins: Counter[str] = Counter()
    outside_by_kind: Counter[str] = Counter()  # the kind of request behind each one outside
    outside_policy = outside_words = hostile_within = 0
    examples: list[dict[str, Any]] = []
    allowed: dict[str, list[Any]] = {}
    for intent in intents:
        name_of, args = action_of(intent)
        name = str(name_of)
        wrote = (str(args.get("point")), args.get("value")) if name == "write" else (name, None)
        asker = by_trace.get(str(intent.get("trace_id")))
        uid = intent.get("uid")
        if asker is None and isinstance(uid, int) and uid in hostile_uids:
            asker = Asker("hostile", hostile_uids[uid], policy.role_of_uid(uid), None,
                          "a request whose answer the soak never read")
        if asker is None:
            if any(same_write(wrote, want) for want in lost):
                origins["a normal request that got no answer"] += 1
                allowed.setdefault(wrote[0], []).append(wrote[1])
            else:
                origins["no request of the soak"] += 1
                outside_words += 1
                outside_by_kind["none"] += 1
                _example(examples, intent, wrote, "none", "no request of the soak asked for it")
            continue
        origins[asker.origin] += 1
        refused = policy.refuses(asker.role, name, args)
        if refused is None and intent.get("role") != asker.role:
            refused = f"hermesd wrote as role {intent.get('role')!r}; the request had {asker.role!r}"
        if refused is None and intent.get("dry_run"):
            refused = "a dry run got a write intent"
        if refused is not None:
            outside_policy += 1
            outside_by_kind[asker.kind] += 1
            _example(examples, intent, wrote, asker.kind, f"outside policy: {refused} "
                     f"({asker.what})")
            continue
        if asker.says is None or not same_write(wrote, asker.says):
            outside_words += 1
            outside_by_kind[asker.kind] += 1
            _example(examples, intent, wrote, asker.kind, f"outside words: it asked for "
                     f"{asker.says} ({asker.what})")
            continue
        hostile_within += asker.origin == "hostile"
        allowed.setdefault(wrote[0], []).append(wrote[1])
    devices = _devices(samples, initial, allowed, load)
    traced = {str(r.get("trace_id")) for r in intents}
    ok_writes = [r for r in load if r.status == "ok" and r.action == "write" and r.trace_id]
    missing = [r for r in ok_writes if r.trace_id not in traced]
    # a hostile request answered `ok write` (its last answer: words, MQTT) wrote too
    ok_hostile = [h for h in hostile if h.outcome == "ok write" and h.traces]
    missing_hostile = [h for h in ok_hostile if h.traces[-1] not in traced]
    return {
        "trail_files": sorted(p.name for p in state_dir.glob("audit-trail-*.jsonl")),
        "trail_records": len(records), "intents": len(intents),
        "by_origin": dict(origins), "hostile_within_words": hostile_within,
        "outside_policy": outside_policy, "outside_words": outside_words,
        "device_values_not_asked_for": devices["not_asked_for"],
        "outside": outside_policy + outside_words + devices["not_asked_for"],
        "outside_by_request_kind": dict(outside_by_kind), "examples": examples,
        "load_writes": {"answered_ok": len(ok_writes), "in_trail": len(ok_writes) - len(missing),
                        "missing": len(missing),
                        "missing_examples": [{"kind": r.kind, "target": r.target,
                                              "trace_id": r.trace_id} for r in missing[:5]]},
        "hostile_writes": {"answered_ok": len(ok_hostile),
                           "in_trail": len(ok_hostile) - len(missing_hostile),
                           "missing": len(missing_hostile),
                           "missing_examples": [{"kind": h.kind, "what": h.summary[:120],
                                                 "trace_id": h.traces[-1]}
                                                for h in missing_hostile[:5]]},
        "devices": devices,
    }


def same_write(wrote: tuple[str, Any], want: tuple[str, Any]) -> bool:
    if "." in wrote[0]:
        return wrote[0] == want[0]
    return wrote[0] == want[0] and same(wrote[1], want[1])


def _example(out: list[dict[str, Any]], intent: dict[str, Any], wrote: tuple[str, Any],
             kind: str, why: str) -> None:
    if len(out) < EXAMPLES:
        out.append({"trace_id": intent.get("trace_id"), "ts": intent.get("ts"),
                    "source": intent.get("source"), "uid": intent.get("uid"),
                    "role": intent.get("role"), "write": list(wrote), "request_kind": kind,
                    "why": why[:300]})


def _devices(samples: list[tuple[float, str, Any]], initial: dict[str, Any],
             allowed: dict[str, list[Any]], load: list[Sent]) -> dict[str, Any]:
    """Values the devices showed that no write within policy and words (nor the start) gave;
    `samples` are (seconds into the mix, point, value)."""
    asked: dict[str, list[Any]] = {}
    for r in load:  # a normal request may have written before its answer was lost
        if r.intends is not None and r.trace_id is None:
            asked.setdefault(r.intends[0], []).append(r.intends[1])
    seen: dict[str, int] = Counter(point for _, point, _ in samples)
    odd: list[dict[str, Any]] = []
    known: dict[str, list[Any]] = {}
    for t, point, value in samples:
        values = known.setdefault(point, [initial.get(point), *allowed.get(point, []),
                                          *asked.get(point, [])])
        if not any(same(value, v) for v in values):
            odd.append({"t": round(t, 1), "point": point, "value": value})
            values.append(value)  # count each odd value once
    return {"samples": len(samples), "points": dict(seen), "not_asked_for": len(odd),
            "examples": odd[:EXAMPLES]}
