"""The answer of `read`, `write`, `ask` and `call`, in the `--json` shape that DESIGN fixes.

An `Action` is what was decided (by a rule, the LLM, or directly); an `Answer` is what happened.
`respond` actions carry a `reason` from a fixed set, never free text that could claim an effect.

This is the one answer builder of every door (control socket, MQTT requests and `set`, voice,
Home Assistant's push-to-talk, hermesctl's own answers): a failure becomes an answer through
`failure` (or `refusal`), so the same error code gets the same status, and the same exit code
(`STATUS_EXIT`), whichever way the request came in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, Literal

from hermesd.core.errors import ErrorCode, HermesError

Status = Literal["ok", "stale", "error", "forbidden", "rejected", "dry_run", "busy"]
Route = Literal["rule", "llm", "direct"]
RespondReason = Literal["greeting", "thanks", "not_understood", "unknown_point", "not_allowed",
                        "out_of_scope", "intent"]

#: hermesctl's exit code for each status (README: "Exit status")
STATUS_EXIT = {"ok": 0, "stale": 0, "dry_run": 10, "error": 1, "rejected": 65, "forbidden": 77,
               "busy": 75}

#: the status of an answer that failed with a code; any code not named here is an `error`
_STATUS_OF: dict[str, Status] = {
    ErrorCode.FORBIDDEN: "forbidden",
    ErrorCode.BUSY: "busy",
    ErrorCode.OUT_OF_RANGE: "rejected",
    ErrorCode.NOT_WRITABLE: "rejected",
    ErrorCode.RATE_LIMITED: "rejected",
    ErrorCode.BAD_REQUEST: "rejected",
    ErrorCode.UNKNOWN_POINT: "rejected",
}


def status_of(code: str) -> Status:
    """The one mapping from an error code to an answer's status, for every door that answers."""
    return _STATUS_OF.get(code, "error")


#: not frozen (a frozen dataclass sets each field by a call, and every request makes an action),
#: but no code changes an action once it is made
@dataclass(slots=True)
class Action:
    name: str  # read | write | respond | <tool>.<action>
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "args": dict(self.args)}

    @property
    def point(self) -> str | None:
        point = self.args.get("point")
        return point if isinstance(point, str) else None


def respond(reason: RespondReason, **extra: Any) -> Action:
    return Action("respond", {"reason": reason, **extra})


@dataclass(slots=True)
class Answer:
    status: Status
    route: Route
    action: Action | None = None
    result: dict[str, Any] | None = None
    error: dict[str, str] | None = None
    reply: str = ""
    trace_id: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    checks: list[str] | None = None  # the checks passed (dry runs show them)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. transcript, id

    def to_dict(self) -> dict[str, Any]:
        timings_ms = self.timings_ms  # each rounded, in C-level passes (no step per timing)
        timings = dict(zip(timings_ms, map(round, timings_ms.values(), repeat(3)), strict=True))
        action = self.action
        out: dict[str, Any] = {
            "status": self.status,
            "route": self.route,
            "action": None if action is None else
            {"name": action.name, "args": dict(action.args)},  # action.to_dict(), on every answer
            "result": self.result,
            "error": self.error,
            "reply": self.reply,
            "trace_id": self.trace_id,
            "timings_ms": timings,
        }
        if self.checks is not None:
            out["checks"] = self.checks
        if self.extra:
            out.update(self.extra)
        return out


def failure(code: str, message: str, *, route: Route = "direct", action: Action | None = None,
            reply: str | None = None, trace_id: str = "") -> Answer:
    """The answer to a request that failed with `code` (an `ErrorCode`, or the code a tool
    sent): its status from `status_of`, the message as the reply unless one is given."""
    return Answer(status_of(code), route, action, error={"code": str(code), "message": message},
                  reply=message if reply is None else reply, trace_id=trace_id)


def refusal(exc: HermesError, route: Route = "direct", action: Action | None = None) -> Answer:
    """The answer to a request that failed with `exc` before anything was done."""
    return failure(exc.code, exc.message, route=route, action=action)
