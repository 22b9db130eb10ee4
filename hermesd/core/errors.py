"""The documented error codes and the few exceptions that carry them.

Every failure that reaches a user is one of `ErrorCode`; the exceptions below carry what failed
so the edge (control socket, MQTT) can map them to an answer without guessing. This module must
never import anything from the rest of hermesd: tools import it too.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The fixed set of error codes of `--json` answers and tool error messages."""

    BAD_REQUEST = "BAD_REQUEST"  # malformed request: wrong type, missing field, unknown field
    UNKNOWN_POINT = "UNKNOWN_POINT"  # no such point (or register) is configured or served
    NOT_WRITABLE = "NOT_WRITABLE"  # the point exists but is not `writable: true`
    FORBIDDEN = "FORBIDDEN"  # the requester's role does not allow this
    OUT_OF_RANGE = "OUT_OF_RANGE"  # value outside the point's min/max or of the wrong type
    RATE_LIMITED = "RATE_LIMITED"  # the role's write rate is exhausted for now
    DEVICE_OFFLINE = "DEVICE_OFFLINE"  # the device does not answer or is not connected
    DEVICE_ERROR = "DEVICE_ERROR"  # the device answered with an error (e.g. a Modbus exception)
    NOT_CONFIRMED = "NOT_CONFIRMED"  # a write was sent but its effect was not seen in time
    TIMEOUT = "TIMEOUT"  # the deadline passed before an answer
    TOOL_UNAVAILABLE = "TOOL_UNAVAILABLE"  # the tool process is not running or died mid-call
    BUSY = "BUSY"  # a bounded queue is full; try again later
    NOT_READY = "NOT_READY"  # the daemon or a worker is still starting
    NO_DATA = "NO_DATA"  # history holds no good value of the point in the period asked about
    INTERNAL = "INTERNAL"  # hermesd's own failure: a bug (logged), or no audit log for a write


#: Codes a caller may retry after a short backoff (the operation did not take effect).
RETRYABLE = frozenset({ErrorCode.BUSY})


class HermesError(Exception):
    """An error with a documented code and a message fit for the person who asked."""

    code: ErrorCode = ErrorCode.INTERNAL

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class BadRequest(HermesError):
    code = ErrorCode.BAD_REQUEST


class UnknownPoint(HermesError):
    code = ErrorCode.UNKNOWN_POINT

    def __init__(self, point: str, message: str | None = None) -> None:
        super().__init__(message or f"no point named {point!r} is configured")
        self.point = point


class Forbidden(HermesError):
    code = ErrorCode.FORBIDDEN


class Rejected(HermesError):
    """A request refused by policy before anything was sent (range, writability, rate)."""

    def __init__(self, message: str, *, code: ErrorCode = ErrorCode.OUT_OF_RANGE) -> None:
        super().__init__(message, code=code)


class DeviceOffline(HermesError):
    code = ErrorCode.DEVICE_OFFLINE

    def __init__(self, device: str, reason: str) -> None:
        super().__init__(f"device {device} is offline: {reason}")
        self.device = device
        self.reason = reason


class ToolUnavailable(HermesError):
    code = ErrorCode.TOOL_UNAVAILABLE

    def __init__(self, tool: str, reason: str = "not running", *, sent: bool = False) -> None:
        super().__init__(f"tool {tool} is unavailable: {reason}")
        self.tool = tool
        self.reason = reason
        #: the call had reached the tool when its connection broke: what it asked for may
        #: have been done
        self.sent = sent


class Timeout(HermesError):
    code = ErrorCode.TIMEOUT


class Unanswered(Timeout):
    """A call a tool was sent and did not answer by its deadline: what it asked for may or may
    not have been done (a tool drops a call it reads only after its deadline, but one it began
    in time may still end after it)."""


class Busy(HermesError):
    code = ErrorCode.BUSY


class ToolError(HermesError):
    """An error message a tool sent back for a call, with its code as the tool gave it."""

    def __init__(self, code: ErrorCode, message: str, *, retryable: bool = False) -> None:
        super().__init__(message, code=code)
        self.retryable = retryable


class Garbled(ToolError):
    """A tool's answer to a call that breaks the answer's schema: its own, or hermesd's for a
    point's read and write. The tool's fault, not hermesd's (DEVICE_ERROR, never INTERNAL);
    and a write it answered so was sent: it may have been done."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.DEVICE_ERROR, message)


class ConfigError(Exception):
    """A config file that cannot be used; carries every problem found, not just the first."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {what}" for path, what in problems))

    def lines(self) -> list[str]:
        return [f"config error: {path}: {what}" for path, what in self.problems]


class ProtocolError(Exception):
    """A malformed, oversize or out-of-place frame: the connection that sent it is closed."""
